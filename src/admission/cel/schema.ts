/**
 * The part of a structural CRD schema the CEL rule evaluator reads. The compact schemas generated
 * into `imports/` (`CrdSchemaNode`, `GroveSchemaNode`, `LwsSchemaNode`) all fit this shape.
 *
 * Internal module.
 */

/** One `x-kubernetes-validations` rule of a schema node. */
export interface CelRule {
  readonly rule: string;
  readonly message?: string;
  readonly messageExpression?: string;
  readonly reason?: string;
  readonly fieldPath?: string;
  readonly optionalOldSelf?: boolean;
}

/** A node of a structural schema, as far as CEL evaluation is concerned. */
export interface CelSchemaNode {
  /** Marker of an embedded Kubernetes type whose schema the compact CRD schema does not carry. */
  readonly 'k8sType'?: string;
  readonly 'type'?: string;
  readonly 'required'?: readonly string[];
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-list-type'?: string;
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-validations'?: readonly CelRule[];
  readonly 'items'?: CelSchemaNode;
  readonly 'additionalProperties'?: CelSchemaNode | boolean;
  readonly 'properties'?: { readonly [name: string]: CelSchemaNode };
}

/** The schema of every value of a map node (`additionalProperties`), if it has one. */
export function mapValueSchema(node: CelSchemaNode): CelSchemaNode | undefined {
  return typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
}

/**
 * The type name the API server puts in a failed rule's message (`Invalid value: "object": ...`):
 * the schema type of the node, empty for int-or-string.
 */
export function schemaTypeName(node: CelSchemaNode): string | undefined {
  if (node['x-kubernetes-int-or-string'] === true) return '';
  return node.type;
}
