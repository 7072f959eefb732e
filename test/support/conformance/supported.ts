/**
 * Which of the operator's golden scenarios (`<group>/<scenario>` under the conformance folder)
 * this library is expected to reproduce, how each one is rendered, and which are deferred to a
 * later stage (with the reason).
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import type { KindRef } from './matcher';
import type { OperatorSettings } from '../facade';

/** The engine's output modes a scenario can be rendered with. */
export type ConformanceOutputMode = 'graph' | 'components' | 'workloads';

/**
 * The namespace every scenario is rendered in. The goldens were recorded in a random
 * `clusterenv-<suffix>` namespace and match it with `clusterenv-.*` patterns.
 */
export const CONFORMANCE_NAMESPACE = 'clusterenv-conformance';

/**
 * The operator the goldens were recorded with (docs/design/render-core.md §16): the main branch of 2026-08-21,
 * operator version 1.5.0 (as its charts call it), the Helm defaults, gates
 * `{grove: true, lws: true}`, and `namespace.restricted` set to the test namespace, so no
 * planner/EPP RBAC is created per graph. With the Grove gate on, a graph takes the component
 * provider only when it is annotated `nvidia.com/enable-grove: "false"` (admission decides that,
 * as the operator's defaulting webhook does).
 */
export const CONFORMANCE_OPERATOR: Readonly<Partial<OperatorSettings>> = {
  version: '1.5.0',
  groveAvailable: true,
  lwsAvailable: true,
  restrictedNamespace: CONFORMANCE_NAMESPACE,
  // the goldens' operator does not run with the platform chart's configuration: its Grove
  // termination delay is the operator's own fallback, 15m (a default platform install writes 4h)
  groveTerminationDelay: '15m',
};

/**
 * The origin version the goldens' operator stamped on new graphs. Their test harness starts the
 * operator with a version from `git describe` of its commit, which names a 1.4 tag (the goldens
 * match the annotation with `1\.4\..*`), not the 1.5.0 its charts install it as. The runner
 * stamps this value on every input graph without the annotation, as that webhook did; the
 * behaviour rendered is that of CONFORMANCE_OPERATOR.version.
 */
export const CONFORMANCE_ORIGIN_VERSION = '1.4.0-g2a6da14c8361';

/**
 * Scenarios that must match; the conformance run fails when one of them does not.
 */
export const SUPPORTED_SCENARIOS: readonly string[] = ['dcd/deployment', 'dcd/lws', 'dgd/components', 'dgd/grove'];

/**
 * Scenarios that belong to a later stage, with the reason. They are reported as skipped; the
 * engine refuses them with a RenderError rather than rendering them wrongly.
 */
export const DEFERRED_SCENARIOS: Readonly<Record<string, string>> = {};

/**
 * Scenarios asserted only up to a stage short of their golden output, with the reason: the
 * runner checks the stage (`runPartialStage` in scenario.ts), fails the run when the stage fails,
 * and still matches the full golden output, reporting its differences as what is left (never as
 * passed, and never silently skipped). The DynamoGraphDeploymentRequest goldens record what the
 * operator stored after the real profiler ran; before profiling the operator creates the
 * profiling Job, which is what the library renders for a request.
 */
export const PARTIAL_SCENARIOS: Readonly<Record<string, string>> = (() => {
  const beforeProfiling = 'asserted up to profiling (the request admitted, its profiling Job rendered); the graph the profiler generates is rendered only with the profiler\'s environment (`cdk8s-dynamo plan`)';
  return { 'dgdr/deployment': beforeProfiling, 'dgdr/grove': beforeProfiling, 'dgdr/lws': beforeProfiling };
})();

/** The output mode each known scenario is rendered with. */
export const SCENARIO_OUTPUT_MODES: Readonly<Record<string, ConformanceOutputMode>> = {
  'dgd/components': 'workloads',
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

/** The output mode a scenario is rendered with. */
export function scenarioOutputMode(id: string): ConformanceOutputMode {
  return SCENARIO_OUTPUT_MODES[id] ?? DEFAULT_OUTPUT_MODE;
}

