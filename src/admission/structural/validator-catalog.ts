/**
 * Every schema the library validates with, in the modes it validates it in: what the build
 * generates validate functions for (scripts/generate-validators.ts, validators.ts).
 *
 * - the Dynamo document schemas of the admission check (`checkStructure`), quick and full (not the
 *   DynamoGraphDeploymentRequest's: its embedded JobSpec makes a 1.8 MB function, compiled at run
 *   time by the processes that check a request rather than shipped to every user);
 * - the custom resource kinds of the `workloads` output (emitted.ts), quick and full;
 * - the Kubernetes kinds and embedded types (kubernetes.ts), quick and full;
 * - the CRD schemas with their defaults (ajv-defaults.ts), defaulting.
 *
 * Internal module.
 */
import type { SchemaObject } from 'ajv';
import { defaultingJsonSchema } from './ajv-defaults';
import { sharedSchemasOf } from './ajv-instance';
import { documentJsonSchema } from './crd';
import { emittedKindJsonSchemas } from './emitted';
import { kubernetesJsonSchemas } from './kubernetes';
import { ValidatorMode } from './validators';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS } from '../../../imports/nvidia.com.schema';
import { DCD_SCHEMA, DGD_SCHEMA } from '../dynamo-schema';

/** One schema of the catalog. */
export interface CatalogEntry {
  /** What it validates (for messages). */
  readonly name: string;
  readonly schema: SchemaObject;
  readonly modes: readonly ValidatorMode[];
  /** The schemas it may reference (by `$id`), as the instances of its modes have them. */
  readonly shared: readonly SchemaObject[];
}

const CHECKING: readonly ValidatorMode[] = ['fast', 'full'];

/** The catalog, built anew (the shared schemas registered first, as validation registers them). */
export function validatorCatalog(): CatalogEntry[] {
  const entries: Array<Omit<CatalogEntry, 'shared'>> = [
    { name: 'DynamoGraphDeployment (admission)', schema: documentJsonSchema(DGD_SCHEMA), modes: CHECKING },
    { name: 'DynamoComponentDeployment (admission)', schema: documentJsonSchema(DCD_SCHEMA), modes: CHECKING },
    ...Object.entries(emittedKindJsonSchemas()).map(([name, schema]) => ({ name, schema, modes: CHECKING })),
    ...Object.entries(kubernetesJsonSchemas()).map(([name, schema]) => ({ name, schema, modes: CHECKING })),
    { name: 'DynamoGraphDeployment (defaults)', schema: defaultingJsonSchema(DGD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS), modes: ['defaulting'] },
    { name: 'DynamoComponentDeployment (defaults)', schema: defaultingJsonSchema(DCD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS), modes: ['defaulting'] },
  ];
  return entries.map((entry) => ({ ...entry, shared: sharedSchemasOf(entry.modes[0]) }));
}
