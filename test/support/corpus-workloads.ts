/**
 * The workloads check of the corpus, shared by scripts/corpus.ts and test/corpus-workloads.test.ts:
 * every v1beta1 graph renders in workloads output (operator without Grove, with LeaderWorkerSet, so
 * multinode graphs render LeaderWorkerSets) unless it belongs to a later stage, and every core
 * Kubernetes object rendered validates against the Kubernetes schema (LeaderWorkerSets are not
 * core Kubernetes and are counted as skipped).
 */
import { SchemaCheck, validateKubernetesObjects } from './kubernetes-schema';
import { withVersionedImages } from './shared';
import { RenderError } from '../../src/engine/errors';
import { OperatorSettings } from '../../src/engine/operator-settings';
import { renderDocuments } from '../../src/engine/render';
import { ComponentSpecJson, DgdJson } from '../../src/model/v1beta1';
import { validateDocument } from '../../src/validation/validate';

/** The operator the corpus graphs are rendered for: Helm defaults, Grove unavailable. */
export const CORPUS_WORKLOADS_OPERATOR: Partial<OperatorSettings> = { groveAvailable: false };

/** Why a graph is not rendered in workloads output yet. */
export type DeferralReason = 'experimental' | 'grove-only';

/** Readable text of each reason. */
export const DEFERRAL_REASONS: Readonly<Record<DeferralReason, string>> = {
  'experimental': 'experimental features (spec.components[].experimental.*)',
  'grove-only': 'needs the Grove pathway (admission without Grove forbids it)',
};

/** Admission messages that say a field needs the Grove workload provider (validation-rules §1.1, rows 20, 39, 64, 82, 117, 129). */
const GROVE_ONLY_MESSAGE = /Grove pathway|Grove-backed|requires workload provider "grove"/;

/** The reasons a graph belongs to a later stage (empty: it must render now), in a fixed order. */
export function deferralReasons(dgd: DgdJson): DeferralReason[] {
  const components: ComponentSpecJson[] = dgd.spec?.components ?? [];
  const reasons: DeferralReason[] = [];
  // multinode components render on the LeaderWorkerSet path (LWS is available for the corpus)
  if (components.some(c => Object.values(c.experimental ?? {}).some(v => v !== undefined))) reasons.push('experimental');
  const violations = validateDocument(dgd, { groveEnabled: false, operatorVersion: '1.4.0' });
  if (violations.some(v => GROVE_ONLY_MESSAGE.test(v.message))) reasons.push('grove-only');
  return reasons;
}

/** One corpus graph in workloads output. */
export interface GraphWorkloads {
  /** `<file>#<index in file>`. */
  readonly id: string;
  /** Later-stage reasons; when non-empty the engine is expected to refuse the graph. */
  readonly deferred: DeferralReason[];
  /** The rendered objects (empty when the render failed or was refused). */
  readonly objects: unknown[];
  /** The render error, if any: a RenderError message, or a crash (`crash: …` with the stack). */
  readonly error?: string;
  /** Whether `error` is a RenderError (a refusal) rather than a crash. */
  readonly refused: boolean;
}

/** Renders one graph (placeholder image tags replaced by a semantic version) in workloads output. */
export function renderGraphWorkloads(id: string, doc: DgdJson): GraphWorkloads {
  const graph = withVersionedImages(doc) as DgdJson;
  const deferred = deferralReasons(graph);
  try {
    const objects = renderDocuments([graph], { output: 'workloads', operator: CORPUS_WORKLOADS_OPERATOR });
    return { id, deferred, objects, refused: false };
  } catch (e) {
    if (e instanceof RenderError) return { id, deferred, objects: [], error: e.message, refused: true };
    return { id, deferred, objects: [], error: `crash: ${crashText(e)}`, refused: false };
  }
}

/** An unexpected exception: its message and the top of its stack. */
function crashText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  return (e.stack ?? `${e.name}: ${e.message}`).split('\n').slice(0, 4).join('\n');
}

/** A graph's rendering with the schema checks of its objects (same order as `objects`). */
export interface CheckedGraph extends GraphWorkloads {
  readonly checks: SchemaCheck[];
}

/** The schema checks of every rendered object, with one child process for all graphs. */
export function checkGraphs(graphs: readonly GraphWorkloads[]): CheckedGraph[] {
  const all = validateKubernetesObjects(graphs.flatMap(g => g.objects));
  let at = 0;
  return graphs.map(g => {
    const checks = all.slice(at, at + g.objects.length);
    at += g.objects.length;
    return { ...g, checks };
  });
}

/** What went wrong with a graph (empty: all is well). */
export function graphProblems(g: CheckedGraph): string[] {
  const problems: string[] = [];
  if (g.deferred.length === 0 && g.error !== undefined) problems.push(`render: ${g.error}`);
  if (g.deferred.length > 0 && g.error !== undefined && !g.refused) problems.push(`render: ${g.error}`);
  for (const c of g.checks) {
    const ref = `${c.apiVersion} ${c.kind}/${c.name}`;
    if (c.status === 'invalid') for (const e of c.errors) problems.push(`schema: ${ref}: ${e}`);
    if (c.status === 'no-model') problems.push(`schema: ${ref}: no such kind in the Kubernetes ${c.apiVersion} API`);
  }
  return problems;
}

/** Totals of a corpus run. */
export interface WorkloadsTotals {
  graphs: number;
  rendered: number;
  /** Deferred graphs the engine refused, by reason (a graph counts once per reason). */
  deferredByReason: Map<DeferralReason, number>;
  deferred: number;
  /** Deferred graphs the engine rendered anyway (the later stage may have landed). */
  deferredButRendered: number;
  failed: number;
  /** Schema-valid core objects by `apiVersion kind`. */
  validatedByKind: Map<string, number>;
  /** Objects of other APIs (not schema-checked) by `apiVersion kind`. */
  skippedByKind: Map<string, number>;
}

/** Counts of a checked corpus. */
export function workloadsTotals(graphs: readonly CheckedGraph[]): WorkloadsTotals {
  const t: WorkloadsTotals = {
    graphs: graphs.length,
    rendered: 0,
    deferred: 0,
    deferredButRendered: 0,
    failed: 0,
    deferredByReason: new Map(),
    validatedByKind: new Map(),
    skippedByKind: new Map(),
  };
  const add = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);
  for (const g of graphs) {
    if (graphProblems(g).length > 0) t.failed++;
    if (g.error === undefined) t.rendered++;
    if (g.deferred.length > 0) {
      if (g.error === undefined) {
        t.deferredButRendered++;
      } else {
        t.deferred++;
        for (const r of g.deferred) add(t.deferredByReason, r);
      }
    }
    for (const c of g.checks) {
      const kind = `${c.apiVersion} ${c.kind}`;
      if (c.status === 'valid') add(t.validatedByKind, kind);
      if (c.status === 'not-kubernetes') add(t.skippedByKind, kind);
    }
  }
  return t;
}

/** Byte-wise ordering of map entries by key. */
export function sortedEntries<V>(map: Map<string, V>): [string, V][] {
  return [...map.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
}
