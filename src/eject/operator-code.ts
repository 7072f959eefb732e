/**
 * The operator an ejected app is written for: the settings given to `eject` (by its OPERATOR options)
 * that differ from a default platform install, as one `OperatorOptions` constant every graph and
 * component deployment of the app names (`operator: operator`). Without such options the app names
 * no operator and synthesizes for a default install, as the constructs do.
 */
import { dynamo, isEmptyStruct, list, plain, plainStruct, Statement, struct } from './code';
import { jsonEqual } from '../model/json';
import { DEFAULT_OPERATOR_SETTINGS, OperatorSettings } from '../model/operator-settings';

/** The settings of `settings` that differ from a default install, in the order of the settings. */
export function nonDefaultSettings(settings: OperatorSettings | undefined): Array<readonly [string, unknown]> {
  if (settings === undefined) return [];
  const keys = Object.keys(DEFAULT_OPERATOR_SETTINGS) as Array<keyof OperatorSettings>;
  return keys
    .filter(key => !jsonEqual(settings[key], DEFAULT_OPERATOR_SETTINGS[key]))
    .map(key => [key, settings[key]] as const);
}

/** `const operator: OperatorOptions = {...};`, or undefined when every setting is the default. */
export function operatorDeclaration(settings: OperatorSettings | undefined, variable: string): Statement | undefined {
  const options = dynamo('OperatorOptions');
  const value = struct(options, nonDefaultSettings(settings).map(([key, v]) => {
    if (key === 'registrySecrets' && Array.isArray(v)) return [key, list({ struct: dynamo('RegistrySecret') }, v.map(s => plainStruct(dynamo('RegistrySecret'), s)))] as const;
    return [key, plain(v)] as const;
  }));
  return isEmptyStruct(value) ? undefined : { kind: 'declare', name: variable, value, annotate: options };
}
