/**
 * A small structural-schema model: just what the Dynamo CRDs use (types, required, enums,
 * patterns, lengths, bounds, maxItems, list-map keys, list sets, closed objects), with the row of
 * validation-rules.md each constraint belongs to.
 *
 * Internal module. (A later issue replaces the hand-written schema with the generated one.)
 */

export type SchemaType = 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'int-or-string';

export interface SchemaNode {
  readonly type?: SchemaType;
  /** Row id of this node's constraints; inherited by descendants that name none. */
  readonly rule?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  /** Schema of every map value (annotations, labels). */
  readonly additionalProperties?: SchemaNode;
  /**
   * Unknown fields are allowed here: embedded Kubernetes objects (validated only where a Dynamo
   * rule speaks about them) and `x-kubernetes-preserve-unknown-fields` objects.
   */
  readonly openFields?: boolean;
  /** Fields the CRD post-processing removed, with the row that reports them as unknown. */
  readonly prunedFields?: Readonly<Record<string, string>>;
  readonly required?: readonly string[];
  readonly items?: SchemaNode;
  readonly enum?: readonly string[];
  readonly pattern?: string;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly maxItems?: number;
  /** `x-kubernetes-list-type: map` with these keys. */
  readonly listMapKeys?: readonly string[];
  /** `x-kubernetes-list-type: set`. */
  readonly listSet?: boolean;
}

type Options = Omit<SchemaNode, 'type' | 'properties' | 'items' | 'additionalProperties'>;

export function str(options: Options = {}): SchemaNode {
  return { type: 'string', ...options };
}

export function int(options: Options = {}): SchemaNode {
  return { type: 'integer', ...options };
}

export function num(options: Options = {}): SchemaNode {
  return { type: 'number', ...options };
}

export function bool(options: Options = {}): SchemaNode {
  return { type: 'boolean', ...options };
}

export function intOrString(options: Options = {}): SchemaNode {
  return { type: 'int-or-string', ...options };
}

/** Any JSON value (`x-kubernetes-preserve-unknown-fields` without a type). */
export function anyValue(options: Options = {}): SchemaNode {
  return { openFields: true, ...options };
}

export function obj(properties: Record<string, SchemaNode>, options: Options = {}): SchemaNode {
  return { type: 'object', properties, ...options };
}

/** An object whose fields are all kept as they are (schemaless pod templates, override values). */
export function openObj(options: Options = {}): SchemaNode {
  return { type: 'object', properties: {}, openFields: true, ...options };
}

export function arr(items: SchemaNode, options: Options = {}): SchemaNode {
  return { type: 'array', items, ...options };
}

export function stringMap(values: SchemaNode = str(), options: Options = {}): SchemaNode {
  return { type: 'object', additionalProperties: values, ...options };
}
