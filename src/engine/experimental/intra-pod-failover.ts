/**
 * Intra-pod failover (docs/design/render-experimental.md §2.2, §2.3, as of the operator snapshot [S]): the
 * engine container is cloned into an active `engine-0` and a standby `engine-1` that share the
 * GPUs of the intra-pod GPU memory service and elect the active engine through a lock file. Runs
 * after the intra-pod GPU memory service; other containers stay, after the engines.
 */
import { isIntraPodFailover } from './gms-spec';
import { INTRA_POD_CONTROL_PATH } from './intra-pod-gms';
import { copyJson } from '../../model/json-copy';
import { RenderError } from '../../model/render-error';
import { selectBackend } from '../backend/select';
import { nodeCountOf } from '../multinode/roles';
import { ContainerJson, EnvVarJson, PodSpecJson, tcpPort, valueEnv } from '../pod/k8s-json';
import type { PodSpecHook } from '../pod/pod-spec-hook';
import { DcdContext } from '../workloads/dcd-context';

/** Engines of an intra-pod failover pod: one active, one standby. */
export const FAILOVER_ENGINE_COUNT = 2;
/** System port of engine 0; engine `i` listens on `base + i`. */
export const SYSTEM_PORT_BASE = 9090;
/** Forward-pass metrics port of engine 0; engine `i` uses `base + i`. */
export const FORWARD_PASS_METRIC_PORT_BASE = 20380;
/** Lock file on the GMS control directory through which the engines elect the active one. */
export const INTRA_POD_FAILOVER_LOCK_PATH = `${INTRA_POD_CONTROL_PATH}/failover.lock`;

/** Env the engines get a value of their own for, or must not inherit. */
const ENGINE_ENV_REMOVED = new Set([
  'DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS', 'DYN_SYSTEM_PORT', 'DYN_SYSTEM_ENABLED', 'DYN_HEALTH_CHECK_ENABLED',
  'CONTAINER_NAME', 'DYN_FORWARDPASS_METRIC_PORT',
]);

const MASTER_PORT_FLAG = '--master-port';
const MASTER_PORT_DEFAULT = 29500;
const MASTER_PORT_STRIDE = 100;
const NIXL_SIDE_CHANNEL_PORT_BASE = 5600;
const KV_EVENT_PORT_BASE = 20080;

/** `engine-<i>`. */
export function engineContainerName(engineId: number): string {
  return `engine-${engineId}`;
}

/** A deep copy of the engine container as engine `engineId`: own port, env and probe targets. */
function engineContainer(base: ContainerJson, engineId: number): ContainerJson {
  const engine = copyJson(base);
  engine.name = engineContainerName(engineId);
  const systemPort = SYSTEM_PORT_BASE + engineId;
  const portName = `system-${engineId}`;
  engine.ports = [tcpPort(portName, systemPort)];
  const env = (engine.env ?? []).filter(e => !ENGINE_ENV_REMOVED.has(e.name));
  env.push(
    valueEnv('ENGINE_ID', String(engineId)),
    valueEnv('CONTAINER_NAME', engine.name),
    valueEnv('FAILOVER_LOCK_PATH', INTRA_POD_FAILOVER_LOCK_PATH),
    valueEnv('DYN_SYSTEM_STARTING_HEALTH_STATUS', 'notready'),
    valueEnv('DYN_SYSTEM_PORT', String(systemPort)),
    valueEnv('DYN_SYSTEM_ENABLED', 'true'),
    valueEnv('DYN_FORWARDPASS_METRIC_PORT', String(FORWARD_PASS_METRIC_PORT_BASE + engineId)),
  );
  engine.env = env;
  // HTTP probes follow the engine's own system port; other probes are left alone
  for (const probe of [engine.startupProbe, engine.livenessProbe, engine.readinessProbe]) {
    const httpGet = probe?.httpGet;
    if (httpGet && typeof httpGet === 'object' && !Array.isArray(httpGet)) (httpGet as Record<string, unknown>).port = portName;
  }
  return engine;
}

/** The number Go's `strconv.Atoi` reads from `text`, or undefined when it reads none. */
function atoi(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const value = Number(text);
  return Number.isSafeInteger(value) ? value : undefined;
}

/** Whether `--master-port` is an arg of its own, or followed by a space inside an arg or a command word. */
function hasMasterPort(container: ContainerJson): boolean {
  const spaced = `${MASTER_PORT_FLAG} `;
  return (container.args ?? []).some(a => a === MASTER_PORT_FLAG || a.includes(spaced))
    || (container.command ?? []).some(c => c.includes(spaced));
}

/**
 * The word with the first `--master-port <digits>` moved by `offset`, or undefined when the text
 * right after the first `--master-port ` does not start with digits.
 */
function staggerInWord(word: string, offset: number): string | undefined {
  const spaced = `${MASTER_PORT_FLAG} `;
  const at = word.indexOf(spaced);
  if (at < 0) return undefined;
  const digits = /^[0-9]*/.exec(word.slice(at + spaced.length))![0];
  const port = atoi(digits);
  if (port === undefined) return undefined;
  return word.replace(`${spaced}${digits}`, `${spaced}${port + offset}`);
}

/**
 * Moves the first `--master-port` value by `offset`: a `--master-port <n>` arg pair first, else
 * the first arg, else the first command word, that holds `--master-port <n>`.
 */
function staggerMasterPort(container: ContainerJson, offset: number): void {
  const args = container.args ?? [];
  for (let i = 0; i + 1 < args.length; i++) {
    const port = args[i] === MASTER_PORT_FLAG ? atoi(args[i + 1]) : undefined;
    if (port !== undefined) {
      args[i + 1] = String(port + offset);
      return;
    }
  }
  for (const words of [args, container.command ?? []]) {
    for (let i = 0; i < words.length; i++) {
      const changed = staggerInWord(words[i], offset);
      if (changed !== undefined) {
        words[i] = changed;
        return;
      }
    }
  }
}

/**
 * vLLM's per-engine settings (docs/design/render-experimental.md §2.3): shadow mode, staggered NIXL side-channel and KV-event ports,
 * a torch store port of its own for every engine but the first, and the node count of multinode
 * engines. Applies to every container whose name starts with `engine-`.
 */
function applyVllmEngineSettings(podSpec: PodSpecJson, nodeCount: number): void {
  for (const container of podSpec.containers) {
    if (!container.name.startsWith('engine-')) continue;
    const engineId = atoi(container.name.slice('engine-'.length)) ?? 0;
    const env: EnvVarJson[] = container.env ?? [];
    env.push(
      valueEnv('DYN_VLLM_GMS_SHADOW_MODE', 'true'),
      valueEnv('VLLM_NIXL_SIDE_CHANNEL_PORT', String(NIXL_SIDE_CHANNEL_PORT_BASE + engineId)),
      valueEnv('DYN_VLLM_KV_EVENT_PORT', String(KV_EVENT_PORT_BASE + engineId)),
    );
    if (engineId > 0) {
      if (hasMasterPort(container)) {
        staggerMasterPort(container, engineId * MASTER_PORT_STRIDE);
      } else {
        container.args = [...(container.args ?? []), MASTER_PORT_FLAG, String(MASTER_PORT_DEFAULT + engineId * MASTER_PORT_STRIDE)];
      }
    }
    if (nodeCount > 1) env.push(valueEnv('NNODES', String(nodeCount)));
    container.env = env;
  }
}

/** Clones the engine of a rendered pod spec into the failover engines (no-op for other components). */
export function applyIntraPodFailover(podSpec: PodSpecJson, ctx: DcdContext): void {
  const spec = ctx.dcd.spec ?? {};
  if (!isIntraPodFailover(spec)) return;
  const [main, ...others] = podSpec.containers;
  const engines: ContainerJson[] = [];
  for (let i = 0; i < FAILOVER_ENGINE_COUNT; i++) engines.push(engineContainer(main, i));
  podSpec.containers = [...engines, ...others];
  const framework = selectBackend(spec, ctx.ref).framework;
  if (framework !== 'vllm') {
    throw new RenderError(ctx.ref, 'spec.experimental.failover',
      `failover is currently supported only for vLLM (detected: ${framework})`);
  }
  applyVllmEngineSettings(podSpec, nodeCountOf(spec));
}

/** Intra-pod failover as a pod-spec hook. */
export const INTRA_POD_FAILOVER_HOOK: PodSpecHook = {
  name: 'failover (IntraPod)',
  apply: (podSpec, ctx) => applyIntraPodFailover(podSpec, ctx),
};
