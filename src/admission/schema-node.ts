/**
 * What the structural check validates a document kind against: the generated CRD schema
 * (`imports/nvidia.com.schema.ts`) and the overlay of what the CRD does not say, keyed by schema
 * path. structural/crd-json-schema.ts compiles the two into one JSON schema for ajv.
 *
 * A schema path names a node of the schema, not of a document: field names joined by `.`, `[]`
 * for the items of a list, `[*]` for the values of a map, e.g. `spec.components[].replicas`,
 * `spec.components[].podTemplate.metadata.annotations[*]`. The root is the empty path.
 *
 * Internal module.
 */
import { CrdK8sType, CrdSchemaNode } from '../../imports/nvidia.com.schema';

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
