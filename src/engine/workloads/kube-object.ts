/**
 * The plain shape of the Kubernetes objects the workload renderers build, and small helpers to
 * build them the way the operator's Go code serialises them.
 */
import { GoTypeRef } from '../../go/struct-layout';
import { goJsonValue, GoValue, readGoValue } from '../../go/value';
import { assignOwn, shallowCopy } from '../../model/json-copy';
import { ObjectMetaJson } from '../../model/v1beta1';
import { ANNOTATION_LAST_APPLIED_GENERATION, ANNOTATION_LAST_APPLIED_HASH } from '../../model/well-known';
import { lastAppliedHashOfGoSpec } from '../hash/last-applied-hash';

/** A rendered Kubernetes object: type, metadata and its content fields (`spec`, `data`, `rules`, ...). */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: ObjectMetaJson;
  [field: string]: unknown;
}

export interface ObjectMetaInput {
  readonly name: string;
  readonly namespace: string;
  readonly labels?: Record<string, string>;
  readonly annotations?: Record<string, string>;
}

/**
 * A Kubernetes object with `apiVersion`, `kind`, `metadata` (name, namespace, labels and
 * annotations when non-empty) and the given content fields, in that order. Owner references are
 * never set: they need the owner's UID, which only exists in a cluster.
 */
export function kubeObject(apiVersion: string, kind: string, meta: ObjectMetaInput, content: Record<string, unknown> = {}): KubeObject {
  const metadata: ObjectMetaJson = { name: meta.name, namespace: meta.namespace };
  if (meta.labels && Object.keys(meta.labels).length > 0) metadata.labels = shallowCopy(meta.labels);
  if (meta.annotations && Object.keys(meta.annotations).length > 0) metadata.annotations = shallowCopy(meta.annotations);
  return assignOwn({ apiVersion, kind, metadata } as KubeObject, content);
}

/** `value` as Go sends it when it is held in the Go type `type` (see src/go/marshal.ts). */
export function asGo<T = Record<string, unknown>>(value: unknown, type: GoTypeRef): T {
  return goJsonValue(value, type) as T;
}

/**
 * `withCreateBookkeeping(kubeObject(apiVersion, kind, meta, { spec: asGo(spec, specType) }))`: an
 * object whose `spec` has the Go type `specType` (the kind's spec type), with the create
 * bookkeeping annotations. The spec is read as Go once; the hash reuses that reading when it is a
 * fixed point.
 */
export function kubeObjectWithGoSpec(apiVersion: string, kind: string, meta: ObjectMetaInput, spec: unknown, specType: GoTypeRef): KubeObject {
  return kubeObjectWithGoReading(apiVersion, kind, meta, readGoValue(spec, specType), specType);
}

/** `kubeObjectWithGoSpec` for a spec the caller has already read as `specType` (`readGoValue`). */
export function kubeObjectWithGoReading(apiVersion: string, kind: string, meta: ObjectMetaInput, goSpec: GoValue, specType: GoTypeRef): KubeObject {
  const obj = kubeObject(apiVersion, kind, meta, { spec: goSpec.value });
  // the annotations withCreateBookkeeping (engine/bookkeeping.ts) writes
  const annotations = shallowCopy(obj.metadata.annotations);
  annotations[ANNOTATION_LAST_APPLIED_HASH] = lastAppliedHashOfGoSpec(obj, specType, goSpec);
  annotations[ANNOTATION_LAST_APPLIED_GENERATION] = '1';
  obj.metadata.annotations = annotations;
  return obj;
}

/**
 * A Kubernetes resource name derived from a Dynamo name: lower-cased, every `.` replaced by `-`
 * (Service, Ingress, VirtualService and DestinationRule names must be DNS labels).
 */
export function normalizeKubeResourceName(name: string): string {
  return name.toLowerCase().split('.').join('-');
}
