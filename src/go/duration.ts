/**
 * Go `time.Duration` text: parsing (`time.ParseDuration`) and printing (`Duration.String`), as the
 * operator reads durations from its configuration and writes them into objects (`15m` → `15m0s`).
 */

const NANOS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1_000n,
  µs: 1_000n, // U+00B5 micro sign
  μs: 1_000n, // U+03BC Greek mu
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

const MAX_DURATION = 2n ** 63n - 1n;

/**
 * Nanoseconds of a Go duration such as `1h30m`, `15m`, `1.5s`, `-2ms` or `0`; undefined when the
 * text is not a Go duration (or overflows int64).
 */
export function parseGoDuration(text: string): bigint | undefined {
  let rest = text;
  let negative = false;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    negative = rest[0] === '-';
    rest = rest.slice(1);
  }
  if (rest === '0') return 0n;
  if (rest === '') return undefined;
  let total = 0n;
  const part = /^([0-9]*)(?:\.([0-9]*))?(ns|us|µs|μs|ms|s|m|h)/;
  while (rest !== '') {
    const match = part.exec(rest);
    if (!match || (match[1] === '' && (match[2] ?? '') === '')) return undefined;
    const unit = NANOS[match[3]];
    const whole = BigInt(match[1] === '' ? '0' : match[1]);
    const fraction = match[2] ?? '';
    // the fraction, scaled to the unit and truncated (Go drops what is below a nanosecond)
    const scaled = fraction === '' ? 0n : (BigInt(fraction) * unit) / 10n ** BigInt(fraction.length);
    total += whole * unit + scaled;
    if (total > MAX_DURATION) return undefined;
    rest = rest.slice(match[0].length);
  }
  return negative ? -total : total;
}

/** `digits` of a non-negative value below `10^width`, with trailing zeros trimmed (`500000000`, 9 → `5`). */
function fractionText(value: bigint, width: number): string {
  return value.toString().padStart(width, '0').replace(/0+$/, '');
}

/** The Go text of a duration in nanoseconds (`Duration.String`): `15m0s`, `1h0m0s`, `1.5s`, `250ms`, `0s`. */
export function formatGoDuration(nanos: bigint): string {
  if (nanos === 0n) return '0s';
  const sign = nanos < 0n ? '-' : '';
  const d = nanos < 0n ? -nanos : nanos;
  if (d < 1_000_000_000n) {
    const [unit, size, width] = d < 1_000n ? ['ns', 1n, 0] : d < 1_000_000n ? ['µs', 1_000n, 3] : ['ms', 1_000_000n, 6];
    const whole = d / size;
    const frac = width === 0 ? '' : fractionText(d % size, width);
    return `${sign}${whole}${frac ? `.${frac}` : ''}${unit}`;
  }
  const hours = d / 3_600_000_000_000n;
  const minutes = (d / 60_000_000_000n) % 60n;
  const seconds = (d / 1_000_000_000n) % 60n;
  const frac = fractionText(d % 1_000_000_000n, 9);
  const secondsText = `${seconds}${frac ? `.${frac}` : ''}s`;
  if (hours > 0n) return `${sign}${hours}h${minutes}m${secondsText}`;
  if (minutes > 0n) return `${sign}${minutes}m${secondsText}`;
  return `${sign}${secondsText}`;
}
