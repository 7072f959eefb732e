/**
 * CEL rule evaluation (`x-kubernetes-validations`) over structural CRD schemas.
 */
export { checkCelRules, CEL_RULE, INTERNAL_RULE } from './check';
export type { CelCheckOptions } from './check';
export type { CelRule, CelSchemaNode } from './schema';
export { checkDynamoCelRules, DCD_CEL_SCHEMA, DGD_CEL_SCHEMA, DYNAMO_CEL_ROWS, DYNAMO_EMBEDDED_CEL, dynamoCelRow } from './dynamo-rules';
