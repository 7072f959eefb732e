/**
 * The library's own heavy parts, loaded by the first synthesis, validation or import that needs
 * them rather than when the library is required: requiring the package loads what defining the
 * constructs needs, and nothing of the pipeline that checks and renders documents (the render
 * engine, the admission of Dynamo documents and of the objects the operator creates, with their
 * schemas), the v1alpha1 conversion, the readers behind `fromObject` / `fromYaml` or the rule
 * documentation. Code that uses them imports their types only (`import type`) and reaches them
 * through the accessors below.
 */
import type * as componentImportModule from './component-import';
import type * as graphImportModule from './graph-import';
import type * as emittedAdmissionModule from '../admission/emitted-admission';
import type * as ruleDocsModule from '../admission/rule-docs';
import type * as violationModule from '../admission/violation';
import type * as explainModule from '../explain/explain';
import type * as v1alpha1Module from '../import/v1alpha1';
import { onFirstUse } from '../lazy-modules';
import type * as pipelineModule from '../pipeline/check-and-render';

/* eslint-disable @typescript-eslint/no-require-imports */

/** Admission and rendering of documents (`pipeline/check-and-render`, with the render engine and the validation). */
export const pipeline = onFirstUse<typeof pipelineModule>(() => require('../pipeline/check-and-render'));

/** How violations are described (`validation/violation`). */
export const violationFormat = onFirstUse<typeof violationModule>(() => require('../admission/violation'));

/** Admission of the objects the operator creates, with their schemas (`validation/emitted-admission`). */
export const emittedAdmission = onFirstUse<typeof emittedAdmissionModule>(() => require('../admission/emitted-admission'));

/** The admission rules' documentation (`validation/rule-docs`). */
export const ruleDocs = onFirstUse<typeof ruleDocsModule>(() => require('../admission/rule-docs'));

/** A graph's footprint and flowchart (`explain/explain`). */
export const explain = onFirstUse<typeof explainModule>(() => require('../explain/explain'));

/** The v1alpha1 → v1beta1 conversion (`import/v1alpha1`). */
export const v1alpha1 = onFirstUse<typeof v1alpha1Module>(() => require('../import/v1alpha1'));

/** `DynamoGraph.fromObject` / `fromYaml` (`constructs/graph-import`). */
export const graphImport = onFirstUse<typeof graphImportModule>(() => require('./graph-import'));

/** `ComponentDeployment.fromObject` / `fromYaml` (`constructs/component-import`). */
export const componentImport = onFirstUse<typeof componentImportModule>(() => require('./component-import'));
