/**
 * Copies of plain JSON data for the render path, where the same trees are copied for every
 * component and every synthesis:
 *
 * - `copyJson`: `deepClone` (src/model/json.ts) without tracking the ancestors of every value;
 * - `copyJsonForOutput`: the same copy made with spread syntax, for copies nobody extends;
 * - `shallowCopy` / `assignOwn`: `{ ...source }` made by assignment, for objects that get more
 *   keys afterwards.
 *
 * Why spread syntax is avoided for objects that are extended: in V8 11 (Node 20), adding a key to
 * an object made with `{ ...source }` (a copy that shares the source's hidden class) takes about a
 * microsecond, some fifty times what it takes on an object built key by key.
 */
import { deepClone } from './json';

/** Beyond this depth a tree may hold a reference cycle; `deepClone` then decides. */
const MAX_DEPTH = 200;

const TOO_DEEP = Symbol('too deep');
const OWN_PROTO = Symbol('own __proto__');

/**
 * A deep copy of plain JSON data, equal to `deepClone(value)` in every case: arrays are copied
 * with `map` (holes stay holes), objects by assigning their own enumerable keys, shared references
 * are copied separately; a tree deeper than 200 levels (or with a reference cycle, which
 * `deepClone` cuts) is left to `deepClone`.
 */
export function copyJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  try {
    return copy(value, 0) as T;
  } catch (e) {
    if (e === TOO_DEEP) return deepClone(value);
    throw e;
  }
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
 * Whether `made`, a tree `copyJson` made, equals what `copyJson(value)` would make now: the same
 * arrays (length, holes) and objects (own enumerable keys in the same order), and leaves that are
 * the same (`Object.is`). False also when that cannot be told without copying: a tree deeper than
 * `copyJson` copies itself (or a reference cycle), or an object of `value` that is `made` itself.
 * Cheaper than writing either as text: nothing is allocated but the key lists.
 */
export function sameAsCopy(value: unknown, made: unknown): boolean {
  return same(value, made, 0);
}

function same(value: unknown, made: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return Object.is(value, made);
  if (typeof made !== 'object' || made === null || value === made || depth > MAX_DEPTH) return false;
  if (Array.isArray(value)) {
    if (!Array.isArray(made) || value.length !== made.length) return false;
    for (let i = 0; i < value.length; i++) {
      if (!same(value[i], made[i], depth + 1)) return false;
      if (value[i] === undefined && (i in value) !== (i in made)) return false;
    }
    return true;
  }
  if (Array.isArray(made)) return false;
  const keys = Object.keys(value);
  const madeKeys = Object.keys(made);
  if (keys.length !== madeKeys.length) return false;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    if (key !== madeKeys[i] || !same((value as Record<string, unknown>)[key], (made as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
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
