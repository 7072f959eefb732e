/**
 * Compact JSON exactly as Go's `encoding/json` writes it for a Go value that was read from the
 * given wire JSON.
 *
 * With a type (`GoTypeRef`, see `go-types.ts` for the notation) the value is treated as that Go
 * type: struct fields come out in Go declaration order, `omitempty`/`omitzero` drop fields the
 * way Go does, absent non-omitted fields come out as their Go zero value (`""`, `0`, `false`,
 * `null`, or the zero struct such as `"metadata":{}` / `"resources":{}`), map keys are sorted
 * byte-wise, quantities are written in Kubernetes canonical form, IntOrString keeps its kind,
 * metav1.Time is re-written as RFC 3339 UTC seconds and metav1.Duration in Go duration syntax.
 *
 * Without a type the value is encoded as Go encodes `interface{}` data (`map[string]any`,
 * `[]any`, `float64`, ...): object keys sorted byte-wise, numbers in Go float64 syntax.
 *
 * Strings are escaped as Go does with HTML escaping on: `<`, `>`, `&` become `\u003c`, `\u003e`,
 * `\u0026`; U+2028/U+2029 become `\u2028`/`\u2029`; `\b \f \n \r \t` use short escapes; other
 * control characters become `\u00XX`; unpaired surrogates become U+FFFD.
 *
 * Object keys that a struct layout does not know are, by default, appended after the known fields
 * in sorted order and reported through `onUnknownField` (Go itself would drop them; seeing them
 * usually means the layout table lags the API). Use `unknownFields: 'drop'` for Go's behaviour.
 */
import { DYNAMO_STRUCTS, K8S_CONTENT_STRUCTS, K8S_STRUCTS } from './go-types';
import { canonicalQuantity, isZeroQuantity } from './quantity';

/** A Go type expression in the notation of `go-types.ts`, e.g. `PodTemplateSpec`, `*i`, `{}q`. */
export type GoTypeRef = string;

export interface GoJsonOptions {
  /** Extra (or overriding) struct layouts, in the notation of `go-types.ts`. */
  readonly types?: Readonly<Record<string, string>>;
  /** What to do with object keys a struct layout does not list (default `append`). */
  readonly unknownFields?: 'append' | 'drop' | 'error';
  /** Called for every object key a struct layout does not list. */
  readonly onUnknownField?: (path: string, key: string) => void;
}

type Primitive = 's' | 'b' | 'i' | 'f64' | 'f32' | 'q' | 't' | 'mt' | 'ios' | 'dur' | 'bytes' | 'raw' | 'rawmsg' | 'any';
const PRIMITIVES: ReadonlySet<string> = new Set(['s', 'b', 'i', 'f64', 'f32', 'q', 't', 'mt', 'ios', 'dur', 'bytes', 'raw', 'rawmsg', 'any']);

/** A parsed type expression. */
export type GoType =
  | { readonly kind: 'ptr'; readonly elem: GoType }
  | { readonly kind: 'slice'; readonly elem: GoType }
  | { readonly kind: 'map'; readonly elem: GoType }
  | { readonly kind: 'prim'; readonly prim: Primitive }
  | { readonly kind: 'struct'; readonly name: string };

/** One JSON field of a struct after promotion of embedded structs. */
export interface GoField {
  readonly name: string;
  readonly omitEmpty: boolean;
  readonly omitZero: boolean;
  readonly type: GoType;
}

const BUILTIN_STRUCTS: Readonly<Record<string, string>> = (() => {
  const all: Record<string, string> = {};
  for (const table of [K8S_STRUCTS, K8S_CONTENT_STRUCTS, DYNAMO_STRUCTS]) {
    for (const [name, layout] of Object.entries(table)) {
      if (name in all) throw new Error(`go-types: struct ${name} is defined twice`);
      all[name] = layout;
    }
  }
  return all;
})();

/** Resolves type expressions and struct layouts (built-ins plus caller-supplied ones). */
export class GoTypeRegistry {
  private readonly layouts: Readonly<Record<string, string>>;
  private readonly parsedTypes = new Map<string, GoType>();
  private readonly fieldCache = new Map<string, readonly GoField[]>();

  constructor(extra?: Readonly<Record<string, string>>) {
    this.layouts = extra ? { ...BUILTIN_STRUCTS, ...extra } : BUILTIN_STRUCTS;
  }

  hasStruct(name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.layouts, name);
  }

  type(expr: GoTypeRef): GoType {
    let t = this.parsedTypes.get(expr);
    if (!t) {
      t = this.parseType(expr);
      this.parsedTypes.set(expr, t);
    }
    return t;
  }

  private parseType(expr: string): GoType {
    if (expr.startsWith('*')) return { kind: 'ptr', elem: this.type(expr.slice(1)) };
    if (expr.startsWith('[]')) return { kind: 'slice', elem: this.type(expr.slice(2)) };
    if (expr.startsWith('{}')) return { kind: 'map', elem: this.type(expr.slice(2)) };
    if (PRIMITIVES.has(expr)) return { kind: 'prim', prim: expr as Primitive };
    if (!this.hasStruct(expr)) throw new Error(`go-json: unknown Go type ${JSON.stringify(expr)}`);
    return { kind: 'struct', name: expr };
  }

  /** The struct's JSON fields in Go order, embedded structs promoted, Go's dominance rule applied. */
  fields(name: string): readonly GoField[] {
    let cached = this.fieldCache.get(name);
    if (!cached) {
      const flat: Array<GoField & { depth: number }> = [];
      this.collect(name, 0, flat, [name]);
      const shallowest = new Map<string, number>();
      const count = new Map<string, number>();
      for (const f of flat) {
        const d = shallowest.get(f.name);
        if (d === undefined || f.depth < d) {
          shallowest.set(f.name, f.depth);
          count.set(f.name, 1);
        } else if (f.depth === d) {
          count.set(f.name, count.get(f.name)! + 1);
        }
      }
      // A name defined more than once at its shallowest depth is ambiguous and Go drops it.
      cached = flat
        .filter(f => f.depth === shallowest.get(f.name) && count.get(f.name) === 1)
        .map(({ depth: _depth, ...f }) => f);
      this.fieldCache.set(name, cached);
    }
    return cached;
  }

  private collect(name: string, depth: number, out: Array<GoField & { depth: number }>, stack: string[]): void {
    if (!this.hasStruct(name)) throw new Error(`go-json: unknown Go struct ${JSON.stringify(name)}`);
    const layout = this.layouts[name].trim();
    if (layout === '') return;
    for (const token of layout.split(/\s+/)) {
      if (token.startsWith('...')) {
        const embedded = token.slice(3);
        if (stack.includes(embedded)) throw new Error(`go-json: struct ${name} embeds itself`);
        this.collect(embedded, depth + 1, out, [...stack, embedded]);
        continue;
      }
      const m = /^([^?~:]+)(\??)(~?):(.+)$/.exec(token);
      if (!m) throw new Error(`go-json: bad field ${JSON.stringify(token)} in struct ${name}`);
      out.push({ name: m[1], omitEmpty: m[2] === '?', omitZero: m[3] === '~', type: this.type(m[4]), depth });
    }
  }
}

const DEFAULT_REGISTRY = new GoTypeRegistry();

/** Encodes `value` as Go's `json.Marshal` would (see the module comment). */
export function goJsonEncode(value: unknown, type?: GoTypeRef, options: GoJsonOptions = {}): string {
  const registry = options.types ? new GoTypeRegistry(options.types) : DEFAULT_REGISTRY;
  const encoder = new Encoder(registry, options);
  if (type === undefined) return encoder.untyped(value, '$');
  return encoder.typed(value, registry.type(type), '$');
}

/** The registry behind `goJsonEncode` (for callers that walk values by Go type themselves). */
export function goTypeRegistry(types?: Readonly<Record<string, string>>): GoTypeRegistry {
  return types ? new GoTypeRegistry(types) : DEFAULT_REGISTRY;
}

class Encoder {
  constructor(private readonly registry: GoTypeRegistry, private readonly options: GoJsonOptions) {}

  typed(v: unknown, t: GoType, path: string): string {
    switch (t.kind) {
      case 'ptr':
        return isNil(v) ? 'null' : this.typed(v, t.elem, path);
      case 'slice': {
        if (isNil(v)) return 'null';
        if (!Array.isArray(v)) throw typeError(path, 'an array', v);
        return '[' + v.map((item, i) => this.typed(item, t.elem, `${path}[${i}]`)).join(',') + ']';
      }
      case 'map': {
        if (isNil(v)) return 'null';
        if (!isObject(v)) throw typeError(path, 'an object', v);
        const keys = definedKeys(v).sort(compareUtf8);
        return '{' + keys.map(k => goQuote(k) + ':' + this.typed(v[k], t.elem, `${path}.${k}`)).join(',') + '}';
      }
      case 'struct':
        return this.struct(v, t.name, path);
      case 'prim':
        return this.primitive(v, t.prim, path);
    }
  }

  private struct(v: unknown, name: string, path: string): string {
    if (!isNil(v) && !isObject(v)) throw typeError(path, `an object (${name})`, v);
    const obj: Record<string, unknown> = isNil(v) ? {} : (v as Record<string, unknown>);
    const fields = this.registry.fields(name);
    const used = new Set<string>();
    const exact = new Set(fields.map(f => f.name));
    const parts: string[] = [];
    for (const f of fields) {
      const key = matchKey(obj, f.name, used, exact);
      const fv = key === undefined ? undefined : obj[key];
      if (key !== undefined) used.add(key);
      if (f.omitEmpty && isEmptyValue(fv, f.type)) continue;
      if (f.omitZero && this.isZeroValue(fv, f.type)) continue;
      parts.push(goQuote(f.name) + ':' + this.typed(fv, f.type, `${path}.${f.name}`));
    }
    const unknown = definedKeys(obj).filter(k => !used.has(k)).sort(compareUtf8);
    for (const k of unknown) {
      this.options.onUnknownField?.(path, k);
      const mode = this.options.unknownFields ?? 'append';
      if (mode === 'error') throw new Error(`go-json: ${path}: field ${JSON.stringify(k)} is not part of Go struct ${name}`);
      if (mode === 'append') parts.push(goQuote(k) + ':' + this.untyped(obj[k], `${path}.${k}`));
    }
    return '{' + parts.join(',') + '}';
  }

  private primitive(v: unknown, prim: Primitive, path: string): string {
    switch (prim) {
      case 's':
        if (isNil(v)) return '""';
        if (typeof v !== 'string') throw typeError(path, 'a string', v);
        return goQuote(v);
      case 'b':
        if (isNil(v)) return 'false';
        if (typeof v !== 'boolean') throw typeError(path, 'a boolean', v);
        return v ? 'true' : 'false';
      case 'i':
        return isNil(v) ? '0' : integerText(v, path);
      case 'f64':
        if (isNil(v)) return '0';
        if (typeof v !== 'number') throw typeError(path, 'a number', v);
        return formatGoFloat(v, 64);
      case 'f32':
        if (isNil(v)) return '0';
        if (typeof v !== 'number') throw typeError(path, 'a number', v);
        return formatGoFloat(v, 32);
      case 'q':
        if (isNil(v)) return '"0"';
        if (typeof v !== 'string' && typeof v !== 'number') throw typeError(path, 'a quantity', v);
        return '"' + canonicalQuantity(v) + '"';
      case 't':
        if (isNil(v)) return 'null';
        if (typeof v !== 'string') throw typeError(path, 'an RFC 3339 time', v);
        return goQuote(formatGoTime(v, path, false));
      case 'mt':
        if (isNil(v)) return 'null';
        if (typeof v !== 'string') throw typeError(path, 'an RFC 3339 time', v);
        return goQuote(formatGoTime(v, path, true));
      case 'ios':
        if (isNil(v)) return '0';
        if (typeof v === 'string') return goQuote(v);
        return integerText(v, path);
      case 'dur':
        if (isNil(v)) return '"0s"';
        if (typeof v !== 'string') throw typeError(path, 'a duration string', v);
        return goQuote(formatGoDuration(parseGoDuration(v, path)));
      case 'bytes':
        if (isNil(v)) return 'null';
        if (typeof v !== 'string') throw typeError(path, 'base64 text', v);
        return goQuote(Buffer.from(v, 'base64').toString('base64'));
      case 'raw':
      case 'rawmsg':
      case 'any':
        return this.untyped(v, path);
    }
  }

  /** Go's `omitzero`: the Go value equals its zero value (or its `IsZero()` says so). */
  isZeroValue(v: unknown, t: GoType): boolean {
    if (isNil(v)) return true;
    switch (t.kind) {
      case 'ptr':
      case 'slice':
      case 'map':
        return false;
      case 'struct':
        if (!isObject(v)) return false;
        return this.registry.fields(t.name).every(f => this.isZeroValue(v[f.name], f.type));
      case 'prim':
        switch (t.prim) {
          case 's':
            return v === '';
          case 'b':
            return v === false;
          case 'i':
          case 'f64':
          case 'f32':
          case 'ios':
            return v === 0;
          case 'q':
            return (typeof v === 'string' || typeof v === 'number') && isZeroQuantity(v);
          case 't':
          case 'mt':
            return typeof v === 'string' && /^0001-01-01T00:00:00(\.0+)?(Z|[+-]00:00)$/.test(v);
          case 'dur':
            return typeof v === 'string' && /^[+-]?0+(\.0*)?(ns|us|µs|μs|ms|s|m|h)?$/.test(v);
          default:
            return false;
        }
    }
  }

  /** Go's encoding of `interface{}` values decoded from JSON. */
  untyped(v: unknown, path: string): string {
    if (isNil(v)) return 'null';
    switch (typeof v) {
      case 'string':
        return goQuote(v);
      case 'boolean':
        return v ? 'true' : 'false';
      case 'number':
        return formatGoFloat(v, 64);
      case 'bigint':
        return v.toString();
      default:
        break;
    }
    if (Array.isArray(v)) return '[' + v.map((x, i) => this.untyped(x, `${path}[${i}]`)).join(',') + ']';
    if (isObject(v)) {
      const keys = definedKeys(v).sort(compareUtf8);
      return '{' + keys.map(k => goQuote(k) + ':' + this.untyped(v[k], `${path}.${k}`)).join(',') + '}';
    }
    throw typeError(path, 'a JSON value', v);
  }
}

function isNil(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function definedKeys(obj: Record<string, unknown>): string[] {
  return Object.keys(obj).filter(k => obj[k] !== undefined);
}

/**
 * The object key Go's decoder would read into field `name`: the exact key, else (as Go matches
 * case-insensitively) the last key equal to it ignoring ASCII case.
 */
function matchKey(obj: Record<string, unknown>, name: string, used: ReadonlySet<string>, exact: ReadonlySet<string>): string | undefined {
  if (Object.prototype.hasOwnProperty.call(obj, name) && obj[name] !== undefined) return name;
  const lower = name.toLowerCase();
  let found: string | undefined;
  for (const k of Object.keys(obj)) {
    if (obj[k] !== undefined && !used.has(k) && !exact.has(k) && k.toLowerCase() === lower) found = k;
  }
  return found;
}

/** Go's `omitempty`: false, 0, "", nil pointer/interface, empty slice or map. Structs never. */
export function isEmptyValue(v: unknown, t: GoType): boolean {
  if (isNil(v)) return t.kind !== 'struct' && !(t.kind === 'prim' && STRUCT_PRIMITIVES.has(t.prim));
  switch (t.kind) {
    case 'ptr':
    case 'struct':
      return false;
    case 'slice':
      return Array.isArray(v) && v.length === 0;
    case 'map':
      return isObject(v) && definedKeys(v).length === 0;
    case 'prim':
      switch (t.prim) {
        case 's':
        case 'bytes':
        case 'rawmsg':
          return v === '';
        case 'b':
          return v === false;
        case 'i':
        case 'f64':
        case 'f32':
          return v === 0;
        default:
          return false;
      }
  }
}

/** Primitives that are Go structs (never dropped by `omitempty`, candidates for empty-struct stripping). */
export const STRUCT_PRIMITIVES: ReadonlySet<string> = new Set(['q', 't', 'mt', 'ios', 'dur', 'raw']);

function typeError(path: string, expected: string, v: unknown): TypeError {
  const shown = typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'an array' : typeof v;
  return new TypeError(`go-json: ${path}: expected ${expected}, got ${shown}`);
}

function integerText(v: unknown, path: string): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(path, 'an integer', v);
  return Object.is(v, -0) ? '0' : BigInt(v).toString();
}

/** Byte-wise comparison of the UTF-8 encodings (Go's string order). */
export function compareUtf8(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // UTF-16 order equals UTF-8 byte order except that surrogates (U+10000 and up) sort after
    // U+E000..U+FFFF in UTF-8.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (x >= 0xe000 || y >= 0xe000)) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

/** A JSON string literal as Go's encoder writes it (HTML escaping on). */
export function goQuote(s: string): string {
  let out = '"';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    let rep: string | undefined;
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) {
      switch (c) {
        case 0x22: rep = '\\"'; break;
        case 0x5c: rep = '\\\\'; break;
        case 0x0a: rep = '\\n'; break;
        case 0x0d: rep = '\\r'; break;
        case 0x09: rep = '\\t'; break;
        case 0x08: rep = '\\b'; break;
        case 0x0c: rep = '\\f'; break;
        default: rep = '\\u' + c.toString(16).padStart(4, '0');
      }
    } else if (c === 0x2028 || c === 0x2029) {
      rep = c === 0x2028 ? '\\u2028' : '\\u2029';
    } else if (c >= 0xd800 && c <= 0xdfff) {
      const next = s.charCodeAt(i + 1);
      if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        i++;
        continue;
      }
      rep = '\ufffd';
    }
    if (rep !== undefined) {
      out += s.slice(start, i) + rep;
      start = i + 1;
    }
  }
  return out + s.slice(start) + '"';
}

/**
 * A float as Go's encoder writes float64 (`bits` 64) or float32 (`bits` 32) values: the shortest
 * digits that read back to the same value, in plain notation for 1e-6 <= |v| < 1e21 and
 * exponent notation (`1e+21`, `1e-7`, `1.5e-10`) outside. JavaScript's number-to-string uses the
 * same digits, thresholds and exponent spelling, so only -0 and float32 need extra care.
 */
export function formatGoFloat(v: number, bits: 32 | 64): string {
  if (!Number.isFinite(v)) throw new TypeError(`go-json: unsupported value ${v}`);
  if (Object.is(v, -0)) return '-0';
  if (bits === 64) return String(v);
  const f = Math.fround(v);
  for (let p = 1; p <= 9; p++) {
    const shortest = Number(f.toPrecision(p));
    if (Math.fround(shortest) === f) return String(shortest);
  }
  return String(f);
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

/** metav1.Time / MicroTime text: RFC 3339 in UTC, whole seconds (or microseconds for MicroTime). */
function formatGoTime(text: string, path: string, micro: boolean): string {
  const m = RFC3339.exec(text);
  if (!m) throw typeError(path, 'an RFC 3339 time', text);
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  let offsetMinutes = 0;
  if (zone !== 'Z' && zone !== 'z') {
    const sign = zone[0] === '-' ? -1 : 1;
    offsetMinutes = sign * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  }
  const date = new Date(0);
  date.setUTCFullYear(Number(y), Number(mo) - 1, Number(d));
  date.setUTCHours(Number(h), Number(mi) - offsetMinutes, Number(s), 0);
  const iso = date.toISOString().replace(/\.\d{3}Z$/, '');
  if (!micro) return iso + 'Z';
  const us = ((frac ?? '.').slice(1) + '000000').slice(0, 6);
  return `${iso}.${us}Z`;
}

const DURATION_UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1000000n,
  s: 1000000000n,
  m: 60000000000n,
  h: 3600000000000n,
};

/** Go's `time.ParseDuration`, in nanoseconds. */
export function parseGoDuration(text: string, path = '$'): bigint {
  const bad = () => typeError(path, 'a Go duration', text);
  let s = text;
  let negative = false;
  if (s[0] === '-' || s[0] === '+') {
    negative = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') throw bad();
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?([^.0-9]*)/.exec(s)!;
    const [all, whole, frac, unitText] = m;
    if (whole === '' && (frac ?? '') === '') throw bad();
    const unit = Object.prototype.hasOwnProperty.call(DURATION_UNITS, unitText) ? DURATION_UNITS[unitText] : undefined;
    if (unit === undefined) throw bad();
    s = s.slice(all.length);
    total += BigInt(whole || '0') * unit;
    if (frac) {
      // Go adds the fraction as uint64(float64(f) * (float64(unit) / scale)).
      const digits = frac.slice(0, 18);
      const scaled = Number(BigInt(digits)) * (Number(unit) / 10 ** digits.length);
      total += BigInt(Math.trunc(scaled));
    }
  }
  return negative ? -total : total;
}

/** Go's `time.Duration.String()`. */
export function formatGoDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const negative = ns < 0n;
  let u = negative ? -ns : ns;
  let out: string;
  if (u < 1000000000n) {
    let unit: string;
    let prec: number;
    if (u < 1000n) {
      unit = 'ns';
      prec = 0;
    } else if (u < 1000000n) {
      unit = '\u00b5s';
      prec = 3;
    } else {
      unit = 'ms';
      prec = 6;
    }
    out = fraction(u, prec) + unit;
  } else {
    const secs = fraction(u, 9);
    const whole = u / 1000000000n;
    const fracPart = secs.includes('.') ? secs.slice(secs.indexOf('.')) : '';
    out = `${whole % 60n}${fracPart}s`;
    u = whole / 60n;
    if (u > 0n) {
      out = `${u % 60n}m` + out;
      u /= 60n;
      if (u > 0n) out = `${u}h` + out;
    }
  }
  return (negative ? '-' : '') + out;
}

/** `v / 10^prec` with the fraction's trailing zeros (and a bare point) removed. */
function fraction(v: bigint, prec: number): string {
  const d = 10n ** BigInt(prec);
  const whole = v / d;
  const rest = (v % d).toString().padStart(prec, '0').replace(/0+$/, '');
  return rest === '' ? whole.toString() : `${whole}.${rest}`;
}
