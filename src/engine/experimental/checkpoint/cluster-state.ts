/**
 * What the operator reads from the cluster for checkpoints, given offline as documents.
 *
 * Operators with `OPERATOR_GATES.snapshotJobCheckpoint` resolve `checkpointRef` against a live
 * `PodSnapshot` and follow their own automatic `SnapshotJob` (UID, completion, produced
 * PodSnapshot); the operators of 1.4.0 and 1.5.0 read their `DynamoCheckpoint`s instead (the
 * automatic one of a component, or the one `checkpointRef` names: phase, checkpoint ID). A pure
 * renderer cannot read the cluster, so these objects are an explicit input: the caller passes the
 * documents as the cluster returns them (`kubectl get -o yaml`, with `metadata.uid` and `status`)
 * next to the graph. Without them a new graph's automatic capture is pending (not ready) and an
 * explicit `checkpointRef` cannot be resolved (a RenderError).
 */
import { DYNAMO_CHECKPOINT_KIND, POD_SNAPSHOT_KIND, SNAPSHOT_API_VERSION, SNAPSHOT_JOB_KIND } from './constants';
import { isMap, JsonMap } from '../../../model/json';

/** Cluster objects the checkpoint rendering may consult. */
export interface CheckpointClusterState {
  /**
   * Observed `nvidia.com/v1alpha1` PodSnapshot, SnapshotJob and DynamoCheckpoint documents (other
   * documents are ignored), matched by kind, namespace and name.
   */
  readonly objects?: readonly unknown[];
}

/** An observed Snapshot object (kind, metadata, spec, status as plain JSON). */
export interface ObservedObject {
  readonly kind: string;
  readonly metadata: JsonMap & {
    name?: string;
    namespace?: string;
    uid?: string;
    annotations?: Record<string, string>;
    labels?: Record<string, string>;
  };
  readonly spec?: JsonMap;
  readonly status?: JsonMap;
}

/** Whether a document is a Snapshot-API object of `kind`. */
export function isSnapshotObject(doc: unknown, kind: string): doc is ObservedObject {
  return isMap(doc) && doc.apiVersion === SNAPSHOT_API_VERSION && doc.kind === kind && isMap(doc.metadata);
}

/** Whether a document is a PodSnapshot, SnapshotJob or DynamoCheckpoint (documents read as cluster state). */
export function isCheckpointClusterObject(doc: unknown): boolean {
  return isSnapshotObject(doc, POD_SNAPSHOT_KIND) || isSnapshotObject(doc, SNAPSHOT_JOB_KIND) || isSnapshotObject(doc, DYNAMO_CHECKPOINT_KIND);
}

/** The observed object of `kind` named `namespace/name`, if the caller passed one. */
export function findObserved(state: CheckpointClusterState | undefined, kind: string, namespace: string, name: string): ObservedObject | undefined {
  for (const doc of state?.objects ?? []) {
    if (!isSnapshotObject(doc, kind)) continue;
    if ((doc.metadata.name ?? '') === name && (doc.metadata.namespace ?? namespace) === namespace) return doc;
  }
  return undefined;
}

/** Whether the object's `status.conditions` has `type` with status `True`. */
export function conditionTrue(obj: ObservedObject, type: string): boolean {
  const conditions = isMap(obj.status) && Array.isArray(obj.status.conditions) ? obj.status.conditions : [];
  return conditions.some(c => isMap(c) && c.type === type && c.status === 'True');
}

/** The `status.conditions` entry of `type`, if any. */
export function condition(obj: ObservedObject, type: string): JsonMap | undefined {
  const conditions = isMap(obj.status) && Array.isArray(obj.status.conditions) ? obj.status.conditions : [];
  return conditions.find(c => isMap(c) && c.type === type) as JsonMap | undefined;
}
