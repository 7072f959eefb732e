/**
 * Checks a document against the generated CRD schema of its kind (with the overlay of what the CRD
 * does not say) and reports what the API server's OpenAPI validation and strict field validation
 * would: wrong types, missing required fields, enum, pattern, length and bound failures, integer
 * formats, too many or too few items, duplicate list-map keys and set items, unknown fields. CEL
 * rules (`x-kubernetes-validations`) are left to the rule modules.
 *
 * The schema is compiled once to a JSON schema and validated with ajv (src/admission/structural/).
 *
 * Internal module.
 */
import { DocumentSchema } from './schema-node';
import { checkCompiled, compiledDocumentSchema } from './structural/crd';
import { ViolationSink } from './violation';
import { JsonMap } from '../model/json';

/**
 * Checks a document (an object) against the schema of its kind; the Dynamo overlay's embedded
 * Kubernetes types are checked completely, against their Kubernetes OpenAPI definitions (row 89).
 */
export function checkStructure(doc: JsonMap, schema: DocumentSchema, sink: ViolationSink): void {
  checkCompiled(doc, compiledDocumentSchema(schema), sink);
}
