/**
 * Where the parts loaded on first use come from: the pipeline bundle the build made
 * (`lib/src/pipeline.bundle.js`, one file instead of some 300 modules, with the V8 code cache made
 * of it, `lib/src/pipeline.bundle.cache`; see code-cache.ts), else the modules themselves
 * (deferred-parts.ts). A fresh process that validates or synthesizes a graph would otherwise find,
 * read and compile those modules and the functions it runs, in every `cdk8s synth`.
 *
 * The bundle holds exactly the modules that requiring the package does not load: the modules it
 * shares with the constructs (the construct classes, `RenderError`, the JSON helpers, ...) stay
 * outside it and are required from it, so that there is one copy of each module in a process.
 *
 * Internal module.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as deferredParts from './deferred-parts';
import { BundleFiles, LoadedBundle, loadBundle, stampBundle, writeCodeCache } from '../code-cache';

/** The pipeline bundle and its code cache, beside the compiled `src/` folder of the package. */
export const PIPELINE_BUNDLE: BundleFiles = {
  bundle: path.join(__dirname, '..', 'pipeline.bundle.js'),
  cache: path.join(__dirname, '..', 'pipeline.bundle.cache'),
  stamp: '// cdk8s-dynamo pipeline, build ',
};

let loaded: LoadedBundle | undefined;

/** The parts loaded on first use: from the bundle when the build made one, else from their modules. */
export function deferredPartsModule(): typeof deferredParts {
  if (loaded === undefined && fs.existsSync(PIPELINE_BUNDLE.bundle)) loaded = loadBundle(PIPELINE_BUNDLE);
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return loaded === undefined ? require('./deferred-parts') : loaded.exports;
}

/** What a process took from the bundle and the code caches (for tests). */
export interface PipelineBundleState {
  /** The parts came from the bundle. */
  readonly fromBundle: boolean;
  /** The bundle's cache was found and given to V8. */
  readonly cacheGiven: boolean;
  /** V8 refused the bundle's cache. */
  readonly cacheRejected: boolean;
  /** Generated validator modules loaded with a code cache, and how many of those caches V8 refused. */
  readonly validatorCaches: { readonly loaded: number; readonly cacheRejected: number };
}

/** What this process took from the bundle and the code caches (for tests). */
export function pipelineBundleState(): PipelineBundleState {
  return {
    fromBundle: loaded !== undefined,
    cacheGiven: loaded?.cacheGiven ?? false,
    cacheRejected: loaded?.script.cachedDataRejected ?? false,
    validatorCaches: deferredPartsModule().generatedValidators().generatedModuleCodeCaches(),
  };
}

/**
 * The build step: stamps the bundle and loads it without a cache; what this process then runs
 * through it is what V8's cache, written when the process exits, holds compiled. The same for the
 * generated validator modules it loads (validators.ts).
 */
export function recordPipelineCodeCache(): void {
  if (loaded !== undefined) throw new Error('the pipeline bundle is loaded already: record its code cache before the first use');
  if (!fs.existsSync(PIPELINE_BUNDLE.bundle)) throw new Error(`${PIPELINE_BUNDLE.bundle} is missing: bundle the pipeline first`);
  stampBundle(PIPELINE_BUNDLE);
  const bundle = loaded = loadBundle(PIPELINE_BUNDLE, false);
  process.on('exit', () => writeCodeCache(PIPELINE_BUNDLE, bundle));
  (bundle.exports as typeof deferredParts).generatedValidators().recordGeneratedModuleCodeCaches();
}
