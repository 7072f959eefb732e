/**
 * A new Dynamo object as the API server stores it after CREATE — the CRD's structural defaults and
 * the operator's defaulting webhook, exactly as validation applies them before it checks the rules —
 * and the validation options that describe a given operator. What the render engine works from.
 */
import { defaultComponentDeployment, defaultGraphDeployment } from './defaulting';
import { withoutProviderOverrides } from './operator-rules';
import { ValidateOptions } from './options';
import { JsonMap } from '../model/json';
import { OperatorSettings } from '../model/operator-settings';
import { operatorHas } from '../model/operator-version';
import { DcdJson, DgdJson } from '../model/v1beta1';

/**
 * Validation options that describe the same operator as `settings` (the same words: `version`,
 * `groveAvailable`, `checkpointEnabled`); `clusterObjects` are the documents admission may read as
 * cluster state (see `ValidateOptions.clusterObjects`).
 */
export function validateOptionsFor(settings: OperatorSettings, clusterObjects?: readonly unknown[]): ValidateOptions {
  const { version, groveAvailable, checkpointEnabled } = settings;
  const operator: ValidateOptions = { version, groveAvailable, checkpointEnabled };
  return clusterObjects === undefined ? operator : { ...operator, clusterObjects };
}

/**
 * Returns the graph as stored after a CREATE. The input is not modified. Fields the operator's CRD
 * does not have yet (`providerOverride` before `OPERATOR_GATES.providerOverride`) are pruned, as
 * the API server prunes unknown fields.
 */
export function admitNewGraph(input: DgdJson, settings: OperatorSettings): DgdJson {
  return storedGraphOf(defaultGraphDeployment(input as unknown as JsonMap, validateOptionsFor(settings)).doc, settings);
}

/**
 * The graph as stored, from the graph as the defaulting webhook left it on create (`admitNewGraph`
 * without the defaulting, for a graph validation has defaulted already): the fields the operator's
 * CRD does not have yet pruned.
 */
export function storedGraphOf(defaulted: JsonMap, settings: OperatorSettings): DgdJson {
  const pruned = operatorHas(settings.version, 'providerOverride') ? defaulted : withoutProviderOverrides(defaulted);
  return pruned as unknown as DgdJson;
}

/** Returns a standalone component deployment as stored after a CREATE. The input is not modified. */
export function admitNewComponent(input: DcdJson): DcdJson {
  return defaultComponentDeployment(input as unknown as JsonMap) as unknown as DcdJson;
}
