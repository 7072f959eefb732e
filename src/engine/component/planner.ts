/**
 * Planner defaults (docs/design/render-core.md §5.3, §6.2, §9): Prometheus metrics on 9085, the system server
 * on 9090 with worker-style probes, the `planner-serviceaccount`.
 */
import { commonContainer, commonPodSpec, SYSTEM_PORT, SYSTEM_PORT_NAME } from './common';
import { ComponentContext } from './defaults-context';
import { ComponentDefaults } from './type-defaults';
import { systemProbes } from './worker';
import { PLANNER_SERVICE_ACCOUNT } from '../../model/well-known';
import { ContainerJson, tcpPort, valueEnv } from '../pod/k8s-json';

export const PLANNER_METRICS_PORT_NAME = 'metrics';
export const PLANNER_METRICS_PORT = 9085;

export function plannerContainer(context: ComponentContext): ContainerJson {
  const container = commonContainer(context);
  container.ports = [tcpPort(PLANNER_METRICS_PORT_NAME, PLANNER_METRICS_PORT), tcpPort(SYSTEM_PORT_NAME, SYSTEM_PORT)];
  // the planner keeps the single-failure liveness whatever its runtime version
  Object.assign(container, systemProbes(1));
  container.env!.push(
    valueEnv('PLANNER_PROMETHEUS_PORT', String(PLANNER_METRICS_PORT)),
    valueEnv('DYN_SYSTEM_PORT', String(SYSTEM_PORT)),
  );
  return container;
}

export const PLANNER_DEFAULTS: ComponentDefaults = {
  baseContainer: plannerContainer,
  basePodSpec: () => ({ ...commonPodSpec(), serviceAccountName: PLANNER_SERVICE_ACCOUNT }),
};
