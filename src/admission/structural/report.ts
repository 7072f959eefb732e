/**
 * Turns ajv errors into violations worded like the Kubernetes API server's field errors (the
 * ViolationSink methods), at API-server field paths (`spec.components[1].name`,
 * `metadata.annotations[a]`):
 *
 * | ajv keyword | violation |
 * | --- | --- |
 * | `type` | `Invalid value: <v>: must be of type <type>` (structural) |
 * | `enum` | `Unsupported value: <v>: supported values: "a", "b"` |
 * | `minLength` / `maxLength` | `Invalid value: <v>: should be at least N chars long` / `Too long: may not be longer than N` |
 * | `pattern` | `Invalid value: <v>: should match '<pattern>'` |
 * | `minimum` / `maximum` | `Invalid value: <v>: should be greater than or equal to N` / `... less than or equal to N` |
 * | `minItems` / `maxItems` | `Invalid value: <v>: should have at least N items` / `Too many: <n>: must have at most N items` |
 * | `format` | `Invalid value: <v>: must be of type int32` (`int64`, `byte`); quantities: the Kubernetes quantity error |
 * | `x-required` | `<field>: Required value` |
 * | `additionalProperties` | `<field>: unknown field "<field>"` (structural) |
 * | `x-kubernetes-list-type` | `<item>: Duplicate value: <keys or value>` |
 * | `x-items-not-null` | `<item>: Invalid value: null: must be of type <type>` (structural) |
 *
 * At one field, a type error hides every other error of that field, and an enum error hides the
 * string and number checks (what the API server reports: the first failing check of a field).
 *
 * Internal module.
 */
import type { ErrorObject } from 'ajv';
import { DuplicateParams, MissingParams, NullItemParams } from './ajv-instance';
import { JsonSchema } from './json-schema';
import { k8sDefinition, typeLabel } from './k8s-json-schema';
import { STRUCTURAL_RULE } from '../dynamo-schema';
import { FieldPath } from '../field-path';
import { ViolationSink } from '../violation';

/** The error of a malformed quantity, as Kubernetes' quantity parser words it. */
export const QUANTITY_FORMAT_MESSAGE = "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";

/** Keywords hidden by an enum error at the same field. */
const HIDDEN_BY_ENUM = new Set(['pattern', 'minLength', 'maxLength', 'minimum', 'maximum', 'format']);

/** Order of the checks of one field, as the API server's validator runs them. */
const KEYWORD_RANK: Readonly<Record<string, number>> = {
  type: 0,
  enum: 1,
  minLength: 2,
  maxLength: 3,
  pattern: 4,
  format: 5,
  minimum: 6,
  maximum: 7,
  maxItems: 8,
  minItems: 9,
};

/** How a document is read by the API server. */
export interface ReportOptions {
  /**
   * A custom resource: the API server prunes it against its CRD's schema before validating, so the
   * fields of an object given where the schema declares none are unknown fields (a native object is
   * decoded into its Go type instead, where such a value is only of the wrong type).
   */
  readonly customResource?: boolean;
}

/**
 * Reports `errors` (of a validation of `doc` against `schema`) to `sink`, below `base` (the field
 * path of `doc` in a larger document; the root for a whole document), in the order a depth-first
 * walk of the document finds them: the fields of an object in document order, then its missing
 * required fields; a list's own errors, then its items, then its duplicates; at one field, type,
 * enum, string, number checks.
 */
export function reportErrors(
  errors: readonly ErrorObject[], doc: unknown, schema: JsonSchema, sink: ViolationSink, base: FieldPath = FieldPath.root(),
  options: ReportOptions = {},
): void {
  const typeFailed = new Set<string>();
  const enumFailed = new Set<string>();
  for (const error of errors) {
    if (error.keyword === 'type') typeFailed.add(error.instancePath);
    if (error.keyword === 'enum') enumFailed.add(error.instancePath);
  }
  const locator = new Locator(doc, schema, base);
  const reports: Array<{ key: number[]; emit: () => void }> = [];
  for (const error of errors) {
    // an undefined list item (a JavaScript value, not JSON) is reported once, as a null item
    if (error.keyword === 'type' && error.data === undefined) continue;
    if (typeFailed.has(error.instancePath) && error.keyword !== 'type') continue;
    if (enumFailed.has(error.instancePath) && HIDDEN_BY_ENUM.has(error.keyword)) continue;
    const at = locator.locate(error.instancePath);
    reports.push({ key: [...at.key, ...walkStep(error, at)], emit: () => reportError(error, at.path, at.rule, sink, options) });
  }
  reports.map((report, i) => ({ report, i }))
    .sort((a, b) => compareKeys(a.report.key, b.report.key) || a.i - b.i)
    .forEach(({ report }) => report.emit());
}

/** Where below its node the walk finds an error (see `reportErrors`). */
function walkStep(error: ErrorObject, at: Location): number[] {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'x-required': {
      const required = (at.node?.['x-required'] as string[] | undefined) ?? [];
      return [1, required.indexOf(params.missingProperty as string)];
    }
    case 'additionalProperties': {
      const keys = typeof at.value === 'object' && at.value !== null ? Object.keys(at.value) : [];
      return [0, keys.indexOf(params.additionalProperty as string)];
    }
    case 'x-items-not-null':
      return [0, params.index as number, -1];
    case 'x-kubernetes-list-type':
      return [2, params.index as number];
    default:
      return [-1, KEYWORD_RANK[error.keyword] ?? 10];
  }
}

function compareKeys(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] - b[i];
  }
  return a.length - b.length;
}

function ownRule(node: unknown): string | undefined {
  const rule = (node as JsonSchema | undefined)?.['x-rule'];
  return typeof rule === 'string' ? rule : undefined;
}

/**
 * Reports one error at `path`. Its row is the `x-rule` of its node, else (a node of a Kubernetes
 * definition, which has none) `inherited`, the row of the nearest node above that has one (an
 * embedded pod template reports under the row of `podTemplate`), else the structural rule.
 */
function reportError(error: ErrorObject, path: FieldPath, inherited: string | undefined, sink: ViolationSink, options: ReportOptions): void {
  const value: unknown = error.data;
  const node = error.parentSchema as JsonSchema | undefined;
  const fallback = inherited ?? STRUCTURAL_RULE;
  const rule = ownRule(node) ?? fallback;
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      // a custom resource is pruned first: the fields of an object where the schema has none are unknown
      if (options.customResource) {
        for (const field of fieldsWithoutSchema(value, node, path)) sink.unknownField(field.path, field.value, STRUCTURAL_RULE);
      }
      sink.wrongType(path, value, typeLabel(node), rule);
      return;
    case 'enum':
      sink.notSupported(path, value, (params.allowedValues as unknown[]).filter((v) => v !== null), rule);
      return;
    case 'minLength':
      sink.invalid(path, value, `should be at least ${params.limit} chars long`, rule);
      return;
    case 'maxLength':
      sink.tooLong(path, value, params.limit as number, rule);
      return;
    case 'pattern':
      sink.invalid(path, value, `should match '${params.pattern}'`, rule);
      return;
    case 'minimum':
      sink.invalid(path, value, `should be greater than or equal to ${params.limit}`, rule);
      return;
    case 'maximum':
      sink.invalid(path, value, `should be less than or equal to ${params.limit}`, rule);
      return;
    case 'minItems':
      sink.invalid(path, value, `should have at least ${params.limit} items`, rule);
      return;
    case 'maxItems':
      sink.tooMany(path, value, (value as unknown[]).length, params.limit as number, rule);
      return;
    case 'format':
      sink.invalid(path, value, params.format === 'quantity' ? QUANTITY_FORMAT_MESSAGE : `must be of type ${params.format}`, rule);
      return;
    case 'x-required': {
      const missing = params as unknown as MissingParams;
      sink.required(path.child(missing.missingProperty), undefined, missing.rule ?? fallback);
      return;
    }
    case 'additionalProperties': {
      const name = params.additionalProperty as string;
      const pruned = (node?.['x-pruned'] as Record<string, string> | undefined)?.[name];
      const declared = isObject(node?.properties) ? Object.keys(node.properties) : undefined;
      // a field the CRD post-processing pruned is no misspelling: no suggestion for it
      const known = pruned === undefined ? declared : undefined;
      sink.unknownField(path.child(name), (value as Record<string, unknown>)[name], pruned ?? STRUCTURAL_RULE, known);
      return;
    }
    case 'x-kubernetes-list-type': {
      const duplicate = params as unknown as DuplicateParams;
      sink.duplicate(path.index(duplicate.index), duplicate.duplicate, duplicate.rule ?? fallback);
      return;
    }
    case 'x-items-not-null': {
      const item = params as unknown as NullItemParams;
      sink.wrongType(path.index(item.index), null, item.label, item.rule ?? fallback);
      return;
    }
    default:
      sink.invalid(path, value, `fails the schema keyword ${error.keyword}`, rule);
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The fields the API server's pruning (apiextensions-apiserver `schema/pruning`) finds unknown in a
 * value of the wrong type at `node`: every field of an object where the node declares no fields (a
 * string, a number, a list), and every field of the objects in a list where the node declares no
 * items (an object, a string), at any depth of nested lists.
 */
function fieldsWithoutSchema(value: unknown, node: JsonSchema | undefined, path: FieldPath): Array<{ path: FieldPath; value: unknown }> {
  const out: Array<{ path: FieldPath; value: unknown }> = [];
  const unshaped = (v: unknown, at: FieldPath): void => {
    if (isObject(v)) for (const [key, field] of Object.entries(v)) out.push({ path: at.child(key), value: field });
    else if (Array.isArray(v)) v.forEach((item, i) => unshaped(item, at.index(i)));
  };
  if (node?.['x-kubernetes-preserve-unknown-fields'] === true) return out;
  if (isObject(value) && node?.properties === undefined && node?.additionalProperties === undefined) unshaped(value, path);
  if (Array.isArray(value) && node?.items === undefined) value.forEach((item, i) => unshaped(item, path.index(i)));
  return out;
}

/** A value of the document: its field path, walk-order key, schema node and value. */
interface Location {
  readonly path: FieldPath;
  /** For each step down: `0, <position of the field in its object>` or `0, <index>`. */
  readonly key: number[];
  readonly node: JsonSchema | undefined;
  readonly value: unknown;
  /** The `x-rule` of the deepest node on the way that has one (the node's own, else an ancestor's). */
  readonly rule: string | undefined;
}

/**
 * Turns ajv instance paths (JSON pointers) into field paths, walking the document and the schema
 * together: a list step is an index, an object step a field, or a map key when the object's node
 * is a map (`additionalProperties`) that does not declare the name.
 */
class Locator {
  constructor(private readonly doc: unknown, private readonly schema: JsonSchema, private readonly base: FieldPath) {}

  public locate(pointer: string): Location {
    let path = this.base;
    const key: number[] = [];
    let value = this.doc;
    let rule = ownRule(this.schema);
    let node: JsonSchema | undefined = resolve(this.schema);
    rule = ownRule(node) ?? rule;
    if (pointer === '') return { path, key, node, value, rule };
    for (const raw of pointer.slice(1).split('/')) {
      const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
      if (Array.isArray(value)) {
        const index = Number(token);
        path = path.index(index);
        key.push(0, index);
        value = value[index];
        rule = ownRule(node?.items) ?? rule;
        node = resolve(node?.items as JsonSchema | undefined);
        rule = ownRule(node) ?? rule;
        continue;
      }
      const properties = node?.properties as Record<string, JsonSchema> | undefined;
      const declared = properties && Object.prototype.hasOwnProperty.call(properties, token) ? properties[token] : undefined;
      const values = node?.additionalProperties;
      if (declared === undefined && typeof values === 'object' && values !== null) {
        path = path.key(token);
        rule = ownRule(values) ?? rule;
        node = resolve(values as JsonSchema);
      } else {
        path = path.child(token);
        rule = ownRule(declared) ?? rule;
        node = resolve(declared);
      }
      rule = ownRule(node) ?? rule;
      const object = typeof value === 'object' && value !== null ? value as Record<string, unknown> : {};
      key.push(0, Object.keys(object).indexOf(token));
      value = object[token];
    }
    return { path, key, node, value, rule };
  }
}

/** A node with its `$ref` followed (Kubernetes definitions). */
function resolve(node: JsonSchema | undefined): JsonSchema | undefined {
  for (let i = 0; node && typeof node.$ref === 'string' && i < 8; i++) node = k8sDefinition(node.$ref);
  return node;
}
