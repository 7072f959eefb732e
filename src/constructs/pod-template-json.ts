/**
 * How the pod props of a component become its plain `podTemplate`. Each value is taken as cdk8s-plus
 * gives it (`kplus.EnvValue`, `kplus.Env.fromSecret(...)`, `kplus.Volume`, `kplus.ContainerResources`,
 * `kplus.k8s.*` structs) or as plain JSON in Kubernetes shape, and kept exactly, or refused with the
 * prop path (kubernetes-values.ts): nothing is dropped on the way.
 */
import { SizeRoundingBehavior } from 'cdk8s';
import type * as kplus from 'cdk8s-plus-34';
import { KUBERNETES_TYPE, KubernetesValueError, kubernetesJson, shownValue } from './kubernetes-values';
import { PodOptions } from './pod-template';
import { envVarNameErrors } from '../admission/dns-names';
import { isMap, jsonEqual } from '../model/json';
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

/** Whether `value` is an instance of a class (a cdk8s-plus object), not a plain object or struct. */
function isInstance(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto !== null && proto !== Object.prototype;
}

function refuse(path: string, value: unknown, expected: string): never {
  throw new KubernetesValueError(path, `Invalid value: ${shownValue(value)}: must be ${expected}`);
}

/** Refuses an environment variable name the API server refuses (its rule, `envVarNameErrors`). */
export function checkEnvName(name: unknown, path: string): asserts name is string {
  if (typeof name !== 'string') refuse(path, name, 'a string (the environment variable name)');
  if (name === '') throw new KubernetesValueError(path, 'Required value: an environment variable name must not be empty');
  const errors = envVarNameErrors(name);
  if (errors.length > 0) throw new KubernetesValueError(path, `Invalid value: ${shownValue(name)}: ${errors.join('; ')}`);
}

const ENV_VALUE = 'an EnvValue (EnvValue.fromValue(...), EnvValue.fromSecretValue(...), ...) or { value } / { valueFrom } in Kubernetes shape';

/**
 * The plain JSON of an environment variable: `value` is a `kplus.EnvValue` or an EnvVar body in
 * Kubernetes shape (`{ value }` or `{ valueFrom }`); `path` names it in errors.
 */
export function envVarJson(name: string, value: kplus.EnvValue | unknown, path: string): JsonObject {
  checkEnvName(name, path);
  const out: JsonObject = { name };
  if (!isMap(value)) refuse(path, value, ENV_VALUE);
  const fields = value as { value?: unknown; valueFrom?: unknown };
  if (!isInstance(value)) {
    const unknown = Object.keys(value).find(k => k !== 'value' && k !== 'valueFrom' && value[k] !== undefined);
    if (unknown !== undefined) refuse(path, value, `${ENV_VALUE}; "${unknown}" is not a field of one`);
  }
  if (fields.value !== undefined) {
    if (typeof fields.value !== 'string') refuse(`${path}.value`, fields.value, 'a string');
    out.value = fields.value;
  }
  if (fields.valueFrom !== undefined) out.valueFrom = kubernetesJson(fields.valueFrom, KUBERNETES_TYPE.envVarSource, `${path}.valueFrom`);
  return out;
}

/**
 * The plain JSON of an `envFrom` entry: a `kplus.EnvFrom` (`Env.fromSecret(...)`) or an
 * EnvFromSource in Kubernetes shape. An EnvFrom renders itself (its `_toKube()`) as one
 * EnvFromSource up to cdk8s-plus-34 2.0.59 and as a list of them, one per source, from 2.0.60 on:
 * both are read. Each source must name a secret or a config map.
 */
function envFromJson(value: unknown, path: string): JsonObject[] {
  if (!isMap(value)) refuse(path, value, 'an EnvFrom (Env.fromSecret(...), Env.fromConfigMap(...)) or { secretRef } / { configMapRef } in Kubernetes shape');
  const typed = typeof (value as { _toKube?: unknown })._toKube === 'function';
  const rendered: unknown = typed ? (value as { _toKube(): unknown })._toKube() : value;
  const sources: unknown[] = Array.isArray(rendered) ? rendered : [rendered];
  return sources.map(source => {
    const out = kubernetesJson(source, KUBERNETES_TYPE.envFromSource, path);
    if (out.secretRef == null && out.configMapRef == null) {
      throw new KubernetesValueError(path, `Invalid value: ${shownValue(out)}: names no secret or config map: use Env.fromSecret(secret) or Env.fromConfigMap(configMap)`);
    }
    return out;
  });
}

/** The plain JSON of a volume: a `kplus.Volume` or a Volume in Kubernetes shape. */
function volumeJson(value: unknown, path: string): JsonObject {
  if (!isMap(value)) refuse(path, value, 'a Volume (Volume.fromSecret(...), Volume.fromEmptyDir(...), ...) or a volume in Kubernetes shape');
  const typed = typeof (value as { _toKube?: unknown })._toKube === 'function';
  const out = kubernetesJson(typed ? (value as unknown as kplus.Volume)._toKube() : value, KUBERNETES_TYPE.volume, path);
  if (typeof out.name !== 'string') throw new KubernetesValueError(`${path}.name`, 'Required value: a volume needs a name');
  return out;
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

/** A cdk8s `Size` as a quantity: whole mebibytes as `Mi` (as cdk8s-plus writes them), else exact kibibytes. */
function sizeQuantity(size: unknown, path: string): string {
  const s = size as { toMebibytes?: unknown; toKibibytes?: unknown };
  if (!isMap(size) || typeof s.toMebibytes !== 'function' || typeof s.toKibibytes !== 'function') {
    refuse(path, size, 'a Size (Size.mebibytes(...), Size.gibibytes(...))');
  }
  const sized = size as unknown as { toMebibytes(o?: object): number; toKibibytes(o?: object): number };
  const none = { rounding: SizeRoundingBehavior.NONE };
  const mebibytes = sized.toMebibytes(none);
  if (Number.isInteger(mebibytes)) return `${mebibytes}Mi`;
  const kibibytes = sized.toKibibytes(none);
  if (Number.isInteger(kibibytes)) return `${kibibytes}Ki`;
  return refuse(path, size, 'a whole number of kibibytes');
}

function cpuQuantity(cpu: unknown, path: string): string {
  const amount = isMap(cpu) ? (cpu as { amount?: unknown }).amount : undefined;
  if (typeof amount !== 'string') refuse(path, cpu, 'a Cpu (Cpu.units(...), Cpu.millis(...))');
  return amount;
}

const TYPED_RESOURCES: { readonly [prop: string]: readonly [string, (v: unknown, path: string) => string] } = {
  cpu: ['cpu', cpuQuantity],
  memory: ['memory', sizeQuantity],
  ephemeralStorage: ['ephemeral-storage', sizeQuantity],
};

/**
 * The plain `resources` of the `main` container: `kplus.ContainerResources` (`cpu`, `memory`,
 * `ephemeralStorage`, each with `request` / `limit`) or ResourceRequirements in Kubernetes shape
 * (`limits`, `requests`, `claims`).
 */
function resourcesJson(resources: unknown, path: string): JsonObject {
  if (!isMap(resources)) refuse(path, resources, 'ContainerResources ({ cpu, memory, ephemeralStorage }) or { limits, requests } in Kubernetes shape');
  const keys = Object.keys(resources).filter(k => resources[k] !== undefined);
  const typed = keys.filter(k => Object.prototype.hasOwnProperty.call(TYPED_RESOURCES, k));
  if (typed.length === 0) return kubernetesJson(resources, KUBERNETES_TYPE.resourceRequirements, path);
  const other = keys.find(k => !typed.includes(k));
  if (other !== undefined) {
    throw new KubernetesValueError(`${path}.${other}`, `unknown field "${other}": give ContainerResources ({ cpu, memory, ephemeralStorage }) or Kubernetes ResourceRequirements ({ limits, requests }), not both`);
  }
  const limits: JsonObject = {};
  const requests: JsonObject = {};
  for (const prop of typed) {
    const [resource, quantity] = TYPED_RESOURCES[prop];
    const pair = resources[prop];
    if (!isMap(pair)) refuse(`${path}.${prop}`, pair, 'an object with `request` and / or `limit`');
    for (const [key, v] of Object.entries(pair)) {
      if (v === undefined) continue;
      if (key === 'limit') limits[resource] = quantity(v, `${path}.${prop}.limit`);
      else if (key === 'request') requests[resource] = quantity(v, `${path}.${prop}.request`);
      else throw new KubernetesValueError(`${path}.${prop}.${key}`, `unknown field "${key}"; known fields: limit, request`);
    }
  }
  const out: JsonObject = {};
  if (Object.keys(limits).length) out.limits = limits;
  if (Object.keys(requests).length) out.requests = requests;
  return out;
}

/** Merges resources into the container's: each resource name of `extra` replaces the one of the template. */
function mergeResources(main: JsonObject, extra: JsonObject): void {
  if (Object.keys(extra).length === 0) return;
  main.resources = main.resources ?? {};
  for (const [field, value] of Object.entries(extra)) {
    main.resources[field] = Array.isArray(value) ? [...(main.resources[field] ?? []), ...value] : { ...(main.resources[field] ?? {}), ...value };
  }
}

const MOUNT_FIELDS = ['volume', 'path', 'readOnly', 'subPath'];

/** Adds a volume mount of the `main` container (and its volume to the pod, once). */
function addVolumeMount(template: JsonObject, main: JsonObject, mount: unknown, path: string): void {
  if (!isMap(mount)) refuse(path, mount, 'a ComponentVolumeMount ({ volume, path, readOnly?, subPath? })');
  const unknown = Object.keys(mount).find(k => !MOUNT_FIELDS.includes(k) && mount[k] !== undefined);
  if (unknown !== undefined) throw new KubernetesValueError(`${path}.${unknown}`, `unknown field "${unknown}"; known fields: ${MOUNT_FIELDS.join(', ')}`);
  if (mount.volume === undefined) throw new KubernetesValueError(`${path}.volume`, 'Required value: the volume to mount');
  if (typeof mount.path !== 'string') refuse(`${path}.path`, mount.path, 'a string (where the volume is mounted)');
  if (mount.readOnly !== undefined && typeof mount.readOnly !== 'boolean') refuse(`${path}.readOnly`, mount.readOnly, 'true or false');
  if (mount.subPath !== undefined && typeof mount.subPath !== 'string') refuse(`${path}.subPath`, mount.subPath, 'a string');
  const volume = volumeJson(mount.volume, `${path}.volume`);
  template.spec.volumes = template.spec.volumes ?? [];
  const same = (template.spec.volumes as JsonObject[]).find(v => v?.name === volume.name);
  if (same === undefined) {
    template.spec.volumes.push(volume);
  } else if (!jsonEqual(same, volume)) {
    throw new KubernetesValueError(`${path}.volume`, `Invalid value: ${shownValue(volume)}: the pod already has a different volume named "${volume.name}" (${shownValue(same)}): give the volumes different names`);
  }
  const m: JsonObject = { name: volume.name, mountPath: mount.path };
  if (mount.readOnly !== undefined) m.readOnly = mount.readOnly;
  if (mount.subPath !== undefined) m.subPath = mount.subPath;
  main.volumeMounts = [...(main.volumeMounts ?? []), m];
}

/** Builds the plain pod template of a component from its pod props; throws KubernetesValueError naming the prop. */
export function podTemplateJson(options: PodOptions): JsonObject | undefined {
  const hasHighLevel = [options.image, options.command, options.args, options.workingDir, options.env, options.envFrom,
    options.gpus, options.resources, options.volumeMounts].some(v => v !== undefined);
  if (options.podTemplate === undefined && !hasHighLevel) return undefined;
  const template: JsonObject = options.podTemplate !== undefined ? kubernetesJson(options.podTemplate, KUBERNETES_TYPE.podTemplateSpec, 'podTemplate') : {};
  if (!hasHighLevel) return template;
  if (template.spec === null || (template.spec?.containers === null)) {
    throw new KubernetesValueError('podTemplate.spec', 'Invalid value: null: the pod props (image, env, ...) go into the `main` container of a pod template with a spec');
  }
  const main = mainContainerOf(template);
  if (options.image !== undefined) main.image = options.image;
  if (options.command !== undefined) main.command = [...options.command];
  if (options.args !== undefined) main.args = [...options.args];
  if (options.workingDir !== undefined) main.workingDir = options.workingDir;
  if (options.env !== undefined) {
    upsertEnv(main, Object.entries(options.env).map(([name, value]) => envVarJson(name, value, `env.${name}`)));
  }
  if (options.envFrom !== undefined) {
    const entries = options.envFrom.flatMap((e, i) => envFromJson(e, `envFrom[${i}]`));
    if (entries.length) main.envFrom = [...(main.envFrom ?? []), ...entries];
  }
  if (options.resources !== undefined) mergeResources(main, resourcesJson(options.resources, 'resources'));
  if (options.gpus !== undefined) mergeResources(main, { limits: { 'nvidia.com/gpu': String(options.gpus) } });
  (options.volumeMounts ?? []).forEach((mount, i) => addVolumeMount(template, main, mount, `volumeMounts[${i}]`));
  return template;
}

/** The plain JSON of a container given to `addSidecar` (typed or in Kubernetes shape). */
export function containerJson(container: unknown, path: string): JsonObject {
  const out = kubernetesJson(container, KUBERNETES_TYPE.container, path);
  if (typeof out.name !== 'string' || out.name === '') throw new KubernetesValueError(`${path}.name`, 'Required value: a container needs a name');
  return out;
}

/** The plain JSON of a pod template given to an experimental prop (typed or in Kubernetes shape). */
export function podTemplateSpecJson(podTemplate: unknown, path: string): JsonObject {
  return kubernetesJson(podTemplate, KUBERNETES_TYPE.podTemplateSpec, path);
}
