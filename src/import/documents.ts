/** Reading YAML documents for import and for the CLI. */
import { yaml } from '../lazy-modules';

/** Parses multi-document YAML into plain objects; throws with the first syntax error's position. */
export function parseYamlDocuments(text: string, source = 'input'): unknown[] {
  const docs = yaml().parseAllDocuments(text);
  const out: unknown[] = [];
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const where = e.linePos?.[0] ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}` : 'unknown position';
      throw new Error(`${source}: invalid YAML at ${where}: ${e.message.split('\n')[0]}`);
    }
    const value = doc.toJS({ maxAliasCount: 1000 });
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
}

/** The single document of `kind` among `docs`. */
export function singleDocumentOfKind(docs: unknown[], kind: string): any {
  const matches = docs.filter(d => (d as any)?.kind === kind);
  if (matches.length !== 1) throw new Error(`expected exactly one ${kind} document, found ${matches.length}`);
  return matches[0];
}
