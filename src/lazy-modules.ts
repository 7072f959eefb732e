/**
 * Dependencies loaded on first use rather than when the library is required, so that
 * `require('cdk8s-dynamo')` stays cheap: cdk8s-plus is only needed to serialise Kubernetes values
 * handed to the constructs, the YAML parser only to read documents, and the JSON-schema validator
 * and the CEL engine only when something is validated. (The library's own heavy parts are reached
 * the same way by the constructs: `constructs/on-first-use.ts`.)
 */
import type * as celModule from '@bufbuild/cel';
import type * as celExtModule from '@bufbuild/cel/ext';
import type * as ajvModule from 'ajv';
import type * as kplusModule from 'cdk8s-plus-34';
import type * as yamlModule from 'yaml';

/** An accessor that loads a module the first time it is called and returns the same module after. */
export function onFirstUse<T>(load: () => T): () => T {
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
