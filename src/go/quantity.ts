/**
 * Kubernetes `resource.Quantity` as Go reads and prints it (k8s.io/apimachinery `ParseQuantity`
 * followed by `MarshalJSON`), and the CRD schema's quantity pattern with the approximate numeric
 * reading the schema-level checks use.
 *
 * Covered: plain and signed decimals (`1`, `-2`, `0.5`, `+3`), decimal SI suffixes
 * (`n u m "" k M G T P E`), binary suffixes (`Ki Mi Gi Ti Pi Ei`), decimal exponents
 * (`1e3`, `2E-6`), rounding up to nano precision, the 2^63-1 cap on binary values, and the
 * rule that a value already written canonically keeps its exact original text (so `+1` and
 * `1E3` stay as written, `1000` becomes `1k`, `1024Mi` becomes `1Gi`, `1.5Gi` becomes
 * `1536Mi`).
 *
 * Every step is bounded by the length of the text, whatever its exponent: `1e999999999` is read,
 * compared and written without ever forming 10^999999999 (comparison goes by the position of the
 * leading digit first, as k8s.io/apimachinery's bounded `Quantity.Cmp` does). The exponent is
 * read as Go reads it: a 64-bit integer (more digits are an unknown suffix) cut to 32 bits, and
 * the scale arithmetic wraps at 32 bits as Go's `int32` does.
 *
 * Not covered: a JavaScript number cannot carry the spelling it was written with, so numbers are
 * read through `String(n)` (`1e3` written as a YAML number arrives as 1000 and becomes `1k`,
 * whereas the string `"1e3"` stays `1e3`).
 */

/** The quantity pattern of the CRD schema (int-or-string fields such as sharedMemorySize). */
export const QUANTITY_PATTERN = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

type QuantityFormat = 'DecimalSI' | 'BinarySI' | 'DecimalExponent';

/** value = unscaled * 10^exp10 */
export interface Amount {
  unscaled: bigint;
  exp10: number;
}

export interface ParsedQuantity {
  amount: Amount;
  format: QuantityFormat;
  /** Set when the input text is already canonical and is written back unchanged. */
  verbatim?: string;
}

const INT64_MAX = 2n ** 63n - 1n;
const DECIMAL_SUFFIXES: ReadonlyArray<[string, number]> = [
  ['n', -9], ['u', -6], ['m', -3], ['', 0], ['k', 3], ['M', 6], ['G', 9], ['T', 12], ['P', 15], ['E', 18],
];
const BINARY_SUFFIXES: ReadonlyArray<[string, number]> = [
  ['Ki', 10], ['Mi', 20], ['Gi', 30], ['Ti', 40], ['Pi', 50], ['Ei', 60],
];
const SUFFIX_LETTERS = 'eEinumkKMGTP';

export class QuantityParseError extends Error {
  constructor(text: string, reason: string) {
    super(`invalid quantity ${JSON.stringify(text)}: ${reason}`);
    this.name = 'QuantityParseError';
  }
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

interface Scanned {
  positive: boolean;
  /** sign, digits and fraction exactly as written (without the suffix) */
  numberText: string;
  intDigits: string;
  fracDigits: string;
  suffix: string;
  /** What follows the suffix: empty for text Go reads */
  rest: string;
}

/**
 * Splits quantity text into sign, integer digits, fraction digits, suffix (letters, then an
 * optional sign and digits) and whatever follows. The one lexical reading of quantity text: Go's
 * parser below and the schema checks' `schemaQuantity` both start from it.
 */
function scan(text: string): Scanned {
  let pos = 0;
  const end = text.length;
  let positive = true;
  if (text[0] === '-') {
    positive = false;
    pos++;
  } else if (text[0] === '+') {
    pos++;
  }
  while (pos < end && text[pos] === '0') pos++;
  if (pos >= end) return { positive, numberText: '0', intDigits: '0', fracDigits: '', suffix: '', rest: '' };

  const intStart = pos;
  while (pos < end && isDigit(text[pos])) pos++;
  let intDigits = text.slice(intStart, pos);
  if (pos >= end) return { positive, numberText: text, intDigits: intDigits || '0', fracDigits: '', suffix: '', rest: '' };
  if (intDigits === '') intDigits = '0';

  let fracDigits = '';
  if (text[pos] === '.') {
    pos++;
    const fracStart = pos;
    while (pos < end && isDigit(text[pos])) pos++;
    fracDigits = text.slice(fracStart, pos);
    if (pos >= end) return { positive, numberText: text, intDigits, fracDigits, suffix: '', rest: '' };
  }
  const numberText = text.slice(0, pos);

  const suffixStart = pos;
  while (pos < end && SUFFIX_LETTERS.includes(text[pos])) pos++;
  if (pos < end && (text[pos] === '-' || text[pos] === '+')) pos++;
  while (pos < end && isDigit(text[pos])) pos++;
  return { positive, numberText, intDigits, fracDigits, suffix: text.slice(suffixStart, pos), rest: text.slice(pos) };
}

interface SuffixMeaning {
  base: 2 | 10;
  exponent: number;
  format: QuantityFormat;
}

function interpretSuffix(suffix: string): SuffixMeaning | undefined {
  for (const [s, e] of DECIMAL_SUFFIXES) if (s === suffix) return { base: 10, exponent: e, format: 'DecimalSI' };
  for (const [s, e] of BINARY_SUFFIXES) if (s === suffix) return { base: 2, exponent: e, format: 'BinarySI' };
  if (suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E')) {
    const exponent = goInt32OfInt64Text(suffix.slice(1));
    return exponent === undefined ? undefined : { base: 10, exponent, format: 'DecimalExponent' };
  }
  return undefined;
}

/**
 * Go's `int32(strconv.ParseInt(text, 10, 64))`: undefined when the text is not a decimal integer
 * or is out of the 64-bit range, else the value cut to its low 32 bits (two's complement).
 */
function goInt32OfInt64Text(text: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(text)) return undefined;
  const negative = text[0] === '-';
  const digits = text.replace(/^[+-]/, '').replace(/^0+/, '');
  // 2^63 has 19 digits: anything longer is out of range without reading it
  if (digits.length > 19) return undefined;
  const value = BigInt(negative ? `-${digits || '0'}` : digits || '0');
  if (value > INT64_MAX || value < -INT64_MAX - 1n) return undefined;
  return Number(BigInt.asIntN(32, value));
}

/** Go's `int32` wrap-around of the result of an `int32` operation. */
const int32 = (n: number): number => Number(BigInt.asIntN(32, BigInt(n)));

/** How many decimal digits a non-negative integer has (1 for zero). */
function digitCount(n: bigint): number {
  return n.toString().length;
}

/** Splits the trailing zeros of a non-negative integer off: [rest, how many]. */
function withoutTrailingZeros(n: bigint): [bigint, number] {
  if (n === 0n) return [0n, 0];
  const text = n.toString();
  let end = text.length;
  while (text.charCodeAt(end - 1) === 48) end--;
  return end === text.length ? [n, 0] : [BigInt(text.slice(0, end)), text.length - end];
}

function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/** Reads quantity text the way Kubernetes does (value, format and canonical-text reuse). */
export function parseQuantity(input: string): ParsedQuantity {
  const text = input.trim();
  if (text.length === 0) throw new QuantityParseError(input, 'empty');
  if (text === '0') return { amount: { unscaled: 0n, exp10: 0 }, format: 'DecimalSI', verbatim: text };

  const sc = scan(text);
  if (sc.rest !== '') throw new QuantityParseError(text, 'unexpected characters');
  const meaning = interpretSuffix(sc.suffix);
  if (!meaning) throw new QuantityParseError(input, `unknown suffix ${JSON.stringify(sc.suffix)}`);

  // Exact-integer path: the value fits int64 after shifting the fraction into the exponent.
  let precision: number;
  let scale = 0;
  let multiplier = 1n;
  if (meaning.format === 'BinarySI') {
    if (meaning.exponent >= 0 && sc.fracDigits === '') {
      multiplier = 2n ** BigInt(meaning.exponent);
      precision = 15 - sc.intDigits.length - Math.trunc((meaning.exponent * 3) / 10) - 1;
    } else {
      precision = -1;
    }
  } else {
    scale = meaning.exponent;
    precision = 18 - (sc.intDigits.length + sc.fracDigits.length);
  }
  if (precision >= 0) {
    scale = int32(scale - sc.fracDigits.length);
    if (scale >= -9) {
      const digits = sc.intDigits + sc.fracDigits;
      const magnitude = BigInt(digits) * multiplier;
      if (magnitude <= INT64_MAX) {
        const unscaled = sc.positive ? magnitude : -magnitude;
        const amount = { unscaled, exp10: scale };
        let canonical: boolean;
        if (meaning.format === 'BinarySI') {
          canonical = meaning.exponent % 10 === 0 && BigInt(digits) % 8n !== 0n;
        } else {
          canonical = scale % 3 === 0 && !digits.endsWith('000') && digits[0] !== '0';
        }
        return canonical ? { amount, format: meaning.format, verbatim: text } : { amount, format: meaning.format };
      }
    }
  }

  // Arbitrary-precision path: Go's inf.Dec scale is the fraction's length less the exponent, in int32.
  let magnitude = BigInt(sc.intDigits + sc.fracDigits);
  let exp10 = -sc.fracDigits.length;
  if (meaning.base === 10) exp10 = -int32(sc.fracDigits.length + int32(-meaning.exponent));
  else magnitude *= 2n ** BigInt(meaning.exponent);
  // Non-zero values are rounded up (away from zero) to nano precision: a value below 1n becomes 1n.
  if (magnitude !== 0n && exp10 < -9) {
    const dropped = -9 - exp10;
    if (digitCount(magnitude) <= dropped) {
      magnitude = 1n;
    } else {
      const divisor = pow10(dropped);
      magnitude = (magnitude + divisor - 1n) / divisor;
    }
    exp10 = -9;
  }
  let format = meaning.format;
  if (format === 'BinarySI') {
    if (compare({ unscaled: magnitude, exp10 }, { unscaled: INT64_MAX, exp10: 0 }) > 0) {
      magnitude = INT64_MAX;
      exp10 = 0;
    }
    if (magnitude !== 0n && compare({ unscaled: magnitude, exp10 }, { unscaled: 1n, exp10: 0 }) < 0) format = 'DecimalSI';
  }
  return { amount: { unscaled: sc.positive ? magnitude : -magnitude, exp10 }, format };
}

/**
 * Compares two amounts by value: by sign, then by the position of the leading digit, and only when
 * those agree by the digits lined up (the exponents then differ by at most the longer's digits).
 */
function compare(a: Amount, b: Amount): number {
  const sa = amountSign(a);
  const sb = amountSign(b);
  if (sa !== sb) return sa < sb ? -1 : 1;
  if (sa === 0) return 0;
  const x = sa < 0 ? -a.unscaled : a.unscaled;
  const y = sb < 0 ? -b.unscaled : b.unscaled;
  const leadX = digitCount(x) + a.exp10;
  const leadY = digitCount(y) + b.exp10;
  let order: number;
  if (leadX !== leadY) {
    order = leadX < leadY ? -1 : 1;
  } else {
    const e = Math.min(a.exp10, b.exp10);
    const xs = x * pow10(a.exp10 - e);
    const ys = y * pow10(b.exp10 - e);
    order = xs < ys ? -1 : xs > ys ? 1 : 0;
  }
  return order === 0 ? 0 : sa * order;
}

/** Whether an amount is a whole number. */
export function isWholeAmount(a: Amount): boolean {
  if (a.unscaled === 0n || a.exp10 >= 0) return true;
  const [, zeros] = withoutTrailingZeros(a.unscaled < 0n ? -a.unscaled : a.unscaled);
  return zeros >= -a.exp10;
}

/** The value of an amount as a JavaScript integer, or undefined when it is not whole or not a safe integer. */
export function safeIntegerAmount(a: Amount): number | undefined {
  if (a.unscaled === 0n) return 0;
  if (!isWholeAmount(a)) return undefined;
  if (compare(a, { unscaled: BigInt(Number.MAX_SAFE_INTEGER), exp10: 0 }) > 0) return undefined;
  if (compare(a, { unscaled: BigInt(Number.MIN_SAFE_INTEGER), exp10: 0 }) < 0) return undefined;
  const value = a.exp10 >= 0 ? a.unscaled * pow10(a.exp10) : a.unscaled / pow10(-a.exp10);
  return Number(value);
}

function removeFactors(n: bigint, factor: bigint): [bigint, number] {
  let times = 0;
  while (n !== 0n && n % factor === 0n) {
    n /= factor;
    times++;
  }
  return [n, times];
}

/** The canonical text of a parsed quantity (without quotes). */
export function formatQuantity(q: ParsedQuantity): string {
  if (q.verbatim !== undefined) return q.verbatim;
  const { amount } = q;
  if (amount.unscaled === 0n) return '0';

  let format = q.format;
  if (format === 'BinarySI') {
    if (compare(amount, { unscaled: -1024n, exp10: 0 }) > 0 && compare(amount, { unscaled: 1024n, exp10: 0 }) < 0) {
      format = 'DecimalSI';
    } else if (!isWholeAmount(amount)) {
      format = 'DecimalSI';
    }
  }

  if (format === 'BinarySI') {
    // a binary amount is capped at 2^63-1 when read, so its integer value is small
    const integer = amount.exp10 >= 0 ? amount.unscaled * pow10(amount.exp10) : amount.unscaled / pow10(-amount.exp10);
    const [mantissa, times] = removeFactors(integer, 1024n);
    const suffix = BINARY_SUFFIXES.find(([, e]) => e === times * 10)?.[0] ?? '';
    return mantissa.toString() + suffix;
  }

  // Go's int32 exponent arithmetic, wrap-around included
  const negative = amount.unscaled < 0n;
  const [digits, times] = withoutTrailingZeros(negative ? -amount.unscaled : amount.unscaled);
  let mantissa = negative ? -digits : digits;
  let exponent = int32(int32(amount.exp10) + times);
  const remainder = exponent % 3;
  if (remainder === 1 || remainder === -2) {
    mantissa *= 10n;
    exponent = int32(exponent - 1);
  } else if (remainder === 2 || remainder === -1) {
    mantissa *= 100n;
    exponent = int32(exponent - 2);
  }
  let suffix: string;
  if (format === 'DecimalExponent') {
    suffix = exponent === 0 ? '' : `e${exponent}`;
  } else {
    // Kubernetes has no decimal suffix beyond E (10^18); such values lose their suffix there too.
    suffix = DECIMAL_SUFFIXES.find(([, e]) => e === exponent)?.[0] ?? '';
  }
  return mantissa.toString() + suffix;
}

/**
 * The text Kubernetes writes for a quantity given as a string or a number
 * (`"8Gi"` → `8Gi`, `1` → `1`, `0.5` → `500m`, `"1000Mi"` → `1000Mi`, `"1024Mi"` → `1Gi`).
 */
export function canonicalQuantity(value: string | number): string {
  const text = typeof value === 'number' ? textOfNumber(value) : value;
  let canonical = CANONICAL_TEXTS.get(text);
  if (canonical === undefined) {
    canonical = formatQuantity(parseQuantity(text));
    if (CANONICAL_TEXTS.size >= MAX_REMEMBERED) CANONICAL_TEXTS.clear();
    CANONICAL_TEXTS.set(text, canonical);
  }
  return canonical;
}

/** Canonical texts already worked out (the same few quantities recur in every pod template). */
const CANONICAL_TEXTS = new Map<string, string>();
const MAX_REMEMBERED = 4096;

function textOfNumber(n: number): string {
  if (!Number.isFinite(n)) throw new QuantityParseError(String(n), 'not a finite number');
  return String(n);
}

/** Whether a quantity value is zero (Go's `Quantity.IsZero`). */
export function isZeroQuantity(value: string | number): boolean {
  const text = typeof value === 'number' ? textOfNumber(value) : value;
  return parseQuantity(text).amount.unscaled === 0n;
}

/** Compares two quantities given as strings or numbers by value (Go's `Quantity.Cmp`): -1, 0 or 1. Throws on an invalid quantity. */
export function compareQuantities(a: string | number, b: string | number): number {
  const read = (v: string | number) => parseQuantity(typeof v === 'number' ? textOfNumber(v) : v).amount;
  return compare(read(a), read(b));
}

/** The sign of an amount: -1, 0 or 1. */
export function amountSign(a: Amount): -1 | 0 | 1 {
  return a.unscaled > 0n ? 1 : a.unscaled < 0n ? -1 : 0;
}

/**
 * A quantity as the schema-level checks read it: its sign and its (possibly approximate)
 * numeric value, enough to compare it with zero and to tell whole numbers from fractions.
 */
export interface Quantity {
  readonly sign: -1 | 0 | 1;
  readonly value: number;
}

const SCHEMA_QUANTITY = new RegExp(QUANTITY_PATTERN);

/**
 * Reads a quantity given as a number or a string by the CRD pattern (`2`, `"8Gi"`, `"500m"`,
 * `"1e3"`); undefined when it is not a valid quantity there. Text Go reads has Go's exact sign and
 * value (rounded to nano precision; a value beyond floating point is ±Infinity: `-1e999999999` is
 * negative, `1e-999999999` is 1n); text only the pattern takes (an exponent with a fraction) is
 * computed in floating point (`3000m` is exactly 3).
 */
export function schemaQuantity(raw: unknown): Quantity | undefined {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return undefined;
    return { sign: raw > 0 ? 1 : raw < 0 ? -1 : 0, value: raw };
  }
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (!SCHEMA_QUANTITY.test(text)) return undefined;
  try {
    const { amount } = parseQuantity(text);
    return { sign: amountSign(amount), value: Number(`${amount.unscaled}e${amount.exp10}`) };
  } catch (e) {
    if (!(e instanceof QuantityParseError)) throw e;
  }
  const parts = scan(text);
  if (!/[1-9]/.test(parts.intDigits + parts.fracDigits)) return { sign: 0, value: 0 };
  const mantissa = Number(`${parts.intDigits}.${parts.fracDigits}`);
  // the pattern lets an exponent have a fraction (`1e2.5`), which Go's suffix stops before
  const suffix = parts.suffix + parts.rest;
  const binary = BINARY_SUFFIXES.find(([s]) => s === suffix);
  const decimal = DECIMAL_SUFFIXES.find(([s]) => s === suffix);
  let magnitude: number;
  if (binary) {
    magnitude = mantissa * Math.pow(2, binary[1]);
  } else if (decimal) {
    magnitude = scaleByPowerOfTen(mantissa, decimal[1]);
  } else {
    // decimal exponent form: e3, E-2, ...
    const exponent = Number(suffix.slice(1));
    if (!Number.isFinite(exponent)) return undefined;
    magnitude = scaleByPowerOfTen(mantissa, exponent);
  }
  if (Number.isNaN(magnitude)) return undefined;
  // the sign is the mantissa's, whatever the exponent makes of the floating-point value
  return { sign: parts.positive ? 1 : -1, value: parts.positive ? magnitude : -magnitude };
}

/** Multiplies or divides by a power of ten, dividing for negative exponents to keep `3000m` exactly 3. */
function scaleByPowerOfTen(mantissa: number, exponent: number): number {
  return exponent >= 0 ? mantissa * Math.pow(10, exponent) : mantissa / Math.pow(10, -exponent);
}
