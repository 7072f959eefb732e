/**
 * What restore changes on the serving side at render time (render-experimental §3.5 stage 1, §3.6):
 * the restore-candidate annotations on worker pod templates (DCD pod template, Deployment / LWS
 * pod templates, Grove cliques other than GMS cliques), the rewrite of a generated DCD, and the
 * replica gate of `WaitForCheckpoint`.
 *
 * The newest operator changes no pod spec for restore while rendering: restore shaping (volumes,
 * seccomp, `SNAPSHOT_RESTORE_STANDBY`, the restore startup probe, GMS restore wiring) happens when a
 * pod is created, in the operator's pod mutating webhook (§3.5 stage 2), which an offline renderer
 * does not run. No labels are added either (the `nvidia.com/snapshot-*` restore labels belong to the
 * legacy [S] DynamoCheckpoint path, §3.8).
 */
import {
  ANNOTATION_CHECKPOINT_NAME, ANNOTATION_CHECKPOINT_STARTUP_POLICY, ANNOTATION_RESTORE_CANDIDATE, ANNOTATION_RESTORE_COMPATIBILITY_HASH,
  ANNOTATION_RESTORE_SNAPSHOT_CONTENT, ANNOTATION_RESTORE_SNAPSHOT_GMS_MODE, ANNOTATION_RESTORE_SNAPSHOT_JOB_UID, ANNOTATION_RESTORE_SNAPSHOT_UID,
  ANNOTATION_RESTORE_SNAPSHOT_VERSION, ANNOTATION_RESTORE_SOURCE_KIND, ANNOTATION_RESTORE_TARGET_CONTAINERS, RESTORE_CANDIDATE_ANNOTATIONS,
  RESTORE_SOURCE_POD_SNAPSHOT, RESTORE_SOURCE_SNAPSHOT_JOB, STARTUP_WAIT_FOR_CHECKPOINT,
} from './constants';
import { ComponentCheckpoint } from './graph-checkpoints';
import { isMap } from '../../../model/json';
import { DcdJson, JsonObject } from '../../../model/v1beta1';
import { MAIN_CONTAINER } from '../../../model/well-known';
import type { PodSpecHook } from '../../pod/pod-template';

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
 * `spec.replicas`.
 */
export function gatedByCheckpoint(checkpoint: ComponentCheckpoint | undefined): boolean {
  return checkpoint !== undefined && checkpoint.startupPolicy === STARTUP_WAIT_FOR_CHECKPOINT && !checkpoint.ready;
}

/** The annotation map of a DCD's pod template, created when absent. */
function dcdPodTemplateAnnotations(spec: JsonObject): Record<string, string> {
  if (!isMap(spec.podTemplate)) spec.podTemplate = {};
  if (!isMap(spec.podTemplate.metadata)) spec.podTemplate.metadata = {};
  if (!isMap(spec.podTemplate.metadata.annotations)) spec.podTemplate.metadata.annotations = {};
  return spec.podTemplate.metadata.annotations;
}

/**
 * The graph controller's checkpoint rewrite of a generated DCD (in place; §3.5, §3.6), after the
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
  const spec: JsonObject = dcd.spec ?? (dcd.spec = {});
  if (checkpoint.exists && checkpoint.checkpointName !== '') {
    const experimental: JsonObject = isMap(spec.experimental) ? spec.experimental : (spec.experimental = {});
    const current: JsonObject = isMap(experimental.checkpoint) ? experimental.checkpoint : {};
    const rewritten: JsonObject = { ...current, enabled: true, checkpointRef: checkpoint.checkpointName, startupPolicy: checkpoint.startupPolicy };
    delete rewritten.identity;
    delete rewritten.job;
    experimental.checkpoint = rewritten;
  }
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
 * The restore step of the pod-spec pipeline (§5.2 step 19). It leaves the pod spec as it is: the
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
