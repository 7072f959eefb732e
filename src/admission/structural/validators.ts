/**
 * The validate functions generated at build time: ajv's standalone code of every schema the
 * library validates with (validator-catalog.ts), one module per schema and mode in `generated/`
 * beside this module, named by the digest of the schema's content (and of the schemas it may
 * reference), listed in `generated/index.js`. A module is loaded when its schema is first used.
 *
 * A schema whose content has no generated module (one built by a caller, or the modules were not
 * generated) is compiled by ajv at run time instead (ajv-instance.ts): the generated functions are
 * the code ajv compiles from the same schema, keywords and formats, so both give the same results.
 *
 * Internal module.
 */
import type { SchemaObject, ValidateFunction } from 'ajv';

/** How a function validates: filling defaults; every error with its details; or only pass/fail. */
export type ValidatorMode = 'defaulting' | 'full' | 'fast';

/** The folder of the generated modules, beside this module. */
export const GENERATED_FOLDER = 'generated';

/**
 * Set by the build of the command-line bundle (scripts/bundle-cli.ts): where the generated modules
 * are from the bundle's folder. Undefined in the library's own modules.
 */
declare const GENERATED_VALIDATORS_FROM_BUNDLE: string | undefined;

/** The path of a file of the generated folder, as `require` takes it. */
function generatedFile(file: string): string {
  return typeof GENERATED_VALIDATORS_FROM_BUNDLE === 'string'
    ? `${__dirname}/${GENERATED_VALIDATORS_FROM_BUNDLE}/${file}`
    : `./${GENERATED_FOLDER}/${file}`;
}

/** The file name (without `.js`) of the module of a schema digest in a mode. */
export function validatorModuleName(key: string, mode: ValidatorMode): string {
  return `${key}.${mode}`;
}

let sharedDigest: { readonly count: number; readonly digest: string } | undefined;

// eslint-disable-next-line @typescript-eslint/no-require-imports
const crypto = (): typeof import('crypto') => require('crypto');

/** The digest of the schemas a schema may reference (they only grow: one digest per count). */
function digestOfShared(shared: readonly SchemaObject[]): string {
  if (sharedDigest?.count !== shared.length) {
    sharedDigest = { count: shared.length, digest: crypto().createHash('sha256').update(schemaJson(shared)).digest('hex') };
  }
  return sharedDigest.digest;
}

/**
 * JSON of a schema as the key reads it. ajv, compiling a schema, adds `null` to the `type` list of
 * a `nullable` node (in place, in the schema object): the key leaves it out, so a schema (or a
 * schema it references) compiled at run time keeps its key.
 */
function schemaJson(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key: string, node: unknown) {
    return key === 'type' && Array.isArray(node) && this.nullable === true ? node.filter((type) => type !== 'null') : node;
  });
}

/** The key of a schema: a digest of its content and of the schemas it may reference. */
export function validatorKey(schema: SchemaObject, shared: readonly SchemaObject[]): string {
  const hash = crypto().createHash('sha256');
  hash.update(shared.length === 0 ? '-' : digestOfShared(shared));
  hash.update('\n');
  hash.update(schemaJson(schema));
  return hash.digest('hex').slice(0, 32);
}

/** `generated/index.js`: what the modules were generated with, and the module names. */
export interface GeneratedManifest {
  readonly fingerprint: string;
  readonly modules: Readonly<Record<string, string>>;
}

let manifest: GeneratedManifest | null | undefined;

function generatedModules(): Readonly<Record<string, string>> | null {
  if (manifest === undefined) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      manifest = require(generatedFile('index.js')) as GeneratedManifest;
    } catch {
      manifest = null;
    }
  }
  return manifest?.modules ?? null;
}

/**
 * The generated validate function of a schema in a mode (validated with `shared` referable), if
 * the build generated one for a schema of this content.
 */
export function prebuiltValidator(mode: ValidatorMode, schema: SchemaObject, shared: readonly SchemaObject[]): ValidateFunction | undefined {
  const modules = generatedModules();
  if (modules === null) return undefined;
  const name = validatorModuleName(validatorKey(schema, shared), mode);
  if (!Object.prototype.hasOwnProperty.call(modules, name)) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(generatedFile(`${name}.js`)) as ValidateFunction;
  } catch {
    return undefined; // listed but not there (a copy of the package without it): compiled instead
  }
}
