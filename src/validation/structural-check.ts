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
  new StructuralCheck(schema.overlay, sink).check(doc, schema.root, FieldPath.root(), SchemaPath.root(schema.overlay), STRUCTURAL_RULE);
}

/**
 * A schema path (see schema-node.ts) with what the overlay says about it. The paths below one are
 * made once and kept (the check visits the same paths for every component of every document).
 */
class SchemaPath {
  /** The root path of an overlay. */
  public static root(overlay: SchemaOverlay): SchemaPath {
    let root = SchemaPath.ROOTS.get(overlay);
    if (!root) {
      root = new SchemaPath(overlay, '');
      SchemaPath.ROOTS.set(overlay, root);
    }
    return root;
  }

  private static readonly ROOTS = new WeakMap<SchemaOverlay, SchemaPath>();

  /** More paths than this below one path (unknown fields of arbitrary names) are not kept. */
  private static readonly MAX_KEPT_FIELDS = 256;

  /** The overlay's row of this path. */
  public readonly rule: string | undefined;
  /** The node the API server's own schema has here, if the overlay gives one. */
  public readonly apiServerField: CrdSchemaNode | undefined;
  /** The row reporting this path as a pruned field, if it is one. */
  public readonly prunedRule: string | undefined;
  private readonly fields = new Map<string, SchemaPath>();
  private itemsPath?: SchemaPath;
  private valuesPath?: SchemaPath;

  private constructor(private readonly overlay: SchemaOverlay, public readonly at: string) {
    this.rule = own(overlay.rules, at);
    this.apiServerField = own(overlay.apiServerFields, at);
    this.prunedRule = own(overlay.prunedFields, at);
  }

  /** The path of a field of the object here. */
  public field(name: string): SchemaPath {
    let path = this.fields.get(name);
    if (!path) {
      path = new SchemaPath(this.overlay, fieldAt(this.at, name));
      if (this.fields.size < SchemaPath.MAX_KEPT_FIELDS) this.fields.set(name, path);
    }
    return path;
  }

  /** The path of the items of the list here. */
  public get items(): SchemaPath {
    return this.itemsPath ??= new SchemaPath(this.overlay, itemsAt(this.at));
  }

  /** The path of the values of the map here. */
  public get values(): SchemaPath {
    return this.valuesPath ??= new SchemaPath(this.overlay, valuesAt(this.at));
  }
}

class StructuralCheck {
  constructor(private readonly overlay: SchemaOverlay, private readonly sink: ViolationSink) {}

  /** Checks `value` (present, not null) against `node`, found at schema path `at`. */
  public check(value: unknown, node: CrdSchemaNode, path: FieldPath, at: SchemaPath, inheritedRule: string): void {
    const resolved = this.resolve(node);
    const rule = at.rule ?? inheritedRule;
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

  private checkList(value: unknown[], node: CrdSchemaNode, path: FieldPath, at: SchemaPath, rule: string): void {
    if (node.maxItems !== undefined && value.length > node.maxItems) {
      this.sink.tooMany(path, value, value.length, node.maxItems, rule);
    }
    if (node.minItems !== undefined && value.length < node.minItems) {
      this.sink.invalid(path, value, `should have at least ${node.minItems} items`, rule);
    }
    const items = node.items;
    if (items) {
      const itemsPath = at.items;
      value.forEach((item, i) => {
        if (item === null || item === undefined) {
          const type = schemaType(this.resolve(items)) ?? 'object';
          this.sink.wrongType(path.index(i), null, typeLabel(type), itemsPath.rule ?? rule);
        } else {
          this.check(item, items, path.index(i), itemsPath, rule);
        }
      });
    }
    const keys = listMapKeys(node);
    if (keys) checkListMapKeys(value, keys, path, rule, this.sink);
    if (isListSet(node)) checkListSet(value, path, rule, this.sink);
  }

  private checkObject(value: JsonMap, node: CrdSchemaNode, path: FieldPath, at: SchemaPath, rule: string): void {
    const properties = node.properties ?? {};
    const values = mapValues(node);
    for (const key of Object.keys(value)) {
      const child = value[key];
      const childAt = at.field(key);
      const childNode = childAt.apiServerField ?? own(properties, key);
      if (childNode) {
        if (child !== null && child !== undefined) this.check(child, childNode, path.child(key), childAt, rule);
      } else if (values) {
        // a null map value is dropped like any other null
        if (child !== null && child !== undefined) this.check(child, values, path.key(key), at.values, rule);
      } else if (!keepsUnknownFields(node)) {
        this.sink.unknownField(path.child(key), child, childAt.prunedRule ?? STRUCTURAL_RULE);
      }
    }
    for (const key of node.required ?? []) {
      if (value[key] === undefined || value[key] === null) {
        this.sink.required(path.child(key), undefined, at.field(key).rule ?? rule);
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
  if (node.minLength !== undefined || node.maxLength !== undefined) {
    const length = codePointCount(value);
    if (node.minLength !== undefined && length < node.minLength) {
      sink.invalid(path, value, `should be at least ${node.minLength} chars long`, rule);
    }
    if (node.maxLength !== undefined && length > node.maxLength) {
      sink.tooLong(path, value, node.maxLength, rule);
    }
  }
  if (node.pattern !== undefined && !patternRegExp(node.pattern).test(value)) {
    sink.invalid(path, value, `should match '${node.pattern}'`, rule);
  }
}

/** The number of code points of a string (`[...value].length`, without the array). */
function codePointCount(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    // a high surrogate followed by a low one is one code point
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < value.length) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Compiled schema patterns (the schema is a constant; a pattern has no flags, so no state). */
const PATTERNS = new Map<string, RegExp>();

function patternRegExp(pattern: string): RegExp {
  let re = PATTERNS.get(pattern);
  if (!re) {
    re = new RegExp(pattern);
    PATTERNS.set(pattern, re);
  }
  return re;
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
