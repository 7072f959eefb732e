/**
 * Edit pairs for `diff` against the operator (the oracle run on both sides of each pair,
 * test/fixtures/oracle/edits-<version>.jsonl.gz): a valid graph and the same graph with one edit,
 * and which pod templates of the workloads the operator writes changed. That is the truth for
 * `diff`'s `restartsPods`.
 *
 * Per workload object: a Deployment's `spec.template`; a LeaderWorkerSet's leader or worker
 * template; a PodCliqueSet's cliques (each clique's labels, annotations and podSpec). An object
 * whose name carries the graph's worker hash and that comes back under a new hash is a rollout.
 */
import * as fs from 'fs';
import { isDeepStrictEqual } from 'util';
import * as zlib from 'zlib';
import * as fc from 'fast-check';
import { fuzzGraph } from './fuzz-graphs';

/** The seed of the recorded pairs. */
export const EDITS_SEED = 20260822;

/** The edits, one per pair. */
export const EDIT_KINDS = [
  'image', 'args', 'env', 'replicas', 'scaling-adapter', 'dgd-annotation', 'dgd-label',
  'spec-annotation', 'spec-label', 'pod-annotation', 'pod-label',
] as const;
export type EditKind = typeof EDIT_KINDS[number];

/** A graph before and after one edit, admitted by an operator with or without Grove. */
export interface EditPair {
  readonly id: string;
  readonly edit: EditKind;
  /** The component edited (absent for an edit of the graph's own metadata or spec). */
  readonly component?: string;
  readonly grove: boolean;
  readonly before: any;
  readonly after: any;
}

function json<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

/** Without `roles`: the operator's CRD of 2a6da14c8 has none (see oracle-admission.ts). */
function withoutRoles(graph: any): any {
  const copy = json(graph);
  for (const c of copy.spec.components) delete c.roles;
  return copy;
}

function bumpImage(image: string): string {
  const m = /^(.*:v?)(\d+)\.(\d+)\.(\d+)(.*)$/.exec(image);
  if (m) return `${m[1]}${m[2]}.${m[3]}.${Number(m[4]) + 1}${m[5]}`;
  return image.endsWith(':latest') ? image.replace(/:latest$/, ':nightly') : image.replace(/:[^:/]*$/, ':latest');
}

/** Applies one edit to a copy of `graph`, to component `index` where it edits a component. */
export function applyEdit(graph: any, edit: EditKind, index: number): { after: any; component?: string } {
  const after = json(graph);
  const components = after.spec.components as any[];
  const c = components[index % components.length];
  const main = c.podTemplate.spec.containers[0];
  const meta = (c.podTemplate.metadata ??= {});
  switch (edit) {
    case 'image': main.image = bumpImage(main.image); break;
    case 'args': main.args = [...(main.args ?? []), '--max-num-seqs', '8']; break;
    case 'env': {
      const env = (main.env ??= []) as any[];
      const plain = env.find(e => e.value !== undefined);
      if (plain) plain.value = `${plain.value}-edited`;
      else env.push({ name: 'EDITED_ENV', value: 'on' });
      break;
    }
    case 'replicas': c.replicas = (c.replicas ?? 1) + 1; break;
    case 'scaling-adapter': if (c.scalingAdapter === undefined) c.scalingAdapter = {}; else delete c.scalingAdapter; break;
    case 'dgd-annotation': after.metadata.annotations = { ...(after.metadata.annotations ?? {}), 'example.com/edited': 'yes' }; break;
    case 'dgd-label': after.metadata.labels = { ...(after.metadata.labels ?? {}), 'example.com/edited': 'yes' }; break;
    case 'spec-annotation': after.spec.annotations = { ...(after.spec.annotations ?? {}), 'example.com/edited': 'yes' }; break;
    case 'spec-label': after.spec.labels = { ...(after.spec.labels ?? {}), 'example.com/edited': 'yes' }; break;
    case 'pod-annotation': meta.annotations = { ...(meta.annotations ?? {}), 'example.com/edited': 'yes' }; break;
    case 'pod-label': meta.labels = { ...(meta.labels ?? {}), 'example.com/edited': 'yes' }; break;
  }
  if (Object.keys(meta).length === 0) delete c.podTemplate.metadata;
  const graphWide = edit.startsWith('dgd-') || edit.startsWith('spec-');
  return { after, component: graphWide ? undefined : c.name };
}

/** The seeded pairs: every edit on graphs of both modes. */
export function editPairs(seed = EDITS_SEED, perEditAndMode = 14): EditPair[] {
  const out: EditPair[] = [];
  for (const grove of [false, true]) {
    const graphs = fc.sample(fuzzGraph(grove), { seed: seed + (grove ? 1 : 0), numRuns: perEditAndMode * EDIT_KINDS.length })
      .map(g => withoutRoles(g.graph));
    graphs.forEach((graph, n) => {
      const edit = EDIT_KINDS[n % EDIT_KINDS.length];
      const { after, component } = applyEdit(graph, edit, n);
      const id = `${edit}-${grove ? 'grove' : 'nogrove'}-${String(n).padStart(3, '0')}`;
      out.push({ id, edit, component, grove, before: graph, after });
    });
  }
  return out;
}

/** What happened to one workload between the two renderings of the operator. */
export interface WorkloadChange {
  readonly kind: string;
  /** The name after the edit (before, for an object removed). */
  readonly name: string;
  readonly previousName?: string;
  readonly change: 'added' | 'removed' | 'modified' | 'unchanged';
  /** Whether a pod template changed (a rollout: always). */
  readonly restartsPods: boolean;
  /** The object came back under a new worker hash. */
  readonly rollout?: boolean;
  /**
   * A rollout during an update: the object under the old hash is still there (the operator keeps
   * the old worker until the new one is ready; it is listed on its own, by its name).
   */
  readonly previousKept?: boolean;
  /** PodCliqueSet: the cliques whose pod template changed. */
  readonly cliques?: readonly string[];
}

const WORKER_HASH_LABEL = 'nvidia.com/dynamo-worker-hash';
const WORKLOAD_KINDS = new Set(['Deployment', 'LeaderWorkerSet', 'PodCliqueSet']);

function workerHash(obj: any): string | undefined {
  return obj?.metadata?.labels?.[WORKER_HASH_LABEL];
}

/** The name without the object's worker hash (`<graph>-<component>-<hash>[-0]` → `<graph>-<component>[-0]`). */
function baseName(obj: any): string {
  const name: string = obj.metadata.name;
  const hash = workerHash(obj);
  if (hash === undefined) return name;
  const parts = name.split('-');
  const at = parts.lastIndexOf(hash);
  return at < 0 ? name : [...parts.slice(0, at), ...parts.slice(at + 1)].join('-');
}

function podTemplates(obj: any): Record<string, unknown> {
  if (obj.kind === 'Deployment') return { template: obj.spec?.template };
  if (obj.kind === 'LeaderWorkerSet') {
    const t = obj.spec?.leaderWorkerTemplate ?? {};
    return { leader: t.leaderTemplate, worker: t.workerTemplate };
  }
  const out: Record<string, unknown> = {};
  for (const clique of obj.spec?.template?.cliques ?? []) {
    out[clique.name] = { labels: clique.labels, annotations: clique.annotations, podSpec: clique.spec?.podSpec };
  }
  return out;
}

/**
 * The workloads of two renderings of the operator and which of their pod templates changed. An
 * object is matched by its name, else by its name without the worker hash (a rollout); during an
 * update's rollout both the old-hash and the new-hash object are there: the old one matches itself
 * and the new one is its rollout (`previousKept`).
 */
export function workloadChanges(before: readonly any[], after: readonly any[]): WorkloadChange[] {
  const key = (o: any): string => `${o.kind}\u0000${o.metadata.namespace ?? ''}\u0000${baseName(o)}`;
  const exactKey = (o: any): string => `${o.kind}\u0000${o.metadata.namespace ?? ''}\u0000${o.metadata.name}`;
  const oldWorkloads = before.filter(o => WORKLOAD_KINDS.has(o.kind));
  const nowWorkloads = after.filter(o => WORKLOAD_KINDS.has(o.kind));
  const byName = new Map(oldWorkloads.map(o => [exactKey(o), o]));
  const matched = new Map<any, any>();
  const kept = new Set<any>();
  for (const now of nowWorkloads) {
    const old = byName.get(exactKey(now));
    if (old !== undefined) {
      matched.set(now, old);
      kept.add(old);
    }
  }
  const olds = new Map(oldWorkloads.filter(o => !kept.has(o)).map(o => [key(o), o]));
  const keptByBase = new Map([...kept].map(o => [key(o), o]));
  const out: WorkloadChange[] = [];
  for (const now of nowWorkloads) {
    let old = matched.get(now);
    let previousKept = false;
    if (old === undefined) {
      old = olds.get(key(now));
      olds.delete(key(now));
      if (old === undefined && workerHash(now) !== undefined) {
        old = keptByBase.get(key(now));
        previousKept = old !== undefined && workerHash(old) !== workerHash(now);
        if (!previousKept) old = undefined;
      }
    }
    if (old === undefined) {
      out.push({ kind: now.kind, name: now.metadata.name, change: 'added', restartsPods: false });
      continue;
    }
    const rollout = old.metadata.name !== now.metadata.name;
    const a = podTemplates(old);
    const b = podTemplates(now);
    const changed = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter(k => !isDeepStrictEqual(a[k], b[k])).sort();
    const same = !rollout && changed.length === 0 && isDeepStrictEqual(old, now);
    out.push({
      kind: now.kind,
      name: now.metadata.name,
      ...(rollout ? { previousName: old.metadata.name, rollout: true } : {}),
      ...(previousKept ? { previousKept: true } : {}),
      change: same ? 'unchanged' : 'modified',
      restartsPods: rollout || changed.length > 0,
      ...(now.kind === 'PodCliqueSet' ? { cliques: changed } : {}),
    });
  }
  for (const old of olds.values()) out.push({ kind: old.kind, name: old.metadata.name, change: 'removed', restartsPods: false });
  return out.sort((x, y) => `${x.kind}/${x.name}`.localeCompare(`${y.kind}/${y.name}`));
}

/** A recorded pair: the inputs and the operator's workload changes (absent when it refused a side). */
export interface RecordedEditPair extends EditPair {
  readonly oracle: { readonly refused?: string; readonly workloads?: readonly WorkloadChange[] };
}

export function readEditsFixture(file: string): { meta: any; pairs: RecordedEditPair[] } {
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').filter(l => l !== '');
  const [meta, ...pairs] = lines.map(l => JSON.parse(l));
  return { meta: meta.meta, pairs };
}

/** One workload as our `diff --json` reports it (absent from the output: unchanged). */
interface DiffJsonEntry {
  readonly kind: string;
  readonly name: string;
  readonly change: string;
  readonly restartsPods: boolean;
  readonly previousName?: string;
  readonly rollout?: string;
}

/** Where our diff and the operator disagree on one workload of a pair. */
export interface EditDisagreement {
  readonly id: string;
  readonly object: string;
  readonly operator: string;
  readonly ours: string;
}

function describe(change: string, restartsPods: boolean, rollout: boolean): string {
  return [change, ...(restartsPods ? ['restarts pods'] : []), ...(rollout ? ['new worker hash'] : [])].join(', ');
}

/**
 * Compares our diff (the entries of `diff --json` on the pair) with the operator's workload
 * changes, object by object: whether it restarts pods and whether it is a worker-hash rollout (an
 * object the operator adds or removes: that it is added or removed). A change of an object's own
 * fields (replicas) is not compared: only its rollout impact.
 */
export function compareEdit(pair: RecordedEditPair, entries: readonly DiffJsonEntry[]): EditDisagreement[] {
  const out: EditDisagreement[] = [];
  const seen = new Set<DiffJsonEntry>();
  for (const w of pair.oracle.workloads ?? []) {
    const entry = entries.find(e => e.kind === w.kind && e.name === w.name);
    if (entry) seen.add(entry);
    const endpoints = w.change === 'added' || w.change === 'removed';
    const theirs = describe(endpoints ? w.change : 'kept', w.restartsPods, w.rollout === true);
    const ours = describe(endpoints ? entry?.change ?? 'unchanged' : entry?.change === 'added' || entry?.change === 'removed' ? entry.change : 'kept',
      entry?.restartsPods ?? false, entry?.rollout === 'new worker hash');
    if (ours !== theirs) out.push({ id: pair.id, object: `${w.kind}/${w.name}`, operator: theirs, ours });
  }
  for (const e of entries) {
    if (seen.has(e) || !WORKLOAD_KINDS.has(e.kind)) continue;
    out.push({ id: pair.id, object: `${e.kind}/${e.name}`, operator: 'absent', ours: describe(e.change, e.restartsPods, e.rollout === 'new worker hash') });
  }
  return out;
}
