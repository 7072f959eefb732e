/**
 * Values as the operator's Go types hold them: a wire value read into a Go type and written back
 * (`goView`), Go JSON text (`goText`), and the comparisons the conversion makes on Go values
 * (`semanticEqual`, `isGoZero`).
 */
import { CONVERSION_GO_TYPES } from './go-types';
import { goJsonEncode } from '../../go/marshal';
import { goJsonValue } from '../../go/value';
import { isMap } from '../../model/json';

/** A JSON object of a Go view. */
export type GoMap = { [key: string]: any };

/** The value as the Go type reads and writes it back (unknown fields dropped). */
export function goView(value: unknown, type: string): any {
  return goJsonValue(value, type, { types: CONVERSION_GO_TYPES, unknownFields: 'drop' });
}

/** Go's `json.Marshal` text of the value read as the Go type. */
export function goText(value: unknown, type: string): string {
  return goJsonEncode(value, type, { types: CONVERSION_GO_TYPES, unknownFields: 'drop' });
}

/**
 * `apimachinery`'s `Semantic.DeepEqual` of two values of a Go type: equal Go values, an empty
 * list or map equal to none, quantities compared by value (both are canonical in a Go view).
 */
export function semanticEqual(a: unknown, b: unknown, type: string): boolean {
  return JSON.stringify(withoutEmpties(goView(a ?? null, type))) === JSON.stringify(withoutEmpties(goView(b ?? null, type)));
}

/** Whether the value reads as the Go zero value of the type (empty lists and maps count as none). */
export function isGoZero(value: unknown, type: string): boolean {
  return JSON.stringify(withoutEmpties(goView(value ?? null, type))) === zeroText(type);
}

/** `semanticEqual`'s text of the Go zero value, by type (the layouts are a frozen table: the text cannot change). */
const ZERO_TEXTS = new Map<string, string>();

function zeroText(type: string): string {
  let text = ZERO_TEXTS.get(type);
  if (text === undefined) {
    text = JSON.stringify(withoutEmpties(goView({}, type)));
    ZERO_TEXTS.set(type, text);
  }
  return text;
}

/** The value with nulls and empty lists left out (objects keep their key order). */
function withoutEmpties(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(item => withoutEmpties(item) ?? null);
  if (isMap(value)) {
    const out: GoMap = {};
    for (const [key, item] of Object.entries(value)) {
      const kept = withoutEmpties(item);
      if (kept !== undefined) out[key] = kept;
    }
    return out;
  }
  return value === null ? undefined : value;
}


/** Whether a list holds items. */
export function nonEmpty(list: unknown): list is any[] {
  return Array.isArray(list) && list.length > 0;
}

/** Whether a map holds keys. */
export function hasKeys(map: unknown): map is GoMap {
  return isMap(map) && Object.keys(map).length > 0;
}
