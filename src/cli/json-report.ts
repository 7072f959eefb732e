/**
 * `validate --output json`: the result of a validation as one JSON document on standard output, in
 * the schema docs/cli-json.md describes (`schemaVersion` 1). A change that removes or renames a
 * field, or changes its meaning, raises `schemaVersion`; new fields may be added without it.
 */
import { ParsedArgs } from './args';
import { LoadedFile, problemHint, problemPosition } from './loaded-file';
import { mapAt, stringAt } from '../model/json';
import { isDcd, isDgd } from '../model/v1beta1';
import { isCheckedKind, Problem } from '../pipeline/check-and-render';

/** The version of the JSON schema of `validate --output json`. */
export const VALIDATE_JSON_SCHEMA_VERSION = 1;

/** A problem that is no broken rule of one object: a file that cannot be read, a duplicate object, an operator configuration. */
export interface JsonProblem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

/** One broken rule of an object. */
export interface JsonViolation {
  /** Field path as the API server writes it (`spec.components[1].replicas`); '' for the object as a whole. */
  readonly path: string;
  /** The graph component the field belongs to (its name), when there is one. */
  readonly component?: string;
  /** The offending value, when there is one; never a Secret's value. */
  readonly value?: unknown;
  /** The rule id (docs/admission-rules.md), `schema` for a structural error. */
  readonly rule: string;
  /** What is wrong, as the API server words it. */
  readonly message: string;
  /** How to fix it, when known (a misspelled or v1alpha1 field). */
  readonly hint?: string;
  readonly line?: number;
  readonly column?: number;
}

export interface JsonObject {
  readonly apiVersion: string | null;
  readonly kind: string | null;
  readonly name: string | null;
  readonly namespace: string | null;
  /** `document 1`, or `document 1: items[2]` for an item of a list document. */
  readonly place: string;
  readonly line?: number;
  readonly column?: number;
  /** Whether the library has a schema for the kind (an object of another kind is not checked). */
  readonly checked: boolean;
  readonly ok: boolean;
  readonly violations: JsonViolation[];
}

export interface JsonFile {
  /** The path as given on the command line (`-` for standard input). */
  readonly path: string;
  readonly ok: boolean;
  readonly objects: JsonObject[];
  readonly problems: JsonProblem[];
}

export interface ValidateJson {
  readonly schemaVersion: number;
  readonly ok: boolean;
  readonly files: JsonFile[];
  /** Problems not about one input file (the operator configuration, the --old file). */
  readonly problems: JsonProblem[];
  readonly summary: {
    readonly files: number;
    readonly objects: number;
    readonly invalidObjects: number;
    readonly violations: number;
    readonly problems: number;
  };
}

/** `file:12:5: rest`, `file: rest` or `cannot read file: rest`: the file it is about (one of `files`), its position and message. */
function splitLine(line: string, files: readonly string[]): { file?: string; problem: JsonProblem } {
  // the longest file name first: `a.yaml` must not claim a line of `a.yaml.bak`
  for (const file of [...files].sort((a, b) => b.length - a.length)) {
    const name = file === '-' ? 'standard input' : file;
    if (line.startsWith(`cannot read ${name}: `)) return { file, problem: { message: line } };
    if (!line.startsWith(`${file}:`)) continue;
    const at = /^:(\d+):(\d+): /.exec(line.slice(file.length));
    if (at) return { file, problem: { message: line.slice(file.length + at[0].length), line: Number(at[1]), column: Number(at[2]) } };
    if (line.startsWith(`${file}: `)) return { file, problem: { message: line.slice(file.length + 2) } };
  }
  return { problem: { message: line } };
}

/** The object `doc` of a file, without its violations. */
function jsonObject(load: LoadedFile, index: number): Omit<JsonObject, 'ok' | 'violations'> {
  const doc = load.docs[index];
  const metadata = mapAt(doc, 'metadata');
  const position = load.positions.at(load.places[index].place, '');
  return {
    apiVersion: stringAt(doc, 'apiVersion') ?? null,
    kind: stringAt(doc, 'kind') ?? null,
    name: stringAt(metadata, 'name') ?? null,
    namespace: stringAt(metadata, 'namespace') ?? null,
    place: load.places[index].place,
    ...(position === undefined ? {} : { line: position.line, column: position.column }),
    checked: isDgd(doc) || isDcd(doc) || isCheckedKind(doc),
  };
}

function jsonViolation(load: LoadedFile, p: Problem): JsonViolation | undefined {
  const v = p.violation;
  if (v === undefined) return undefined;
  const position = problemPosition(load, p);
  const hint = problemHint(load, p);
  return {
    path: v.path,
    ...(v.component === undefined ? {} : { component: v.component }),
    ...(v.value === undefined ? {} : { value: v.value }),
    rule: v.rule,
    message: v.message,
    ...(hint === undefined ? {} : { hint }),
    ...(position === undefined ? {} : { line: position.line, column: position.column }),
  };
}

/**
 * The JSON result of `validate`: `loaded` the files that could be read, `lines` the problems before
 * the checks (each a line naming its file), `checked` the problems the checks found.
 */
export function validateReport(args: ParsedArgs, loaded: readonly LoadedFile[], lines: readonly string[], checked: readonly Problem[]): ValidateJson {
  const byFile = new Map<string, { objects: JsonObject[]; problems: JsonProblem[] }>();
  for (const file of args.files) byFile.set(file, { objects: [], problems: [] });
  const general: JsonProblem[] = [];
  for (const line of lines) {
    const { file, problem } = splitLine(line, args.files);
    const entry = file === undefined ? undefined : byFile.get(file);
    if (entry === undefined) general.push(problem);
    else entry.problems.push(problem);
  }
  loaded.forEach((load, input) => {
    const entry = byFile.get(load.file)!;
    load.docs.forEach((_doc, index) => {
      const problems = checked.filter(p => p.input === input && p.document === index);
      const violations: JsonViolation[] = [];
      for (const p of problems) {
        const violation = jsonViolation(load, p);
        if (violation !== undefined) {
          violations.push(violation);
        } else {
          const position = problemPosition(load, p);
          entry.problems.push({ message: `${load.places[index].place}: ${p.message ?? p.renderError?.message ?? ''}`, ...(position === undefined ? {} : { line: position.line, column: position.column }) });
        }
      }
      entry.objects.push({ ...jsonObject(load, index), ok: problems.length === 0, violations });
    });
    for (const p of checked.filter(q => q.input === input && q.document === undefined)) {
      entry.problems.push({ message: p.violation?.message ?? p.message ?? p.renderError?.message ?? '' });
    }
  });
  // a file not checked at all (the operator configuration could not be read) is not ok either
  const read = new Set(loaded.map(load => load.file));
  const files: JsonFile[] = [...byFile.entries()].map(([path, { objects, problems }]) => ({
    path, ok: read.has(path) && problems.length === 0 && objects.every(o => o.ok), objects, problems,
  }));
  const objects = files.flatMap(f => f.objects);
  const problemCount = general.length + files.reduce((n, f) => n + f.problems.length, 0);
  return {
    schemaVersion: VALIDATE_JSON_SCHEMA_VERSION,
    ok: problemCount === 0 && objects.every(o => o.ok),
    files,
    problems: general,
    summary: {
      files: files.length,
      objects: objects.length,
      invalidObjects: objects.filter(o => !o.ok).length,
      violations: objects.reduce((n, o) => n + o.violations.length, 0),
      problems: problemCount,
    },
  };
}
