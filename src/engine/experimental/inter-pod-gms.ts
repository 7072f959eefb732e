/**
 * The inter-pod GPU memory service on Grove (docs/design/render-experimental.md §1.2.2, §1.4, §2.4, as of the
 * operator snapshot [S]): per node rank a weight-server pod runs the GPU memory service server and
 * engine pods (the primary plus, with inter-pod failover, its shadows) load the weights from it.
 * Both share the rank's GPUs through a Grove-managed DRA claim and a host directory for the
 * sockets. This module holds the pod rewrites and the PodCliqueSet pieces; the clique layout is
 * in `grove/clique-roles.ts`.
 */
import { deviceClassNameOf, isInterPodFailover, isInterPodGms, mainContainerGpus } from './gms-spec';
import { ensureGpuToleration, removeGpuResources } from './gpu-claims';
import { GMS_SERVER_MODULE, GMS_SOCKET_DIR_ENV } from './intra-pod-gms';
import { gpuClaimTemplateSpec } from './resource-claim-templates';
import { isMap } from '../../model/json';
import { copyJson } from '../../model/json-copy';
import { ComponentSpecJson, JsonObject } from '../../model/v1beta1';
import { MAIN_CONTAINER } from '../../model/well-known';
import { selectBackend } from '../backend/select';
import { injectFlags } from '../multinode/flag-injection';
import { ContainerJson, EnvVarJson, fieldRefEnv, PodSpecJson, valueEnv, VolumeMountJson } from '../pod/k8s-json';
import { DcdContext } from '../workloads/dcd-context';
import { normalizeKubeResourceName } from '../workloads/kube-object';

/** Host directory volume shared by the weight server and the engines of a rank. */
export const GMS_SHARED_VOLUME = 'gms-shared';
export const GMS_HOST_PATH = '/run/gms';
export const GMS_SHARED_MOUNT_PATH = '/run/gms/shared';
/** Init container opening the shared directory to the non-root server and engines. */
export const GMS_PERMISSION_FIX_CONTAINER = 'fix-gms-perms';
/** Lock file through which the engines of a rank elect the primary. */
export const INTER_POD_FAILOVER_LOCK_PATH = `${GMS_SHARED_MOUNT_PATH}/failover.lock`;
/** Clique label marking the engine pods the failover cascade deletes together. */
export const LABEL_FAILOVER_ENGINE_GROUP_MEMBER = 'nvidia.com/dynamo-failover-engine-group-member';
/** Pod label Grove sets to the pod's index within its clique: the engine id. */
const GROVE_POD_INDEX_LABEL = 'grove.io/podclique-pod-index';
/** Env that turns a vLLM engine loading from the GPU memory service into a failover shadow. */
const VLLM_SHADOW_MODE_ENV = 'DYN_VLLM_GMS_SHADOW_MODE';
const LOAD_FORMAT_FLAG = '--load-format';
const LOAD_FORMAT_GMS = 'gms';

/**
 * The weight server's script: drop stale sockets, run the server in the background, pass
 * SIGTERM/SIGINT on to the process group and exit with the server's exit code.
 */
export function gmsWrapperScript(): string {
  return [
    `rm -f ${GMS_SHARED_MOUNT_PATH}/gms_*.sock`,
    'rc=1',
    'cleanup() { kill -- -$$ 2>/dev/null; exit "$rc"; }',
    'trap cleanup SIGTERM SIGINT',
    `python3 -m ${GMS_SERVER_MODULE} &`,
    'echo "Started GMS server pid=$!"',
    'wait -n',
    'rc=$?',
    'echo "GMS server exited (code=$rc), shutting down"',
    'cleanup',
  ].join('\n');
}

/** Startup check of the weight server: a weights and a KV-cache socket for every GPU. */
export function gmsStartupProbe(gpuCount: number): JsonObject {
  return {
    exec: { command: ['sh', '-c', `test $(ls ${GMS_SHARED_MOUNT_PATH}/gms_*.sock 2>/dev/null | wc -l) -ge ${2 * gpuCount}`] },
    periodSeconds: 2,
    timeoutSeconds: 2,
    failureThreshold: 150,
  };
}

/** The rank's share of the host directory: one directory per scaling-group replica and rank. */
function sharedMount(rank: number): VolumeMountJson {
  return { name: GMS_SHARED_VOLUME, mountPath: GMS_SHARED_MOUNT_PATH, subPathExpr: `$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)/rank-${rank}` };
}

/**
 * What weight-server and engine pods of a rank share: GPU scalars dropped from the first
 * container (Grove's claim provides the GPUs), the GPU toleration, the host directory (volume and
 * mount appended) and the init container that opens it to every user.
 */
function applySharedHostDirectory(podSpec: PodSpecJson, rank: number): void {
  const container = podSpec.containers[0];
  removeGpuResources(container);
  ensureGpuToleration(podSpec);
  podSpec.volumes = [...(podSpec.volumes ?? []), { name: GMS_SHARED_VOLUME, hostPath: { path: GMS_HOST_PATH, type: 'DirectoryOrCreate' } }];
  container.volumeMounts = [...(container.volumeMounts ?? []), sharedMount(rank)];
  const fix: ContainerJson = { name: GMS_PERMISSION_FIX_CONTAINER };
  if (container.image !== undefined) fix.image = container.image;
  fix.command = ['sh', '-c', `chmod 1777 ${GMS_SHARED_MOUNT_PATH}`];
  fix.securityContext = { runAsUser: 0, runAsNonRoot: false };
  fix.volumeMounts = [sharedMount(rank)];
  podSpec.initContainers = [...(Array.isArray(podSpec.initContainers) ? podSpec.initContainers : []), fix];
}

/**
 * The weight-server pod of a rank from the component's single-node pod spec (changed in place):
 * the first container runs the server script with the socket-dir env, keeps only a startup probe
 * that waits for the sockets, and shares the host directory. The restart policy is left as rendered.
 */
export function toGmsWeightServerPod(podSpec: PodSpecJson, rank: number, gpuCount: number): void {
  const container = podSpec.containers[0];
  if (!container) return;
  container.command = ['bash', '-c'];
  container.args = [gmsWrapperScript()];
  container.startupProbe = gmsStartupProbe(gpuCount);
  delete container.livenessProbe;
  delete container.readinessProbe;
  container.env = [...(container.env ?? []), valueEnv(GMS_SOCKET_DIR_ENV, GMS_SHARED_MOUNT_PATH)];
  applySharedHostDirectory(podSpec, rank);
}

/**
 * An engine pod of a rank (changed in place): engine id from the Grove pod index, the socket
 * directory, the failover lock, a not-ready start; no endpoint health status; the shared host
 * directory; with inter-pod failover, no restarts (the failover cascade replaces the cohort).
 */
export function toGmsEnginePod(podSpec: PodSpecJson, rank: number, interPodFailover: boolean): void {
  const container = podSpec.containers[0];
  if (!container) return;
  const env: EnvVarJson[] = [
    ...(container.env ?? []),
    fieldRefEnv('ENGINE_ID', `metadata.labels['${GROVE_POD_INDEX_LABEL}']`),
    valueEnv(GMS_SOCKET_DIR_ENV, GMS_SHARED_MOUNT_PATH),
    valueEnv('FAILOVER_LOCK_PATH', INTER_POD_FAILOVER_LOCK_PATH),
    valueEnv('DYN_SYSTEM_STARTING_HEALTH_STATUS', 'notready'),
  ];
  container.env = env.filter(e => e.name !== 'DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS');
  applySharedHostDirectory(podSpec, rank);
  if (interPodFailover) podSpec.restartPolicy = 'Never';
}

/** Whether `flag value` is in the args, as two args or inside one (`flag value`, `flag=value`). */
function argsHaveFlagValue(args: readonly string[], flag: string, value: string): boolean {
  return args.some((arg, i) => arg.includes(`${flag} ${value}`) || arg.includes(`${flag}=${value}`) || (arg === flag && args[i + 1] === value));
}

/**
 * The rendering context of an inter-pod vLLM component with `--load-format gms` in its `main`
 * container's launch (added unless the args already say so). The operator adds the flag at the
 * start of the vLLM container hook, before any multinode rewrite; adding it to the user's
 * container first gives the same command line, because the flag lands in the args either way.
 */
export function withGmsLoadFormat(ctx: DcdContext): DcdContext {
  const spec = ctx.dcd.spec ?? {};
  if (!isInterPodGms(spec) || selectBackend(spec, ctx.ref).framework !== 'vllm') return ctx;
  const copy = copyJson(spec);
  const podSpec = isMap(copy.podTemplate) && isMap(copy.podTemplate.spec) ? copy.podTemplate.spec : undefined;
  const containers: ContainerJson[] = Array.isArray(podSpec?.containers) ? podSpec!.containers : [];
  const at = containers.findIndex(c => isMap(c) && c.name === MAIN_CONTAINER);
  if (at < 0 || argsHaveFlagValue((containers[at].args ?? []).map(String), LOAD_FORMAT_FLAG, LOAD_FORMAT_GMS)) return ctx;
  containers[at] = injectFlags(containers[at], { flags: `${LOAD_FORMAT_FLAG} ${LOAD_FORMAT_GMS}`, needsShell: false, framework: 'vllm' });
  return { ...ctx, dcd: { ...ctx.dcd, spec: copy } };
}

/** Whether an env entry reads the pod IP. */
function isPodIpRef(env: EnvVarJson | undefined, name: string): boolean {
  return env?.name === name && isMap(env.valueFrom) && isMap(env.valueFrom.fieldRef) && env.valueFrom.fieldRef.fieldPath === 'status.podIP';
}

/**
 * Where the vLLM container hook's first env entry goes: after the name-sorted env block, i.e.
 * before the entries the rest of the hook appends at the end (from last to first: the
 * compilation-cache root, the elastic-EP pod-IP pair of a single pod, the NIXL side-channel host of
 * a multinode pod).
 */
function vllmHookEnvIndex(env: readonly EnvVarJson[], spec: ComponentSpecJson, multinode: boolean): number {
  let at = env.length;
  if (spec.compilationCache !== undefined && spec.compilationCache !== null && env[at - 1]?.name === 'VLLM_CACHE_ROOT') at--;
  if (!multinode && isPodIpRef(env[at - 1], 'VLLM_DP_MASTER_IP') && isPodIpRef(env[at - 2], 'POD_IP')) at -= 2;
  if (multinode && isPodIpRef(env[at - 1], 'VLLM_NIXL_SIDE_CHANNEL_HOST')) at--;
  return at;
}

/**
 * `DYN_VLLM_GMS_SHADOW_MODE=true` on the first container of every pod of an inter-pod failover vLLM
 * component (engines and, since they render through the same hook, weight servers), where the
 * operator's vLLM container hook puts it. `multinode` says whether the pod was rendered with a
 * multinode role.
 */
export function addVllmShadowModeEnv(podSpec: PodSpecJson, ctx: DcdContext, multinode: boolean): void {
  const spec = ctx.dcd.spec ?? {};
  if (!isInterPodGms(spec) || !isInterPodFailover(spec) || selectBackend(spec, ctx.ref).framework !== 'vllm') return;
  const container = podSpec.containers[0];
  const env = [...(container.env ?? [])];
  env.splice(vllmHookEnvIndex(env, spec, multinode), 0, valueEnv(VLLM_SHADOW_MODE_ENV, 'true'));
  container.env = env;
}

/** `<component normalised>-gpu-rank-<r>`: the Grove claim template of a rank. */
export function rankClaimTemplateName(componentName: string, rank: number): string {
  return `${normalizeKubeResourceName(componentName)}-gpu-rank-${rank}`;
}

/** A clique of the inter-pod layout, as far as the PodCliqueSet pieces need it. */
export interface RankedClique {
  readonly cliqueName: string;
  readonly rank: number;
}

/** The ranks of the cliques, each once, in clique order. */
function ranksOf(cliques: readonly RankedClique[]): number[] {
  return [...new Set(cliques.map(c => c.rank))];
}

/**
 * The PodCliqueSet `resourceClaimTemplates` of an inter-pod component: per rank, request `gpu`
 * for the main container's GPUs of the configured device class.
 */
export function rankClaimTemplates(component: ComponentSpecJson, cliques: readonly RankedClique[], objectRef: string, at: string): JsonObject[] {
  const gpus = mainContainerGpus(component, objectRef, at);
  const deviceClass = deviceClassNameOf(component);
  return ranksOf(cliques).map(rank => ({
    name: rankClaimTemplateName(component.name ?? '', rank),
    templateSpec: gpuClaimTemplateSpec('gpu', deviceClass, gpus),
  }));
}

/**
 * The scaling group's `resourceSharing` of an inter-pod component: per rank one claim per
 * scaling-group replica, handed to that rank's cliques only.
 */
export function rankResourceSharing(componentName: string, cliques: readonly RankedClique[]): JsonObject[] {
  return ranksOf(cliques).map(rank => ({
    name: rankClaimTemplateName(componentName, rank),
    scope: 'PerReplica',
    filter: { childCliqueNames: cliques.filter(c => c.rank === rank).map(c => c.cliqueName) },
  }));
}
