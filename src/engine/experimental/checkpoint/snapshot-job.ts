/**
 * The automatic SnapshotJob (docs/design/render-experimental.md §3.2.2): one per (graph incarnation, component,
 * worker generation, compatibility hash, compatibility version), named `checkpoint-<checkpointID>`.
 */
import {
  ANNOTATION_AUTO_CHECKPOINT, ANNOTATION_CHECKPOINT_DELETION_POLICY, ANNOTATION_CHECKPOINT_OWNER_UID, ANNOTATION_SNAPSHOT_COMPATIBILITY_HASH,
  ANNOTATION_SNAPSHOT_COMPATIBILITY_VERSION, ANNOTATION_SNAPSHOT_GMS_MODE, SNAPSHOT_API_VERSION, SNAPSHOT_COMPATIBILITY_VERSION,
  SNAPSHOT_JOB_ACTIVE_DEADLINE_SECONDS, SNAPSHOT_JOB_KIND,
} from './constants';
import { compareStrings } from '../../../model/json';
import { JsonObject } from '../../../model/v1beta1';
import { LABEL_COMPONENT, LABEL_GRAPH_NAME, LABEL_WORKER_HASH } from '../../../model/well-known';

/** A string map with its keys in byte-wise order (as Go writes maps). */
export function sortedRecord(map: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of Object.keys(map).sort(compareStrings)) out[key] = map[key];
  return out;
}

/** Everything a SnapshotJob is built from. */
export interface SnapshotJobInput {
  readonly name: string;
  readonly namespace: string;
  readonly graphName: string;
  readonly graphUid: string;
  readonly componentName: string;
  readonly workerHash: string;
  readonly compatibilityHash: string;
  readonly deletionPolicy: string;
  readonly gmsMode: string;
  readonly targetContainerName: string;
  /** The finished capture pod template (GPU memory service wired). */
  readonly podTemplate: JsonObject;
}

/** The lifecycle labels of the job and of the PodSnapshot it produces. */
function captureLabels(input: SnapshotJobInput): Record<string, string> {
  const labels: Record<string, string> = { [LABEL_GRAPH_NAME]: input.graphName, [LABEL_COMPONENT]: input.componentName };
  if (input.workerHash !== '') labels[LABEL_WORKER_HASH] = input.workerHash;
  return sortedRecord(labels);
}

/**
 * The SnapshotJob as the operator creates it. `podSnapshotTemplate.metadata` carries the
 * compatibility annotations the restore gate reads; the operator has no owner reference on it but
 * sets the graph as controller of the job when the deletion policy is `Delete` (left out here:
 * it needs the graph's UID, which only exists in the cluster).
 */
export function snapshotJob(input: SnapshotJobInput): JsonObject {
  const lifecycle: Record<string, string> = {
    [ANNOTATION_AUTO_CHECKPOINT]: 'true',
    [ANNOTATION_CHECKPOINT_DELETION_POLICY]: input.deletionPolicy,
    [ANNOTATION_CHECKPOINT_OWNER_UID]: input.graphUid,
  };
  const snapshotAnnotations: Record<string, string> = {
    ...lifecycle,
    [ANNOTATION_SNAPSHOT_COMPATIBILITY_VERSION]: SNAPSHOT_COMPATIBILITY_VERSION,
    [ANNOTATION_SNAPSHOT_COMPATIBILITY_HASH]: input.compatibilityHash,
    [ANNOTATION_SNAPSHOT_GMS_MODE]: input.gmsMode,
  };
  return {
    apiVersion: SNAPSHOT_API_VERSION,
    kind: SNAPSHOT_JOB_KIND,
    metadata: {
      name: input.name,
      namespace: input.namespace,
      labels: captureLabels(input),
      annotations: sortedRecord(lifecycle),
    },
    spec: {
      podTemplate: input.podTemplate,
      activeDeadlineSeconds: SNAPSHOT_JOB_ACTIVE_DEADLINE_SECONDS,
      podSnapshotTemplate: {
        metadata: { labels: captureLabels(input), annotations: sortedRecord(snapshotAnnotations) },
        targetContainers: [input.targetContainerName],
      },
    },
  };
}
