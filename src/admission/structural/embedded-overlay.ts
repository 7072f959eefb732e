/**
 * Completes the overlay's partial node of an embedded Kubernetes type (dynamo-schema.ts) with the
 * Kubernetes OpenAPI definition of the type (k8s-json-schema.ts), the way the CRD embeds the full
 * structural schema of a pod template:
 *
 * - where the overlay node keeps unknown fields (`x-kubernetes-preserve-unknown-fields`, compiled
 *   to a node without `additionalProperties`), the definition says the rest: its other fields
 *   (by `$ref` into the registered definitions, so they are compiled once), its required fields
 *   after the overlay's, and its unknown-field rule;
 * - where the overlay node is exact (an object refusing unknown fields, a scalar), the overlay
 *   node is kept as it is;
 * - list items and map values are completed the same way, below the overlay's own list rules.
 *
 * The overlay's nodes keep their `x-rule`; the nodes taken from the definition have none (their
 * errors are reported under the structural rule).
 *
 * Internal module.
 */
import { JsonSchema } from './json-schema';
import { K8S_SCHEMA_ID, k8sDefinition } from './k8s-json-schema';

/** The overlay node `partial` (compiled) completed with the Kubernetes definition `name`. */
export function completeWithDefinition(partial: JsonSchema, name: string): JsonSchema {
  const definition = k8sDefinition(`#/definitions/${name}`);
  return definition ? complete(partial, definition) : partial;
}

function complete(partial: JsonSchema, k8s: JsonSchema): JsonSchema {
  const full = followRef(k8s);
  if (!full) return partial;
  const out: JsonSchema = { ...partial };
  if (partial.type === 'object' && full.type === 'object') {
    if (partial.additionalProperties === undefined) {
      completeObject(partial, full, out);
    } else if (isSchema(partial.additionalProperties) && isSchema(full.additionalProperties)) {
      out.additionalProperties = complete(partial.additionalProperties, full.additionalProperties);
    }
  }
  if (partial.type === 'array' && full.type === 'array' && isSchema(partial.items) && isSchema(full.items)) {
    out.items = complete(partial.items, full.items);
  }
  return out;
}

function completeObject(partial: JsonSchema, full: JsonSchema, out: JsonSchema): void {
  const own = (partial.properties ?? {}) as Record<string, JsonSchema>;
  const theirs = (full.properties ?? {}) as Record<string, JsonSchema>;
  const properties: Record<string, JsonSchema> = {};
  for (const [name, child] of Object.entries(theirs)) {
    properties[name] = hasOwn(own, name) ? complete(own[name], child) : absolute(child);
  }
  for (const [name, child] of Object.entries(own)) {
    if (!hasOwn(properties, name)) properties[name] = child;
  }
  if (Object.keys(properties).length > 0) out.properties = properties;
  const required = [...((partial['x-required'] ?? []) as string[])];
  for (const name of (full['x-required'] ?? []) as string[]) {
    if (!required.includes(name)) required.push(name);
  }
  if (required.length > 0) out['x-required'] = required;
  if (full.additionalProperties !== undefined) {
    out.additionalProperties = isSchema(full.additionalProperties) ? absolute(full.additionalProperties) : full.additionalProperties;
  }
}

/** A definition node with its `$ref`s followed. */
function followRef(node: JsonSchema): JsonSchema | undefined {
  let current: JsonSchema | undefined = node;
  for (let i = 0; current && typeof current.$ref === 'string' && i < 8; i++) current = k8sDefinition(current.$ref);
  return current;
}

/** A copy of a definition node whose local references (`#/definitions/X`) name the definitions schema. */
export function absolute(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith('#/')) {
      out[key] = `${K8S_SCHEMA_ID}${value}`;
    } else if ((key === 'items' || key === 'additionalProperties') && isSchema(value)) {
      out[key] = absolute(value);
    } else if (key === 'properties' && isSchema(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, child]) => [name, absolute(child as JsonSchema)]));
    } else {
      out[key] = value;
    }
  }
  return out;
}

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function hasOwn(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}
