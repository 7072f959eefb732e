/**
 * Dependencies loaded on first use rather than when the library is required, so that
 * `require('cdk8s-dynamo')` stays cheap: cdk8s-plus is only needed to serialise Kubernetes values
 * handed to the constructs, the YAML parser only to read documents, and the JSON-schema validator
 * and the CEL engine only when something is validated.
 */
import type * as celModule from '@bufbuild/cel';
import type * as celExtModule from '@bufbuild/cel/ext';
import type * as ajvModule from 'ajv';
import type * as kplusModule from 'cdk8s-plus-34';
import type * as yamlModule from 'yaml';

let kplusLoaded: typeof kplusModule | undefined;
let yamlLoaded: typeof yamlModule | undefined;
let ajvLoaded: typeof ajvModule | undefined;
let celLoaded: typeof celModule | undefined;
let celExtLoaded: typeof celExtModule | undefined;

/** The cdk8s-plus module. */
export function kplus(): typeof kplusModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return kplusLoaded ??= require('cdk8s-plus-34');
}

/** The `yaml` module. */
export function yaml(): typeof yamlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return yamlLoaded ??= require('yaml');
}

/** The `ajv` module (JSON-schema validation). */
export function ajv(): typeof ajvModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return ajvLoaded ??= require('ajv');
}

/** The `@bufbuild/cel` module (CEL evaluation). */
export function cel(): typeof celModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return celLoaded ??= require('@bufbuild/cel');
}

/** The `@bufbuild/cel/ext` module (the `strings` extension library). */
export function celExt(): typeof celExtModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return celExtLoaded ??= require('@bufbuild/cel/ext');
}
