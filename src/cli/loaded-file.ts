/**
 * An input file as the commands hold it after loading: its objects (list documents flattened), the
 * place of each, and what is needed to word a problem about it: `file:line:column`, the place of a
 * list item, and how to fix an unknown field.
 */
import { unknownFieldHint } from './hints';
import { fileAt, FilePositions, SourcePosition } from './source-positions';
import { mapAt, stringAt } from '../model/json';
import { RenderError } from '../model/render-error';
import { formatProblem, Problem } from '../pipeline/check-and-render';

export interface LoadedFile {
  readonly file: string;
  /** Where the fields of the file's text are (for `file:line:column` in messages). */
  readonly positions: FilePositions;
  /** For each object: whether it was converted from nvidia.com/v1alpha1 (its v1beta1 field paths are not in the file). */
  readonly converted: readonly boolean[];
  /** The objects of the file: its documents, each list document replaced by its items (`input-objects.ts`). */
  readonly docs: unknown[];
  /** Where each object is in the file (`document 1`, `document 1: items[2]`), and whether it is a list item. */
  readonly places: ReadonlyArray<{ readonly place: string; readonly inList: boolean }>;
}

/** The place of a list item, to start a line about it (`document 1: items[2]: `); '' for a document. */
export function itemPrefix(load: LoadedFile, index: number | undefined): string {
  const at = index === undefined ? undefined : load.places[index];
  return at?.inList === true ? `${at.place}: ` : '';
}

/** `n things` (`1 thing`). */
export function plural(n: number, thing: string): string {
  return `${n} ${thing}${n === 1 ? '' : 's'}`;
}

/** The position of a problem's field in its input file: the field's own, or its object's for an object converted from v1alpha1. */
export function problemPosition(load: LoadedFile, p: Problem): SourcePosition | undefined {
  if (p.document === undefined && p.renderError !== undefined) return renderErrorPosition(load, p.renderError);
  if (p.document === undefined) return undefined;
  const path = p.violation !== undefined && !load.converted[p.document] ? p.violation.path : '';
  return load.positions.at(load.places[p.document].place, path);
}

/**
 * Where a document the engine cannot render is: the field the error names in the one object of the
 * file of its `Kind/name` (the object, for one converted from v1alpha1); undefined when it names
 * no single object of the file.
 */
export function renderErrorPosition(load: LoadedFile, error: RenderError): SourcePosition | undefined {
  const matches = load.docs.flatMap((doc, index) => {
    const ref = `${stringAt(doc, 'kind') ?? ''}/${stringAt(mapAt(doc, 'metadata'), 'name') ?? ''}`;
    return ref === error.objectRef ? [index] : [];
  });
  if (matches.length !== 1) return undefined;
  const [index] = matches;
  const field = load.converted[index] || error.field.startsWith('(') ? '' : error.field;
  return load.positions.at(load.places[index].place, field);
}

/** How to fix a problem's unknown field (`hints.ts`), or undefined. */
export function problemHint(load: LoadedFile, p: Problem): string | undefined {
  if (p.violation === undefined || p.document === undefined || load.converted[p.document]) return undefined;
  return unknownFieldHint(p.violation, stringAt(load.docs[p.document], 'apiVersion'));
}

/** A problem of an input file in one line: `file:line:column: [document 1: items[2]: ]Kind/name: field: message (rule N)[; hint]`. */
export function problemLine(load: LoadedFile, p: Problem): string {
  const hint = problemHint(load, p);
  return `${fileAt(load.file, problemPosition(load, p))}: ${itemPrefix(load, p.document)}${formatProblem(p)}${hint === undefined ? '' : `; ${hint}`}`;
}

/** A line `file: document N...: ...` about an object of one of `files`, with the object's line and column after the file name. */
export function withPlacePosition(line: string, files: readonly LoadedFile[]): string {
  for (const load of files) {
    if (!line.startsWith(`${load.file}: document `)) continue;
    const rest = line.slice(load.file.length + 2);
    const position = load.positions.at(rest, '');
    if (position !== undefined) return `${fileAt(load.file, position)}: ${rest}`;
  }
  return line;
}

/**
 * A line about the object at `index` of a loaded file, `text` starting `Kind/name: field.path: `
 * with a path of the object as written (a v1alpha1 document's own fields), after `file:line:column`.
 */
export function objectLine(load: Pick<LoadedFile, 'file' | 'positions' | 'places'>, index: number, text: string): string {
  const [, path] = text.split(': ', 3);
  const field = path !== undefined && /^[\w.-]+(\[[^\]]*\][\w.-]*)*$/.test(path) ? path : '';
  return `${objectPosition(load, index, field)}: ${text}`;
}

/** `file:line:column` of the object at `index` of a loaded file, or of its field `path` as written; `file` when unknown. */
export function objectPosition(load: Pick<LoadedFile, 'file' | 'positions' | 'places'>, index: number, path = ''): string {
  const place = load.places[index]?.place;
  return fileAt(load.file, place === undefined ? undefined : load.positions.at(place, path));
}
