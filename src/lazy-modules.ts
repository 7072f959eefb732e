/**
 * Modules loaded on first use rather than when the library is required, so that
 * `require('cdk8s-dynamo')` stays cheap: requiring the package loads what defining the constructs
 * needs, and nothing of what only synthesis, validation and import need.
 *
 * Dependencies: cdk8s-plus is only needed to serialise Kubernetes values handed to the constructs,
 * the YAML parser only to read documents, and the JSON-schema validator and the CEL engine only
 * when something is validated.
 *
 * The library's own heavy parts: the pipeline that checks and renders documents (the render
 * engine, the admission of Dynamo documents and of the objects the operator creates, with their
 * schemas), the v1alpha1 conversion, the readers
 * behind `fromObject` / `fromYaml` and the rule documentation are loaded by the first synthesis,
 * validation or import that needs them. Code that uses them imports their types only
 * (`import type`) and reaches them through the accessors below.
 */
import type * as celModule from '@bufbuild/cel';
import type * as celExtModule from '@bufbuild/cel/ext';
import type * as ajvModule from 'ajv';
import type * as kplusModule from 'cdk8s-plus-34';
import type * as yamlModule from 'yaml';
import type * as componentImportModule from './constructs/component-import';
import type * as graphImportModule from './constructs/graph-import';
import type * as v1alpha1Module from './import/v1alpha1';
import type * as pipelineModule from './pipeline/check-and-render';
import type * as emittedAdmissionModule from './validation/emitted-admission';
import type * as ruleDocsModule from './validation/rule-docs';
import type * as violationModule from './validation/violation';

/** An accessor that loads a module the first time it is called and returns the same module after. */
function onFirstUse<T>(load: () => T): () => T {
  let loaded: T | undefined;
  return () => loaded ??= load();
}

/* eslint-disable @typescript-eslint/no-require-imports */

/** The cdk8s-plus module. */
export const kplus = onFirstUse<typeof kplusModule>(() => require('cdk8s-plus-34'));

/** The `yaml` module. */
export const yaml = onFirstUse<typeof yamlModule>(() => require('yaml'));

/** The `ajv` module (JSON-schema validation). */
export const ajv = onFirstUse<typeof ajvModule>(() => require('ajv'));

/** The `@bufbuild/cel` module (CEL evaluation). */
export const cel = onFirstUse<typeof celModule>(() => require('@bufbuild/cel'));

/** The `@bufbuild/cel/ext` module (the `strings` extension library). */
export const celExt = onFirstUse<typeof celExtModule>(() => require('@bufbuild/cel/ext'));

/** Admission and rendering of documents (`pipeline/check-and-render`, with the render engine and the validation). */
export const pipeline = onFirstUse<typeof pipelineModule>(() => require('./pipeline/check-and-render'));

/** How violations are described (`validation/violation`). */
export const violationFormat = onFirstUse<typeof violationModule>(() => require('./validation/violation'));

/** Admission of the objects the operator creates, with their schemas (`validation/emitted-admission`). */
export const emittedAdmission = onFirstUse<typeof emittedAdmissionModule>(() => require('./validation/emitted-admission'));

/** The admission rules' documentation (`validation/rule-docs`). */
export const ruleDocs = onFirstUse<typeof ruleDocsModule>(() => require('./validation/rule-docs'));

/** The v1alpha1 → v1beta1 conversion (`import/v1alpha1`). */
export const v1alpha1 = onFirstUse<typeof v1alpha1Module>(() => require('./import/v1alpha1'));

/** `DynamoGraph.fromObject` / `fromYaml` (`constructs/graph-import`). */
export const graphImport = onFirstUse<typeof graphImportModule>(() => require('./constructs/graph-import'));

/** `ComponentDeployment.fromObject` / `fromYaml` (`constructs/component-import`). */
export const componentImport = onFirstUse<typeof componentImportModule>(() => require('./constructs/component-import'));
