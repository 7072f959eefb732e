/**
 * Structural defaults of the v1beta1 CRDs, applied the way the API server stores objects, and the
 * nulls it drops or reads as empty strings before that.
 */
import { applySchemaDefaults, DefaultingSchemaNode } from './schema-defaults';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS } from '../../imports/nvidia.com.schema';
import { isMap } from '../model/json';

/**
 * Adds, in place, every default of the CRD schema of the document's kind (DGD, else DCD), after
 * reading its nulls as the API server does (`storedNulls`).
 */
export function applyStoredDefaults(doc: unknown): void {
  const schema = ((doc as { kind?: unknown })?.kind === 'DynamoGraphDeployment' ? DGD_V1BETA1_SCHEMA : DCD_V1BETA1_SCHEMA) as DefaultingSchemaNode;
  storedNulls(doc, schema);
  applySchemaDefaults(doc, schema, EMBEDDED_K8S_DEFAULTS as { [k: string]: DefaultingSchemaNode });
}

/**
 * Reads, in place, the nulls of an object the way the API server stores it:
 *
 * - `metadata` is Go's `ObjectMeta`: a null label or annotation value is the empty string (a
 *   `map[string]string` entry), any other null field of it is absent (Go's zero value, omitted);
 * - below it, every field or map value the CRD schema declares, null and not `nullable` (no node
 *   of these CRDs is), is dropped (k8s.io/apiextensions-apiserver
 *   `pkg/apiserver/schema/defaulting/prunenulls.go`); one with a default gets the default, as an
 *   absent one does (`applySchemaDefaults` follows). Embedded Kubernetes types are schema all
 *   through; fields a `x-kubernetes-preserve-unknown-fields` node does not declare keep their
 *   nulls; null list items stay (validation refuses them).
 */
export function storedNulls(doc: unknown, schema: DefaultingSchemaNode): void {
  if (!isMap(doc)) return;
  const metadata = doc.metadata;
  if (isMap(metadata)) {
    for (const [name, value] of Object.entries(metadata)) {
      if (value === null) {
        delete metadata[name];
      } else if ((name === 'labels' || name === 'annotations') && isMap(value)) {
        for (const [key, text] of Object.entries(value)) if (text === null) value[key] = '';
      }
    }
  }
  for (const [name, value] of Object.entries(doc)) {
    if (name === 'metadata') continue;
    const child = schema.properties?.[name];
    if (child === undefined) continue;
    if (value === null) delete doc[name];
    else dropNulls(value, child);
  }
}

/** Drops the nulls below `value` that `schema` declares (see `storedNulls`). */
function dropNulls(value: unknown, schema: DefaultingSchemaNode | undefined): void {
  if (schema === undefined) return;
  if (schema.k8sType) {
    dropAllNulls(value);
    return;
  }
  if (Array.isArray(value)) {
    for (const item of value) dropNulls(item, schema.items);
    return;
  }
  if (!isMap(value)) return;
  const rest = isMap(schema.additionalProperties) ? schema.additionalProperties as DefaultingSchemaNode : undefined;
  for (const [name, child] of Object.entries(value)) {
    const node = schema.properties?.[name] ?? rest;
    if (node === undefined) continue;
    if (child === null) delete value[name];
    else dropNulls(child, node);
  }
}

/** Drops every null field and map value below `value` (an embedded Kubernetes type: schema all through). */
function dropAllNulls(value: unknown): void {
  if (Array.isArray(value)) {
    for (const item of value) dropAllNulls(item);
    return;
  }
  if (!isMap(value)) return;
  for (const [name, child] of Object.entries(value)) {
    if (child === null) delete value[name];
    else dropAllNulls(child);
  }
}
