/**
 * The one ajv instance every structural schema is compiled with, and the keywords it adds for what
 * OpenAPI v3 as the Kubernetes API server reads it says beyond JSON Schema:
 *
 * - `nullable` (ajv's own OpenAPI keyword): every typed node accepts null, as the API server drops
 *   a null field before validating (an absent field); null is refused only where it matters, by
 *   `x-required` (a required field that is null) and `x-items-not-null` (a null list item);
 * - `x-required`: `required`, where null counts as missing;
 * - `x-kubernetes-list-type` (`map` with `x-kubernetes-list-map-keys`, `set`): no two items with
 *   the same keys / the same scalar value; every later duplicate is reported;
 * - `x-items-not-null`: a null list item is a value of the wrong type (named by the keyword);
 * - formats `int32`, `int64` (ranges), `quantity` (Kubernetes resource quantity), `byte`, `k8s-time`;
 * - annotations read back by the error report: `x-rule` (row of the node), `x-pruned` (row of an
 *   unknown field), `x-type-label` (the type named by a wrong-type error).
 *
 * Schemas are compiled once per schema object (callers cache the compiled functions).
 *
 * Internal module.
 */
import Ajv, { ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import { QUANTITY_PATTERN } from '../quantity';

/** `params` of an `x-kubernetes-list-type` error: the index of a duplicate and what repeats. */
export interface DuplicateParams {
  readonly index: number;
  readonly duplicate: unknown;
  /** `x-rule` of the list. */
  readonly rule?: string;
}

/** `params` of an `x-required` error. */
export interface MissingParams {
  readonly missingProperty: string;
  /** `x-rule` of the missing field's node (else of the object). */
  readonly rule?: string;
}

/** `params` of an `x-items-not-null` error. */
export interface NullItemParams {
  readonly index: number;
  readonly label: string;
  /** `x-rule` of the items node. */
  readonly rule?: string;
}

type ErrorList = Array<Partial<ErrorObject>>;

/** A validate function of a custom keyword, with the errors it sets. */
interface KeywordFunction {
  (schema: unknown, data: unknown, parentSchema?: SchemaObject): boolean;
  errors?: ErrorList;
}

const INT32 = 2 ** 31;
const INT64 = 2 ** 63;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** RFC 3339 date-time, as metav1.Time decodes it. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:[Zz]|[+-]\d{2}:\d{2})$/;

function isScalar(value: unknown): value is string | number | boolean {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `x-rule` of a schema node, if it is an object that has one. */
function ruleOf(node: unknown): string | undefined {
  return isObject(node) && typeof node['x-rule'] === 'string' ? node['x-rule'] : undefined;
}

// custom keyword errors carry no parentSchema: the rule of the node is put in `params`
const requiredKeyword: KeywordFunction = (schema, data, parentSchema) => {
  const errors: ErrorList = [];
  for (const name of schema as string[]) {
    const value = (data as Record<string, unknown>)[name];
    if (value === undefined || value === null) {
      const properties = parentSchema?.properties as Record<string, unknown> | undefined;
      const rule = ruleOf(properties?.[name]) ?? ruleOf(parentSchema);
      errors.push({ keyword: 'x-required', params: { missingProperty: name, rule } satisfies MissingParams });
    }
  }
  requiredKeyword.errors = errors;
  return errors.length === 0;
};

const listTypeKeyword: KeywordFunction = (schema, data, parentSchema) => {
  const errors: ErrorList = [];
  const seen = new Set<string>();
  const keys = schema === 'map' ? parentSchema?.['x-kubernetes-list-map-keys'] as string[] | undefined : undefined;
  (data as unknown[]).forEach((item, index) => {
    let identity: string;
    let duplicate: unknown;
    if (schema === 'map' && keys) {
      if (!isObject(item)) return;
      const keyValues: Record<string, unknown> = {};
      for (const key of keys) {
        if (!isScalar(item[key])) return;
        keyValues[key] = item[key];
      }
      identity = JSON.stringify(keys.map((key) => keyValues[key]));
      duplicate = keyValues;
    } else if (schema === 'set') {
      if (!isScalar(item)) return;
      identity = JSON.stringify(item);
      duplicate = item;
    } else {
      return;
    }
    if (seen.has(identity)) {
      errors.push({ keyword: 'x-kubernetes-list-type', params: { index, duplicate, rule: ruleOf(parentSchema) } satisfies DuplicateParams });
    }
    seen.add(identity);
  });
  listTypeKeyword.errors = errors;
  return errors.length === 0;
};

const itemsNotNullKeyword: KeywordFunction = (schema, data, parentSchema) => {
  const errors: ErrorList = [];
  const rule = ruleOf(parentSchema?.items) ?? ruleOf(parentSchema);
  (data as unknown[]).forEach((item, index) => {
    if (item === null || item === undefined) {
      errors.push({ keyword: 'x-items-not-null', params: { index, label: schema as string, rule } satisfies NullItemParams });
    }
  });
  itemsNotNullKeyword.errors = errors;
  return errors.length === 0;
};

function createAjv(useDefaults: boolean): Ajv {
  const ajv = new Ajv({
    useDefaults,
    allErrors: true,
    verbose: true,
    messages: false,
    strict: false,
    // schema patterns are RE2/Go syntax, read like `new RegExp(pattern)` (no `u` flag)
    unicodeRegExp: false,
    logger: false,
    // the code optimizer doubles the compile time for no measurable gain on these schemas
    code: { optimize: false },
  });
  ajv.addVocabulary(['x-rule', 'x-pruned', 'x-type-label', 'x-kubernetes-list-map-keys']);
  ajv.addKeyword({ keyword: 'x-required', type: 'object', schemaType: 'array', validate: requiredKeyword, errors: true });
  ajv.addKeyword({ keyword: 'x-kubernetes-list-type', type: 'array', schemaType: 'string', validate: listTypeKeyword, errors: true });
  ajv.addKeyword({ keyword: 'x-items-not-null', type: 'array', schemaType: 'string', validate: itemsNotNullKeyword, errors: true });
  ajv.addFormat('int32', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32 });
  ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) && n >= -INT64 && n < INT64 });
  ajv.addFormat('quantity', { type: 'string', validate: new RegExp(QUANTITY_PATTERN) });
  ajv.addFormat('byte', { type: 'string', validate: BASE64 });
  ajv.addFormat('k8s-time', { type: 'string', validate: RFC3339 });
  return ajv;
}

let shared: Ajv | undefined;
let defaulting: Ajv | undefined;

/** The shared ajv instance (created on first use). */
export function structuralAjv(): Ajv {
  return shared ??= createAjv(false);
}

/** An ajv instance with `useDefaults: true` (fills absent fields with their schema `default`). */
export function defaultingAjv(): Ajv {
  return defaulting ??= createAjv(true);
}

const compiled = new WeakMap<object, ValidateFunction>();

/** The validate function of a schema object, compiled once. */
export function compileOnce(schema: SchemaObject): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = structuralAjv().compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}
