/**
 * Structural validation with ajv: CRD structural schemas and the Kubernetes OpenAPI schema.
 */
export { validateEmittedObject, validateEmittedObjects, isCheckedKind } from './emitted';
export { checkKubernetesObject, checkEmbeddedType, kubernetesKindDefinition } from './kubernetes';
export { QUANTITY_FORMAT_MESSAGE } from './report';
