/**
 * The one place where the library loads code on first use rather than when it is required, so
 * that `require('cdk8s-dynamo')` loads what defining the constructs needs and nothing more:
 *
 * - cdk8s-plus, needed only to serialise Kubernetes values handed to the constructs, and the
 *   Kubernetes schemas and struct fields those values are checked and converted with;
 * - the library's heavy parts, reached by the first synthesis, validation or import that needs
 *   them: the pipeline that checks and renders documents (the render engine, the admission of
 *   Dynamo documents and of the objects the operator creates, with their schemas), the v1alpha1
 *   conversion, the readers behind `fromObject` / `fromYaml`, the rule documentation, the YAML
 *   parser and the command line. Code that uses them imports their types only (`import type`) and
 *   reaches them through the accessors below.
 *
 * Those parts come from the pipeline bundle the build made (`lib/src/pipeline.bundle.js`, one file
 * instead of some 300 modules, with the V8 code cache made of it, `lib/src/pipeline.bundle.cache`;
 * see code-cache.ts and scripts/bundle-pipeline.ts), else from their modules
 * (`constructs/deferred-parts.ts`, the bundle's entry). The bundle holds exactly the modules that
 * requiring the package does not load: the modules it shares with the constructs (the construct
 * classes, `RenderError`, the JSON helpers, ...) stay outside it and are required from it, so that
 * there is one copy of each module in a process.
 *
 * (Only the JSON-schema validator and the CEL engine, which admission alone uses, are loaded
 * elsewhere, by `admission/engines.ts`: the CEL engine is a package the pipeline bundle holds, so it
 * is required from inside the bundle.)
 *
 * Internal module: loaded with the package, so it loads only Node's built-in modules.
 */
import * as fs from 'fs';
import * as path from 'path';
import type * as kplusModule from 'cdk8s-plus-34';
import type * as yamlModule from 'yaml';
import { BundleFiles, LoadedBundle, loadBundle, stampBundle, writeCodeCache } from './code-cache';
import type * as deferredParts from './constructs/deferred-parts';

/** An accessor that loads a module the first time it is called and returns the same module after. */
export function onFirstUse<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => loaded ??= load();
}

/* eslint-disable @typescript-eslint/no-require-imports */

/** The cdk8s-plus module. */
export const kplus = onFirstUse<typeof kplusModule>(() => require('cdk8s-plus-34'));

/** The Kubernetes OpenAPI schemas the constructs check typed values against (`imports/k8s-openapi.schema`), by definition name. */
export const kubernetesSchemas = onFirstUse(() => (require('../imports/k8s-openapi.schema') as typeof import('../imports/k8s-openapi.schema')).K8S_SCHEMAS);

/** The Kubernetes struct fields the constructs convert typed values with (`model/kubernetes-types`). */
export const kubernetesTypes = onFirstUse(() => (require('./model/kubernetes-types') as typeof import('./model/kubernetes-types')).KUBERNETES_TYPES);

// ---------------------------------------------------------------------------------------------
// The pipeline bundle
// ---------------------------------------------------------------------------------------------

/** The pipeline bundle and its code cache, beside the compiled `src/` folder's modules. */
export const PIPELINE_BUNDLE: BundleFiles = {
  bundle: path.join(__dirname, 'pipeline.bundle.js'),
  cache: path.join(__dirname, 'pipeline.bundle.cache'),
  stamp: '// cdk8s-dynamo pipeline, build ',
};

let loaded: LoadedBundle | undefined;

/** The parts loaded on first use: from the bundle when the build made one, else from their modules. */
export function deferredPartsModule(): typeof deferredParts {
  if (loaded === undefined && fs.existsSync(PIPELINE_BUNDLE.bundle)) loaded = loadBundle(PIPELINE_BUNDLE);
  return loaded === undefined ? require('./constructs/deferred-parts') : loaded.exports;
}

const parts = onFirstUse(deferredPartsModule);

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

// ---------------------------------------------------------------------------------------------
// The parts loaded on first use
// ---------------------------------------------------------------------------------------------

/** Admission and rendering of documents (`pipeline/check-and-render`, with the render engine and admission). */
export const pipeline = onFirstUse(() => parts().pipeline());

/** What the construct option `plan` of a request renders (`plan/planned-output`). */
export const plannedOutput = onFirstUse(() => parts().plannedOutput());


/** The admission rules' documentation (`admission/rule-docs`). */
export const ruleDocs = onFirstUse(() => parts().ruleDocs());

/** A graph's footprint and flowchart (`explain/explain`). */
export const explain = onFirstUse(() => parts().explain());

/** The v1alpha1 → v1beta1 conversion (`import/v1alpha1`). */
export const v1alpha1 = onFirstUse(() => parts().v1alpha1());

/** `DynamoGraph.fromObject` / `fromYaml` (`constructs/graph-import`). */
export const graphImport = onFirstUse(() => parts().graphImport());

/** `ComponentDeployment.fromObject` / `fromYaml` (`constructs/component-import`). */
export const componentImport = onFirstUse(() => parts().componentImport());

/**
 * The command line (`cli/bin`): `bin/cdk8s-dynamo` runs it from the bundle too (bin/load-cli.js), so
 * that the package holds one copy of the code, and a command takes it from the one file with its cache.
 */
export const commandLine = onFirstUse(() => parts().commandLine());

/**
 * The `yaml` module: the pipeline bundle's copy (it holds the parser, so that a command or a synthesis
 * reads it from the one file with its code cache, and the package carries one copy), or the
 * package's own without the bundle.
 */
export const yaml = onFirstUse<typeof yamlModule>(() => parts().yamlLibrary());
