/**
 * The `leaderworkerset.x-k8s.io/v1` LeaderWorkerSet the component controller creates for a
 * multinode DCD when LeaderWorkerSet is available (render-multinode §3.2, §3.4): one object per
 * DCD, each replica a group of one leader pod and `nodeCount - 1` worker pods.
 */
import { DcdContext } from './dcd-context';
import { KubeObject, kubeObject } from './kube-object';
import { copyJson } from '../../model/json-copy';
import { JsonObject } from '../../model/v1beta1';
import { ANNOTATION_LAST_APPLIED_GENERATION, ANNOTATION_LAST_APPLIED_HASH, MAIN_CONTAINER } from '../../model/well-known';
import { RenderError } from '../errors';
import { lastAppliedHash } from '../hash/last-applied-hash';
import { MultinodeRoleName, nodeCountOf } from '../multinode/roles';
import { renderPodTemplate } from '../pod/pod-template';
import { workloadLabels } from '../workload-metadata';

export const LWS_API_VERSION = 'leaderworkerset.x-k8s.io/v1';
export const LWS_KIND = 'LeaderWorkerSet';

/** The operator creates every group's leader first (`spec.startupPolicy`). */
export const LWS_STARTUP_POLICY = 'LeaderCreated';

/** The name of a DCD's LeaderWorkerSet: the DCD name with `-0` (render-multinode §3.2). */
export function leaderWorkerSetName(dcdName: string): string {
  return `${dcdName}-0`;
}

/**
 * What the LeaderWorkerSet admission webhook (sigs.k8s.io/lws v0.9.0) fills in on every object the
 * operator creates (render-multinode §3.2, §12.8). They are part of the stored object the goldens
 * record, not of what the operator sends, so the bookkeeping hash is taken without them.
 */
function applyLwsWebhookDefaults(spec: JsonObject): void {
  const template = spec.leaderWorkerTemplate as JsonObject;
  if (template.restartPolicy === undefined) template.restartPolicy = 'RecreateGroupOnPodRestart';
  if (spec.rolloutStrategy === undefined) {
    spec.rolloutStrategy = { type: 'RollingUpdate', rollingUpdateConfiguration: { maxUnavailable: 1, maxSurge: 0, partition: 0 } };
  }
  if (spec.networkConfig === undefined) spec.networkConfig = { subdomainPolicy: 'Shared' };
}

/**
 * Refuses a pod template whose `main` container lacks a command or args: LeaderWorkerSet pods
 * need both (render-multinode §3.2).
 */
function assertLwsMainContainer(template: JsonObject, role: MultinodeRoleName, ctx: DcdContext): void {
  const containers = ((template.spec as JsonObject | undefined)?.containers ?? []) as JsonObject[];
  const main = containers.find(c => c.name === MAIN_CONTAINER);
  const field = 'spec.podTemplate.spec.containers[main]';
  if (!main) throw new RenderError(ctx.ref, field, `the ${role} pod of a LeaderWorkerSet needs a main container`);
  if (!Array.isArray(main.command) || main.command.length === 0) {
    throw new RenderError(ctx.ref, `${field}.command`, `the ${role} pod of a LeaderWorkerSet needs a main container command, got none`);
  }
  if (!Array.isArray(main.args) || main.args.length === 0) {
    throw new RenderError(ctx.ref, `${field}.args`, `the ${role} pod of a LeaderWorkerSet needs main container args, got none`);
  }
}

/** The pod template of one LeaderWorkerSet role. */
export function renderLwsPodTemplate(ctx: DcdContext, role: MultinodeRoleName): JsonObject {
  const template = renderPodTemplate(ctx, { multinodeRole: role });
  assertLwsMainContainer(template, role, ctx);
  return template;
}

/**
 * The LeaderWorkerSet of a multinode DCD: named `<dcd>-0`, the DCD's workload labels, replicas
 * from the DCD (default 1), group size `nodeCount`, leader and worker pod templates, startup
 * policy `LeaderCreated`, plus the create bookkeeping annotations and the LWS webhook defaults.
 */
export function renderLeaderWorkerSet(ctx: DcdContext): KubeObject {
  const spec = ctx.dcd.spec ?? {};
  const replicas = spec.replicas;
  const sent: JsonObject = {
    replicas: replicas === undefined || replicas === null ? 1 : replicas,
    leaderWorkerTemplate: {
      leaderTemplate: renderLwsPodTemplate(ctx, 'leader'),
      workerTemplate: renderLwsPodTemplate(ctx, 'worker'),
      size: nodeCountOf(spec),
    },
    startupPolicy: LWS_STARTUP_POLICY,
  };
  const meta = { name: leaderWorkerSetName(ctx.name), namespace: ctx.namespace, labels: workloadLabels(ctx.dcd) };
  // no Go layout for the LWS types: the hash is taken over the spec as unstructured JSON
  const hash = lastAppliedHash(kubeObject(LWS_API_VERSION, LWS_KIND, meta, { spec: sent }), { layout: null });
  const stored = copyJson(sent);
  applyLwsWebhookDefaults(stored);
  return kubeObject(LWS_API_VERSION, LWS_KIND,
    { name: meta.name, namespace: meta.namespace, labels: meta.labels, annotations: { [ANNOTATION_LAST_APPLIED_HASH]: hash, [ANNOTATION_LAST_APPLIED_GENERATION]: '1' } },
    { spec: stored });
}
