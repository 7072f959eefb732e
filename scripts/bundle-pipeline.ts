/**
 * Build step (after jsii): the pipeline bundle, `lib/src/pipeline.bundle.js`, and its V8 code cache,
 * `lib/src/pipeline.bundle.cache` (see src/lazy-modules.ts).
 *
 * The bundle's entry is lib/src/constructs/deferred-parts.js. It holds every module the entry loads
 * that requiring the package (lib/src/index.js) does not load (nor those modules on first use), and @bufbuild/cel (taken as ES
 * modules, so that what the bundle does not use of it and of the protobuf runtime is left out: a
 * smaller bundle, fewer descriptors to set up when CEL is first used); the modules the package loads
 * stay outside (required from the bundle's folder, so that a process has one copy of each), and so do
 * the generated validators (loaded per schema on first use) with the modules they load, and the other
 * packages (the peers, ajv, yaml).
 *
 * The bundle holds the command line too (bin/load-cli.js loads it from the bundle). The caches are then
 * made by a separate process (scripts/pipeline-code-cache-run.js) that stamps the bundle with a build
 * id, synthesizes test graphs through the package and runs the command line (the bundle's cache and
 * the generated validators' it loads). Last, the compiled modules the bundle holds are removed from
 * lib/: the package holds one copy of the code.
 *
 *   ts-node --transpile-only --project tsconfig.dev.json scripts/bundle-pipeline.ts
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { build, Plugin } from 'esbuild';

const ROOT = path.resolve(__dirname, '..');
const LIB = path.join(ROOT, 'lib');
const LIB_SRC = path.join(LIB, 'src');
const ENTRY = path.join(LIB_SRC, 'constructs', 'deferred-parts.js');
const BUNDLE = path.join(LIB_SRC, 'pipeline.bundle.js');
/** The files the bundle holds, relative to the project (not in the package; read by test/pipeline-bundle.test.ts). */
const MODULE_LIST = path.join(ROOT, '.tmp', 'pipeline-bundle-modules.json');
/** The generated validators, from the bundle's folder. */
const GENERATED_VALIDATORS = 'admission/structural/generated';
/** Packages bundled: the CEL engine (and the protobuf runtime it is written with), the YAML parser. */
const BUNDLED_PACKAGES = /^(@bufbuild\/|yaml$)/;

/**
 * The files of lib/src that requiring the package loads, and those the generated validators load
 * (the keyword runtime they are written against), in a fresh process.
 */
function sharedModules(): Set<string> {
  const validators = path.join(LIB_SRC, GENERATED_VALIDATORS);
  const script = [
    `require(${JSON.stringify(path.join(LIB_SRC, 'index.js'))});`,
    `const dir = ${JSON.stringify(validators)};`,
    "for (const f of require('fs').readdirSync(dir)) if (f.endsWith('.js')) require(require('path').join(dir, f));",
    'process.stdout.write(JSON.stringify(Object.keys(require.cache)));',
  ].join('\n');
  const loaded = JSON.parse(execFileSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })) as string[];
  return new Set(loaded.filter(file => file.startsWith(`${LIB_SRC}${path.sep}`)));
}

/** Leaves the package's own modules and the packages other than the bundled ones outside the bundle. */
function outside(shared: ReadonlySet<string>): Plugin {
  return {
    name: 'outside-the-bundle',
    setup(b) {
      b.onResolve({ filter: /.*/ }, args => {
        if (args.kind === 'entry-point') return undefined;
        if (!args.path.startsWith('.')) {
          if (!BUNDLED_PACKAGES.test(args.path)) return { path: args.path, external: true };
          // the package's ES modules, whose unused exports the bundler leaves out (the packages declare
          // no side effects); a require of them would take the CommonJS build, all of it
          if (args.kind === 'require-call') return b.resolve(args.path, { kind: 'import-statement', resolveDir: args.resolveDir });
          return undefined;
        }
        const file = require.resolve(path.resolve(args.resolveDir, args.path));
        if (!shared.has(file)) return undefined;
        const fromBundle = path.relative(LIB_SRC, file).split(path.sep).join('/');
        return { path: `./${fromBundle}`, external: true };
      });
    },
  };
}

async function main(): Promise<void> {
  if (!fs.existsSync(ENTRY)) throw new Error(`${ENTRY} is missing: run the compile task (this step removes the modules it bundles from lib/)`);
  // outside the bundle: what requiring the package loads, and what those modules require on first use
  const loadedByPackage = sharedModules();
  const shared = new Set([...loadedByPackage, ...requiredFromOutside(loadedByPackage)]);
  if (shared.has(ENTRY)) throw new Error(`${ENTRY} is loaded by requiring the package: the bundle would duplicate it`);
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: BUNDLE,
    logLevel: 'warning',
    // minified (whitespace, syntax, local names): some 40% less code to read and to carry; no code of
    // the package depends on a function's or class's name (errors set theirs)
    minify: true,
    metafile: true,
    define: { GENERATED_VALIDATORS_FROM_BUNDLE: JSON.stringify(GENERATED_VALIDATORS) },
    plugins: [outside(shared)],
  });
  const inside = Object.keys(result.metafile.inputs).map(input => path.resolve(ROOT, input));
  // the modules the bundle holds, for the tests (the minified bundle names none)
  fs.mkdirSync(path.dirname(MODULE_LIST), { recursive: true });
  fs.writeFileSync(MODULE_LIST, `${JSON.stringify(inside.map(file => path.relative(ROOT, file).split(path.sep).join('/')), undefined, 1)}\n`);
  const twice = inside.filter(file => shared.has(file));
  if (twice.length > 0) throw new Error(`modules both in the bundle and loaded by the package: ${twice.join(', ')}`);
  execFileSync(process.execPath, [path.join(__dirname, 'pipeline-code-cache-run.js')], { cwd: ROOT, stdio: 'inherit' });
  // one copy of the code in the package: the compiled modules the bundle holds leave lib/ (their
  // declarations stay, for the types; the compile task's jsii step writes them all again)
  for (const file of inside) {
    if (file.startsWith(`${LIB}${path.sep}`) && file.endsWith('.js')) fs.rmSync(file);
  }
}

/**
 * The modules of lib/ that the modules outside the bundle (`loaded`: those requiring the package and
 * the generated validators load) require by a relative path, at load or on first use, and what those
 * require in turn; not the bundle's entry, which they require only when the bundle is missing.
 */
function requiredFromOutside(loaded: ReadonlySet<string>): Set<string> {
  const needed = new Set<string>();
  const queue = [...loaded];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const file = queue.pop()!;
    for (const match of fs.readFileSync(file, 'utf8').matchAll(/require\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g)) {
      let target: string;
      try {
        target = require.resolve(path.resolve(path.dirname(file), match[1]));
      } catch {
        continue;
      }
      // the bundle's entry is required only when there is no bundle (src/lazy-modules.ts)
      if (!target.startsWith(`${LIB}${path.sep}`) || target === ENTRY || seen.has(target)) continue;
      seen.add(target);
      needed.add(target);
      queue.push(target);
    }
  }
  return needed;
}

main().catch(error => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
