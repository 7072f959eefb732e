/**
 * One v1alpha1 component (a `spec.services` entry of a DynamoGraphDeployment, or the spec of a
 * DynamoComponentDeployment) converted to the v1beta1 component, as the operator's conversion
 * webhook converts it, and the sparse record of the v1alpha1-only data it keeps in the
 * preservation annotation.
 *
 * Values are Go views (`go-view.ts`): the v1alpha1 component as its Go type reads it. The
 * v1beta1 component is built in wire form and written in Go form by the caller.
 *
 * The ten v1alpha1 pod fields become one pod template: `extraPodMetadata` its metadata,
 * `extraPodSpec` its spec, and the container `main` is built from `resources`, `envs`,
 * `envFromSecret`, `livenessProbe`, `readinessProbe` and `volumeMounts`, with
 * `extraPodSpec.mainContainer` merged over it the way mergo's `WithOverride` merges (its env
 * merged by name, its volume mounts first). A `frontendSidecar` becomes a container named
 * `sidecar-frontend` that `frontendSidecar` names.
 */
import { GoMap, hasKeys, isGoZero, nonEmpty } from './go-view';
import { restoreSharedHubOnlyFields } from './hub-restore';
import {
  ConversionLoss, containerIsEmpty, extraPodSpecIsZero, FRONTEND_SIDECAR_CONTAINER, MAIN_CONTAINER, podSpecOf, resourcesNeedPreservation,
  resourcesToNative, unparseableResources,
} from './pod-parts';
import { mergoMerge } from '../../go/mergo';
import { isZeroQuantity } from '../../go/quantity';
import { jsonRoundTrip } from '../../model/json-copy';


/** What the shared-spec conversion needs to know of its caller. */
export interface SharedSpecContext {
  /** Save where the main-container fields came from (v1alpha1-origin objects). */
  readonly includeOriginSplits: boolean;
  /** The preserved v1beta1 component had a pod template: build one even without pod fields. */
  readonly podTemplateOrigin: boolean;
}


/**
 * The v1beta1 component of `src`. `restored` is the v1beta1 component preserved in the object's
 * annotation (objects first written as v1beta1), `save` receives the v1alpha1-only data to keep.
 */
export function convertSharedSpec(
  src: GoMap, restored: GoMap | undefined, save: GoMap | undefined, ctx: SharedSpecContext, losses: ConversionLoss[],
): GoMap {
  const dst: GoMap = {};
  if (src.providerOverride) dst.providerOverride = jsonRoundTrip(src.providerOverride);
  dst.type = componentTypeToHub(src);
  dst.name = src.serviceName ?? '';
  dst.runtimeVersionOverride = src.runtimeVersionOverride;
  dst.globalDynamoNamespace = src.globalDynamoNamespace;
  dst.replicas = src.replicas;
  dst.minAvailable = src.minAvailable;
  if (src.multinode) convertMultinode(src.multinode, dst);
  if (src.modelRef) dst.modelRef = { name: src.modelRef.name, revision: src.modelRef.revision };
  if (src.topologyConstraint) dst.topologyConstraint = { packDomain: src.topologyConstraint.packDomain };
  if (src.eppConfig) dst.eppConfig = { configMapRef: jsonRoundTrip(src.eppConfig.configMapRef), config: jsonRoundTrip(src.eppConfig.config) };
  const shm = src.sharedMemory;
  if (shm && (shm.disabled === true || !isZeroQuantity(shm.size))) dst.sharedMemorySize = shm.disabled === true ? '0' : shm.size;
  // the first volume mount flagged as compilation cache becomes compilationCache
  const cache = (src.volumeMounts ?? []).find((m: GoMap) => m.useAsCompilationCache === true);
  if (cache) dst.compilationCache = { pvcName: cache.name ?? '', mountPath: cache.mountPoint };
  // a scaling adapter is present in v1beta1 exactly when it was enabled
  if (src.scalingAdapter?.enabled === true) dst.scalingAdapter = {};
  convertExperimental(src, dst);
  buildPodTemplate(src, dst, ctx.podTemplateOrigin, losses);
  losses.push(...unparseableResources(src.resources));
  restoreSharedHubOnlyFields(dst, restored, src);
  if (save) saveAlphaOnlyFields(src, save, ctx.includeOriginSplits);
  return dst;
}

/** v1beta1 `type`: a v1alpha1 worker with subComponentType prefill or decode becomes that type. */
export function componentTypeToHub(src: GoMap): string {
  return subComponentTypePromotes(src) ? src.subComponentType : (src.componentType ?? '');
}

function subComponentTypePromotes(src: GoMap): boolean {
  return src.componentType === 'worker' && (src.subComponentType === 'prefill' || src.subComponentType === 'decode');
}

/**
 * `multinode`: nodeCount as is. The v1alpha1 `leader` / `worker` role settings (their provider
 * override) become this API's `roles` list, which holds exactly one leader and one worker.
 */
function convertMultinode(src: GoMap, dst: GoMap): void {
  dst.multinode = { nodeCount: src.nodeCount };
  if (src.leader === undefined && src.worker === undefined) return;
  dst.roles = (['leader', 'worker'] as const).map(role => {
    const spec: GoMap = { name: role };
    const override = src[role]?.providerOverride;
    if (override) spec.providerOverride = jsonRoundTrip(override);
    return spec;
  });
}

/** The v1alpha1 spelling of the GPU memory service modes (`intraPod`, `interPod`) in v1beta1. */
export function gmsModeToHub(mode: string | undefined): string | undefined {
  if (mode === 'intraPod') return 'IntraPod';
  if (mode === 'interPod') return 'InterPod';
  return mode;
}

/** `gpuMemoryService` and `failover` when enabled (v1beta1 has no disabled form), `checkpoint` always. */
function convertExperimental(src: GoMap, dst: GoMap): void {
  const exp: GoMap = {};
  const gms = src.gpuMemoryService;
  if (gms?.enabled === true) {
    exp.gpuMemoryService = {
      mode: gmsModeToHub(gms.mode),
      deviceClassName: gms.deviceClassName,
      extraClientContainers: jsonRoundTrip(gms.extraClientContainers),
    };
    if (nonEmpty(gms.extraClientPods)) {
      exp.gpuMemoryService.extraClientPods = gms.extraClientPods.map((pod: GoMap) => ({
        name: pod.name, podTemplate: jsonRoundTrip(pod.podTemplate),
      }));
    }
  }
  const failover = src.failover;
  if (failover?.enabled === true) exp.failover = { mode: gmsModeToHub(failover.mode), numShadows: failover.numShadows };
  const checkpoint = src.checkpoint;
  if (checkpoint) {
    const out: GoMap = {
      enabled: checkpoint.enabled ?? false,
      mode: checkpoint.mode,
      startupPolicy: checkpoint.startupPolicy,
      deletionPolicy: checkpoint.deletionPolicy,
      targetContainerName: checkpoint.targetContainerName,
    };
    if (checkpoint.checkpointRef !== undefined) out.checkpointRef = checkpoint.checkpointRef;
    if (checkpoint.identity) out.identity = jsonRoundTrip(checkpoint.identity);
    if (checkpoint.job) {
      out.job = { gmsClientContainers: jsonRoundTrip(checkpoint.job.gmsClientContainers) };
      if (checkpoint.job.podTemplate) out.job.podTemplate = jsonRoundTrip(checkpoint.job.podTemplate);
    }
    exp.checkpoint = out;
  }
  if (Object.keys(exp).length > 0) dst.experimental = exp;
}

// ---------------------------------------------------------------------------------------------
// the pod template

/** Whether the v1alpha1 component has anything the pod template carries. */
export function hasPodTemplateContent(src: GoMap, podTemplateOrigin: boolean): boolean {
  return src.resources !== undefined
    || nonEmpty(src.envs)
    || src.envFromSecret !== undefined
    || (src.volumeMounts ?? []).some((m: GoMap) => m.useAsCompilationCache !== true)
    || src.livenessProbe !== undefined
    || src.readinessProbe !== undefined
    || !extraPodSpecIsZero(src.extraPodSpec)
    || src.extraPodMetadata !== undefined
    || src.frontendSidecar !== undefined
    || podTemplateOrigin;
}

function buildPodTemplate(src: GoMap, dst: GoMap, podTemplateOrigin: boolean, losses: ConversionLoss[]): void {
  const podTemplate = podTemplateFromAlpha(src, podTemplateOrigin, losses);
  if (!podTemplate) return;
  if (src.frontendSidecar) dst.frontendSidecar = FRONTEND_SIDECAR_CONTAINER;
  dst.podTemplate = podTemplate;
}

/** The pod template of the v1alpha1 pod fields, or undefined when they hold nothing. */
export function podTemplateFromAlpha(src: GoMap, podTemplateOrigin: boolean, losses?: ConversionLoss[]): GoMap | undefined {
  if (!hasPodTemplateContent(src, podTemplateOrigin)) return undefined;
  const metadata: GoMap = {};
  if (src.extraPodMetadata) {
    if (hasKeys(src.extraPodMetadata.annotations)) metadata.annotations = jsonRoundTrip(src.extraPodMetadata.annotations);
    if (hasKeys(src.extraPodMetadata.labels)) metadata.labels = jsonRoundTrip(src.extraPodMetadata.labels);
  }
  const spec: GoMap = src.extraPodSpec ? podSpecOf(src.extraPodSpec) : {};
  const main = mainContainerOf(src);
  const others = (spec.containers ?? []) as GoMap[];
  others.forEach((c, i) => {
    if (c.name === MAIN_CONTAINER) {
      losses?.push({
        path: `extraPodSpec.containers[${i}]`,
        message: `a container named "${MAIN_CONTAINER}" is dropped by the conversion (the main container is built from the component's fields and extraPodSpec.mainContainer); move its settings to extraPodSpec.mainContainer`,
      });
    }
  });
  spec.containers = [main, ...others.filter(c => c.name !== MAIN_CONTAINER)];
  const podTemplate: GoMap = { metadata, spec };
  if (src.frontendSidecar) appendFrontendSidecar(podTemplate, src.frontendSidecar);
  return podTemplate;
}


/** The container `main`: the dedicated fields, with `extraPodSpec.mainContainer` merged over them. */
export function mainContainerOf(src: GoMap): GoMap {
  const base = mainContainerFromDedicatedFields(src);
  const merged = mergeExtraMainContainer(src, base);
  merged.name = MAIN_CONTAINER;
  return merged;
}

function mainContainerFromDedicatedFields(src: GoMap): GoMap {
  const c: GoMap = { name: MAIN_CONTAINER };
  if (src.resources) c.resources = resourcesToNative(src.resources);
  if (nonEmpty(src.envs)) c.env = jsonRoundTrip(src.envs);
  if (typeof src.envFromSecret === 'string' && src.envFromSecret !== '') c.envFrom = [{ secretRef: { name: src.envFromSecret } }];
  if (src.livenessProbe) c.livenessProbe = jsonRoundTrip(src.livenessProbe);
  if (src.readinessProbe) c.readinessProbe = jsonRoundTrip(src.readinessProbe);
  for (const m of src.volumeMounts ?? []) {
    (c.volumeMounts ??= []).push({ name: m.name ?? '', mountPath: m.mountPoint ?? '' });
  }
  return c;
}

/**
 * mergo `WithOverride` of `extraPodSpec.mainContainer` over the dedicated-field container, then
 * env merged by name (the main container's entries win in place, new ones appended) and the main
 * container's volume mounts ahead of the dedicated ones; its startup probe taken whole.
 */
function mergeExtraMainContainer(src: GoMap, base: GoMap): GoMap {
  const extra = src.extraPodSpec?.mainContainer;
  if (!extra) return base;
  const main = jsonRoundTrip(extra);
  main.name = MAIN_CONTAINER;
  const merged: GoMap = mergoMerge(base, main);
  const env = mergeEnvsByName(base.env, main.env);
  if (env) merged.env = env;
  else delete merged.env;
  const mounts = [...(main.volumeMounts ?? []), ...(base.volumeMounts ?? [])];
  if (mounts.length > 0) merged.volumeMounts = jsonRoundTrip(mounts);
  else delete merged.volumeMounts;
  if (main.startupProbe) merged.startupProbe = jsonRoundTrip(main.startupProbe);
  return merged;
}

/** `common` then `specific`, one entry per name, a `specific` entry replacing the `common` one in place. */
function mergeEnvsByName(common: GoMap[] | undefined, specific: GoMap[] | undefined): GoMap[] | undefined {
  const out: GoMap[] = [];
  const at = new Map<string, number>();
  for (const e of common ?? []) {
    at.set(e.name, out.length);
    out.push(jsonRoundTrip(e));
  }
  for (const e of specific ?? []) {
    const i = at.get(e.name);
    if (i !== undefined) {
      out[i] = jsonRoundTrip(e);
      continue;
    }
    at.set(e.name, out.length);
    out.push(jsonRoundTrip(e));
  }
  return out.length > 0 ? out : undefined;
}

/** Adds the `sidecar-frontend` container of a v1alpha1 `frontendSidecar`, unless one is there. */
function appendFrontendSidecar(podTemplate: GoMap, fs: GoMap): void {
  const containers: GoMap[] = podTemplate.spec.containers;
  if (containers.some(c => c.name === FRONTEND_SIDECAR_CONTAINER)) return;
  const c: GoMap = { name: FRONTEND_SIDECAR_CONTAINER, image: fs.image, args: jsonRoundTrip(fs.args), env: jsonRoundTrip(fs.envs) };
  if (typeof fs.envFromSecret === 'string' && fs.envFromSecret !== '') c.envFrom = [{ secretRef: { name: fs.envFromSecret } }];
  containers.push(c);
}

export function extraPodSpecOnlyNamesMainContainer(eps: GoMap | undefined): boolean {
  if (!eps?.mainContainer || !eps.mainContainer.name || !isGoZero(podSpecOf(eps), 'PodSpec')) return false;
  return containerIsEmpty(eps.mainContainer);
}

export function extraPodSpecNeedsPreservation(eps: GoMap | undefined): boolean {
  return eps !== undefined && (extraPodSpecIsZero(eps) || extraPodSpecOnlyNamesMainContainer(eps));
}

export function frontendSidecarConflictNeedsPreservation(fs: GoMap | undefined, eps: GoMap | undefined): boolean {
  return fs !== undefined && (eps?.containers ?? []).some((c: GoMap) => c.name === FRONTEND_SIDECAR_CONTAINER);
}

export function sharedMemoryNeedsPreservation(shm: GoMap | undefined): boolean {
  if (!shm) return false;
  return shm.disabled === true ? !isZeroQuantity(shm.size) : isZeroQuantity(shm.size);
}

export function volumeMountsRoundTrip(mounts: GoMap[] | undefined): boolean {
  return (mounts ?? []).filter(m => m.useAsCompilationCache === true).length <= 1;
}

// ---------------------------------------------------------------------------------------------
// the sparse save of v1alpha1-only data

/** Fills `save` with what the v1beta1 component cannot give back (see the module comment). */
export function saveAlphaOnlyFields(src: GoMap, save: GoMap, includeOriginSplits: boolean): void {
  let saved = false;
  const keep = (key: string, value: unknown) => {
    save[key] = jsonRoundTrip(value);
    saved = true;
  };
  if (src.subComponentType && !subComponentTypePromotes(src)) keep('subComponentType', src.subComponentType);
  if (src.dynamoNamespace !== undefined) keep('dynamoNamespace', src.dynamoNamespace);
  if (src.autoscaling !== undefined) keep('autoscaling', src.autoscaling);
  if (src.ingress !== undefined) keep('ingress', src.ingress);
  if (hasKeys(src.annotations)) keep('annotations', src.annotations);
  if (hasKeys(src.labels)) keep('labels', src.labels);
  if (src.envFromSecret !== undefined) keep('envFromSecret', src.envFromSecret);
  if (resourcesNeedPreservation(src.resources)) keep('resources', src.resources);
  if (nonEmpty(src.volumeMounts) && !volumeMountsRoundTrip(src.volumeMounts)) keep('volumeMounts', src.volumeMounts);
  if (sharedMemoryNeedsPreservation(src.sharedMemory)) keep('sharedMemory', src.sharedMemory);
  if (src.extraPodMetadata !== undefined && !hasKeys(src.extraPodMetadata.annotations) && !hasKeys(src.extraPodMetadata.labels)) {
    keep('extraPodMetadata', src.extraPodMetadata);
  }
  if (extraPodSpecNeedsPreservation(src.extraPodSpec) || frontendSidecarConflictNeedsPreservation(src.frontendSidecar, src.extraPodSpec)) {
    keep('extraPodSpec', src.extraPodSpec);
  }
  if (src.scalingAdapter !== undefined && src.scalingAdapter.enabled !== true) keep('scalingAdapter', src.scalingAdapter);
  if (src.frontendSidecar !== undefined) keep('frontendSidecar', src.frontendSidecar);
  if (src.gpuMemoryService !== undefined && src.gpuMemoryService.enabled !== true) keep('gpuMemoryService', src.gpuMemoryService);
  if (src.failover !== undefined && src.failover.enabled !== true) keep('failover', src.failover);
  if (includeOriginSplits || saved || mainContainerOriginsNeedSave(src)) saveMainContainerOrigins(src, save);
}

function mainContainerOriginsNeedSave(src: GoMap): boolean {
  const main = src.extraPodSpec?.mainContainer;
  if (!main) return false;
  return !!main.name
    || nonEmpty(main.env)
    || !isGoZero(main.resources, 'ResourceRequirements')
    || nonEmpty(main.volumeMounts)
    || main.livenessProbe !== undefined
    || main.readinessProbe !== undefined;
}

/** Which main-container settings came from the dedicated fields and which from extraPodSpec.mainContainer. */
function saveMainContainerOrigins(src: GoMap, save: GoMap): void {
  const main = src.extraPodSpec?.mainContainer;
  if (!main) return;
  const savedMain = (): GoMap => {
    save.extraPodSpec ??= {};
    save.extraPodSpec.mainContainer ??= { name: '' };
    return save.extraPodSpec.mainContainer;
  };
  const put = (target: GoMap, key: string, value: unknown) => {
    if (value === undefined) delete target[key];
    else target[key] = jsonRoundTrip(value);
  };
  if (main.name) savedMain().name = main.name;
  if (nonEmpty(src.envs) || nonEmpty(main.env)) {
    put(save, 'envs', src.envs);
    put(savedMain(), 'env', main.env);
  }
  if (src.envFromSecret !== undefined || nonEmpty(main.envFrom)) {
    if (src.envFromSecret !== undefined) save.envFromSecret = src.envFromSecret;
    put(savedMain(), 'envFrom', main.envFrom);
  }
  if (src.resources !== undefined || !isGoZero(main.resources, 'ResourceRequirements')) {
    put(save, 'resources', src.resources);
    put(savedMain(), 'resources', main.resources ?? {});
  }
  if (nonEmpty(src.volumeMounts) || nonEmpty(main.volumeMounts)) {
    put(save, 'volumeMounts', src.volumeMounts);
    put(savedMain(), 'volumeMounts', main.volumeMounts);
  }
  if (src.livenessProbe !== undefined || main.livenessProbe !== undefined) {
    put(save, 'livenessProbe', src.livenessProbe);
    put(savedMain(), 'livenessProbe', main.livenessProbe);
  }
  if (src.readinessProbe !== undefined || main.readinessProbe !== undefined) {
    put(save, 'readinessProbe', src.readinessProbe);
    put(savedMain(), 'readinessProbe', main.readinessProbe);
  }
}
