/**
 * Puts violations in document order: by the position of their field in the document (a field
 * that is missing sorts after its present siblings), keeping reporting order for the same field.
 *
 * Internal module.
 */
import { FieldPath } from './field-path';
import { ViolationRecord } from './violation';
import { isMap } from '../model/json';

/**
 * Position of each path step in the document. An absent field sorts after the present fields of
 * its object, absent fields among themselves by name.
 */
function positionKey(path: FieldPath, doc: unknown): Array<number | string> {
  const key: Array<number | string> = [];
  let current: unknown = doc;
  for (const segment of path.segments) {
    if (current === undefined) {
      key.push(0);
      continue;
    }
    if (segment.kind === 'index') {
      key.push(segment.index);
      current = Array.isArray(current) ? current[segment.index] : undefined;
      continue;
    }
    const name = segment.kind === 'field' ? segment.name : segment.key;
    if (isMap(current)) {
      const keys = Object.keys(current);
      const position = keys.indexOf(name);
      if (position >= 0) {
        key.push(position);
        current = current[name];
      } else {
        key.push(keys.length, name);
        current = undefined;
      }
    } else {
      key.push(0);
      current = undefined;
    }
  }
  return key;
}

function compareKeys(a: Array<number | string>, b: Array<number | string>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i];
    const y = b[i];
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    if (typeof x === 'string' && typeof y === 'string') return x < y ? -1 : 1;
    return typeof x === 'number' ? -1 : 1;
  }
  return a.length - b.length;
}

/** The records sorted by document position (a stable sort). */
export function inDocumentOrder(records: readonly ViolationRecord[], doc: unknown): ViolationRecord[] {
  const keyed = records.map((record, i) => ({ record, i, key: positionKey(record.path, doc) }));
  keyed.sort((x, y) => compareKeys(x.key, y.key) || x.i - y.i);
  return keyed.map(({ record }) => record);
}
