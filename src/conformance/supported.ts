/**
 * Which of the operator's golden scenarios (`<group>/<scenario>` under the conformance folder)
 * this library is expected to reproduce, and how each one is rendered.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import type { KindRef } from './matcher';

/** The engine's output modes a scenario can be rendered with. */
export type ConformanceOutputMode = 'graph' | 'components' | 'workloads';

/**
 * Scenarios that must match; the conformance run fails when one of them does not.
 * Others are still rendered and matched when possible, and reported as skipped.
 */
export const SUPPORTED_SCENARIOS: readonly string[] = ['dgd/components'];

/** The output mode each known scenario is rendered with. */
export const SCENARIO_OUTPUT_MODES: Readonly<Record<string, ConformanceOutputMode>> = {
  'dgd/components': 'components',
  'dcd/deployment': 'workloads',
  'dcd/lws': 'workloads',
  'dgd/grove': 'workloads',
};

/** The output mode of a scenario not listed in {@link SCENARIO_OUTPUT_MODES}. */
export const DEFAULT_OUTPUT_MODE: ConformanceOutputMode = 'workloads';

/**
 * The kinds each output mode is asserted on. A mode that stops at an intermediate level (the
 * `components` mode renders the DynamoComponentDeployments a graph expands to, not the workloads
 * the component controller makes of them) is not asked for the kinds below that level.
 * A mode without an entry is asserted on every kind in `output.yaml`.
 */
export const OUTPUT_MODE_KINDS: Readonly<Partial<Record<ConformanceOutputMode, readonly KindRef[]>>> = {
  components: [{ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment' }],
};

export function scenarioOutputMode(id: string): ConformanceOutputMode {
  return SCENARIO_OUTPUT_MODES[id] ?? DEFAULT_OUTPUT_MODE;
}

export function isSupportedScenario(id: string): boolean {
  return SUPPORTED_SCENARIOS.includes(id);
}
