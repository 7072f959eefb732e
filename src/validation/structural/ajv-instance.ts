/**
 * The ajv instances structural schemas are compiled with, and the keywords they add for what
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
 * A schema is compiled once per schema object into a quick function (first error only, no
 * details: `compileOnce`) and, only when a value fails it, into a function collecting every error
 * for the report (`compileFull`); both pass exactly the same values. ajv itself is loaded when the
 * first instance is created, not when this module is.
 *
 * Internal module.
 */
import type Ajv from 'ajv';
import type { ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import { ajv as loadAjv } from '../../lazy-modules';
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
// the keywords allocate their error list only on failure (most objects checked are valid)
const requiredKeyword: KeywordFunction = (schema, data, parentSchema) => {
  let errors: ErrorList | undefined;
  for (const name of schema as string[]) {
    const value = (data as Record<string, unknown>)[name];
    if (value === undefined || value === null) {
      const properties = parentSchema?.properties as Record<string, unknown> | undefined;
      const rule = ruleOf(properties?.[name]) ?? ruleOf(parentSchema);
      (errors ??= []).push({ keyword: 'x-required', params: { missingProperty: name, rule } satisfies MissingParams });
    }
  }
  requiredKeyword.errors = errors;
  return errors === undefined;
};

const listTypeKeyword: KeywordFunction = (schema, data, parentSchema) => {
  if ((data as unknown[]).length < 2) return true;
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
  let errors: ErrorList | undefined;
  (data as unknown[]).forEach((item, index) => {
    if (item === null || item === undefined) {
      const rule = ruleOf(parentSchema?.items) ?? ruleOf(parentSchema);
      (errors ??= []).push({ keyword: 'x-items-not-null', params: { index, label: schema as string, rule } satisfies NullItemParams });
    }
  });
  itemsNotNullKeyword.errors = errors;
  return errors === undefined;
};

/** How an instance validates: filling defaults; every error with its details, or only pass/fail. */
type Mode = 'defaulting' | 'full' | 'fast';

function createAjv(mode: Mode): Ajv {
  // ajv is loaded on first use (lazy-modules.ts): requiring the library does not load it
  const ajv = new (loadAjv().default)({
    useDefaults: mode === 'defaulting',
    allErrors: mode !== 'fast',
    verbose: mode !== 'fast',
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

let full: Ajv | undefined;
let fast: Ajv | undefined;
let defaulting: Ajv | undefined;
/** Schemas every checking instance knows (referenced by `$id`), in the order added. */
const sharedSchemas: SchemaObject[] = [];

function checkingAjv(mode: 'full' | 'fast'): Ajv {
  let ajv = mode === 'full' ? full : fast;
  if (!ajv) {
    ajv = createAjv(mode);
    for (const schema of sharedSchemas) ajv.addSchema(schema);
    if (mode === 'full') full = ajv;
    else fast = ajv;
  }
  return ajv;
}

/**
 * Adds a schema (with an `$id`) that compiled schemas may reference to every checking instance,
 * those created later included.
 */
export function addSharedSchema(schema: SchemaObject): void {
  sharedSchemas.push(schema);
  full?.addSchema(schema);
  fast?.addSchema(schema);
}

/** An ajv instance with `useDefaults: true` (fills absent fields with their schema `default`). */
export function defaultingAjv(): Ajv {
  return defaulting ??= createAjv('defaulting');
}

const compiledFast = new WeakMap<object, ValidateFunction>();
const compiledFull = new WeakMap<object, ValidateFunction>();

function compiledWith(mode: 'full' | 'fast', cache: WeakMap<object, ValidateFunction>, schema: SchemaObject): ValidateFunction {
  let fn = cache.get(schema);
  if (!fn) {
    fn = checkingAjv(mode).compile(schema);
    cache.set(schema, fn);
  }
  return fn;
}

/**
 * The quick validate function of a schema object, compiled once: it stops at the first error and
 * sets no error details. It passes exactly the values `compileFull` passes (the same schema and
 * keywords), so most values (valid ones) are checked without collecting errors.
 */
export function compileOnce(schema: SchemaObject): ValidateFunction {
  return compiledWith('fast', compiledFast, schema);
}

/**
 * The validate function of a schema object that collects every error with its details (for the
 * report), compiled once, on the first value that fails `compileOnce`'s function.
 */
export function compileFull(schema: SchemaObject): ValidateFunction {
  return compiledWith('full', compiledFull, schema);
}
