/**
 * The Go behaviour the library reproduces (encoding/json, sigs.k8s.io/yaml, resource.Quantity,
 * time.Duration, mergo): this layer's surface for code outside it (tests, tools). The library itself
 * reaches each part through its module.
 */
export { formatGoDuration, formatGoFloat, goJsonEncode, goQuote, goTypeRegistry, parseGoDuration } from './marshal';
export type { GoType } from './marshal';
export { mergeIntOrString, mergoMerge } from './mergo';
export {
  canonicalQuantity, compareQuantities, isWholeAmount, parseQuantity, QuantityParseError, schemaQuantity,
} from './quantity';
export { goSortedJson } from './sorted-json';
export { goJsonValue, readGoValue } from './value';
export { formatGoFloatG, goYamlKeyLess, marshalSigsYaml, resolvesAsString } from './yaml';
