/**
 * Runtime feature gates (docs/design/render-core.md §17): rendering that newer operators switch on only for
 * components whose runtime version is at least a minimum. The gates are known only from newer
 * operator sources (`OPERATOR_GATES.runtimeGatedDefaults`); the operators of 1.4.0 and 1.5.0 render
 * the same defaults whatever the runtime version.
 */
import { ComponentContext } from './defaults-context';
import { operatorHas } from '../../model/operator-version';
import { compareVersions, RuntimeVersion } from '../../model/runtime-version';

/** A rendering change tied to a minimum runtime version. */
export interface RuntimeGate {
  readonly name: string;
  readonly minimumRuntimeVersion: RuntimeVersion;
}

/** Workers report `DYN_HEALTH_CHECK_ENABLED=true`. */
export const CANARY_HEALTH_CHECKS: RuntimeGate = { name: 'CanaryHealthChecks', minimumRuntimeVersion: { major: 1, minor: 5, patch: 0 } };

/** Worker liveness tolerates three failures instead of one. */
export const INCREASED_WORKER_FAILURE_THRESHOLD: RuntimeGate = {
  name: 'IncreasedWorkerFailureThreshold',
  minimumRuntimeVersion: { major: 1, minor: 5, patch: 0 },
};

/** Whether a gate is on for a component: the operator has gates and the runtime version reaches the minimum. */
export function runtimeGateEnabled(gate: RuntimeGate, context: ComponentContext): boolean {
  return context.runtimeGatesAvailable
    && context.runtimeVersion !== undefined
    && compareVersions(context.runtimeVersion, gate.minimumRuntimeVersion) >= 0;
}

/** Whether an operator of this version renders runtime-gated defaults (see `OPERATOR_GATES.runtimeGatedDefaults`). */
export function operatorHasRuntimeGates(operatorVersion: string): boolean {
  return operatorHas(operatorVersion, 'runtimeGatedDefaults');
}
