/**
 * Worker defaults for `worker`, `prefill` and `decode` (docs/design/render-core.md §5.3, §6.2, §17): the Dynamo
 * system server on 9090, NIXL telemetry on 19090, probes on the system port.
 */
import { commonContainer, commonPodSpec, SYSTEM_PORT, SYSTEM_PORT_NAME } from './common';
import { ComponentContext } from './defaults-context';
import { CANARY_HEALTH_CHECKS, INCREASED_WORKER_FAILURE_THRESHOLD, runtimeGateEnabled } from './runtime-gates';
import { ComponentDefaults } from './type-defaults';
import { ContainerJson, tcpPort, valueEnv } from '../pod/k8s-json';

export const NIXL_PORT_NAME = 'nixl';
export const NIXL_PORT = 19090;
export const FORWARD_PASS_METRIC_PORT = 20380;

/** An HTTP probe on the system port. */
export function systemProbe(path: string, timings: Record<string, number>): Record<string, unknown> {
  return { httpGet: { path, port: SYSTEM_PORT_NAME }, ...timings };
}

/** Liveness, readiness and startup probes on the system port (workers and planner). */
export function systemProbes(livenessFailureThreshold: number): Pick<ContainerJson, 'livenessProbe' | 'readinessProbe' | 'startupProbe'> {
  return {
    livenessProbe: systemProbe('/live', { periodSeconds: 5, timeoutSeconds: 4, failureThreshold: livenessFailureThreshold }),
    readinessProbe: systemProbe('/health', { periodSeconds: 10, timeoutSeconds: 4, failureThreshold: 3 }),
    // ten seconds times 720: two hours to load a model
    startupProbe: systemProbe('/live', { periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 720 }),
  };
}

export function workerContainer(context: ComponentContext): ContainerJson {
  const container = commonContainer(context);
  container.ports = [tcpPort(SYSTEM_PORT_NAME, SYSTEM_PORT), tcpPort(NIXL_PORT_NAME, NIXL_PORT)];
  Object.assign(container, systemProbes(runtimeGateEnabled(INCREASED_WORKER_FAILURE_THRESHOLD, context) ? 3 : 1));
  container.env!.push(
    valueEnv('DYN_SYSTEM_ENABLED', 'true'),
    valueEnv('DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS', '["generate"]'),
    valueEnv('DYN_SYSTEM_PORT', String(SYSTEM_PORT)),
    valueEnv('DYN_HEALTH_CHECK_ENABLED', String(runtimeGateEnabled(CANARY_HEALTH_CHECKS, context))),
    valueEnv('NIXL_TELEMETRY_ENABLE', 'n'),
    valueEnv('NIXL_TELEMETRY_EXPORTER', 'prometheus'),
    valueEnv('NIXL_TELEMETRY_PROMETHEUS_PORT', String(NIXL_PORT)),
    valueEnv('DYN_FORWARDPASS_METRIC_PORT', String(FORWARD_PASS_METRIC_PORT)),
  );
  if (context.workerHashSuffix) container.env!.push(valueEnv('DYN_NAMESPACE_WORKER_SUFFIX', context.workerHashSuffix));
  return container;
}

export const WORKER_DEFAULTS: ComponentDefaults = {
  baseContainer: workerContainer,
  basePodSpec: () => commonPodSpec(),
};
