/**
 * The canonical JSON the operator's `nvidia.com/last-applied-hash` is taken over:
 * `goJsonEncode(goSortKeys(value))` (see src/engine/hash/last-applied-hash.ts) in one walk, without the sorted
 * copy. Object keys are sorted byte-wise at every level; an array whose first element is an object
 * is written stably sorted (Go's `sort.SliceStable`) by the elements' `name` strings, else by
 * their alphabetically first keys; everything else as Go writes `interface{}` data.
 *
 * A value read as a Go type can be written with that type as a hint: objects of a struct type
 * then take their key order and key text from the struct layout instead of sorting and quoting
 * their keys. The hint never changes the text; an object with a key its layout lacks is written
 * without it.
 */
import { GoPath, GoPathTracker, NO_PATH } from './marshal';
import { GoStructLayout, GoType, GoTypeRegistry, goTypeRegistry } from './struct-layout';
import { compareUtf8, definedKeys, goQuote, goScalarText, isObject, sortUtf8, typeError } from './text';

/** `goJsonEncode(goSortKeys(value))`; `type` is the Go type the value was read as, if any. */
export function goSortedJson(value: unknown, type?: GoType, registry: GoTypeRegistry = goTypeRegistry()): string {
  try {
    return new SortedEncoder(registry, NO_PATH).encode(value, type);
  } catch {
    // again, keeping track of the location, for the error message
    return new SortedEncoder(registry, new GoPath()).encode(value, type);
  }
}

class SortedEncoder {
  constructor(private readonly registry: GoTypeRegistry, private readonly path: GoPathTracker) {}

  encode(v: unknown, type: GoType | undefined): string {
    const scalar = goScalarText(v);
    if (scalar !== undefined) return scalar;
    let t = type;
    while (t !== undefined && t.kind === 'ptr') t = t.elem;
    if (Array.isArray(v)) return this.array(v, t !== undefined && t.kind === 'slice' ? t.elem : undefined);
    if (isObject(v)) {
      if (t !== undefined && t.kind === 'struct') {
        const text = this.struct(v, this.registry.struct(t.name));
        if (text !== undefined) return text;
      }
      return this.object(v, t !== undefined && t.kind === 'map' ? t.elem : undefined);
    }
    throw typeError(this.path.text(), 'a JSON value', v);
  }

  private array(v: readonly unknown[], elem: GoType | undefined): string {
    if (v.length === 0) return '[]';
    let items: readonly unknown[] = v;
    if (isObject(v[0]) && !inOrder(v)) {
      const copy = v.slice();
      goSliceStable(copy, elementLess);
      items = copy;
    }
    let out = '[';
    for (let i = 0; i < items.length; i++) {
      if (i > 0) out += ',';
      const x = items[i];
      // a hole is written as nothing (as `map` and `join` do)
      if (x === undefined && !(i in items)) continue;
      this.path.push(i);
      out += this.encode(x, elem);
      this.path.pop();
    }
    return out + ']';
  }

  private object(v: Record<string, unknown>, elem: GoType | undefined): string {
    const keys = sortUtf8(membersOf(v));
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      this.path.push(k);
      out += (i === 0 ? '' : ',') + goQuote(k) + ':' + this.encode(v[k], elem);
      this.path.pop();
    }
    return out + '}';
  }

  /** The object written in its struct layout's key order, or undefined when a key is no field. */
  private struct(v: Record<string, unknown>, layout: GoStructLayout): string | undefined {
    const ranks: number[] = [];
    let sorted = true;
    for (const k of Object.keys(v)) {
      if (v[k] === undefined) continue;
      const p = layout.positions.get(k);
      if (p === undefined || k === '__proto__') return undefined;
      const rank = layout.alphabeticRanks[p];
      if (ranks.length > 0 && rank < ranks[ranks.length - 1]) sorted = false;
      ranks.push(rank);
    }
    if (!sorted) sortSmall(ranks);
    let out = '{';
    for (let i = 0; i < ranks.length; i++) {
      const p = layout.alphabeticOrder[ranks[i]];
      const f = layout.fields[p];
      this.path.push(f.name);
      out += (i === 0 ? layout.keyTexts[p] : layout.nextKeyTexts[p]) + this.encode(v[f.name], f.type);
      this.path.pop();
    }
    return out + '}';
  }
}

/** Sorts a short list of numbers in place (insertion sort: no comparator calls). */
function sortSmall(list: number[]): void {
  for (let i = 1; i < list.length; i++) {
    const x = list[i];
    let j = i - 1;
    while (j >= 0 && list[j] > x) {
      list[j + 1] = list[j];
      j--;
    }
    list[j + 1] = x;
  }
}

/**
 * Whether `goSliceStable(items, elementLess)` leaves the array as it is: with at most 20 items it
 * is one insertion sort, which moves nothing when no item is less than the one before it.
 */
function inOrder(items: readonly unknown[]): boolean {
  if (items.length > 20) return false;
  for (let i = 1; i < items.length; i++) {
    if (elementLess(items[i], items[i - 1])) return false;
  }
  return true;
}

/**
 * The keys `goSortKeys` keeps: those holding a defined value, except `__proto__` (copying members
 * by assignment never creates an own `__proto__`).
 */
function membersOf(obj: Record<string, unknown>): string[] {
  const keys = definedKeys(obj);
  return keys.includes('__proto__') ? keys.filter(k => k !== '__proto__') : keys;
}

function firstKeyName(obj: Record<string, unknown>): string {
  return Object.keys(obj).sort(compareUtf8)[0];
}

/** The order of array elements: by `name` when both have one, else by their first key names. */
export function elementLess(a: unknown, b: unknown): boolean {
  if (!isObject(a) || !isObject(b)) return false;
  if (typeof a.name === 'string' && typeof b.name === 'string') return compareUtf8(a.name, b.name) < 0;
  if (Object.keys(a).length > 0 && Object.keys(b).length > 0) return compareUtf8(firstKeyName(a), firstKeyName(b)) < 0;
  return false;
}

/**
 * Go's `sort.SliceStable` step for step (insertion-sorted blocks of 20, then in-place symmetric
 * merges), so that even a comparison that is not a strict weak order (objects with and without
 * `name` mixed in one array) gives Go's result.
 */
export function goSliceStable<T>(data: T[], less: (a: T, b: T) => boolean): void {
  const lessAt = (i: number, j: number) => less(data[i], data[j]);
  const swap = (i: number, j: number) => {
    const t = data[i];
    data[i] = data[j];
    data[j] = t;
  };
  const insertionSort = (a: number, b: number) => {
    for (let i = a + 1; i < b; i++) {
      for (let j = i; j > a && lessAt(j, j - 1); j--) swap(j, j - 1);
    }
  };
  const swapRange = (a: number, b: number, n: number) => {
    for (let i = 0; i < n; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number) => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      // Binary search for the insertion point of data[a] in data[m:b], then shift it there.
      let i = m;
      let j = b;
      while (i < j) {
        const h = Math.floor((i + j) / 2);
        if (lessAt(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      // Binary search for the insertion point of data[m] in data[a:m], then shift it there.
      let i = a;
      let j = m;
      while (i < j) {
        const h = Math.floor((i + j) / 2);
        if (!lessAt(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = Math.floor((a + b) / 2);
    const n = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = n - 1;
    while (start < r) {
      const c = Math.floor((start + r) / 2);
      if (!lessAt(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = n - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };

  const n = data.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}

