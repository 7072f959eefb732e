/**
 * Where a field is in an input file: the line and column of `spec.components[1].replicas` of the
 * object at `document 2` (or `document 1: items[3]` of a list), so that a message about a file can
 * start `graph.yaml:12:5: ...`, as compilers and editors expect.
 *
 * The file is parsed again (only when a message needs a position) with the `yaml` library, keeping
 * the source range of every node; the documents are counted as the reader counts them (empty and
 * null documents left out). A field that is not in the file (a missing required field, a default)
 * is placed at its nearest ancestor that is; a field reached through a merge key (`<<`) too.
 */
import type * as yamlModule from 'yaml';
import { yaml } from '../lazy-modules';

/** A 1-based line and column. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

/** One step of a field path: a field or map key, or a list index. */
type Step = { readonly name: string } | { readonly index: number };

/**
 * The steps of a field path as the API server writes it: `spec.components[1].name`,
 * `metadata.annotations[nvidia.com/x]` (a bracket holds a list index or a map key, which may hold dots).
 */
export function pathSteps(path: string): Step[] {
  const steps: Step[] = [];
  let i = 0;
  while (i < path.length) {
    if (path[i] === '.') {
      i++;
      continue;
    }
    if (path[i] === '[') {
      const end = path.indexOf(']', i);
      const inside = end < 0 ? path.slice(i + 1) : path.slice(i + 1, end);
      // a key may be quoted (`annotations["nvidia.com/x"]`)
      const key = /^"(?:[^"\\]|\\.)*"$/.test(inside) ? JSON.parse(inside) as string : inside;
      steps.push(/^\d+$/.test(inside) ? { index: Number(inside) } : { name: key });
      i = end < 0 ? path.length : end + 1;
      continue;
    }
    let end = i;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end++;
    steps.push({ name: path.slice(i, end) });
    i = end;
  }
  return steps;
}

/** `document 2` or `document 1: items[3].items[0]`: the document number and the steps of the list items. */
function placeSteps(place: string): { document: number; steps: Step[] } | undefined {
  const match = /^document (\d+)(?:: (items\[\d+\](?:\.items\[\d+\])*))?/.exec(place);
  if (!match) return undefined;
  return { document: Number(match[1]) - 1, steps: match[2] === undefined ? [] : pathSteps(match[2]) };
}

/** The YAML 1.1 spellings of null, which the reader leaves out as empty documents. */
const NULL_SCALARS = new Set(['', '~', 'null', 'Null', 'NULL']);

/** The positions of the fields of one file's text, parsed on first use. */
export class FilePositions {
  private parsed?: { readonly documents: yamlModule.Document.Parsed[]; readonly lineCounter: yamlModule.LineCounter } | null;

  constructor(private readonly text: string) {}

  /**
   * The position of `path` (a field path of the object, '' for the object itself) in the object at
   * `place` (as `inputObjectsOf` names places), or of its nearest ancestor in the file; undefined
   * when the file does not parse or has no such object. `exact`: undefined unless the whole path is in the file.
   */
  public at(place: string, path: string, options: { readonly exact?: boolean } = {}): SourcePosition | undefined {
    const where = placeSteps(place);
    const parsed = this.parse();
    if (where === undefined || parsed === undefined) return undefined;
    const doc = parsed.documents[where.document];
    if (doc === undefined) return undefined;
    const Y = yaml();
    let node: unknown = doc.contents;
    let offset = (node as yamlModule.Node | null)?.range?.[0];
    const steps = [...where.steps, ...pathSteps(path)];
    let found = 0;
    for (const step of steps) {
      if (Y.isAlias(node)) node = node.resolve(doc);
      if (Y.isMap(node) && 'name' in step) {
        const pair = node.items.find(p => Y.isScalar(p.key) && String(p.key.value) === step.name);
        if (pair === undefined) break;
        offset = (pair.key as yamlModule.Node).range?.[0] ?? offset;
        node = pair.value;
        found++;
      } else if (Y.isSeq(node) && 'index' in step) {
        const item = node.items[step.index] as yamlModule.Node | undefined;
        if (item === undefined || item === null) break;
        offset = item.range?.[0] ?? offset;
        node = item;
        found++;
      } else {
        break;
      }
    }
    if (offset === undefined || (options.exact === true && found < steps.length)) return undefined;
    const { line, col } = parsed.lineCounter.linePos(offset);
    return { line, column: col };
  }

  private parse(): { readonly documents: yamlModule.Document.Parsed[]; readonly lineCounter: yamlModule.LineCounter } | undefined {
    if (this.parsed === undefined) {
      try {
        const Y = yaml();
        const lineCounter = new Y.LineCounter();
        const all = Y.parseAllDocuments(this.text, { schema: 'failsafe', uniqueKeys: false, lineCounter });
        // text that does not parse has no positions to give
        if (!Array.isArray(all) || all.some(doc => doc.errors.length > 0)) throw new Error('not YAML');
        const documents = all.filter(doc => {
          const contents = doc.contents;
          if (contents === null) return false;
          return !(Y.isScalar(contents) && contents.type === 'PLAIN' && NULL_SCALARS.has(String(contents.value)));
        });
        this.parsed = { documents, lineCounter };
      } catch {
        this.parsed = null;
      }
    }
    return this.parsed ?? undefined;
  }
}

/** `file:line:column` when the position is known, else `file`. */
export function fileAt(file: string, position: SourcePosition | undefined): string {
  return position === undefined ? file : `${file}:${position.line}:${position.column}`;
}
