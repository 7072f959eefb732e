/**
 * vLLM across several nodes (docs/design/render-multinode.md §6.1, §10.1): which launch the operator sets up
 * (multiprocessing, Ray, elastic EP on Ray, or hybrid data parallel), the flags and scripts it
 * writes into the leader's and the workers' command lines, and the workers' wait-for-leader init
 * container. Pure functions: a container or pod spec and the context in, a new one out.
 */
import { MultinodeContainerContext, MultinodePodContext, withoutProbes } from './multinode-context';
import { DEFAULT_OPERATOR_VERSION } from '../../../model/operator-settings';
import { operatorHas } from '../../../model/operator-version';
import { isLenientSemver } from '../../../model/runtime-version';
import { ANNOTATION_ORIGIN_VERSION, ANNOTATION_VLLM_EXECUTOR_BACKEND } from '../../../model/well-known';
import { MultinodeDeployer, nodeRank } from '../../multinode/deployer';
import {
  expandWords, FlagSpellings, hasFlagValue, injectFlags, intFlagValue, normalizeFlagWords, quoteWordsForBashC,
} from '../../multinode/flag-injection';
import { MultinodeLaunchRole } from '../../multinode/roles';
import { ContainerJson, fieldRefEnv, PodSpecJson } from '../../pod/k8s-json';
import { shellQuotePosix } from '../shell-quote';
import { rayHeadLaunchScript } from '../vllm';

/** Port of the Ray head (GCS). */
export const VLLM_RAY_PORT = 6379;
/** Master port of the multiprocessing executor on the leader. */
export const VLLM_MP_MASTER_PORT = 29500;
/** RPC port of hybrid data-parallel coordination. */
export const VLLM_DP_RPC_PORT = 13445;
/** Port of the Dynamo system server the elastic-EP workers poll on the leader. */
export const DYNAMO_SYSTEM_PORT = 9090;
/** Env var binding the NIXL side channel to the pod IP when the mp executor is used. */
export const VLLM_NIXL_SIDE_CHANNEL_HOST = 'VLLM_NIXL_SIDE_CHANNEL_HOST';
/** Name of the wait-for-leader init container, volume and script. */
export const WAIT_FOR_LEADER_CONTAINER = 'wait-for-leader-mp';
export const WAIT_LEADER_VOLUME = 'wait-leader-script';
export const WAIT_LEADER_MOUNT_PATH = '/scripts';
export const WAIT_LEADER_SCRIPT_KEY = 'wait-for-leader.py';

const TP = '--tensor-parallel-size';
const PP = '--pipeline-parallel-size';
const DP = '--data-parallel-size';
const DP_LOCAL = '--data-parallel-size-local';
const DP_BACKEND = '--data-parallel-backend';
const ELASTIC_EP = '--enable-elastic-ep';
const EXECUTOR = '--distributed-executor-backend';

/** The vLLM flags the operator reads, with their short aliases and underscore spellings (operator 1.6.0 on). */
export const VLLM_FLAG_SPELLINGS: FlagSpellings = {
  aliases: { '-tp': TP, '-pp': PP, '-dp': DP, '-dpl': DP_LOCAL, '-dpb': DP_BACKEND },
  canonical: new Set([TP, PP, DP, DP_LOCAL, DP_BACKEND, ELASTIC_EP, EXECUTOR]),
  valueFlags: new Set([TP, PP, DP, DP_LOCAL, DP_BACKEND, EXECUTOR]),
};

/** Whether the operator of `version` reads the vLLM flags in every spelling (1.6.0 on) rather than as exact long flags. */
function readsFlagSpellings(version: string | undefined): boolean {
  return operatorHas(version ?? DEFAULT_OPERATOR_VERSION, 'vllmFlagSpellings');
}

/**
 * The words of the container's `args` the launch decision reads (the `command` is not read):
 * normalised from operator 1.6.0 on; before, as they are, so only exact long flags count.
 */
export function vllmLaunchWords(container: ContainerJson, operatorVersion?: string): string[] {
  const words = expandWords((container.args ?? []).map(String));
  return readsFlagSpellings(operatorVersion) ? normalizeFlagWords(words, VLLM_FLAG_SPELLINGS) : words;
}

/** The words of `command` + `args`, normalised. */
function commandLineWords(container: ContainerJson): string[] {
  return normalizeFlagWords(expandWords([...(container.command ?? []), ...(container.args ?? [])].map(String)), VLLM_FLAG_SPELLINGS);
}

/** TP × PP read from the words (each defaulting to 1). */
export function vllmWorldSize(words: readonly string[]): number {
  return intFlagValue(words, TP) * intFlagValue(words, PP);
}

const MASTERMINDS_VERSION = /^v?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

/**
 * Whether an operator origin version is at least 1.0.0 in semantic-version order (a pre-release
 * of 1.0.0 is lower; a version that does not parse, in the lenient sense the admission check
 * uses, is not).
 */
export function originVersionAtLeast1(version: string | undefined): boolean {
  const m = version === undefined || !isLenientSemver(version) ? null : MASTERMINDS_VERSION.exec(version);
  if (!m) return false;
  const [major, minor, patch] = [m[1], m[2] ?? '0', m[3] ?? '0'].map(BigInt);
  if (major !== 1n) return major > 1n;
  if (minor > 0n || patch > 0n) return true;
  return m[4] === undefined;
}

/**
 * Whether the multiprocessing executor is used rather than Ray (docs/design/render-multinode.md §6.1.3): the
 * `nvidia.com/vllm-distributed-executor-backend` annotation (`mp` / `ray`, any case) decides;
 * otherwise mp iff the operator origin version is at least 1.0.0.
 */
export function usesMpExecutor(podAnnotations: Readonly<Record<string, string>>): boolean {
  const override = podAnnotations[ANNOTATION_VLLM_EXECUTOR_BACKEND];
  if (override !== undefined) {
    const choice = override.toLowerCase();
    if (choice === 'mp') return true;
    if (choice === 'ray') return false;
  }
  return originVersionAtLeast1(podAnnotations[ANNOTATION_ORIGIN_VERSION]);
}

/** The multinode launch the operator sets up (docs/design/render-multinode.md §6.1.2). */
export type VllmMultinodeLaunch = 'mp' | 'ray' | 'elastic-ep' | 'data-parallel' | 'none';

/** The launch for a container: TP×PP beyond one node → mp or Ray; elastic EP; TP×PP×DP beyond one node → data parallel. */
export function vllmMultinodeLaunch(container: ContainerJson, gpus: number, mp: boolean, operatorVersion?: string): VllmMultinodeLaunch {
  const words = vllmLaunchWords(container, operatorVersion);
  const world = vllmWorldSize(words);
  if (gpus > 0 && world > gpus) return mp ? 'mp' : 'ray';
  if (words.includes(ELASTIC_EP)) return 'elastic-ep';
  if (gpus > 0 && world * intFlagValue(words, DP) > gpus) return 'data-parallel';
  return 'none';
}

/**
 * mp executor flags (docs/design/render-multinode.md §6.1.4), injected without a shell on the leader; the `main`
 * pod of the Deployment fallback gets them without a node rank.
 */
export function mpLaunchFlags(role: MultinodeLaunchRole, nodeCount: number, deployer: MultinodeDeployer): { flags: string; needsShell: boolean } {
  const base = `${EXECUTOR} mp --nnodes ${nodeCount} --master-addr ${deployer.leaderHostname} --master-port ${VLLM_MP_MASTER_PORT}`;
  const rank = nodeRank(deployer, role);
  if (role === 'main') return { flags: base, needsShell: false };
  if (role === 'leader') return { flags: `${base} --node-rank 0`, needsShell: false };
  return { flags: `${base} --node-rank ${rank.value} --headless`, needsShell: rank.needsShell };
}

/**
 * Ray launch across nodes (docs/design/render-multinode.md §6.1.5): the leader starts the head, workers join it.
 * The `main` pod of the Deployment fallback only gets the `/bin/sh -c` command; its args stay.
 */
function rayLaunch(container: ContainerJson, role: MultinodeLaunchRole, deployer: MultinodeDeployer): ContainerJson {
  if (role === 'main') return { ...container, command: ['/bin/sh', '-c'] };
  const script = role === 'leader'
    ? `ray start --head --port=${VLLM_RAY_PORT} && ${quoteWordsForBashC((container.command ?? []).map(String))} ${quoteWordsForBashC((container.args ?? []).map(String))} ${EXECUTOR} ray`
    : `ray start --address=${deployer.leaderHostname}:${VLLM_RAY_PORT} --block`;
  return { ...container, command: ['/bin/sh', '-c'], args: [script] };
}

/** The elastic-EP Ray head script of a multinode leader (no pinned node IP, no `exec`). */
export function elasticEpLeaderScript(command: readonly string[], args: readonly string[]): string {
  const engine = `${command.map(shellQuotePosix).join(' ')} ${args.map(shellQuotePosix).join(' ')}`.trim();
  return `ray start --head --port=${VLLM_RAY_PORT} --block & `
    + `i=0; until python3 -c "import socket; s=socket.create_connection(('127.0.0.1',${VLLM_RAY_PORT}),timeout=1); s.close()" 2>/dev/null; `
    + 'do i=$((i+1)); [ "$i" -ge 150 ] && { echo "ERROR: Ray head did not start within 300s" >&2; exit 1; }; sleep 2; done'
    + ` && ${engine}`;
}

/** The elastic-EP worker script: wait for the leader's `/live`, then join its Ray cluster. */
export function elasticEpWorkerScript(leaderHost: string): string {
  return `i=0; until python3 -c "import urllib.request; urllib.request.urlopen('http://${leaderHost}:${DYNAMO_SYSTEM_PORT}/live', timeout=5)" 2>/dev/null; `
    + 'do i=$((i+1)); [ "$i" -ge 720 ] && { echo "ERROR: leader /live did not become ready within 3h" >&2; exit 1; }; '
    + "echo 'waiting for leader dynamo.vllm /live to return 200...'; sleep 15; done"
    + ` && ray start --address=${leaderHost}:${VLLM_RAY_PORT} --block`;
}

/**
 * Elastic EP on Ray across nodes (docs/design/render-multinode.md §6.1.6); a leader without `command` is left alone.
 * The `main` pod of the Deployment fallback gets the single-pod Ray head script (pinned node IP,
 * `exec`) but not the pod-IP env vars a single-node pod gets with it.
 */
function elasticEpLaunch(container: ContainerJson, role: MultinodeLaunchRole, deployer: MultinodeDeployer): ContainerJson {
  const command = (container.command ?? []).map(String);
  if (role === 'main') {
    if (command.length === 0) return container;
    return { ...container, command: ['/bin/sh', '-c'], args: [rayHeadLaunchScript(command, (container.args ?? []).map(String))] };
  }
  if (role === 'leader') {
    if (command.length === 0) return container;
    return { ...container, command: ['/bin/sh', '-c'], args: [elasticEpLeaderScript(command, (container.args ?? []).map(String))] };
  }
  return { ...container, command: ['/bin/sh', '-c'], args: [elasticEpWorkerScript(deployer.leaderHostname)] };
}

/** Hybrid data-parallel flags (docs/design/render-multinode.md §6.1.7); workers always need a shell. */
export function dataParallelFlags(container: ContainerJson, role: MultinodeLaunchRole, nodeCount: number, gpus: number,
  deployer: MultinodeDeployer, operatorVersion?: string): { flags: string; needsShell: boolean } {
  // the `main` pod gets no flags, but still goes through the injection (a launch inside a shell
  // script gains a space after it)
  if (role === 'main') return { flags: '', needsShell: false };
  const words = vllmLaunchWords(container, operatorVersion);
  const local = Math.trunc(gpus / vllmWorldSize(words));
  const requested = intFlagValue(words, DP);
  const total = requested === 1 ? local * nodeCount : requested;
  const startRank = role === 'leader' ? '0' : `$(( ${local} * ${nodeRank(deployer, role).value} ))`;
  const flags = ['--data-parallel-hybrid-lb'];
  if (!words.includes(DP)) flags.push(DP, String(total));
  flags.push(DP_LOCAL, String(local), '--data-parallel-start-rank', startRank,
    '--data-parallel-address', deployer.leaderHostname, '--data-parallel-rpc-port', String(VLLM_DP_RPC_PORT));
  return { flags: flags.join(' '), needsShell: role !== 'leader' };
}

/**
 * The multinode rewrite of the `main` container (docs/design/render-multinode.md §6.1.1 step 2): the launch
 * flags or scripts, `VLLM_NIXL_SIDE_CHANNEL_HOST` appended when the mp executor is chosen (even
 * if nothing was injected), and no probes on workers. GPUs are resolved here. Inter-pod GMS
 * (step 1) and the compilation-cache env (step 4) are not part of it.
 */
export function vllmMultinodeContainer(container: ContainerJson, ctx: MultinodeContainerContext): ContainerJson {
  if (ctx.nodeCount <= 1) return container;
  const gpus = ctx.gpusPerNode();
  const mp = usesMpExecutor(ctx.podAnnotations);
  let out = container;
  switch (vllmMultinodeLaunch(container, gpus, mp, ctx.operatorVersion)) {
    case 'mp': {
      const { flags, needsShell } = mpLaunchFlags(ctx.role, ctx.nodeCount, ctx.deployer);
      out = injectFlags(container, { flags, needsShell, framework: 'vllm' });
      break;
    }
    case 'ray':
      out = rayLaunch(container, ctx.role, ctx.deployer);
      break;
    case 'elastic-ep':
      out = elasticEpLaunch(container, ctx.role, ctx.deployer);
      break;
    case 'data-parallel': {
      const { flags, needsShell } = dataParallelFlags(container, ctx.role, ctx.nodeCount, gpus, ctx.deployer, ctx.operatorVersion);
      out = injectFlags(container, { flags, needsShell, framework: 'vllm' });
      break;
    }
    case 'none':
      break;
  }
  if (mp) out = { ...out, env: [...(out.env ?? []), fieldRefEnv(VLLM_NIXL_SIDE_CHANNEL_HOST, 'status.podIP')] };
  return ctx.role === 'worker' ? withoutProbes(out) : out;
}

/**
 * Whether the command line (`command` + `args`) runs the mp executor: `--distributed-executor-backend mp`
 * as adjacent items or words, or inside one item as `… mp` / `…=mp`; from operator 1.6.0 on also
 * in any spelling the normaliser accepts.
 */
export function runsMpExecutor(container: ContainerJson, operatorVersion?: string): boolean {
  const items = [...(container.command ?? []), ...(container.args ?? [])].map(String);
  if (hasFlagValue(items, EXECUTOR, 'mp')) return true;
  return hasFlagValue(readsFlagSpellings(operatorVersion) ? commandLineWords(container) : expandWords(items), EXECUTOR, 'mp');
}

/** A host expression with each kubelet `$(VAR)` written as shell `${VAR}`. */
export function kubeletVarsAsShell(text: string): string {
  return text.replace(/\$\(([0-9A-Za-z_]+)\)/g, '$${$1}');
}

/** The ConfigMap holding the wait-for-leader script of a parent. */
export function waitLeaderConfigMapName(parentName: string): string {
  return `${parentName}-${WAIT_LEADER_VOLUME}`;
}

/**
 * The worker pod's wait-for-leader init container and its script volume (docs/design/render-multinode.md
 * §6.1.4), added when a worker's `main` command line runs the mp executor and a parent name is
 * known; otherwise the pod spec is returned as is. The init container goes after any user init containers.
 */
export function vllmMultinodePodSpec(podSpec: PodSpecJson, ctx: MultinodePodContext): PodSpecJson {
  const main = podSpec.containers[0];
  if (ctx.parentName === '' || ctx.role !== 'worker' || ctx.nodeCount <= 1 || !main || !runsMpExecutor(main, ctx.operatorVersion)) return podSpec;
  const host = kubeletVarsAsShell(ctx.deployer.leaderHostname);
  const init: ContainerJson = {
    name: WAIT_FOR_LEADER_CONTAINER,
    image: main.image,
    command: ['sh', '-c', `export LEADER_HOST="${host}" LEADER_PORT="${VLLM_MP_MASTER_PORT}" && exec python3 ${WAIT_LEADER_MOUNT_PATH}/${WAIT_LEADER_SCRIPT_KEY}`],
    volumeMounts: [{ name: WAIT_LEADER_VOLUME, mountPath: WAIT_LEADER_MOUNT_PATH, readOnly: true }],
  };
  if (init.image === undefined) delete init.image;
  const initContainers = Array.isArray(podSpec.initContainers) ? podSpec.initContainers : [];
  return {
    ...podSpec,
    volumes: [...(podSpec.volumes ?? []), { name: WAIT_LEADER_VOLUME, configMap: { name: waitLeaderConfigMapName(ctx.parentName) } }],
    initContainers: [...initContainers, init],
  };
}
