/**
 * What restore changes on the serving side at render time (docs/design/render-experimental.md §3.5 stage 1, §3.6):
 * the restore-candidate annotations on worker pod templates (DCD pod template, Deployment / LWS
 * pod templates, Grove cliques other than GMS cliques), the rewrite of a generated DCD, and the
 * replica gate of `WaitForCheckpoint`. Checkpoints of the DynamoCheckpoint generation (operators
 * 1.4.0 and 1.5.0, §3.8) use the snapshot protocol's keys instead (`applyDynamoCheckpointMetadata`).
 *
 * The newest operator changes no pod spec for restore while rendering: restore shaping (volumes,
 * seccomp, `SNAPSHOT_RESTORE_STANDBY`, the restore startup probe, GMS restore wiring) happens when a
 * pod is created, in the operator's pod mutating webhook (§3.5 stage 2), which an offline renderer
 * does not run. No labels are added either (the `nvidia.com/snapshot-*` restore labels belong to the
 * legacy [S] DynamoCheckpoint path, §3.8).
 */
import { ComponentCheckpoint } from './component-checkpoint';
import {
  ANNOTATION_CHECKPOINT_NAME, ANNOTATION_CHECKPOINT_STARTUP_POLICY, ANNOTATION_RESTORE_CANDIDATE, ANNOTATION_RESTORE_COMPATIBILITY_HASH,
  ANNOTATION_RESTORE_SNAPSHOT_CONTENT, ANNOTATION_RESTORE_SNAPSHOT_GMS_MODE, ANNOTATION_RESTORE_SNAPSHOT_JOB_UID, ANNOTATION_RESTORE_SNAPSHOT_UID,
  ANNOTATION_RESTORE_SNAPSHOT_VERSION, ANNOTATION_RESTORE_SOURCE_KIND, ANNOTATION_RESTORE_TARGET_CONTAINERS, ANNOTATION_SNAPSHOT_ARTIFACT_VERSION,
  ANNOTATION_SNAPSHOT_STORAGE_BASE_PATH, ANNOTATION_SNAPSHOT_STORAGE_TYPE, ANNOTATION_SNAPSHOT_TARGET_CONTAINERS, DEFAULT_ARTIFACT_VERSION,
  LABEL_SNAPSHOT_CHECKPOINT_ID, LABEL_SNAPSHOT_CHECKPOINT_SOURCE, LABEL_SNAPSHOT_RESTORE_TARGET, RESTORE_CANDIDATE_ANNOTATIONS,
  RESTORE_SOURCE_POD_SNAPSHOT, RESTORE_SOURCE_SNAPSHOT_JOB, SNAPSHOT_RESTORE_STATUS_KEYS, SNAPSHOT_RESTORE_STATUS_PREFIXES, STARTUP_IMMEDIATE,
  STARTUP_WAIT_FOR_CHECKPOINT,
} from './constants';
import { isMap } from '../../../model/json';
import { DcdJson, JsonObject } from '../../../model/v1beta1';
import { MAIN_CONTAINER } from '../../../model/well-known';
import type { PodSpecHook } from '../../pod/pod-spec-hook';

/**
 * Replaces the restore-candidate annotations in `annotations` (in place) by those of `checkpoint`:
 * all candidate keys are removed, then
 *
 * - the expected compatibility hash whenever it is known;
 * - automatic capture whose SnapshotJob has a UID: candidate, job name and UID, source `SnapshotJob`,
 *   targets, startup policy (stable from job creation on, so capture completion causes no rollout);
 * - explicit reference that exists and is Ready: candidate, PodSnapshot name, UID, bound content,
 *   GMS mode, version, source `PodSnapshot`, targets, startup policy.
 *
 * A new graph's automatic capture has no SnapshotJob UID (the API server assigns it on create), so
 * only the compatibility hash is stamped until the observed job is passed in.
 */
export function applyRestoreCandidateAnnotations(annotations: Record<string, string>, checkpoint: ComponentCheckpoint | undefined): void {
  for (const key of RESTORE_CANDIDATE_ANNOTATIONS) delete annotations[key];
  if (!checkpoint) return;
  const targets = checkpoint.restoreTargets.length > 0 ? checkpoint.restoreTargets : [MAIN_CONTAINER];
  if (checkpoint.compatibilityHash !== '') annotations[ANNOTATION_RESTORE_COMPATIBILITY_HASH] = checkpoint.compatibilityHash;
  if (checkpoint.automatic) {
    const job = checkpoint.snapshotJob;
    if (!job || job.uid === '') return;
    annotations[ANNOTATION_RESTORE_CANDIDATE] = 'true';
    annotations[ANNOTATION_CHECKPOINT_NAME] = job.name;
    annotations[ANNOTATION_RESTORE_SOURCE_KIND] = RESTORE_SOURCE_SNAPSHOT_JOB;
    annotations[ANNOTATION_RESTORE_SNAPSHOT_JOB_UID] = job.uid;
    annotations[ANNOTATION_RESTORE_TARGET_CONTAINERS] = targets.join(',');
    annotations[ANNOTATION_CHECKPOINT_STARTUP_POLICY] = checkpoint.startupPolicy;
    return;
  }
  const snapshot = checkpoint.podSnapshot;
  if (!checkpoint.exists || !checkpoint.ready || !snapshot) return;
  annotations[ANNOTATION_RESTORE_CANDIDATE] = 'true';
  annotations[ANNOTATION_CHECKPOINT_NAME] = snapshot.name;
  annotations[ANNOTATION_RESTORE_SOURCE_KIND] = RESTORE_SOURCE_POD_SNAPSHOT;
  annotations[ANNOTATION_RESTORE_SNAPSHOT_UID] = snapshot.uid;
  annotations[ANNOTATION_RESTORE_SNAPSHOT_CONTENT] = snapshot.boundContentName;
  annotations[ANNOTATION_RESTORE_SNAPSHOT_GMS_MODE] = snapshot.gmsMode;
  annotations[ANNOTATION_RESTORE_SNAPSHOT_VERSION] = snapshot.compatibilityVersion;
  annotations[ANNOTATION_RESTORE_TARGET_CONTAINERS] = targets.join(',');
  annotations[ANNOTATION_CHECKPOINT_STARTUP_POLICY] = checkpoint.startupPolicy;
}

/** The restore-candidate annotations of `checkpoint` alone (empty when there are none). */
export function restoreCandidateAnnotations(checkpoint: ComponentCheckpoint | undefined): Record<string, string> {
  const annotations: Record<string, string> = {};
  applyRestoreCandidateAnnotations(annotations, checkpoint);
  return annotations;
}

/** Labels restore adds to cliques and pods: none in the SnapshotJob/PodSnapshot generation. */
export function restoreCandidateLabels(_checkpoint: ComponentCheckpoint | undefined): Record<string, string> {
  return {};
}

/**
 * Whether the component is held at zero replicas: `startupPolicy: WaitForCheckpoint` and no Ready
 * checkpoint. A new graph's automatic checkpoint is never ready offline. On Grove this zeroes the
 * component's cliques (not GMS cliques) and its scaling group; on the component path the DCD's
 * `spec.replicas`. While any component is held, the graph gets no scaling adapters.
 */
export function gatedByCheckpoint(checkpoint: ComponentCheckpoint | undefined): boolean {
  return checkpoint !== undefined && checkpoint.startupPolicy === STARTUP_WAIT_FOR_CHECKPOINT && !checkpoint.ready;
}

/** The snapshot protocol's labels a DynamoCheckpoint-generation pod template is reset from. */
const SNAPSHOT_LABELS: readonly string[] = [LABEL_SNAPSHOT_CHECKPOINT_ID, LABEL_SNAPSHOT_RESTORE_TARGET, LABEL_SNAPSHOT_CHECKPOINT_SOURCE];

/** The candidate / restore annotations a DynamoCheckpoint-generation pod template is reset from. */
const SNAPSHOT_RESTORE_ANNOTATIONS: readonly string[] = [
  ANNOTATION_SNAPSHOT_ARTIFACT_VERSION, ANNOTATION_SNAPSHOT_STORAGE_TYPE, ANNOTATION_SNAPSHOT_STORAGE_BASE_PATH, ANNOTATION_RESTORE_CANDIDATE,
  ANNOTATION_CHECKPOINT_NAME, ANNOTATION_CHECKPOINT_STARTUP_POLICY, ANNOTATION_SNAPSHOT_TARGET_CONTAINERS,
];

function deleteKeys(map: Record<string, string> | undefined, keys: readonly string[]): void {
  if (!map) return;
  for (const key of keys) delete map[key];
}

/** `targets` comma-joined (`main` when none). */
function targetList(checkpoint: ComponentCheckpoint): string {
  const targets = checkpoint.restoreTargets.filter(t => t.trim() !== '');
  return (targets.length > 0 ? targets : [MAIN_CONTAINER]).join(',');
}

/**
 * The restore metadata of a DynamoCheckpoint-generation pod template (operators 1.4.0 and 1.5.0),
 * in place:
 * - `Immediate` (restore at pod admission): the snapshot labels and the candidate / restore
 *   annotations are cleared; a checkpoint that exists then stamps `restore-candidate`, its name,
 *   the startup policy and the snapshot target containers;
 * - otherwise (no checkpoint, or `WaitForCheckpoint`): the same keys and the restore status keys are
 *   cleared; a Ready checkpoint then marks the pod a restore target (restore-target and
 *   checkpoint-ID labels, artifact version and target containers).
 */
export function applyDynamoCheckpointMetadata(
  labels: Record<string, string> | undefined, annotations: Record<string, string>, checkpoint: ComponentCheckpoint | undefined,
): void {
  deleteKeys(labels, SNAPSHOT_LABELS);
  deleteKeys(annotations, SNAPSHOT_RESTORE_ANNOTATIONS);
  if (checkpoint && checkpoint.startupPolicy === STARTUP_IMMEDIATE) {
    if (!checkpoint.exists || checkpoint.checkpointName === '') return;
    annotations[ANNOTATION_RESTORE_CANDIDATE] = 'true';
    annotations[ANNOTATION_CHECKPOINT_NAME] = checkpoint.checkpointName;
    annotations[ANNOTATION_CHECKPOINT_STARTUP_POLICY] = checkpoint.startupPolicy;
    annotations[ANNOTATION_SNAPSHOT_TARGET_CONTAINERS] = targetList(checkpoint);
    return;
  }
  deleteKeys(annotations, SNAPSHOT_RESTORE_STATUS_KEYS);
  for (const key of Object.keys(annotations)) {
    if (SNAPSHOT_RESTORE_STATUS_PREFIXES.some(prefix => key.startsWith(prefix))) delete annotations[key];
  }
  if (!checkpoint || !checkpoint.ready) return;
  if (labels) {
    labels[LABEL_SNAPSHOT_RESTORE_TARGET] = 'true';
    if ((checkpoint.checkpointId ?? '') !== '') labels[LABEL_SNAPSHOT_CHECKPOINT_ID] = checkpoint.checkpointId!;
  }
  annotations[ANNOTATION_SNAPSHOT_ARTIFACT_VERSION] = checkpoint.artifactVersion || DEFAULT_ARTIFACT_VERSION;
  annotations[ANNOTATION_SNAPSHOT_TARGET_CONTAINERS] = targetList(checkpoint);
}

/**
 * The restore metadata of a Grove clique (not a GPU memory service clique), in place: for the
 * SnapshotJob generation the candidate annotations (checkpoint gate on); for operators 1.4.0 and
 * 1.5.0 `applyDynamoCheckpointMetadata` on every such clique (clearing keys even without a
 * checkpoint, as those operators do). `dynamoCheckpoints`: which generation the operator has.
 */
export function applyCliqueRestoreMetadata(
  labels: Record<string, string>, annotations: Record<string, string>, checkpoint: ComponentCheckpoint | undefined,
  options: { readonly checkpointEnabled: boolean; readonly dynamoCheckpoints: boolean },
): void {
  if (options.dynamoCheckpoints) {
    applyDynamoCheckpointMetadata(labels, annotations, checkpoint);
    return;
  }
  if (options.checkpointEnabled) applyRestoreCandidateAnnotations(annotations, checkpoint);
}

/** The annotation map of a DCD's pod template, created when absent. */
function dcdPodTemplateAnnotations(spec: JsonObject): Record<string, string> {
  if (!isMap(spec.podTemplate)) spec.podTemplate = {};
  if (!isMap(spec.podTemplate.metadata)) spec.podTemplate.metadata = {};
  if (!isMap(spec.podTemplate.metadata.annotations)) spec.podTemplate.metadata.annotations = {};
  return spec.podTemplate.metadata.annotations;
}

/**
 * The graph controller's checkpoint rewrite of a generated DCD (in place; docs/design/render-experimental.md §3.5, §3.6), after the
 * worker hash and the DCD are generated and before the DCD is written:
 *
 * 1. a resolved PodSnapshot: `experimental.checkpoint` = enabled, `checkpointRef: <PodSnapshot>`,
 *    `startupPolicy`, without `identity` and `job` (other fields kept);
 * 2. an automatic capture with a SnapshotJob UID: candidate annotations on the DCD pod template;
 * 3. `WaitForCheckpoint` without a Ready checkpoint: `spec.replicas: 0` (nothing else);
 * 4. otherwise, with `Immediate` and no SnapshotJob UID: candidate annotations (for a pending
 *    capture only the compatibility hash; for an explicit reference the full set once Ready).
 */
export function applyCheckpointToGeneratedDcd(dcd: DcdJson, checkpoint: ComponentCheckpoint | undefined): void {
  if (!checkpoint) return;
  if (checkpoint.generation === 'dynamo-checkpoint') {
    applyDynamoCheckpointToGeneratedDcd(dcd, checkpoint);
    return;
  }
  const spec: JsonObject = dcd.spec ?? (dcd.spec = {});
  referExistingCheckpoint(spec, checkpoint);
  const hasJobUid = checkpoint.automatic && (checkpoint.snapshotJob?.uid ?? '') !== '';
  if (hasJobUid) applyRestoreCandidateAnnotations(dcdPodTemplateAnnotations(spec), checkpoint);
  if (gatedByCheckpoint(checkpoint)) {
    spec.replicas = 0;
    return;
  }
  if (checkpoint.startupPolicy !== 'Immediate' || hasJobUid) return;
  applyRestoreCandidateAnnotations(dcdPodTemplateAnnotations(spec), checkpoint);
}

/**
 * Both checkpoint generations: a checkpoint that exists becomes the DCD's `experimental.checkpoint`
 * = enabled, `checkpointRef: <name>`, `startupPolicy`, without `identity` and `job`.
 */
function referExistingCheckpoint(spec: JsonObject, checkpoint: ComponentCheckpoint): void {
  if (!checkpoint.exists || checkpoint.checkpointName === '') return;
  const experimental: JsonObject = isMap(spec.experimental) ? spec.experimental : (spec.experimental = {});
  const current: JsonObject = isMap(experimental.checkpoint) ? experimental.checkpoint : {};
  const rewritten: JsonObject = { ...current, enabled: true, checkpointRef: checkpoint.checkpointName, startupPolicy: checkpoint.startupPolicy };
  delete rewritten.identity;
  delete rewritten.job;
  experimental.checkpoint = rewritten;
}

/**
 * The graph controller's checkpoint rewrite of a generated DCD for operators 1.4.0 and 1.5.0 (in
 * place; docs/design/render-experimental.md §3.8): a checkpoint that exists (an automatic one from its creation on) becomes
 * `experimental.checkpoint` = enabled, `checkpointRef: <DynamoCheckpoint>`, `startupPolicy`, without
 * `identity` and `job`; `WaitForCheckpoint` without a Ready checkpoint sets `spec.replicas: 0`; with
 * `Immediate` the DCD pod template gets the candidate metadata (`applyDynamoCheckpointMetadata`).
 */
function applyDynamoCheckpointToGeneratedDcd(dcd: DcdJson, checkpoint: ComponentCheckpoint): void {
  const spec: JsonObject = dcd.spec ?? (dcd.spec = {});
  referExistingCheckpoint(spec, checkpoint);
  if (gatedByCheckpoint(checkpoint)) {
    spec.replicas = 0;
    return;
  }
  if (checkpoint.startupPolicy !== STARTUP_IMMEDIATE) return;
  const annotations = dcdPodTemplateAnnotations(spec);
  const labels = isMap(spec.podTemplate.metadata.labels) ? spec.podTemplate.metadata.labels as Record<string, string> : undefined;
  applyDynamoCheckpointMetadata(labels, annotations, checkpoint);
  if (Object.keys(annotations).length === 0) delete spec.podTemplate.metadata.annotations;
}

/**
 * The restore step of the pod-spec pipeline (docs/design/render-core.md §5.2 step 19). It leaves the pod spec as it is: the
 * newest operator shapes restore pods only at pod creation (webhook), so a rendered worker pod
 * template of a checkpoint-enabled component has the same spec as without checkpointing. Its
 * template annotations come from `applyRestoreCandidateAnnotations`.
 */
export const CHECKPOINT_RESTORE_POD_HOOK: PodSpecHook = {
  name: 'checkpoint-restore',
  apply(): void {
    // restore changes no pod spec at render time (see the module comment)
  },
};
