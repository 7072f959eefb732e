/**
 * Walks a document against a SchemaNode and reports what the API server's OpenAPI validation and
 * strict field validation would: wrong types, missing required fields, enum, pattern, length and
 * bound failures, too many items, duplicate list-map keys and set items, unknown fields.
 *
 * Internal module.
 */
import { STRUCTURAL_RULE } from './dynamo-schema';
import { FieldPath } from './field-path';
import { isMap, JsonMap } from './json';
import { SchemaNode, SchemaType } from './schema-node';
import { ViolationSink } from './violation';

/** Checks `value` (present, not null) against `node`. */
export function checkStructure(value: unknown, node: SchemaNode, path: FieldPath, inheritedRule: string, sink: ViolationSink): void {
  const rule = node.rule ?? inheritedRule;
  if (node.type !== undefined && !hasType(value, node.type)) {
    sink.invalid(path, value, `must be of type ${typeLabel(node.type)}`, rule);
    return;
  }
  if (typeof value === 'string') checkString(value, node, path, rule, sink);
  if (typeof value === 'number') checkNumber(value, node, path, rule, sink);
  if (Array.isArray(value)) checkList(value, node, path, rule, sink);
  else if (isMap(value) && (node.type === 'object' || node.properties || node.additionalProperties)) checkObject(value, node, path, rule, sink);
}

function hasType(value: unknown, type: SchemaType): boolean {
  switch (type) {
    case 'object': return isMap(value);
    case 'array': return Array.isArray(value);
    case 'string': return typeof value === 'string';
    case 'integer': return typeof value === 'number' && Number.isInteger(value);
    case 'number': return typeof value === 'number' && Number.isFinite(value);
    case 'boolean': return typeof value === 'boolean';
    case 'int-or-string': return typeof value === 'string' || (typeof value === 'number' && Number.isInteger(value));
  }
}

function typeLabel(type: SchemaType): string {
  return type === 'int-or-string' ? 'integer or string' : type;
}

function checkString(value: string, node: SchemaNode, path: FieldPath, rule: string, sink: ViolationSink): void {
  if (node.enum && !node.enum.includes(value)) {
    sink.notSupported(path, value, node.enum, rule);
    return;
  }
  const length = [...value].length;
  if (node.minLength !== undefined && length < node.minLength) {
    sink.invalid(path, value, `should be at least ${node.minLength} chars long`, rule);
  }
  if (node.maxLength !== undefined && length > node.maxLength) {
    sink.tooLong(path, value, node.maxLength, rule);
  }
  if (node.pattern !== undefined && !new RegExp(node.pattern).test(value)) {
    sink.invalid(path, value, `should match '${node.pattern}'`, rule);
  }
}

function checkNumber(value: number, node: SchemaNode, path: FieldPath, rule: string, sink: ViolationSink): void {
  if (node.minimum !== undefined && value < node.minimum) {
    sink.invalid(path, value, `should be greater than or equal to ${node.minimum}`, rule);
  }
  if (node.maximum !== undefined && value > node.maximum) {
    sink.invalid(path, value, `should be less than or equal to ${node.maximum}`, rule);
  }
}

function checkList(value: unknown[], node: SchemaNode, path: FieldPath, rule: string, sink: ViolationSink): void {
  if (node.maxItems !== undefined && value.length > node.maxItems) {
    sink.tooMany(path, value, value.length, node.maxItems, rule);
  }
  if (node.items) {
    value.forEach((item, i) => {
      if (item === null || item === undefined) {
        sink.invalid(path.index(i), null, `must be of type ${typeLabel(node.items?.type ?? 'object')}`, node.items?.rule ?? rule);
      } else {
        checkStructure(item, node.items as SchemaNode, path.index(i), rule, sink);
      }
    });
  }
  if (node.listMapKeys) checkListMapKeys(value, node.listMapKeys, path, rule, sink);
  if (node.listSet) checkListSet(value, path, rule, sink);
}

function checkListMapKeys(value: unknown[], keys: readonly string[], path: FieldPath, rule: string, sink: ViolationSink): void {
  const seen = new Set<string>();
  value.forEach((item, i) => {
    if (!isMap(item)) return;
    const keyValues: JsonMap = {};
    for (const key of keys) {
      const keyValue = item[key];
      if (typeof keyValue !== 'string' && typeof keyValue !== 'number' && typeof keyValue !== 'boolean') return;
      keyValues[key] = keyValue;
    }
    const identity = JSON.stringify(keys.map((key) => keyValues[key]));
    if (seen.has(identity)) sink.duplicate(path.index(i), keyValues, rule);
    seen.add(identity);
  });
}

function checkListSet(value: unknown[], path: FieldPath, rule: string, sink: ViolationSink): void {
  const seen = new Set<string>();
  value.forEach((item, i) => {
    if (typeof item !== 'string' && typeof item !== 'number' && typeof item !== 'boolean') return;
    const identity = JSON.stringify(item);
    if (seen.has(identity)) sink.duplicate(path.index(i), item, rule);
    seen.add(identity);
  });
}

function checkObject(value: JsonMap, node: SchemaNode, path: FieldPath, rule: string, sink: ViolationSink): void {
  const properties = node.properties ?? {};
  for (const key of Object.keys(value)) {
    const child = value[key];
    const childNode = own(properties, key);
    if (childNode) {
      if (child !== null && child !== undefined) checkStructure(child, childNode, path.child(key), rule, sink);
    } else if (node.additionalProperties) {
      // a null map value is dropped like any other null
      if (child !== null && child !== undefined) checkStructure(child, node.additionalProperties, path.key(key), rule, sink);
    } else if (!node.openFields) {
      sink.unknownField(path.child(key), child, own(node.prunedFields ?? {}, key) ?? STRUCTURAL_RULE);
    }
  }
  for (const key of node.required ?? []) {
    if (value[key] === undefined || value[key] === null) {
      sink.required(path.child(key), undefined, own(properties, key)?.rule ?? rule);
    }
  }
}

/** `record[key]` when it is the record's own entry (not something inherited such as `constructor`). */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
