/**
 * The operator overlays user-written Kubernetes structs on its defaults with mergo's
 * `Merge(dst, src, WithOverride)`. This module reproduces that overlay on plain JSON:
 *
 * - a value the user leaves empty (absent, `null`, `""`, `0`, `false`, empty list) never clears
 *   a default;
 * - where the default has nothing, the user's value is taken as written (even a zero pointer
 *   value such as `activeDeadlineSeconds: 0`);
 * - lists are replaced as a whole by a non-empty user list (never merged item by item);
 * - objects (structs, pointers to structs, maps) are merged key by key, recursively;
 * - other scalars are replaced by a non-empty user value.
 *
 * `intstr.IntOrString` is a Go struct of three fields (`Type`, `IntVal`, `StrVal`) and mergo
 * merges it field by field, so a numeric user port over a named default port keeps the name
 * (see `mergeIntOrString`). Probe and lifecycle handler ports are the IntOrString fields that
 * can meet a default.
 */
import { isMap, JsonMap } from '../model/json';
import { copyJson } from '../model/json-copy';

/** Whether mergo treats the value as empty (Go zero value, nil, or empty list). */
export function isMergoEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value === '';
  if (typeof value === 'number') return value === 0;
  if (typeof value === 'boolean') return !value;
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** Parent keys whose `port` field is an IntOrString (HTTP GET and TCP socket handlers). */
const INT_OR_STRING_PORT_PARENTS: ReadonlySet<string> = new Set(['httpGet', 'tcpSocket']);

/**
 * mergo's field-wise overlay of two IntOrString values: kind, number and name are each taken
 * from the user when non-zero, else from the default.
 */
export function mergeIntOrString(base: unknown, override: unknown): unknown {
  const parts = (v: unknown) => typeof v === 'string'
    ? { isString: true, int: 0, str: v }
    : { isString: false, int: typeof v === 'number' ? v : 0, str: '' };
  const b = parts(base);
  const o = parts(override);
  const isString = o.isString || b.isString;
  const int = o.int !== 0 ? o.int : b.int;
  const str = o.str !== '' ? o.str : b.str;
  return isString ? str : int;
}

/**
 * `base` with `override` overlaid the way mergo `WithOverride` does (see the module comment).
 * Neither argument is modified; the result shares no structure with them.
 */
export function mergoMerge<T>(base: T, override: unknown): T {
  return overlay(base, override, undefined) as T;
}

function overlay(base: unknown, override: unknown, parentKey: string | undefined): unknown {
  if (override === undefined || override === null) return copyJson(base);
  if (base === undefined || base === null) return copyJson(override);
  if (isMap(base) && isMap(override)) {
    const out: JsonMap = copyJson(base);
    for (const [key, value] of Object.entries(override)) {
      if (value === undefined) continue;
      out[key] = key === 'port' && parentKey !== undefined && INT_OR_STRING_PORT_PARENTS.has(parentKey)
        ? mergeIntOrString(base[key], value)
        : overlay(base[key], value, key);
    }
    return out;
  }
  return isMergoEmpty(override) ? copyJson(base) : copyJson(override);
}
