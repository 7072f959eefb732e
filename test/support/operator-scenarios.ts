/**
 * Operator scenarios: facts taken from the Dynamo operator's Go unit tests (the input object, the
 * operator settings, the asserted values), written as our own YAML files under
 * test/operator-scenarios/<area>/<name>.yaml, and checked against this library's render engine
 * and admission checks. Shared by the jest test (test/operator-scenarios.test.ts) and the CI
 * script (scripts/operator-scenarios.ts).
 *
 * A scenario file holds one YAML document (read as kubectl reads YAML):
 *
 * ```yaml
 * source:                     # the Go test the facts come from
 *   file: deploy/operator/internal/dynamo/backend_vllm_test.go
 *   test: TestVLLMBackend_UpdateContainer
 *   case: multinode worker uses mp (origin version >= threshold) Grove
 * note: how the unit test's input was made into a whole document (optional)
 * knownMismatch: what the engine does differently today (optional; the scenario must then fail)
 * operator: { version: 1.5.0, groveAvailable: true }   # OperatorSettings fields (optional)
 * namespace: default          # render namespace (default: default)
 * output: workloads           # graph | components | workloads | admitted
 * admission: create           # instead of output: create | update (with `old:`)
 * request: { requester: ..., operatorPrincipal: ..., submit: apply, oldSource: stored }  # update only
 * old: <document>             # update only
 * input: <document> | [<document>, ...]
 * expect: [ <assertion>, ... ]
 * ```
 *
 * Render assertions (output modes). `object` selects exactly one rendered object by `kind` and
 * optionally `name`, `apiVersion` and `labels` (a subset of its metadata.labels); `path` is a
 * field path from it:
 *
 * - `equals: <value>` — the value at the path is exactly this (deep equality);
 * - `absent: true` — nothing at the path (or `null`);
 * - `present: true` — something at the path;
 * - `includes: <value>` — the value contains this (maps: every given key, recursively; other
 *   values: equality);
 * - `contains: [<item>, ...]` — the list at the path holds, for each item, an element that
 *   includes it (env entries, args);
 * - `notContains: [<item>, ...]` — the list holds no element that includes any of these;
 * - `textContains: [<text>, ...]` — the string at the path contains each of these;
 * - `sameAs: <path>` — the value is present and equals the value at this other path of the same
 *   object (e.g. a label and an env var that must carry the same computed hash);
 * - `count: n` (no `path`) — exactly n rendered objects match `object` (which may then match several);
 * - `renderError: <substring>` (alone) — the render fails with a message containing this.
 *
 * Paths: `a.b`, `a[0]`, `a[name=main]` (the element of a list whose `name` is `main`),
 * `a["nvidia.com/gpu"]` (a key with dots or slashes). A path may fan out over a list: `a[*]`
 * (every element), `a[name~=gms]` (every element whose `name` contains `gms`), `a[name!~=gms]`
 * (every element whose `name` does not); the check must then hold for each value reached, and at
 * least one must be reached.
 *
 * Admission assertions (`admission: create|update`): `accepted: true` (no violation), or
 * `violation: { path, message, rule }` — some violation has exactly this path (when given),
 * a message containing `message` (when given) and this rule id (when given);
 * `noViolation: { path, message }` — no violation matches.
 *
 * `output: admitted` renders the object as stored after the create-time admission (the defaulting
 * webhook) and asserts on it like a render with the one object of kind of the input.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DcdJson, DgdJson, OperatorSettings, OutputMode, render as renderDocs, settings, storedComponent, storedGraph } from './facade';
import { type UpdateOptions, validateDocument, validateOptionsFor, validateUpdate } from '../../src/admission';
import { parseYamlDocuments } from '../../src/import';
import { isMap, JsonMap, type Violation } from '../../src/model';

/** The folder of the scenario files. */
export const OPERATOR_SCENARIOS_DIR = path.resolve(__dirname, '..', 'operator-scenarios');

/** The Go test a scenario's facts come from. */
export interface ScenarioSource {
  /** Path of the Go test file in the operator's repository, e.g. `deploy/operator/internal/dynamo/graph_test.go`. */
  readonly file: string;
  /** The Go test function. */
  readonly test: string;
  /** The table case or subtest, when the test has several. */
  readonly case?: string;
}

export interface ObjectSelector {
  readonly kind: string;
  readonly name?: string;
  readonly apiVersion?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

export interface RenderAssertion {
  readonly object?: ObjectSelector;
  readonly path?: string;
  readonly equals?: unknown;
  readonly absent?: boolean;
  readonly present?: boolean;
  readonly includes?: unknown;
  readonly contains?: readonly unknown[];
  readonly notContains?: readonly unknown[];
  readonly textContains?: readonly string[];
  readonly sameAs?: string;
  readonly count?: number;
  readonly renderError?: string;
}

export interface ViolationMatcher {
  readonly path?: string;
  readonly message?: string;
  readonly rule?: string;
}

export interface AdmissionAssertion {
  readonly accepted?: boolean;
  readonly violation?: ViolationMatcher;
  readonly noViolation?: ViolationMatcher;
}

export type ScenarioOutput = OutputMode | 'admitted';
export type AdmissionOperation = 'create' | 'update';

/** One scenario as read from its file. */
export interface OperatorScenario {
  /** `<area>/<name>` (the file's path under the scenario folder, without `.yaml`). */
  readonly id: string;
  readonly file: string;
  readonly source: ScenarioSource;
  readonly note?: string;
  readonly knownMismatch?: string;
  readonly operator: Partial<OperatorSettings>;
  readonly namespace: string;
  readonly output?: ScenarioOutput;
  readonly admission?: AdmissionOperation;
  readonly request?: Pick<UpdateOptions, 'requester' | 'operatorPrincipal' | 'submit' | 'oldSource'>;
  readonly old?: unknown;
  readonly input: unknown[];
  readonly expect: ReadonlyArray<RenderAssertion & AdmissionAssertion>;
}

/** What running a scenario gave: the failed assertions (none: it passed). */
export interface ScenarioResult {
  readonly scenario: OperatorScenario;
  readonly failures: string[];
}

const OUTPUTS: readonly ScenarioOutput[] = ['graph', 'components', 'workloads', 'admitted'];
const TOP_LEVEL_KEYS = new Set([
  'source', 'note', 'knownMismatch', 'operator', 'namespace', 'output', 'admission', 'request', 'old', 'input', 'expect',
]);

/** The display name of a scenario: its id and where its facts come from. */
export function scenarioTitle(s: OperatorScenario): string {
  const from = `${path.basename(s.source.file)} ${s.source.test}${s.source.case ? ` / ${s.source.case}` : ''}`;
  return `${s.id} — ${from}`;
}

/** Every scenario file under `dir` (recursively), as `<area>/<name>.yaml` paths, sorted. */
export function findScenarioFiles(dir: string = OPERATOR_SCENARIOS_DIR): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile() && e.name.endsWith('.yaml')) out.push(path.relative(dir, p));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.map(p => p.split(path.sep).join('/')).sort();
}

/** Reads and checks one scenario file (throws with the file name when it is malformed). */
export function readScenario(relative: string, dir: string = OPERATOR_SCENARIOS_DIR): OperatorScenario {
  const file = path.join(dir, relative);
  const docs = parseYamlDocuments(fs.readFileSync(file, 'utf8'), file);
  const fail = (message: string): never => {
    throw new Error(`${relative}: ${message}`);
  };
  if (docs.length !== 1 || !isMap(docs[0])) fail('a scenario file holds exactly one mapping');
  const raw = docs[0] as JsonMap;
  for (const key of Object.keys(raw)) if (!TOP_LEVEL_KEYS.has(key)) fail(`unknown key ${JSON.stringify(key)}`);
  const source = raw.source as ScenarioSource | undefined;
  if (!isMap(source) || typeof source.file !== 'string' || typeof source.test !== 'string') {
    fail('source: needs file and test');
  }
  if (!/_test\.go$/.test(source!.file)) fail('source.file: must name a Go test file');
  if (!/^Test/.test(source!.test)) fail('source.test: must name a Go test function');
  const output = raw.output as ScenarioOutput | undefined;
  const admission = raw.admission as AdmissionOperation | undefined;
  if ((output === undefined) === (admission === undefined)) fail('exactly one of output and admission');
  if (output !== undefined && !OUTPUTS.includes(output)) fail(`output: one of ${OUTPUTS.join(', ')}`);
  if (admission !== undefined && admission !== 'create' && admission !== 'update') fail('admission: create or update');
  if ((admission === 'update') !== (raw.old !== undefined)) fail('old: given exactly for admission: update');
  if (raw.request !== undefined && admission !== 'update') fail('request: only for admission: update');
  const input = Array.isArray(raw.input) ? raw.input : raw.input === undefined ? [] : [raw.input];
  if (input.length === 0) fail('input: at least one document');
  if (admission !== undefined && input.length !== 1) fail('input: admission checks one document');
  if (!Array.isArray(raw.expect) || raw.expect.length === 0) fail('expect: at least one assertion');
  for (const [i, a] of (raw.expect as unknown[]).entries()) {
    const problem = assertionProblem(a, admission !== undefined);
    if (problem) fail(`expect[${i}]: ${problem}`);
  }
  if (raw.knownMismatch !== undefined && (typeof raw.knownMismatch !== 'string' || raw.knownMismatch.trim() === '')) {
    fail('knownMismatch: a short reason');
  }
  return {
    id: relative.replace(/\.yaml$/, ''),
    file,
    source: source!,
    note: raw.note as string | undefined,
    knownMismatch: raw.knownMismatch as string | undefined,
    operator: (raw.operator ?? {}) as Partial<OperatorSettings>,
    namespace: (raw.namespace as string | undefined) ?? 'default',
    output,
    admission,
    request: raw.request as OperatorScenario['request'],
    old: raw.old,
    input,
    expect: raw.expect as OperatorScenario['expect'],
  };
}

const RENDER_CHECKS = ['equals', 'absent', 'present', 'includes', 'contains', 'notContains', 'textContains', 'sameAs'];

function assertionProblem(a: unknown, admission: boolean): string | undefined {
  if (!isMap(a)) return 'an assertion is a mapping';
  if (admission) {
    const keys = Object.keys(a);
    if (keys.length !== 1 || !['accepted', 'violation', 'noViolation'].includes(keys[0])) {
      return 'an admission assertion is one of accepted, violation, noViolation';
    }
    return undefined;
  }
  if ('renderError' in a) return Object.keys(a).length === 1 ? undefined : 'renderError stands alone';
  if (!isMap(a.object) || typeof a.object.kind !== 'string') return 'object: needs kind';
  if ('count' in a) return 'path' in a ? 'count takes no path' : undefined;
  if (typeof a.path !== 'string') return 'path: a field path';
  const checks = RENDER_CHECKS.filter(k => k in a);
  if (checks.length !== 1) return `exactly one of ${RENDER_CHECKS.join(', ')}`;
  if (['contains', 'notContains', 'textContains'].includes(checks[0]) && !Array.isArray(a[checks[0]])) return `${checks[0]}: a list`;
  return undefined;
}

/** Reads every scenario under `dir`. */
export function readScenarios(dir: string = OPERATOR_SCENARIOS_DIR): OperatorScenario[] {
  return findScenarioFiles(dir).map(f => readScenario(f, dir));
}

/** Runs one scenario: the failed assertions, empty when it passes. Never throws. */
export function runScenario(s: OperatorScenario): ScenarioResult {
  try {
    return { scenario: s, failures: s.admission ? runAdmission(s) : runRender(s) };
  } catch (e) {
    return { scenario: s, failures: [`unexpected error: ${e instanceof Error ? e.message : String(e)}`] };
  }
}

// ---------------------------------------------------------------------------------------------
// Rendering

function render(s: OperatorScenario): unknown[] {
  if (s.output === 'admitted') return s.input.map(doc => admitted(doc, s));
  return renderDocs(s.input, { output: s.output as OutputMode, namespace: s.namespace, settings: s.operator });
}

function admitted(doc: unknown, s: OperatorScenario): unknown {
  const withNs = withNamespace(doc, s.namespace);
  if (isMap(withNs) && withNs.kind === 'DynamoGraphDeployment') return storedGraph(withNs as unknown as DgdJson, s.operator);
  if (isMap(withNs) && withNs.kind === 'DynamoComponentDeployment') return storedComponent(withNs as unknown as DcdJson);
  throw new Error('output admitted takes a DynamoGraphDeployment or DynamoComponentDeployment');
}

function withNamespace(doc: unknown, namespace: string): unknown {
  if (!isMap(doc)) return doc;
  const meta = isMap(doc.metadata) ? doc.metadata : {};
  return meta.namespace ? doc : { ...doc, metadata: { ...meta, namespace } };
}

function runRender(s: OperatorScenario): string[] {
  let rendered: unknown[] | undefined;
  let error: string | undefined;
  try {
    rendered = render(s);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const failures: string[] = [];
  for (const a of s.expect) {
    if (a.renderError !== undefined) {
      if (error === undefined) failures.push(`expected the render to fail with "${a.renderError}", but it succeeded`);
      else if (!error.includes(a.renderError)) failures.push(`expected a render error containing "${a.renderError}", got: ${error}`);
      continue;
    }
    if (error !== undefined) {
      failures.push(`render failed: ${error}`);
      break;
    }
    const failure = checkRenderAssertion(a, rendered!);
    if (failure) failures.push(failure);
  }
  return failures;
}

function describeSelector(sel: ObjectSelector): string {
  const labels = sel.labels ? ` ${JSON.stringify(sel.labels)}` : '';
  return `${sel.kind}${sel.name !== undefined ? `/${sel.name}` : ''}${labels}`;
}

function selects(sel: ObjectSelector, obj: unknown): boolean {
  if (!isMap(obj) || obj.kind !== sel.kind) return false;
  if (sel.apiVersion !== undefined && obj.apiVersion !== sel.apiVersion) return false;
  const meta = isMap(obj.metadata) ? obj.metadata : {};
  if (sel.name !== undefined && meta.name !== sel.name) return false;
  if (sel.labels) {
    const labels = isMap(meta.labels) ? meta.labels : {};
    for (const [k, v] of Object.entries(sel.labels)) if (labels[k] !== v) return false;
  }
  return true;
}

function checkRenderAssertion(a: RenderAssertion, rendered: unknown[]): string | undefined {
  const sel = a.object!;
  const matching = rendered.filter(o => selects(sel, o));
  if (a.count !== undefined) {
    return matching.length === a.count ? undefined : `${describeSelector(sel)}: expected ${a.count} object(s), got ${matching.length}`;
  }
  if (matching.length !== 1) {
    const names = rendered.filter(isMap).map(o => `${o.kind}/${isMap(o.metadata) ? o.metadata.name : '?'}`);
    return `${describeSelector(sel)}: expected exactly one object, got ${matching.length} (rendered: ${names.join(', ')})`;
  }
  const where = `${describeSelector(sel)} ${a.path}`;
  const { values, fanned } = getPathValues(matching[0], a.path!);
  if (fanned && values.length === 0) return `${where}: no element matched`;
  const other = a.sameAs !== undefined ? getPath(matching[0], a.sameAs) : undefined;
  for (const [i, value] of values.entries()) {
    const failure = checkValue(a, value, fanned ? `${where} (value ${i + 1} of ${values.length})` : where, other);
    if (failure) return failure;
  }
  return undefined;
}

function checkValue(a: RenderAssertion, value: unknown, where: string, other: unknown): string | undefined {
  if (a.sameAs !== undefined) {
    if (value === undefined || value === null) return `${where}: expected a value (the same as ${a.sameAs}), got nothing`;
    return deepEqual(value, other) ? undefined : `${where}: expected the value at ${a.sameAs} (${show(other)}), got ${show(value)}`;
  }
  if ('equals' in a) {
    return deepEqual(value, a.equals) ? undefined : `${where}: expected ${show(a.equals)}, got ${show(value)}`;
  }
  if (a.absent !== undefined) {
    const isAbsent = value === undefined || value === null;
    return isAbsent === a.absent ? undefined : `${where}: expected ${a.absent ? 'nothing' : 'a value'}, got ${show(value)}`;
  }
  if (a.present !== undefined) {
    const isPresent = value !== undefined && value !== null;
    return isPresent === a.present ? undefined : `${where}: expected ${a.present ? 'a value' : 'nothing'}, got ${show(value)}`;
  }
  if ('includes' in a) {
    return includes(value, a.includes) ? undefined : `${where}: expected to include ${show(a.includes)}, got ${show(value)}`;
  }
  if (a.textContains !== undefined) {
    if (typeof value !== 'string') return `${where}: expected a string, got ${show(value)}`;
    const missing = a.textContains.filter(t => !value.includes(t));
    return missing.length === 0 ? undefined : `${where}: missing ${show(missing)} in ${show(value)}`;
  }
  if (a.contains !== undefined || a.notContains !== undefined) {
    if (value !== undefined && !Array.isArray(value)) return `${where}: expected a list, got ${show(value)}`;
    const list = (value ?? []) as unknown[];
    if (a.contains) {
      const missing = a.contains.filter(item => !list.some(el => includes(el, item)));
      return missing.length === 0 ? undefined : `${where}: missing ${show(missing)} in ${show(list)}`;
    }
    const found = a.notContains!.filter(item => list.some(el => includes(el, item)));
    return found.length === 0 ? undefined : `${where}: expected none of ${show(found)} in ${show(list)}`;
  }
  return `${where}: no check`;
}

// ---------------------------------------------------------------------------------------------
// Admission

function runAdmission(s: OperatorScenario): string[] {
  const options = validateOptionsFor(settings(s.operator));
  const doc = withNamespace(s.input[0], s.namespace);
  const violations = s.admission === 'update'
    ? validateUpdate(withNamespace(s.old, s.namespace), doc, { ...options, ...(s.request ?? {}) })
    : validateDocument(doc, options);
  const failures: string[] = [];
  const listed = () => (violations.length === 0 ? 'none' : violations.map(showViolation).join('; '));
  for (const a of s.expect) {
    if (a.accepted !== undefined) {
      if (a.accepted && violations.length > 0) failures.push(`expected the object to be accepted; violations: ${listed()}`);
      if (!a.accepted && violations.length === 0) failures.push('expected the object to be rejected; no violation');
    } else if (a.violation) {
      if (!violations.some(v => violationMatches(v, a.violation!))) {
        failures.push(`expected a violation ${show(a.violation)}; violations: ${listed()}`);
      }
    } else if (a.noViolation) {
      const hit = violations.filter(v => violationMatches(v, a.noViolation!));
      if (hit.length > 0) failures.push(`expected no violation ${show(a.noViolation)}; got ${hit.map(showViolation).join('; ')}`);
    }
  }
  return failures;
}

function violationMatches(v: Violation, m: ViolationMatcher): boolean {
  return (m.path === undefined || v.path === m.path)
    && (m.message === undefined || v.message.includes(m.message))
    && (m.rule === undefined || v.rule === String(m.rule));
}

function showViolation(v: Violation): string {
  return `${v.path || '(object)'}: ${v.message} (rule ${v.rule})`;
}

// ---------------------------------------------------------------------------------------------
// Paths and values

type Segment =
  | { key: string }
  | { index: number }
  | { field: string; value: string }
  | { all: true }
  | { field: string; contains: string; negated: boolean };

/** Parses `a.b[0][name=main]["x.y/z"][*][name~=gms]` into segments. */
export function parsePath(p: string): Segment[] {
  const out: Segment[] = [];
  let i = 0;
  const bad = (why: string): never => {
    throw new Error(`bad path ${JSON.stringify(p)} at ${i}: ${why}`);
  };
  while (i < p.length) {
    const c = p[i];
    if (c === '.') {
      if (i === 0 || i === p.length - 1) bad('a dot at an end');
      i++;
      continue;
    }
    if (c === '[') {
      const end = p.indexOf(']', i);
      if (end < 0) bad('no closing ]');
      const inner = p.slice(i + 1, end);
      let m: RegExpExecArray | null;
      if (inner.startsWith('"')) {
        if (!inner.endsWith('"') || inner.length < 2) bad('unterminated quoted key');
        out.push({ key: inner.slice(1, -1) });
      } else if (/^[0-9]+$/.test(inner)) {
        out.push({ index: Number(inner) });
      } else if (inner === '*') {
        out.push({ all: true });
      } else if ((m = /^([A-Za-z0-9_]+)(!?)~=(.*)$/.exec(inner)) !== null) {
        out.push({ field: m[1], contains: m[3], negated: m[2] === '!' });
      } else if ((m = /^([A-Za-z0-9_]+)=(.*)$/.exec(inner)) !== null) {
        out.push({ field: m[1], value: m[2] });
      } else {
        bad(`unknown selector [${inner}]`);
      }
      i = end + 1;
      continue;
    }
    let j = i;
    while (j < p.length && p[j] !== '.' && p[j] !== '[') j++;
    out.push({ key: p.slice(i, j) });
    i = j;
  }
  return out;
}

/**
 * The values a path reaches: one (possibly undefined) for a plain path, any number for a path that
 * fans out over a list (`fanned`).
 */
export function getPathValues(root: unknown, p: string): { values: unknown[]; fanned: boolean } {
  let current: unknown[] = [root];
  let fanned = false;
  for (const seg of parsePath(p)) {
    const next: unknown[] = [];
    for (const cur of current) {
      if ('key' in seg) {
        next.push(isMap(cur) ? cur[seg.key] : undefined);
      } else if ('index' in seg) {
        next.push(Array.isArray(cur) ? cur[seg.index] : undefined);
      } else if ('all' in seg) {
        if (Array.isArray(cur)) next.push(...cur);
      } else if ('contains' in seg) {
        if (Array.isArray(cur)) {
          next.push(...cur.filter(el => isMap(el) && String(el[seg.field]).includes(seg.contains) !== seg.negated));
        }
      } else {
        const hits = Array.isArray(cur) ? cur.filter(el => isMap(el) && String(el[seg.field]) === seg.value) : [];
        if (hits.length > 1) throw new Error(`path ${p}: ${hits.length} elements have ${seg.field}=${seg.value}`);
        next.push(hits[0]);
      }
    }
    if ('all' in seg || 'contains' in seg) fanned = true;
    current = next;
  }
  return { values: current, fanned };
}

/** The value at a path without fan-out, undefined when any step is missing. */
export function getPath(root: unknown, p: string): unknown {
  const { values, fanned } = getPathValues(root, p);
  if (fanned) throw new Error(`path ${p} fans out; use getPathValues`);
  return values[0];
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a).filter(k => a[k] !== undefined);
    const kb = Object.keys(b).filter(k => b[k] !== undefined);
    return ka.length === kb.length && ka.every(k => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}

/** Whether `actual` includes `expected`: maps by every given key (recursively), anything else by equality. */
export function includes(actual: unknown, expected: unknown): boolean {
  if (isMap(expected)) {
    return isMap(actual) && Object.entries(expected).every(([k, v]) => includes(actual[k], v));
  }
  return deepEqual(actual, expected);
}

function show(v: unknown): string {
  const text = JSON.stringify(v);
  return text === undefined ? 'undefined' : text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

/** Pass/fail of a set of results, known mismatches counted apart. */
export interface ScenarioSummary {
  /** Scenarios without knownMismatch that pass. */
  readonly passed: number;
  /** Scenarios without knownMismatch that fail. */
  readonly failed: number;
  /** Scenarios with knownMismatch that fail, as expected. */
  readonly knownMismatches: number;
  /** Scenarios with knownMismatch that pass: the mark must be removed. */
  readonly unexpectedlyPassing: number;
}

export function summarize(results: readonly ScenarioResult[]): ScenarioSummary {
  let passed = 0; let failed = 0; let knownMismatches = 0; let unexpectedlyPassing = 0;
  for (const r of results) {
    const ok = r.failures.length === 0;
    if (r.scenario.knownMismatch) {
      if (ok) unexpectedlyPassing++;
      else knownMismatches++;
    } else if (ok) {
      passed++;
    } else {
      failed++;
    }
  }
  return { passed, failed, knownMismatches, unexpectedlyPassing };
}
