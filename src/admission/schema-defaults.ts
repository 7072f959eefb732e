/**
 * Structural defaults that the API server applies when it stores an object: every `default` of the
 * CRD schema whose parent object is present and whose field is absent or null.
 */
import { isMap } from '../model/json';
import { copyJson } from '../model/json-copy';

/** The subset of a CRD schema node that defaulting needs. */
export interface DefaultingSchemaNode {
  readonly 'default'?: unknown;
  readonly 'properties'?: { readonly [name: string]: DefaultingSchemaNode };
  readonly 'items'?: DefaultingSchemaNode;
  readonly 'additionalProperties'?: DefaultingSchemaNode | boolean;
  /** Marks an embedded Kubernetes type; its defaults come from `embedded`. */
  readonly 'k8sType'?: string;
  /** Set on embedded templates the API server neither prunes nor defaults. */
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
}

/** Mutates `value` in place, adding schema defaults below it. */
export function applySchemaDefaults(
  value: unknown,
  schema: DefaultingSchemaNode,
  embedded: { readonly [k8sType: string]: DefaultingSchemaNode } = {},
): void {
  if (schema['x-kubernetes-preserve-unknown-fields']) return;
  const node = schema.k8sType ? embedded[schema.k8sType] : schema;
  if (!node) return;
  if (Array.isArray(value)) {
    if (node.items) for (const item of value) applySchemaDefaults(item, node.items, embedded);
    return;
  }
  if (!isMap(value)) return;
  for (const [name, child] of Object.entries(node.properties ?? {})) {
    if (value[name] == null && child.default !== undefined) {
      value[name] = copyJson(child.default);
    }
    if (value[name] !== undefined) applySchemaDefaults(value[name], child, embedded);
  }
  if (isMap(node.additionalProperties)) {
    const known = new Set(Object.keys(node.properties ?? {}));
    for (const [name, child] of Object.entries(value)) {
      if (!known.has(name)) applySchemaDefaults(child, node.additionalProperties, embedded);
    }
  }
}
