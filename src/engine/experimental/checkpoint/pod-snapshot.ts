/**
 * Resolution of a PodSnapshot for restore (docs/design/render-experimental.md §3.4): the operator's checks of an
 * explicit `checkpointRef` (and of the PodSnapshot an automatic SnapshotJob produced), in its order
 * and with its messages.
 */
import { CheckpointClusterState, conditionTrue, findObserved } from './cluster-state';
import {
  ANNOTATION_AUTO_CHECKPOINT, ANNOTATION_CHECKPOINT_DELETION_POLICY, ANNOTATION_CHECKPOINT_OWNER_UID, ANNOTATION_SNAPSHOT_COMPATIBILITY_HASH,
  ANNOTATION_SNAPSHOT_COMPATIBILITY_VERSION, ANNOTATION_SNAPSHOT_GMS_MODE, DELETION_RETAIN, POD_SNAPSHOT_KIND, SNAPSHOT_COMPATIBILITY_VERSION,
  SNAPSHOT_GMS_MODE_DISABLED, SNAPSHOT_GMS_MODE_INTRA_POD,
} from './constants';
import { isMap } from '../../../model/json';
import { RenderError } from '../../../model/render-error';

/** What a resolved PodSnapshot pins on restore candidates. */
export interface ResolvedPodSnapshot {
  readonly name: string;
  readonly uid: string;
  /** Bound PodSnapshotContent (empty until Ready). */
  readonly boundContentName: string;
  readonly sourceContainer: string;
  readonly compatibilityVersion: string;
  readonly gmsMode: string;
  /** Condition `Ready` is True. */
  readonly ready: boolean;
}

/** How the PodSnapshot is used: an explicit reference, or the owning graph restoring its automatic capture. */
export type PodSnapshotUse = { readonly kind: 'explicit' } | { readonly kind: 'managed'; readonly ownerUid: string };

/** Where an error is reported. */
export interface ResolveErrorSite {
  readonly objectRef: string;
  readonly field: string;
  readonly componentName: string;
}

/**
 * Resolves `namespace/name` against the observed PodSnapshots; undefined when the caller passed
 * none of that name and `required` is false. Every operator rejection is a RenderError.
 */
export function resolvePodSnapshot(
  state: CheckpointClusterState | undefined, namespace: string, name: string, expectedCompatibilityHash: string,
  use: PodSnapshotUse, site: ResolveErrorSite, required: boolean,
): ResolvedPodSnapshot | undefined {
  const fail = (message: string): never => {
    throw new RenderError(site.objectRef, site.field, `failed to resolve checkpoint for component ${site.componentName}: ${message}`);
  };
  const ref = `${namespace}/${name}`;
  const snapshot = findObserved(state, POD_SNAPSHOT_KIND, namespace, name);
  if (!snapshot) {
    if (!required) return undefined;
    return fail(`get referenced PodSnapshot ${ref}: not found (a PodSnapshot lives in the cluster: pass the PodSnapshot `
      + 'document, as the cluster returns it with metadata.uid and status, together with the graph)');
  }
  const uid = String(snapshot.metadata.uid ?? '');
  if (uid === '') fail(`referenced PodSnapshot ${ref} has no UID`);
  if (conditionTrue(snapshot, 'Failed')) fail(`referenced PodSnapshot ${ref} has failed`);
  const podRef = isMap(snapshot.spec) && isMap(snapshot.spec.source) && isMap(snapshot.spec.source.podRef) ? snapshot.spec.source.podRef : {};
  const containers = Array.isArray(podRef.containers) ? podRef.containers : [];
  if (containers.length !== 1 || String(containers[0] ?? '').trim() === '') {
    fail(`referenced PodSnapshot ${ref} must identify exactly one source container`);
  }
  const annotations = snapshot.metadata.annotations ?? {};
  if (use.kind === 'explicit') {
    if (annotations[ANNOTATION_AUTO_CHECKPOINT] === 'true' && annotations[ANNOTATION_CHECKPOINT_DELETION_POLICY] === DELETION_RETAIN) {
      fail(`referenced PodSnapshot ${ref} is a retained automatic checkpoint and cannot be used as checkpointRef`);
    }
  } else {
    if (use.ownerUid === '') fail('managed PodSnapshot restore requires an owning DGD UID');
    if (annotations[ANNOTATION_AUTO_CHECKPOINT] !== 'true') fail(`managed PodSnapshot ${ref} is not marked as a Dynamo automatic checkpoint`);
    const owner = annotations[ANNOTATION_CHECKPOINT_OWNER_UID] ?? '';
    if (owner !== use.ownerUid) fail(`automatic PodSnapshot ${ref} belongs to DGD uid ${JSON.stringify(owner)}, not ${JSON.stringify(use.ownerUid)}`);
  }
  const version = annotations[ANNOTATION_SNAPSHOT_COMPATIBILITY_VERSION] ?? '';
  if (version !== SNAPSHOT_COMPATIBILITY_VERSION) {
    fail(`referenced PodSnapshot ${ref} has unsupported Dynamo compatibility version ${JSON.stringify(version)}`);
  }
  const hash = annotations[ANNOTATION_SNAPSHOT_COMPATIBILITY_HASH] ?? '';
  if (hash !== expectedCompatibilityHash) {
    fail(`referenced PodSnapshot ${ref} compatibility hash ${JSON.stringify(hash)} does not match expected hash `
      + `${JSON.stringify(expectedCompatibilityHash)}; compare the target image, command and args, non-restored environment, init `
      + 'containers, mounted volumes (including PVC claim names), accelerator placement and claims, Pod security/runtime settings, '
      + 'backend, and GMS mode/device class');
  }
  const gmsMode = annotations[ANNOTATION_SNAPSHOT_GMS_MODE] ?? '';
  if (gmsMode !== SNAPSHOT_GMS_MODE_DISABLED && gmsMode !== SNAPSHOT_GMS_MODE_INTRA_POD && gmsMode !== 'InterPod') {
    fail(`referenced PodSnapshot ${ref}: Dynamo GMS mode ${JSON.stringify(gmsMode)} is unsupported`);
  }
  const ready = conditionTrue(snapshot, 'Ready');
  // the Snapshot API at b7e707c names the field boundSnapshotContentName; newer Go types read boundPodSnapshotContentName
  const status = isMap(snapshot.status) ? snapshot.status : {};
  const content = String(status.boundPodSnapshotContentName ?? status.boundSnapshotContentName ?? '').trim();
  if (ready && content === '') fail(`Ready PodSnapshot ${ref} has no bound PodSnapshotContent`);
  return {
    name,
    uid,
    boundContentName: content,
    sourceContainer: String(containers[0]),
    compatibilityVersion: version,
    gmsMode,
    ready,
  };
}
