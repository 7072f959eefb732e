/**
 * Helpers over plain JSON values, shared by the engine, validation and import.
 *
 * Defensive readers for untrusted, parsed YAML/JSON. A value of the wrong type reads as absent
 * (`undefined`), so rules never throw on malformed input; the structural check reports the type
 * error itself. `null` reads as absent too (the API server drops nulls of non-nullable fields).
 *
 * Internal module.
 */

/** A JSON object. */
export type JsonMap = { [key: string]: unknown };

export function isMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object at `obj[key]`, or undefined. */
export function mapAt(obj: unknown, key: string): JsonMap | undefined {
  if (!isMap(obj)) return undefined;
  const value = obj[key];
  return isMap(value) ? value : undefined;
}

/** The list at `obj[key]`, or undefined. */
export function listAt(obj: unknown, key: string): unknown[] | undefined {
  if (!isMap(obj)) return undefined;
  const value = obj[key];
  return Array.isArray(value) ? value : undefined;
}

/** The string at `obj[key]`, or undefined. */
export function stringAt(obj: unknown, key: string): string | undefined {
  if (!isMap(obj)) return undefined;
  const value = obj[key];
  return typeof value === 'string' ? value : undefined;
}

/** The integer at `obj[key]`, or undefined. */
export function intAt(obj: unknown, key: string): number | undefined {
  if (!isMap(obj)) return undefined;
  const value = obj[key];
  return typeof value === 'number' && Number.isInteger(value) ? value : undefined;
}

/** The boolean at `obj[key]`, or undefined. */
export function boolAt(obj: unknown, key: string): boolean | undefined {
  if (!isMap(obj)) return undefined;
  const value = obj[key];
  return typeof value === 'boolean' ? value : undefined;
}

/** Whether `obj[key]` is present and not null (CEL `has()`, after null pruning). */
export function has(obj: unknown, key: string): boolean {
  return isMap(obj) && Object.prototype.hasOwnProperty.call(obj, key) && obj[key] !== null && obj[key] !== undefined;
}

/** The items of a list that are strings, with their indexes. */
export function stringItems(list: unknown[] | undefined): Array<{ value: string; index: number }> {
  const out: Array<{ value: string; index: number }> = [];
  (list ?? []).forEach((value, index) => {
    if (typeof value === 'string') out.push({ value, index });
  });
  return out;
}

/** ASCII-only lower casing, as CEL `lowerAscii()` does. */
export function lowerAscii(value: string): string {
  return value.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** Byte-wise (UTF-16 code unit) string comparison, as Go's `<` on ASCII strings. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Whether two JSON values are equal as JSON: key order ignored, and a member whose value is
 * undefined is as good as absent (JSON has no undefined). The one JSON equality of the library
 * (admission's update and CEL transition rules, the diff, construct pod templates).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isMap(a) && isMap(b)) {
    const ka = Object.keys(a).filter(k => a[k] !== undefined);
    const kb = Object.keys(b).filter(k => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every(k => jsonEqual(a[k], b[k]));
  }
  return false;
}
