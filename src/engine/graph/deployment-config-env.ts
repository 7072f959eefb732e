/**
 * `DYN_DEPLOYMENT_CONFIG` in a component's `main` env: the frontend's entry gets its HTTP port,
 * and a component's `ServiceArgs` may set its replicas and `main` container resources.
 */
import { goJsonEncode } from '../../go/marshal';
import { isMap } from '../../model/json';
import { assignOwn, shallowCopy } from '../../model/json-copy';
import { DcdSpecJson, JsonObject } from '../../model/v1beta1';
import { MAIN_CONTAINER } from '../../model/well-known';

export const DEPLOYMENT_CONFIG_ENV = 'DYN_DEPLOYMENT_CONFIG';
const FRONTEND_PORT = 8000;

function entryKey(config: JsonObject, componentName: string, frontendFallback: boolean): string | undefined {
  if (isMap(config[componentName])) return componentName;
  if (!frontendFallback) return undefined;
  return Object.keys(config).find(k => k.toLowerCase() === 'frontend');
}

export function applyDeploymentConfigEnv(spec: DcdSpecJson, componentName: string): void {
  const main = (spec.podTemplate?.spec?.containers as JsonObject[] | undefined)?.find(c => c?.name === MAIN_CONTAINER);
  const envVar = (main?.env as JsonObject[] | undefined)?.find(e => e?.name === DEPLOYMENT_CONFIG_ENV);
  if (!main || typeof envVar?.value !== 'string') return;
  let config: unknown;
  try {
    config = JSON.parse(envVar.value);
  } catch {
    return;
  }
  if (!isMap(config)) return;
  const frontend = spec.type === 'frontend';
  const key = entryKey(config, componentName, frontend);
  if (frontend) {
    if (key !== undefined && isMap(config[key])) config[key].port = FRONTEND_PORT;
    envVar.value = goJsonEncode(config);
  }
  const entry = key !== undefined ? config[key] : undefined;
  const serviceArgs = isMap(entry) ? entry.ServiceArgs : undefined;
  if (!isMap(serviceArgs)) return;
  if (spec.replicas === undefined && typeof serviceArgs.workers === 'number') spec.replicas = serviceArgs.workers;
  const resources = serviceArgs.resources;
  if (!isMap(resources)) return;
  const quantities: Record<string, string> = {};
  if (resources.cpu) quantities.cpu = String(resources.cpu);
  if (resources.memory) quantities.memory = String(resources.memory);
  if (resources.gpu) quantities['nvidia.com/gpu'] = String(resources.gpu);
  for (const [name, value] of Object.entries(isMap(resources.custom) ? resources.custom : {})) {
    quantities[name] = String(value);
  }
  if (Object.keys(quantities).length === 0) return;
  main.resources = main.resources ?? {};
  main.resources.requests = assignOwn(shallowCopy(main.resources.requests), quantities);
  main.resources.limits = assignOwn(shallowCopy(main.resources.limits), quantities);
}
