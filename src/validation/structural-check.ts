/**
 * Walks a document against the generated CRD schema of its kind (with the overlay of what the CRD
 * does not say) and reports what the API server's OpenAPI validation and strict field validation
 * would: wrong types, missing required fields, enum, pattern, length and bound failures, too many
 * or too few items, duplicate list-map keys and set items, unknown fields. CEL rules
 * (`x-kubernetes-validations`) are left to the rule modules.
 *
 * Internal module.
 */
import { STRUCTURAL_RULE } from './dynamo-schema';
import { FieldPath } from './field-path';
import {
  DocumentSchema, fieldAt, isListSet, itemsAt, keepsUnknownFields, listMapKeys, mapValues, SchemaOverlay, SchemaType, schemaType, valuesAt,
} from './schema-node';
import { ViolationSink } from './violation';
import { CrdSchemaNode } from '../../imports/nvidia.com.schema';
import { isMap, JsonMap } from '../model/json';

/** Checks a document (an object) against the schema of its kind. */
export function checkStructure(doc: JsonMap, schema: DocumentSchema, sink: ViolationSink): void {
  new StructuralCheck(schema.overlay, sink).check(doc, schema.root, FieldPath.root(), '', STRUCTURAL_RULE);
}

class StructuralCheck {
  constructor(private readonly overlay: SchemaOverlay, private readonly sink: ViolationSink) {}

  /** Checks `value` (present, not null) against `node`, found at schema path `at`. */
  public check(value: unknown, node: CrdSchemaNode, path: FieldPath, at: string, inheritedRule: string): void {
    const resolved = this.resolve(node);
    const rule = own(this.overlay.rules, at) ?? inheritedRule;
    const type = schemaType(resolved);
    if (type !== undefined && !hasType(value, type)) {
      this.sink.wrongType(path, value, typeLabel(type), rule);
      return;
    }
    if (resolved.enum && isScalar(value) && !resolved.enum.includes(value)) {
      this.sink.notSupported(path, value, resolved.enum, rule);
      return;
    }
    if (typeof value === 'string') checkString(value, resolved, path, rule, this.sink);
    if (typeof value === 'number') checkNumber(value, resolved, path, rule, this.sink);
    if (Array.isArray(value)) this.checkList(value, resolved, path, at, rule);
    else if (isMap(value) && (type === 'object' || resolved.properties || resolved.additionalProperties)) this.checkObject(value, resolved, path, at, rule);
  }

  /** A `{ k8sType }` marker node is checked against the overlay's part of that embedded type. */
  private resolve(node: CrdSchemaNode): CrdSchemaNode {
    if (node.k8sType === undefined) return node;
    const embedded = this.overlay.embedded[node.k8sType];
    if (node['x-kubernetes-preserve-unknown-fields'] !== true) return embedded;
    return { 'type': embedded.type, 'x-kubernetes-int-or-string': embedded['x-kubernetes-int-or-string'], 'x-kubernetes-preserve-unknown-fields': true };
  }

  private checkList(value: unknown[], node: CrdSchemaNode, path: FieldPath, at: string, rule: string): void {
    if (node.maxItems !== undefined && value.length > node.maxItems) {
      this.sink.tooMany(path, value, value.length, node.maxItems, rule);
    }
    if (node.minItems !== undefined && value.length < node.minItems) {
      this.sink.invalid(path, value, `should have at least ${node.minItems} items`, rule);
    }
    const items = node.items;
    if (items) {
      const itemsPath = itemsAt(at);
      value.forEach((item, i) => {
        if (item === null || item === undefined) {
          const type = schemaType(this.resolve(items)) ?? 'object';
          this.sink.wrongType(path.index(i), null, typeLabel(type), own(this.overlay.rules, itemsPath) ?? rule);
        } else {
          this.check(item, items, path.index(i), itemsPath, rule);
        }
      });
    }
    const keys = listMapKeys(node);
    if (keys) checkListMapKeys(value, keys, path, rule, this.sink);
    if (isListSet(node)) checkListSet(value, path, rule, this.sink);
  }

  private checkObject(value: JsonMap, node: CrdSchemaNode, path: FieldPath, at: string, rule: string): void {
    const properties = node.properties ?? {};
    const values = mapValues(node);
    for (const key of Object.keys(value)) {
      const child = value[key];
      const childAt = fieldAt(at, key);
      const childNode = own(this.overlay.apiServerFields, childAt) ?? own(properties, key);
      if (childNode) {
        if (child !== null && child !== undefined) this.check(child, childNode, path.child(key), childAt, rule);
      } else if (values) {
        // a null map value is dropped like any other null
        if (child !== null && child !== undefined) this.check(child, values, path.key(key), valuesAt(at), rule);
      } else if (!keepsUnknownFields(node)) {
        this.sink.unknownField(path.child(key), child, own(this.overlay.prunedFields, childAt) ?? STRUCTURAL_RULE);
      }
    }
    for (const key of node.required ?? []) {
      if (value[key] === undefined || value[key] === null) {
        this.sink.required(path.child(key), undefined, own(this.overlay.rules, fieldAt(at, key)) ?? rule);
      }
    }
  }
}

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
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

function checkString(value: string, node: CrdSchemaNode, path: FieldPath, rule: string, sink: ViolationSink): void {
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

function checkNumber(value: number, node: CrdSchemaNode, path: FieldPath, rule: string, sink: ViolationSink): void {
  if (node.minimum !== undefined && value < node.minimum) {
    sink.invalid(path, value, `should be greater than or equal to ${node.minimum}`, rule);
  }
  if (node.maximum !== undefined && value > node.maximum) {
    sink.invalid(path, value, `should be less than or equal to ${node.maximum}`, rule);
  }
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

/** `record[key]` when it is the record's own entry (not something inherited such as `constructor`). */
function own<T>(record: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(record, key) ? record[key] : undefined;
}
