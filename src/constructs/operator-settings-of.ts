/**
 * The one place where construct `OperatorOptions` become the engine's `OperatorSettings`: validation
 * and every output mode of every construct resolve their operator here, so they always agree.
 */
import { OperatorOptions } from './operator-options';
import { parseGoDuration } from '../go/duration';
import { DISCOVERY_BACKENDS, ISTIO_TLS_MODES } from '../import/operator-config';
import { DEFAULT_OPERATOR_SETTINGS, OperatorSettings, resolveOperatorSettings } from '../model/operator-settings';
import { operatorVersionProblem } from '../model/operator-version';
import { RegistrySecret } from '../model/registry-secret';

// Compile-time guarantees: every setting has an option of the same name and a compatible type.
type MissingOption = Exclude<keyof OperatorSettings, keyof OperatorOptions>;
const everySettingIsAnOption: [MissingOption] extends [never] ? true : MissingOption = true;
const optionsFitSettings = (o: OperatorOptions): Partial<OperatorSettings> => o;
void everySettingIsAnOption;
void optionsFitSettings;

const SETTING_KEYS = Object.keys(DEFAULT_OPERATOR_SETTINGS) as Array<keyof OperatorSettings>;

/**
 * The settings described by `options` (unset options take the Helm defaults). Only known settings
 * are read; arrays are copied. Throws when a value is one the operator would refuse.
 */
export function operatorSettingsOf(options: OperatorOptions | undefined): OperatorSettings {
  const partial: { [key: string]: unknown } = {};
  for (const key of SETTING_KEYS) {
    const value = options?.[key];
    if (value === undefined) continue;
    partial[key] = key === 'registrySecrets'
      ? (value as RegistrySecret[]).map(s => ({ name: s.name, registries: [...s.registries] }))
      : value;
  }
  const settings = resolveOperatorSettings(partial as Partial<OperatorSettings>);
  if (!DISCOVERY_BACKENDS.includes(settings.discoveryBackend)) {
    throw new Error(`operator.discoveryBackend: Unsupported value: ${JSON.stringify(settings.discoveryBackend)}: supported values: ${DISCOVERY_BACKENDS.map(b => JSON.stringify(b)).join(', ')}`);
  }
  const delay = parseGoDuration(settings.groveTerminationDelay);
  if (delay === undefined) {
    throw new Error(`operator.groveTerminationDelay: must be a duration such as "15m", got ${JSON.stringify(settings.groveTerminationDelay)}`);
  }
  const problems = startupProblems(settings, delay);
  if (problems.length > 0) throw new Error(problems.join('\n'));
  if (settings.version === '') throw new Error('operator.version: must be a version such as "1.5.0", got ""');
  const versionProblem = operatorVersionProblem(settings.version);
  if (versionProblem !== undefined) throw new Error(`operator.version: ${versionProblem}`);
  return settings;
}

/**
 * The settings the operator refuses to start with (deploy/operator/api/config/validation/validation.go,
 * the same in 1.4.0 and 1.5.0): an empty MPI SSH secret name or namespace, a negative Grove termination
 * delay, and with the Istio mesh on an unknown TLS mode or MUTUAL without a client certificate and key.
 * Rendering for such an operator would show objects it never creates.
 */
function startupProblems(settings: OperatorSettings, delay: bigint): string[] {
  const problems: string[] = [];
  if (settings.mpiSshSecretName === '') problems.push('operator.mpiSshSecretName: Required value: the operator needs the name of its MPI SSH key Secret');
  if (settings.mpiSshSecretNamespace === '') problems.push('operator.mpiSshSecretNamespace: Required value: the operator needs the namespace of its MPI SSH key Secret');
  if (delay < 0n) problems.push(`operator.groveTerminationDelay: Invalid value: ${JSON.stringify(settings.groveTerminationDelay)}: must not be negative`);
  if (settings.serviceMeshProvider === 'istio') {
    const mode = settings.istioTlsMode;
    if (mode !== '' && !ISTIO_TLS_MODES.includes(mode)) {
      problems.push(`operator.istioTlsMode: Unsupported value: ${JSON.stringify(mode)}: supported values: ${ISTIO_TLS_MODES.map(m => JSON.stringify(m)).join(', ')}`);
    }
    if (mode === 'MUTUAL') {
      if (settings.istioClientCertificate === '') problems.push('operator.istioClientCertificate: Required value: Istio tlsMode "MUTUAL" needs a client certificate');
      if (settings.istioPrivateKey === '') problems.push('operator.istioPrivateKey: Required value: Istio tlsMode "MUTUAL" needs a private key');
    }
  }
  return problems;
}
