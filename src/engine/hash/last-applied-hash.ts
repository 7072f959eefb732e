/**
 * The `nvidia.com/last-applied-hash` annotation the operator stamps on the objects it creates:
 * SHA-256 (lowercase hex) over a canonical JSON of the object's content.
 *
 * Content is `spec` when the object has one; otherwise every top-level field except
 * `apiVersion`, `kind`, `metadata` and `status` (ConfigMap `data`, Role `rules`, RoleBinding
 * `subjects`/`roleRef`, ...); an object with no content hashes like `{}`.
 *
 * The operator takes the content from its typed Go object, so for the kinds listed in
 * `LAST_APPLIED_CONTENT_TYPES` the wire JSON is first passed through the Go layout (zero values of
 * non-omitted fields appear, e.g. `"resources":{}` or `"strategy":{}`; quantities become
 * canonical). DynamoComponentDeployments additionally get the v1beta1 clean-up their Go type
 * applies when serialised: every `{}` held by a non-pointer struct field is dropped (so
 * `metadata: {}` and `resources: {}` disappear, while `scalingAdapter: {}` stays). Other kinds
 * are taken as given (unstructured).
 *
 * Canonical JSON: object keys sorted byte-wise at every level; every array whose first element is
 * an object is stably sorted (Go's `sort.SliceStable`) by comparing, for two object elements,
 * their `name` strings when both have one, otherwise the alphabetically first key of each; numbers
 * written as Go float64; strings escaped as Go does.
 */
import { goJsonEncode, GoType, goTypeRegistry, GoTypeRef, GoTypeRegistry, STRUCT_PRIMITIVES, compareUtf8 } from './go-json';
import { sha256Hex } from './worker-hash';

interface ContentLayout {
  /** Go type of `spec`. */
  readonly spec?: GoTypeRef;
  /** Go type of the non-envelope fields of a spec-less kind. */
  readonly content?: GoTypeRef;
  /** Apply the nvidia.com/v1beta1 empty-struct clean-up. */
  readonly v1beta1?: boolean;
}

/** Typed content layouts by `apiVersion/kind`. */
export const LAST_APPLIED_CONTENT_TYPES: Readonly<Record<string, ContentLayout>> = {
  'apps/v1/Deployment': { spec: 'DeploymentSpec' },
  'v1/Service': { spec: 'ServiceSpec' },
  'networking.k8s.io/v1/Ingress': { spec: 'IngressSpec' },
  'v1/ConfigMap': { content: 'ConfigMapContent' },
  'v1/Secret': { content: 'SecretContent' },
  'v1/ServiceAccount': { content: 'ServiceAccountContent' },
  'rbac.authorization.k8s.io/v1/Role': { content: 'RoleContent' },
  'rbac.authorization.k8s.io/v1/ClusterRole': { content: 'ClusterRoleContent' },
  'rbac.authorization.k8s.io/v1/RoleBinding': { content: 'RoleBindingContent' },
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': { content: 'RoleBindingContent' },
  'nvidia.com/v1beta1/DynamoComponentDeployment': { spec: 'DynamoComponentDeploymentSpec', v1beta1: true },
};

const ENVELOPE = new Set(['apiVersion', 'kind', 'metadata', 'status']);

export interface LastAppliedHashOptions {
  /**
   * How to read the content: a layout, or `null` to take the object as unstructured JSON.
   * Default: by `apiVersion`/`kind` from `LAST_APPLIED_CONTENT_TYPES`, else unstructured.
   */
  readonly layout?: ContentLayout | null;
  /** Called for fields a Go layout does not know (they are kept). */
  readonly onUnknownField?: (path: string, key: string) => void;
}

function isObject(v: unknown): v is Record<string, any> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nonEnvelope(obj: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) if (!ENVELOPE.has(k) && v !== undefined) out[k] = v;
  return out;
}

/** The object's content as the operator sees it (plain JSON data), or null when it has none. */
export function lastAppliedContent(obj: any, options: LastAppliedHashOptions = {}): unknown {
  if (!isObject(obj)) throw new TypeError('lastAppliedHash: expected a Kubernetes object');
  const layout = options.layout === undefined
    ? LAST_APPLIED_CONTENT_TYPES[`${obj.apiVersion}/${obj.kind}`]
    : options.layout ?? undefined;
  const encodeOptions = { onUnknownField: options.onUnknownField };

  if (layout?.spec !== undefined) {
    // A typed object always has its spec struct, even when the wire object leaves it out.
    const spec = JSON.parse(goJsonEncode(obj.spec, layout.spec, encodeOptions));
    if (layout.v1beta1) stripEmptyValueStructs(goTypeRegistry(), goTypeRegistry().type(layout.spec), spec);
    return spec;
  }
  if (layout?.content !== undefined) {
    const content = JSON.parse(goJsonEncode(nonEnvelope(obj), layout.content, encodeOptions));
    return Object.keys(content).length === 0 ? null : content;
  }
  if (Object.prototype.hasOwnProperty.call(obj, 'spec') && obj.spec !== undefined) {
    return obj.spec === null ? null : JSON.parse(JSON.stringify(obj.spec));
  }
  const content = nonEnvelope(obj);
  return Object.keys(content).length === 0 ? null : JSON.parse(JSON.stringify(content));
}

/** The exact text the annotation hash is taken over. */
export function lastAppliedHashInput(obj: any, options: LastAppliedHashOptions = {}): string {
  const content = lastAppliedContent(obj, options);
  if (content !== null && !isObject(content)) {
    throw new TypeError('lastAppliedHash: the content must be a JSON object');
  }
  return goJsonEncode(goSortKeys(content ?? {}));
}

/** `nvidia.com/last-applied-hash` of a rendered object (64 lowercase hex characters). */
export function lastAppliedHash(obj: any, options: LastAppliedHashOptions = {}): string {
  return sha256Hex(lastAppliedHashInput(obj, options));
}

/**
 * The operator's recursive normalisation before hashing: arrays whose first element is an object
 * are stably sorted (by `name`, else by first key name); object key order is left to the encoder,
 * which sorts. Works on (and returns) a deep copy.
 */
export function goSortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.slice();
    if (items.length > 0 && isObject(items[0])) goSliceStable(items, elementLess);
    return items.map(goSortKeys);
  }
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = goSortKeys(v);
    return out;
  }
  return value;
}

function firstKeyName(obj: Record<string, unknown>): string {
  return Object.keys(obj).sort(compareUtf8)[0];
}

function elementLess(a: unknown, b: unknown): boolean {
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

/**
 * The nvidia.com/v1beta1 serialisation clean-up, in place: walking the JSON together with its Go
 * type, an object member is deleted when its value is `{}` (after cleaning its own members) and
 * its Go field is a non-pointer struct. Members unknown to the layout are left alone.
 */
export function stripEmptyValueStructs(registry: GoTypeRegistry, type: GoType, value: unknown): void {
  let t = type;
  while (t.kind === 'ptr') t = t.elem;
  if (isObject(value)) {
    if (t.kind === 'struct') {
      const fields = new Map(registry.fields(t.name).map(f => [f.name, f]));
      for (const key of Object.keys(value)) {
        const f = fields.get(key);
        if (!f) continue;
        stripEmptyValueStructs(registry, f.type, value[key]);
        const child = value[key];
        const valueStruct = f.type.kind === 'struct' || (f.type.kind === 'prim' && STRUCT_PRIMITIVES.has(f.type.prim));
        if (valueStruct && isObject(child) && Object.keys(child).length === 0) delete value[key];
      }
    } else if (t.kind === 'map') {
      for (const key of Object.keys(value)) stripEmptyValueStructs(registry, t.elem, value[key]);
    }
  } else if (Array.isArray(value) && t.kind === 'slice') {
    for (const item of value) stripEmptyValueStructs(registry, t.elem, item);
  }
}
