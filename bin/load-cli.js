'use strict';
/**
 * Loads the bundled command line (lib/cli.js) as Node loads a CommonJS module, with the V8 code
 * cache the build made of it (lib/cli.cache) when there is one for this very bundle: the compiled
 * code of the bundle and of the functions a `render` runs, so that a process does not compile them
 * again. The cache is used only when its first bytes name the build written on the bundle's first
 * line, and V8 uses it only when it was made by the same V8 version with the same flags (else it
 * rejects it, and the bundle is compiled as without one). Nothing is written at run time.
 */
const fs = require('fs');
const path = require('path');
const vm = require('vm');
const Module = require('module');

const LIB = path.join(__dirname, '..', 'lib');
const BUNDLE = path.join(LIB, 'cli.js');
const CACHE = path.join(LIB, 'cli.cache');
/** The bundle's first line, after the build step stamped it: this prefix and the build id. */
const STAMP = '// cdk8s-dynamo command line, build ';
const ID_LENGTH = 32;

function buildId(source) {
  return source.startsWith(STAMP) ? source.slice(STAMP.length, STAMP.length + ID_LENGTH) : undefined;
}

/** The V8 data of a cache file, if its first bytes are the build id of the bundle's source. */
function cachedDataFor(source, cacheFile = CACHE) {
  const id = buildId(source);
  if (id === undefined) return undefined;
  let data;
  try {
    data = fs.readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  return data.length > ID_LENGTH && data.toString('latin1', 0, ID_LENGTH) === id ? data.subarray(ID_LENGTH) : undefined;
}

/**
 * The exports of lib/cli.js and its script (for the build step that makes the cache, or a check
 * that V8 took it: `script.cachedDataRejected`). With `withCache: false`, compiled without the cache.
 */
function load(withCache = true) {
  const source = fs.readFileSync(BUNDLE, 'utf8');
  const cachedData = withCache ? cachedDataFor(source) : undefined;
  const script = new vm.Script(Module.wrap(source), { filename: BUNDLE, cachedData });
  const module = new Module(BUNDLE, null);
  module.filename = BUNDLE;
  module.paths = Module._nodeModulePaths(LIB);
  const require = (request) => module.require(request);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  script.runInThisContext().call(module.exports, module.exports, require, module, BUNDLE, LIB);
  module.loaded = true;
  return { exports: module.exports, script };
}

/** The command line's `main`. */
function loadCli() {
  return load(true).exports;
}

/**
 * The build step: stamps lib/cli.js with a new build id, runs `args` through its `main` in this
 * process (compiling what a run compiles), and writes lib/cli.cache on exit.
 */
function writeCodeCache(args) {
  const source = fs.readFileSync(BUNDLE, 'utf8');
  const unstamped = buildId(source) === undefined ? source : source.slice(source.indexOf('\n') + 1);
  const id = require('crypto').createHash('sha256').update(unstamped).digest('hex').slice(0, ID_LENGTH);
  fs.writeFileSync(BUNDLE, `${STAMP}${id}\n${unstamped}`);
  const { exports, script } = load(false);
  process.argv = [process.argv[0], BUNDLE, ...args];
  exports.main();
  process.on('exit', () => fs.writeFileSync(CACHE, Buffer.concat([Buffer.from(id, 'latin1'), script.createCachedData()])));
}

module.exports = { loadCli, load, cachedDataFor, writeCodeCache, STAMP };
