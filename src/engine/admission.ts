/**
 * A new graph as the API server stores it after CREATE: the operator's defaulting webhook and the
 * CRD's structural defaults, exactly as validation applies them before checking the rules.
 */
import { OperatorSettings } from './operator-settings';
import { operatorHas } from './operator-version';
import { JsonMap } from '../model/json';
import { DgdJson } from '../model/v1beta1';
import { defaultGraphDeployment } from '../validation/defaulting';
import { withoutProviderOverrides } from '../validation/operator-rules';
import { ValidateOptions } from '../validation/options';

/**
 * Validation options that describe the same operator as `settings`; `clusterObjects` are the
 * documents admission may read as cluster state (see `ValidateOptions.clusterObjects`).
 */
export function validateOptionsFor(settings: OperatorSettings, clusterObjects?: readonly unknown[]): ValidateOptions {
  const options: ValidateOptions = {
    operatorVersion: settings.version, groveEnabled: settings.groveAvailable, checkpointEnabled: settings.checkpointEnabled,
  };
  return clusterObjects === undefined ? options : { ...options, clusterObjects };
}

/**
 * Returns the graph as stored after a CREATE. The input is not modified. Fields the operator's CRD
 * does not have yet (`providerOverride` before `OPERATOR_GATES.providerOverride`) are pruned, as
 * the API server prunes unknown fields.
 */
export function admitNewGraph(input: DgdJson, settings: OperatorSettings): DgdJson {
  const stored = defaultGraphDeployment(input as unknown as JsonMap, validateOptionsFor(settings)).doc;
  const pruned = operatorHas(settings.version, 'providerOverride') ? stored : withoutProviderOverrides(stored);
  return pruned as unknown as DgdJson;
}
