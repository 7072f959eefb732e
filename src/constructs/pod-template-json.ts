/** How the pod props of a component become its plain `podTemplate`. */
import type * as kplus from 'cdk8s-plus-34';
import { kplus as kplusRuntime } from '../lazy-modules';
import { PodOptions } from './pod-template';
import { JsonObject } from '../model/v1beta1';
import { MAIN_CONTAINER } from '../model/well-known';

/** Mutable, plain pod template with helpers to reach the `main` container. */
export function mainContainerOf(podTemplate: JsonObject): JsonObject {
  podTemplate.spec = podTemplate.spec ?? {};
  podTemplate.spec.containers = podTemplate.spec.containers ?? [];
  let main = podTemplate.spec.containers.find((c: JsonObject) => c?.name === MAIN_CONTAINER);
  if (!main) {
    main = { name: MAIN_CONTAINER };
    podTemplate.spec.containers.unshift(main);
  }
  return main;
}

/** The plain JSON of an environment variable. */
export function envVarJson(name: string, value: kplus.EnvValue): JsonObject {
  const out: JsonObject = { name };
  if (value.value !== undefined) out.value = value.value;
  if (value.valueFrom !== undefined) out.valueFrom = kplusRuntime().k8s.toJson_EnvVarSource(value.valueFrom);
  return out;
}

/**
 * The plain `envFrom` entries of a `kplus.EnvFrom`. Its internal `_toKube()` gives one EnvFromSource
 * up to cdk8s-plus-34 2.0.59 and a list of them (one per source) from 2.0.60 on: both are read.
 */
function envFromJson(envFrom: kplus.EnvFrom): JsonObject[] {
  const sources: kplus.k8s.EnvFromSource[] = ([] as kplus.k8s.EnvFromSource[]).concat(envFrom._toKube());
  return sources.map(source => kplusRuntime().k8s.toJson_EnvFromSource(source) as JsonObject);
}

/** Sets or replaces environment variables of a container, keeping the position of replaced ones. */
export function upsertEnv(container: JsonObject, vars: JsonObject[]): void {
  const env: JsonObject[] = container.env ?? [];
  for (const v of vars) {
    const at = env.findIndex(e => e.name === v.name);
    if (at >= 0) env[at] = v; else env.push(v);
  }
  container.env = env;
}

function memory(size: { toMebibytes(): number } | undefined): string | undefined {
  return size ? `${size.toMebibytes()}Mi` : undefined;
}

function resourcesJson(resources: kplus.ContainerResources | undefined, gpus: number | undefined): JsonObject {
  const limits: JsonObject = {};
  const requests: JsonObject = {};
  if (resources?.cpu?.limit) limits.cpu = resources.cpu.limit.amount;
  if (resources?.cpu?.request) requests.cpu = resources.cpu.request.amount;
  if (resources?.memory?.limit) limits.memory = memory(resources.memory.limit);
  if (resources?.memory?.request) requests.memory = memory(resources.memory.request);
  if (resources?.ephemeralStorage?.limit) limits['ephemeral-storage'] = memory(resources.ephemeralStorage.limit);
  if (resources?.ephemeralStorage?.request) requests['ephemeral-storage'] = memory(resources.ephemeralStorage.request);
  if (gpus !== undefined) limits['nvidia.com/gpu'] = String(gpus);
  return { limits, requests };
}

/** Builds the plain pod template of a component from its pod props. */
export function podTemplateJson(options: PodOptions): JsonObject | undefined {
  const hasHighLevel = [options.image, options.command, options.args, options.workingDir, options.env, options.envFrom,
    options.gpus, options.resources, options.volumeMounts].some(v => v !== undefined);
  if (!options.podTemplate && !hasHighLevel) return undefined;
  const template: JsonObject = options.podTemplate ? kplusRuntime().k8s.toJson_PodTemplateSpec(options.podTemplate) ?? {} : {};
  if (!hasHighLevel) return template;
  const main = mainContainerOf(template);
  if (options.image !== undefined) main.image = options.image;
  if (options.command !== undefined) main.command = [...options.command];
  if (options.args !== undefined) main.args = [...options.args];
  if (options.workingDir !== undefined) main.workingDir = options.workingDir;
  if (options.env) upsertEnv(main, Object.entries(options.env).map(([name, value]) => envVarJson(name, value)));
  if (options.envFrom?.length) {
    main.envFrom = [...(main.envFrom ?? []), ...options.envFrom.flatMap(envFromJson)];
  }
  const { limits, requests } = resourcesJson(options.resources, options.gpus);
  if (Object.keys(limits).length || Object.keys(requests).length) {
    main.resources = main.resources ?? {};
    if (Object.keys(limits).length) main.resources.limits = { ...(main.resources.limits ?? {}), ...limits };
    if (Object.keys(requests).length) main.resources.requests = { ...(main.resources.requests ?? {}), ...requests };
  }
  for (const mount of options.volumeMounts ?? []) {
    const volume = kplusRuntime().k8s.toJson_Volume(mount.volume._toKube()) as JsonObject;
    template.spec.volumes = template.spec.volumes ?? [];
    if (!template.spec.volumes.some((v: JsonObject) => v.name === volume.name)) template.spec.volumes.push(volume);
    const m: JsonObject = { name: volume.name, mountPath: mount.path };
    if (mount.readOnly) m.readOnly = true;
    if (mount.subPath) m.subPath = mount.subPath;
    main.volumeMounts = [...(main.volumeMounts ?? []), m];
  }
  return template;
}
