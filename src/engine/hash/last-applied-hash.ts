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
import { sha256Hex } from './worker-hash';
import { stripEmptyValueStructs } from '../../go/empty-structs';
import { elementLess, goSliceStable, goSortedJson } from '../../go/sorted-json';
import { GoType, goTypeRegistry, GoTypeRef } from '../../go/struct-layout';
import { goJsonValue, GoValue } from '../../go/value';
import { jsonRoundTrip } from '../../model/json-copy';

export { goSliceStable, goSortedJson } from '../../go/sorted-json';

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
  'leaderworkerset.x-k8s.io/v1/LeaderWorkerSet': { spec: 'LeaderWorkerSetSpec' },
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
  return typedContent(obj, options).content;
}

/** The content (see `lastAppliedContent`) and the Go type it was read as, if any. */
function typedContent(obj: any, options: LastAppliedHashOptions): { content: unknown; type?: GoType } {
  if (!isObject(obj)) throw new TypeError('lastAppliedHash: expected a Kubernetes object');
  const layout = options.layout === undefined
    ? LAST_APPLIED_CONTENT_TYPES[`${obj.apiVersion}/${obj.kind}`]
    : options.layout ?? undefined;
  const encodeOptions = { onUnknownField: options.onUnknownField };
  const registry = goTypeRegistry();

  if (layout?.spec !== undefined) {
    // A typed object always has its spec struct, even when the wire object leaves it out.
    const spec = goJsonValue(obj.spec, layout.spec, encodeOptions);
    const type = registry.type(layout.spec);
    if (layout.v1beta1) stripEmptyValueStructs(registry, type, spec);
    return { content: spec, type };
  }
  if (layout?.content !== undefined) {
    const content = goJsonValue(nonEnvelope(obj), layout.content, encodeOptions);
    return { content: Object.keys(content).length === 0 ? null : content, type: registry.type(layout.content) };
  }
  if (Object.prototype.hasOwnProperty.call(obj, 'spec') && obj.spec !== undefined) {
    return { content: obj.spec === null ? null : jsonRoundTrip(obj.spec) };
  }
  const content = nonEnvelope(obj);
  return { content: Object.keys(content).length === 0 ? null : jsonRoundTrip(content) };
}

/** The exact text the annotation hash is taken over. */
export function lastAppliedHashInput(obj: any, options: LastAppliedHashOptions = {}): string {
  const { content, type } = typedContent(obj, options);
  if (content !== null && !isObject(content)) {
    throw new TypeError('lastAppliedHash: the content must be a JSON object');
  }
  return goSortedJson(content ?? {}, type);
}

/** `nvidia.com/last-applied-hash` of a rendered object (64 lowercase hex characters). */
export function lastAppliedHash(obj: any, options: LastAppliedHashOptions = {}): string {
  return sha256Hex(lastAppliedHashInput(obj, options));
}

/**
 * `lastAppliedHash(obj)` for an object whose `spec` is the result of `readGoValue(input,
 * specType)`: when that reading is a fixed point and `specType` is the spec layout of the object's
 * kind, the spec is already the content the operator hashes and is not read again.
 */
export function lastAppliedHashOfGoSpec(obj: any, specType: GoTypeRef, spec: GoValue): string {
  const layout = isObject(obj) ? LAST_APPLIED_CONTENT_TYPES[`${obj.apiVersion}/${obj.kind}`] : undefined;
  const reusable = spec.fixedPoint && layout?.spec === specType && !layout.v1beta1 && obj.spec === spec.value && isObject(spec.value);
  return reusable ? sha256Hex(goSortedJson(spec.value, goTypeRegistry().type(specType))) : lastAppliedHash(obj);
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
