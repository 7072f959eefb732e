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
 * The build records a V8 code cache for the modules a synthesis loads (`<module>.cache`, beside it;
 * see code-cache.ts and scripts/bundle-pipeline.ts): such a module is loaded with its cache, so
 * that a process does not compile its functions again (some 0.5–0.8 MB of code for the Kubernetes
 * pod template and the Dynamo CRDs). The others are required as they are.
 *
 * Internal module.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { SchemaObject, ValidateFunction } from 'ajv';
import { BundleFiles, LoadedBundle, loadBundle, stampBundle, writeCodeCache } from '../../code-cache';

/** How a function validates: filling defaults; every error with its details; or only pass/fail. */
export type ValidatorMode = 'defaulting' | 'full' | 'fast';

/** The folder of the generated modules, beside this module. */
export const GENERATED_FOLDER = 'generated';

/**
 * Set by the builds of the bundles (the command line's, in .projenrc.ts; the pipeline's, in
 * scripts/bundle-pipeline.ts): where the generated modules are from the bundle's folder. Undefined
 * in the library's own modules.
 */
declare const GENERATED_VALIDATORS_FROM_BUNDLE: string | undefined;

/** The path of a file of the generated folder. */
function generatedFile(file: string): string {
  return typeof GENERATED_VALIDATORS_FROM_BUNDLE === 'string'
    ? path.join(__dirname, GENERATED_VALIDATORS_FROM_BUNDLE, file)
    : path.join(__dirname, GENERATED_FOLDER, file);
}

/**
 * The file name (without `.js`) of the module of a schema digest in a mode. The checking modes share
 * one module, the `full` one: on a value it passes or fails exactly as the `fast` function would (the
 * same schema and keywords), at about the same cost when the value is valid, and the package then
 * carries one function per schema instead of two (the `fast` mode remains for the schemas compiled at run time).
 */
export function validatorModuleName(key: string, mode: ValidatorMode): string {
  return `${key}.${mode === 'fast' ? 'full' : mode}`;
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
    return loadGenerated(name);
  } catch {
    return undefined; // listed but not there (a copy of the package without it): compiled instead
  }
}

/** The first line of a generated module whose code cache the build recorded: this prefix and a build id. */
const MODULE_STAMP = '// cdk8s-dynamo generated validator, build ';

/** The modules loaded with a cache (or, while the build records, without one), by name. */
const cachedModules = new Map<string, LoadedBundle>();
/** Set while the build records the code caches. */
let recording = false;

function moduleFiles(name: string): BundleFiles {
  return { bundle: generatedFile(`${name}.js`), cache: generatedFile(`${name}.cache`), stamp: MODULE_STAMP };
}

/** A generated module: with its code cache when the build recorded one, else required. */
function loadGenerated(name: string): ValidateFunction {
  const known = cachedModules.get(name);
  if (known !== undefined) return known.exports;
  const files = moduleFiles(name);
  if (recording) stampBundle(files);
  else if (!fs.existsSync(files.cache)) return require(files.bundle) as ValidateFunction; // eslint-disable-line @typescript-eslint/no-require-imports
  const loaded = loadBundle(files, !recording);
  cachedModules.set(name, loaded);
  return loaded.exports;
}

/**
 * The build step (run with the pipeline bundle's, before any validation): the generated modules
 * this process then loads are stamped with a build id and loaded without a cache, and what V8
 * compiled for them is written beside each when the process exits.
 */
export function recordGeneratedModuleCodeCaches(): void {
  recording = true;
  process.on('exit', () => {
    for (const [name, loaded] of cachedModules) writeCodeCache(moduleFiles(name), loaded);
  });
}

/** How many generated modules were loaded with a code cache, and how many of those caches V8 refused (for tests). */
export function generatedModuleCodeCaches(): { readonly loaded: number; readonly cacheRejected: number } {
  const loaded = [...cachedModules.values()].filter(m => m.cacheGiven);
  return { loaded: loaded.length, cacheRejected: loaded.filter(m => m.script.cachedDataRejected).length };
}
