/**
 * A new graph as the API server stores it after CREATE: the operator's defaulting webhook and the
 * CRD's structural defaults, exactly as validation applies them before checking the rules.
 */
import { OperatorSettings } from './operator-settings';
import { JsonMap } from '../model/json';
import { DgdJson } from '../model/v1beta1';
import { defaultGraphDeployment } from '../validation/defaulting';
import { ValidateOptions } from '../validation/options';

/** Validation options that describe the same operator as `settings`. */
export function validateOptionsFor(settings: OperatorSettings): ValidateOptions {
  return { operatorVersion: settings.version, groveEnabled: settings.groveAvailable, checkpointEnabled: settings.checkpointEnabled };
}

/** Returns the graph as stored after a CREATE. The input is not modified. */
export function admitNewGraph(input: DgdJson, settings: OperatorSettings): DgdJson {
  return defaultGraphDeployment(input as unknown as JsonMap, validateOptionsFor(settings)).doc as unknown as DgdJson;
}
