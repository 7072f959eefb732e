/**
 * The vocabulary shared by the engine, admission, the pipeline, the command line and the constructs
 * (the v1beta1 document types, operator settings and versions, JSON helpers, errors and reports):
 * this layer's surface for code outside the library (tests, tools). The library itself reaches each
 * part through its module, so that loading the constructs loads no more than they use.
 */
export { closestName, editDistance } from './did-you-mean';
export { isMap, jsonEqual } from './json';
export type { JsonMap } from './json';
export { copyJson, copyJsonForOutput, CopyRecord, jsonRoundTrip } from './json-copy';
export {
  DEFAULT_OPERATOR_SETTINGS, DEFAULT_OPERATOR_VERSION, resolveOperatorSettings, supportedOperatorSettings,
} from './operator-settings';
export type { OperatorSettings } from './operator-settings';
export {
  OPERATOR_1_4, OPERATOR_1_5, OPERATOR_GATES, OPERATOR_NEWER, operatorBehaviourVersion, operatorHas,
  operatorVersionProblem, parseOperatorVersion, SUPPORTED_OPERATOR_VERSIONS,
} from './operator-version';
export { RenderError } from './render-error';
export { isDcd, isDgd } from './v1beta1';
export type { ComponentSpecJson, ComponentTypeValue, DcdJson, DgdJson, JsonObject } from './v1beta1';
export { formatViolation } from './violation-report';
export type { EmittedViolation, Violation } from './violation-report';
export { ANNOTATION_ORIGIN_VERSION } from './well-known';
