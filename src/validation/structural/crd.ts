/**
 * Structural validation of a custom resource with ajv: the document schema (generated CRD schema +
 * overlay, see schema-node.ts) compiled once to a JSON schema (crd-json-schema.ts) and an ajv
 * function, the errors reported as API-server field errors (report.ts).
 *
 * Internal module.
 */
import { ValidateFunction } from 'ajv';
import { compileOnce } from './ajv-instance';
import { crdJsonSchema, CrdCompileOptions } from './crd-json-schema';
import { JsonSchema, StructuralNode } from './json-schema';
import { registerK8sSchemas } from './k8s-json-schema';
import { reportErrors } from './report';
import { DYNAMO_EMBEDDED_TYPES, STRUCTURAL_RULE } from '../dynamo-schema';
import { FieldPath } from '../field-path';
import { DocumentSchema } from '../schema-node';
import { ViolationSink } from '../violation';

/** A compiled schema: the JSON schema (for error paths) and its ajv function. */
export interface CompiledSchema {
  readonly json: JsonSchema;
  readonly validate: ValidateFunction;
}

/** Compiles a CRD schema with the given options (not cached: see `compiledDocumentSchema`). */
export function compileCrdSchema(root: StructuralNode, options: CrdCompileOptions): CompiledSchema {
  // the overlay's embedded types are completed by references to the Kubernetes definitions too
  registerK8sSchemas();
  const json = crdJsonSchema(root, options);
  return { json, validate: compileOnce(json) };
}

/**
 * Whether the admission check completes the Dynamo overlay's embedded types (pod templates,
 * containers, env vars, config map key selectors) with their Kubernetes OpenAPI definitions, as
 * the API server checks the full PodTemplateSpec the CRD embeds (row 89). Off by default until
 * test/emitted-admission.test.ts no longer relies on a container field admission does not look
 * at (`bogusField`, `env: "A=1"`); `checkStructure` callers can ask for it.
 */
export const COMPLETE_DYNAMO_EMBEDDED_TYPES = false;

const byDocumentSchema = new Map<boolean, WeakMap<DocumentSchema, CompiledSchema>>();
const byContent = new WeakMap<object, Map<string, CompiledSchema>>();

/**
 * The compiled form of a document schema (the admission check's: overlay rules, pruned fields,
 * API-server fields and the overlay's embedded types; with `completeEmbedded`, the Dynamo
 * overlay's embedded types completed with the Kubernetes definitions). Cached by schema object,
 * and by content for schemas built anew on every call.
 */
export function compiledDocumentSchema(schema: DocumentSchema, completeEmbedded = COMPLETE_DYNAMO_EMBEDDED_TYPES): CompiledSchema {
  let bySchema = byDocumentSchema.get(completeEmbedded);
  if (!bySchema) {
    bySchema = new WeakMap();
    byDocumentSchema.set(completeEmbedded, bySchema);
  }
  let compiled = bySchema.get(schema);
  if (compiled) return compiled;
  // only the Dynamo overlay's embedded types are completed (row 89)
  const complete = completeEmbedded && schema.overlay.embedded === DYNAMO_EMBEDDED_TYPES;
  const key = `${complete}:${JSON.stringify(schema.overlay)}`;
  let forRoot = byContent.get(schema.root);
  if (!forRoot) {
    forRoot = new Map();
    byContent.set(schema.root, forRoot);
  }
  compiled = forRoot.get(key);
  if (!compiled) {
    compiled = compileCrdSchema(schema.root, {
      rules: schema.overlay.rules,
      prunedFields: schema.overlay.prunedFields,
      apiServerFields: schema.overlay.apiServerFields,
      embedded: schema.overlay.embedded,
      completeEmbedded: complete,
      rootRule: STRUCTURAL_RULE,
    });
    forRoot.set(key, compiled);
  }
  bySchema.set(schema, compiled);
  return compiled;
}

/** Validates `value` (found at `base`) with a compiled schema, reporting to `sink`. */
export function checkCompiled(value: unknown, compiled: CompiledSchema, sink: ViolationSink, base: FieldPath = FieldPath.root()): void {
  if (compiled.validate(value)) return;
  reportErrors(compiled.validate.errors ?? [], value, compiled.json, sink, base);
}
