/**
 * The two hashes of automatic capture (docs/design/render-experimental.md §3.2.1, §3.3):
 *
 * - the checkpoint ID, which names the SnapshotJob: the first 32 hex characters of the SHA-256 of
 *   the Go JSON of {namespace?, dgdName, dgdUID?, componentName, workerHash?, compatibilityHash?,
 *   compatibilityVersion?} (empty values omitted);
 * - the snapshot compatibility hash, the restore gate: the full SHA-256 of the Go JSON of a contract
 *   built from the capture pod template (the target container without its name, restore-time env,
 *   probes, ports and terminal settings; init containers; the volumes they use; pod placement,
 *   security and runtime settings; resource claims).
 *
 * Both are taken over Go's `encoding/json` output, reproduced by `goJsonEncode` with the struct
 * layouts below, so that they equal the operator's byte for byte.
 */
import { SNAPSHOT_COMPATIBILITY_VERSION, SNAPSHOT_JOB_NAME_PREFIX } from './constants';
import { goJsonEncode } from '../../../go/marshal';
import { isMap } from '../../../model/json';
import { RenderError } from '../../../model/render-error';
import { sha256Hex } from '../../hash/worker-hash';
import { ContainerJson, objectItems, PodSpecJson } from '../../pod/k8s-json';

/** Go struct layouts of the two hashed values (notation of src/go/types.ts). */
export const CHECKPOINT_HASH_TYPES: Readonly<Record<string, string>> = Object.freeze({
  CheckpointIdentity: 'namespace?:s dgdName:s dgdUID?:s componentName:s workerHash?:s compatibilityHash?:s compatibilityVersion?:s',
  SnapshotCompatibilityContract: 'version:s backendFramework:s gmsMode:s gmsDeviceClassName?:s targetContainer:Container '
    + 'initContainers?:[]Container volumes?:[]Volume hostNetwork?:b hostPID?:b hostIPC?:b shareProcessNamespace?:*b '
    + 'securityContext?:*PodSecurityContext runtimeClassName?:*s nodeName?:s nodeSelector?:{}s nodeAffinity?:*NodeAffinity '
    + 'schedulerName?:s resourceClaims?:[]PodResourceClaim',
});

/** What identifies one automatic capture. */
export interface CheckpointIdentityInput {
  readonly namespace: string;
  readonly dgdName: string;
  /** The graph's UID; empty for a graph not yet created. */
  readonly dgdUid: string;
  readonly componentName: string;
  /** Active worker hash of a worker-class component; empty otherwise. */
  readonly workerHash: string;
  readonly compatibilityHash: string;
}

/** The 32-hex-character checkpoint ID of an automatic capture (docs/design/render-experimental.md §3.2.1). */
export function checkpointId(input: CheckpointIdentityInput): string {
  const value = {
    namespace: input.namespace,
    dgdName: input.dgdName,
    dgdUID: input.dgdUid,
    componentName: input.componentName,
    workerHash: input.workerHash,
    compatibilityHash: input.compatibilityHash,
    compatibilityVersion: SNAPSHOT_COMPATIBILITY_VERSION,
  };
  return sha256Hex(goJsonEncode(value, 'CheckpointIdentity', { types: CHECKPOINT_HASH_TYPES })).slice(0, 32);
}

/** `checkpoint-<checkpointID>`: the SnapshotJob (and produced PodSnapshot) name. */
export function snapshotJobName(id: string): string {
  return `${SNAPSHOT_JOB_NAME_PREFIX}${id}`;
}

/**
 * Env the destination pod refreshes at restore, so a snapshot stays portable across pods
 * (the operator's list mirrors the Dynamo runtime's restore env names).
 */
export const RESTORE_TIME_ENV: ReadonlySet<string> = new Set([
  'CONTAINER_NAME', 'DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_EVENT_PLANE', 'DYN_EVENT_PLANE_HOST', 'DYN_GMS_USE_V1',
  'DYN_HEALTH_CHECK_ENABLED', 'DYN_KUBE_DISCOVERY_MODE', 'DYN_NAMESPACE', 'DYN_NAMESPACE_WORKER_SUFFIX', 'DYN_PARENT_DGD_K8S_NAME',
  'DYN_PARENT_DGD_K8S_NAMESPACE', 'DYN_REQUEST_PLANE', 'DYN_SYSTEM_HEALTH_PATH', 'DYN_SYSTEM_HOST', 'DYN_SYSTEM_LIVE_PATH',
  'DYN_SYSTEM_PORT', 'DYN_SYSTEM_STARTING_HEALTH_STATUS', 'DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS', 'DYN_TCP_RESPONSE_STREAM_HOST',
  'DYN_TCP_RESPONSE_STREAM_PORT', 'DYN_TCP_RPC_HOST', 'DYN_TCP_RPC_PORT', 'DYN_VLLM_GMS_SHADOW_MODE', 'ENGINE_ID', 'ETCD_ENDPOINTS',
  'FAILOVER_LOCK_PATH', 'MODEL_EXPRESS_URL', 'NATS_SERVER', 'POD_NAME', 'POD_NAMESPACE', 'POD_UID', 'PROMETHEUS_ENDPOINT',
]);

/** Fields of a container that do not decide whether a captured process can resume in it. */
const LIFECYCLE_FIELDS = [
  'lifecycle', 'livenessProbe', 'readinessProbe', 'startupProbe', 'ports', 'terminationMessagePath', 'terminationMessagePolicy',
  'resizePolicy', 'stdin', 'stdinOnce', 'tty',
];

/** Go's `sort.SliceStable` by two string keys (byte-wise, as Go compares strings). */
function sortByKeys<T>(items: T[], first: (t: T) => string, second: (t: T) => string): T[] {
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return items
    .map((item, i) => ({ item, i }))
    .sort((a, b) => cmp(first(a.item), first(b.item)) || cmp(second(a.item), second(b.item)) || a.i - b.i)
    .map(x => x.item);
}

/** A container as the compatibility contract records it. */
function canonicalContainer(container: ContainerJson, keepName: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { ...container };
  if (!keepName) out.name = '';
  out.env = objectItems<{ name?: string }>(container.env).filter(e => !RESTORE_TIME_ENV.has(String(e.name ?? '')));
  const str = (v: unknown) => (typeof v === 'string' ? v : '');
  out.volumeMounts = sortByKeys(objectItems<Record<string, unknown>>(container.volumeMounts), m => str(m.mountPath), m => str(m.name));
  const devices: unknown = (container as Record<string, unknown>).volumeDevices;
  if (Array.isArray(devices)) out.volumeDevices = sortByKeys(objectItems<Record<string, unknown>>(devices), d => str(d.devicePath), d => str(d.name));
  const resources: unknown = container.resources;
  if (isMap(resources) && Array.isArray(resources.claims)) {
    const claims = sortByKeys(objectItems<Record<string, unknown>>(resources.claims), c => str(c.name), c => str(c.request));
    out.resources = { ...resources, claims };
  }
  for (const field of LIFECYCLE_FIELDS) delete out[field];
  return out;
}

/** The volumes the target container or an init container mounts or uses as devices, sorted by name. */
function usedVolumes(podSpec: PodSpecJson, target: ContainerJson): unknown[] {
  const used = new Set<string>();
  for (const container of [target, ...objectItems<ContainerJson>(podSpec.initContainers)]) {
    for (const mount of objectItems<{ name?: string }>(container.volumeMounts)) used.add(String(mount.name ?? ''));
    for (const device of objectItems<{ name?: string }>((container as Record<string, unknown>).volumeDevices)) used.add(String(device.name ?? ''));
  }
  const volumes = objectItems<{ name?: string }>(podSpec.volumes).filter(v => used.has(String(v.name ?? '')));
  return sortByKeys(volumes, v => String(v.name ?? ''), () => '');
}

/** GMS identity of a capture: its mode annotation value and device class (empty when disabled). */
export interface SnapshotGmsIdentity {
  readonly mode: string;
  readonly deviceClassName: string;
}

/**
 * The snapshot compatibility hash of a capture pod template (docs/design/render-experimental.md §3.3). `objectRef` names the graph in
 * errors; a missing target container is an error as in the operator.
 */
export function snapshotCompatibilityHash(
  podSpec: PodSpecJson, targetContainerName: string, backendFramework: string, gms: SnapshotGmsIdentity, objectRef: string,
): string {
  const target = objectItems<ContainerJson>(podSpec.containers).find(c => c.name === targetContainerName);
  if (!target) {
    throw new RenderError(objectRef, 'experimental.checkpoint.targetContainerName',
      `snapshot compatibility target container ${JSON.stringify(targetContainerName)} not found`);
  }
  const spec = podSpec as PodSpecJson & Record<string, any>;
  const claims = objectItems<{ name?: string }>(spec.resourceClaims);
  const contract: Record<string, unknown> = {
    version: SNAPSHOT_COMPATIBILITY_VERSION,
    backendFramework,
    gmsMode: gms.mode,
    gmsDeviceClassName: gms.deviceClassName,
    targetContainer: canonicalContainer(target, false),
    initContainers: objectItems<ContainerJson>(spec.initContainers).map(c => canonicalContainer(c, true)),
    volumes: usedVolumes(podSpec, target),
    hostNetwork: spec.hostNetwork,
    hostPID: spec.hostPID,
    hostIPC: spec.hostIPC,
    shareProcessNamespace: spec.shareProcessNamespace,
    securityContext: spec.securityContext,
    runtimeClassName: spec.runtimeClassName,
    nodeName: spec.nodeName,
    nodeSelector: spec.nodeSelector,
    nodeAffinity: isMap(spec.affinity) ? spec.affinity.nodeAffinity : undefined,
    schedulerName: spec.schedulerName,
    // sort.Slice by name: claim names are unique in a valid pod, so stability does not matter
    resourceClaims: sortByKeys(claims, c => String(c.name ?? ''), () => ''),
  };
  return sha256Hex(goJsonEncode(contract, 'SnapshotCompatibilityContract', { types: CHECKPOINT_HASH_TYPES, unknownFields: 'drop' }));
}
