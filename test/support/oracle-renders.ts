/**
 * The recorded oracle renders (test/fixtures/oracle/): reading the fixtures, rendering a recorded
 * input through the project's pipeline with the same operator settings, comparing the objects, and
 * the ONE table of differences that are expected (intended ones, and known open ones being fixed).
 * Used by test/oracle-renders.test.ts and scripts/oracle/record-renders.ts (`--check`).
 */
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { checkAndRender, formatProblem, OperatorSettings, RenderError, settings as operatorSettings } from './facade';
import { parseOperatorConfiguration } from '../../src/import';

export const ORACLE_FIXTURES_DIR = path.resolve(__dirname, '..', 'fixtures', 'oracle');
export const ORACLE_SETTINGS_DIR = path.join(ORACLE_FIXTURES_DIR, 'settings');

export type OracleMode = 'grove' | 'nogrove';

/** One oracle run of a recorded input. */
export interface OracleRun {
  readonly mode: OracleMode;
  /** Operator version (1.4.0 or 1.5.0). */
  readonly version: string;
  /** 0 rendered; 3 refused by admission; 4 admitted, but a reconciler kept failing. */
  readonly exit: number;
  /** The oracle's message (exit 3 and 4). */
  readonly message?: string;
  /** What the operator created (exit 0; partial for exit 4), server-set metadata removed. */
  readonly objects?: any[];
}

/** One line of a fixture file: an input and its oracle runs. */
export interface OracleRecord {
  readonly seed: number;
  readonly generator: string;
  /** Name of the operator configuration file (settings/<name>.yaml). */
  readonly settings: string;
  readonly namespace: string;
  readonly input: unknown[];
  readonly runs: OracleRun[];
}

/** The fixture files (gzip JSON lines), sorted. */
export function oracleFixtureFiles(dir = ORACLE_FIXTURES_DIR): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter(f => /^renders-.*\.jsonl\.gz$/.test(f)).sort().map(f => path.join(dir, f));
}

export function readOracleRecords(file: string): OracleRecord[] {
  return zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').filter(l => l.trim() !== '').map(l => JSON.parse(l));
}

const settingsCache = new Map<string, Partial<OperatorSettings>>();

/** The operator settings of a recorded run: the named configuration file, the version and mode of the run. */
export function runSettings(settingsName: string, run: Pick<OracleRun, 'mode' | 'version'>): OperatorSettings {
  let fromFile = settingsCache.get(settingsName);
  if (!fromFile) {
    const file = path.join(ORACLE_SETTINGS_DIR, `${settingsName}.yaml`);
    fromFile = parseOperatorConfiguration(fs.readFileSync(file, 'utf8'), file);
    settingsCache.set(settingsName, fromFile);
  }
  // the oracle runs with LeaderWorkerSet and DRA available unless the file turns them off (the record script passes
  // them as --lws / --dra), Grove per mode
  return operatorSettings({ ...fromFile, version: run.version, groveAvailable: run.mode === 'grove' });
}

/** Metadata the API server sets (and status), removed from both sides; `creationTimestamp` at any depth (Go writes `null` in templates). */
const SERVER_METADATA = ['resourceVersion', 'uid', 'creationTimestamp', 'generation', 'managedFields', 'selfLink', 'ownerReferences', 'finalizers'];

export function stripServerSet(object: any): any {
  const copy = JSON.parse(JSON.stringify(object));
  if (copy && typeof copy === 'object') {
    delete copy.status;
    if (copy.metadata && typeof copy.metadata === 'object') for (const f of SERVER_METADATA) delete copy.metadata[f];
  }
  const nullTimestamps = (x: any): void => {
    if (Array.isArray(x)) {x.forEach(nullTimestamps);} else if (x && typeof x === 'object') {
      if ('creationTimestamp' in x && x.creationTimestamp === null) delete x.creationTimestamp;
      Object.values(x).forEach(nullTimestamps);
    }
  };
  nullTimestamps(copy);
  return copy;
}

/** What the project does with a recorded input: the objects, or its refusal. */
export type OurResult = { readonly ok: true; readonly objects: any[] }
  | { readonly ok: false; readonly problems: string[]; readonly paths: string[] };

const isPrimary = (d: any) => d?.apiVersion === 'nvidia.com/v1beta1'
  && (d?.kind === 'DynamoGraphDeployment' || d?.kind === 'DynamoComponentDeployment');

/** The input rendered as `render --output workloads` renders it (in process), the input's own other documents left out. */
export function renderOurs(record: Pick<OracleRecord, 'input' | 'settings' | 'namespace'>, run: Pick<OracleRun, 'mode' | 'version'>): OurResult {
  const settings = runSettings(record.settings, run);
  let result;
  try {
    result = checkAndRender([{ documents: withOracleUids(record.input) }], { settings, output: 'workloads', namespace: record.namespace });
  } catch (e) {
    if (e instanceof RenderError) return { ok: false, problems: [e.message], paths: [e.field] };
    throw e;
  }
  if (result.problems.length > 0) {
    return {
      ok: false,
      problems: result.problems.map(formatProblem),
      paths: result.problems.map(p => p.violation?.path ?? p.renderError?.field ?? ''),
    };
  }
  // documents of the input other than the graph pass through (a ResourceClaimTemplate): they are the app's, not the operator's
  const passed = new Set(record.input.filter(d => !isPrimary(d)).map(keyOf));
  return { ok: true, objects: result.outputs[0].filter(o => !passed.has(keyOf(o))).map(stripServerSet) };
}

/**
 * The input with the UIDs the oracle's API server gives the stored objects: the n-th DynamoGraphDeployment or
 * DynamoComponentDeployment of the input gets `00000000-0000-0000-0000-<n, 12 digits>` (a checkpoint's
 * identity includes its graph's UID, which only the cluster knows; the project reads it from `metadata.uid`).
 */
export function withOracleUids(input: readonly unknown[]): unknown[] {
  let n = 0;
  return input.map(d => {
    if (!isPrimary(d)) return d;
    n++;
    const doc = d as any;
    return { ...doc, metadata: { ...doc.metadata, uid: `00000000-0000-0000-0000-${String(n).padStart(12, '0')}` } };
  });
}

export function keyOf(o: any): string {
  return [o?.apiVersion, o?.kind, o?.metadata?.namespace ?? '', o?.metadata?.name].join('/');
}

// ---------------------------------------------------------------------------------------------
// Object comparison
// ---------------------------------------------------------------------------------------------

export type DiffType = 'object missing in project' | 'object extra in project' | 'missing in project' | 'extra in project' | 'value differs' | 'order differs'
  /** the oracle refuses (admission) / fails to reconcile what the project renders; the project refuses what the oracle renders */
  | 'project accepts' | 'project renders' | 'project refuses'
  /** both refuse, but no field path of the project's refusal is in the oracle's message */
  | 'refused at another field';

export interface Diff {
  readonly kind: string;
  readonly name: string;
  /** Field path in the object, list items by name where they have one (`.spec.containers[main].env[X]`). */
  readonly path: string;
  readonly type: DiffType;
  readonly oracle?: unknown;
  readonly project?: unknown;
}

function fieldPath(base: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `${base}.${key}` : `${base}[${JSON.stringify(key)}]`;
}

function namedItems(list: unknown[]): string[] | undefined {
  if (list.length === 0 || !list.every(i => i && typeof i === 'object' && typeof (i as any).name === 'string')) return undefined;
  const names = list.map(i => (i as any).name as string);
  return new Set(names).size === names.length ? names : undefined;
}

function diffValues(a: unknown, b: unknown, at: string, out: Omit<Diff, 'kind' | 'name'>[]): void {
  if (Array.isArray(a) && Array.isArray(b)) {
    const an = namedItems(a);
    const bn = namedItems(b);
    if (an && bn) {
      const am = new Map(a.map(i => [(i as any).name, i]));
      const bm = new Map(b.map(i => [(i as any).name, i]));
      for (const n of [...an, ...bn.filter(x => !am.has(x))]) {
        const p = `${at}[${n}]`;
        if (!bm.has(n)) out.push({ path: p, type: 'missing in project', oracle: am.get(n) });
        else if (!am.has(n)) out.push({ path: p, type: 'extra in project', project: bm.get(n) });
        else diffValues(am.get(n), bm.get(n), p, out);
      }
      const common = (xs: string[], other: Map<string, unknown>) => xs.filter(x => other.has(x)).join('\0');
      if (common(an, bm) !== common(bn, am)) out.push({ path: at, type: 'order differs', oracle: an, project: bn });
      return;
    }
    if (a.length === b.length && [...a, ...b].every(x => x !== null && typeof x === 'object')) {
      a.forEach((x, i) => diffValues(x, b[i], `${at}[${i}]`, out));
      return;
    }
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      const sorted = (xs: unknown[]) => xs.map(x => JSON.stringify(x)).sort().join('\0');
      out.push({ path: at, type: sorted(a) === sorted(b) ? 'order differs' : 'value differs', oracle: a, project: b });
    }
    return;
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const p = fieldPath(at, k);
      if (!(k in b)) out.push({ path: p, type: 'missing in project', oracle: (a as any)[k] });
      else if (!(k in a)) out.push({ path: p, type: 'extra in project', project: (b as any)[k] });
      else diffValues((a as any)[k], (b as any)[k], p, out);
    }
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: at, type: 'value differs', oracle: a, project: b });
}

/** Every difference between the oracle's objects and ours (paired by apiVersion, kind, namespace, name). */
export function compareObjects(oracle: readonly any[], project: readonly any[]): Diff[] {
  const om = new Map(oracle.map(o => [keyOf(o), o]));
  const pm = new Map(project.map(o => [keyOf(o), o]));
  const diffs: Diff[] = [];
  for (const [k, o] of om) if (!pm.has(k)) diffs.push({ kind: o.kind, name: o.metadata?.name, path: '', type: 'object missing in project', oracle: o });
  for (const [k, o] of pm) if (!om.has(k)) diffs.push({ kind: o.kind, name: o.metadata?.name, path: '', type: 'object extra in project', project: o });
  for (const k of [...om.keys()].filter(x => pm.has(x)).sort()) {
    const o = om.get(k);
    const out: Omit<Diff, 'kind' | 'name'>[] = [];
    diffValues(o, pm.get(k), '', out);
    diffs.push(...out.map(d => ({ ...d, kind: o.kind, name: o.metadata?.name })));
  }
  return diffs;
}

// ---------------------------------------------------------------------------------------------
// The expected differences: ONE table (the README's section "Differences from the operator" lists the same entries)
// ---------------------------------------------------------------------------------------------

export interface ExpectedDifference {
  readonly id: string;
  /**
   * `intended`: the project differs on purpose. `known-open`: a difference being fixed, listed so that the
   * test fails on any other one, and fails once this one is gone (then remove it here and in the README's section).
   */
  readonly status: 'intended' | 'known-open';
  readonly description: string;
  /** Whether a difference is this one; `others` are the differences of the same object, `input` the recorded input. */
  readonly matches: (d: Diff, others: readonly Diff[], input: readonly unknown[]) => boolean;
}

const LAST_APPLIED_HASH = '.metadata.annotations["nvidia.com/last-applied-hash"]';

export const EXPECTED_DIFFERENCES: readonly ExpectedDifference[] = [
  {
    id: 'wait-leader-script',
    status: 'intended',
    description: 'the wait-for-leader script ConfigMap (`<graph>-wait-leader-script`): our own script text in `data`, and so its `nvidia.com/last-applied-hash`',
    matches: d => d.kind === 'ConfigMap' && /-wait-leader-script$/.test(d.name) && (d.path.startsWith('.data') || d.path === LAST_APPLIED_HASH),
  },
  {
    id: 'mpi-ssh-secret',
    status: 'intended',
    description: 'the MPI SSH key Secret (`mpi.sshSecretName`, `mpi-run-ssh-secret` by default) the operator copies into the namespace of a multinode graph: '
      + 'its key data exists only in the cluster (the operator generates it at install)',
    // by its content, whatever the settings name it: the operator's key pair, nothing else
    matches: d => d.kind === 'Secret' && d.type === 'object missing in project'
      && Object.keys((d.oracle as any)?.data ?? {}).sort().join() === 'private.key,private.key.pub',
  },
  {
    id: 'epp-config-nulls',
    status: 'intended',
    description: 'an EPP DCD\'s `eppConfig.config`: the operator sends `parameters: null` (a plugin without parameters) and `weight: null` '
      + '(a scheduling plugin without weight), which the API server drops when it stores the DCD (the CRD does not mark them nullable); '
      + 'the project renders the DCD as stored, the recordings hold it as sent',
    matches: d => d.kind === 'DynamoComponentDeployment' && d.type === 'missing in project' && d.oracle === null
      && /^\.spec\.eppConfig\.config\.(plugins\[[^\]]*\]\.parameters|schedulingProfiles\[[^\]]*\]\.plugins\[[^\]]*\]\.weight)$/.test(d.path),
  },
  {
    id: 'roles-field',
    status: 'intended',
    description: 'component `roles`: this library\'s API (the v1beta1 DCD reference) has it; the CRDs of operators 1.4.0 and 1.5.0 do not, '
      + 'so their strict decoding refuses it as unknown; the project admits it (or refuses the graph for another field)',
    matches: d => (d.type === 'project accepts' || d.type === 'refused at another field') && /unknown field\(s\)[^:]*\.roles\b/.test(String(d.oracle)),
  },
];

/** The expected difference a diff is, if any (`others`: the differences of the same object; `input`: the recorded input). */
export function expectedDifferenceOf(d: Diff, others: readonly Diff[], input: readonly unknown[]): ExpectedDifference | undefined {
  return EXPECTED_DIFFERENCES.find(e => e.matches(d, others, input));
}

/** A path with list-item names and indexes generalized, for grouping. */
export function categoryPath(p: string): string {
  return p.replace(/\[\d+\]/g, '[]').replace(/\[(?!")[^\]]*\]/g, '[*]');
}

/** The verdict of one run of a record. */
export interface RunVerdict {
  /**
   * `identical`; `refused-alike` (both refuse; for an admission refusal, the project names one of the oracle's fields);
   * `expected-only` (only expected differences); or `different`.
   */
  readonly outcome: 'identical' | 'refused-alike' | 'expected-only' | 'different';
  /** Categories of the differences left after the expected ones (for `different`). */
  readonly categories: string[];
  /** Expected differences found (id → count). */
  readonly expected: Record<string, number>;
  /** Lines that describe what differs (first differing paths; our problems). */
  readonly details: string[];
  /** One example line per category. */
  readonly examples: Record<string, string>;
}

function graphName(record: OracleRecord): string {
  const primary = record.input.find(isPrimary) as any;
  return primary?.metadata?.name ?? '';
}

/** The differences of one run: object by object, or that one side refuses what the other renders. */
export function runDiffs(record: OracleRecord, run: OracleRun): { diffs: Diff[]; bothRefuse: boolean; ourProblems: string[] } {
  const ours = renderOurs(record, run);
  const refused = run.exit === 3 || run.exit === 4;
  if (refused && !ours.ok) {
    // a refusal by admission names its fields: one of the project's must be among them
    const spelled = (x: string) => x.replace(/\[([^\]]*)\]/g, '.$1').replace(/"/g, '');
    if (run.exit === 4 || ours.paths.some(p => p !== '' && spelled(run.message ?? '').includes(spelled(p)))) {
      return { diffs: [], bothRefuse: true, ourProblems: ours.problems };
    }
    return {
      diffs: [{ kind: 'DynamoGraphDeployment', name: graphName(record), path: ours.paths[0] ?? '', type: 'refused at another field', oracle: run.message ?? '', project: ours.problems[0] }],
      bothRefuse: false,
      ourProblems: ours.problems,
    };
  }
  if (refused) {
    const type = run.exit === 3 ? 'project accepts' : 'project renders';
    return { diffs: [{ kind: 'DynamoGraphDeployment', name: graphName(record), path: '', type, oracle: run.message ?? '' }], bothRefuse: false, ourProblems: [] };
  }
  if (!ours.ok) {
    return {
      diffs: [{ kind: 'DynamoGraphDeployment', name: graphName(record), path: ours.paths[0] ?? '', type: 'project refuses', project: ours.problems.join('; ') }],
      bothRefuse: false,
      ourProblems: ours.problems,
    };
  }
  return { diffs: compareObjects(run.objects ?? [], ours.objects), bothRefuse: false, ourProblems: [] };
}

/** Compares one run of a record with the project's render. */
export function judgeRun(record: OracleRecord, run: OracleRun): RunVerdict {
  const { diffs, bothRefuse, ourProblems } = runDiffs(record, run);
  const expected: Record<string, number> = {};
  if (bothRefuse) return { outcome: 'refused-alike', categories: [], expected, details: [`project refuses: ${ourProblems[0] ?? ''}`], examples: {} };
  const byObject = new Map<string, Diff[]>();
  for (const d of diffs) byObject.set(`${d.kind}/${d.name}`, [...(byObject.get(`${d.kind}/${d.name}`) ?? []), d]);
  const unexpected: Diff[] = [];
  for (const d of diffs) {
    const e = expectedDifferenceOf(d, byObject.get(`${d.kind}/${d.name}`)!, record.input);
    if (e) expected[e.id] = (expected[e.id] ?? 0) + 1;
    else unexpected.push(d);
  }
  if (unexpected.length === 0) return { outcome: diffs.length === 0 ? 'identical' : 'expected-only', categories: [], expected, details: [], examples: {} };
  const describe = (d: Diff) => (d.path === ''
    ? `${d.kind}/${d.name} (object): ${d.type}`
    : `${d.kind}/${d.name} ${d.path}: ${d.type}; oracle ${short(d.oracle)} project ${short(d.project)}`);
  const examples: Record<string, string> = {};
  for (const d of unexpected) examples[`${d.kind} ${categoryPath(d.path) || '(object)'}: ${d.type}`] ??= describe(d);
  return { outcome: 'different', categories: Object.keys(examples), expected, details: unexpected.slice(0, 8).map(describe), examples };
}

function short(v: unknown): string {
  const s = JSON.stringify(v);
  return s === undefined ? '-' : s.length > 160 ? `${s.slice(0, 160)}...` : s;
}

/** Counts of verdicts, by version/mode, by settings, by category, by expected difference. */
export class OracleTally {
  readonly byGroup = new Map<string, Record<string, number>>();
  readonly categories = new Map<string, { count: number; example: string }>();
  readonly expected = new Map<string, number>();
  readonly failures: string[] = [];

  add(record: OracleRecord, run: OracleRun, v: RunVerdict): void {
    for (const group of [`${run.version} ${run.mode}`, `settings ${record.settings}`, 'all']) {
      const counts = this.byGroup.get(group) ?? {};
      counts[v.outcome] = (counts[v.outcome] ?? 0) + 1;
      this.byGroup.set(group, counts);
    }
    for (const [id, n] of Object.entries(v.expected)) this.expected.set(id, (this.expected.get(id) ?? 0) + (n > 0 ? 1 : 0));
    const where = `seed ${record.seed} (${record.generator}), mode ${run.mode}, version ${run.version}, settings ${record.settings}`;
    for (const c of v.categories) {
      const entry = this.categories.get(c) ?? { count: 0, example: `${where}: ${v.examples[c] ?? ''}` };
      entry.count++;
      this.categories.set(c, entry);
    }
    if (v.outcome === 'different') this.failures.push(`${where}\n    ${v.details.join('\n    ')}`);
  }

  report(): string {
    const lines: string[] = ['outcome per version/mode and settings (identical / expected-only / refused-alike / different):'];
    for (const [g, c] of [...this.byGroup].sort(([a], [b]) => a.localeCompare(b))) {
      lines.push(`  ${g.padEnd(24)} ${['identical', 'expected-only', 'refused-alike', 'different'].map(k => c[k] ?? 0).join(' / ')}`);
    }
    lines.push('expected differences (runs showing each):');
    for (const e of EXPECTED_DIFFERENCES) lines.push(`  ${e.status.padEnd(11)} ${e.id.padEnd(46)} ${this.expected.get(e.id) ?? 0}`);
    if (this.categories.size > 0) {
      lines.push('other differences by category (runs, example):');
      for (const [c, { count, example }] of [...this.categories].sort((a, b) => b[1].count - a[1].count)) lines.push(`  ${count}  ${c}\n      e.g. ${example}`);
    }
    return lines.join('\n');
  }
}
