/**
 * Structural check of a document before import: every field must be one the v1beta1 schema knows,
 * with the right JSON type, so nothing is silently lost.
 */
import { CrdSchemaNode } from '../../imports/nvidia.com.schema';
import { isPlainObject } from '../engine/json';

export interface StructureProblem {
  readonly path: string;
  readonly message: string;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function typeMatches(expected: string | undefined, value: unknown, node: CrdSchemaNode): boolean {
  const actual = typeOf(value);
  if (node['x-kubernetes-int-or-string']) return actual === 'integer' || actual === 'string';
  if (!expected) return true;
  if (expected === 'number') return actual === 'number' || actual === 'integer';
  return actual === expected;
}

/** Problems found walking `value` along `node`; `path` is the field path of `value`. */
export function structureProblems(value: unknown, node: CrdSchemaNode, path: string, out: StructureProblem[] = []): StructureProblem[] {
  if (node.k8sType === 'Quantity') {
    if (typeof value !== 'string' && typeof value !== 'number') out.push({ path, message: `must be a quantity (integer or string), got ${typeOf(value)}` });
    return out;
  }
  if (node.k8sType) {
    if (!isPlainObject(value)) out.push({ path, message: `must be an object (Kubernetes ${node.k8sType}), got ${typeOf(value)}` });
    return out;
  }
  if (!typeMatches(node.type, value, node)) {
    out.push({ path, message: `must be of type ${node['x-kubernetes-int-or-string'] ? 'integer or string' : node.type}, got ${typeOf(value)}` });
    return out;
  }
  if (Array.isArray(value)) {
    if (node.items) value.forEach((item, i) => structureProblems(item, node.items!, `${path}[${i}]`, out));
    return out;
  }
  if (!isPlainObject(value) || node['x-kubernetes-preserve-unknown-fields']) return out;
  const properties = node.properties ?? {};
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    const schema = properties[key] ?? (isPlainObject(node.additionalProperties) ? node.additionalProperties as CrdSchemaNode : undefined);
    if (schema) {
      structureProblems(child, schema, childPath, out);
    } else if (node.additionalProperties !== true && Object.keys(properties).length > 0) {
      out.push({ path: childPath, message: `unknown field "${childPath}"` });
    }
  }
  return out;
}
