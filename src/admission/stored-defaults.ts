/** Structural defaults of the v1beta1 CRDs, applied the way the API server stores objects. */
import { applySchemaDefaults, DefaultingSchemaNode } from './schema-defaults';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS } from '../../imports/nvidia.com.schema';

/** Adds, in place, every default of the CRD schema of the document's kind (DGD, else DCD). */
export function applyStoredDefaults(doc: unknown): void {
  const schema = ((doc as { kind?: unknown })?.kind === 'DynamoGraphDeployment' ? DGD_V1BETA1_SCHEMA : DCD_V1BETA1_SCHEMA) as DefaultingSchemaNode;
  applySchemaDefaults(doc, schema, EMBEDDED_K8S_DEFAULTS as { [k: string]: DefaultingSchemaNode });
}
