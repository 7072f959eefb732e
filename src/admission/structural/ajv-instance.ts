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
 * A schema has, once per schema object, a quick function (first error only, no details:
 * `compileOnce`) and, only when a value fails it, a function collecting every error for the report
 * (`compileFull`); both pass exactly the same values. The functions of the schemas the library
 * uses are generated at build time (validators.ts: the same code ajv compiles here, written out as
 * modules and loaded per schema); a schema of any other content is compiled by ajv on first use.
 * ajv itself is loaded when the first instance is created, not when this module is.
 *
 * Internal module.
 */
import type Ajv from 'ajv';
import type { AnySchemaObject, KeywordCxt, KeywordDefinition, SchemaObject, ValidateFunction } from 'ajv';
import * as runtime from './keyword-runtime';
import { prebuiltValidator, ValidatorMode } from './validators';
import { ajv as loadAjv } from '../engines';

export type { DuplicateParams, MissingParams, NullItemParams } from './keyword-runtime';

/** How generated code requires keyword-runtime.ts (from the folder of the generated modules). */
export const RUNTIME_MODULE = '../keyword-runtime';

/** `x-rule` of a schema node, if it is an object that has one. */
function ruleOf(node: unknown): string | null {
  return typeof node === 'object' && node !== null && typeof (node as Record<string, unknown>)['x-rule'] === 'string'
    ? (node as Record<string, string>)['x-rule'] : null;
}

/**
 * A keyword whose check is a function of keyword-runtime.ts returning its errors (or undefined):
 * the generated code calls the function with the constants `args` works out from the schema, and
 * adds its errors as ajv adds those of a `validate` keyword (each with the instance path, the
 * schema path and, verbose, the keyword's schema and the data).
 */
function runtimeKeyword(
  keyword: string, type: 'object' | 'array', schemaType: 'array' | 'string',
  check: 'requiredErrors' | 'listTypeErrors' | 'itemsNotNullErrors',
  args: (schema: unknown, parentSchema: AnySchemaObject) => unknown[],
): KeywordDefinition {
  return {
    keyword,
    type,
    schemaType,
    trackErrors: true,
    code(cxt: KeywordCxt) {
      // ajv's code generation helpers, loaded with ajv (at compile time only)
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { _, not, stringify } = require('ajv/dist/compile/codegen') as typeof import('ajv/dist/compile/codegen');
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const N = (require('ajv/dist/compile/names') as typeof import('ajv/dist/compile/names')).default;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { extendErrors } = require('ajv/dist/compile/errors') as typeof import('ajv/dist/compile/errors');
      const { gen } = cxt;
      const fn = gen.scopeValue('func', { ref: runtime[check], code: _`require(${RUNTIME_MODULE}).${new (loadAjv().Name)(check)}` });
      const constants = args(cxt.schema, cxt.parentSchema).map((value) => stringify(value));
      const call = constants.reduce((code, value) => _`${code}, ${value}`, _`${cxt.data}`);
      const errors = gen.const('kwErrors', _`${fn}(${call})`);
      const valid = gen.let('valid', _`${errors} === undefined`);
      gen.if(not(valid), () => {
        gen.assign(N.vErrors, _`${N.vErrors} === null ? ${errors} : ${N.vErrors}.concat(${errors})`).assign(N.errors, _`${N.vErrors}.length`);
        extendErrors(cxt);
      });
      cxt.ok(valid);
    },
  };
}

const KEYWORDS: readonly KeywordDefinition[] = [
  runtimeKeyword('x-required', 'object', 'array', 'requiredErrors', (schema, parent) => {
    const names = schema as string[];
    const properties = parent.properties as Record<string, unknown> | undefined;
    return [names, names.map((name) => ruleOf(properties?.[name]) ?? ruleOf(parent))];
  }),
  runtimeKeyword('x-kubernetes-list-type', 'array', 'string', 'listTypeErrors', (schema, parent) => {
    const keys = schema === 'map' ? (parent['x-kubernetes-list-map-keys'] as string[] | undefined) ?? null : null;
    return [schema, keys, ruleOf(parent)];
  }),
  runtimeKeyword('x-items-not-null', 'array', 'string', 'itemsNotNullErrors', (schema, parent) => [schema, ruleOf(parent.items) ?? ruleOf(parent)]),
];

/**
 * An ajv instance validating in `mode`: filling defaults (`defaulting`); every error with its
 * details (`full`); only pass/fail (`fast`). With `source`, its functions keep their code, for
 * writing them out as modules (validators.ts), formats and keyword checks required from
 * keyword-runtime.ts.
 */
export function createAjv(mode: ValidatorMode, source = false): Ajv {
  // ajv is loaded on first use (admission/engines.ts): requiring the library does not load it
  const ajvModule = loadAjv();
  const ajv = new ajvModule.default({
    useDefaults: mode === 'defaulting',
    allErrors: mode !== 'fast',
    verbose: mode !== 'fast',
    messages: false,
    strict: false,
    // schema patterns are RE2/Go syntax, read like `new RegExp(pattern)` (no `u` flag)
    unicodeRegExp: false,
    logger: false,
    // the code optimizer doubles the compile time for no measurable gain on these schemas at run
    // time; the generated modules are optimized (a tenth smaller)
    code: source
      ? { source: true, optimize: true, formats: ajvModule._`require(${RUNTIME_MODULE}).FORMATS` }
      : { optimize: false },
  });
  ajv.addVocabulary(['x-rule', 'x-pruned', 'x-type-label', 'x-kubernetes-list-map-keys', 'x-deferred', 'x-deferred-rule']);
  for (const keyword of KEYWORDS) ajv.addKeyword(keyword);
  for (const [name, format] of Object.entries(runtime.FORMATS)) ajv.addFormat(name, format as Parameters<Ajv['addFormat']>[1]);
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

/** The schemas a schema validated in `mode` may reference (none when defaulting). */
export function sharedSchemasOf(mode: ValidatorMode): readonly SchemaObject[] {
  return mode === 'defaulting' ? [] : sharedSchemas;
}

/** An ajv instance with `useDefaults: true` (fills absent fields with their schema `default`). */
export function defaultingAjv(): Ajv {
  return defaulting ??= createAjv('defaulting');
}

/** The validate function of a schema in `mode`, compiled by ajv now (not the generated one). */
export function compileAtRuntime(mode: ValidatorMode, schema: SchemaObject): ValidateFunction {
  runtimeCompiles++;
  return (mode === 'defaulting' ? defaultingAjv() : checkingAjv(mode)).compile(schema);
}

let runtimeCompiles = 0;

/** How many schemas were compiled at run time (no generated function had their content), for tests. */
export function runtimeCompileCount(): number {
  return runtimeCompiles;
}

const compiled: Record<ValidatorMode, WeakMap<object, ValidateFunction>> = {
  fast: new WeakMap(), full: new WeakMap(), defaulting: new WeakMap(),
};

/**
 * The validate function of a schema object in `mode`, once per schema object: the one generated
 * at build time for a schema of the same content (validators.ts), else compiled by ajv.
 */
export function validatorOf(mode: ValidatorMode, schema: SchemaObject): ValidateFunction {
  const cache = compiled[mode];
  let fn = cache.get(schema);
  if (!fn) {
    fn = prebuiltValidator(mode, schema, sharedSchemasOf(mode)) ?? compileAtRuntime(mode, schema);
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
  return validatorOf('fast', schema);
}

/**
 * The validate function of a schema object that collects every error with its details (for the
 * report), compiled once, on the first value that fails `compileOnce`'s function.
 */
export function compileFull(schema: SchemaObject): ValidateFunction {
  return validatorOf('full', schema);
}

/** The validate function of a schema object that fills absent fields with their `default`, compiled once. */
export function compileDefaulting(schema: SchemaObject): ValidateFunction {
  return validatorOf('defaulting', schema);
}
