/**
 * What the DynamoCheckpoint generation (operators 1.4.0 and 1.5.0) reads from an observed
 * DynamoCheckpoint: its checkpoint ID (or the legacy identity hash of its `spec.identity`), its
 * artifact version and readiness; and the refusals of a missing referenced checkpoint and of a
 * storage-shaped restore. Used by the graph's checkpoint resolution and by the component
 * controller's probe cadence hook in the pod-spec pipeline.
 */
import { CheckpointClusterState, findObserved, ObservedObject } from './cluster-state';
import {
  ANNOTATION_SNAPSHOT_ARTIFACT_VERSION, DEFAULT_ARTIFACT_VERSION, DYNAMO_CHECKPOINT_KIND, DYNAMO_CHECKPOINT_PHASE_READY, LABEL_SNAPSHOT_CHECKPOINT_ID,
} from './constants';
import { goJsonEncode } from '../../../go/marshal';
import { isMap, JsonMap } from '../../../model/json';
import { sha256Hex } from '../../hash/worker-hash';

/** Go struct layouts of the two hashed values, the automatic checkpoint ID and the legacy identity hash (notation of src/go/types.ts). */
export const DYNAMO_CHECKPOINT_HASH_TYPES: Readonly<Record<string, string>> = Object.freeze({
  DgdCheckpointIdentity: 'namespace?:s dgdName:s dgdUID?:s componentName:s workerHash?:s',
  NormalizedCheckpointIdentity: 'model:s backendFramework:s dynamoVersion?:s tensorParallelSize:i pipelineParallelSize:i '
    + 'dtype?:s maxModelLen?:i extraParameters?:{}s',
});

function num(value: unknown): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : 0;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * The legacy identity hash of a DynamoCheckpoint `spec.identity` (16 hex characters): parallel
 * sizes default to 1, empty values and an empty `extraParameters` left out.
 */
export function legacyIdentityHash(identity: JsonMap): string {
  const extra = isMap(identity.extraParameters) ? identity.extraParameters : {};
  const value = {
    model: str(identity.model),
    backendFramework: str(identity.backendFramework),
    dynamoVersion: str(identity.dynamoVersion),
    tensorParallelSize: num(identity.tensorParallelSize) || 1,
    pipelineParallelSize: num(identity.pipelineParallelSize) || 1,
    dtype: str(identity.dtype),
    maxModelLen: num(identity.maxModelLen),
    extraParameters: Object.keys(extra).length > 0 ? extra : undefined,
  };
  return sha256Hex(goJsonEncode(value, 'NormalizedCheckpointIdentity', { types: DYNAMO_CHECKPOINT_HASH_TYPES })).slice(0, 16);
}

/**
 * The checkpoint ID of an observed DynamoCheckpoint: `status.checkpointID`, else
 * `status.identityHash`, else its checkpoint-ID label, else the legacy hash of `spec.identity`.
 */
export function observedCheckpointId(ckpt: ObservedObject): string {
  const status = isMap(ckpt.status) ? ckpt.status : {};
  const fromStatus = str(status.checkpointID) || str(status.identityHash) || (ckpt.metadata.labels ?? {})[LABEL_SNAPSHOT_CHECKPOINT_ID] || '';
  if (fromStatus !== '') return fromStatus;
  const spec = isMap(ckpt.spec) ? ckpt.spec : {};
  return legacyIdentityHash(isMap(spec.identity) ? spec.identity : {});
}

/** The artifact version of an observed DynamoCheckpoint (its annotation, `1` when absent). */
export function observedArtifactVersion(ckpt: ObservedObject): string {
  const version = ((ckpt.metadata.annotations ?? {})[ANNOTATION_SNAPSHOT_ARTIFACT_VERSION] ?? '').trim();
  return version === '' ? DEFAULT_ARTIFACT_VERSION : version;
}

/** Whether an observed DynamoCheckpoint's artifact can be restored (`status.phase: Ready`). */
export function observedReady(ckpt: ObservedObject): boolean {
  return isMap(ckpt.status) && ckpt.status.phase === DYNAMO_CHECKPOINT_PHASE_READY;
}

/** The observed DynamoCheckpoint `name` of the namespace, or a RenderError saying it must be given. */
export function requiredDynamoCheckpoint(
  state: CheckpointClusterState | undefined, namespace: string, name: string, refuse: (message: string) => never,
): ObservedObject {
  const found = findObserved(state, DYNAMO_CHECKPOINT_KIND, namespace, name);
  if (found) return found;
  return refuse(`failed to get referenced checkpoint ${name}: dynamocheckpoints.nvidia.com ${JSON.stringify(name)} not found `
    + '(a DynamoCheckpoint lives in the cluster: pass the DynamoCheckpoint document, as the cluster returns it with status, together with the graph)');
}

/**
 * The restore of a Ready checkpoint with `startupPolicy: WaitForCheckpoint` is shaped at render
 * time (with the configured `checkpoint.storage`, or storage discovered in the cluster): not rendered, refused.
 */
export function refuseStorageShapedRestore(name: string, refuse: (message: string) => never): never {
  return refuse(`DynamoCheckpoint ${JSON.stringify(name)} is Ready and startupPolicy is WaitForCheckpoint: this operator shapes the restore `
    + 'pods at render time (checkpoint volume and mount, seccomp profile, restore standby env and startup probe) with the checkpoint storage '
    + 'of its checkpoint.storage, or else the one it discovers in the cluster (the snapshot agent\'s DaemonSet), which is not rendered; '
    + 'use startupPolicy Immediate (pods are restore-shaped at admission) or render for an operator version with SnapshotJob checkpoints');
}
