/**
 * The resolved checkpoint of one component, shared by the graph's checkpoint resolution
 * (graph-checkpoints.ts, dynamo-checkpoint.ts), the restore rewrites and the renderers.
 */
import { ComponentCheckpointConfig } from './component-config';
import type { ResolvedPodSnapshot } from './pod-snapshot';
import { JsonObject } from '../../../model/v1beta1';

/**
 * Which checkpoint API the operator drives: Snapshot SnapshotJobs / PodSnapshots (operators with
 * `OPERATOR_GATES.snapshotJobCheckpoint`) or its own DynamoCheckpoints (1.4.0, 1.5.0).
 */
export type CheckpointGeneration = 'snapshot-job' | 'dynamo-checkpoint';

/** The resolved checkpoint of one component (the operator's `CheckpointInfo`). */
export interface ComponentCheckpoint {
  readonly generation: CheckpointGeneration;
  readonly config: ComponentCheckpointConfig;
  /** Automatic capture (no `checkpointRef`) or an explicit PodSnapshot. */
  readonly automatic: boolean;
  readonly startupPolicy: 'Immediate' | 'WaitForCheckpoint';
  /** The snapshot compatibility hash the restore target expects (docs/design/render-experimental.md §3.3); empty for DynamoCheckpoints. */
  readonly compatibilityHash: string;
  /** A restorable PodSnapshot exists and is Ready. */
  readonly ready: boolean;
  /** A PodSnapshot was resolved (explicit reference, or the completed capture's). */
  readonly exists: boolean;
  /**
   * `status.checkpoints[<component>].checkpointName`: the PodSnapshot name, empty while capturing;
   * for the DynamoCheckpoint generation the DynamoCheckpoint name (automatic: from its creation on).
   */
  readonly checkpointName: string;
  /** DynamoCheckpoint generation: the checkpoint ID (the snapshot artifact ID) and the artifact version. */
  readonly checkpointId?: string;
  readonly artifactVersion?: string;
  /** Restore destinations: `targetContainerName` when written, else `main`. */
  readonly restoreTargets: readonly string[];
  /** The automatic SnapshotJob: name, and UID when the caller passed the observed job. */
  readonly snapshotJob?: { readonly name: string; readonly uid: string };
  /** The resolved PodSnapshot. */
  readonly podSnapshot?: ResolvedPodSnapshot;
  /** Objects the graph creates for the capture, in creation order (ResourceClaimTemplate, SnapshotJob). */
  readonly objects: readonly JsonObject[];
}
