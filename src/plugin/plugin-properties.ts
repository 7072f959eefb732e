/**
 * The `properties:` of the validation plugin in `cdk8s.yaml`, checked and turned into the operator
 * the manifests are validated for.
 */
import * as path from 'path';
import { OperatorConfiguration, OperatorOptions } from '../constructs/operator-options';
import { operatorSettingsOf } from '../constructs/operator-settings-of';
import { isOperatorOption, OPERATOR_OPTION_NAMES, operatorOptionProblem } from '../constructs/props-check';
import { OperatorSettings } from '../model/operator-settings';

/** The property naming an operator configuration file. */
export const OPERATOR_CONFIG_FILE_PROPERTY = 'operatorConfigFile';
/** The property naming a values file of the platform chart. */
export const HELM_VALUES_FILE_PROPERTY = 'helmValuesFile';
/** The properties naming the release of `helmValuesFile` (they need it). */
export const HELM_RELEASE_PROPERTIES: readonly string[] = ['helmReleaseName', 'helmNamespace'];

/** Properties that name where settings come from rather than a setting. */
const SOURCE_PROPERTIES: readonly string[] = [OPERATOR_CONFIG_FILE_PROPERTY, HELM_VALUES_FILE_PROPERTY, ...HELM_RELEASE_PROPERTIES];

const WHERE = 'validation plugin properties';

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

/**
 * The operator options among `properties`, type-checked: every key must be an `OperatorOptions`
 * name (or one of `operatorConfigFile`, `helmValuesFile`, `helmReleaseName`, `helmNamespace`)
 * holding a value of that option's type (checked as the `operator` prop of a construct is, see
 * `operatorOptionProblem`). Throws on the first unknown key or wrongly typed value, naming both.
 */
export function operatorOptionsOfProperties(properties: { readonly [key: string]: unknown }): OperatorOptions {
  const options: { [key: string]: unknown } = {};
  for (const key of Object.keys(properties).sort()) {
    const value = properties[key];
    if (SOURCE_PROPERTIES.includes(key) || value === undefined || value === null) continue;
    if (!isOperatorOption(key)) {
      const known = [...OPERATOR_OPTION_NAMES, ...SOURCE_PROPERTIES].sort().join(', ');
      throw new Error(`${WHERE}: unknown property "${key}"; known properties: ${known}`);
    }
    const problem = operatorOptionProblem(key, key, value);
    if (problem !== undefined) throw new Error(`${WHERE}: ${problem}`);
    options[key] = value;
  }
  return options as OperatorOptions;
}

/** A string property that is set, or undefined; throws when it is set to something else. */
function stringProperty(properties: { readonly [key: string]: unknown }, key: string, what: string): string | undefined {
  const value = properties[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value === '') throw new Error(`${WHERE}: ${key}: must be ${what}, got ${describeValue(value)}`);
  return value;
}

/**
 * The operator settings the plugin validates for, each source winning over the one before: the
 * defaults of a default platform install; the platform chart values file named by `helmValuesFile`
 * (of the release `helmReleaseName` in `helmNamespace`); the configuration file named by
 * `operatorConfigFile`; the other properties. Files are relative to `baseDir`. Throws on a bad
 * property or file.
 */
export function operatorSettingsOfProperties(properties: { readonly [key: string]: unknown }, baseDir: string): OperatorSettings {
  const file = stringProperty(properties, OPERATOR_CONFIG_FILE_PROPERTY, 'a file path');
  const valuesFile = stringProperty(properties, HELM_VALUES_FILE_PROPERTY, 'a file path');
  const releaseName = stringProperty(properties, 'helmReleaseName', 'a Helm release name');
  const namespace = stringProperty(properties, 'helmNamespace', 'a namespace name');
  if (valuesFile === undefined && (releaseName !== undefined || namespace !== undefined)) {
    throw new Error(`${WHERE}: ${releaseName !== undefined ? 'helmReleaseName' : 'helmNamespace'}: needs ${HELM_VALUES_FILE_PROPERTY} (the release's values file)`);
  }
  const fromHelm: OperatorOptions = valuesFile === undefined ? {}
    : OperatorConfiguration.fromHelmValuesFile(path.resolve(baseDir, valuesFile), { releaseName, namespace });
  const fromFile: OperatorOptions = file === undefined ? {} : OperatorConfiguration.fromFile(path.resolve(baseDir, file));
  return operatorSettingsOf({ ...fromHelm, ...fromFile, ...operatorOptionsOfProperties(properties) });
}
