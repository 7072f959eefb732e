/**
 * The library's parts that are loaded on first use (see src/lazy-modules.ts, the one place that
 * loads them), and the command line, each as a function that requires it. This module is the entry of the pipeline bundle (`lib/src/pipeline.bundle.js`, made
 * by the build, see scripts/bundle-pipeline.ts): the bundle holds these parts and every module they
 * load that requiring the package does not load. Without the bundle (running from the TypeScript
 * sources, or a build without it) this module is required as it is.
 *
 * Internal module.
 */
import type * as yamlModule from 'yaml';
import type * as componentImportModule from './component-import';
import type * as graphImportModule from './graph-import';
import type * as ruleDocsModule from '../admission/rule-docs';
import type * as validatorsModule from '../admission/structural/validators';
import type * as commandLineModule from '../cli/bin';
import type * as explainModule from '../explain/explain';
import type * as v1alpha1Module from '../import/v1alpha1';
import type * as pipelineModule from '../pipeline/check-and-render';
import type * as plannedOutputModule from '../plan/planned-output';

/* eslint-disable @typescript-eslint/no-require-imports */

/** Admission and rendering of documents (`pipeline/check-and-render`, with the render engine and admission). */
export const pipeline = (): typeof pipelineModule => require('../pipeline/check-and-render');

/** The rendering of what the construct option `plan` planned (`plan/planned-output`). */
export const plannedOutput = (): typeof plannedOutputModule => require('../plan/planned-output');


/** The admission rules' documentation (`admission/rule-docs`). */
export const ruleDocs = (): typeof ruleDocsModule => require('../admission/rule-docs');

/** A graph's footprint and flowchart (`explain/explain`). */
export const explain = (): typeof explainModule => require('../explain/explain');

/** The v1alpha1 → v1beta1 conversion (`import/v1alpha1`). */
export const v1alpha1 = (): typeof v1alpha1Module => require('../import/v1alpha1');

/** `DynamoGraph.fromObject` / `fromYaml` (`constructs/graph-import`). */
export const graphImport = (): typeof graphImportModule => require('./graph-import');

/** `ComponentDeployment.fromObject` / `fromYaml` (`constructs/component-import`). */
export const componentImport = (): typeof componentImportModule => require('./component-import');

/**
 * The command line (`cli/bin`): `bin/cdk8s-dynamo` runs it from the bundle too (bin/load-cli.js), so
 * that the package holds one copy of the code, and a command takes it from the one file with its cache.
 */
export const commandLine = (): typeof commandLineModule => require('../cli/bin');

/** The YAML parser (`yaml`), which the bundle holds too (lazy-modules.ts). */
export const yamlLibrary = (): typeof yamlModule => require('yaml');

/** The generated validators (`admission/structural/validators`), for the build step that records their code caches. */
export const generatedValidators = (): typeof validatorsModule => require('../admission/structural/validators');
