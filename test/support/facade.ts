/**
 * The tests' door to the library's operations (render, admit, resolve settings), not modules: a test
 * that cannot go through the public API (`src/index.ts`: the constructs and `DynamoDocuments`) goes
 * through here, so that moving a file inside `src/` changes this file and not the tests. (A test of
 * one part of a layer imports the layer's surface, its `index.ts`; test/test-imports.test.ts lists
 * every door.) Keep it small: add an operation only when several tests need it.
 */
import { runCliOn as runCliOnB } from './cli-in-process';
import { admitNewComponent, admitNewGraph } from '../../src/admission';
import { lastAppliedHash as hashOf } from '../../src/engine';
import { parseYamlDocuments, stringifyYamlDocuments } from '../../src/import';
import { DynamoValidationPlugin, DynamoValidationPluginProps } from '../../src/index';
import { type DcdJson, type DgdJson, type EmittedViolation, OperatorSettings, RenderError, resolveOperatorSettings } from '../../src/model';
import { checkAndRender, formatProblem, OutputMode, Problem, renderDocuments } from '../../src/pipeline/check-and-render';

export { checkAndRender, formatProblem } from '../../src/pipeline/check-and-render';
export type { OutputMode, Problem } from '../../src/pipeline/check-and-render';
export type { OperatorSettings } from '../../src/model';
export { RenderError };
export type { DcdJson, DgdJson, JsonObject } from '../../src/model';

// ---------------------------------------------------------------------------------------------
// Rendering (the engine behind the pipeline)
// ---------------------------------------------------------------------------------------------

/** How to render: the output (default `workloads`), the operator and the namespace of objects that name none. */
export interface RenderWith {
  /** @default 'workloads' */
  readonly output?: OutputMode;
  /** The operator installation; what is left out is the Helm default (see `settings`). */
  readonly settings?: Partial<OperatorSettings>;
  /** @default - objects the operator creates are in `default` */
  readonly namespace?: string;
  /**
   * Whether a Dynamo document is admitted before it is rendered (components and workloads output);
   * false renders what the operator would refuse, to pin what the engine makes of it (`renderUnchecked`).
   * @default true
   */
  readonly admission?: boolean;
}

/**
 * The objects one document (or a list of documents) renders to: each Dynamo document is admitted
 * as the operator admits it on create first, and one the operator would refuse is a RenderError
 * listing its violations (unlike `cdk8s-dynamo render`, the rendered objects are not checked as
 * the API server would check them).
 */
export function render(docs: unknown | readonly unknown[], options: RenderWith = {}): any[] {
  return renderDocuments(asList(docs), {
    output: options.output ?? 'workloads', operator: options.settings, namespace: options.namespace, checkAdmission: options.admission,
  }) as any[];
}

/**
 * `render` without the admission check: for the tests that pin how the engine handles input the
 * operator would refuse (no cluster would hold the result).
 */
export function renderUnchecked(docs: unknown | readonly unknown[], options: RenderWith = {}): any[] {
  return render(docs, { ...options, admission: false });
}

/** The RenderError `fn` throws (returning, or throwing anything else, fails the test). */
export function renderError(fn: () => unknown): RenderError {
  try {
    fn();
  } catch (e) {
    if (e instanceof RenderError) return e;
    throw e;
  }
  throw new Error('expected a RenderError');
}

/**
 * The `nvidia.com/last-applied-hash` the operator stamps on an object it creates (computed from
 * the object itself, so a test can check a rendered object carries the hash of what it holds).
 * `untyped`: hash the object as plain JSON, not through the Go type the operator hashes.
 */
export function lastAppliedHash(object: unknown, how: { untyped?: boolean } = {}): string {
  return hashOf(object as any, how.untyped ? { layout: null } : {});
}

/**
 * The worker hash the operator computes for a new graph (over its worker components as admission
 * stored them), read off the DynamoComponentDeployments it generates for it (the graph is rendered
 * on the component path whatever `partial` says of Grove; it is not checked).
 */
export function workerHashOf(dgd: unknown, partial: Partial<OperatorSettings> = {}): string {
  const dcds = renderUnchecked(dgd, { output: 'components', settings: { ...partial, groveAvailable: false }, namespace: 'ns' });
  const hash = dcds.map(d => d.metadata?.labels?.['nvidia.com/dynamo-worker-hash']).find(h => h !== undefined);
  if (hash === undefined) throw new Error('the graph has no worker component');
  return hash;
}

// ---------------------------------------------------------------------------------------------
// Admission and settings
// ---------------------------------------------------------------------------------------------

/** Operator settings: `partial` over the defaults of a default platform install. */
export function settings(partial: Partial<OperatorSettings> = {}): OperatorSettings {
  return resolveOperatorSettings(partial);
}

/**
 * The problems the operator (and the API server) find in documents created together, as
 * `cdk8s-dynamo validate` finds them: empty when every document would be admitted. The documents
 * are also the cluster state admission may read (a DeviceClass, a ClusterTopologyBinding).
 */
export function admit(docs: unknown | readonly unknown[], partial: Partial<OperatorSettings> = {}): Problem[] {
  return checkAndRender([{ documents: asList(docs) }], { settings: settings(partial) }).problems;
}

/**
 * A new graph as admission stores it on create (defaults filled in, the operator's origin-version
 * annotation set), without checking it: what the operator's controllers then read.
 */
export function storedGraph(dgd: DgdJson, partial: Partial<OperatorSettings> = {}): DgdJson {
  return admitNewGraph(dgd, settings(partial));
}

/** A new standalone DynamoComponentDeployment as admission stores it on create, without checking it. */
export function storedComponent(dcd: DcdJson): DcdJson {
  return admitNewComponent(dcd);
}

function asList(docs: unknown | readonly unknown[]): readonly unknown[] {
  return Array.isArray(docs) ? docs : [docs];
}

// ---------------------------------------------------------------------------------------------
// Looking things up in rendered objects
// ---------------------------------------------------------------------------------------------

/** The one rendered object of `kind` (named `name`, or whose name starts with `name-` as a worker DCD's hash suffix does). */
export function objectOf(objects: readonly any[], kind: string, name?: string): any {
  const found = objects.filter(o => o.kind === kind && (name === undefined || o.metadata?.name === name || o.metadata?.name?.startsWith(`${name}-`)));
  const exact = found.filter(o => o.metadata?.name === name);
  const one = exact.length === 1 ? exact : found;
  if (one.length !== 1) throw new Error(`expected one ${kind}${name === undefined ? '' : ` named ${name}`}, found ${one.length}`);
  return one[0];
}

/**
 * The pod template of the workload a DynamoComponentDeployment renders to (its Deployment's, or its
 * LeaderWorkerSet's leader template), as the operator sends it. `ownerGraph` names the graph that
 * owns the DCD (an owner reference, as on the DCDs a graph generates). Not checked.
 */
export function podTemplateOf(dcd: DcdJson, partial: Partial<OperatorSettings> = {}, ownerGraph?: string): any {
  const owned = ownerGraph === undefined ? dcd
    : { ...dcd, metadata: { ...dcd.metadata, ownerReferences: [{ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: ownerGraph, uid: '' }] } };
  const objects = renderUnchecked(owned, { settings: partial });
  const lws = objects.find(o => o.kind === 'LeaderWorkerSet');
  return lws !== undefined ? lws.spec.leaderWorkerTemplate.leaderTemplate : objectOf(objects, 'Deployment').spec.template;
}

/**
 * The leader and worker pod specs of multinode component `component` (lowercase): the
 * LeaderWorkerSet's templates on the LWS path, the `<component>-ldr` / `-wkr` cliques on Grove.
 */
export function multinodePods(objects: readonly any[], component: string): { leader: any; worker: any } {
  const pcs = objects.find(o => o.kind === 'PodCliqueSet');
  if (pcs !== undefined) {
    const clique = (name: string) => {
      const found = pcs.spec.template.cliques.find((c: any) => c.name === name);
      if (!found) throw new Error(`no clique ${name}`);
      return found.spec.podSpec;
    };
    return { leader: clique(`${component}-ldr`), worker: clique(`${component}-wkr`) };
  }
  const lws = objectOf(objects, 'LeaderWorkerSet');
  return { leader: lws.spec.leaderWorkerTemplate.leaderTemplate.spec, worker: lws.spec.leaderWorkerTemplate.workerTemplate.spec };
}

/** The `main` container (always first) of a pod template or pod spec. */
export function mainOf(template: any): any {
  return (template.spec ?? template).containers[0];
}

/** A container's env as name → value (or valueFrom). */
export function envOf(container: any): Record<string, any> {
  return Object.fromEntries((container.env ?? []).map((e: any) => [e.name, e.value ?? e.valueFrom]));
}

// ---------------------------------------------------------------------------------------------
// Admission, the command line and import
// ---------------------------------------------------------------------------------------------

/** The operator fields a test sets (the others those of a default platform install). */
export type OperatorFields = Partial<OperatorSettings>;

/** One broken rule, as the pipeline reports it (`formatted`: the line the command prints after the file name). */
export interface Refusal extends EmittedViolation {
  readonly formatted: string;
}

/** How a document is admitted: by which operator, beside which cluster objects, as the update of which stored object. */
export interface AdmitOptions {
  readonly operator?: OperatorFields;
  /** Objects the cluster holds (ClusterTopologyBindings read while a new graph is admitted). */
  readonly cluster?: readonly unknown[];
  /** The object as stored: the document is checked as its update. */
  readonly old?: unknown;
  /** The user that submits the update. */
  readonly requester?: string;
}

/**
 * Every rule the operator's admission (webhook and CRD) refuses `doc` by on create (or, with `old`,
 * on update): the violations the pipeline reports for the document, in its order. Empty: admitted.
 */
export function admissionRefusals(doc: unknown, options: AdmitOptions = {}): Refusal[] {
  const documents = [doc, ...(options.cluster ?? [])];
  const update = options.old === undefined ? undefined : { olds: [options.old], oldFile: 'old.yaml', requester: options.requester };
  const result = checkAndRender([{ documents }], { settings: settings(options.operator), update });
  return refusalsOf(result.problems.filter(p => p.document === 0));
}

/** The admission refusals of `doc`, one line each (`Kind/name: path: message (rule N)`). */
export function admissionLines(doc: unknown, options: AdmitOptions = {}): string[] {
  return admissionRefusals(doc, options).map(r => r.formatted);
}

/**
 * What the API server refuses `object` (an object as the operator would create it, or a user would
 * apply it) by: the errors of its schema and metadata, each as a refusal.
 */
export function apiServerRefusals(object: unknown): Refusal[] {
  // the object passed through graph output unchanged and checked as the pipeline checks what it emits
  // (Dynamo objects too: the DynamoComponentDeployments a graph creates are checked so)
  const result = checkAndRender([{ documents: [object] }], { settings: settings(), output: 'graph', admission: false, checkRendered: true });
  return refusalsOf(result.problems);
}

/** The API server's refusals of `object`, one line each. */
export function apiServerLines(object: unknown): string[] {
  return apiServerRefusals(object).map(r => r.formatted);
}

function refusalsOf(problems: readonly Problem[]): Refusal[] {
  return problems.map(p => {
    if (p.violation === undefined) throw new Error(`not a broken rule: ${formatProblem(p)}`);
    return { ...p.violation, formatted: formatProblem(p) };
  });
}

/**
 * The documents of a YAML text as the command reads them, that is as `kubectl` does (`readAs:
 * 'yaml-1.2'` for files written by YAML 1.2 tools); throws on text it refuses.
 */
export function readDocuments(text: string, source = 'input', options: { readonly readAs?: 'kubectl' | 'yaml-1.2'; readonly allowEmpty?: boolean } = {}): any[] {
  return parseYamlDocuments(text, source, options) as any[];
}

/** Documents written as the command writes them (one YAML text, `---` between documents). */
export function writeDocuments(docs: readonly unknown[]): string {
  return stringifyYamlDocuments(docs);
}

/** `cdk8s-dynamo ARGV` run in process, `files` (path → text) the only readable files. */
export function cli(files: Readonly<Record<string, string>>, ...argv: string[]): { code: number; stdout: string; stderr: string } {
  return runCliOnB(files, argv);
}

/**
 * The operator settings a cdk8s validation plugin is configured with by its `properties` (files
 * named relative to `baseDir`, the folder `cdk8s synth` runs in): the public plugin constructed
 * there, its settings read back. Throws what the constructor throws for bad properties.
 */
export function validationPluginSettings(properties: Readonly<Record<string, unknown>>, baseDir: string): OperatorSettings {
  const previous = process.cwd();
  process.chdir(baseDir);
  try {
    const plugin = new DynamoValidationPlugin(properties as DynamoValidationPluginProps);
    return (plugin as unknown as { readonly settings: OperatorSettings }).settings;
  } finally {
    process.chdir(previous);
  }
}

/** An admission rule left unchecked for want of the cluster objects it reads, as the pipeline reports it. */
export interface UncheckedRules {
  readonly rules: readonly string[];
  readonly path: string;
  readonly message: string;
}

/** The rules admission could not check on `doc` (a new graph) for want of cluster state among `options.cluster`. */
export function uncheckedRules(doc: unknown, options: AdmitOptions = {}): UncheckedRules[] {
  const documents = [doc, ...(options.cluster ?? [])];
  const result = checkAndRender([{ documents }], { settings: settings(options.operator), reportUnchecked: true });
  return result.unchecked.filter(u => u.document === 0).map(u => ({ ...u.unchecked }));
}

/** What `cdk8s-dynamo convert` makes of one document: the converted document, or the problems that stop it; the notices either way. */
export interface Conversion {
  readonly document?: any;
  readonly problems: readonly string[];
  readonly notices: readonly string[];
}

/** `cdk8s-dynamo convert` of one document (v1alpha1 Dynamo documents become v1beta1, others pass), its messages without their file positions. */
export function convertDocument(doc: unknown): Conversion {
  const r = runCliOnB({ 'input.yaml': stringifyYamlDocuments([doc]) }, ['convert', 'input.yaml']);
  const lines = messageLines(r.stderr);
  if (r.code !== 0) return { problems: lines, notices: [] };
  return { document: parseYamlDocuments(r.stdout, 'converted')[0], problems: [], notices: lines };
}

/** The lines of a command's standard error, each without the `FILE:LINE:COLUMN: ` it starts with. */
function messageLines(stderr: string): string[] {
  return stderr.split('\n').filter(line => line !== '').map(line => line.replace(/^input\.yaml(:\d+:\d+)?: /, ''));
}

/** `cdk8s-dynamo validate` of documents given as objects: exit code and the messages without file positions. */
export function validateDocuments(docs: readonly unknown[], ...flags: string[]): { code: number; lines: string[] } {
  const r = runCliOnB({ 'input.yaml': stringifyYamlDocuments(docs) }, ['validate', '--quiet', ...flags, 'input.yaml']);
  return { code: r.code, lines: messageLines(r.stderr) };
}
