/**
 * Experimental checkpoint (render-experimental §3): automatic capture through Snapshot
 * `SnapshotJob`s, restore from `PodSnapshot`s, and the `startupPolicy` replica gate.
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
export type { ComponentCheckpoint } from './graph-checkpoints';
export { checkpointOf, renderCheckpointObjects, resolveGraphCheckpoints } from './graph-checkpoints';
export {
  applyCheckpointToGeneratedDcd, applyRestoreCandidateAnnotations, CHECKPOINT_RESTORE_POD_HOOK, gatedByCheckpoint, restoreCandidateAnnotations,
  restoreCandidateLabels,
} from './restore';
