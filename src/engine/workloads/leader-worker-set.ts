/**
 * The `leaderworkerset.x-k8s.io/v1` LeaderWorkerSet the component controller creates for a
 * multinode DCD when LeaderWorkerSet is available (docs/design/render-multinode.md §3.2, §3.4): one object per
 * DCD, each replica a group of one leader pod and `nodeCount - 1` worker pods.
 */
import { DcdContext } from './dcd-context';
import { KubeObject, kubeObject, kubeObjectWithGoSpec, ObjectMetaInput } from './kube-object';
import { copyJson } from '../../model/json-copy';
import { RenderError } from '../../model/render-error';
import { JsonObject } from '../../model/v1beta1';
import { MAIN_CONTAINER } from '../../model/well-known';
import { MultinodeRoleName, nodeCountOf } from '../multinode/roles';
import { renderPodTemplate } from '../pod/workload-pod-template';
import { workloadLabels } from '../workload-metadata';

export const LWS_API_VERSION = 'leaderworkerset.x-k8s.io/v1';
export const LWS_KIND = 'LeaderWorkerSet';

/** The operator creates every group's leader first (`spec.startupPolicy`). */
export const LWS_STARTUP_POLICY = 'LeaderCreated';

/** The name of a DCD's LeaderWorkerSet: the DCD name with `-0` (docs/design/render-multinode.md §3.2). */
export function leaderWorkerSetName(dcdName: string): string {
  return `${dcdName}-0`;
}

/** The Go type of the spec the operator sends (sigs.k8s.io/lws v0.9.0). */
const LWS_SPEC = 'LeaderWorkerSetSpec';

/**
 * What the LeaderWorkerSet admission webhook (sigs.k8s.io/lws v0.9.0,
 * `pkg/webhooks/leaderworkerset_webhook.go`) fills in on every object the operator creates
 * (docs/design/render-multinode.md §3.2, §12.8), on the spec as the operator sends it (its `rolloutStrategy` is
 * the typed struct's zero value, `{"type":""}`). The result is the stored object the goldens
 * record; the bookkeeping hash is taken before, over what the operator sends.
 */
function applyLwsWebhookDefaults(spec: JsonObject): void {
  const template = spec.leaderWorkerTemplate as JsonObject;
  if (!template.restartPolicy) template.restartPolicy = 'RecreateGroupOnPodRestart';
  const rollout = (spec.rolloutStrategy ?? {}) as JsonObject;
  if (!rollout.type) rollout.type = 'RollingUpdate';
  if (rollout.type === 'RollingUpdate' && rollout.rollingUpdateConfiguration === undefined) {
    rollout.rollingUpdateConfiguration = { maxUnavailable: 1, maxSurge: 0, partition: 0 };
  }
  spec.rolloutStrategy = rollout;
  if (spec.networkConfig === undefined) spec.networkConfig = { subdomainPolicy: 'Shared' };
}

/**
 * Refuses a pod template whose `main` container lacks a command or args: LeaderWorkerSet pods
 * need both (docs/design/render-multinode.md §3.2).
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
  // the spec as the operator's typed object sends it (and hashes it)
  const sentObject = kubeObjectWithGoSpec(LWS_API_VERSION, LWS_KIND, meta, sent, LWS_SPEC);
  const stored = copyJson(sentObject.spec as JsonObject);
  applyLwsWebhookDefaults(stored);
  return kubeObject(LWS_API_VERSION, LWS_KIND, sentObject.metadata as ObjectMetaInput, { spec: stored });
}
