/**
 * Admission at scale against the operator's own admission (the oracle's `admit` mode,
 * test/fixtures/oracle/tools): the seeded cases, our verdict on each as `validate` reaches it, and
 * the comparison of the two.
 *
 * A case is one document admitted on create by an operator with or without Grove. The cases:
 * admissible graphs (fuzz-graphs.ts), standalone DynamoComponentDeployments made of their
 * components, the named mutations of fuzz-mutations.ts, and the deterministic mutants of
 * mutants.ts (nulls, wrong types, unknown fields, removed fields, repeated items, malformed values,
 * too large integers) of graphs and of DCDs.
 *
 * The API server stops at the first admission step that refuses an object and reports only that
 * step's errors: strict decoding (unknown fields), decoding by the operator's webhooks (a value of
 * the wrong type: Go's JSON decoder names the first one, without list indices), the CRD's schema
 * and object metadata (CEL rules only when the schema found no error), then the validating
 * webhook. Our violations are sorted into the same steps, and the field paths of our first step
 * are compared with the oracle's.
 */
import * as fs from 'fs';
import * as zlib from 'zlib';
import * as fc from 'fast-check';
import { fuzzGraph } from './fuzz-graphs';
import { mutatedGraph } from './fuzz-mutations';
import { mutants } from './mutants';
import {
  componentWorkloadRecords, defaultComponentDeployment, defaultGraphDeployment, graphWorkloadRecords,
  pathwayOf, QUANTITY_FORMAT_MESSAGE, ruleDoc,
} from '../../src/admission';
import { DEFAULT_OPERATOR_SETTINGS, isMap } from '../../src/model';
import { checkAndRender } from '../../src/pipeline/check-and-render';

/** One document admitted on create by an operator with or without Grove. */
export interface AdmissionCase {
  /** Stable id: `<origin>-<mode>-<n>`. */
  readonly id: string;
  /** Where the document comes from: `valid`, `dcd`, `mutation:<name>`, `mutant`, `dcd-mutant`. */
  readonly origin: string;
  readonly grove: boolean;
  readonly doc: any;
}

/** A field error as the oracle reports it. */
export interface OracleFieldError {
  readonly field: string;
  readonly type: string;
  readonly detail?: string;
}

/** The oracle's verdict on one document. */
export interface OracleVerdict {
  readonly accepted: boolean;
  /** The admission step that refused it: unknown-fields, metadata, decode, defaulting-webhook, crd-validation, validating-webhook. */
  readonly stage?: string;
  readonly errors?: readonly OracleFieldError[];
  readonly message?: string;
}

/** Admission steps, in the API server's order. */
export type Step = 'metadata' | 'unknown-fields' | 'decode' | 'crd-validation' | 'validating-webhook';

/** Our verdict, sorted into the API server's steps. */
export interface OurVerdict {
  readonly accepted: boolean;
  /** The first step with a violation. */
  readonly step?: Step;
  /** The field paths of that step's violations (for `decode`: every wrong-type path, indices removed). */
  readonly paths: readonly string[];
  /** The messages of that step's violations. */
  readonly messages: readonly string[];
  /** Violations about the objects the operator would create (rule `apiserver` outside the document's own admission). */
  readonly downstream: readonly string[];
}

/** The seed of the recorded cases. */
export const ADMISSION_SEED = 20260821;

function json<T>(v: T): T {
  return JSON.parse(JSON.stringify(v));
}

/** A standalone DCD made of component `index` of a graph. */
export function componentAsDcd(graph: any, index: number): any {
  const components = graph.spec.components as any[];
  const c = json(components[index % components.length]);
  delete c.providerOverride;
  const spec: any = { ...c };
  if (graph.spec.backendFramework !== undefined) spec.backendFramework = graph.spec.backendFramework;
  const name = `${graph.metadata.name}-${String(c.name ?? 'c').toLowerCase()}`.slice(0, 63).replace(/-+$/, '');
  return { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name }, spec };
}

function withoutRoles<T>(graph: T): T {
  const copy: any = json(graph);
  const list = copy?.spec?.components;
  if (Array.isArray(list)) for (const c of list) if (c && typeof c === 'object') delete c.roles;
  return copy;
}

/** Every seeded case, in a fixed order (the same for the same seed). */
export function admissionCases(seed = ADMISSION_SEED): AdmissionCase[] {
  const out: AdmissionCase[] = [];
  const add = (origin: string, grove: boolean, doc: any): void => {
    // the API server routes by apiVersion and kind: a document without them is not a Dynamo object to admit
    if (doc?.apiVersion !== 'nvidia.com/v1beta1' || !['DynamoGraphDeployment', 'DynamoComponentDeployment'].includes(doc?.kind)) return;
    const n = out.filter(c => c.origin === origin && c.grove === grove).length;
    out.push({ id: `${origin}-${grove ? 'grove' : 'nogrove'}-${String(n).padStart(4, '0')}`, origin, grove, doc: json(doc) });
  };
  const plain = fc.sample(fuzzGraph(false), { seed, numRuns: 300 });
  const grove = fc.sample(fuzzGraph(true), { seed: seed + 1, numRuns: 300 });
  // without `roles`: the operator's CRD of 2a6da14c8 has none (the library's CRDs have the newer API
  // shape of the v1beta1 DCD reference); only the named role mutations below add them
  const graphs = [...plain, ...grove].map(g => ({ ...g, graph: withoutRoles(g.graph) }));
  // admissible graphs, each with and without Grove (a Grove-only graph is refused without it)
  for (const g of graphs) for (const mode of [false, true]) add('valid', mode, g.graph);
  // standalone DCDs of their components, both modes
  graphs.forEach((g, i) => {
    if (i % 2 === 0) for (const mode of [false, true]) add('dcd', mode, componentAsDcd(g.graph, i));
  });
  // the named mutations: every name at least a few times, then random ones
  const named = fc.sample(mutatedGraph, { seed: seed + 2, numRuns: 1500 });
  for (const m of named) add(`mutation:${m.mutation}`, m.grove, /^role/.test(m.mutation) ? m.graph : withoutRoles(m.graph));
  // deterministic mutants of graphs and of DCDs
  graphs.slice(0, 60).forEach((g, i) => {
    for (const m of mutants(g.graph, 30)) add('mutant', (i + out.length) % 2 === 0, m);
  });
  graphs.slice(300, 330).forEach((g, i) => {
    for (const m of mutants(componentAsDcd(g.graph, i), 30)) add('dcd-mutant', (i + out.length) % 2 === 0, m);
  });
  return out;
}

const STRUCTURAL_STEPS: Record<string, Step> = {
  schema: 'crd-validation',
  cel: 'crd-validation',
  apiserver: 'crd-validation',
  webhook: 'validating-webhook',
  update: 'validating-webhook',
};

/** The CRD's quantity pattern, in our message of a malformed quantity. */
const QUANTITY_PATTERN = /should match '\^\(\\\+\|-\)\?\(\(\[0-9\]\+/;

function stepOf(v: { path: string; rule: string; message: string; structural?: boolean }): Step {
  // ObjectMeta is read before anything else: a value of the wrong type there refuses the object at `metadata`
  if (v.structural && / must be of type /.test(v.message) && /^metadata\./.test(v.path)) return 'metadata';
  if (v.message.startsWith('unknown field')) return 'unknown-fields';
  // the webhooks read the object into Go types first: a wrong type, an integer beyond int32, or a
  // quantity Go cannot parse refuses it there
  if (/ must be of type /.test(v.message) || QUANTITY_PATTERN.test(v.message) || v.message.includes(QUANTITY_FORMAT_MESSAGE)) return 'decode';
  // the schema's own words (a required field), whatever row the field belongs to
  if (v.rule === 'schema' || v.rule === 'apiserver' || v.rule === 'cel' || v.message === 'Required value') return 'crd-validation';
  const stage = ruleDoc(v.rule)?.stage;
  return (stage && STRUCTURAL_STEPS[stage]) ?? 'validating-webhook';
}

function isCel(v: { rule: string }): boolean {
  return v.rule === 'cel' || ruleDoc(v.rule)?.stage === 'cel';
}

/** The violations about objects the operator creates, which the document's own admission does not see. */
function downstreamKeys(doc: any, grove: boolean, version: string): Set<string> {
  const keys = new Set<string>();
  try {
    if (!isMap(doc)) return keys;
    const options = { version, groveAvailable: grove };
    let records: readonly { path: { toString(): string }; message: string }[] = [];
    if (doc.kind === 'DynamoGraphDeployment') {
      const { doc: admitted, provider } = defaultGraphDeployment(doc, options);
      records = graphWorkloadRecords(admitted, pathwayOf(provider).grovePathway);
    } else if (doc.kind === 'DynamoComponentDeployment') {
      records = componentWorkloadRecords(defaultComponentDeployment(doc));
    }
    for (const r of records) keys.add(`${r.path.toString()}\u0000${r.message}`);
  } catch {
    // a document the defaulting cannot read has no downstream objects
  }
  return keys;
}

/** Our verdict on a case, from the checks `validate` runs (checkAndRender), sorted into steps. */
export function ourVerdict(c: Pick<AdmissionCase, 'doc' | 'grove'>, version = DEFAULT_OPERATOR_SETTINGS.version): OurVerdict {
  const settings = { ...DEFAULT_OPERATOR_SETTINGS, version, groveAvailable: c.grove };
  const result = checkAndRender([{ documents: [json(c.doc)] }], { settings, checkOtherObjects: true });
  const downstream = downstreamKeys(c.doc, c.grove, version);
  type Found = { path: string; message: string; rule: string; structural?: boolean };
  const violations = result.problems.flatMap(p => (p.violation ? [p.violation as Found] : []));
  const own = violations.filter(v => !downstream.has(`${v.path}\u0000${v.message}`));
  const down = violations.filter(v => downstream.has(`${v.path}\u0000${v.message}`)).map(v => v.path);
  const others = result.problems.filter(p => !p.violation);
  if (own.length === 0 && others.length === 0) return { accepted: true, paths: [], messages: [], downstream: down };
  const order: Step[] = ['metadata', 'unknown-fields', 'decode', 'crd-validation', 'validating-webhook'];
  const step = order.find(s => own.some(v => stepOf(v) === s)) ?? 'validating-webhook';
  let inStep = own.filter(v => stepOf(v) === step);
  // CEL rules run only on an object the schema found no error in
  if (step === 'crd-validation' && inStep.some(v => !isCel(v))) inStep = inStep.filter(v => !isCel(v));
  const paths = step === 'metadata' ? ['metadata']
    : step === 'decode' ? inStep.map(v => v.path.replace(/\[[^\]]*\]/g, ''))
      : inStep.map(v => v.path);
  return { accepted: false, step, paths: [...new Set(paths)].sort(), messages: inStep.map(v => v.message), downstream: down };
}

/** The oracle's field paths; for a decoding error, the path Go's JSON decoder names. */
export function oraclePaths(o: OracleVerdict): string[] {
  if (o.stage === 'decode') {
    // `Go struct field T.spec.Embedded.replicas`: the JSON path, without Go type names of embedded structs
    const m = /Go struct field [A-Za-z0-9_]+\.(\S+) of type/.exec(o.message ?? '');
    return m ? [m[1].split('.').filter(p => !/^[A-Z]/.test(p)).join('.')] : [];
  }
  return [...new Set((o.errors ?? []).map(e => e.field))].sort();
}

/** How ours and the oracle's verdicts compare: `agree`, or the kind of disagreement. */
export type Agreement = 'agree' | 'ours-accepts' | 'ours-refuses' | 'other-step' | 'other-paths';

export function compareVerdicts(ours: OurVerdict, oracle: OracleVerdict): Agreement {
  if (ours.accepted && oracle.accepted) return 'agree';
  if (ours.accepted) return 'ours-accepts';
  if (oracle.accepted) return 'ours-refuses';
  const stage = oracle.stage === 'defaulting-webhook' ? 'decode' : oracle.stage;
  if (ours.step !== stage) return 'other-step';
  const theirs = oraclePaths(oracle);
  if (stage === 'decode') return theirs.every(p => ours.paths.includes(p)) ? 'agree' : 'other-paths';
  return JSON.stringify(theirs) === JSON.stringify(ours.paths) ? 'agree' : 'other-paths';
}

/**
 * The known kinds of disagreement, each with what it is; `classify` sorts a disagreeing case into
 * one of them (`unexplained` when none fits).
 */
export const DISAGREEMENT_KINDS: Readonly<Record<string, string>> = {
  'roles-not-in-operator-crd':
    'components[].roles: the library follows the API shape of the v1beta1 DCD reference (its CRDs have roles); the CRD of 2a6da14c8 has none, so its strict decoding refuses them as unknown',
  'null-becomes-zero-value':
    'a null (a list item, or a field the API server keeps, such as a container\'s name): the defaulting webhook reads the object into Go types and patches it back, so the null becomes its zero value ("" or an empty container) that the schema and the webhook then judge; ours refuses the null itself',
  'list-map-duplicates-not-checked-by-oracle':
    'a duplicate key of a list-map (component names, container names): the API server reports it (Duplicate value, not a blocking error); the oracle does not run the list-type check (apiextensions-apiserver schema/listtype), so it reports only the other errors',
  'zero-value-fills-required-field':
    'a required field left out of a Kubernetes struct that Go always writes (the name of an env var or a container, the key of a secretKeyRef or configMapRef): the webhook\'s round trip fills it with "", which the schema accepts (the operator\'s own objects would then be refused); ours refuses the missing field',
  'oracle-replaces-non-object-metadata':
    'metadata that is not an object: the oracle replaces it by {} before admission (to set the namespace) and then finds no name; the API server cannot read such an object at all; ours refuses the metadata\'s type',
  'pod-spec-removed-becomes-empty-spec':
    'a pod template without `spec`: the webhook\'s round trip writes the Go struct\'s empty spec, whose missing containers the schema refuses (PodSpec requires them) before the webhook; ours reports the missing containers once, by the webhook\'s row 46',
  'cluster-topology-binding-absent':
    'a ClusterTopologyBinding the graph names is not in the (empty) cluster: the webhook refuses it; ours reports the rule as not checked (no cluster state given)',
  'unexplained': 'none of the above',
};

function hasNull(value: unknown): boolean {
  if (value === null) return true;
  if (typeof value === 'object') return Object.values(value as object).some(hasNull);
  return false;
}

/** The kind of a disagreement (see DISAGREEMENT_KINDS). */
export function classify(c: { readonly doc: any }, ours: OurVerdict, oracle: OracleVerdict): string {
  const theirs = oraclePaths(oracle);
  if (theirs.some(p => /\.roles(\.|\[|$)/.test(p))) return 'roles-not-in-operator-crd';
  if (theirs.some(p => p.endsWith('topologyConstraint.clusterTopologyName')) && !ours.paths.some(p => p.endsWith('clusterTopologyName'))) return 'cluster-topology-binding-absent';
  if (ours.messages.some(m => m.startsWith('Duplicate value'))) return 'list-map-duplicates-not-checked-by-oracle';
  if (c.doc?.metadata !== undefined && (typeof c.doc.metadata !== 'object' || c.doc.metadata === null || Array.isArray(c.doc.metadata))) return 'oracle-replaces-non-object-metadata';
  if (hasNull(c.doc)) return 'null-becomes-zero-value';
  if (oracle.stage === 'crd-validation' && (oracle.errors ?? []).some(e => e.type === 'FieldValueRequired' && e.field.endsWith('podTemplate.spec.containers'))
    && ours.step === 'validating-webhook' && ours.messages.includes('Required value: is required')) return 'pod-spec-removed-becomes-empty-spec';
  if (ours.paths.some(p => /\.(name|key)$/.test(p)) && ours.messages.includes('Required value')) return 'zero-value-fills-required-field';
  return 'unexplained';
}

/** A case with the oracle's verdict, as recorded in test/fixtures/oracle/admission-<version>.jsonl.gz. */
export interface RecordedAdmissionCase extends AdmissionCase {
  readonly oracle: OracleVerdict;
}

/** A recorded fixture: its first line is `{meta}`, then one case a line. */
export function readAdmissionFixture(file: string): { meta: any; cases: RecordedAdmissionCase[] } {
  const lines = zlib.gunzipSync(fs.readFileSync(file)).toString('utf8').split('\n').filter(l => l !== '');
  const [meta, ...cases] = lines.map(l => JSON.parse(l));
  return { meta: meta.meta, cases };
}

/** The known disagreements of a fixture, by kind: `admission-<version>.known.json` beside it. */
export function knownFile(fixture: string): string {
  return fixture.replace(/\.jsonl\.gz$/, '.known.json');
}

