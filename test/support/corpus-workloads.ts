/**
 * The workloads check of the corpus, shared by scripts/corpus.ts and test/corpus-workloads.test.ts,
 * on two workload paths:
 *
 * - `lws`: operator without Grove, with LeaderWorkerSet — multinode components render
 *   LeaderWorkerSets, everything else Deployments;
 * - `grove`: operator with Grove (and LeaderWorkerSet) — a graph renders ONE PodCliqueSet (unless it
 *   opts out with `nvidia.com/enable-grove: "false"` and takes the `lws` path's objects).
 *
 * On each path every v1beta1 graph renders in workloads output unless it belongs to a later stage,
 * every core Kubernetes object validates against the Kubernetes schema (kubernetes-models), and every
 * LeaderWorkerSet and PodCliqueSet validates against its CRD schema (crd-schema.ts).
 */
import { checkCrdObjects, CrdCheck } from './crd-schema';
import { DgdJson, OperatorSettings, RenderError, renderUnchecked } from './facade';
import { SchemaCheck, validateKubernetesObjects } from './kubernetes-schema';
import { withVersionedImages } from './shared';
import { validateDocument } from '../../src/admission';
import { ComponentSpecJson } from '../../src/model';

/** The workload paths the corpus is rendered on. */
export type WorkloadsPath = 'lws' | 'grove';

/** Both paths, in report order. */
export const WORKLOADS_PATHS: readonly WorkloadsPath[] = ['lws', 'grove'];

/**
 * The operator of each path (Helm defaults otherwise; LeaderWorkerSet is available on both, and
 * checkpointing is enabled, as the corpus' snapshot examples require).
 */
export const WORKLOADS_OPERATORS: Readonly<Record<WorkloadsPath, Partial<OperatorSettings>>> = {
  lws: { groveAvailable: false, checkpointEnabled: true },
  grove: { groveAvailable: true, checkpointEnabled: true },
};

/** Readable name of each path. */
export const WORKLOADS_PATH_TITLES: Readonly<Record<WorkloadsPath, string>> = {
  lws: 'operator without Grove, with LeaderWorkerSet',
  grove: 'operator with Grove',
};

/** The operator the corpus graphs are rendered for on the `lws` path: Helm defaults, Grove unavailable. */
export const CORPUS_WORKLOADS_OPERATOR: Partial<OperatorSettings> = WORKLOADS_OPERATORS.lws;

/** Why a graph is not rendered in workloads output yet. */
export type DeferralReason = 'experimental' | 'grove-only';

/** Readable text of each reason. */
export const DEFERRAL_REASONS: Readonly<Record<DeferralReason, string>> = {
  'experimental': 'experimental features (spec.components[].experimental.*)',
  'grove-only': 'needs the Grove pathway (admission without Grove forbids it)',
};

/** Admission messages that say a field needs the Grove workload provider (docs/design/validation-rules.md §1.1, rows 20, 39, 64, 82, 117, 129). */
const GROVE_ONLY_MESSAGE = /Grove pathway|Grove-backed|requires workload provider "grove"/;

/**
 * Experimental features that are rendered: `experimental.grove` (forceScalingGroup) on the Grove
 * path (ignored on the component path), the GPU memory service, failover and checkpoint.
 */
const RENDERED_EXPERIMENTAL: ReadonlySet<string> = new Set(['grove', 'gpuMemoryService', 'failover', 'checkpoint']);

/** The experimental features a component sets. */
function experimentalFeatures(c: ComponentSpecJson): string[] {
  const experimental = (c.experimental ?? {}) as Record<string, unknown>;
  return Object.keys(experimental).filter(k => experimental[k] !== undefined);
}

/** Whether a component runs on more than one node. */
export function isMultinode(c: ComponentSpecJson): boolean {
  return (c.multinode?.nodeCount ?? 0) > 1;
}

/** Whether the graph opts out of Grove (docs/design/render-core.md §2: `nvidia.com/enable-grove`, lower-cased, is "false"). */
export function optsOutOfGrove(dgd: DgdJson): boolean {
  return String(dgd.metadata?.annotations?.['nvidia.com/enable-grove'] ?? '').toLowerCase() === 'false';
}

/** The reasons a graph belongs to a later stage on a path (empty: it must render now), in a fixed order. */
export function deferralReasons(dgd: DgdJson, path: WorkloadsPath = 'lws'): DeferralReason[] {
  const components: ComponentSpecJson[] = dgd.spec?.components ?? [];
  const reasons: DeferralReason[] = [];
  // multinode components render on both paths: a LeaderWorkerSet, or cliques of the PodCliqueSet
  if (components.some(c => experimentalFeatures(c).some(f => !RENDERED_EXPERIMENTAL.has(f)))) reasons.push('experimental');
  const violations = validateDocument(dgd, { groveAvailable: path === 'grove', version: '1.4.0', checkpointEnabled: true });
  if (violations.some(v => GROVE_ONLY_MESSAGE.test(v.message))) reasons.push('grove-only');
  return reasons;
}

/** One corpus graph in workloads output on one path. */
export interface GraphWorkloads {
  /** `<file>#<index in file>`. */
  readonly id: string;
  readonly path: WorkloadsPath;
  /** Whether a component of the graph runs on more than one node. */
  readonly multinode: boolean;
  /** Later-stage reasons; when non-empty the engine is expected to refuse the graph. */
  readonly deferred: DeferralReason[];
  /**
   * Whether the API server admits the graph itself on this path (no admission violation): the
   * operator renders only admitted graphs, so only their objects are held to the API server's
   * checks of the objects the operator creates.
   */
  readonly admitted: boolean;
  /** The rendered objects (empty when the render failed or was refused). */
  readonly objects: unknown[];
  /** The render error, if any: a RenderError message, or a crash (`crash: …` with the stack). */
  readonly error?: string;
  /** Whether `error` is a RenderError (a refusal) rather than a crash. */
  readonly refused: boolean;
}

/** Renders one graph (placeholder image tags replaced by a semantic version) in workloads output on a path. */
export function renderGraphWorkloads(id: string, doc: DgdJson, path: WorkloadsPath = 'lws'): GraphWorkloads {
  const graph = withVersionedImages(doc) as DgdJson;
  const admitted = validateDocument(graph, { ...WORKLOADS_OPERATORS[path], version: '1.4.0' }).length === 0;
  const base = { id, path, multinode: (graph.spec?.components ?? []).some(isMultinode), deferred: deferralReasons(graph, path), admitted };
  try {
    const objects = renderUnchecked(graph, { settings: WORKLOADS_OPERATORS[path] });
    return { ...base, objects, refused: false };
  } catch (e) {
    if (e instanceof RenderError) return { ...base, objects: [], error: e.message, refused: true };
    return { ...base, objects: [], error: `crash: ${crashText(e)}`, refused: false };
  }
}

/** An unexpected exception: its message and the top of its stack. */
function crashText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  return (e.stack ?? `${e.name}: ${e.message}`).split('\n').slice(0, 4).join('\n');
}

/** A graph's rendering with the schema checks of its objects (both lists in the order of `objects`). */
export interface CheckedGraph extends GraphWorkloads {
  /** Kubernetes schema of core objects (kubernetes-models). */
  readonly checks: SchemaCheck[];
  /** CRD schema of LeaderWorkerSets and PodCliqueSets. */
  readonly crdChecks: CrdCheck[];
}

/** The schema checks of every rendered object, with one child process per check for all graphs. */
export function checkGraphs(graphs: readonly GraphWorkloads[]): CheckedGraph[] {
  const objects = graphs.flatMap(g => g.objects);
  const all = validateKubernetesObjects(objects);
  const allCrd = checkCrdObjects(objects);
  let at = 0;
  return graphs.map(g => {
    const checks = all.slice(at, at + g.objects.length);
    const crdChecks = allCrd.slice(at, at + g.objects.length);
    at += g.objects.length;
    return { ...g, checks, crdChecks };
  });
}

/** The engine's refusal of something it does not render yet (e.g. the Grove path before it lands). */
const NOT_SUPPORTED_YET = /not supported yet/;

/** What went wrong with a graph (empty: all is well). */
export function graphProblems(g: CheckedGraph): string[] {
  const problems: string[] = [];
  if (g.deferred.length === 0 && g.error !== undefined) {
    problems.push(g.refused && NOT_SUPPORTED_YET.test(g.error) ? `render (not implemented in the engine yet): ${g.error}` : `render: ${g.error}`);
  }
  if (g.deferred.length > 0 && g.error !== undefined && !g.refused) problems.push(`render: ${g.error}`);
  for (const c of g.checks) {
    const ref = `${c.apiVersion} ${c.kind}/${c.name}`;
    if (c.status === 'invalid') for (const e of c.errors) problems.push(`schema: ${ref}: ${e}`);
    if (c.status === 'no-model') problems.push(`schema: ${ref}: no such kind in the Kubernetes ${c.apiVersion} API`);
  }
  for (const c of g.crdChecks) {
    if (c.status === 'invalid') for (const e of c.errors) problems.push(`crd schema: ${c.apiVersion} ${c.kind}/${c.name}: ${e}`);
  }
  return problems;
}

/** Totals of a corpus run on one path. */
export interface WorkloadsTotals {
  graphs: number;
  rendered: number;
  /** Graphs with a multinode component, and how many of them rendered. */
  multinode: number;
  multinodeRendered: number;
  /** Deferred graphs the engine refused, by reason (a graph counts once per reason). */
  deferredByReason: Map<DeferralReason, number>;
  deferred: number;
  /** Deferred graphs the engine rendered anyway (the later stage may have landed). */
  deferredButRendered: number;
  failed: number;
  /** Graphs that must render but the engine refused as "not supported yet" (counted in `failed` too). */
  notSupportedYet: number;
  /** Schema-valid core objects by `apiVersion kind`. */
  validatedByKind: Map<string, number>;
  /** CRD-schema-valid LeaderWorkerSets and PodCliqueSets by `apiVersion kind`. */
  crdValidatedByKind: Map<string, number>;
  /** Objects of other APIs (not schema-checked) by `apiVersion kind`. */
  skippedByKind: Map<string, number>;
}

/** Counts of a checked corpus. */
export function workloadsTotals(graphs: readonly CheckedGraph[]): WorkloadsTotals {
  const t: WorkloadsTotals = {
    graphs: graphs.length,
    rendered: 0,
    multinode: 0,
    multinodeRendered: 0,
    deferred: 0,
    deferredButRendered: 0,
    failed: 0,
    notSupportedYet: 0,
    deferredByReason: new Map(),
    validatedByKind: new Map(),
    crdValidatedByKind: new Map(),
    skippedByKind: new Map(),
  };
  const add = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const g of graphs) {
    if (graphProblems(g).length > 0) t.failed++;
    if (g.error === undefined) t.rendered++;
    if (g.multinode) t.multinode++;
    if (g.multinode && g.error === undefined) t.multinodeRendered++;
    if (g.deferred.length === 0 && g.refused && NOT_SUPPORTED_YET.test(g.error ?? '')) t.notSupportedYet++;
    if (g.deferred.length > 0) {
      if (g.error === undefined) {
        t.deferredButRendered++;
      } else {
        t.deferred++;
        for (const r of g.deferred) add(t.deferredByReason, r);
      }
    }
    g.checks.forEach((c, i) => {
      const kind = `${c.apiVersion} ${c.kind}`;
      const crd = g.crdChecks[i];
      if (c.status === 'valid') add(t.validatedByKind, kind);
      if (crd.status === 'valid') add(t.crdValidatedByKind, kind);
      if (c.status === 'not-kubernetes' && crd.status === 'not-crd') add(t.skippedByKind, kind);
    });
  }
  return t;
}

/**
 * Multinode graphs that rendered on one path but not on the other, when neither path defers them
 * (each must render on both: a LeaderWorkerSet without Grove, cliques of a PodCliqueSet with it).
 */
export function multinodeGaps(lws: readonly GraphWorkloads[], grove: readonly GraphWorkloads[]): string[] {
  const byId = new Map(grove.map(g => [g.id, g]));
  const gaps: string[] = [];
  for (const a of lws) {
    const b = byId.get(a.id);
    if (!a.multinode || !b || a.deferred.length > 0 || b.deferred.length > 0) continue;
    if ((a.error === undefined) !== (b.error === undefined)) {
      const [ok, failed] = a.error === undefined ? [a, b] : [b, a];
      gaps.push(`${a.id}: renders on the ${ok.path} path, not on the ${failed.path} path: ${failed.error}`);
    }
  }
  return gaps;
}

/** Byte-wise ordering of map entries by key. */
export function sortedEntries<V>(map: Map<string, V>): [string, V][] {
  return [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
