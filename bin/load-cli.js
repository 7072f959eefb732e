'use strict';
/**
 * Loads the bundled command line (lib/cli.js) with the V8 code cache the build made of it
 * (lib/cli.cache), as lib/src/code-cache.js describes: the cache is used only with the very bundle
 * build it was made from, and only by the V8 that made it. Nothing is written at run time.
 */
const path = require('path');
const codeCache = require('../lib/src/code-cache.js');

const LIB = path.join(__dirname, '..', 'lib');
/** The command line's bundle and cache; the bundle's first line, once stamped: this prefix and the build id. */
const FILES = { bundle: path.join(LIB, 'cli.js'), cache: path.join(LIB, 'cli.cache'), stamp: '// cdk8s-dynamo command line, build ' };
const STAMP = FILES.stamp;

/** The V8 data of a cache file, if its first bytes are the build id of the bundle's source. */
function cachedDataFor(source, cacheFile = FILES.cache) {
  return codeCache.cachedDataFor(source, STAMP, cacheFile);
}

/**
 * The exports of lib/cli.js and its script (for the build step that makes the cache, or a check
 * that V8 took it: `script.cachedDataRejected`). With `withCache: false`, compiled without the cache.
 */
function load(withCache = true) {
  return codeCache.loadBundle(FILES, withCache);
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
  codeCache.stampBundle(FILES);
  const loaded = load(false);
  process.argv = [process.argv[0], FILES.bundle, ...args];
  loaded.exports.main();
  process.on('exit', () => codeCache.writeCodeCache(FILES, loaded));
}

module.exports = { loadCli, load, cachedDataFor, writeCodeCache, STAMP };
