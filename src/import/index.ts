/**
 * Reading what users give the library (YAML as kubectl reads it, the operator's configuration and
 * Helm values, v1alpha1 documents): this layer's surface for code outside the library (tests,
 * tools). The library itself reaches each part through its module.
 */
export {
  decodeUtf8, isAmbiguousPlainScalar, MAX_ALIAS_EXPANSION, MAX_NESTING_DEPTH, parseYamlBytes,
  parseYamlDocuments, resolvePlainScalar, stringifyYamlDocuments, YamlInputError,
} from './documents';
export {
  DEFAULT_HELM_NAMESPACE, DEFAULT_HELM_RELEASE_NAME, deriveOperatorSettingsFromHelmValues, mergeHelmValues,
  parseHelmValues,
} from './helm-values';
export { parseOperatorConfiguration } from './operator-config';
export { convertComponentObject, convertGraphObject } from './v1alpha1/convert';
export { CONVERSION_GO_TYPES } from './v1alpha1/go-types';
export { goView } from './v1alpha1/go-view';
