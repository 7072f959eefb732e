/**
 * The JSON schema objects handed to ajv, and the structural schema node shape the generated CRD
 * schemas share (`CrdSchemaNode`, `GroveSchemaNode`, `LwsSchemaNode`, `SnapshotSchemaNode` differ
 * only in their `k8sType` names).
 *
 * Internal module.
 */

/** A JSON schema object (ajv's input), with the `x-` keywords of ajv-instance.ts. */
export type JsonSchema = Record<string, unknown>;

/** A node of any generated compact CRD schema (`imports/*.schema.ts`). */
export interface StructuralNode {
  readonly 'k8sType'?: string;
  readonly 'type'?: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean';
  readonly 'format'?: string;
  readonly 'enum'?: readonly (string | number | boolean)[];
  readonly 'default'?: unknown;
  readonly 'pattern'?: string;
  readonly 'minLength'?: number;
  readonly 'maxLength'?: number;
  readonly 'minimum'?: number;
  readonly 'maximum'?: number;
  readonly 'minItems'?: number;
  readonly 'maxItems'?: number;
  readonly 'required'?: readonly string[];
  readonly 'nullable'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-list-type'?: 'atomic' | 'set' | 'map';
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'items'?: StructuralNode;
  readonly 'additionalProperties'?: StructuralNode | boolean;
  readonly 'properties'?: { readonly [name: string]: StructuralNode };
}
