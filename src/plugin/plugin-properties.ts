/**
 * The `properties:` of the validation plugin in `cdk8s.yaml`, checked and turned into the operator
 * the manifests are validated for.
 */
import * as path from 'path';
import { OperatorConfiguration, OperatorOptions } from '../constructs/operator-options';
import { operatorSettingsOf } from '../constructs/operator-settings-of';
import { DEFAULT_OPERATOR_SETTINGS, OperatorSettings } from '../engine/operator-settings';

/** The property naming an operator configuration file. */
export const OPERATOR_CONFIG_FILE_PROPERTY = 'operatorConfigFile';

const WHERE = 'validation plugin properties';

function describeValue(value: unknown): string {
  const text = JSON.stringify(value);
  return text === undefined ? String(value) : text;
}

function checkRegistrySecrets(value: unknown): void {
  const bad = (detail: string): Error => new Error(`${WHERE}: registrySecrets: ${detail}, got ${describeValue(value)}`);
  if (!Array.isArray(value)) throw bad('must be a list of { name, registries }');
  value.forEach((secret, i) => {
    const entry = secret as { name?: unknown; registries?: unknown } | null;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) throw bad(`[${i}] must be a map`);
    if (typeof entry.name !== 'string' || entry.name === '') throw bad(`[${i}].name must be a non-empty string`);
    if (!Array.isArray(entry.registries) || entry.registries.some(r => typeof r !== 'string')) {
      throw bad(`[${i}].registries must be a list of strings`);
    }
  });
}

/**
 * The operator options among `properties`, type-checked: every key must be an `OperatorOptions`
 * name (or `operatorConfigFile`) holding a value of that option's type. Throws on the first
 * unknown key or wrongly typed value, naming both.
 */
export function operatorOptionsOfProperties(properties: { readonly [key: string]: unknown }): OperatorOptions {
  const options: { [key: string]: unknown } = {};
  for (const key of Object.keys(properties).sort()) {
    const value = properties[key];
    if (key === OPERATOR_CONFIG_FILE_PROPERTY || value === undefined || value === null) continue;
    if (!Object.prototype.hasOwnProperty.call(DEFAULT_OPERATOR_SETTINGS, key)) {
      const known = [...Object.keys(DEFAULT_OPERATOR_SETTINGS), OPERATOR_CONFIG_FILE_PROPERTY].sort().join(', ');
      throw new Error(`${WHERE}: unknown property "${key}"; known properties: ${known}`);
    }
    if (key === 'registrySecrets') {
      checkRegistrySecrets(value);
    } else {
      const expected = typeof DEFAULT_OPERATOR_SETTINGS[key as keyof OperatorSettings];
      if (typeof value !== expected) throw new Error(`${WHERE}: ${key}: must be a ${expected}, got ${describeValue(value)}`);
    }
    options[key] = value;
  }
  return options as OperatorOptions;
}

/**
 * The operator settings the plugin validates for: the configuration file named by
 * `operatorConfigFile` (relative to `baseDir`), then the other properties, which win over the
 * file; the Helm defaults for whatever neither sets. Throws on a bad property or file.
 */
export function operatorSettingsOfProperties(properties: { readonly [key: string]: unknown }, baseDir: string): OperatorSettings {
  const file = properties[OPERATOR_CONFIG_FILE_PROPERTY];
  if (file !== undefined && file !== null && (typeof file !== 'string' || file === '')) {
    throw new Error(`${WHERE}: ${OPERATOR_CONFIG_FILE_PROPERTY}: must be a file path, got ${describeValue(file)}`);
  }
  const fromFile: OperatorOptions = typeof file === 'string' ? OperatorConfiguration.fromFile(path.resolve(baseDir, file)) : {};
  return operatorSettingsOf({ ...fromFile, ...operatorOptionsOfProperties(properties) });
}
