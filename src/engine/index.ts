/**
 * The render engine's surface for code outside the library's pipeline (tests, tools): the parts of
 * what the operator's controllers create, each from its module. The library itself reaches each
 * part through its module.
 */
export { runsDynamoModule } from './backend/python-launch';
export { frameworksRunBy } from './backend/select';
export {
  ANNOTATION_CHECKPOINT_NAME, ANNOTATION_CHECKPOINT_STARTUP_POLICY, ANNOTATION_RESTORE_CANDIDATE,
  ANNOTATION_RESTORE_COMPATIBILITY_HASH, ANNOTATION_RESTORE_SNAPSHOT_CONTENT,
  ANNOTATION_RESTORE_SNAPSHOT_JOB_UID, ANNOTATION_RESTORE_SNAPSHOT_UID, ANNOTATION_RESTORE_SOURCE_KIND,
  ANNOTATION_RESTORE_TARGET_CONTAINERS, applyCheckpointToGeneratedDcd, applyRestoreCandidateAnnotations,
  captureClaimTemplateName, checkpointId, dgdCheckpointId, gatedByCheckpoint, isCheckpointClusterObject,
  legacyIdentityHash, renderCheckpointObjects, resolveGraphCheckpoints, restoreCandidateAnnotations,
  restoreCandidateLabels, snapshotCompatibilityHash, snapshotJobName,
} from './experimental/checkpoint';
export type { ComponentCheckpoint } from './experimental/checkpoint';
export { generateComponentDcds, replaceWorkerHash } from './graph/component-dcds';
export { generateHashedComponentDcds, graphWorkerHash } from './graph/hashed-worker-dcds';
export { cliqueRoles, longestCliqueNameLength } from './grove/clique-roles';
export { groveComponents } from './grove/component-view';
export { renderPodCliqueSet } from './grove/pod-cliqueset';
export {
  goSliceStable, goSortKeys, lastAppliedContent, lastAppliedHash, lastAppliedHashInput,
} from './hash/last-applied-hash';
export { computeWorkerHash, sha256Hex, WORKER_HASH_TYPES, workerHashInput } from './hash/worker-hash';
export {
  hasFlagValue, injectFlags, injectFlagsIntoScript, intFlagValue, isPythonCommand, shellQuoteForBashC,
  splitFields,
} from './multinode/flag-injection';
export { deviceClassGivesGpus, gpusPerNode, looksLikeGpuIdentifier } from './multinode/gpu-count';
export type { DeviceRequestJson } from './multinode/gpu-count';
