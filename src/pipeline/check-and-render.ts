/**
 * The one pipeline from documents to what the cluster would hold: every Dynamo document is checked
 * as the operator admits it (create, or update of a stored object), other objects of a kind the
 * library has a schema of are checked as the API server would (when asked), and — only when nothing
 * was refused — each input is rendered by the engine from the objects as admission stored them, and
 * what the operator would then create is checked as the API server would.
 *
 * The command line (`render`, `validate`, `diff`), the cdk8s validation plugin, the constructs and
 * `DynamoDocuments` all go through `checkAndRender` (the constructs through
 * `checkAndRenderDocument`, the same call for one document); each only words the problems for its
 * audience. A Dynamo document admission checks as new is defaulted once: the object admission
 * stored is the one rendered.
 */
import { checkEmittedObject, EmittedViolation, isEmittedKindChecked } from '../admission/emitted-admission';
import { admitNewComponent, admitNewGraph, storedGraphOf, validateOptionsFor } from '../admission/stored-object';
import { describeKey, documentKey, findOld } from '../admission/update/document-match';
import { UpdateOptions, validateUpdate } from '../admission/update-rules';
import { admitDocument, uncheckedClusterRules, UncheckedRule } from '../admission/validate';
import { DgdrJson } from '../dgdr/model';
import { admitDgdrDocument, isDgdr, renderDgdrDocument } from '../dgdr/pipeline';
import {
  InputClusterState, inputClusterState, isClusterStateDocument, renderComponentWorkloads, renderGraphComponents, renderGraphWorkloads,
} from '../engine/render';
import { isMap, JsonMap } from '../model/json';
import { copyJson } from '../model/json-copy';
import { DEFAULT_NAMESPACE, withNamespace } from '../model/namespace';
import { OperatorSettings, supportedOperatorSettings } from '../model/operator-settings';
import { OutputMode } from '../model/output-mode';
import { RenderError } from '../model/render-error';
import { DcdJson, DgdJson, isDcd, isDgd } from '../model/v1beta1';
import { formatViolation, Violation } from '../model/violation-report';

export type { OutputMode } from '../model/output-mode';
export { OUTPUT_MODES } from '../model/output-mode';
export { DEFAULT_NAMESPACE } from '../model/namespace';
export { isClusterStateDocument } from '../engine/render';

/** The documents of one input: a file, a synthesized manifest, a construct's document. */
export interface PipelineInput {
  readonly documents: readonly unknown[];
}

/** The stored objects an update is checked against (`validate --old`). */
export interface UpdateSource {
  /** The stored Dynamo objects; a document that matches one of them is checked as its update. */
  readonly olds: readonly unknown[];
  /** Where they were read from, for the message about a document that matches several. */
  readonly oldFile: string;
  /** The user that submits the update (`UpdateOptions.requester`). */
  readonly requester?: string;
}

export interface CheckAndRenderOptions {
  /** The operator the documents are admitted and rendered by. */
  readonly settings: OperatorSettings;
  /** What to render; absent: the documents are only checked. */
  readonly output?: OutputMode;
  /** Namespace of rendered objects that name none. */
  readonly namespace?: string;
  /**
   * Whether Dynamo documents are checked as the operator admits them. `false` renders documents the
   * operator would refuse (the engine's own tests pin how such input is handled). Default: true.
   */
  readonly admission?: boolean;
  /** Whether other input objects of a kind the library has a schema of are checked. Default: false. */
  readonly checkOtherObjects?: boolean;
  /** Whether the rendered objects are checked as the API server checks them. Default: workloads output. */
  readonly checkRendered?: boolean;
  /** Stored objects: a document that updates one of them is checked as an update. Default: every document is new. */
  readonly update?: UpdateSource;
  /** Whether to list the admission rules left unchecked for want of cluster state. Default: false. */
  readonly reportUnchecked?: boolean;
}

/** Something the cluster would refuse, or a document that cannot be rendered. */
export interface Problem {
  /** Index of the input it belongs to. */
  readonly input: number;
  /** Index of the input document it is about (absent: a rendered object of the input). */
  readonly document?: number;
  /** Index of the rendered object it is about, in the input's output (absent: an input document). */
  readonly object?: number;
  /** A broken admission rule (of an input document, or of a rendered object). */
  readonly violation?: EmittedViolation;
  /** A document the engine cannot render. */
  readonly renderError?: RenderError;
  /** Any other problem, as one line (a document that matches several stored objects). */
  readonly message?: string;
}

/** A rule admission could not check for want of cluster state, on a graph of an input. */
export interface UncheckedNotice {
  readonly input: number;
  readonly document: number;
  readonly unchecked: UncheckedRule;
}

export interface CheckAndRenderResult {
  /** The objects rendered from each input, in input order (empty lists when nothing was rendered). */
  readonly outputs: unknown[][];
  readonly problems: Problem[];
  readonly unchecked: UncheckedNotice[];
}

/**
 * Checks the documents of every input; when none is refused and an output is asked for, renders
 * every input and checks what it renders. Throws nothing but a RenderError for settings of an
 * operator version this library does not render for.
 */
export function checkAndRender(inputs: readonly PipelineInput[], options: CheckAndRenderOptions): CheckAndRenderResult {
  const settings = supportedOperatorSettings(options.settings);
  const problems: Problem[] = [];
  const unchecked: UncheckedNotice[] = [];
  const admitted = inputs.map((input, index) => {
    const checked = checkInput(index, input.documents, settings, options);
    problems.push(...checked.problems);
    unchecked.push(...checked.unchecked);
    return checked.admitted;
  });
  const outputs: unknown[][] = inputs.map(() => []);
  if (options.output === undefined || problems.length > 0) return { outputs, problems, unchecked };
  const checkRendered = options.checkRendered ?? options.output === 'workloads';
  inputs.forEach((input, index) => {
    try {
      outputs[index] = renderInput(input.documents, options.output!, settings, options.namespace, admitted[index]);
    } catch (e) {
      problems.push({ input: index, renderError: e as RenderError });
      return;
    }
    if (checkRendered) {
      outputs[index].forEach((object, i) => problems.push(...checkEmittedObject(object).map(violation => ({ input: index, object: i, violation }))));
    }
  });
  return { outputs, problems, unchecked };
}

/**
 * What admission stored of an input's documents, by document index: the Dynamo documents checked
 * as new, as the defaulting webhook left them (what rendering starts from).
 */
type AdmittedDocuments = ReadonlyMap<number, JsonMap>;

/**
 * The admission problems of one input's documents (the input's documents are the cluster state
 * admission may read), and the documents admission defaulted as new ones.
 */
function checkInput(input: number, docs: readonly unknown[], settings: OperatorSettings, options: CheckAndRenderOptions):
Pick<CheckAndRenderResult, 'problems' | 'unchecked'> & { admitted: AdmittedDocuments } {
  const problems: Problem[] = [];
  const unchecked: UncheckedNotice[] = [];
  const admitted = new Map<number, JsonMap>();
  if (options.admission === false) return { problems, unchecked, admitted };
  const admission: UpdateOptions = { ...validateOptionsFor(settings, docs), requester: options.update?.requester };
  docs.forEach((doc, document) => {
    if (isDgd(doc) || isDcd(doc)) {
      const match = options.update === undefined ? { kind: 'none' as const } : findOld(doc, options.update.olds);
      const listUnchecked = options.reportUnchecked === true && isDgd(doc);
      // an update lists the rules left unchecked of the graph as new (admission of a new graph is where they are read)
      if (listUnchecked && match.kind !== 'none') {
        unchecked.push(...uncheckedClusterRules(doc, admission).map(rule => ({ input, document, unchecked: rule })));
      }
      if (match.kind === 'ambiguous') {
        const message = `${describeKey(documentKey(doc))}: matches ${match.count} documents of ${options.update!.oldFile}; the old objects must be given once each`;
        problems.push({ input, document, message });
        return;
      }
      if (match.kind === 'one') {
        problems.push(...validateUpdate(match.old, doc, admission).map(violation => ({ input, document, violation })));
        return;
      }
      const created = admitDocument(doc, admission, listUnchecked);
      unchecked.push(...(created.unchecked ?? []).map(rule => ({ input, document, unchecked: rule })));
      problems.push(...created.violations.map(violation => ({ input, document, violation })));
      if (created.admitted !== undefined) admitted.set(document, created.admitted);
    } else if (isDgdr(doc)) {
      const match = options.update === undefined ? undefined : findOld(doc, options.update.olds);
      const checked = admitDgdrDocument(doc, settings, match?.kind === 'one' ? match.old : undefined);
      problems.push(...checked.violations.map(violation => ({ input, document, violation })));
      if (checked.admitted !== undefined && checked.violations.length === 0) admitted.set(document, checked.admitted as unknown as JsonMap);
    } else if (options.checkOtherObjects && isCheckedKind(doc)) {
      problems.push(...checkEmittedObject(doc).map(violation => ({ input, document, violation })));
    }
  });
  return { problems, unchecked, admitted };
}

/**
 * A problem in one line, as the command line prints it after the file name:
 * `Kind/name: field.path (component "c"): message (rule N)`, or the message of a RenderError.
 */
export function formatProblem(p: Problem): string {
  if (p.renderError !== undefined) return p.renderError.message;
  if (p.violation !== undefined) return formatViolation(p.violation);
  return p.message ?? '';
}

/** Whether the library has a schema for a (non-Dynamo) document. */
export function isCheckedKind(doc: unknown): boolean {
  return isMap(doc) && isEmittedKindChecked(stringOr(doc.apiVersion, ''), stringOr(doc.kind, ''));
}

/**
 * The objects of one input's documents in `output` (each document in turn; others pass through).
 * `admitted`: the documents admission defaulted already (the others are defaulted here).
 */
function renderInput(
  docs: readonly unknown[], output: OutputMode, settings: OperatorSettings, namespace: string | undefined, admitted: AdmittedDocuments = new Map(),
): unknown[] {
  const cluster = inputClusterState(docs, namespace);
  const out: unknown[] = [];
  docs.forEach((doc, index) => {
    out.push(...guarded(documentRef(doc, index), () => renderDocument(doc, output, settings, namespace, cluster, admitted.get(index))));
  });
  return out;
}

/**
 * The objects one document renders to (itself, for documents passed through). `admitted`: the
 * document as admission defaulted it on create, when it did (else it is defaulted here).
 */
function renderDocument(
  doc: unknown, output: OutputMode, settings: OperatorSettings, namespace: string | undefined, cluster: InputClusterState, admitted?: JsonMap,
): unknown[] {
  if (output !== 'graph' && (isDgd(doc) || isDcd(doc))) refuseUnnamed(doc);
  const ns = namespace ?? DEFAULT_NAMESPACE;
  if (output !== 'graph' && isDgd(doc)) {
    const stored = admitted === undefined ? admitNewGraph(withNamespace(doc, ns), settings) : storedGraphOf(withNamespace(admitted, ns), settings);
    return output === 'components' ? renderGraphComponents(stored, settings, cluster) : renderGraphWorkloads(stored, settings, cluster);
  }
  if (output === 'workloads' && isDcd(doc)) {
    const stored = admitted === undefined ? admitNewComponent(withNamespace(doc, ns)) : withNamespace(admitted as unknown as DcdJson, ns);
    return renderComponentWorkloads(stored, settings, cluster);
  }
  if (isDgd(doc) || isDcd(doc)) return [withNamespace(copyJson(doc), namespace)];
  if (isDgdr(doc)) return renderDgdrDocument(doc, output, settings, namespace, admitted as DgdrJson | undefined);
  // cluster state read by the render or admission (observed checkpoints, a DeviceClass, Grove's
  // ClusterTopologyBinding) is not written; the app's ResourceClaimTemplates and ResourceClaims are
  if (output !== 'graph' && isClusterStateDocument(doc)) return [];
  return [withNamespace(doc, namespace)];
}

/**
 * The operator names every object it creates after the graph (or component deployment): one
 * without a name (only `generateName`, which the API server completes on create) cannot be
 * rendered in components or workloads output.
 */
function refuseUnnamed(doc: DgdJson | DcdJson): void {
  const name = doc.metadata?.name;
  if (typeof name === 'string' && name !== '') return;
  const generateName = doc.metadata?.generateName;
  const generated = typeof generateName === 'string' && generateName !== ''
    ? `with only metadata.generateName (${JSON.stringify(generateName)}) is named by the API server on create`
    : 'has no name';
  throw new RenderError(`${doc.kind}/`, 'metadata.name',
    `Required value: the operator names the objects it creates after the ${doc.kind}, and a ${doc.kind} ${generated}, `
    + 'so its objects cannot be rendered; set metadata.name');
}

// ---------------------------------------------------------------------------------------------
// One document through the pipeline: what a construct synthesizes
// ---------------------------------------------------------------------------------------------

export interface DocumentOptions {
  /** The operator the document is admitted and rendered by. */
  readonly settings: OperatorSettings;
  /** What to render; absent: the document is only checked. */
  readonly output?: OutputMode;
  /** Whether the rendered objects are checked as the API server checks them. Default: workloads output. */
  readonly checkRendered?: boolean;
}

/** What the pipeline makes of one document (`checkAndRenderDocument`). */
export interface DocumentOutcome {
  /** What admission refuses of the document, one line each (`formatProblem`); nothing is rendered then. */
  readonly violations: readonly string[];
  /** The rendered objects, when an output was asked for and the document was admitted and rendered. */
  readonly objects?: readonly unknown[];
  /** Why the engine could not render the admitted document. */
  readonly renderError?: RenderError;
  /** What the API server would refuse of the rendered objects: the object's index and the problem in one line. */
  readonly objectProblems: ReadonlyArray<{ readonly object: number; readonly message: string }>;
}

/**
 * One document through the pipeline in one call (`checkAndRender` of it, the same code): admission
 * (the document defaulted once, as admission stores it), then, when nothing is refused and an output
 * is asked for, the rendering of that stored object and the checks of what it renders. What a
 * construct synthesizes: its validation messages and its children come from this one outcome.
 * Throws nothing but a RenderError for settings of an operator version this library does not render for.
 */
export function checkAndRenderDocument(document: unknown, options: DocumentOptions): DocumentOutcome {
  const result = checkAndRender([{ documents: [document] }], {
    settings: options.settings, output: options.output, checkRendered: options.checkRendered,
  });
  const violations: string[] = [];
  const objectProblems: Array<{ object: number; message: string }> = [];
  let renderError: RenderError | undefined;
  for (const problem of result.problems) {
    if (problem.renderError !== undefined) renderError = problem.renderError;
    else if (problem.object !== undefined) objectProblems.push({ object: problem.object, message: formatProblem(problem) });
    else violations.push(formatProblem(problem));
  }
  const rendered = options.output !== undefined && violations.length === 0 && renderError === undefined;
  return { violations, objects: rendered ? result.outputs[0] : undefined, renderError, objectProblems };
}

// ---------------------------------------------------------------------------------------------
// The pipeline as one call that throws: for code that renders a list of documents
// ---------------------------------------------------------------------------------------------

export interface RenderOptions {
  readonly output: OutputMode;
  /** Namespace for objects that have none. */
  readonly namespace?: string;
  readonly operator?: Partial<OperatorSettings>;
  /**
   * Whether a DynamoGraphDeployment or DynamoComponentDeployment is checked as the operator admits
   * it on create before it is rendered in components or workloads output (a RenderError lists the
   * violations). `false` renders documents the operator would refuse, as the engine's own tests do
   * to pin how such input is handled; no cluster would hold the result.
   * @default true
   */
  readonly checkAdmission?: boolean;
}

/**
 * `checkAndRender` of one list of documents, as one call: the objects, or a RenderError. Non-Dynamo
 * documents pass through unchanged; input is not modified. In components or workloads output, a
 * Dynamo document the operator would refuse on create is one RenderError naming the object and
 * listing every violation (field path, message, rule); any failure of a render that is not a
 * RenderError is reported as an internal error. Rendered objects are not checked (see
 * `checkEmittedObjects`).
 */
export function renderDocuments(docs: readonly unknown[], options: RenderOptions): unknown[] {
  const settings = guarded('operator settings', () => supportedOperatorSettings(options.operator));
  const admission = options.output !== 'graph' && options.checkAdmission !== false;
  const result = checkAndRender([{ documents: docs }], {
    settings, output: options.output, namespace: options.namespace, admission, checkRendered: false,
  });
  const first = result.problems[0];
  if (first === undefined) return result.outputs[0];
  if (first.renderError !== undefined) throw first.renderError;
  const doc = docs[first.document!] as DgdJson | DcdJson;
  const violations = result.problems.filter(p => p.document === first.document).map(p => p.violation!);
  throw refusal(doc, violations);
}

/** The RenderError of a document the operator would never have admitted. */
function refusal(doc: DgdJson | DcdJson, violations: readonly Violation[]): RenderError {
  const listed = violations.map(describeViolation).join('; ');
  const count = violations.length === 1 ? '1 violation' : `${violations.length} violations`;
  return new RenderError(`${doc.kind}/${stringOr(doc.metadata?.name, '')}`, violations[0].path || '(the object)',
    `the operator would reject this object on create (${count}): ${listed}`);
}

function describeViolation(v: Violation): string {
  return `${v.path === '' ? '(the object)' : v.path}: ${v.message} (rule ${v.rule})`;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** `Kind/name` of a document, or its position when it has neither. */
function documentRef(doc: unknown, index: number): string {
  const kind = isMap(doc) ? stringOr(doc.kind, '') : '';
  const name = isMap(doc) && isMap(doc.metadata) ? stringOr(doc.metadata.name, '') : '';
  return kind === '' && name === '' ? `document #${index + 1}` : `${kind}/${name}`;
}

/** Runs `step`; any exception but a RenderError becomes a RenderError saying it is an internal error. */
function guarded<T>(ref: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof RenderError) throw e;
    const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw new RenderError(ref, '(the object)', `internal error: rendering failed unexpectedly (${detail}); please report it`);
  }
}
