/**
 * Names and values of the checkpoint (Snapshot) integration: the Snapshot project's API
 * (`nvidia.com/v1alpha1` SnapshotJob / PodSnapshot) and the labels and annotations the Dynamo
 * operator writes on capture objects and restore candidates (docs/design/render-experimental.md §3).
 */

/** API version of the Snapshot project's kinds. */
export const SNAPSHOT_API_VERSION = 'nvidia.com/v1alpha1';
export const SNAPSHOT_JOB_KIND = 'SnapshotJob';
export const POD_SNAPSHOT_KIND = 'PodSnapshot';

/** Version of the snapshot compatibility contract (docs/design/render-experimental.md §3.3). */
export const SNAPSHOT_COMPATIBILITY_VERSION = 'v2';
/** GMS mode annotation value of a capture without the GPU memory service. */
export const SNAPSHOT_GMS_MODE_DISABLED = 'disabled';
/** GMS mode annotation value of an intra-pod GPU memory service capture. */
export const SNAPSHOT_GMS_MODE_INTRA_POD = 'IntraPod';
/** DRA device class the GPU memory service uses when the component names none. */
export const DEFAULT_GMS_DEVICE_CLASS = 'gpu.nvidia.com';

/** `spec.activeDeadlineSeconds` of every automatic SnapshotJob. */
export const SNAPSHOT_JOB_ACTIVE_DEADLINE_SECONDS = 3600;

/** Prefix of automatic SnapshotJob names (`checkpoint-<checkpointID>`). */
export const SNAPSHOT_JOB_NAME_PREFIX = 'checkpoint-';

// lifecycle metadata of automatic capture objects
export const ANNOTATION_AUTO_CHECKPOINT = 'nvidia.com/dynamo-auto-checkpoint';
export const ANNOTATION_CHECKPOINT_DELETION_POLICY = 'nvidia.com/dynamo-checkpoint-deletion-policy';
export const ANNOTATION_CHECKPOINT_OWNER_UID = 'nvidia.com/dynamo-checkpoint-owner-uid';

// compatibility metadata of the produced PodSnapshot
export const ANNOTATION_SNAPSHOT_COMPATIBILITY_VERSION = 'nvidia.com/dynamo-snapshot-compatibility-version';
export const ANNOTATION_SNAPSHOT_COMPATIBILITY_HASH = 'nvidia.com/dynamo-snapshot-compatibility-hash';
export const ANNOTATION_SNAPSHOT_GMS_MODE = 'nvidia.com/dynamo-snapshot-gms-mode';

// restore candidate metadata on workload pod templates (docs/design/render-experimental.md §3.5 stage 1)
export const ANNOTATION_RESTORE_CANDIDATE = 'nvidia.com/dynamo-checkpoint-restore-candidate';
export const ANNOTATION_CHECKPOINT_NAME = 'nvidia.com/dynamo-checkpoint-name';
export const ANNOTATION_RESTORE_SOURCE_KIND = 'nvidia.com/dynamo-restore-source-kind';
export const ANNOTATION_RESTORE_SNAPSHOT_JOB_UID = 'nvidia.com/dynamo-restore-snapshot-job-uid';
export const ANNOTATION_RESTORE_SNAPSHOT_UID = 'nvidia.com/dynamo-restore-snapshot-uid';
export const ANNOTATION_RESTORE_SNAPSHOT_CONTENT = 'nvidia.com/dynamo-restore-snapshot-content';
export const ANNOTATION_RESTORE_SNAPSHOT_GMS_MODE = 'nvidia.com/dynamo-restore-snapshot-gms-mode';
export const ANNOTATION_RESTORE_SNAPSHOT_VERSION = 'nvidia.com/dynamo-restore-snapshot-version';
export const ANNOTATION_RESTORE_COMPATIBILITY_HASH = 'nvidia.com/dynamo-restore-snapshot-compatibility-hash';
export const ANNOTATION_RESTORE_TARGET_CONTAINERS = 'nvidia.com/dynamo-restore-target-containers';
export const ANNOTATION_CHECKPOINT_STARTUP_POLICY = 'nvidia.com/dynamo-checkpoint-startup-policy';

/** Every restore candidate key: the renderer clears them all before stamping its own. */
export const RESTORE_CANDIDATE_ANNOTATIONS: readonly string[] = [
  ANNOTATION_RESTORE_CANDIDATE,
  ANNOTATION_CHECKPOINT_NAME,
  ANNOTATION_RESTORE_SOURCE_KIND,
  ANNOTATION_RESTORE_SNAPSHOT_JOB_UID,
  ANNOTATION_CHECKPOINT_STARTUP_POLICY,
  ANNOTATION_RESTORE_SNAPSHOT_UID,
  ANNOTATION_RESTORE_SNAPSHOT_CONTENT,
  ANNOTATION_RESTORE_SNAPSHOT_GMS_MODE,
  ANNOTATION_RESTORE_SNAPSHOT_VERSION,
  ANNOTATION_RESTORE_COMPATIBILITY_HASH,
  ANNOTATION_RESTORE_TARGET_CONTAINERS,
];

/** `nvidia.com/dynamo-restore-source-kind` values. */
export const RESTORE_SOURCE_SNAPSHOT_JOB = 'SnapshotJob';
export const RESTORE_SOURCE_POD_SNAPSHOT = 'PodSnapshot';

/** Labels the Snapshot controller puts on a produced PodSnapshot (the SnapshotJob's name and UID). */
export const LABEL_SNAPSHOT_JOB = 'nvidia.com/snapshot-job';
export const LABEL_SNAPSHOT_JOB_UID = 'nvidia.com/snapshot-job-uid';

/** `checkpoint.startupPolicy` values. */
export const STARTUP_IMMEDIATE = 'Immediate';
export const STARTUP_WAIT_FOR_CHECKPOINT = 'WaitForCheckpoint';
/** `checkpoint.deletionPolicy` values. */
export const DELETION_DELETE = 'Delete';
export const DELETION_RETAIN = 'Retain';

// The DynamoCheckpoint generation (operators before OPERATOR_GATES.snapshotJobCheckpoint):
// the operator's own `nvidia.com/v1alpha1` DynamoCheckpoint and the snapshot protocol's metadata

/** Kind of the operator's checkpoint object (API version SNAPSHOT_API_VERSION, `nvidia.com/v1alpha1`). */
export const DYNAMO_CHECKPOINT_KIND = 'DynamoCheckpoint';
/** `status.phase` of a DynamoCheckpoint whose artifact can be restored. */
export const DYNAMO_CHECKPOINT_PHASE_READY = 'Ready';
/** The finalizer the operator puts on objects it cleans up itself. */
export const OPERATOR_FINALIZER = 'nvidia.com/finalizer';
/** The artifact version of a DynamoCheckpoint without the artifact-version annotation. */
export const DEFAULT_ARTIFACT_VERSION = '1';

export const LABEL_SNAPSHOT_CHECKPOINT_ID = 'nvidia.com/snapshot-checkpoint-id';
export const LABEL_SNAPSHOT_RESTORE_TARGET = 'nvidia.com/snapshot-is-restore-target';
export const LABEL_SNAPSHOT_CHECKPOINT_SOURCE = 'nvidia.com/snapshot-is-checkpoint-source';
export const ANNOTATION_SNAPSHOT_ARTIFACT_VERSION = 'nvidia.com/snapshot-artifact-version';
export const ANNOTATION_SNAPSHOT_TARGET_CONTAINERS = 'nvidia.com/snapshot-target-containers';
export const ANNOTATION_SNAPSHOT_STORAGE_TYPE = 'nvidia.com/snapshot-storage-type';
export const ANNOTATION_SNAPSHOT_STORAGE_BASE_PATH = 'nvidia.com/snapshot-storage-base-path';
/** Restore status keys the snapshot agent writes on restored pods (exact keys and per-container prefixes). */
export const SNAPSHOT_RESTORE_STATUS_KEYS: readonly string[] = ['nvidia.com/snapshot-restore-status', 'nvidia.com/snapshot-restore-container-id'];
export const SNAPSHOT_RESTORE_STATUS_PREFIXES: readonly string[] = ['nvidia.com/snapshot-restore-status.', 'nvidia.com/snapshot-restore-container-id.'];
