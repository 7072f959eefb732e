/**
 * How the structural check reads the generated CRD schema (`imports/nvidia.com.schema.ts`), and
 * the overlay of what the CRD does not say, keyed by schema path.
 *
 * A schema path names a node of the schema, not of a document: field names joined by `.`, `[]`
 * for the items of a list, `[*]` for the values of a map, e.g. `spec.components[].replicas`,
 * `spec.components[].podTemplate.metadata.annotations[*]`. The root is the empty path.
 *
 * Internal module.
 */
import { CrdK8sType, CrdSchemaNode } from '../../imports/nvidia.com.schema';

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'int-or-string';

/** What the structural check knows of a document kind beyond its generated CRD schema. */
export interface SchemaOverlay {
  /** Row id of the node at each schema path; inherited by descendants that name none. */
  readonly rules: Readonly<Record<string, string>>;
  /** Fields the CRD post-processing removed, by schema path, with the row that reports them as unknown. */
  readonly prunedFields: Readonly<Record<string, string>>;
  /**
   * Nodes the CRD leaves to the API server (`metadata`, `status`), by schema path; they take the
   * place of what the generated schema says there.
   */
  readonly apiServerFields: Readonly<Record<string, CrdSchemaNode>>;
  /**
   * The part of each embedded Kubernetes type that is checked, for a `{ k8sType }` marker node.
   * Below a marker that has `x-kubernetes-preserve-unknown-fields` (no CRD schema there) only the
   * JSON type of the embedded type is checked.
   */
  readonly embedded: Readonly<Record<CrdK8sType, CrdSchemaNode>>;
}

/** The schema the structural check walks for one document kind. */
export interface DocumentSchema {
  /** The generated schema of the kind (`DGD_V1BETA1_SCHEMA`, `DCD_V1BETA1_SCHEMA`). */
  readonly root: CrdSchemaNode;
  readonly overlay: SchemaOverlay;
}

/** The JSON type a node demands, if any (`x-kubernetes-int-or-string` is `int-or-string`). */
export function schemaType(node: CrdSchemaNode): SchemaType | undefined {
  return node['x-kubernetes-int-or-string'] === true ? 'int-or-string' : node.type;
}

/** The keys of an `x-kubernetes-list-type: map` list. */
export function listMapKeys(node: CrdSchemaNode): readonly string[] | undefined {
  return node['x-kubernetes-list-type'] === 'map' ? node['x-kubernetes-list-map-keys'] : undefined;
}

/** An `x-kubernetes-list-type: set` list. */
export function isListSet(node: CrdSchemaNode): boolean {
  return node['x-kubernetes-list-type'] === 'set';
}

/** The schema of every value of a map node (`additionalProperties`), if it has one. */
export function mapValues(node: CrdSchemaNode): CrdSchemaNode | undefined {
  return typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
}

/** Unknown fields of an object node are kept, not reported. */
export function keepsUnknownFields(node: CrdSchemaNode): boolean {
  return node['x-kubernetes-preserve-unknown-fields'] === true || node.additionalProperties === true;
}

/** Schema path of a field of the object at `at`. */
export function fieldAt(at: string, name: string): string {
  return at === '' ? name : `${at}.${name}`;
}

/** Schema path of the items of the list at `at`. */
export function itemsAt(at: string): string {
  return `${at}[]`;
}

/** Schema path of the values of the map at `at`. */
export function valuesAt(at: string): string {
  return `${at}[*]`;
}
