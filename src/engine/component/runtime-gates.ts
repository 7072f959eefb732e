/**
 * Runtime feature gates (render-core §17): rendering that newer operators switch on only for
 * components whose runtime version is at least a minimum. The gates exist from operator 1.5.0
 * on; an older operator renders the snapshot behaviour whatever the runtime version.
 */
import { ComponentContext } from './context';
import { compareVersions, RuntimeVersion } from '../../model/runtime-version';

/** A rendering change tied to a minimum runtime version. */
export interface RuntimeGate {
  readonly name: string;
  readonly minimumRuntimeVersion: RuntimeVersion;
}

/** The first operator version with runtime-gated rendering. */
export const RUNTIME_GATES_OPERATOR_VERSION: RuntimeVersion = { major: 1, minor: 5, patch: 0 };

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

const OPERATOR_VERSION = /^[vV]?([0-9]+)(?:\.([0-9]+))?(?:\.([0-9]+))?(?:[-+].*)?$/;

/** The MAJOR.MINOR.PATCH of an operator version (`1.5.0`, `v1.5`, `1.5.0-rc.1`), or undefined. */
export function parseOperatorVersion(version: string): RuntimeVersion | undefined {
  const match = OPERATOR_VERSION.exec(version.trim());
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2] ?? 0), patch: Number(match[3] ?? 0) };
}

/** Whether an operator of this version renders runtime-gated defaults (1.5.0 or later). */
export function operatorHasRuntimeGates(operatorVersion: string): boolean {
  const version = parseOperatorVersion(operatorVersion);
  return version !== undefined && compareVersions(version, RUNTIME_GATES_OPERATOR_VERSION) >= 0;
}
