/**
 * vLLM (docs/design/render-core.md §5.7.2, §5.8, §6.4): the compilation cache defaults to `/root/.cache/vllm` and
 * is announced through `VLLM_CACHE_ROOT`; a single pod launching elastic expert parallelism on
 * the Ray data-parallel backend is wrapped so that a Ray head starts first.
 */
import { Backend, BackendContainerInput } from './backend';
import { shellQuotePosix } from './shell-quote';
import { ContainerJson, fieldRefEnv, valueEnv } from '../pod/k8s-json';

export const VLLM_DEFAULT_COMPILATION_CACHE_PATH = '/root/.cache/vllm';
/** Port of the Ray head (GCS). */
export const RAY_HEAD_PORT = 6379;

const ENABLE_ELASTIC_EP = '--enable-elastic-ep';
const DATA_PARALLEL_BACKEND = '--data-parallel-backend';
const DATA_PARALLEL_BACKEND_SHORT = '-dpb';
const RAY = 'ray';

/** Go's `strings.Fields` separators (Unicode white space). */
const FIELD_SEPARATORS = /[\t\n\v\f\r \u0085\u00A0\u1680\u2000-\u200A\u2028\u2029\u202F\u205F\u3000]+/;

/** Every whitespace-separated word of the container's command followed by its args. */
export function commandLineWords(container: ContainerJson): string[] {
  const words = [...(container.command ?? []), ...(container.args ?? [])].map(String);
  return words.flatMap(w => w.split(FIELD_SEPARATORS).filter(f => f !== ''));
}

/** Whether one of `items` (as text) may contain `text` (anything but a list is left to the full reading). */
function mentions(items: readonly unknown[] | undefined | null, text: string): boolean {
  if (items === undefined || items === null) return false;
  return !Array.isArray(items) || items.some(item => String(item).includes(text));
}

/** `flag value` as two words, or `flag value` / `flag=value` inside one word. */
function hasFlagValue(words: readonly string[], flag: string, value: string): boolean {
  const spaced = `${flag} ${value}`;
  const joined = `${flag}=${value}`;
  return words.some((word, i) => word.includes(spaced) || word.includes(joined) || (word === flag && words[i + 1] === value));
}

/**
 * Whether the container asks for elastic EP on the Ray data-parallel backend:
 * `--enable-elastic-ep` plus `--data-parallel-backend ray` (or `-dpb ray`, either with `=`).
 */
export function isElasticEpRayLaunch(container: ContainerJson): boolean {
  // a word that is the flag lies inside one of the command's or args' strings: without any, no words are split
  if (!mentions(container.command, ENABLE_ELASTIC_EP) && !mentions(container.args, ENABLE_ELASTIC_EP)) return false;
  const words = commandLineWords(container);
  return words.includes(ENABLE_ELASTIC_EP)
    && (hasFlagValue(words, DATA_PARALLEL_BACKEND, RAY) || hasFlagValue(words, DATA_PARALLEL_BACKEND_SHORT, RAY));
}

/**
 * The `sh -c` script that starts a Ray head bound to the pod IP, waits up to 150 × 2 s for its
 * port, then execs the original command line.
 */
export function rayHeadLaunchScript(command: readonly string[], args: readonly string[]): string {
  const original = `${command.map(shellQuotePosix).join(' ')} ${args.map(shellQuotePosix).join(' ')}`.trim();
  return `ray start --head --port=${RAY_HEAD_PORT} --node-ip-address="$POD_IP" --block & `
    + `i=0; until python3 -c "import socket; s=socket.create_connection(('127.0.0.1',${RAY_HEAD_PORT}),timeout=1); s.close()" 2>/dev/null; `
    + 'do i=$((i+1)); [ "$i" -ge 150 ] && { echo "ERROR: Ray head did not start within 300s" >&2; exit 1; }; sleep 2; done'
    + ` && exec ${original}`;
}

/**
 * Rewrites an elastic-EP Ray launch into a Ray head plus the engine, and binds `POD_IP` and
 * `VLLM_DP_MASTER_IP` to the pod IP. A container without an explicit command (its image
 * entrypoint runs) is left alone. Returns whether it rewrote the container.
 */
export function applyElasticEpRayHead(container: ContainerJson): boolean {
  const command = (container.command ?? []).map(String);
  if (command.length === 0) return false;
  container.args = [rayHeadLaunchScript(command, (container.args ?? []).map(String))];
  container.command = ['/bin/sh', '-c'];
  container.env = [...(container.env ?? []), fieldRefEnv('POD_IP', 'status.podIP'), fieldRefEnv('VLLM_DP_MASTER_IP', 'status.podIP')];
  return true;
}

export const VLLM_BACKEND: Backend = {
  framework: 'vllm',
  defaultCompilationCacheMountPath: VLLM_DEFAULT_COMPILATION_CACHE_PATH,
  updateContainer(container: ContainerJson, input: BackendContainerInput): void {
    if (!input.multinode && isElasticEpRayLaunch(container)) applyElasticEpRayHead(container);
    if (input.compilationCacheMountPath) {
      // appended, not merged: a user VLLM_CACHE_ROOT stays in the sorted block as well
      container.env = [...(container.env ?? []), valueEnv('VLLM_CACHE_ROOT', input.compilationCacheMountPath)];
    }
  },
  updatePodSpec: () => undefined,
};
