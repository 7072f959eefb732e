/**
 * The copies of plain JSON data (parsed YAML/JSON, construct props, rendered objects), one function
 * per meaning:
 *
 * - `copyJson`: the deep copy. Shared references (YAML aliases) are copied separately, a `__proto__`
 *   key stays an own key, a reference cycle is cut (replaced by null);
 * - `copyJsonForOutput`: the same copy (equal result in every case) made with spread syntax, for
 *   copies nobody extends (the rendered objects handed to cdk8s);
 * - `jsonRoundTrip`: the value as it reads back after being written as JSON, as the API server
 *   stores an object (a different result: undefined members dropped, see there);
 * - `shallowCopy` / `assignOwn`: `{ ...source }` made by assignment, for objects that get more
 *   keys afterwards.
 *
 * Why spread syntax is avoided for objects that are extended: in V8 11 (Node 20), adding a key to
 * an object made with `{ ...source }` (a copy that shares the source's hidden class) takes about a
 * microsecond, some fifty times what it takes on an object built key by key.
 */
/** Beyond this depth a tree may hold a reference cycle; `copyCuttingCycles` then decides. */
const MAX_DEPTH = 200;

const TOO_DEEP = Symbol('too deep');
const OWN_PROTO = Symbol('own __proto__');

/**
 * The deep copy of plain JSON data: arrays are copied with `map` (holes stay holes), objects by
 * assigning their own enumerable keys (a `__proto__` key stays an own key, never the prototype),
 * shared references (YAML aliases) are copied separately. A tree deeper than 200 levels is copied
 * by `copyCuttingCycles`, which also cuts a reference cycle (replaced by null) instead of
 * recursing forever.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return copy(value, 0) as T;
  } catch (e) {
    if (e === TOO_DEEP) return copyCuttingCycles(value, new Set()) as T;
    throw e;
  }
}

/** `copyJson` that tracks the ancestors of every value, to cut a reference cycle (replaced by null). */
function copyCuttingCycles(value: unknown, ancestors: Set<unknown>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (ancestors.has(value)) return null;
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => copyCuttingCycles(item, ancestors));
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = copyCuttingCycles((value as Record<string, unknown>)[key], ancestors);
      if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
      else out[key] = item;
    }
    return out;
  } finally {
    ancestors.delete(value);
  }
}

/**
 * The value as it reads back after being written as JSON (`JSON.stringify` then `JSON.parse`): what
 * the API server stores of an object, and what Go's `json.Marshal` then `json.Unmarshal` of it give.
 * Unlike `copyJson`, members whose value is undefined are dropped, undefined items and holes of an
 * array become null, non-finite numbers become null, and a reference cycle is an error. An undefined
 * value stays undefined.
 */
export function jsonRoundTrip<T>(value: T): T {
  return value === undefined ? value : JSON.parse(JSON.stringify(value));
}

function copy(value: unknown, depth: number): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (depth > MAX_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) return value.map(item => copy(item, depth + 1));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item = copy((value as Record<string, unknown>)[key], depth + 1);
    if (key === '__proto__') Object.defineProperty(out, key, { value: item, writable: true, enumerable: true, configurable: true });
    else out[key] = item;
  }
  return out;
}

/**
 * A tree `copyJson` made, written down once as a flat list (an object: its key count, then each key
 * and its value; an array: its length, then its items, a hole marked as one), to tell cheaply
 * whether a value would copy the same now: `matches(value)` walks the value along the list, which
 * allocates nothing (cheaper than writing either as text).
 */
export class CopyRecord {
  /** The record of `made`, a tree `copyJson` made (plain objects, arrays and leaves). */
  public static of(made: unknown): CopyRecord {
    const entries: unknown[] = [];
    record(made, entries);
    return new CopyRecord(entries);
  }

  private position = 0;
  /** Whether a walk is under way (a getter of the value walked could start another). */
  private walking = false;

  private constructor(private readonly entries: readonly unknown[]) {}

  /**
   * Whether `copyJson(value)` would equal the recorded copy: the same arrays (length, holes) and
   * objects (own enumerable keys in the same order), and leaves that are the same (`Object.is`).
   * False also where that cannot be told this way (an object that inherits enumerable keys, a
   * match started while another is under way), and for a reference cycle or a tree deeper than
   * `copyJson` copies itself.
   */
  public matches(value: unknown): boolean {
    if (this.walking) return false;
    this.walking = true;
    this.position = 0;
    try {
      return this.match(value, 0) && this.position === this.entries.length;
    } finally {
      this.walking = false;
    }
  }

  private match(value: unknown, depth: number): boolean {
    const entry = this.entries[this.position++];
    if (typeof value !== 'object' || value === null) return Object.is(value, entry);
    if (depth > MAX_DEPTH) return false;
    if (Array.isArray(value)) {
      if (entry !== ARRAY || this.entries[this.position++] !== value.length) return false;
      for (let i = 0; i < value.length; i++) {
        if (i in value ? !this.match(value[i], depth + 1) : this.entries[this.position++] !== HOLE) return false;
      }
      return true;
    }
    if (entry !== OBJECT) return false;
    const count = this.entries[this.position++] as number;
    let seen = 0;
    // `for ... in` also lists inherited enumerable keys, which `copyJson` does not copy: more keys than recorded
    for (const key in value) {
      if (seen === count || this.entries[this.position++] !== key) return false;
      seen++;
      if (!this.match((value as Record<string, unknown>)[key], depth + 1)) return false;
    }
    return seen === count;
  }
}

/** Markers of a `CopyRecord` (no leaf of a copy is one of them). */
const OBJECT = Symbol('object');
const ARRAY = Symbol('array');
const HOLE = Symbol('hole');

function record(made: unknown, entries: unknown[]): void {
  if (typeof made !== 'object' || made === null) {
    entries.push(made);
  } else if (Array.isArray(made)) {
    entries.push(ARRAY, made.length);
    for (let i = 0; i < made.length; i++) {
      if (i in made) record(made[i], entries);
      else entries.push(HOLE);
    }
  } else {
    const keys = Object.keys(made);
    entries.push(OBJECT, keys.length);
    for (const key of keys) {
      entries.push(key);
      record((made as Record<string, unknown>)[key], entries);
    }
  }
}

/**
 * `copyJson(value)` made with spread syntax, which copies an object about twice as fast as
 * assigning its keys one by one: for copies that are handed out and not extended by the engine.
 * An object with an own `__proto__` key (which spread syntax keeps but `for ... in` cannot copy), a tree deeper
 * than 200 levels or with a reference cycle, and any value while `Object.prototype` has enumerable
 * keys, are left to `copyJson`. (Spread syntax would also copy symbol keys, which JSON data does
 * not have.)
 */
export function copyJsonForOutput<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  // `for ... in` below must see own keys only
  if (hasInheritedKeys()) return copyJson(value);
  spreadDepth = 0;
  try {
    return spreadCopy(value) as T;
  } catch (e) {
    if (e === TOO_DEEP || e === OWN_PROTO) return copyJson(value);
    throw e;
  }
}

/** Whether a plain object inherits enumerable keys (someone added some to `Object.prototype`). */
function hasInheritedKeys(): boolean {
  for (const key in {}) if (key !== undefined) return true;
  return false;
}

/** Nesting depth of `spreadCopy` (a counter is cheaper than a parameter `map` cannot pass). */
let spreadDepth = 0;

function spreadCopy(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (++spreadDepth > MAX_DEPTH) throw TOO_DEEP;
  let out: unknown;
  if (Array.isArray(value)) {
    out = value.map(spreadCopy);
  } else {
    const object: Record<string, unknown> = { ...(value as Record<string, unknown>) };
    if (Object.prototype.hasOwnProperty.call(object, '__proto__')) throw OWN_PROTO;
    for (const key in object) {
      const item = object[key];
      if (typeof item === 'object' && item !== null) object[key] = spreadCopy(item);
    }
    out = object;
  }
  spreadDepth--;
  return out;
}

/**
 * `{ ...source }` for plain JSON data (own enumerable string keys in order; a `__proto__` key
 * stays an own key; null or undefined give `{}`), built by assignment, so that adding keys to it
 * stays cheap.
 */
export function shallowCopy<T extends object>(source: T | null | undefined): T {
  const out = {} as T;
  if (source !== null && source !== undefined) assignOwn(out, source);
  return out;
}

/**
 * `Object.assign(target, source)` with the semantics of spread syntax (`{ ...target, ...source }`
 * without the copy): each own enumerable string key of `source` is set on `target` as a data
 * property, also `__proto__`. Returns `target`.
 */
export function assignOwn<T extends object>(target: T, source: object): T {
  for (const key of Object.keys(source)) {
    const value = (source as Record<string, unknown>)[key];
    if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
    else (target as Record<string, unknown>)[key] = value;
  }
  return target;
}
