'use strict';
/**
 * Loads the command line. It is part of the package's pipeline bundle (lib/src/pipeline.bundle.js,
 * made by the compile task, see scripts/bundle-pipeline.ts): one file, loaded with the V8 code cache
 * the build made of it (lib/src/code-cache.js), that the constructs load too, so that the package
 * holds one copy of the code. A build without the bundle runs the compiled modules themselves.
 * Nothing is written at run time.
 */
const { deferredPartsModule } = require('../lib/src/lazy-modules.js');

/** The command line's `main`. */
function loadCli() {
  return deferredPartsModule().commandLine();
}

module.exports = { loadCli };
