// @ts-check
/**
 * Measure 1 subject: requires one module, resolved from the working directory (a package name or
 * a path such as lib/src/index.js), and nothing else. With --heap (run with --expose-gc, never
 * timed) it prints the heap used after the load and a full GC, in bytes.
 *
 *   node scripts/bench/load.js lib/src/index.js
 *   node --expose-gc scripts/bench/load.js cdk8s-plus-34 --heap
 */
'use strict';
const fs = require('fs');
const path = require('path');

const request = process.argv[2];
if (request) {
  // a file of the working directory, or a package as the working directory resolves it
  require(fs.existsSync(request) ? path.resolve(request) : require.resolve(request, { paths: [process.cwd()] }));
}
if (process.argv.includes('--heap')) {
  /** @type {any} */ (global).gc();
  process.stdout.write(String(process.memoryUsage().heapUsed));
}
