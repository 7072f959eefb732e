/**
 * The scalar pieces of Go's `encoding/json` output: string literals, float and integer text,
 * metav1.Time and metav1.Duration text, and Go's byte-wise string order. Shared by the text
 * encoder (`marshal.ts`) and the value builder (`value.ts`).
 */

/** The TypeError the Go encoders throw for a value of the wrong shape at `path`. */
export function typeError(path: string, expected: string, v: unknown): TypeError {
  const shown = typeof v === 'string' ? JSON.stringify(v) : Array.isArray(v) ? 'an array' : typeof v;
  return new TypeError(`go-json: ${path}: expected ${expected}, got ${shown}`);
}

export function isNil(v: unknown): v is null | undefined {
  return v === null || v === undefined;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The object's own keys that hold a defined value, in property order. */
export function definedKeys(obj: Record<string, unknown>): string[] {
  const keys = Object.keys(obj);
  for (const k of keys) {
    if (obj[k] === undefined) return keys.filter(key => obj[key] !== undefined);
  }
  return keys;
}

/** Whether the object has no key holding a defined value. */
export function hasNoDefinedKey(obj: Record<string, unknown>): boolean {
  for (const k in obj) {
    if (Object.prototype.hasOwnProperty.call(obj, k) && obj[k] !== undefined) return false;
  }
  return true;
}

/** Text of an integer value (a number that is an integer, or a bigint); throws otherwise. */
export function integerText(v: unknown, path: () => string): string {
  if (typeof v === 'bigint') return v.toString();
  if (typeof v !== 'number' || !Number.isInteger(v)) throw typeError(path(), 'an integer', v);
  if (Number.isSafeInteger(v)) return v === 0 ? '0' : String(v);
  return BigInt(v).toString();
}

/** Keys sorted byte-wise by their UTF-8 encodings (Go's order for map keys). Sorts in place. */
export function sortUtf8(keys: string[]): string[] {
  if (keys.length < 2) return keys;
  // UTF-16 code-unit order (JavaScript's `<` on strings) is UTF-8 byte order unless a key holds a
  // code unit from U+D800 up.
  for (const k of keys) {
    if (HIGH_CODE_UNIT.test(k)) return keys.sort(compareUtf8);
  }
  if (keys.length > 16) return keys.sort();
  // insertion sort: no work array, and usually already in order
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = k;
  }
  return keys;
}

const HIGH_CODE_UNIT = /[\ud800-\uffff]/;

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

/** Characters that Go escapes in a string literal (or that need a look: surrogates). */
const NEEDS_ESCAPE = /["\\<>&\u0000-\u001f\u2028\u2029\ud800-\udfff]/;

/** A JSON string literal as Go's encoder writes it (HTML escaping on). */
export function goQuote(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
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

const SURROGATE = /[\ud800-\udfff]/;

/**
 * The string Go's encoder writes, as read back: unpaired surrogates become U+FFFD, everything
 * else is kept (escapes read back to the characters they stand for).
 */
export function goString(s: string): string {
  if (!SURROGATE.test(s)) return s;
  let out = '';
  let start = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    const next = s.charCodeAt(i + 1);
    if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      i++;
      continue;
    }
    out += s.slice(start, i) + '\ufffd';
    start = i + 1;
  }
  return out + s.slice(start);
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
export function formatGoTime(text: string, path: () => string, micro: boolean): string {
  const m = RFC3339.exec(text);
  if (!m) throw typeError(path(), 'an RFC 3339 time', text);
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

/**
 * Go's JSON text of a scalar held in `interface{}` data (null, string, boolean, number as float64,
 * bigint), or undefined when `v` is an array or object.
 */
export function goScalarText(v: unknown): string | undefined {
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
      return undefined;
  }
}
