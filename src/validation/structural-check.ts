/**
 * Checks a document against the generated CRD schema of its kind (with the overlay of what the CRD
 * does not say) and reports what the API server's OpenAPI validation and strict field validation
 * would: wrong types, missing required fields, enum, pattern, length and bound failures, integer
 * formats, too many or too few items, duplicate list-map keys and set items, unknown fields. CEL
 * rules (`x-kubernetes-validations`) are left to the rule modules.
 *
 * The schema is compiled once to a JSON schema and validated with ajv (src/validation/structural/).
 *
 * Internal module.
 */
import { DocumentSchema } from './schema-node';
import { checkCompiled, COMPLETE_DYNAMO_EMBEDDED_TYPES, compiledDocumentSchema } from './structural/crd';
import { ViolationSink } from './violation';
import { JsonMap } from '../model/json';

/** How `checkStructure` checks. */
export interface StructureCheckOptions {
  /**
   * Check the Dynamo overlay's embedded Kubernetes types completely (the Kubernetes OpenAPI
   * definitions beyond what Dynamo rules read, row 89); default `COMPLETE_DYNAMO_EMBEDDED_TYPES`.
   */
  readonly completeEmbeddedTypes?: boolean;
}

/** Checks a document (an object) against the schema of its kind. */
export function checkStructure(doc: JsonMap, schema: DocumentSchema, sink: ViolationSink, options: StructureCheckOptions = {}): void {
  checkCompiled(doc, compiledDocumentSchema(schema, options.completeEmbeddedTypes ?? COMPLETE_DYNAMO_EMBEDDED_TYPES), sink);
}
