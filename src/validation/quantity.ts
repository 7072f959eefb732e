/**
 * Kubernetes resource quantities (`2`, `"8Gi"`, `"500m"`, `"1e3"`), enough to compare them with
 * zero and to tell whole numbers from fractions.
 *
 * Internal module.
 */

/** The quantity pattern of the CRD schema (int-or-string fields such as sharedMemorySize). */
export const QUANTITY_PATTERN = '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))))?$';

const QUANTITY_SYNTAX = /^([+-]?)((?:[0-9]+(?:\.[0-9]*)?)|(?:\.[0-9]+))(.*)$/;

const BINARY_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };
const DECIMAL_SUFFIXES: Record<string, number> = { 'n': -9, 'u': -6, 'm': -3, '': 0, 'k': 3, 'M': 6, 'G': 9, 'T': 12, 'P': 15, 'E': 18 };

/** A parsed quantity: its sign and its (possibly approximate) numeric value. */
export interface Quantity {
  readonly sign: -1 | 0 | 1;
  readonly value: number;
}

/** Parses a quantity given as a number or a string; undefined when it is not a valid quantity. */
export function parseQuantity(raw: unknown): Quantity | undefined {
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw)) return undefined;
    return { sign: raw > 0 ? 1 : raw < 0 ? -1 : 0, value: raw };
  }
  if (typeof raw !== 'string') return undefined;
  const text = raw.trim();
  if (!new RegExp(QUANTITY_PATTERN).test(text)) return undefined;
  const match = QUANTITY_SYNTAX.exec(text);
  if (!match) return undefined;
  const negative = match[1] === '-';
  const mantissa = Number(match[2]);
  const suffix = match[3];
  let magnitude: number;
  if (suffix in BINARY_SUFFIXES) {
    magnitude = mantissa * Math.pow(2, BINARY_SUFFIXES[suffix]);
  } else if (suffix in DECIMAL_SUFFIXES) {
    magnitude = scaleByPowerOfTen(mantissa, DECIMAL_SUFFIXES[suffix]);
  } else {
    // decimal exponent form: e3, E-2, ...
    const exponent = Number(suffix.slice(1));
    if (!Number.isFinite(exponent)) return undefined;
    magnitude = scaleByPowerOfTen(mantissa, exponent);
  }
  if (!Number.isFinite(magnitude)) return undefined;
  const value = negative ? -magnitude : magnitude;
  return { sign: value > 0 ? 1 : value < 0 ? -1 : 0, value };
}

/** Multiplies or divides by a power of ten, dividing for negative exponents to keep `3000m` exactly 3. */
function scaleByPowerOfTen(mantissa: number, exponent: number): number {
  return exponent >= 0 ? mantissa * Math.pow(10, exponent) : mantissa / Math.pow(10, -exponent);
}
