/**
 * The one small facade the tests reach the library through when the public API (src/index.ts) or
 * the command line is not enough: operations, not re-exports of internal modules, so that the
 * library may move its modules without the tests following them. Each section is owned by the
 * tests it serves; its imports sit at its head under names of its own.
 */

// ---- admission, command line, import (testsB26) ----
import { runCliOn as runCliOnB } from './cli-in-process';
import * as settingsB from '../../src/engine/operator-settings';
import * as yamlB from '../../src/import/documents';
import * as indexB from '../../src/index';
import * as pipelineB from '../../src/pipeline/check-and-render';

/** The operator fields a test sets (the others those of a default platform install). */
export type OperatorFields = Partial<settingsB.OperatorSettings>;

/** One broken rule, as the pipeline reports it (`formatted`: the line the command prints after the file name). */
export interface Refusal {
  readonly kind: string;
  readonly name: string;
  readonly path: string;
  readonly component?: string;
  readonly value?: unknown;
  readonly message: string;
  readonly rule: string;
  readonly structural?: boolean;
  readonly suggestion?: string;
  readonly expression?: string;
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

/** The full operator settings of `fields` (a default platform install for what is not set). */
export function operatorSettings(fields: OperatorFields = {}): settingsB.OperatorSettings {
  return settingsB.resolveOperatorSettings(fields);
}

/**
 * Every rule the operator's admission (webhook and CRD) refuses `doc` by on create (or, with `old`,
 * on update): the violations the pipeline reports for the document, in its order. Empty: admitted.
 */
export function admissionRefusals(doc: unknown, options: AdmitOptions = {}): Refusal[] {
  const documents = [doc, ...(options.cluster ?? [])];
  const update = options.old === undefined ? undefined : { olds: [options.old], oldFile: 'old.yaml', requester: options.requester };
  const result = pipelineB.checkAndRender([{ documents }], { settings: operatorSettings(options.operator), update });
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
  const result = pipelineB.checkAndRender([{ documents: [object] }], { settings: operatorSettings(), output: 'graph', admission: false, checkRendered: true });
  return refusalsOf(result.problems);
}

/** The API server's refusals of `object`, one line each. */
export function apiServerLines(object: unknown): string[] {
  return apiServerRefusals(object).map(r => r.formatted);
}

function refusalsOf(problems: readonly pipelineB.Problem[]): Refusal[] {
  return problems.map(p => {
    if (p.violation === undefined) throw new Error(`not a broken rule: ${pipelineB.formatProblem(p)}`);
    return { ...p.violation, formatted: pipelineB.formatProblem(p) };
  });
}

/**
 * The documents of a YAML text as the command reads them, that is as `kubectl` does (`readAs:
 * 'yaml-1.2'` for files written by YAML 1.2 tools); throws on text it refuses.
 */
export function readDocuments(text: string, source = 'input', options: { readonly readAs?: 'kubectl' | 'yaml-1.2'; readonly allowEmpty?: boolean } = {}): any[] {
  return yamlB.parseYamlDocuments(text, source, options) as any[];
}

/** Documents written as the command writes them (one YAML text, `---` between documents). */
export function writeDocuments(docs: readonly unknown[]): string {
  return yamlB.stringifyYamlDocuments(docs);
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
export function validationPluginSettings(properties: Readonly<Record<string, unknown>>, baseDir: string): settingsB.OperatorSettings {
  const previous = process.cwd();
  process.chdir(baseDir);
  try {
    const plugin = new indexB.DynamoValidationPlugin(properties as indexB.DynamoValidationPluginProps);
    return (plugin as unknown as { readonly settings: settingsB.OperatorSettings }).settings;
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
  const result = pipelineB.checkAndRender([{ documents }], { settings: operatorSettings(options.operator), reportUnchecked: true });
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
  const r = runCliOnB({ 'input.yaml': yamlB.stringifyYamlDocuments([doc]) }, ['convert', 'input.yaml']);
  const lines = messageLines(r.stderr);
  if (r.code !== 0) return { problems: lines, notices: [] };
  return { document: yamlB.parseYamlDocuments(r.stdout, 'converted')[0], problems: [], notices: lines };
}

/** The lines of a command's standard error, each without the `FILE:LINE:COLUMN: ` it starts with. */
function messageLines(stderr: string): string[] {
  return stderr.split('\n').filter(line => line !== '').map(line => line.replace(/^input\.yaml(:\d+:\d+)?: /, ''));
}

/** `cdk8s-dynamo validate` of documents given as objects: exit code and the messages without file positions. */
export function validateDocuments(docs: readonly unknown[], ...flags: string[]): { code: number; lines: string[] } {
  const r = runCliOnB({ 'input.yaml': yamlB.stringifyYamlDocuments(docs) }, ['validate', '--quiet', ...flags, 'input.yaml']);
  return { code: r.code, lines: messageLines(r.stderr) };
}

/** How documents are rendered by `renderAs`. */
export interface RenderAs {
  readonly output: 'graph' | 'components' | 'workloads';
  readonly operator?: OperatorFields;
  readonly namespace?: string;
  /**
   * Whether a Dynamo document is admitted before it is rendered (components and workloads output);
   * false renders what the operator would refuse, to pin what the engine makes of it.
   * @default true
   */
  readonly admission?: boolean;
}

/**
 * The objects the documents render to (not checked as the API server would check them). Throws the
 * error the pipeline reports when a document cannot be rendered (its `name` is `RenderError`): an
 * object the operator cannot name, a refused document, a setting it cannot render with.
 */
export function renderAs(docs: readonly unknown[], options: RenderAs): any[] {
  const { output, operator, namespace, admission } = options;
  return pipelineB.renderDocuments(docs, { output, operator, namespace, checkAdmission: admission });
}

/** Every problem admission finds in the documents of one file (each document checked, the others its cluster state), one line each. */
export function problemLines(docs: readonly unknown[], operator: OperatorFields = {}): string[] {
  return pipelineB.checkAndRender([{ documents: docs }], { settings: operatorSettings(operator) }).problems.map(pipelineB.formatProblem);
}
