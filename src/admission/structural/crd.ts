/**
 * Structural validation of a custom resource with ajv: the document schema (generated CRD schema +
 * overlay, see schema-node.ts) compiled once to a JSON schema (crd-json-schema.ts) and an ajv
 * function, the errors reported as API-server field errors (report.ts).
 *
 * Internal module.
 */
import type { ValidateFunction } from 'ajv';
import { compileFull, compileOnce } from './ajv-instance';
import { crdJsonSchema, CrdCompileOptions } from './crd-json-schema';
import { JsonSchema, StructuralNode } from './json-schema';
import { registerK8sSchemas } from './k8s-json-schema';
import { reportErrors } from './report';
import { DYNAMO_EMBEDDED_TYPES, STRUCTURAL_RULE } from '../dynamo-schema';
import { FieldPath } from '../field-path';
import { DocumentSchema } from '../schema-node';
import { ViolationSink } from '../violation';

/**
 * A compiled schema: the JSON schema (for error paths and the full function, see `compileFull`)
 * and its quick ajv function (pass or fail only).
 */
export interface CompiledSchema {
  readonly json: JsonSchema;
  readonly validate: ValidateFunction;
  /** Of a custom resource's schema: the API server prunes such an object before validating it (`ReportOptions`). */
  readonly customResource?: boolean;
}

/** Compiles a CRD schema with the given options (not cached: see `compiledDocumentSchema`). */
export function compileCrdSchema(root: StructuralNode, options: CrdCompileOptions): CompiledSchema {
  // the overlay's embedded types are completed by references to the Kubernetes definitions too
  registerK8sSchemas();
  const json = crdJsonSchema(root, options);
  return { json, validate: compileOnce(json), customResource: true };
}

const byDocumentSchema = new WeakMap<DocumentSchema, CompiledSchema>();
const byContent = new WeakMap<object, Map<string, CompiledSchema>>();

/**
 * The compiled form of a document schema (the admission check's: overlay rules, pruned fields,
 * API-server fields and the overlay's embedded types). The Dynamo overlay's embedded types (pod
 * templates, containers, env vars, config map key selectors) are completed with their Kubernetes
 * OpenAPI definitions, as the API server checks the full PodTemplateSpec the CRD embeds (row 89).
 * Cached by schema object, and by content for schemas built anew on every call.
 */
export function compiledDocumentSchema(schema: DocumentSchema): CompiledSchema {
  let compiled = byDocumentSchema.get(schema);
  if (compiled) return compiled;
  const key = `${completes(schema)}:${JSON.stringify(schema.overlay)}`;
  let forRoot = byContent.get(schema.root);
  if (!forRoot) {
    forRoot = new Map();
    byContent.set(schema.root, forRoot);
  }
  compiled = forRoot.get(key);
  if (!compiled) {
    compiled = compileCrdSchema(schema.root, documentCompileOptions(schema));
    forRoot.set(key, compiled);
  }
  byDocumentSchema.set(schema, compiled);
  return compiled;
}

/** Whether the embedded types of a document schema are completed: only the Dynamo overlay's (row 89). */
function completes(schema: DocumentSchema): boolean {
  return schema.overlay.embedded === DYNAMO_EMBEDDED_TYPES;
}

function documentCompileOptions(schema: DocumentSchema): CrdCompileOptions {
  return {
    rules: schema.overlay.rules,
    prunedFields: schema.overlay.prunedFields,
    apiServerFields: schema.overlay.apiServerFields,
    embedded: schema.overlay.embedded,
    completeEmbedded: completes(schema),
    rootRule: STRUCTURAL_RULE,
  };
}

/** The JSON schema `compiledDocumentSchema` validates a document schema with. */
export function documentJsonSchema(schema: DocumentSchema): JsonSchema {
  registerK8sSchemas();
  return crdJsonSchema(schema.root, documentCompileOptions(schema));
}

/** Validates `value` (found at `base`) with a compiled schema, reporting to `sink`. */
export function checkCompiled(value: unknown, compiled: CompiledSchema, sink: ViolationSink, base: FieldPath = FieldPath.root()): void {
  if (compiled.validate(value)) return;
  // only a failing value is validated again, collecting every error for the report
  const full = compileFull(compiled.json);
  if (full(value)) return;
  reportErrors(full.errors ?? [], value, compiled.json, sink, base, { customResource: compiled.customResource });
}
