/**
 * The Kubernetes OpenAPI definitions of `imports/k8s-openapi.schema.ts` as one JSON schema for ajv
 * (`$id` `k8s-openapi`, every definition under `definitions`), registered with the shared ajv
 * instance on first use. A definition is referred to as `k8s-openapi#/definitions/<Name>`.
 *
 * What the API server does beyond the OpenAPI document is added here: an object with properties
 * refuses unknown fields (strict field validation), a required field that is null is missing, a
 * null list item is refused, a quantity is a number or a string of the quantity syntax, an
 * int-or-string is an integer or a string.
 *
 * Internal module.
 */
import { addSharedSchema } from './ajv-instance';
import { JsonSchema } from './json-schema';
import { K8S_KINDS, K8S_SCHEMAS, K8sSchemaNode } from '../../../imports/k8s-openapi.schema';

/** The `$id` of the Kubernetes definitions schema. */
export const K8S_SCHEMA_ID = 'k8s-openapi';

/** A reference to a definition. */
export function k8sRef(name: string): JsonSchema {
  return { $ref: `${K8S_SCHEMA_ID}#/definitions/${name}` };
}

/** The definition a `$ref` names (`k8s-openapi#/definitions/X` or `#/definitions/X`), if any. */
export function k8sDefinition(ref: string): JsonSchema | undefined {
  const at = ref.indexOf('#/definitions/');
  if (at < 0) return undefined;
  return definitions()[ref.slice(at + '#/definitions/'.length)];
}

/** The definition name of a kind (`apps/v1` + `Deployment` → `AppsV1Deployment`), if the library knows it. */
export function kindDefinition(apiVersion: string, kind: string): string | undefined {
  const key = `${apiVersion}/${kind}`;
  return Object.prototype.hasOwnProperty.call(K8S_KINDS, key) ? K8S_KINDS[key] : undefined;
}

/** Whether a definition exists. */
export function hasDefinition(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(K8S_SCHEMAS, name);
}

const SCALARS: Readonly<Record<string, JsonSchema>> = {
  s: { type: 'string', nullable: true },
  i: { type: 'integer', nullable: true },
  i32: { type: 'integer', format: 'int32', nullable: true },
  i64: { type: 'integer', format: 'int64', nullable: true },
  n: { type: 'number', nullable: true },
  b: { type: 'boolean', nullable: true },
  o: { type: 'object', nullable: true },
  ios: { 'type': ['integer', 'string'], 'nullable': true, 'x-type-label': 'integer or string' },
  q: { 'type': ['number', 'string'], 'format': 'quantity', 'nullable': true, 'x-type-label': 'number or string' },
  time: { type: 'string', format: 'k8s-time', nullable: true },
};

const FORMAT_TYPES: Readonly<Record<string, string>> = { s: 'string', i: 'integer', n: 'number', b: 'boolean' };

/** The type named by a wrong-type error of a node (its `x-type-label`, else its `type`). */
export function typeLabel(node: JsonSchema | undefined): string {
  if (node === undefined) return 'object';
  if (typeof node['x-type-label'] === 'string') return node['x-type-label'];
  if (typeof node.type === 'string') return node.type;
  if (typeof node.$ref === 'string') return typeLabel(k8sDefinition(node.$ref));
  return 'object';
}

/** Converts one compact node. */
export function k8sJsonSchema(node: K8sSchemaNode): JsonSchema {
  if (typeof node === 'string') return SCALARS[node] ?? { $ref: `#/definitions/${node}` };
  if (Array.isArray(node)) {
    const items = k8sJsonSchema(node[0] as K8sSchemaNode);
    return { 'type': 'array', 'nullable': true, items, 'x-items-not-null': typeLabel(resolveLocal(items)) };
  }
  const compact = node as Exclude<K8sSchemaNode, string | readonly [K8sSchemaNode]>;
  if (compact.e) return { type: 'string', nullable: true, enum: [...compact.e, null] };
  if (compact.t) return { type: FORMAT_TYPES[compact.t] ?? 'string', format: compact.f, nullable: true };
  const out: JsonSchema = { type: 'object', nullable: true };
  if (compact.p) {
    out.properties = Object.fromEntries(Object.entries(compact.p).map(([name, child]) => [name, k8sJsonSchema(child)]));
  }
  if (compact.r) out['x-required'] = [...compact.r];
  if (compact.m !== undefined) out.additionalProperties = k8sJsonSchema(compact.m);
  else if (compact.p) out.additionalProperties = false;
  return out;
}

/** A local `#/definitions/X` reference resolved against the compact definitions (for labels). */
function resolveLocal(node: JsonSchema): JsonSchema | undefined {
  if (typeof node.$ref !== 'string') return node;
  const name = node.$ref.slice(node.$ref.indexOf('#/definitions/') + '#/definitions/'.length);
  const compact = K8S_SCHEMAS[name];
  return compact === undefined ? undefined : typeof compact === 'string' ? SCALARS[compact] : Array.isArray(compact) ? { type: 'array' } : { type: 'object' };
}

let converted: Record<string, JsonSchema> | undefined;

/** Every definition, converted once. */
function definitions(): Record<string, JsonSchema> {
  if (!converted) {
    converted = Object.fromEntries(Object.entries(K8S_SCHEMAS).map(([name, node]) => [name, k8sJsonSchema(node)]));
  }
  return converted;
}

let registered = false;

/** Registers the definitions schema with the checking ajv instances (once). */
export function registerK8sSchemas(): void {
  if (registered) return;
  addSharedSchema({ $id: K8S_SCHEMA_ID, definitions: definitions() });
  registered = true;
}
