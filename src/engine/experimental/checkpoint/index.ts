/**
 * Experimental checkpoint (docs/design/render-experimental.md §3): automatic capture through Snapshot
 * `SnapshotJob`s and restore from `PodSnapshot`s (operators with
 * `OPERATOR_GATES.snapshotJobCheckpoint`), or through the operator's own `DynamoCheckpoint`s
 * (operators 1.4.0 and 1.5.0, §3.8), and the `startupPolicy` replica gate.
 */
export * from './constants';
export type { CheckpointClusterState } from './cluster-state';
export { isCheckpointClusterObject } from './cluster-state';
export type { ComponentCheckpointConfig } from './component-config';
export { componentCheckpointConfig, enabledCheckpoint, graphCheckpointConfigs } from './component-config';
export type { CapturePodTemplate } from './capture-pod';
export { captureComponentPodTemplate } from './capture-pod';
export { captureClaimTemplateName } from './capture-gms';
export { checkpointId, snapshotCompatibilityHash, snapshotJobName, RESTORE_TIME_ENV } from './identity';
export type { ResolvedPodSnapshot } from './pod-snapshot';
export type { ComponentCheckpoint } from './component-checkpoint';
export { checkpointOf, renderCheckpointObjects, resolveGraphCheckpoints } from './graph-checkpoints';
export {
  applyCheckpointToGeneratedDcd, applyCliqueRestoreMetadata, applyDynamoCheckpointMetadata, applyRestoreCandidateAnnotations,
  CHECKPOINT_RESTORE_POD_HOOK, gatedByCheckpoint, restoreCandidateAnnotations, restoreCandidateLabels,
} from './restore';
export type { CheckpointGeneration } from './component-checkpoint';
export { dgdCheckpointId, dynamoCheckpoint, dynamoCheckpointName } from './dynamo-checkpoint';
export { DYNAMO_CHECKPOINT_HASH_TYPES, legacyIdentityHash, observedCheckpointId } from './observed-checkpoint';
export {
  applyCheckpointProbeCadence, CHECKPOINT_PROBE_CADENCE_HOOK, resolveComponentCheckpoint, standaloneDcdWithCheckpoint, usesDynamoCheckpoints,
} from './component-restore';
