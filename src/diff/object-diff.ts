/**
 * The fields that differ between two versions of one Kubernetes object, as paths in the notation
 * of the API server's messages: `spec.replicas`, `metadata.labels[nvidia.com/dynamo-component]`,
 * `spec.template.spec.containers[main].env[DYN_NAMESPACE].value`, `spec.template.spec.containers[main].args[2]`.
 *
 * - A field present on one side only is one path (the whole subtree was added or removed).
 * - Entries of string maps (labels, annotations, matchLabels, ConfigMap data, resource quantities)
 *   are `[key]`; so are object keys that are not plain field names.
 * - A list whose items are all objects with distinct string `name`s (containers, env, volumes,
 *   volumeMounts, ports, the components of a graph, the cliques of a PodCliqueSet: the lists
 *   Kubernetes merges by name) is compared item by item by name, `[name]`; when the same names
 *   appear in another order the list itself is listed too (the order of containers or env is part
 *   of the pod template). Any other list is compared by position, `[index]`.
 *
 * Values never appear in a path (a Secret's data keys do, its values do not).
 *
 * Internal module.
 */
import { jsonEqual } from '../model/json';

/** Fields whose value is a map from arbitrary keys (its entries are written `[key]`). */
const STRING_MAP_FIELDS = new Set([
  'labels', 'annotations', 'matchLabels', 'nodeSelector', 'data', 'binaryData', 'stringData',
  'limits', 'requests', 'capacity', 'allocatable', 'parameters', 'extraParameters', 'overhead',
]);

const PLAIN_FIELD = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PLAIN_NAME = /^[A-Za-z0-9._/:@-]+$/;

type Json = unknown;

function isObject(value: Json): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function fieldStep(path: string, parentField: string | undefined, key: string): string {
  const mapEntry = parentField !== undefined && STRING_MAP_FIELDS.has(parentField);
  if (mapEntry || !PLAIN_FIELD.test(key)) return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

/** `[name]`, quoted when the name could be read as an index or holds brackets or spaces. */
function nameStep(path: string, name: string): string {
  return PLAIN_NAME.test(name) && !/^\d+$/.test(name) ? `${path}[${name}]` : `${path}[${JSON.stringify(name)}]`;
}

/** The names of a list's items when every item is an object with a distinct, non-empty string `name`. */
function itemNames(list: readonly Json[]): string[] | undefined {
  const names: string[] = [];
  for (const item of list) {
    const name = isObject(item) ? item.name : undefined;
    if (typeof name !== 'string' || name === '') return undefined;
    names.push(name);
  }
  return new Set(names).size === names.length ? names : undefined;
}

/** The paths of the fields that differ between `before` and `after`, in document order. */
export function changedFields(before: Json, after: Json): string[] {
  const out: string[] = [];
  compare(before, after, '', undefined, out);
  return out;
}

function compare(a: Json, b: Json, path: string, field: string | undefined, out: string[]): void {
  if (jsonEqual(a, b)) return;
  if (isObject(a) && isObject(b)) {
    const keys = [...Object.keys(a), ...Object.keys(b).filter(key => !Object.prototype.hasOwnProperty.call(a, key))];
    for (const key of keys) {
      const inA = Object.prototype.hasOwnProperty.call(a, key);
      const inB = Object.prototype.hasOwnProperty.call(b, key);
      const child = fieldStep(path, field, key);
      if (inA && inB) compare(a[key], b[key], child, key, out);
      else out.push(child);
    }
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    compareLists(a, b, path, out);
    return;
  }
  out.push(path === '' ? '(the object)' : path);
}

function compareLists(a: readonly Json[], b: readonly Json[], path: string, out: string[]): void {
  const namesA = itemNames(a);
  const namesB = itemNames(b);
  // keyed by name when both sides are named lists (an empty list is one of anything)
  if (namesA !== undefined && namesB !== undefined && (namesA.length > 0 || namesB.length > 0)) {
    const common = namesA.filter(name => namesB.includes(name));
    const orderB = namesB.filter(name => namesA.includes(name));
    if (common.some((name, i) => orderB[i] !== name)) out.push(path);
    for (const name of [...namesA, ...namesB.filter(n => !namesA.includes(n))]) {
      const ia = namesA.indexOf(name);
      const ib = namesB.indexOf(name);
      const child = nameStep(path, name);
      if (ia >= 0 && ib >= 0) compare(a[ia], b[ib], child, undefined, out);
      else out.push(child);
    }
    return;
  }
  const length = Math.max(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const child = `${path}[${i}]`;
    if (i < a.length && i < b.length) compare(a[i], b[i], child, undefined, out);
    else out.push(child);
  }
}
