/**
 * Validating and rendering YAML text from code, in every jsii language: what the `cdk8s-dynamo`
 * command does for one file, as static methods (jsii exports classes, not free functions).
 */
import { OutputMode } from './enums';
import { pipeline, v1alpha1 } from '../lazy-modules';
import { OperatorOptions } from './operator-options';
import { operatorSettingsOf } from './operator-settings-of';
import { dns1123LabelErrors } from '../admission/dns-names';
import { parseYamlDocuments, stringifyYamlDocuments, YamlInputError } from '../import/documents';
import { duplicateObjects, inputObjectsOf } from '../import/input-objects';
import type { OperatorSettings } from '../model/operator-settings';

/** Options of `DynamoDocuments.validateYaml`. */
export interface ValidateYamlOptions {
  /**
   * Name of the text at the start of every problem, as the command names the file
   * (`<source>: DynamoGraphDeployment/name: field: message (rule N)`).
   * @default "input"
   */
  readonly source?: string;
  /**
   * The operator installation that admits the documents (its version, Grove and checkpoint gates
   * decide which rules apply). Invalid options throw (they are not problems of the text).
   * @default - the operator's Helm defaults
   */
  readonly operator?: OperatorOptions;
}

/** Options of `DynamoDocuments.convertYaml`. */
export interface ConvertYamlOptions {
  /**
   * Name of the text at the start of every problem, as the command names the file.
   * @default "input"
   */
  readonly source?: string;
}

/** Options of `DynamoDocuments.renderYaml`. */
export interface RenderYamlOptions extends ValidateYamlOptions {
  /**
   * What to render: the Dynamo documents as given (`GRAPH`), the DynamoComponentDeployments the
   * operator generates (`COMPONENTS`), or every object it creates (`WORKLOADS`).
   * @default OutputMode.GRAPH
   */
  readonly output?: OutputMode;
  /**
   * Namespace of the objects that name none.
   * @default - the input's objects keep none; the objects the operator creates are in `default`
   */
  readonly namespace?: string;
}

/**
 * Validation and rendering of Dynamo documents given as YAML text, as the `cdk8s-dynamo validate`
 * and `cdk8s-dynamo render` commands do for one file. The text may hold several documents; other
 * Kubernetes objects pass through (those of a kind the library has a schema for are checked as the
 * API server would check them on create; others are not checked). `nvidia.com/v1alpha1`
 * DynamoGraphDeployments and DynamoComponentDeployments are converted to `nvidia.com/v1beta1`
 * first, as the API server converts them (`convertYaml`).
 */
export class DynamoDocuments {
  /**
   * Every problem of the documents in `yaml`, one line each, as `cdk8s-dynamo validate` prints them
   * (`<source>: DynamoGraphDeployment/name: spec.components[0].replicas (component "decode"): message (rule N)`):
   * text that kubectl cannot read, objects without apiVersion or kind, the same object twice (the
   * items of a `kind: List` count as objects of their own, as kubectl applies them), each admission rule a
   * DynamoGraphDeployment or DynamoComponentDeployment breaks on create, and schema errors of other
   * known objects. Empty when the documents are valid.
   * @param yaml one or more YAML documents
   * @param options the source name and the operator
   */
  public static validateYaml(yaml: string, options: ValidateYamlOptions = {}): string[] {
    const settings = operatorSettingsOf(options.operator);
    return problemsOf(read(yaml, sourceOf(options)), settings, true);
  }

  /**
   * The objects the documents in `yaml` render to, as one multi-document YAML text that kubectl
   * reads as written (`cdk8s-dynamo render`). Throws an error whose message lists every problem, one
   * per line, when the documents are invalid (the problems of `validateYaml` for Dynamo documents)
   * or cannot be rendered, or when an object rendered in `WORKLOADS` output would be rejected by
   * the API server.
   * @param yaml one or more YAML documents
   * @param options the output mode, the namespace, the source name and the operator
   */
  public static renderYaml(yaml: string, options: RenderYamlOptions = {}): string {
    const settings = operatorSettingsOf(options.operator);
    const source = sourceOf(options);
    const namespaceErrors = options.namespace === undefined ? [] : dns1123LabelErrors(options.namespace);
    if (namespaceErrors.length > 0) throw new Error(namespaceErrors.map(e => `namespace: Invalid value: ${JSON.stringify(options.namespace)}: ${e}`).join('\n'));
    const input = read(yaml, source, options.namespace);
    const output = options.output ?? OutputMode.GRAPH;
    if (input.docs === undefined) throw new Error(input.problems.join('\n'));
    // nothing is rendered from input with problems of its own (a v1alpha1 document the webhook refuses)
    const rendered = input.problems.length > 0 ? undefined : output;
    const { checkAndRender, formatProblem } = pipeline();
    const result = checkAndRender([{ documents: input.docs }], { settings, output: rendered, namespace: options.namespace });
    const problems = [...input.problems, ...result.problems.map(p => `${source}: ${prefixOf(input, p.document)}${formatProblem(p)}`)];
    const objects = result.outputs[0];
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return stringifyYamlDocuments(objects);
  }

  /**
   * The documents in `yaml` with every `nvidia.com/v1alpha1` DynamoGraphDeployment and
   * DynamoComponentDeployment converted to `nvidia.com/v1beta1` as the API server converts it
   * through the operator's conversion webhook (`cdk8s-dynamo convert`): services become components,
   * the v1alpha1 pod fields one pod template, and data v1beta1 has no field for is kept in the
   * annotation `nvidia.com/dgd-spec` / `nvidia.com/dcd-spec`. Other documents are returned
   * unchanged. The result is not checked (see `validateYaml`). Throws an error listing every
   * problem, one per line, when a document cannot be read or converted (a field the v1alpha1 API
   * does not have, a value of the wrong type, a resource quantity the conversion would drop).
   * @param yaml one or more YAML documents
   * @param options the source name
   */
  public static convertYaml(yaml: string, options: ConvertYamlOptions = {}): string {
    const source = options.source ?? 'input';
    let docs: unknown[];
    try {
      docs = parseYamlDocuments(yaml, source);
    } catch (e) {
      if (!(e instanceof YamlInputError)) throw e;
      throw new Error(e.message);
    }
    const { objects, problems: shapeProblems } = inputObjectsOf(docs);
    const problems = shapeProblems.map(p => `${source}: ${p}`);
    docs = objects.map(o => o.value);
    const out: unknown[] = [];
    const { convertV1alpha1Document, isV1alpha1DynamoDocument } = v1alpha1();
    for (const doc of problems.length === 0 ? docs : []) {
      if (!isV1alpha1DynamoDocument(doc)) {
        out.push(doc);
        continue;
      }
      const outcome = convertV1alpha1Document(doc);
      problems.push(...outcome.problems.map(p => `${source}: ${p}`));
      if (outcome.document) out.push(outcome.document);
    }
    if (problems.length > 0) throw new Error(problems.join('\n'));
    return stringifyYamlDocuments(out);
  }

  private constructor() {}
}

interface ReadInput {
  readonly source: string;
  /** The documents, when the text could be read as Kubernetes objects (the items of lists in their place). */
  readonly docs?: unknown[];
  /** Per document, what a problem of it starts with: its place when it is an item of a list (`document 1: items[2]: `), else nothing. */
  readonly prefixes?: string[];
  readonly problems: string[];
}

/** What a problem of the document at `index` starts with (see ReadInput.prefixes). */
function prefixOf(input: ReadInput, index: number | undefined): string {
  return index === undefined ? '' : input.prefixes?.[index] ?? '';
}

function sourceOf(options: ValidateYamlOptions): string {
  return options.source ?? 'input';
}

/** The documents of the text, or the problems that keep them from being read (as the command reads a file). */
function read(yaml: string, source: string, namespace?: string): ReadInput {
  let docs: unknown[];
  try {
    docs = parseYamlDocuments(yaml, source);
  } catch (e) {
    if (!(e instanceof YamlInputError)) throw e;
    return { source, problems: [e.message] };
  }
  // lists are the objects they hold, as kubectl applies them; each must be an object kubectl can send, once
  const { objects, problems: shapeProblems } = inputObjectsOf(docs);
  shapeProblems.push(...duplicateObjects([{ file: source, objects }], namespace).map(p => p.startsWith(`${source}: `) ? p.slice(source.length + 2) : p));
  if (shapeProblems.length > 0) return { source, problems: shapeProblems.map(p => `${source}: ${p}`) };
  docs = objects.map(o => o.value);
  // v1alpha1 Dynamo documents are read as the v1beta1 objects the API server converts them to; the
  // webhook's checks of the v1alpha1 request (rule 148) are problems of the input
  const converted: unknown[] = [];
  const problems: string[] = [];
  const { convertV1alpha1Document, isV1alpha1DynamoDocument } = v1alpha1();
  for (const doc of docs) {
    if (!isV1alpha1DynamoDocument(doc)) {
      converted.push(doc);
      continue;
    }
    const outcome = convertV1alpha1Document(doc);
    problems.push(...[...outcome.problems, ...outcome.admissionProblems].map(p => `${source}: ${p}`));
    if (outcome.document) converted.push(outcome.document);
  }
  if (problems.length > 0 && converted.length < docs.length) return { source, problems };
  return { source, docs: converted, prefixes: objects.map(o => (o.inList ? `${o.place}: ` : '')), problems };
}

/**
 * The problems of the input: reading problems, or the create-time admission of every Dynamo
 * document and (`checkOthers`) the schema of every other object of a kind the library knows.
 */
function problemsOf(input: ReadInput, settings: OperatorSettings, checkOthers: boolean): string[] {
  if (input.docs === undefined) return [...input.problems];
  const { checkAndRender, formatProblem } = pipeline();
  const result = checkAndRender([{ documents: input.docs }], { settings, checkOtherObjects: checkOthers });
  return [...input.problems, ...result.problems.map(p => `${input.source}: ${prefixOf(input, p.document)}${formatProblem(p)}`)];
}
