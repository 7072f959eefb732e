/**
 * The GPU memory service in a capture pod (docs/design/render-experimental.md §3.2.4, wiring of §1.3 with the V1
 * protocol): a DRA claim on a capture-owned ResourceClaimTemplate, the `gms-server` native sidecar,
 * and the socket client wiring of the target container and of `checkpoint.job.gmsClientContainers`
 * (the component's own `extraClientContainers` are not used for the capture pod). The wiring
 * reuses the serving-pod GMS helpers; only the V1 env and the claim template differ.
 */
import { DEFAULT_GMS_DEVICE_CLASS, SNAPSHOT_GMS_MODE_DISABLED, SNAPSHOT_GMS_MODE_INTRA_POD } from './constants';
import { SnapshotGmsIdentity } from './identity';
import { isMap, JsonMap } from '../../../model/json';
import { RenderError } from '../../../model/render-error';
import { ComponentSpecJson, DgdJson } from '../../../model/v1beta1';
import { withCreateBookkeeping } from '../../bookkeeping';
import { ContainerJson, EnvVarJson, PodSpecJson, valueEnv } from '../../pod/k8s-json';
import { kubeObject, KubeObject } from '../../workloads/kube-object';
import { ensureGpuToleration, upsertByName, upsertPodClaim } from '../gpu-claims';
import {
  ensureGmsClient, GMS_SERVER_CONTAINER, GMS_SERVER_MODULE, GMS_SOCKET_DIR_ENV, INTRA_POD_CLAIM_NAME, INTRA_POD_CONTROL_PATH,
  INTRA_POD_CONTROL_VOLUME,
} from '../intra-pod-gms';
import { gpuClaimTemplateSpec, RESOURCE_API_VERSION, RESOURCE_CLAIM_TEMPLATE_KIND } from '../resource-claim-templates';

/** Env selecting the V1 GMS protocol, set on every participant of a snapshot-coupled pod. */
export const GMS_USE_V1_ENV = 'DYN_GMS_USE_V1';
const GPU_RESOURCE = 'nvidia.com/gpu';

/** The GMS identity a capture records (mode annotation, device class); InterPod cannot be captured. */
export function captureGmsIdentity(component: ComponentSpecJson, objectRef: string, at: string): SnapshotGmsIdentity {
  const gms = component.experimental?.gpuMemoryService;
  if (!isMap(gms)) return { mode: SNAPSHOT_GMS_MODE_DISABLED, deviceClassName: '' };
  const mode = typeof gms.mode === 'string' ? gms.mode : '';
  if (mode !== '' && mode !== SNAPSHOT_GMS_MODE_INTRA_POD) {
    throw new RenderError(objectRef, `${at}.experimental.gpuMemoryService.mode`, `snapshot has unsupported gpuMemoryService mode ${JSON.stringify(mode)}`);
  }
  const deviceClassName = typeof gms.deviceClassName === 'string' && gms.deviceClassName !== '' ? gms.deviceClassName : DEFAULT_GMS_DEVICE_CLASS;
  return { mode: SNAPSHOT_GMS_MODE_INTRA_POD, deviceClassName };
}

/** `checkpoint-<checkpointID>-worker-gpu`: the capture's ResourceClaimTemplate (`<parent>-<component>-gpu` with parent `checkpoint-<id>`). */
export function captureClaimTemplateName(checkpointId: string): string {
  return `checkpoint-${checkpointId}-worker-gpu`;
}

/** Whole GPUs the target container asks for (`nvidia.com/gpu` limit, else request); 0 when none. */
export function containerGpuCount(container: ContainerJson, objectRef: string, at: string): number {
  const resources: JsonMap = isMap(container.resources) ? container.resources : {};
  for (const section of ['limits', 'requests']) {
    const values = resources[section];
    if (!isMap(values) || values[GPU_RESOURCE] === undefined) continue;
    const count = Number(String(values[GPU_RESOURCE]));
    if (!Number.isInteger(count)) {
      throw new RenderError(objectRef, at, `invalid GPU resource requirements: ${GPU_RESOURCE} ${JSON.stringify(values[GPU_RESOURCE])} is not a whole number`);
    }
    return count;
  }
  return 0;
}

/**
 * The capture's ResourceClaimTemplate (`resource.k8s.io/v1`, request `gpus`, shape of docs/design/render-experimental.md §1.2.1), with
 * the create bookkeeping of the graph's create-or-update path. The operator then moves its controller
 * reference to the SnapshotJob (owner references are not rendered).
 */
export function captureClaimTemplate(dgd: DgdJson, name: string, gpuCount: number, deviceClassName: string): KubeObject {
  const meta = { name, namespace: dgd.metadata.namespace ?? '' };
  return withCreateBookkeeping(kubeObject(RESOURCE_API_VERSION, RESOURCE_CLAIM_TEMPLATE_KIND, meta, { spec: gpuClaimTemplateSpec('gpus', deviceClassName, gpuCount) }));
}

/** Adds the V1 protocol env to a GMS participant. */
function enableV1(container: ContainerJson): void {
  container.env = upsertByName<EnvVarJson>(container.env, valueEnv(GMS_USE_V1_ENV, 'true'));
}

/** The `gms-server` native sidecar of a capture pod (with the V1 protocol env when `v1`), running the target's image. */
function captureServerSidecar(image: string | undefined, v1: boolean): ContainerJson {
  const sidecar: ContainerJson = { name: GMS_SERVER_CONTAINER };
  if (image !== undefined) sidecar.image = image;
  sidecar.command = ['python3', '-m', GMS_SERVER_MODULE];
  sidecar.env = [valueEnv(GMS_SOCKET_DIR_ENV, INTRA_POD_CONTROL_PATH)];
  if (v1) sidecar.env.push(valueEnv(GMS_USE_V1_ENV, 'true'));
  sidecar.volumeMounts = [{ name: INTRA_POD_CONTROL_VOLUME, mountPath: INTRA_POD_CONTROL_PATH }];
  sidecar.resources = { claims: [{ name: INTRA_POD_CLAIM_NAME }] };
  sidecar.restartPolicy = 'Always';
  return sidecar;
}

/** How a capture pod is wired: the SnapshotJob generation or the DynamoCheckpoint generation. */
export interface CaptureGmsWiring {
  /** Whether every participant gets `DYN_GMS_USE_V1=true` (SnapshotJob generation only). */
  readonly v1Protocol: boolean;
  /** A client name that names no container: an error (SnapshotJob generation) or skipped (DynamoCheckpoint generation). */
  readonly missingClients: 'error' | 'skip';
}

const SNAPSHOT_JOB_WIRING: CaptureGmsWiring = { v1Protocol: true, missingClients: 'error' };

/**
 * Wires the GPU memory service into a capture pod spec in place: with `missingClients: 'error'`
 * every client name must name a container of the capture pod; then the GPU toleration, the pod
 * claim on `claimTemplateName`, the `gms-server` sidecar (unless present) and the client wiring of
 * the target and the clients (V1 protocol env with `v1Protocol`).
 */
export function wireCaptureGms(
  podSpec: PodSpecJson, targetContainerName: string, clientNames: readonly string[], claimTemplateName: string, objectRef: string, at: string,
  wiring: CaptureGmsWiring = SNAPSHOT_JOB_WIRING,
): void {
  const find = (name: string) => podSpec.containers.find(c => c.name === name);
  for (const name of clientNames) {
    if (!find(name) && wiring.missingClients === 'error') {
      throw new RenderError(objectRef, `${at}.experimental.checkpoint.job.gmsClientContainers`,
        `gpuMemoryService client container ${JSON.stringify(name)}: SnapshotJob pod template: pod spec has no container named ${JSON.stringify(name)}`);
    }
  }
  const target = find(targetContainerName)!;
  ensureGpuToleration(podSpec);
  upsertPodClaim(podSpec, INTRA_POD_CLAIM_NAME, claimTemplateName);
  const initContainers = Array.isArray(podSpec.initContainers) ? podSpec.initContainers as ContainerJson[] : [];
  if (!initContainers.some(c => c?.name === GMS_SERVER_CONTAINER)) {
    podSpec.initContainers = [...initContainers, captureServerSidecar(target.image, wiring.v1Protocol)];
  }
  const clients = clientNames.map(name => find(name)).filter((c): c is ContainerJson => c !== undefined);
  for (const container of [target, ...clients]) {
    ensureGmsClient(podSpec, container);
    if (wiring.v1Protocol) enableV1(container);
  }
}
