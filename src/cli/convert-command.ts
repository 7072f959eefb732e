/**
 * `cdk8s-dynamo convert [--out DIR] FILE...`: nvidia.com/v1alpha1 DynamoGraphDeployment and
 * DynamoComponentDeployment documents written as the nvidia.com/v1beta1 objects the API server
 * converts them to (the operator's conversion webhook, `import/v1alpha1`). Every other document is
 * written unchanged. Nothing is written when a document cannot be converted.
 *
 * Also the conversion `render`, `validate` and `diff` make of the documents they load
 * (`convertLoadedDocuments`): v1alpha1 Dynamo documents are converted first, said so on standard
 * error, and the v1alpha1 request checks of the webhook (rule 148) join their problems.
 */
import { ParsedArgs, usageText } from './args';
import { LoadedFile, objectLine, objectPosition } from './loaded-file';
import { outputClash, outputNames, writeOutputs } from './output-files';
import { stringifyYamlDocuments } from '../import/documents';
import { convertV1alpha1Document, describeAlphaDocument, isV1alpha1DynamoDocument, V1ALPHA1 } from '../import/v1alpha1';
import { isMap, stringAt } from '../model/json';

/** Where the command writes. */
export interface ConvertIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** The documents of a file (after recording why they cannot be read in `problems`). */
export type DocumentLoader = (file: string, problems: string[]) => Pick<LoadedFile, 'file' | 'docs' | 'positions' | 'places'> | undefined;

/** The v1beta1 component types (a converted document with another type is not valid v1beta1). */
const V1BETA1_TYPES = ['frontend', 'worker', 'prefill', 'decode', 'planner', 'epp'];

/** Runs `convert`; returns the exit code (0 converted, 1 invalid input or unreadable file, 2 usage error). */
export function runConvert(args: ParsedArgs, io: ConvertIo, load: DocumentLoader): number {
  if (args.outDir !== undefined) {
    const clash = outputClash(args.files);
    if (clash !== undefined) {
      io.stderr(`cdk8s-dynamo: ${clash}\n${usageText(args.command)}`);
      return 2;
    }
  }
  const problems: string[] = [];
  const notices: string[] = [];
  const outputs: Array<{ file: string; docs: unknown[] }> = [];
  for (const file of args.files) {
    const before = problems.length;
    const loaded = load(file, problems);
    if (!loaded) continue;
    const docs: unknown[] = [];
    let converted = 0;
    for (const [index, doc] of loaded.docs.entries()) {
      if (!isV1alpha1DynamoDocument(doc)) {
        if (isMap(doc) && doc.apiVersion === V1ALPHA1 && String(doc.kind).startsWith('Dynamo')) {
          notices.push(`${objectPosition(loaded, index)}: ${V1ALPHA1} ${String(doc.kind)}/${stringAt(doc.metadata, 'name') ?? ''}: written unchanged (only DynamoGraphDeployment and DynamoComponentDeployment are converted)`);
        }
        docs.push(doc);
        continue;
      }
      const outcome = convertV1alpha1Document(doc);
      problems.push(...outcome.problems.map(p => objectLine(loaded, index, p)));
      notices.push(...outcome.notices.map(n => objectLine(loaded, index, n)));
      if (outcome.document) {
        // about a field of the converted document: at the document
        notices.push(...typeNotices(outcome.document).map(n => `${objectPosition(loaded, index)}: ${describeAlphaDocument(doc)}: ${n}`));
        docs.push(outcome.document);
        converted++;
      }
    }
    if (converted === 0 && problems.length === before) notices.push(`${file}: no ${V1ALPHA1} DynamoGraphDeployment or DynamoComponentDeployment; written unchanged`);
    outputs.push({ file, docs });
  }
  io.stderr(notices.map(n => `${n}\n`).join(''));
  if (problems.length > 0) {
    io.stderr(problems.map(p => `${p}\n`).join(''));
    return 1;
  }
  if (args.outDir === undefined) {
    io.stdout(stringifyYamlDocuments(outputs.flatMap(o => o.docs)));
    return 0;
  }
  const names = outputNames(outputs.map(o => o.file));
  const written = writeOutputs(args.outDir, outputs.map((o, i) => ({ name: names[i], text: stringifyYamlDocuments(o.docs) })), { manifest: true });
  if (written.problem !== undefined) {
    io.stderr(`${written.problem}\n`);
    return 1;
  }
  return 0;
}

/** Component types the conversion carries over that v1beta1 does not have. */
function typeNotices(doc: Record<string, unknown>): string[] {
  const spec = isMap(doc.spec) ? doc.spec : {};
  const components = doc.kind === 'DynamoGraphDeployment' ? (Array.isArray(spec.components) ? spec.components : []) : [spec];
  const out: string[] = [];
  components.forEach((c, i) => {
    const type = isMap(c) ? c.type : undefined;
    if (typeof type === 'string' && type !== '' && !V1BETA1_TYPES.includes(type)) {
      const where = doc.kind === 'DynamoGraphDeployment' ? `spec.components[${i}].type` : 'spec.type';
      out.push(`${where}: ${JSON.stringify(type)} is carried over as written, but v1beta1 accepts only ${V1BETA1_TYPES.join(', ')}: the converted document is not valid v1beta1 until it is changed`);
    }
  });
  return out;
}

/** What `render`, `validate` and `diff` do with the v1alpha1 documents of a loaded file. */
export interface ConvertLoadedOptions {
  /** Add the webhook's v1alpha1 request checks (rule 148) to the problems (documents being admitted, not `--old` ones). */
  readonly admission: boolean;
}

/**
 * The documents of `file` with every v1alpha1 DynamoGraphDeployment and DynamoComponentDeployment
 * converted to v1beta1 (a document that cannot be converted is left out, its problems recorded),
 * said so on standard error.
 */
export function convertLoadedDocuments(file: string, docs: readonly unknown[], io: Pick<ConvertIo, 'stderr'>, problems: string[], options: ConvertLoadedOptions): unknown[] {
  const out: unknown[] = [];
  const notices: string[] = [];
  for (const doc of docs) {
    if (!isV1alpha1DynamoDocument(doc)) {
      out.push(doc);
      continue;
    }
    const outcome = convertV1alpha1Document(doc);
    problems.push(...outcome.problems.map(p => `${file}: ${p}`));
    if (options.admission) problems.push(...outcome.admissionProblems.map(p => `${file}: ${p}`));
    if (!outcome.document) continue;
    notices.push(`${file}: ${V1ALPHA1} ${describeAlphaDocument(doc)}: converted to nvidia.com/v1beta1 first, as the operator's conversion webhook converts it (cdk8s-dynamo convert writes the converted document)`);
    notices.push(...outcome.notices.map(n => `${file}: ${n}`));
    out.push(outcome.document);
  }
  io.stderr(notices.map(n => `${n}\n`).join(''));
  return out;
}
