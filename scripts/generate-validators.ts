/**
 * Generates the validate functions of every schema the library validates with
 * (src/admission/structural/validator-catalog.ts): ajv's standalone code, one CommonJS module per
 * schema and mode, in src/admission/structural/generated/ (not committed; the compile task copies
 * the folder into lib/, and the test setup generates what is missing).
 *
 * Only what is missing is generated: a module's name is the digest of its schema's content, and
 * the folder is generated anew when what the code is generated with changes (the ajv version, the
 * keyword code generation of ajv-instance.ts, this script). Modules of schemas no longer used are
 * removed.
 *
 *   ts-node scripts/generate-validators.ts [--check]   (--check: fail when anything is missing)
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { AnyValidateFunction } from 'ajv/dist/core';
import { transformSync } from 'esbuild';
import { createAjv } from '../src/admission/structural/ajv-instance';
import { validatorCatalog } from '../src/admission/structural/validator-catalog';
import { GENERATED_FOLDER, GeneratedManifest, ValidatorMode, validatorKey, validatorModuleName } from '../src/admission/structural/validators';

const ROOT = path.join(__dirname, '..');
const STRUCTURAL = path.join(ROOT, 'src', 'admission', 'structural');
export const GENERATED_DIR = path.join(STRUCTURAL, GENERATED_FOLDER);

/** What the generated code depends on besides the schemas. */
function fingerprint(): string {
  const hash = createHash('sha256');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  hash.update(require('ajv/package.json').version);
  for (const file of [path.join(STRUCTURAL, 'ajv-instance.ts'), __filename]) hash.update(fs.readFileSync(file));
  return hash.digest('hex').slice(0, 32);
}

function readManifest(): GeneratedManifest | undefined {
  try {
    const text = fs.readFileSync(path.join(GENERATED_DIR, 'index.js'), 'utf8');
    return JSON.parse(text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1)) as GeneratedManifest;
  } catch {
    return undefined;
  }
}

/** The module names the catalog needs, with what to generate each from. */
function wanted(): Map<string, { key: string; mode: ValidatorMode; name: string; schema: object; shared: readonly object[] }> {
  const out = new Map<string, { key: string; mode: ValidatorMode; name: string; schema: object; shared: readonly object[] }>();
  for (const entry of validatorCatalog()) {
    const key = validatorKey(entry.schema, entry.shared);
    // a `fast` function is the `full` one (validatorModuleName): one module for both
    for (const mode of entry.modes.filter((m) => m !== 'fast' || !entry.modes.includes('full'))) {
      out.set(validatorModuleName(key, mode), { key, mode, name: entry.name, schema: entry.schema, shared: entry.shared });
    }
  }
  return out;
}

/**
 * Brings the generated folder up to date; returns the number of modules written. With `check`,
 * writes nothing and throws when a module is missing or stale.
 */
export function generateValidators(options: { check?: boolean; log?: (line: string) => void } = {}): number {
  const log = options.log ?? (() => undefined);
  const print = fingerprint();
  const previous = readManifest();
  const fresh = previous?.fingerprint === print;
  const modules = wanted();
  const existing = fresh ? previous.modules : {};
  const missing = [...modules.keys()].filter((name) => !Object.prototype.hasOwnProperty.call(existing, name)
    || !fs.existsSync(path.join(GENERATED_DIR, `${name}.js`)));
  const stale = Object.keys(previous?.modules ?? {}).filter((name) => !modules.has(name) || !fresh);
  if (options.check) {
    if (missing.length > 0) throw new Error(`${missing.length} generated validators missing or stale: run the compile task`);
    return 0;
  }
  if (missing.length === 0 && stale.length === 0) return 0;
  fs.mkdirSync(GENERATED_DIR, { recursive: true });
  for (const name of stale) fs.rmSync(path.join(GENERATED_DIR, `${name}.js`), { force: true });
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default;
  const instances = new Map<ValidatorMode, ReturnType<typeof createAjv>>();
  const instanceFor = (mode: ValidatorMode, shared: readonly object[]): ReturnType<typeof createAjv> => {
    let ajv = instances.get(mode);
    if (!ajv) {
      ajv = createAjv(mode, true);
      for (const schema of shared) ajv.addSchema(schema);
      instances.set(mode, ajv);
    }
    return ajv;
  };
  for (const name of missing) {
    const item = modules.get(name)!;
    // the `full` function of a schema that is also checked `fast` is compiled after the fast one, as
    // at run time (compiling adds `null` to the type list of a nullable node, in place, and the full
    // function's errors carry the schema nodes): its errors are those of the functions compiled at run time
    if (item.mode === 'full') instanceFor('fast', item.shared).compile(item.schema);
    const ajv = instanceFor(item.mode, item.shared);
    const validate = ajv.compile(item.schema) as AnyValidateFunction;
    // minified (whitespace, syntax, local names): a quarter less code for the package to carry and for
    // V8 to read; the functions are the same (standalone code depends on no name, a test compares them
    // with the functions ajv compiles at run time)
    const minified = transformSync(standaloneCode(ajv, validate), { loader: 'js', minify: true, target: 'node20', legalComments: 'none' }).code;
    const code = `// ${item.name} (${item.mode}): generated by scripts/generate-validators.ts, do not edit\n${minified}`;
    fs.writeFileSync(path.join(GENERATED_DIR, `${name}.js`), code);
    log(`${name}.js: ${item.name} (${item.mode}), ${Math.round(code.length / 1024)} KiB`);
  }
  const manifest: GeneratedManifest = {
    fingerprint: print,
    modules: Object.fromEntries([...modules].map(([name, item]) => [name, `${item.name} (${item.mode})`]).sort(([a], [b]) => a.localeCompare(b))),
  };
  fs.writeFileSync(path.join(GENERATED_DIR, 'index.js'),
    `// generated by scripts/generate-validators.ts, do not edit\n"use strict";\nmodule.exports = ${JSON.stringify(manifest, undefined, 1)};\n`);
  return missing.length;
}

if (require.main === module) {
  const check = process.argv.includes('--check');
  const started = Date.now();
  const written = generateValidators({ check, log: (line) => process.stdout.write(`${line}\n`) });
  if (!check) process.stdout.write(`validators: ${written} generated in ${Date.now() - started} ms (${GENERATED_DIR})\n`);
}
