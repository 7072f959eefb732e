/**
 * A Mermaid `flowchart LR` of a graph: where requests enter (clients, and with an endpoint picker
 * the Gateway API inference extension path: Gateway → EPP → the picked worker pod's frontend
 * sidecar, or the frontend), the frontends with their router mode, the workers, the KV-cache
 * hand-off from prefill to decode workers, and what the planner scales. Each component is a node
 * labelled with its type, replicas and GPUs (from its footprint). Node ids are positional (`c0`,
 * `c1`, ...), so any component name is safe; labels are quoted with Mermaid's entity escapes.
 */
import { StoredGraph } from './footprint';
import { ComponentFootprint, GraphFootprint } from './footprint-types';
import { isMap } from '../model/json';
import { ComponentSpecJson, isWorkerType, JsonObject } from '../model/v1beta1';
import { MAIN_CONTAINER } from '../model/well-known';

/** The frontend's router mode when neither `--router-mode` nor `DYN_ROUTER_MODE` sets one. */
export const DEFAULT_ROUTER_MODE = 'round-robin';
const ROUTER_MODE_FLAG = '--router-mode';
const ROUTER_MODE_ENV = 'DYN_ROUTER_MODE';

/** A label as Mermaid reads it inside double quotes: `"`, `#`, `<` and `>` as entity codes. */
export function mermaidText(text: string): string {
  return text.replace(/#/g, '#35;').replace(/"/g, '#quot;').replace(/</g, '#lt;').replace(/>/g, '#gt;');
}

/**
 * The router mode a frontend process runs with: `--router-mode X` / `--router-mode=X` in the
 * container's command or args (also inside a shell command line), else its `DYN_ROUTER_MODE`
 * env (the container's, then the graph's), else the frontend's default.
 */
export function routerMode(container: JsonObject | undefined, graphEnv: readonly unknown[] = []): { mode: string; explicit: boolean } {
  const words = [...listOf(container?.command), ...listOf(container?.args)]
    .filter((w): w is string => typeof w === 'string')
    .flatMap(w => w.split(/\s+/).filter(part => part !== ''));
  let fromFlag: string | undefined;
  words.forEach((word, i) => {
    if (word === ROUTER_MODE_FLAG && i + 1 < words.length) fromFlag = unquote(words[i + 1]);
    else if (word.startsWith(`${ROUTER_MODE_FLAG}=`)) fromFlag = unquote(word.slice(ROUTER_MODE_FLAG.length + 1));
  });
  if (fromFlag !== undefined) return { mode: fromFlag, explicit: true };
  for (const env of [listOf(container?.env), graphEnv]) {
    const entry = env.find(e => isMap(e) && e.name === ROUTER_MODE_ENV);
    if (isMap(entry) && typeof entry.value === 'string' && entry.value !== '') return { mode: entry.value, explicit: true };
  }
  return { mode: DEFAULT_ROUTER_MODE, explicit: false };
}

function unquote(word: string): string {
  return word.replace(/^['"]|['"]$/g, '');
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function containersOf(spec: ComponentSpecJson): JsonObject[] {
  const podSpec = isMap(spec.podTemplate) && isMap(spec.podTemplate.spec) ? spec.podTemplate.spec : {};
  return listOf(podSpec.containers).filter(isMap) as JsonObject[];
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** The second and third lines of a component's node: what it is, and its replicas and GPUs. */
function nodeLines(c: ComponentFootprint, role: string): string[] {
  const replicas = `${plural(c.replicas, 'replica')}${c.scalingAdapter ? ' (scaling adapter)' : ''}`;
  const nodes = c.nodesPerReplica > 1 ? ` × ${plural(c.nodesPerReplica, 'node')}` : '';
  const gpus = c.totalGpus > 0 ? ` · ${c.gpusPerPod} GPU/pod · ${plural(c.totalGpus, 'GPU')}` : '';
  return [role, `${replicas}${nodes}${gpus}`];
}

/** The Mermaid flowchart of a graph and its footprint (see the module comment). */
export function graphMermaid(graph: StoredGraph, footprint: GraphFootprint): string {
  const graphEnv = listOf(graph.stored.spec.env);
  const ids = footprint.components.map((_, i) => `c${i}`);
  const typeOf = (i: number) => footprint.components[i].type ?? '';
  const indexes = footprint.components.map((_, i) => i);
  const frontends = indexes.filter(i => typeOf(i) === 'frontend');
  const workers = indexes.filter(i => isWorkerType(typeOf(i)));
  const prefill = workers.filter(i => typeOf(i) === 'prefill');
  const decode = workers.filter(i => typeOf(i) === 'decode');
  const planners = indexes.filter(i => typeOf(i) === 'planner');
  const epps = indexes.filter(i => typeOf(i) === 'epp');

  const lines = ['flowchart LR', '  clients(["clients"])'];
  const sidecarMode = new Map<number, string>();
  footprint.components.forEach((c, i) => {
    const spec = graph.specs[i];
    const containers = containersOf(spec);
    let role: string;
    if (typeOf(i) === 'frontend') {
      role = `frontend · router: ${routerMode(containers.find(k => k.name === MAIN_CONTAINER), graphEnv).mode}`;
    } else if (typeOf(i) === 'planner') {
      role = 'planner';
    } else if (typeOf(i) === 'epp') {
      role = `endpoint picker · pool ${footprint.name}-pool`;
    } else if (isWorkerType(typeOf(i))) {
      role = typeOf(i) === 'worker' ? 'aggregated worker' : `${typeOf(i)} worker`;
      const sidecar = typeof spec.frontendSidecar === 'string' ? containers.find(k => k.name === spec.frontendSidecar) : undefined;
      if (sidecar) {
        const mode = routerMode(sidecar, graphEnv).mode;
        sidecarMode.set(i, mode);
        role += ` + frontend sidecar (router: ${mode})`;
      }
    } else {
      role = typeOf(i) === '' ? 'component' : typeOf(i);
    }
    const label = [c.name, ...nodeLines(c, role)].map(mermaidText).join('<br/>');
    const shape = typeOf(i) === 'epp' || typeOf(i) === 'planner' ? ['[[', ']]'] : ['[', ']'];
    lines.push(`  ${ids[i]}${shape[0]}"${label}"${shape[1]}`);
  });

  // where requests enter
  if (epps.length > 0) {
    lines.push(`  gateway{{"${mermaidText(`Gateway · InferencePool ${footprint.name}-pool`)}"}}`);
    lines.push('  clients --> gateway');
    for (const e of epps) lines.push(`  gateway -. "endpoint pick" .-> ${ids[e]}`);
    // the picked pod: a worker's frontend sidecar, else the frontends
    const targets = sidecarMode.size > 0 ? workers.filter(w => sidecarMode.has(w)) : frontends;
    for (const t of targets) lines.push(`  gateway -- "picked pod" --> ${ids[t]}`);
  } else {
    for (const f of frontends) lines.push(`  clients --> ${ids[f]}`);
  }
  for (const f of frontends) {
    for (const w of workers) lines.push(`  ${ids[f]} --> ${ids[w]}`);
  }
  for (const p of prefill) {
    for (const d of decode) lines.push(`  ${ids[p]} -. "KV cache" .-> ${ids[d]}`);
  }
  for (const p of planners) {
    for (const w of workers) lines.push(`  ${ids[p]} -. "scales" .-> ${ids[w]}`);
  }
  return `${lines.join('\n')}\n`;
}
