/**
 * What the operator's admission (its webhooks and the API server's checks of its CRDs) refuses and
 * how it stores a document: the admission layer's surface for code outside the library's pipeline
 * (tests, tools). The library itself reaches each part through its module.
 */
export type { CelCheckOptions } from './cel';
export { CEL_RULE, checkCelRules, INTERNAL_RULE } from './cel/check';
export { compileExpression, isCompileError, prebuiltParse, prebuiltTexts } from './cel/compile';
export {
  checkDynamoCelRules, DCD_CEL_SCHEMA, DGD_CEL_SCHEMA, DYNAMO_CEL_ROWS, DYNAMO_EMBEDDED_CEL, dynamoCelRow,
  TARGET_API_COMPONENT_RULES,
} from './cel/dynamo-rules';
export type { CelRule, CelSchemaNode } from './cel/schema';
export { celPropertyName } from './cel/values';
export { pathwayOf } from './component-context';
export { cliqueNames, longestCliqueName } from './component-shape';
export { defaultComponentDeployment, defaultGraphDeployment } from './defaulting';
export { componentWorkloadRecords, graphWorkloadRecords } from './derived-names';
export { DCD_SCHEMA, DGD_SCHEMA, STRUCTURAL_RULE } from './dynamo-schema';
export { checkEmittedObject, checkEmittedObjects } from './emitted-admission';
export { FieldPath } from './field-path';
export { API_SERVER_CHECKS, IMPLEMENTED_RULES, NOT_APPLICABLE_RULES } from './rule-catalog';
export { allRuleDocs, offlineStatus, ruleDoc, ruleDocAnchor, ruleDocReference } from './rule-docs';
export { applySchemaDefaults } from './schema-defaults';
export type { DefaultingSchemaNode } from './schema-defaults';
export type { SchemaOverlay } from './schema-node';
export { applyStoredDefaults } from './stored-defaults';
export { admitNewComponent, admitNewGraph, validateOptionsFor } from './stored-object';
export { checkEmbeddedType, isCheckedKind, validateEmittedObject, validateEmittedObjects } from './structural';
export { checkStructure } from './structural-check';
export { applyAjvDefaults } from './structural/ajv-defaults';
export { compileAtRuntime, runtimeCompileCount, sharedSchemasOf } from './structural/ajv-instance';
export { checkCompiled, compileCrdSchema, compiledDocumentSchema } from './structural/crd';
export { crdJsonSchema } from './structural/crd-json-schema';
export { emittedObjectViolations } from './structural/emitted';
export type { StructuralNode } from './structural/json-schema';
export { itemsNotNullErrors } from './structural/keyword-runtime';
export { QUANTITY_FORMAT_MESSAGE } from './structural/report';
export { templateValidationCount } from './structural/templates';
export { validatorCatalog } from './structural/validator-catalog';
export type { CatalogEntry } from './structural/validator-catalog';
export { prebuiltValidator } from './structural/validators';
export type { ValidatorMode } from './structural/validators';
export { checkUpdateRules, validateUpdate } from './update-rules';
export type { OldSource, SubmitMode, UpdateOptions } from './update-rules';
export { formatViolation, uncheckedClusterRules, validateDocument } from './validate';
export type { UncheckedRule, ValidateOptions, Violation } from './validate';
export { ViolationSink } from './violation';
