/**
 * Reading and writing YAML documents as kubectl reads them.
 *
 * kubectl (and the API server, the operator, Helm) read YAML with sigs.k8s.io/yaml on go-yaml v2, a
 * YAML 1.1 reader: `y`, `on` and `no` are booleans, `0644` is octal (420), `1_000` is 1000, `0o14`
 * and `1e3` are numbers too. The `yaml` library reads and writes YAML 1.2 by default, where all of
 * these but the last two are strings. Both directions are therefore pinned here:
 *
 * - Reading: the `yaml` library parses the syntax with its failsafe schema (every scalar a string)
 *   and `resolvePlainScalar` types each plain scalar by go-yaml v2's rules (resolve.go); keys become
 *   strings as sigs.k8s.io/yaml makes them (`on:` is the key "true"); merge keys (`<<`) apply in
 *   go-yaml v2's order. What kubectl would silently get wrong or refuse is an error naming the source
 *   and the position: duplicate keys, null or collection keys, `.inf`/`.nan` values, excessive
 *   aliasing, nesting deeper than `MAX_NESTING_DEPTH`, control characters, the YAML 1.1 line
 *   breaks U+0085/U+2028/U+2029, `%` directives, and no object at all.
 * - Writing: the `yaml` library writes; every string that a YAML 1.1 reader (the type repository's
 *   regular expressions and the `yaml` library's 1.1 schema), a YAML 1.2 core-schema reader or
 *   go-yaml v2 would read as anything but that string is double-quoted, keys included, and
 *   characters go-yaml v2 refuses or reads as line breaks are escaped.
 */
import type * as yamlModule from 'yaml';
import { checkDocumentTextSizes } from './document-size';
import { yaml } from '../lazy-modules';

/** The deepest nesting of mappings and sequences a document may have (the corpus' deepest is 36, a CRD schema). */
export const MAX_NESTING_DEPTH = 100;

/** How many values aliases may expand to in one document before it is refused as an alias bomb. */
export const MAX_ALIAS_EXPANSION = 100_000;

/** YAML input that cannot be read as kubectl reads it; `detail` is the message without the source. */
export class YamlInputError extends Error {
  constructor(readonly source: string, readonly detail: string) {
    super(`${source}: ${detail}`);
    this.name = 'YamlInputError';
  }
}

export interface ParseYamlOptions {
  /**
   * Whether text without any object (empty, only comments, only empty or null documents) reads as
   * no documents rather than an error.
   * @default false
   */
  readonly allowEmpty?: boolean;
  /**
   * How scalars are typed: `kubectl` as kubectl reads them (see the module comment); `yaml-1.2` by
   * the YAML 1.2 core schema, for reference files written and read by YAML 1.2 tools (the
   * operator's golden files hold `value: n` meaning the string "n"), with duplicate keys, aliases
   * and nesting still bounded but without kubectl's character and directive checks.
   * @default 'kubectl'
   */
  readonly readAs?: 'kubectl' | 'yaml-1.2';
}

/**
 * The text of UTF-8 bytes (a leading byte-order mark is dropped); anything else is an error naming
 * the source and the line and column (in bytes) of the first byte that is not UTF-8.
 */
export function decodeUtf8(bytes: Uint8Array, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstInvalidUtf8(bytes);
    let line = 1;
    let lineStart = 0;
    for (let i = 0; i < at; i++) {
      if (bytes[i] === 0x0a) {
        line++;
        lineStart = i + 1;
      }
    }
    const byte = at < bytes.length ? `byte 0x${bytes[at].toString(16).padStart(2, '0')}` : 'truncated sequence at the end';
    throw new YamlInputError(source, `not valid UTF-8 at line ${line}, column ${at - lineStart + 1} (${byte})`);
  }
}

/** `parseYamlDocuments` of UTF-8 bytes (`decodeUtf8`). */
export function parseYamlBytes(bytes: Uint8Array, source = 'input', options: ParseYamlOptions = {}): unknown[] {
  return parseYamlDocuments(decodeUtf8(bytes, source), source, options);
}

/**
 * The documents of a multi-document YAML text as kubectl reads them (see the module comment), each a
 * plain JSON value; empty and null documents are left out. Throws a `YamlInputError` naming `source`
 * and the line and column of the first problem.
 */
export function parseYamlDocuments(text: string, source = 'input', options: ParseYamlOptions = {}): unknown[] {
  const kubectl = (options.readAs ?? 'kubectl') === 'kubectl';
  // the size limit comes first: parsing a document costs in proportion to its text
  checkDocumentTextSizes(text, source);
  if (kubectl) checkCharacters(text, source);
  const Y = yaml();
  checkFlowNesting(Y, text, source);
  const lineCounter = new Y.LineCounter();
  const docs = Y.parseAllDocuments(text, kubectl ? { schema: 'failsafe', uniqueKeys: false, lineCounter } : { lineCounter });
  const at = (offset: number) => {
    const { line, col } = lineCounter.linePos(offset);
    return `line ${line}, column ${col}`;
  };
  const out: unknown[] = [];
  let previousEnd = 0;
  for (const doc of docs) {
    if (doc.errors.length > 0) {
      const e = doc.errors[0];
      const where = e.linePos?.[0] ? `line ${e.linePos[0].line}, column ${e.linePos[0].col}` : 'unknown position';
      // the parser reports its own stack overflow, far deeper than MAX_NESTING_DEPTH, as resource exhaustion
      const message = e.code === 'RESOURCE_EXHAUSTION' && /call stack/i.test(e.message) ? `nesting deeper than ${MAX_NESTING_DEPTH} levels`
        : e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
      throw new YamlInputError(source, `invalid YAML at ${where}: ${message}`);
    }
    const start = doc.range[0];
    const directive = kubectl ? /^%/m.exec(text.slice(previousEnd, start)) : null;
    if (directive) {
      throw new YamlInputError(source, `invalid YAML at ${at(previousEnd + directive.index)}: `
        + 'a % directive (%YAML, %TAG): kubectl cannot read a file that has one');
    }
    previousEnd = doc.range[2];
    const value = kubectl ? new KubectlReader(Y, doc, source, at).document() : yaml12Value(doc, source, at);
    if (value !== null) out.push(value);
  }
  if (out.length === 0 && !options.allowEmpty) {
    throw new YamlInputError(source, 'no objects: the file is empty or holds only comments and empty documents');
  }
  return out;
}

/** A document read by the YAML 1.2 core schema (`readAs: 'yaml-1.2'`). */
function yaml12Value(doc: yamlModule.Document.Parsed, source: string, at: (offset: number) => string): unknown {
  const Y = yaml();
  let deepest: yamlModule.Node | undefined;
  Y.visit(doc, {
    Collection(_key, node, path) {
      const depth = path.filter(p => Y.isCollection(p)).length + 1;
      if (depth > MAX_NESTING_DEPTH && !deepest) deepest = node;
      return deepest ? Y.visit.BREAK : undefined;
    },
  });
  const where = (node: yamlModule.Node | null | undefined) => (node?.range ? at(node.range[0]) : 'unknown position');
  if (deepest) throw new YamlInputError(source, `invalid YAML at ${where(deepest)}: nesting deeper than ${MAX_NESTING_DEPTH} levels`);
  try {
    return doc.toJS({ maxAliasCount: 1000 }) ?? null;
  } catch (e) {
    throw new YamlInputError(source, `invalid YAML at ${where(doc.contents)}: ${(e as Error).message}`);
  }
}

/** The single document of `kind` among `docs`. */
export function singleDocumentOfKind(docs: unknown[], kind: string): any {
  const matches = docs.filter(d => (d as any)?.kind === kind);
  if (matches.length !== 1) throw new Error(`expected exactly one ${kind} document, found ${matches.length}`);
  return matches[0];
}

/**
 * Writes documents as one multi-document YAML stream (`---` between documents) that kubectl (YAML
 * 1.1, go-yaml v2) and YAML 1.2 readers read as the same values: every string one of them would read
 * as anything else is double-quoted (`isAmbiguousPlainScalar`), keys included. Deterministic: the
 * same documents give the same bytes; keys keep their order; repeated objects are written out again
 * rather than as anchors and aliases.
 */
export function stringifyYamlDocuments(docs: readonly unknown[]): string {
  const Y = yaml();
  return docs.map(doc => new Y.Document(doc, { customTags: kubectlSafeTags, aliasDuplicateObjects: false }).toString({ lineWidth: 0 })).join('---\n');
}

// ---------------------------------------------------------------------------------------------
// go-yaml v2's typing of plain scalars (resolve.go, v2.4, as vendored by sigs.k8s.io/yaml)

/** A scalar typed as go-yaml v2 types it; ints keep their exact value (keys are formatted from it). */
export type GoScalar =
  | { readonly kind: 'str'; readonly value: string }
  | { readonly kind: 'int'; readonly value: bigint }
  | { readonly kind: 'float'; readonly value: number }
  | { readonly kind: 'bool'; readonly value: boolean }
  | { readonly kind: 'null'; readonly value: null }
  | { readonly kind: 'timestamp'; readonly value: string };

const GO_SCALAR_WORDS: ReadonlyMap<string, GoScalar> = new Map<string, GoScalar>([
  ...['y', 'Y', 'yes', 'Yes', 'YES', 'true', 'True', 'TRUE', 'on', 'On', 'ON'].map(w => [w, { kind: 'bool', value: true }] as const),
  ...['n', 'N', 'no', 'No', 'NO', 'false', 'False', 'FALSE', 'off', 'Off', 'OFF'].map(w => [w, { kind: 'bool', value: false }] as const),
  ...['', '~', 'null', 'Null', 'NULL'].map(w => [w, { kind: 'null', value: null }] as const),
  ...['.nan', '.NaN', '.NAN'].map(w => [w, { kind: 'float', value: NaN }] as const),
  ...['.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF'].map(w => [w, { kind: 'float', value: Infinity }] as const),
  ...['-.inf', '-.Inf', '-.INF'].map(w => [w, { kind: 'float', value: -Infinity }] as const),
]);

/** go-yaml v2's `yamlStyleFloat`: what it reads as a float once the underscores are dropped. */
const GO_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
/** Go's `strconv.ParseFloat` of text that starts with `.` (underscores only between digits). */
const GO_DOT_FLOAT = /^\.[0-9]+(_[0-9]+)*([eE][-+]?[0-9]+(_[0-9]+)*)?$/;
/** Go's `strconv.ParseInt(s, 0, 64)` syntax: sign, then a base prefix or a leading 0 for octal. */
const GO_INT = /^([-+]?)(?:0[xX]([0-9a-fA-F]+)|0[bB]([01]+)|0[oO]([0-7]+)|0([0-7]*)|([1-9][0-9]*))$/;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/**
 * How go-yaml v2 types the plain scalar `text` (an untagged, unquoted scalar). `explicitTag` is the
 * `!!bool`/`!!int`/`!!float`/`!!null`/`!!timestamp` tag written on it, if any (only then, or
 * without a tag, is a timestamp recognised).
 */
export function resolvePlainScalar(text: string, explicitTag?: string): GoScalar {
  const first = text === '' ? 'N' : text[0];
  const hint = first === 'N' || 'yYnNtTfFoO~'.includes(first) ? 'M'
    : first === '.' ? '.'
      : /[-+0-9]/.test(first) ? 'D' : undefined;
  if (hint === undefined) return { kind: 'str', value: text };
  const word = GO_SCALAR_WORDS.get(text);
  if (word) return word;
  if (hint === 'M') return { kind: 'str', value: text };
  if (hint === '.') {
    const f = GO_DOT_FLOAT.test(text) ? Number(text.replace(/_/g, '')) : NaN;
    return Number.isFinite(f) ? { kind: 'float', value: f } : { kind: 'str', value: text };
  }
  if ((explicitTag === undefined || explicitTag === 'timestamp') && isGoTimestamp(text)) return { kind: 'timestamp', value: text };
  const plain = text.replace(/_/g, '');
  const int = goParseInt(plain);
  if (int !== undefined) return { kind: 'int', value: int };
  if (GO_STYLE_FLOAT.test(plain)) {
    const f = Number(plain);
    if (Number.isFinite(f)) return { kind: 'float', value: f };
  }
  return { kind: 'str', value: text };
}

/** `strconv.ParseInt(s, 0, 64)`, else `strconv.ParseUint(s, 0, 64)` (no sign), else undefined. */
function goParseInt(s: string): bigint | undefined {
  const m = GO_INT.exec(s);
  if (!m) return undefined;
  const [, sign, hex, bin, oct, legacyOct, dec] = m;
  const magnitude = hex !== undefined ? BigInt(`0x${hex}`)
    : bin !== undefined ? BigInt(`0b${bin}`)
      : oct !== undefined ? BigInt(`0o${oct}`)
        : legacyOct !== undefined ? (legacyOct === '' ? 0n : BigInt(`0o${legacyOct}`))
          : BigInt(dec);
  const value = sign === '-' ? -magnitude : magnitude;
  if (value >= INT64_MIN && value <= INT64_MAX) return value;
  if (sign === '' && value <= UINT64_MAX) return value;
  return undefined;
}

/** go-yaml v2's `parseTimestamp`: `2006-1-2`, `2006-1-2T15:4:5.999999999Z07:00` (or `t`), `2006-1-2 15:4:5.999999999`. */
function isGoTimestamp(s: string): boolean {
  const m = /^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})(?:([Tt])([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:\.[0-9]+)?(?:Z|[-+][0-9]{2}:[0-9]{2})|( )([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2})(?:\.[0-9]+)?)?$/.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > days[month - 1]) return false;
  const [h, min, sec] = m[4] ? [m[5], m[6], m[7]] : m[8] ? [m[9], m[10], m[11]] : ['0', '0', '0'];
  return Number(h) < 24 && Number(min) < 60 && Number(sec) < 60;
}

/** The JSON value of a typed scalar (ints above 2^53 lose precision, as in any JavaScript number). */
function jsonOf(s: GoScalar): unknown {
  return s.kind === 'int' ? Number(s.value) : s.value;
}

/** sigs.k8s.io/yaml's JSON key of a scalar key (`strconv.FormatFloat(f, 'g', -1, 32)` for floats). */
function jsonKeyOf(s: GoScalar): string | undefined {
  switch (s.kind) {
    case 'str':
    case 'timestamp':
      return s.value;
    case 'bool':
      return String(s.value);
    case 'int':
      return s.value <= INT64_MAX ? s.value.toString() : undefined; // a uint64 key: "unsupported map key"
    case 'float':
      return goFloat32Text(s.value);
    default:
      return undefined;
  }
}

/** Go's `strconv.FormatFloat(f, 'g', -1, 32)`, with sigs.k8s.io/yaml's `.inf`, `-.inf`, `.nan`. */
function goFloat32Text(f: number): string {
  const f32 = Math.fround(f);
  if (Number.isNaN(f32)) return '.nan';
  if (f32 === Infinity) return '.inf';
  if (f32 === -Infinity) return '-.inf';
  if (f32 === 0) return Object.is(f32, -0) ? '-0' : '0';
  let exponential = '';
  for (let digits = 1; digits <= 9; digits++) {
    exponential = Math.abs(f32).toExponential(digits - 1);
    if (Math.fround(Number(exponential)) === Math.abs(f32)) break;
  }
  const [mantissa, expText] = exponential.split('e');
  const digits = mantissa.replace('.', '');
  const exp = Number(expText);
  const sign = f32 < 0 ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const e = Math.abs(exp) < 10 ? `0${Math.abs(exp)}` : String(Math.abs(exp));
    return `${sign}${digits[0]}${digits.length > 1 ? `.${digits.slice(1)}` : ''}e${exp < 0 ? '-' : '+'}${e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const whole = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const fraction = digits.slice(exp + 1);
  return `${sign}${whole}${fraction ? `.${fraction}` : ''}`;
}

// ---------------------------------------------------------------------------------------------
// Reading

const YAML_TAG = 'tag:yaml.org,2002:';
/** Tags go-yaml v2 resolves a scalar against (others leave the scalar a string). */
const RESOLVABLE_TAGS: ReadonlySet<string> = new Set(['bool', 'int', 'float', 'null', 'timestamp']);

/** Characters go-yaml v2's reader refuses ("control characters are not allowed"), and the YAML 1.1 line breaks. */
const REFUSED_CHARACTER = /[^\t\n\r\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/u;

/** `line L, column C` of an offset into `text`, before the parser has counted lines. */
function textPosition(text: string, offset: number): string {
  const before = text.slice(0, offset);
  return `line ${before.split('\n').length}, column ${offset - before.lastIndexOf('\n')}`;
}

function checkCharacters(text: string, source: string): void {
  const m = REFUSED_CHARACTER.exec(text);
  if (!m) return;
  const code = `U+${m[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  const what = ['\u0085', '\u2028', '\u2029'].includes(m[0])
    ? `${code} is a line break to kubectl (YAML 1.1) but not to YAML 1.2 readers; write it escaped in a double-quoted string`
    : `control character ${code} is not allowed (kubectl refuses it); write it escaped in a double-quoted string`;
  throw new YamlInputError(source, `invalid YAML at ${textPosition(text, m.index)}: ${what}`);
}

/** The lexer's markers that stand for no source text. */
const LEXER_MARKERS: ReadonlySet<string> = new Set(['\x02', '\x18', '\x1f']);

/**
 * Flow collections (`[`, `{`) nested deeper than `MAX_NESTING_DEPTH` are refused from the lexer's
 * tokens, before the parser builds (and recurses into) them: `[[[[…` is cheap to write and the
 * parser's stack would give out first, slowly and at an arbitrary position. Deep block nesting
 * needs as many columns of indentation, and is caught while the documents are read.
 */
function checkFlowNesting(Y: typeof yamlModule, text: string, source: string): void {
  let depth = 0;
  let offset = 0;
  for (const token of new Y.Lexer().lex(text)) {
    if (token === '[' || token === '{') {
      if (++depth > MAX_NESTING_DEPTH) {
        throw new YamlInputError(source, `invalid YAML at ${textPosition(text, offset)}: nesting deeper than ${MAX_NESTING_DEPTH} levels`);
      }
    } else if (token === ']' || token === '}') {
      depth = Math.max(0, depth - 1);
    }
    if (!LEXER_MARKERS.has(token)) offset += token.length;
  }
}

type YamlNode = yamlModule.Node | yamlModule.Alias;

/** Converts one composed document (failsafe schema) to the JSON value kubectl reads. */
class KubectlReader {
  /** The node of each anchor name defined so far (the latest definition wins). */
  private readonly anchors = new Map<string, yamlModule.Node>();
  /** Nodes being converted (an alias to one of them is a cycle). */
  private readonly open = new Set<yamlModule.Node>();
  /** The outermost alias being expanded, if any, and the values expanded so far. */
  private expanding: yamlModule.Alias | undefined;
  private expanded = 0;

  constructor(
    private readonly Y: typeof yamlModule,
    private readonly doc: yamlModule.Document.Parsed,
    private readonly source: string,
    private readonly at: (offset: number) => string,
  ) {}

  /** The document's value (null for an empty or null document). */
  public document(): unknown {
    return this.value(this.doc.contents as YamlNode | null, 0);
  }

  private fail(node: { range?: yamlModule.Range | null } | null | undefined, message: string): never {
    const where = node?.range ? this.at(node.range[0]) : 'unknown position';
    throw new YamlInputError(this.source, `invalid YAML at ${where}: ${message}`);
  }

  /** The value of `node`, inside `depth` collections. */
  private value(node: YamlNode | null | undefined, depth: number): unknown {
    const Y = this.Y;
    if (node === null || node === undefined) return null;
    if (this.expanding) {
      this.expanded++;
      if (this.expanded > MAX_ALIAS_EXPANSION) {
        this.fail(this.expanding, `excessive aliasing: alias *${this.expanding.source} and the aliases in it expand to more than ${MAX_ALIAS_EXPANSION} values`);
      }
    }
    if (Y.isAlias(node)) return this.alias(node, n => this.value(n, depth));
    if (!this.expanding && node.anchor) this.anchors.set(node.anchor, node);
    if (Y.isScalar(node)) {
      const typed = this.scalar(node);
      if (typed.kind === 'float' && !Number.isFinite(typed.value)) {
        this.fail(node, `${node.source ?? String(node.value)} is ${Number.isNaN(typed.value) ? 'not a number' : 'infinite'}, which JSON cannot hold (kubectl refuses it)`);
      }
      return jsonOf(typed);
    }
    if (depth + 1 > MAX_NESTING_DEPTH) {
      const through = this.expanding?.range ? ` (reached through alias *${this.expanding.source} at ${this.at(this.expanding.range[0])})` : '';
      this.fail(node, `nesting deeper than ${MAX_NESTING_DEPTH} levels${through}`);
    }
    this.open.add(node);
    try {
      if (Y.isSeq(node)) return node.items.map(item => this.value(item as YamlNode, depth + 1));
      if (Y.isMap(node)) return this.mapping(node, depth);
      return this.fail(node, 'unsupported node');
    } finally {
      this.open.delete(node);
    }
  }

  /** `convert` of the node an alias names; an alias inside the node it names is an error. */
  private alias<T>(alias: yamlModule.Alias, convert: (node: yamlModule.Node) => T): T {
    const target = this.anchors.get(alias.source);
    if (!target) return this.fail(alias, `unknown anchor "${alias.source}"`);
    if (this.open.has(target)) this.fail(alias, `anchor "${alias.source}" value contains itself`);
    const outermost = this.expanding === undefined;
    if (outermost) this.expanding = alias;
    try {
      return convert(target);
    } finally {
      if (outermost) this.expanding = undefined;
    }
  }

  private mapping(node: yamlModule.YAMLMap, depth: number): { [key: string]: unknown } {
    const out: { [key: string]: unknown } = {};
    const seen = new Map<string, YamlNode>();
    for (const pair of node.items) {
      const keyNode = pair.key as YamlNode | null;
      const valueNode = pair.value as YamlNode | null;
      if (this.isMergeKey(keyNode)) {
        this.merge(out, valueNode, keyNode, depth);
        continue;
      }
      const key = this.key(keyNode, pair);
      const first = seen.get(key);
      if (first) {
        const firstAt = first.range ? ` (first at ${this.at(first.range[0])})` : '';
        this.fail(keyNode ?? valueNode, `duplicate key ${JSON.stringify(key)}${firstAt}; kubectl would silently keep the last value`);
      }
      if (keyNode) seen.set(key, keyNode);
      define(out, key, this.value(valueNode, depth + 1));
    }
    return out;
  }

  private isMergeKey(key: YamlNode | null): key is yamlModule.Scalar {
    return this.Y.isScalar(key) && key.value === '<<'
      && ((key.tag === undefined && key.type === 'PLAIN') || key.tag === `${YAML_TAG}merge`);
  }

  /**
   * go-yaml v2's merge: a mapping, an alias of one, or a sequence of them (the first taking
   * precedence) is written into `out` in place, overriding keys set before it.
   */
  private merge(out: { [key: string]: unknown }, valueNode: YamlNode | null, keyNode: YamlNode, depth: number): void {
    const wrong = () => this.fail(valueNode ?? keyNode, 'map merge requires map or sequence of maps as the value');
    const mergeOne = (n: YamlNode | null) => {
      const Y = this.Y;
      const isMapNode = Y.isMap(n) || (Y.isAlias(n) && Y.isMap(this.anchors.get(n.source)));
      if (!isMapNode) wrong();
      const merged = this.value(n, depth) as { [key: string]: unknown };
      for (const k of Object.keys(merged)) define(out, k, merged[k]);
    };
    const Y = this.Y;
    if (Y.isSeq(valueNode)) {
      for (let i = valueNode.items.length - 1; i >= 0; i--) mergeOne(valueNode.items[i] as YamlNode);
    } else if (Y.isMap(valueNode) || Y.isAlias(valueNode)) {
      mergeOne(valueNode);
    } else {
      wrong();
    }
  }

  /** The JSON key of a key node, as sigs.k8s.io/yaml makes it. */
  private key(keyNode: YamlNode | null, pair: yamlModule.Pair): string {
    const Y = this.Y;
    let node: YamlNode | null = keyNode;
    if (Y.isAlias(node)) node = this.alias(node, n => n);
    else if (node?.anchor && !this.expanding) this.anchors.set(node.anchor, node);
    const typed: GoScalar = node === null ? { kind: 'null', value: null }
      : Y.isScalar(node) ? this.scalar(node)
        : this.fail(keyNode, 'a mapping or a sequence as a key (kubectl: unsupported map key)');
    const key = jsonKeyOf(typed);
    if (key === undefined) {
      this.fail(keyNode ?? (pair.value as YamlNode | null), `${typed.kind === 'null' ? 'a null key' : `the key ${keyNode ? (keyNode as yamlModule.Scalar).source : ''}`} (kubectl: unsupported map key)`);
    }
    return key;
  }

  /** A scalar typed as go-yaml v2 types it: plain untagged scalars by their text, quoted and block ones are strings. */
  private scalar(node: yamlModule.Scalar): GoScalar {
    const text = typeof node.value === 'string' ? node.value : node.source ?? '';
    const tag = node.tag;
    if (tag === undefined) return node.type === 'PLAIN' ? resolvePlainScalar(text) : { kind: 'str', value: text };
    const short = tag.startsWith(YAML_TAG) ? tag.slice(YAML_TAG.length) : undefined;
    if (short === 'binary') {
      const bytes = node.value instanceof Uint8Array ? node.value : undefined;
      if (!bytes) this.fail(node, '!!binary value contains invalid base64 data');
      return { kind: 'str', value: new TextDecoder('utf-8').decode(bytes) };
    }
    if (short === undefined || !RESOLVABLE_TAGS.has(short)) return { kind: 'str', value: text };
    const typed = resolvePlainScalar(text, short);
    if (typed.kind === short) return typed;
    if (short === 'float' && typed.kind === 'int') return { kind: 'float', value: Number(typed.value) };
    return this.fail(node, `cannot decode !!${typed.kind} \`${text}\` as a !!${short}`);
  }
}

/** Sets an own, enumerable property (also for `__proto__`, which plain assignment would not create). */
function define(obj: { [key: string]: unknown }, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
}

/** Offset of the first byte that does not start (or continue) a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i];
    if (c < 0x80) {
      i++;
      continue;
    }
    let length: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) {
      length = 2;
    } else if (c >= 0xe0 && c <= 0xef) {
      length = 3;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      length = 4;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else {
      return i;
    }
    for (let k = 1; k < length; k++) {
      const next = b[i + k];
      const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
      if (next === undefined || next < min || next > max) return next === undefined ? b.length : i;
    }
    i += length;
  }
  return b.length;
}

// ---------------------------------------------------------------------------------------------
// Writing

/**
 * The YAML 1.1 type repository's regular expressions (yaml.org/type: bool, null, int, float,
 * timestamp, merge, value), which some YAML 1.1 readers apply literally (e.g. `1.2.3` is a float by
 * the float expression's `[0-9.]*`).
 */
const YAML11_SPEC: readonly RegExp[] = [
  /^(?:y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/,
  /^(?:~|null|Null|NULL|)$/,
  /^[-+]?0b[0-1_]+$/,
  /^[-+]?0[0-7_]+$/,
  /^[-+]?(?:0|[1-9][0-9_]*)$/,
  /^[-+]?0x[0-9a-fA-F_]+$/,
  /^[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+$/,
  /^[-+]?(?:[0-9][0-9_]*)?\.[0-9.]*(?:[eE][-+][0-9]+)?$/,
  /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*$/,
  /^[-+]?\.(?:inf|Inf|INF)$/,
  /^\.(?:nan|NaN|NAN)$/,
  /^[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]$/,
  /^[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](?:\.[0-9]*)?(?:[ \t]*Z|[-+][0-9][0-9]?(?::[0-9][0-9])?)?$/,
  /^<<$/,
  /^=$/,
];

let libraryTests: readonly RegExp[] | undefined;

/** The implicit-type tests of the `yaml` library's YAML 1.1 and YAML 1.2 core schemas (what its readers type). */
function yamlLibraryTests(): readonly RegExp[] {
  if (libraryTests) return libraryTests;
  const Y = yaml();
  const tests: RegExp[] = [];
  for (const version of ['1.1', '1.2'] as const) {
    for (const tag of new Y.Document(null, { version }).schema.tags) {
      const test = (tag as { test?: RegExp }).test;
      if (tag.default && tag.tag !== `${YAML_TAG}str` && test) tests.push(test);
    }
  }
  return (libraryTests = tests);
}

/**
 * Whether the plain scalar `text` would be read as anything but the string `text` by a YAML 1.1
 * reader (the type repository, the `yaml` library's 1.1 schema), a YAML 1.2 core-schema reader or
 * go-yaml v2 (kubectl). Such strings must be quoted.
 */
export function isAmbiguousPlainScalar(text: string): boolean {
  return resolvePlainScalar(text).kind !== 'str'
    || YAML11_SPEC.some(re => re.test(text))
    || yamlLibraryTests().some(re => re.test(text));
}

/**
 * Characters the `yaml` library writes raw even inside double quotes, which go-yaml v2 refuses
 * (DEL, C1 controls, U+FFFE/U+FFFF) or reads as line breaks (U+0085, U+2028, U+2029).
 */
const ESCAPED_FOR_KUBECTL = /[\x7f-\x9f\u2028\u2029\ufffe\uffff]/;

/** A single-line double-quoted scalar with every character kubectl could misread escaped. */
function escapedDoubleQuoted(text: string): string {
  return JSON.stringify(text).replace(/[\x7f-\x9f\u2028\u2029\ufffe\uffff]/g, ch => {
    switch (ch) {
      case '\x85': return '\\N';
      case '\u2028': return '\\L';
      case '\u2029': return '\\P';
      default: {
        const code = ch.charCodeAt(0);
        return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16)}`;
      }
    }
  });
}

/** The schema's tags with the string tag quoting what kubectl or a YAML 1.1/1.2 reader could misread. */
function kubectlSafeTags(tags: yamlModule.Tags): yamlModule.Tags {
  return tags.map(tag => {
    if (typeof tag === 'string' || 'collection' in tag) return tag;
    const t = tag as yamlModule.ScalarTag;
    if (t.tag !== `${YAML_TAG}str` || !t.stringify) return tag;
    const stringify = t.stringify.bind(t);
    const safe: yamlModule.ScalarTag = {
      ...t,
      stringify(item, ctx, onComment, onChompKeep) {
        const text = String(item.value);
        if (ESCAPED_FOR_KUBECTL.test(text)) return escapedDoubleQuoted(text);
        if (isAmbiguousPlainScalar(text)) return stringify({ ...item, value: text, type: 'QUOTE_DOUBLE' } as typeof item, ctx, onComment, onChompKeep);
        return stringify(item, ctx, onComment, onChompKeep);
      },
    };
    return safe;
  });
}
