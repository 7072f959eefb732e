/**
 * Loading one of the package's bundles (a CommonJS file the build makes with esbuild: the lazily
 * loaded pipeline with the command line, `lib/src/pipeline.bundle.js`; the generated validators are
 * loaded the same way) as Node loads a
 * CommonJS module, with the V8 code cache the build made of it: the compiled code of the bundle and
 * of the functions a typical run calls, so that a process does not compile them again.
 *
 * The build stamps a bundle's first line with a build id (`<stamp><id>`) and writes the cache file
 * as that id followed by V8's data. A cache is used only with the very bundle it names, and V8 takes
 * it only when the same V8 version with the same flags made it (else it rejects it and compiles the
 * bundle as without one). Nothing is written at run time.
 *
 * Internal module: only Node's built-in modules, as it is loaded with the package.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import * as vm from 'vm';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const Module = require('module') as ModuleConstructor;

/** The parts of Node's `Module` class a bundle is loaded with. */
interface ModuleConstructor {
  new (id: string, parent: null): NodeModule & { paths: string[]; loaded: boolean };
  wrap(source: string): string;
  _nodeModulePaths(dir: string): string[];
  _resolveFilename(request: string, parent: NodeModule, isMain: boolean, options?: { paths?: string[] }): string;
}

/** Length of a build id (hexadecimal). */
const ID_LENGTH = 32;

/** A bundle and its code cache. */
export interface BundleFiles {
  /** The bundle (a CommonJS file). */
  readonly bundle: string;
  /** Its code cache. */
  readonly cache: string;
  /** The start of the bundle's first line, before the build id. */
  readonly stamp: string;
}

/** A loaded bundle. */
export interface LoadedBundle {
  /** The bundle's `module.exports`. */
  readonly exports: any;
  /** The compiled script (`cachedDataRejected` says whether V8 refused the cache it was given). */
  readonly script: vm.Script;
  /** Whether a cache for this very bundle was found and given to V8. */
  readonly cacheGiven: boolean;
}

/** The build id on the first line of a bundle's source, if it has one. */
export function buildIdOf(source: string, stamp: string): string | undefined {
  return source.startsWith(stamp) ? source.slice(stamp.length, stamp.length + ID_LENGTH) : undefined;
}

/** The V8 data of a cache file, if its first bytes are the build id of the bundle's source. */
export function cachedDataFor(source: string, stamp: string, cacheFile: string): Buffer | undefined {
  const id = buildIdOf(source, stamp);
  if (id === undefined) return undefined;
  let data: Buffer;
  try {
    data = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  return data.length > ID_LENGTH && data.toString('latin1', 0, ID_LENGTH) === id ? data.subarray(ID_LENGTH) : undefined;
}

/**
 * Loads a bundle as a CommonJS module (its relative and package requires resolved from its own
 * folder), with its code cache unless `withCache` is false.
 */
export function loadBundle(files: BundleFiles, withCache = true): LoadedBundle {
  const source = fs.readFileSync(files.bundle, 'utf8');
  const cachedData = withCache ? cachedDataFor(source, files.stamp, files.cache) : undefined;
  const script = new vm.Script(Module.wrap(source), { filename: files.bundle, cachedData });
  const dir = path.dirname(files.bundle);
  const module = new Module(files.bundle, null);
  module.filename = files.bundle;
  module.paths = Module._nodeModulePaths(dir);
  const requireFromBundle = ((request: string) => module.require(request)) as NodeRequire;
  requireFromBundle.resolve = ((request: string, options?: { paths?: string[] }) =>
    Module._resolveFilename(request, module, false, options)) as NodeRequire['resolve'];
  (script.runInThisContext() as Function).call(module.exports, module.exports, requireFromBundle, module, files.bundle, dir);
  module.loaded = true;
  return { exports: module.exports, script, cacheGiven: cachedData !== undefined };
}

/**
 * The build step, part one: stamps the bundle with a new build id (a digest of its source) and
 * returns the id.
 */
export function stampBundle(files: BundleFiles): string {
  const source = fs.readFileSync(files.bundle, 'utf8');
  const unstamped = buildIdOf(source, files.stamp) === undefined ? source : source.slice(source.indexOf('\n') + 1);
  const id = crypto.createHash('sha256').update(unstamped).digest('hex').slice(0, ID_LENGTH);
  fs.writeFileSync(files.bundle, `${files.stamp}${id}\n${unstamped}`);
  return id;
}

/**
 * The build step, part two: once the bundle (loaded without a cache) has run what a typical process
 * runs, writes what V8 compiled for it, after the bundle's build id.
 */
export function writeCodeCache(files: BundleFiles, loaded: LoadedBundle): void {
  const id = buildIdOf(fs.readFileSync(files.bundle, 'utf8'), files.stamp);
  if (id === undefined) throw new Error(`${files.bundle} has no build id: stamp it first`);
  fs.writeFileSync(files.cache, Buffer.concat([Buffer.from(id, 'latin1'), loaded.script.createCachedData()]));
}
