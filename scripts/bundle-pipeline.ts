/**
 * Build step (after jsii): the pipeline bundle, `lib/src/pipeline.bundle.js`, and its V8 code cache,
 * `lib/src/pipeline.bundle.cache` (see src/constructs/pipeline-bundle.ts).
 *
 * The bundle's entry is lib/src/constructs/deferred-parts.js. It holds every module the entry loads
 * that requiring the package (lib/src/index.js) does not load, and @bufbuild/cel (taken as ES
 * modules, so that what the bundle does not use of it and of the protobuf runtime is left out: a
 * smaller bundle, fewer descriptors to set up when CEL is first used); the modules the package loads
 * stay outside (required from the bundle's folder, so that a process has one copy of each), and so do
 * the generated validators (loaded per schema on first use) with the modules they load, and the other
 * packages (the peers, ajv, yaml).
 *
 * The caches are then made by a separate process (scripts/pipeline-code-cache-run.js) that stamps the
 * bundle with a build id and synthesizes test graphs through the package (the bundle's cache and the
 * generated validators' it loads).
 *
 *   ts-node --transpile-only --project tsconfig.dev.json scripts/bundle-pipeline.ts
 */
import { execFileSync } from 'child_process';
import * as path from 'path';
import { build, Plugin } from 'esbuild';

const ROOT = path.resolve(__dirname, '..');
const LIB_SRC = path.join(ROOT, 'lib', 'src');
const ENTRY = path.join(LIB_SRC, 'constructs', 'deferred-parts.js');
const BUNDLE = path.join(LIB_SRC, 'pipeline.bundle.js');
/** The generated validators, from the bundle's folder. */
const GENERATED_VALIDATORS = 'admission/structural/generated';
/** Packages bundled: the CEL engine (and the protobuf runtime it is written with). */
const BUNDLED_PACKAGES = /^@bufbuild\//;

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
  const shared = sharedModules();
  if (shared.has(ENTRY)) throw new Error(`${ENTRY} is loaded by requiring the package: the bundle would duplicate it`);
  const result = await build({
    entryPoints: [ENTRY],
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    outfile: BUNDLE,
    logLevel: 'warning',
    metafile: true,
    define: { GENERATED_VALIDATORS_FROM_BUNDLE: JSON.stringify(GENERATED_VALIDATORS) },
    plugins: [outside(shared)],
  });
  const inside = Object.keys(result.metafile.inputs).map(input => path.resolve(ROOT, input));
  const twice = inside.filter(file => shared.has(file));
  if (twice.length > 0) throw new Error(`modules both in the bundle and loaded by the package: ${twice.join(', ')}`);
  execFileSync(process.execPath, [path.join(__dirname, 'pipeline-code-cache-run.js')], { cwd: ROOT, stdio: 'inherit' });
}

main().catch(error => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
