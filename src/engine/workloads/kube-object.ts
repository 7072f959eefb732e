/**
 * The plain shape of the Kubernetes objects the workload renderers build, and small helpers to
 * build them the way the operator's Go code serialises them.
 */
import { ObjectMetaJson } from '../../model/v1beta1';
import { goJsonEncode, GoTypeRef } from '../hash/go-json';

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
  if (meta.labels && Object.keys(meta.labels).length > 0) metadata.labels = { ...meta.labels };
  if (meta.annotations && Object.keys(meta.annotations).length > 0) metadata.annotations = { ...meta.annotations };
  return { apiVersion, kind, metadata, ...content };
}

/** `value` as Go sends it when it is held in the Go type `type` (see `go-json.ts`). */
export function asGo<T = Record<string, unknown>>(value: unknown, type: GoTypeRef): T {
  return JSON.parse(goJsonEncode(value, type)) as T;
}

/**
 * A Kubernetes resource name derived from a Dynamo name: lower-cased, every `.` replaced by `-`
 * (Service, Ingress, VirtualService and DestinationRule names must be DNS labels).
 */
export function normalizeKubeResourceName(name: string): string {
  return name.toLowerCase().split('.').join('-');
}
