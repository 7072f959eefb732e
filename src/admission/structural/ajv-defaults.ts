/**
 * CRD schema defaulting with ajv's `useDefaults`: the CRD schema compiled with its `default`s (none
 * below `x-kubernetes-preserve-unknown-fields`), the defaults of embedded Kubernetes types taken
 * from the generated `EMBEDDED_K8S_DEFAULTS` tables, and ajv filling every absent field.
 *
 * This is what src/admission/schema-defaults.ts (`applySchemaDefaults`) does by hand, with one
 * difference: ajv fills only absent (undefined) fields, while the API server (and
 * `applySchemaDefaults`) also default a field that is null. `applyAjvDefaults` therefore turns,
 * before ajv runs, the null fields that have a default (and only those) into absent ones (keeping
 * their place among the keys), so that the result is the same; test/validation-structural.test.ts compares both on the corpus.
 *
 * Internal module.
 */
import type { SchemaObject, ValidateFunction } from 'ajv';
import { compileDefaulting } from './ajv-instance';
import { crdJsonSchema } from './crd-json-schema';
import { StructuralNode } from './json-schema';

const compiled = new WeakMap<object, ValidateFunction>();

/** The JSON schema a CRD schema is defaulted with (its defaults, and those of its embedded types). */
export function defaultingJsonSchema(root: StructuralNode, embedded: Readonly<Record<string, StructuralNode>>): SchemaObject {
  return crdJsonSchema(root, { embedded, rootRule: 'schema', defaults: true });
}

function defaultingFunction(root: StructuralNode, embedded: Readonly<Record<string, StructuralNode>>): ValidateFunction {
  let fn = compiled.get(root);
  if (!fn) {
    const json = defaultingJsonSchema(root, embedded);
    fn = compileDefaulting(json);
    compiled.set(root, fn);
    nullsWithDefaults.set(fn, json);
  }
  return fn;
}

const nullsWithDefaults = new WeakMap<ValidateFunction, SchemaObject>();

/**
 * Adds, in place, every `default` of a CRD schema (`root`, with the defaults of its embedded
 * Kubernetes types by `k8sType`), like the API server when it stores a new object. Validation
 * errors are ignored (defaulting runs before validation).
 */
export function applyAjvDefaults(doc: unknown, root: StructuralNode, embedded: Readonly<Record<string, StructuralNode>>): void {
  const fn = defaultingFunction(root, embedded);
  dropDefaultedNulls(doc, nullsWithDefaults.get(fn)!);
  fn(doc);
}

/** Makes absent the null fields whose schema node has a default (ajv fills only absent fields). */
function dropDefaultedNulls(value: unknown, node: SchemaObject | undefined): void {
  if (!node || value === null || typeof value !== 'object') return;
  if (Array.isArray(value)) {
    for (const item of value) dropDefaultedNulls(item, node.items);
    return;
  }
  const object = value as Record<string, unknown>;
  const properties = (node.properties ?? {}) as Record<string, SchemaObject>;
  const values = typeof node.additionalProperties === 'object' ? node.additionalProperties as SchemaObject : undefined;
  for (const key of Object.keys(object)) {
    const declared = Object.prototype.hasOwnProperty.call(properties, key) ? properties[key] : undefined;
    // undefined (not deleted): ajv then writes the default where the null was
    if (object[key] === null && declared?.default !== undefined) object[key] = undefined;
    else dropDefaultedNulls(object[key], declared ?? values);
  }
}
