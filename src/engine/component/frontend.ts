/**
 * Frontend defaults (docs/design/render-core.md §5.3, §6.2): `python3 -m dynamo.frontend` serving HTTP on 8000.
 */
import { commonContainer, commonPodSpec } from './common';
import { ComponentContext } from './defaults-context';
import { ComponentDefaults } from './type-defaults';
import { ContainerJson, tcpPort, valueEnv } from '../pod/k8s-json';

export const FRONTEND_HTTP_PORT_NAME = 'http';
export const FRONTEND_HTTP_PORT = 8000;

function httpProbe(path: string, timings: Record<string, number>): Record<string, unknown> {
  return { httpGet: { path, port: FRONTEND_HTTP_PORT_NAME }, ...timings };
}

export function frontendContainer(context: ComponentContext): ContainerJson {
  const container = commonContainer(context);
  container.command = ['python3'];
  container.args = ['-m', 'dynamo.frontend'];
  container.ports = [tcpPort(FRONTEND_HTTP_PORT_NAME, FRONTEND_HTTP_PORT)];
  container.livenessProbe = httpProbe('/live', { initialDelaySeconds: 15, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3 });
  container.readinessProbe = httpProbe('/health', { initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 });
  container.env!.push(
    valueEnv('DYNAMO_PORT', String(FRONTEND_HTTP_PORT)),
    valueEnv('DYN_HTTP_PORT', String(FRONTEND_HTTP_PORT)),
    valueEnv('DYN_NAMESPACE_PREFIX', context.dynamoNamespace),
  );
  return container;
}

export const FRONTEND_DEFAULTS: ComponentDefaults = {
  baseContainer: frontendContainer,
  basePodSpec: () => commonPodSpec(),
};
