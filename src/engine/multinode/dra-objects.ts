/**
 * The Dynamic Resource Allocation objects the operator reads from the cluster to count the GPUs of
 * a multinode vLLM / TensorRT-LLM container that asks for them through `resources.claims`
 * (docs/design/render-multinode.md §2.3), given offline as input documents.
 *
 * The operator follows the container's claim to the pod's `resourceClaims` entry, reads the
 * ResourceClaimTemplate (or ResourceClaim) it names from the component's namespace and the
 * DeviceClass of every device request. A pure renderer cannot read the cluster, so these objects are
 * taken from the documents being rendered:
 * - a `resource.k8s.io/v1` ResourceClaimTemplate or ResourceClaim in the input is an object of the
 *   app: it is written out like any other document and read where the operator reads it;
 * - a `resource.k8s.io/v1` DeviceClass is cluster state (cluster-scoped, normally installed by the
 *   DRA driver, e.g. `gpu.nvidia.com`): it is read, and not repeated in components / workloads output,
 *   as the observed PodSnapshots are not. Pass it as the cluster returns it
 *   (`kubectl get deviceclass gpu.nvidia.com -o yaml`).
 * An object without a namespace is taken to be in the namespace the input is rendered for.
 */
import { isMap, JsonMap } from '../../model/json';

export const RESOURCE_API_VERSION = 'resource.k8s.io/v1';
export const RESOURCE_CLAIM_TEMPLATE = 'ResourceClaimTemplate';
export const RESOURCE_CLAIM = 'ResourceClaim';
export const DEVICE_CLASS = 'DeviceClass';

/** Objects of the input the render may read as cluster state (other documents are ignored). */
export interface ClusterObjects {
  readonly objects?: readonly unknown[];
}

/** A `resource.k8s.io/v1` object of `kind` with metadata. */
function isResourceObject(doc: unknown, kind: string): doc is JsonMap & { metadata: JsonMap } {
  return isMap(doc) && doc.apiVersion === RESOURCE_API_VERSION && doc.kind === kind && isMap(doc.metadata);
}

/** Whether a document is a DRA object the GPU count may read (ResourceClaimTemplate, ResourceClaim, DeviceClass). */
export function isDraObject(doc: unknown): boolean {
  return isResourceObject(doc, RESOURCE_CLAIM_TEMPLATE) || isResourceObject(doc, RESOURCE_CLAIM) || isResourceObject(doc, DEVICE_CLASS);
}

/** Whether a document is read as cluster state only, never written out in components / workloads output (a DeviceClass). */
export function isDraClusterStateOnly(doc: unknown): boolean {
  return isResourceObject(doc, DEVICE_CLASS);
}

/** What DRA resolution reads, for one namespace; the renderer itself has no cluster access. */
export interface DraLookup {
  /** The namespace claims are read from (for messages). */
  readonly namespace: string;
  /** The ResourceClaimTemplate `name` of the namespace, if the input holds it. */
  claimTemplate(name: string): JsonMap | undefined;
  /** The ResourceClaim `name` of the namespace, if the input holds it. */
  claim(name: string): JsonMap | undefined;
  /** The DeviceClass `name` (cluster-scoped), if the input holds it. */
  deviceClass(name: string): JsonMap | undefined;
}

/**
 * The DRA objects of `cluster` as seen from `namespace`. `defaultNamespace` is the namespace of an
 * object that names none (the one the input is rendered for).
 */
export function draLookup(cluster: ClusterObjects | undefined, namespace: string, defaultNamespace = namespace): DraLookup {
  const objects = (cluster?.objects ?? []).filter(isDraObject) as Array<JsonMap & { metadata: JsonMap }>;
  const find = (kind: string, name: string, namespaced: boolean): JsonMap | undefined => objects.find(o => {
    if (o.kind !== kind || o.metadata.name !== name) return false;
    if (!namespaced) return true;
    const ns = typeof o.metadata.namespace === 'string' && o.metadata.namespace !== '' ? o.metadata.namespace : defaultNamespace;
    return ns === namespace;
  });
  return {
    namespace,
    claimTemplate: name => find(RESOURCE_CLAIM_TEMPLATE, name, true),
    claim: name => find(RESOURCE_CLAIM, name, true),
    deviceClass: name => find(DEVICE_CLASS, name, false),
  };
}
