/**
 * YAML text exactly as `sigs.k8s.io/yaml` v1.6 `Marshal` writes it for JSON data.
 *
 * `sigs.k8s.io/yaml` encodes a value to JSON, decodes that JSON with go-yaml v2.4 into untyped Go
 * values and marshals them with go-yaml v2.4. The result therefore follows go-yaml v2's emitter:
 *
 * - mapping keys sorted in go-yaml's "natural" key order (digit runs compare as numbers, and at
 *   the first differing character a non-letter sorts before a letter);
 * - block style with two-space indentation; a sequence that is a mapping value is not indented
 *   under its key; empty sequences and mappings are written `[]` and `{}`;
 * - strings plain when go-yaml would read them back as the same string, double-quoted when they
 *   would read as another type (`"true"`, `"1"`, `""`, `"2024-01-01"`), single-quoted when plain
 *   style is not possible (leading indicator, `: `, ` #`, surrounding spaces), literal block
 *   (`|`, `|-`, `|+`) when they contain a newline and block style is possible, double-quoted
 *   with escapes otherwise;
 * - integers in decimal, other numbers in Go's shortest `%g` form (`0.5`, `1e-07`, `1.5e+06`);
 * - long plain and quoted strings folded at the first space after column 80 (go-yaml v2's
 *   default line width; `sigs.k8s.io/yaml` does not disable it).
 *
 * Input is plain JSON data (objects, arrays, strings, finite numbers, booleans, null) as
 * `JSON.parse` gives it; a JSON number is an integer to go-yaml when its text is one, which for
 * numbers that Go's JSON encoder wrote is exactly when it is a whole number below 1e21.
 */

/** Plain JSON data. */
export type JsonData = null | boolean | number | string | JsonData[] | { [key: string]: JsonData };

type ScalarStyle = 'plain' | 'single' | 'double' | 'literal';

/** go-yaml's preferred line width and indentation. */
const BEST_WIDTH = 80;
const BEST_INDENT = 2;
/** Longest scalar (in UTF-8 bytes) that can be a simple `key:`. */
const MAX_SIMPLE_KEY_BYTES = 128;

/** `sigs.k8s.io/yaml.Marshal` of JSON data. */
export function marshalSigsYaml(value: JsonData): string {
  return new GoYamlEmitter().document(value);
}

/** What go-yaml's `analyze_scalar` finds out about a scalar. */
interface ScalarAnalysis {
  readonly multiline: boolean;
  /** Plain style is possible inside flow collections (go-yaml computes it; block output never needs it). */
  readonly flowPlainAllowed: boolean;
  readonly blockPlainAllowed: boolean;
  readonly singleQuotedAllowed: boolean;
  readonly blockAllowed: boolean;
}

interface NodeContext {
  /** The node is a mapping key or value (go-yaml's `mapping_context`). */
  readonly mapping?: boolean;
  readonly simpleKey?: boolean;
}

const SPACE = 0x20;
const TAB = 0x09;
const LF = 0x0a;

function isBreak(cp: number | undefined): boolean {
  return cp === 0x0d || cp === LF || cp === 0x85 || cp === 0x2028 || cp === 0x2029;
}

function isBlank(cp: number | undefined): boolean {
  return cp === SPACE || cp === TAB;
}

function isBlankOrEnd(cp: number | undefined): boolean {
  return cp === undefined || cp === 0 || isBlank(cp) || isBreak(cp);
}

/** YAML's printable set as go-yaml checks it (no characters outside the Basic Multilingual Plane). */
function isPrintable(cp: number): boolean {
  return cp === LF
    || (cp >= 0x20 && cp <= 0x7e)
    || (cp >= 0xa0 && cp <= 0xd7ff)
    || (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff);
}

function codePoints(s: string): number[] {
  const out: number[] = [];
  for (const ch of s) out.push(ch.codePointAt(0)!);
  return out;
}

function utf8Length(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** go-yaml's scalar analysis: which styles can represent the value. */
export function analyzeScalar(value: string): ScalarAnalysis {
  const cps = codePoints(value);
  if (cps.length === 0) {
    return { multiline: false, flowPlainAllowed: false, blockPlainAllowed: true, singleQuotedAllowed: true, blockAllowed: false };
  }
  let blockIndicators = false;
  let flowIndicators = false;
  let lineBreaks = false;
  let specialCharacters = false;
  let leadingSpace = false;
  let leadingBreak = false;
  let trailingSpace = false;
  let trailingBreak = false;
  let breakSpace = false;
  let spaceBreak = false;
  let previousSpace = false;
  let previousBreak = false;

  if (value.startsWith('---') || value.startsWith('...')) {
    blockIndicators = true;
    flowIndicators = true;
  }
  let precededByWhitespace = true;
  for (let i = 0; i < cps.length; i++) {
    const cp = cps[i];
    const followedByWhitespace = i + 1 >= cps.length || isBlank(cps[i + 1]);
    const ch = String.fromCodePoint(cp);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(ch)) {
        flowIndicators = true;
        blockIndicators = true;
      } else if (ch === '?' || ch === ':') {
        flowIndicators = true;
        if (followedByWhitespace) blockIndicators = true;
      } else if (ch === '-' && followedByWhitespace) {
        flowIndicators = true;
        blockIndicators = true;
      }
    } else if (',?[]{}'.includes(ch)) {
      flowIndicators = true;
    } else if (ch === ':') {
      flowIndicators = true;
      if (followedByWhitespace) blockIndicators = true;
    } else if (ch === '#' && precededByWhitespace) {
      flowIndicators = true;
      blockIndicators = true;
    }

    if (!isPrintable(cp)) specialCharacters = true;
    if (cp === SPACE) {
      if (i === 0) leadingSpace = true;
      if (i === cps.length - 1) trailingSpace = true;
      if (previousBreak) breakSpace = true;
      previousSpace = true;
      previousBreak = false;
    } else if (isBreak(cp)) {
      lineBreaks = true;
      if (i === 0) leadingBreak = true;
      if (i === cps.length - 1) trailingBreak = true;
      if (previousSpace) spaceBreak = true;
      previousSpace = false;
      previousBreak = true;
    } else {
      previousSpace = false;
      previousBreak = false;
    }
    precededByWhitespace = isBlankOrEnd(cp);
  }

  let flowPlainAllowed = true;
  let blockPlainAllowed = true;
  let singleQuotedAllowed = true;
  let blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) {
    flowPlainAllowed = false;
    blockPlainAllowed = false;
  }
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) {
    flowPlainAllowed = false;
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
  }
  if (spaceBreak || specialCharacters) {
    flowPlainAllowed = false;
    blockPlainAllowed = false;
    singleQuotedAllowed = false;
    blockAllowed = false;
  }
  if (lineBreaks) {
    flowPlainAllowed = false;
    blockPlainAllowed = false;
  }
  if (flowIndicators) flowPlainAllowed = false;
  if (blockIndicators) blockPlainAllowed = false;
  return { multiline: lineBreaks, flowPlainAllowed, blockPlainAllowed, singleQuotedAllowed, blockAllowed };
}

/** Plain scalars go-yaml reads as something other than a string (YAML 1.1 booleans, null, ...). */
const NON_STRING_WORDS = new Set([
  'y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON',
  'n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF',
  '', '~', 'null', 'Null', 'NULL',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
  '<<',
]);

const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's `strconv.ParseInt(s, 0, 64)` / `ParseUint(s, 0, 64)` (after go-yaml removed underscores). */
function parsesAsGoInteger(s: string): boolean {
  const m = /^([+-]?)(0[bB][01]+|0[oO][0-7]+|0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return false;
  const [, sign, body] = m;
  let magnitude: bigint;
  if (/^0[oO]/.test(body)) magnitude = BigInt('0o' + body.slice(2));
  else if (/^0[0-7]+$/.test(body)) magnitude = BigInt('0o' + body.slice(1));
  else magnitude = BigInt(body);
  const v = sign === '-' ? -magnitude : magnitude;
  if (v >= INT64_MIN && v <= INT64_MAX) return true;
  return sign === '' && v <= UINT64_MAX;
}

/** Go's `strconv.ParseFloat(s, 64)` succeeding on go-yaml's float syntax (overflow is an error). */
function parsesAsGoFloat(s: string): boolean {
  return YAML_STYLE_FLOAT.test(s) && Number.isFinite(Number(s));
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** go-yaml's timestamp recognition (the four `time.Parse` layouts it tries). */
function parsesAsTimestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s);
  if (!m) return false;
  const [, y, mo, d, sep, h, mi, sec, zone] = m;
  if (sep === ' ' && zone !== undefined) return false;
  if ((sep === 'T' || sep === 't') && zone === undefined) return false;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return false;
  if (sep !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59)) return false;
  if (zone !== undefined && zone !== 'Z' && (Number(zone.slice(1, 3)) > 24 || Number(zone.slice(4, 6)) > 60)) return false;
  return true;
}

/** Whether go-yaml reads `s`, written as a plain scalar, back as the string `s`. */
export function resolvesAsString(s: string): boolean {
  if (NON_STRING_WORDS.has(s)) return false;
  const first = s[0];
  if (first === '.') return !parsesAsGoFloat(s);
  if (!(first === '+' || first === '-' || (first >= '0' && first <= '9'))) return true;
  if (parsesAsTimestamp(s)) return false;
  const plain = s.split('_').join('');
  if (parsesAsGoInteger(plain) || parsesAsGoFloat(plain)) return false;
  return true;
}

/** The scalar style go-yaml's encoder asks for a string. */
function requestedStringStyle(s: string): ScalarStyle {
  if (s.includes('\n')) return 'literal';
  return resolvesAsString(s) && !BASE60_FLOAT.test(s) ? 'plain' : 'double';
}

/** Go's `strconv.FormatFloat(v, 'g', -1, 64)`. */
export function formatGoFloatG(v: number): string {
  if (Number.isNaN(v)) return '.nan';
  if (v === Infinity) return '.inf';
  if (v === -Infinity) return '-.inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const sign = v < 0 ? '-' : '';
  const [mantissa, expText] = Math.abs(v).toExponential().split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    const frac = digits.length > 1 ? '.' + digits.slice(1) : '';
    const e = Math.abs(exp);
    return `${sign}${digits[0]}${frac}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  const pointAt = exp + 1;
  if (pointAt <= 0) return `${sign}0.${'0'.repeat(-pointAt)}${digits}`;
  if (pointAt >= digits.length) return sign + digits + '0'.repeat(pointAt - digits.length);
  return `${sign}${digits.slice(0, pointAt)}.${digits.slice(pointAt)}`;
}

/** go-yaml's text for a JSON number: an integer when its JSON text is one, else a float. */
function numberText(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e21) {
    const n = BigInt(v);
    if (n >= INT64_MIN && n <= UINT64_MAX) return n.toString();
  }
  return formatGoFloatG(v);
}

const LETTER = /\p{L}/u;
const DIGIT = /\p{Nd}/u;

/** go-yaml v2's map key order for two string keys (`keyList.Less`). */
export function goYamlKeyLess(a: string, b: string): boolean {
  const ar = codePoints(a);
  const br = codePoints(b);
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = LETTER.test(String.fromCodePoint(ar[i]));
    const bl = LETTER.test(String.fromCodePoint(br[i]));
    if (al && bl) return ar[i] < br[i];
    if (al || bl) return bl;
    const isDigit = (cp: number) => DIGIT.test(String.fromCodePoint(cp));
    let an = 0;
    let bn = 0;
    if (ar[i] === 0x30 || br[i] === 0x30) {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) {
        if (ar[j] !== 0x30) {
          an = 1;
          bn = 1;
          break;
        }
      }
    }
    let ai = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = an * 10 + (ar[ai] - 0x30);
    let bi = i;
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = bn * 10 + (br[bi] - 0x30);
    if (an !== bn) return an < bn;
    if (ai !== bi) return ai < bi;
    return ar[i] < br[i];
  }
  return ar.length < br.length;
}

function sortedKeys(obj: { [key: string]: JsonData }): string[] {
  return Object.keys(obj)
    .filter(k => obj[k] !== undefined)
    .sort((a, b) => (goYamlKeyLess(a, b) ? -1 : goYamlKeyLess(b, a) ? 1 : 0));
}

/** A recursive rendition of go-yaml v2's emitter state machine for block-style documents. */
class GoYamlEmitter {
  private out = '';
  private column = 0;
  private indent = -1;
  private readonly indents: number[] = [];
  private whitespace = true;
  private indention = true;

  document(value: JsonData): string {
    this.node(value, {});
    this.writeIndent();
    return this.out;
  }

  private node(value: JsonData, ctx: NodeContext): void {
    if (Array.isArray(value)) {
      if (value.length === 0) this.emptyFlow('[', ']');
      else this.blockSequence(value, ctx);
    } else if (value !== null && typeof value === 'object') {
      const keys = sortedKeys(value);
      if (keys.length === 0) this.emptyFlow('{', '}');
      else this.blockMapping(value, keys);
    } else if (typeof value === 'string') {
      this.scalar(value, requestedStringStyle(value), ctx);
    } else if (typeof value === 'number') {
      this.scalar(numberText(value), 'plain', ctx);
    } else if (typeof value === 'boolean') {
      this.scalar(value ? 'true' : 'false', 'plain', ctx);
    } else {
      this.scalar('null', 'plain', ctx);
    }
  }

  private emptyFlow(open: string, close: string): void {
    this.writeIndicator(open, true, true, false);
    this.increaseIndent(true, false);
    this.popIndent();
    this.writeIndicator(close, false, false, false);
  }

  private blockSequence(items: JsonData[], ctx: NodeContext): void {
    this.increaseIndent(false, !!ctx.mapping && !this.indention);
    for (const item of items) {
      this.writeIndent();
      this.writeIndicator('-', true, false, true);
      this.node(item, {});
    }
    this.popIndent();
  }

  private blockMapping(obj: { [key: string]: JsonData }, keys: string[]): void {
    this.increaseIndent(false, false);
    for (const key of keys) {
      this.writeIndent();
      const simple = !analyzeScalar(key).multiline && utf8Length(key) <= MAX_SIMPLE_KEY_BYTES;
      if (simple) {
        this.node(key, { mapping: true, simpleKey: true });
        this.writeIndicator(':', false, false, false);
      } else {
        this.writeIndicator('?', true, false, true);
        this.node(key, { mapping: true });
        this.writeIndent();
        this.writeIndicator(':', true, false, true);
      }
      this.node(obj[key], { mapping: true });
    }
    this.popIndent();
  }

  private scalar(value: string, requested: ScalarStyle, ctx: NodeContext): void {
    const analysis = analyzeScalar(value);
    const simpleKey = !!ctx.simpleKey;
    let style = requested;
    if (simpleKey && analysis.multiline) style = 'double';
    // Scalars are only ever written in block context: flow style is used for empty collections only.
    if (style === 'plain') {
      if (!analysis.blockPlainAllowed) style = 'single';
      if (value.length === 0 && simpleKey) style = 'single';
    }
    if (style === 'single' && !analysis.singleQuotedAllowed) style = 'double';
    if (style === 'literal' && (!analysis.blockAllowed || simpleKey)) style = 'double';

    this.increaseIndent(true, false);
    const cps = codePoints(value);
    switch (style) {
      case 'plain':
        this.writePlain(cps, !simpleKey);
        break;
      case 'single':
        this.writeSingleQuoted(cps, !simpleKey);
        break;
      case 'double':
        this.writeDoubleQuoted(cps, !simpleKey);
        break;
      case 'literal':
        this.writeLiteral(cps);
        break;
    }
    this.popIndent();
  }

  // ---- low-level output, as go-yaml tracks it ----

  private put(text: string): void {
    this.out += text;
    this.column++;
  }

  private putBreak(): void {
    this.out += '\n';
    this.column = 0;
  }

  private write(cp: number): void {
    this.out += String.fromCodePoint(cp);
    this.column++;
  }

  private writeBreak(cp: number): void {
    if (cp === LF) {
      this.putBreak();
    } else {
      this.write(cp);
      this.column = 0;
    }
  }

  private increaseIndent(flow: boolean, indentless: boolean): void {
    this.indents.push(this.indent);
    if (this.indent < 0) this.indent = flow ? BEST_INDENT : 0;
    else if (!indentless) this.indent += BEST_INDENT;
  }

  private popIndent(): void {
    this.indent = this.indents.pop()!;
  }

  private writeIndent(): void {
    const indent = Math.max(this.indent, 0);
    if (!this.indention || this.column > indent || (this.column === indent && !this.whitespace)) this.putBreak();
    while (this.column < indent) this.put(' ');
    this.whitespace = true;
    this.indention = true;
  }

  private writeIndicator(indicator: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    for (const cp of codePoints(indicator)) this.write(cp);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  private writePlain(cps: number[], allowBreaks: boolean): void {
    if (!this.whitespace) this.put(' ');
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const cp = cps[i];
      if (cp === SPACE) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && cps[i + 1] !== SPACE) this.writeIndent();
        else this.write(cp);
        spaces = true;
      } else if (isBreak(cp)) {
        if (!breaks && cp === LF) this.putBreak();
        this.writeBreak(cp);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.write(cp);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  private writeSingleQuoted(cps: number[], allowBreaks: boolean): void {
    this.writeIndicator('\'', true, false, false);
    let spaces = false;
    let breaks = false;
    for (let i = 0; i < cps.length; i++) {
      const cp = cps[i];
      if (cp === SPACE) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1 && cps[i + 1] !== SPACE) {
          this.writeIndent();
        } else {
          this.write(cp);
        }
        spaces = true;
      } else if (isBreak(cp)) {
        if (!breaks && cp === LF) this.putBreak();
        this.writeBreak(cp);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        if (cp === 0x27) this.put('\'');
        this.write(cp);
        this.indention = false;
        spaces = false;
        breaks = false;
      }
    }
    this.writeIndicator('\'', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeDoubleQuoted(cps: number[], allowBreaks: boolean): void {
    this.writeIndicator('"', true, false, false);
    // go-yaml tests for a byte-order mark at the start of the value, not at each character
    const startsWithBom = cps[0] === 0xfeff;
    let spaces = false;
    for (let i = 0; i < cps.length; i++) {
      const cp = cps[i];
      if (!isPrintable(cp) || startsWithBom || isBreak(cp) || cp === 0x22 || cp === 0x5c) {
        this.put('\\');
        this.writeEscape(cp);
        spaces = false;
      } else if (cp === SPACE) {
        if (allowBreaks && !spaces && this.column > BEST_WIDTH && i > 0 && i < cps.length - 1) {
          this.writeIndent();
          if (cps[i + 1] === SPACE) this.put('\\');
        } else {
          this.write(cp);
        }
        spaces = true;
      } else {
        this.write(cp);
        spaces = false;
      }
    }
    this.writeIndicator('"', false, false, false);
    this.whitespace = false;
    this.indention = false;
  }

  private writeEscape(cp: number): void {
    const short: Record<number, string> = {
      0x00: '0',
      0x07: 'a',
      0x08: 'b',
      0x09: 't',
      0x0a: 'n',
      0x0b: 'v',
      0x0c: 'f',
      0x0d: 'r',
      0x1b: 'e',
      0x22: '"',
      0x5c: '\\',
      0x85: 'N',
      0xa0: '_',
      0x2028: 'L',
      0x2029: 'P',
    };
    if (short[cp] !== undefined) {
      this.put(short[cp]);
      return;
    }
    const [prefix, width] = cp <= 0xff ? ['x', 2] : cp <= 0xffff ? ['u', 4] : ['U', 8];
    this.put(prefix);
    for (const digit of cp.toString(16).toUpperCase().padStart(width, '0')) this.put(digit);
  }

  private writeLiteral(cps: number[]): void {
    this.writeIndicator('|', true, false, false);
    this.writeBlockScalarHints(cps);
    this.putBreak();
    this.indention = true;
    this.whitespace = true;
    let breaks = true;
    for (const cp of cps) {
      if (isBreak(cp)) {
        this.writeBreak(cp);
        this.indention = true;
        breaks = true;
      } else {
        if (breaks) this.writeIndent();
        this.write(cp);
        this.indention = false;
        breaks = false;
      }
    }
  }

  private writeBlockScalarHints(cps: number[]): void {
    if (cps[0] === SPACE || isBreak(cps[0])) this.writeIndicator(String(BEST_INDENT), false, false, false);
    const last = cps.length - 1;
    let chomp = '';
    if (cps.length === 0 || !isBreak(cps[last])) chomp = '-';
    else if (last === 0 || isBreak(cps[last - 1])) chomp = '+';
    if (chomp) this.writeIndicator(chomp, false, false, false);
  }
}
