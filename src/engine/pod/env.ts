/**
 * Container environment (docs/design/render-core.md §6): merging by name with the operator's precedence and
 * byte-wise name sorting, and the standard env the operator configuration injects (§6.3).
 */
import { ContainerJson, EnvVarJson, objectItems, valueEnv } from './k8s-json';
import { copyJson } from '../../model/json-copy';
import { OperatorSettings } from '../../model/operator-settings';

/**
 * `low` and `high` merged by name, `high` winning on a clash (within one list the later entry
 * wins), sorted by name. The order either side was written in is not kept.
 */
export function mergeEnvs(low: readonly EnvVarJson[] | undefined, high: readonly EnvVarJson[] | undefined): EnvVarJson[] {
  const byName = new Map<string, EnvVarJson>();
  for (const list of [low, high]) {
    for (const env of objectItems<EnvVarJson>(list)) byName.set(typeof env.name === 'string' ? env.name : '', copyJson(env));
  }
  // byte-wise (UTF-16 code unit) order, as compareStrings; the names are distinct
  const names = [...byName.keys()].sort();
  return names.map(name => byName.get(name)!);
}

/**
 * The env every main container and frontend sidecar receives from the operator's
 * `infrastructure` settings: `NATS_SERVER`, `ETCD_ENDPOINTS`, `MODEL_EXPRESS_URL`,
 * `PROMETHEUS_ENDPOINT`, each only when configured.
 */
export function standardEnv(settings: OperatorSettings): EnvVarJson[] {
  const env: EnvVarJson[] = [];
  if (settings.natsAddress) env.push(valueEnv('NATS_SERVER', settings.natsAddress));
  if (settings.etcdAddress) env.push(valueEnv('ETCD_ENDPOINTS', settings.etcdAddress));
  if (settings.modelExpressUrl) env.push(valueEnv('MODEL_EXPRESS_URL', settings.modelExpressUrl));
  if (settings.prometheusEndpoint) env.push(valueEnv('PROMETHEUS_ENDPOINT', settings.prometheusEndpoint));
  return env;
}

/** Merges the standard env under the container's env (container entries win); the env ends up sorted. */
export function addStandardEnv(container: ContainerJson, settings: OperatorSettings): void {
  container.env = mergeEnvs(standardEnv(settings), container.env);
}
