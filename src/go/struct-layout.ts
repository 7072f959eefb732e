/**
 * Go types for the Go-style JSON encoders: parsed type expressions, struct layouts (fields in Go
 * order after promotion of embedded structs), and the rules that read a wire object as a Go
 * struct — which object key feeds which field (exact name, else Go's case-insensitive match),
 * `omitempty` and `omitzero`. Struct layouts are resolved once per registry and reused.
 */
import { isZeroQuantity } from './quantity';
import { compareUtf8, goQuote, hasNoDefinedKey, isNil, isObject, sortUtf8 } from './text';
import { DYNAMO_STRUCTS, K8S_CONTENT_STRUCTS, K8S_STRUCTS, LWS_STRUCTS } from './types';

/** A Go type expression in the notation of `types.ts`, e.g. `PodTemplateSpec`, `*i`, `{}q`. */
export type GoTypeRef = string;

export type Primitive = 's' | 'b' | 'i' | 'f64' | 'f32' | 'q' | 't' | 'mt' | 'ios' | 'dur' | 'bytes' | 'raw' | 'rawmsg' | 'any';
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

/** Primitives that are Go structs (never dropped by `omitempty`, candidates for empty-struct stripping). */
export const STRUCT_PRIMITIVES: ReadonlySet<string> = new Set(['q', 't', 'mt', 'ios', 'dur', 'raw']);

/** A struct layout prepared for encoding. */
export interface GoStructLayout {
  readonly name: string;
  /** JSON fields in Go order. */
  readonly fields: readonly GoField[];
  /** `"name":` of each field (parallel to `fields`). */
  readonly keyTexts: readonly string[];
  /** `,"name":` of each field (parallel to `fields`). */
  readonly nextKeyTexts: readonly string[];
  /** Position in `fields` by JSON name. */
  readonly positions: ReadonlyMap<string, number>;
  /** Positions (ascending) of the fields that are written even when the object lacks their key. */
  readonly writtenWhenAbsent: readonly number[];
  /** Whether a field's name can be set with a plain assignment (parallel to `fields`). */
  readonly plainNames: readonly boolean[];
  /** Positions of the fields with their names sorted byte-wise. */
  readonly alphabeticOrder: readonly number[];
  /** Place of each field (by position) in `alphabeticOrder`. */
  readonly alphabeticRanks: readonly number[];
}

/**
 * How Go reads an object whose keys are not all field names: the object key each field reads
 * (by position; undefined: absent), and the defined keys no field reads, sorted.
 */
export interface LooseStructReading {
  readonly keys: ReadonlyArray<string | undefined>;
  readonly unknown: readonly string[];
}

const BUILTIN_STRUCTS: Readonly<Record<string, string>> = (() => {
  const all: Record<string, string> = {};
  for (const table of [K8S_STRUCTS, K8S_CONTENT_STRUCTS, DYNAMO_STRUCTS, LWS_STRUCTS]) {
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
  private readonly structCache = new Map<string, GoStructLayout>();

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

  /** The struct's layout prepared for encoding (see `GoStructLayout`). */
  struct(name: string): GoStructLayout {
    let layout = this.structCache.get(name);
    if (!layout) {
      const fields = this.fields(name);
      const positions = new Map<string, number>();
      fields.forEach((f, i) => positions.set(f.name, i));
      const writtenWhenAbsent: number[] = [];
      fields.forEach((f, i) => {
        // an absent key reads as Go's zero value: omitzero always drops it, omitempty unless the
        // field is a struct
        if (!f.omitZero && !(f.omitEmpty && isEmptyValue(undefined, f.type))) writtenWhenAbsent.push(i);
      });
      const plainNames = fields.map(f => f.name !== '__proto__' && !/[\ud800-\udfff]/.test(f.name));
      const alphabeticOrder = fields.map((_, i) => i).sort((a, b) => compareUtf8(fields[a].name, fields[b].name));
      const alphabeticRanks: number[] = [];
      alphabeticOrder.forEach((p, rank) => { alphabeticRanks[p] = rank; });
      layout = {
        name,
        fields,
        keyTexts: fields.map(f => goQuote(f.name) + ':'),
        nextKeyTexts: fields.map(f => ',' + goQuote(f.name) + ':'),
        positions,
        writtenWhenAbsent,
        plainNames,
        alphabeticOrder,
        alphabeticRanks,
      };
      this.structCache.set(name, layout);
    }
    return layout;
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
        return this.fields(t.name).every(f => this.isZeroValue(v[f.name], f.type));
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
}

const DEFAULT_REGISTRY = new GoTypeRegistry();

/** Registries with extra layouts, by the table of extra layouts (tables are constants in practice). */
const EXTENDED_REGISTRIES = new WeakMap<Readonly<Record<string, string>>, { readonly text: string; readonly registry: GoTypeRegistry }>();

/** Registries with extra layouts, by a frozen table of extra layouts (whose content cannot change). */
const FROZEN_REGISTRIES = new WeakMap<Readonly<Record<string, string>>, GoTypeRegistry>();
/** The frozen table asked for last and its registry (most readings in a row use the same table). */
let lastFrozen: { readonly types: Readonly<Record<string, string>>; readonly registry: GoTypeRegistry } | undefined;

/**
 * The registry of the built-in layouts, or one with extra layouts. A registry with extra layouts is
 * reused for the same table as long as the table's content is unchanged: for a frozen table (the
 * library's own tables, `Object.freeze`d constants of strings) always, without comparing its content.
 */
export function goTypeRegistry(types?: Readonly<Record<string, string>>): GoTypeRegistry {
  if (!types) return DEFAULT_REGISTRY;
  if (types === lastFrozen?.types) return lastFrozen.registry;
  const frozen = Object.isFrozen(types);
  if (frozen) {
    const registry = FROZEN_REGISTRIES.get(types);
    if (registry) {
      lastFrozen = { types, registry };
      return registry;
    }
  }
  const text = frozen ? '' : JSON.stringify(Object.entries(types));
  const known = frozen ? undefined : EXTENDED_REGISTRIES.get(types);
  if (known && known.text === text) return known.registry;
  const registry = new GoTypeRegistry(types);
  if (frozen) FROZEN_REGISTRIES.set(types, registry);
  else EXTENDED_REGISTRIES.set(types, { text, registry });
  return registry;
}

/**
 * The fields an object feeds when every key of it that holds a defined value is a field name
 * (the usual case): their positions, ascending. Undefined when some key is not a field name; then
 * `readLooseStruct` tells which key feeds which field.
 */
export function presentFields(obj: Record<string, unknown>, objectKeys: readonly string[], layout: GoStructLayout): number[] | undefined {
  const present: number[] = [];
  let sorted = true;
  let last = -1;
  for (const k of objectKeys) {
    if (obj[k] === undefined) continue;
    const p = layout.positions.get(k);
    if (p === undefined) return undefined;
    if (p < last) sorted = false;
    last = p;
    present.push(p);
  }
  if (!sorted) {
    // insertion sort: objects have few keys
    for (let i = 1; i < present.length; i++) {
      const p = present[i];
      let j = i - 1;
      while (j >= 0 && present[j] > p) {
        present[j + 1] = present[j];
        j--;
      }
      present[j + 1] = p;
    }
  }
  return present;
}

/**
 * Go's reading of an object as a struct in general: each field gets the object key equal to its
 * name, else (as Go matches case-insensitively) the last key equal to it ignoring case that no
 * earlier field took and that is no field's exact name; keys holding `undefined` do not count.
 */
export function readLooseStruct(obj: Record<string, unknown>, objectKeys: readonly string[], layout: GoStructLayout): LooseStructReading {
  const used = new Set<string>();
  const keys: Array<string | undefined> = [];
  for (const f of layout.fields) {
    const key = matchKey(obj, objectKeys, f.name, used, layout.positions);
    if (key !== undefined) used.add(key);
    keys.push(key);
  }
  const unknown = sortUtf8(objectKeys.filter(k => obj[k] !== undefined && !used.has(k)));
  return { keys, unknown };
}

function matchKey(obj: Record<string, unknown>, objectKeys: readonly string[], name: string, used: ReadonlySet<string>,
  exact: ReadonlyMap<string, number>): string | undefined {
  if (Object.prototype.hasOwnProperty.call(obj, name) && obj[name] !== undefined) return name;
  const lower = name.toLowerCase();
  let found: string | undefined;
  for (const k of objectKeys) {
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
      return isObject(v) && hasNoDefinedKey(v);
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
