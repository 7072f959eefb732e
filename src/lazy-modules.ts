/**
 * Dependencies loaded on first use rather than when the library is required, so that
 * `require('cdk8s-dynamo')` stays cheap: cdk8s-plus is only needed to serialise Kubernetes values
 * handed to the constructs, the YAML parser only to read documents. (The library's own heavy parts
 * are reached the same way by the constructs: `constructs/on-first-use.ts`; the JSON-schema
 * validator and the CEL engine, used by admission only, by `admission/engines.ts`.)
 */
import type * as kplusModule from 'cdk8s-plus-34';
import type * as yamlModule from 'yaml';
import type * as pipelineBundleModule from './constructs/pipeline-bundle';

/** An accessor that loads a module the first time it is called and returns the same module after. */
export function onFirstUse<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => loaded ??= load();
}

/* eslint-disable @typescript-eslint/no-require-imports */

/** The cdk8s-plus module. */
export const kplus = onFirstUse<typeof kplusModule>(() => require('cdk8s-plus-34'));

/**
 * The `yaml` module: the pipeline bundle's copy (it holds the parser, so that a command or a synthesis
 * reads it from the one file with its code cache, and the package carries one copy), or the
 * package's own without the bundle (constructs/pipeline-bundle.ts).
 */
export const yaml = onFirstUse<typeof yamlModule>(() => (require('./constructs/pipeline-bundle') as typeof pipelineBundleModule).deferredPartsModule().yamlLibrary());
