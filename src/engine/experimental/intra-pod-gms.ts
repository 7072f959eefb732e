/**
 * The intra-pod GPU memory service (docs/design/render-experimental.md §1.3): the pod's GPUs come from one DRA
 * claim shared by the engine and a `gms-server` native sidecar, which talk over a socket
 * directory on an emptyDir. Applied to every pod of a component whose `gpuMemoryService` mode is
 * empty or `IntraPod` (Deployment, LeaderWorkerSet and Grove clique pods alike).
 */
import { gpuMemoryServiceOf, isIntraPodGms } from './gms-spec';
import { ensureContainerClaim, ensureGpuToleration, removeGpuResources, upsertByName, upsertPodClaim } from './gpu-claims';
import { compareStrings, lowerAscii } from '../../model/json';
import { RenderError } from '../../model/render-error';
import { ContainerJson, EnvVarJson, PodSpecJson, valueEnv, VolumeJson, VolumeMountJson } from '../pod/k8s-json';
import type { PodSpecHook } from '../pod/pod-spec-hook';
import { DcdContext } from '../workloads/dcd-context';

/** Pod claim (and container claim) through which every GMS participant gets the shared GPUs. */
export const INTRA_POD_CLAIM_NAME = 'intrapod-shared-gpu';
/** The native sidecar running the GPU memory service server. */
export const GMS_SERVER_CONTAINER = 'gms-server';
/** The emptyDir holding the server's sockets, and where clients mount it. */
export const INTRA_POD_CONTROL_VOLUME = 'gms-intrapod-control';
export const INTRA_POD_CONTROL_PATH = '/gms-intrapod-control';
/** Env telling servers and clients where the sockets are. */
export const GMS_SOCKET_DIR_ENV = 'GMS_SOCKET_DIR';
/** Python module of the GPU memory service server. */
export const GMS_SERVER_MODULE = 'gpu_memory_service.cli.server';

/** `<parent>-<component lower-cased>-gpu`: the graph-level ResourceClaimTemplate of a GMS component. */
export function intraPodClaimTemplateName(parentName: string, componentName: string): string {
  return `${parentName}-${lowerAscii(componentName)}-gpu`;
}

/**
 * Wires a container as a GMS client: the control emptyDir (volume and mount replaced by name), the
 * socket-dir env (replaced by name), GPU scalars removed and the shared claim added.
 */
export function ensureGmsClient(podSpec: PodSpecJson, container: ContainerJson): void {
  podSpec.volumes = upsertByName<VolumeJson>(podSpec.volumes, { name: INTRA_POD_CONTROL_VOLUME, emptyDir: {} });
  const mount: VolumeMountJson = { name: INTRA_POD_CONTROL_VOLUME, mountPath: INTRA_POD_CONTROL_PATH };
  container.volumeMounts = upsertByName<VolumeMountJson>(container.volumeMounts, mount);
  container.env = upsertByName<EnvVarJson>(container.env, valueEnv(GMS_SOCKET_DIR_ENV, INTRA_POD_CONTROL_PATH));
  removeGpuResources(container);
  ensureContainerClaim(container, INTRA_POD_CLAIM_NAME);
}

/** The `gms-server` native sidecar, running the server with the engine's image. */
function gmsServerSidecar(image: string | undefined): ContainerJson {
  const sidecar: ContainerJson = { name: GMS_SERVER_CONTAINER };
  if (image !== undefined) sidecar.image = image;
  sidecar.command = ['python3', '-m', GMS_SERVER_MODULE];
  sidecar.env = [valueEnv(GMS_SOCKET_DIR_ENV, INTRA_POD_CONTROL_PATH)];
  sidecar.volumeMounts = [{ name: INTRA_POD_CONTROL_VOLUME, mountPath: INTRA_POD_CONTROL_PATH }];
  sidecar.resources = { claims: [{ name: INTRA_POD_CLAIM_NAME }] };
  sidecar.restartPolicy = 'Always';
  return sidecar;
}

/**
 * The operator's re-check of `extraClientContainers` against the rendered containers: every name
 * once, every name a container of the pod. Undefined when valid, else the problem.
 */
export function extraClientProblem(clients: readonly string[], containers: readonly ContainerJson[]): string | undefined {
  const present = new Set(containers.map(c => c.name));
  const seen = new Set<string>();
  const duplicates: string[] = [];
  const missing: string[] = [];
  for (const name of clients) {
    if (seen.has(name)) {
      duplicates.push(name);
      continue;
    }
    seen.add(name);
    if (!present.has(name)) missing.push(name);
  }
  const problems: string[] = [];
  const list = (names: string[]) => `[${names.sort(compareStrings).map(n => JSON.stringify(n)).join(' ')}]`;
  if (duplicates.length > 0) problems.push(`contains duplicate names ${list(duplicates)}`);
  if (missing.length > 0) problems.push(`references missing pod containers ${list(missing)}`);
  return problems.length > 0 ? `gpuMemoryService.extraClientContainers ${problems.join('; ')}` : undefined;
}

/** Applies the intra-pod GPU memory service to a rendered pod spec (no-op for other components). */
export function applyIntraPodGms(podSpec: PodSpecJson, ctx: DcdContext): void {
  const spec = ctx.dcd.spec ?? {};
  if (!isIntraPodGms(spec)) return;
  const clients = (gpuMemoryServiceOf(spec)?.extraClientContainers ?? []).map(String);
  const problem = extraClientProblem(clients, podSpec.containers);
  if (problem) throw new RenderError(ctx.ref, 'spec.experimental.gpuMemoryService.extraClientContainers', problem);

  // the shared claim on the engine, the toleration and the pod claim
  const main = podSpec.containers[0];
  removeGpuResources(main);
  ensureContainerClaim(main, INTRA_POD_CLAIM_NAME);
  ensureGpuToleration(podSpec);
  upsertPodClaim(podSpec, INTRA_POD_CLAIM_NAME, intraPodClaimTemplateName(ctx.parentName, ctx.componentName));

  // the engine as client, then the server sidecar unless one is there already
  ensureGmsClient(podSpec, main);
  const initContainers = Array.isArray(podSpec.initContainers) ? podSpec.initContainers as ContainerJson[] : [];
  if (!initContainers.some(c => c?.name === GMS_SERVER_CONTAINER)) {
    podSpec.initContainers = [...initContainers, gmsServerSidecar(main.image)];
  }
  for (const name of clients) {
    ensureGmsClient(podSpec, podSpec.containers.find(c => c.name === name)!);
  }
}

/** The intra-pod GPU memory service as a pod-spec hook. */
export const INTRA_POD_GMS_HOOK: PodSpecHook = {
  name: 'gpuMemoryService (IntraPod)',
  apply: (podSpec, ctx) => applyIntraPodGms(podSpec, ctx),
};
