/** Structural defaults of the v1beta1 CRDs, applied the way the API server stores objects. */
import { applySchemaDefaults, DefaultingSchemaNode } from './schema-defaults';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS } from '../../../imports/nvidia.com.schema';
import { DcdJson, DgdJson } from '../../model/v1beta1';

export function applyStoredDefaults(doc: DgdJson | DcdJson): void {
  const schema = (doc.kind === 'DynamoGraphDeployment' ? DGD_V1BETA1_SCHEMA : DCD_V1BETA1_SCHEMA) as DefaultingSchemaNode;
  applySchemaDefaults(doc, schema, EMBEDDED_K8S_DEFAULTS as { [k: string]: DefaultingSchemaNode });
}
