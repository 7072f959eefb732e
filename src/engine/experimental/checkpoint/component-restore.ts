/**
 * What the component controller of the operators of 1.4.0 and 1.5.0 does with a checkpoint when it
 * renders the workloads of a DynamoComponentDeployment (docs/design/render-experimental.md §3.8): it resolves the
 * component's checkpoint again (the DynamoCheckpoint `checkpointRef` names, or the one the deprecated
 * `identity` hashes to), stamps the restore metadata on the pod template and, for a worker-class
 * component restoring from a Ready checkpoint, probes readiness and startup every second.
 *
 * Operators with SnapshotJob checkpoints do none of this at render time (restore is shaped at pod
 * admission) and refuse a standalone DCD with `checkpointRef` (no compatibility hash without a graph).
 */
import { CheckpointClusterState, findObserved, isSnapshotObject, ObservedObject } from './cluster-state';
import type { ComponentCheckpoint } from './component-checkpoint';
import { componentCheckpointConfig } from './component-config';
import { DYNAMO_CHECKPOINT_KIND, LABEL_SNAPSHOT_CHECKPOINT_ID, STARTUP_WAIT_FOR_CHECKPOINT } from './constants';
import {
  legacyIdentityHash, observedArtifactVersion, observedCheckpointId, observedReady, refuseStorageShapedRestore, requiredDynamoCheckpoint,
} from './observed-checkpoint';
import { applyDynamoCheckpointMetadata } from './restore';
import { isMap } from '../../../model/json';
import { copyJson } from '../../../model/json-copy';
import { OperatorSettings } from '../../../model/operator-settings';
import { operatorHas } from '../../../model/operator-version';
import { RenderError } from '../../../model/render-error';
import { ComponentSpecJson, DcdJson, isWorkerType, JsonObject } from '../../../model/v1beta1';
import { MAIN_CONTAINER } from '../../../model/well-known';
import { PodSpecJson } from '../../pod/k8s-json';
import type { PodSpecHook } from '../../pod/pod-spec-hook';

/** Whether the operator of `settings` has the DynamoCheckpoint generation. */
export function usesDynamoCheckpoints(settings: OperatorSettings): boolean {
  return !operatorHas(settings.version, 'snapshotJobCheckpoint');
}

/**
 * The DynamoCheckpoint whose ID is `id` among the observed ones of the namespace (its ID label
 * first, then every object's ID): at most one may match.
 */
function findByCheckpointId(
  state: CheckpointClusterState | undefined, namespace: string, id: string, fail: (m: string) => never,
): ObservedObject | undefined {
  const inNamespace = (state?.objects ?? []).filter((o): o is ObservedObject =>
    isSnapshotObject(o, DYNAMO_CHECKPOINT_KIND) && (o.metadata.namespace ?? namespace) === namespace);
  const pick = (candidates: ObservedObject[]): ObservedObject | undefined => {
    const matching = candidates.filter(c => observedCheckpointId(c) === id);
    if (matching.length > 1) fail(`multiple checkpoints found for checkpoint ID ${id}`);
    return matching[0];
  };
  return pick(inNamespace.filter(o => (o.metadata.labels ?? {})[LABEL_SNAPSHOT_CHECKPOINT_ID] === id)) ?? pick(inNamespace);
}

/**
 * The checkpoint of a component as the component controller resolves it from its own spec, or
 * undefined when checkpointing is not enabled on it. `required`: a `checkpointRef` that is not among
 * the observed objects is an error (a standalone DCD); otherwise (a graph's DCD naming the checkpoint
 * the graph creates in the same render) it is taken to exist and not be ready.
 */
export function resolveComponentCheckpoint(
  spec: ComponentSpecJson, namespace: string, state: CheckpointClusterState | undefined, required: boolean, fail: (message: string) => never,
): ComponentCheckpoint | undefined {
  const config = componentCheckpointConfig(spec, 0);
  if (!config) return undefined;
  const base = {
    generation: 'dynamo-checkpoint' as const,
    config,
    automatic: false,
    startupPolicy: config.startupPolicy,
    compatibilityHash: '',
    restoreTargets: [config.targetContainerName],
    objects: [],
  };
  let found: ObservedObject | undefined;
  if (config.checkpointRef !== '') {
    found = required
      ? requiredDynamoCheckpoint(state, namespace, config.checkpointRef, fail)
      : findObserved(state, DYNAMO_CHECKPOINT_KIND, namespace, config.checkpointRef);
    if (!found) return { ...base, ready: false, exists: true, checkpointName: config.checkpointRef };
  } else {
    const identity = isMap(spec.experimental?.checkpoint?.identity) ? spec.experimental!.checkpoint!.identity as Record<string, unknown> : undefined;
    if (!identity) return { ...base, ready: false, exists: false, checkpointName: '' };
    const hash = legacyIdentityHash(identity);
    found = findByCheckpointId(state, namespace, hash, fail);
    if (!found) return { ...base, ready: false, exists: false, checkpointName: '', checkpointId: hash };
  }
  return {
    ...base,
    ready: observedReady(found),
    exists: true,
    checkpointName: found.metadata.name ?? '',
    checkpointId: observedCheckpointId(found),
    artifactVersion: observedArtifactVersion(found),
  };
}

/** Readiness and startup probes of the `main` container every second (worker restoring from a Ready checkpoint). */
export function applyCheckpointProbeCadence(
  podSpec: PodSpecJson, componentType: string | undefined, checkpoint: ComponentCheckpoint | undefined,
): void {
  if (!checkpoint || checkpoint.generation !== 'dynamo-checkpoint' || !checkpoint.ready || !isWorkerType(componentType)) return;
  const main = podSpec.containers.find(c => c.name === MAIN_CONTAINER);
  if (!main) return;
  for (const probe of ['readinessProbe', 'startupProbe'] as const) {
    if (isMap(main[probe])) main[probe] = { ...(main[probe] as JsonObject), periodSeconds: 1 };
  }
}

/**
 * A standalone DCD as the component controller renders it: for operators with SnapshotJob
 * checkpoints a non-blank `checkpointRef` is refused; for operators 1.4.0 and 1.5.0 (checkpoint
 * gate on) its checkpoint is resolved against the observed DynamoCheckpoints and the pod template
 * gets the restore metadata. Returns a copy when it changes anything.
 */
export function standaloneDcdWithCheckpoint(dcd: DcdJson, settings: OperatorSettings, state: CheckpointClusterState | undefined): DcdJson {
  const ref = `DynamoComponentDeployment/${dcd.metadata.name ?? ''}`;
  if (!usesDynamoCheckpoints(settings)) {
    const checkpoint = dcd.spec?.experimental?.checkpoint;
    if (checkpoint?.enabled === true && typeof checkpoint.checkpointRef === 'string' && checkpoint.checkpointRef.trim() !== '') {
      throw new RenderError(ref, 'spec.experimental.checkpoint.checkpointRef',
        `restoring from PodSnapshot ${JSON.stringify(checkpoint.checkpointRef)} needs the owning DynamoGraphDeployment: `
        + 'a standalone DCD has no snapshot compatibility hash to check it against');
    }
    return dcd;
  }
  const fail = (message: string): never => {
    throw new RenderError(ref, 'spec.experimental.checkpoint', `failed to resolve checkpoint: ${message}`);
  };
  const spec = dcd.spec ?? {};
  const checkpoint = settings.checkpointEnabled ? resolveComponentCheckpoint(spec, dcd.metadata.namespace ?? '', state, true, fail) : undefined;
  if (checkpoint?.ready && checkpoint.startupPolicy === STARTUP_WAIT_FOR_CHECKPOINT) refuseStorageShapedRestore(checkpoint.checkpointName, fail);
  const metadata = spec.podTemplate?.metadata;
  const labels = isMap(metadata?.labels) ? { ...metadata!.labels as Record<string, string> } : undefined;
  const annotations: Record<string, string> = isMap(metadata?.annotations) ? { ...metadata!.annotations as Record<string, string> } : {};
  const before = JSON.stringify([labels, annotations]);
  applyDynamoCheckpointMetadata(labels, annotations, checkpoint);
  if (JSON.stringify([labels, annotations]) === before) return dcd;
  const copy = copyJson(dcd);
  const template: JsonObject = isMap(copy.spec!.podTemplate) ? copy.spec!.podTemplate : (copy.spec!.podTemplate = {});
  const copyMetadata: JsonObject = isMap(template.metadata) ? template.metadata : (template.metadata = {});
  if (labels) copyMetadata.labels = labels;
  if (Object.keys(annotations).length > 0) copyMetadata.annotations = annotations;
  else delete copyMetadata.annotations;
  return copy;
}

/**
 * The probe cadence of the pod-spec pipeline (operators 1.4.0 and 1.5.0, checkpoint gate on): a
 * worker-class component whose `checkpointRef` names an observed Ready DynamoCheckpoint probes
 * readiness and startup every second. (A graph's automatic checkpoints, which its components do not
 * name, are applied by the Grove renderer; the graph's DCDs name them after the rewrite.)
 */
export const CHECKPOINT_PROBE_CADENCE_HOOK: PodSpecHook = {
  name: 'checkpoint-probe-cadence',
  apply(podSpec, ctx): void {
    if (!usesDynamoCheckpoints(ctx.settings) || !ctx.settings.checkpointEnabled) return;
    const spec = ctx.dcd.spec ?? {};
    if (!isWorkerType(spec.type)) return;
    const state: CheckpointClusterState = { objects: ctx.cluster?.objects ?? [] };
    const checkpoint = resolveComponentCheckpoint(spec, ctx.namespace, state, false, message => {
      throw new RenderError(ctx.ref, 'spec.experimental.checkpoint', `failed to resolve checkpoint: ${message}`);
    });
    if (checkpoint?.ready && checkpoint.startupPolicy === STARTUP_WAIT_FOR_CHECKPOINT) {
      refuseStorageShapedRestore(checkpoint.checkpointName, message => {
        throw new RenderError(ctx.ref, 'spec.experimental.checkpoint', message);
      });
    }
    applyCheckpointProbeCadence(podSpec, spec.type, checkpoint);
  },
};

