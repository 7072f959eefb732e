/**
 * The JSON-schema validator and the CEL engine, loaded the first time a schema without a generated
 * validator or a CEL rule is checked rather than when admission is loaded. Admission is itself
 * loaded on first use (it is part of the pipeline bundle, which holds @bufbuild/cel; ajv stays
 * outside it, beside the generated validators that use its runtime).
 *
 * Internal module.
 */
import type * as celModule from '@bufbuild/cel';
import type * as celExtModule from '@bufbuild/cel/ext';
import type * as ajvModule from 'ajv';
import { onFirstUse } from '../lazy-modules';

/* eslint-disable @typescript-eslint/no-require-imports */

/** The `ajv` module (JSON-schema validation). */
export const ajv = onFirstUse<typeof ajvModule>(() => require('ajv'));

/** The `@bufbuild/cel` module (CEL evaluation). */
export const cel = onFirstUse<typeof celModule>(() => require('@bufbuild/cel'));

/** The `@bufbuild/cel/ext` module (the `strings` extension library). */
export const celExt = onFirstUse<typeof celExtModule>(() => require('@bufbuild/cel/ext'));
