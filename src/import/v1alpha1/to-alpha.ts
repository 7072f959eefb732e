/**
 * The other direction of `shared-spec.ts`: a v1beta1 component (a `spec.components` entry of a
 * DynamoGraphDeployment) as the v1alpha1 service the operator's webhook makes of it when it serves
 * the graph as v1alpha1 (`ConvertToDynamoComponentDeploymentSharedSpec` in ai-dynamo/dynamo's
 * `deploy/operator/api/v1alpha1/shared_spec_conversion.go`), with the v1alpha1-only data a graph
 * first written as v1alpha1 kept in its `nvidia.com/dgd-spec` annotation put back.
 *
 * Values are Go views (`go-view.ts`). The v1beta1-only data the webhook would keep in its own
 * annotation on the v1alpha1 object is not computed: nothing here needs it.
 *
 * The mapping, field by field:
 * - `type` prefill / decode → `componentType: worker` with that `subComponentType`; other types as
 *   they are; `name` → `serviceName`.
 * - `sharedMemorySize` → `sharedMemory` (a zero size is `disabled: true` with that size);
 *   `compilationCache` → a volume mount flagged `useAsCompilationCache`; `scalingAdapter`
 *   present → `enabled: true`; `experimental` GPU memory service / failover → enabled blocks,
 *   checkpoint as it is; multinode roles → `multinode.leader` / `worker`.
 * - the pod template is taken apart: its labels and annotations → `extraPodMetadata`; the first
 *   container named `main` gives `resources` (nvidia.com/gpu as `gpu`, cpu, memory, the rest as
 *   `custom`), `envs`, the probes and its volume mounts (name and path only) to the dedicated
 *   fields, and what else it holds becomes `extraPodSpec.mainContainer`; the rest of the pod
 *   spec, with the other containers, becomes `extraPodSpec`.
 * - from the preserved v1alpha1 service: what v1beta1 has no field for (subComponentType,
 *   dynamoNamespace, autoscaling, ingress, labels, annotations, disabled features, shared memory
 *   and resources forms, the frontend sidecar, extra compilation-cache mounts), and where the
 *   main container's settings came from (dedicated fields or `extraPodSpec.mainContainer`) when
 *   the live values still match what was preserved.
 */
import { GoMap, hasKeys, isGoZero, nonEmpty, semanticEqual } from './go-view';
import {
  containerIsEmpty, extraPodSpecIsZero, FRONTEND_SIDECAR_CONTAINER, MAIN_CONTAINER, resourcesFromNative, resourcesNeedPreservation,
  resourcesToNative,
} from './pod-parts';
import {
  extraPodSpecNeedsPreservation, frontendSidecarConflictNeedsPreservation, extraPodSpecOnlyNamesMainContainer, hasPodTemplateContent, mainContainerOf,
  sharedMemoryNeedsPreservation, volumeMountsRoundTrip,
} from './shared-spec';
import { isZeroQuantity } from '../../go/quantity';
import { jsonRoundTrip } from '../../model/json-copy';

/** The v1alpha1 spelling of a v1beta1 GPU memory service / failover mode. */
function modeFromHub(mode: string | undefined): string | undefined {
  if (mode === 'IntraPod') return 'intraPod';
  if (mode === 'InterPod') return 'interPod';
  return mode;
}

/**
 * The v1alpha1 service of the v1beta1 component `src` (a Go view of
 * `DynamoComponentDeploymentSharedSpec`). `preserved` is the service kept in the graph's
 * `nvidia.com/dgd-spec` annotation, when it has one.
 */
export function alphaServiceOf(src: GoMap, preserved: GoMap | undefined): GoMap {
  const dst: GoMap = {};
  if (src.providerOverride) dst.providerOverride = jsonRoundTrip(src.providerOverride);
  if (src.type === 'prefill' || src.type === 'decode') {
    dst.componentType = 'worker';
    dst.subComponentType = src.type;
  } else if (src.type) {
    dst.componentType = src.type;
  }
  if (src.globalDynamoNamespace !== undefined) dst.globalDynamoNamespace = src.globalDynamoNamespace;
  if (src.replicas !== undefined) dst.replicas = src.replicas;
  if (src.minAvailable !== undefined) dst.minAvailable = src.minAvailable;
  if (src.multinode) dst.multinode = multinodeFromHub(src);
  if (src.modelRef) dst.modelRef = { name: src.modelRef.name, revision: src.modelRef.revision };
  if (src.topologyConstraint) dst.topologyConstraint = { packDomain: src.topologyConstraint.packDomain };
  if (src.eppConfig) dst.eppConfig = { configMapRef: jsonRoundTrip(src.eppConfig.configMapRef), config: jsonRoundTrip(src.eppConfig.config) };
  if (src.runtimeVersionOverride !== undefined) dst.runtimeVersionOverride = src.runtimeVersionOverride;
  if (src.name) dst.serviceName = src.name;
  if (src.sharedMemorySize !== undefined) {
    dst.sharedMemory = isZeroQuantity(src.sharedMemorySize) ? { disabled: true, size: src.sharedMemorySize } : { size: src.sharedMemorySize };
  }
  if (src.compilationCache) {
    dst.volumeMounts = [{ name: src.compilationCache.pvcName ?? '', mountPoint: src.compilationCache.mountPath ?? '', useAsCompilationCache: true }];
  }
  experimentalFromHub(src.experimental, dst);
  if (src.scalingAdapter) dst.scalingAdapter = { enabled: true };
  takePodTemplateApart(src, dst, preserved);
  restoreExtraCompilationCacheMounts(dst, preserved, src);
  if (preserved) restoreAlphaOnlyFields(dst, preserved, findContainer(src.podTemplate?.spec?.containers, MAIN_CONTAINER) !== undefined);
  dropEmptyExtraPodSpec(dst, preserved);
  return dst;
}

/** `multinode.nodeCount`, and the roles' provider overrides as the v1alpha1 leader / worker settings. */
function multinodeFromHub(src: GoMap): GoMap {
  const out: GoMap = { nodeCount: src.multinode.nodeCount };
  for (const role of (src.roles ?? []) as GoMap[]) {
    if (role?.name !== 'leader' && role?.name !== 'worker') continue;
    out[role.name] = role.providerOverride ? { providerOverride: jsonRoundTrip(role.providerOverride) } : {};
  }
  return out;
}

function experimentalFromHub(exp: GoMap | undefined, dst: GoMap): void {
  if (!exp) return;
  const gms = exp.gpuMemoryService;
  if (gms) {
    dst.gpuMemoryService = {
      enabled: true,
      mode: modeFromHub(gms.mode),
      deviceClassName: gms.deviceClassName,
      extraClientContainers: jsonRoundTrip(gms.extraClientContainers),
    };
    if (nonEmpty(gms.extraClientPods)) {
      dst.gpuMemoryService.extraClientPods = gms.extraClientPods.map((pod: GoMap) => ({
        name: pod.name, podTemplate: jsonRoundTrip(pod.podTemplate),
      }));
    }
  }
  if (exp.failover) dst.failover = { enabled: true, mode: modeFromHub(exp.failover.mode), numShadows: exp.failover.numShadows };
  if (exp.checkpoint) dst.checkpoint = jsonRoundTrip(exp.checkpoint);
}

function findContainer(list: GoMap[] | undefined, name: string): GoMap | undefined {
  return (list ?? []).find(c => c?.name === name);
}

// ---------------------------------------------------------------------------------------------
// the pod template

function takePodTemplateApart(src: GoMap, dst: GoMap, preserved: GoMap | undefined): void {
  const template = src.podTemplate;
  const sidecar = preservedGeneratedSidecar(src, preserved);
  if (!template) {
    if (sidecar) dst.frontendSidecar = jsonRoundTrip(sidecar);
    return;
  }
  const metadata = template.metadata ?? {};
  if (hasKeys(metadata.annotations) || hasKeys(metadata.labels)) {
    dst.extraPodMetadata = { annotations: jsonRoundTrip(metadata.annotations), labels: jsonRoundTrip(metadata.labels) };
  }
  let main: GoMap | undefined;
  let others: GoMap[] = [];
  for (const c of (template.spec?.containers ?? []) as GoMap[]) {
    if (main === undefined && c.name === MAIN_CONTAINER) main = jsonRoundTrip(c);
    else others.push(jsonRoundTrip(c));
  }
  if (sidecar && src.frontendSidecar) {
    const container = findContainer(others, src.frontendSidecar);
    if (container) {
      dst.frontendSidecar = sidecarSpecOf(container, sidecar);
      others = others.filter(c => c.name !== src.frontendSidecar);
    } else {
      dst.frontendSidecar = jsonRoundTrip(sidecar);
    }
  }
  if (main) moveDedicatedFields(main, dst);
  const podSpec: GoMap = { ...jsonRoundTrip(template.spec ?? {}), containers: others };
  const podSpecIsZero = isGoZero(podSpec, 'PodSpec');
  let mainRest: GoMap | undefined;
  if (main) {
    mainRest = { ...main, name: '' };
    if (containerIsEmpty(mainRest)) mainRest = undefined;
  }
  if (podSpecIsZero && !mainRest) return;
  const eps: GoMap = podSpecIsZero ? {} : podSpec;
  if (mainRest) eps.mainContainer = mainRest;
  dst.extraPodSpec = eps;
}

/** The preserved v1alpha1 frontend sidecar, when the component names the generated `sidecar-frontend`. */
function preservedGeneratedSidecar(src: GoMap, preserved: GoMap | undefined): GoMap | undefined {
  if (src.frontendSidecar !== FRONTEND_SIDECAR_CONTAINER) return undefined;
  return preserved?.frontendSidecar ?? undefined;
}

/** The v1alpha1 frontend sidecar of the container, over the preserved one. */
function sidecarSpecOf(container: GoMap, origin: GoMap): GoMap {
  const out: GoMap = jsonRoundTrip(origin);
  out.image = container.image ?? '';
  out.args = jsonRoundTrip(container.args);
  out.envs = jsonRoundTrip(container.env);
  const envFrom: GoMap[] = container.envFrom ?? [];
  const only = envFrom.length === 1 ? envFrom[0] : undefined;
  if (only && !only.prefix && !only.configMapRef && only.secretRef) out.envFromSecret = only.secretRef.name ?? '';
  else if (origin.envFromSecret === '') out.envFromSecret = '';
  else delete out.envFromSecret;
  return out;
}

/** Moves what the dedicated v1alpha1 fields hold out of the main container. */
function moveDedicatedFields(main: GoMap, dst: GoMap): void {
  const resources = main.resources ? resourcesFromNative(main.resources) : undefined;
  if (resources) {
    dst.resources = resources;
    delete main.resources;
  }
  if (nonEmpty(main.volumeMounts)) {
    dst.volumeMounts = appendMissingMounts(dst.volumeMounts ?? [], mountsFromNative(main.volumeMounts));
    delete main.volumeMounts;
  }
  if (nonEmpty(main.env)) {
    dst.envs = main.env;
    delete main.env;
  }
  for (const probe of ['livenessProbe', 'readinessProbe']) {
    if (main[probe]) {
      dst[probe] = main[probe];
      delete main[probe];
    }
  }
}

/** v1alpha1 volume mounts (name and path) of container volume mounts. */
function mountsFromNative(mounts: GoMap[] | undefined): GoMap[] {
  return (mounts ?? []).map(m => ({ name: m.name ?? '', mountPoint: m.mountPath ?? '' }));
}

function sameMount(a: GoMap, name: string, path: string): boolean {
  return (a.name ?? '') === name && (a.mountPoint ?? '') === path;
}

/** `into` with the mounts of `mounts` it does not have (by name and path) appended. */
function appendMissingMounts(into: GoMap[], mounts: GoMap[]): GoMap[] {
  const out = [...into];
  for (const m of mounts) {
    if (!out.some(e => sameMount(e, m.name ?? '', m.mountPoint ?? ''))) out.push(m);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// compilation-cache mounts beyond the first (v1beta1 has one compilationCache)

function isCacheMount(m: GoMap): boolean {
  return m.useAsCompilationCache === true;
}

function cacheMatches(cache: GoMap | undefined, m: GoMap): boolean {
  return cache !== undefined && (cache.pvcName ?? '') === (m.name ?? '') && (cache.mountPath ?? '') === (m.mountPoint ?? '');
}

/** Puts back the preserved compilation-cache flags when the live component still shows what they became. */
function restoreExtraCompilationCacheMounts(dst: GoMap, preserved: GoMap | undefined, src: GoMap): void {
  const kept: GoMap[] = preserved?.volumeMounts ?? [];
  if (!preserved || volumeMountsRoundTrip(kept)) return;
  const firstCache = kept.find(isCacheMount);
  if (firstCache ? !cacheMatches(src.compilationCache, firstCache) : src.compilationCache !== undefined) return;
  if (!sameMountList(dst.volumeMounts ?? [], visibleProjection(src, kept))) return;
  const main = findContainer(src.podTemplate?.spec?.containers, MAIN_CONTAINER);
  const secondaryVisible = main !== undefined || hasPodTemplateContent(preserved, false);
  const restorable: GoMap[] = [];
  let seenFirst = false;
  for (const m of kept) {
    if (!isCacheMount(m)) continue;
    if (!seenFirst) {
      seenFirst = true;
      if (cacheMatches(src.compilationCache, m)) restorable.push(m);
      continue;
    }
    const onMain = ((main?.volumeMounts ?? []) as GoMap[]).some(v => (v.name ?? '') === (m.name ?? '') && (v.mountPath ?? '') === (m.mountPoint ?? ''));
    if (!secondaryVisible || onMain) restorable.push(m);
  }
  const out: GoMap[] = [];
  for (const m of restorable) {
    if (!out.some(e => sameMount(e, m.name ?? '', m.mountPoint ?? ''))) out.push(jsonRoundTrip(m));
  }
  for (const m of dst.volumeMounts ?? []) {
    if (!out.some(e => sameMount(e, m.name ?? '', m.mountPoint ?? ''))) out.push(m);
  }
  dst.volumeMounts = out;
}

/** The first preserved cache mount, then the main container's mounts not among them. */
function visibleProjection(src: GoMap, kept: GoMap[]): GoMap[] {
  const first = kept.find(isCacheMount);
  const out = first ? [first] : [];
  const main = findContainer(src.podTemplate?.spec?.containers, MAIN_CONTAINER);
  return nonEmpty(main?.volumeMounts) ? appendMissingMounts(out, mountsFromNative(main!.volumeMounts)) : out;
}

function sameMountList(a: GoMap[], b: GoMap[]): boolean {
  return a.length === b.length && a.every((m, i) => sameMount(m, b[i].name ?? '', b[i].mountPoint ?? '') && isCacheMount(m) === isCacheMount(b[i]));
}

// ---------------------------------------------------------------------------------------------
// the preserved v1alpha1-only data

function restoreAlphaOnlyFields(dst: GoMap, preserved: GoMap, mainPresent: boolean): void {
  if (!dst.subComponentType && preserved.subComponentType) dst.subComponentType = preserved.subComponentType;
  for (const key of ['dynamoNamespace', 'autoscaling', 'ingress']) {
    if (dst[key] === undefined && preserved[key] !== undefined) dst[key] = jsonRoundTrip(preserved[key]);
  }
  for (const key of ['annotations', 'labels']) {
    if (!hasKeys(dst[key]) && preserved[key] !== undefined) dst[key] = jsonRoundTrip(preserved[key]);
  }
  restorePodFields(dst, preserved, mainPresent);
  for (const key of ['scalingAdapter', 'gpuMemoryService', 'failover', 'checkpoint']) {
    if (dst[key] === undefined && preserved[key] !== undefined && preserved[key].enabled !== true) dst[key] = jsonRoundTrip(preserved[key]);
  }
}

function restorePodFields(dst: GoMap, preserved: GoMap, mainPresent: boolean): void {
  if (sharedMemoryWasDisabledWithSize(dst.sharedMemory, preserved.sharedMemory)) dst.sharedMemory = jsonRoundTrip(preserved.sharedMemory);
  if (mainPresent && resourcesStillMatch(dst.resources, preserved.resources)) dst.resources = jsonRoundTrip(preserved.resources);
  restoreEnvFromSecret(dst, preserved, mainPresent);
  const epm = preserved.extraPodMetadata;
  if (dst.extraPodMetadata === undefined && epm !== undefined && !hasKeys(epm.annotations) && !hasKeys(epm.labels)) {
    dst.extraPodMetadata = jsonRoundTrip(epm);
  }
  const eps = preserved.extraPodSpec;
  if (eps !== undefined && (extraPodSpecNeedsPreservation(eps) || frontendSidecarConflictNeedsPreservation(preserved.frontendSidecar, eps))) {
    if (dst.extraPodSpec === undefined) dst.extraPodSpec = jsonRoundTrip(eps);
    else restoreSidecarConflict(dst.extraPodSpec, eps);
  }
  restoreMainContainerOrigins(dst, preserved, mainPresent);
  const main = dst.extraPodSpec?.mainContainer;
  if (main && !main.name && eps?.mainContainer) main.name = eps.mainContainer.name ?? '';
}

/** A preserved shared memory that was disabled with a size, when the live one is disabled with none. */
function sharedMemoryWasDisabledWithSize(current: GoMap | undefined, kept: GoMap | undefined): boolean {
  if (!kept || !sharedMemoryNeedsPreservation(kept)) return false;
  if (!current) return true;
  return kept.disabled === true && current.disabled === true && isZeroQuantity(current.size ?? '0');
}

/** Preserved resources of a form that does not read back, still giving the live requirements. */
function resourcesStillMatch(current: GoMap | undefined, kept: GoMap | undefined): boolean {
  if (!kept || !resourcesNeedPreservation(kept)) return false;
  return semanticEqual(current ? resourcesToNative(current) : {}, resourcesToNative(kept), 'ResourceRequirements');
}

function restoreEnvFromSecret(dst: GoMap, preserved: GoMap, mainPresent: boolean): void {
  if (dst.envFromSecret !== undefined || preserved.envFromSecret === undefined) return;
  if (preserved.envFromSecret === '') {
    dst.envFromSecret = '';
    return;
  }
  const main = dst.extraPodSpec?.mainContainer;
  if (!mainPresent || !main) return;
  if (!semanticEqual(main.envFrom, [{ secretRef: { name: preserved.envFromSecret } }], '[]EnvFromSource')) return;
  dst.envFromSecret = preserved.envFromSecret;
  delete main.envFrom;
}

/** Adds the preserved `sidecar-frontend` container of `extraPodSpec` when the live one has none. */
function restoreSidecarConflict(eps: GoMap, kept: GoMap): void {
  const container = findContainer(kept.containers, FRONTEND_SIDECAR_CONTAINER);
  if (!container || findContainer(eps.containers, FRONTEND_SIDECAR_CONTAINER)) return;
  (eps.containers ??= []).push(jsonRoundTrip(container));
}

function ensureMainContainer(dst: GoMap): GoMap {
  dst.extraPodSpec ??= {};
  dst.extraPodSpec.mainContainer ??= {};
  return dst.extraPodSpec.mainContainer;
}

function setOrDelete(target: GoMap, key: string, value: unknown): void {
  if (value === undefined) delete target[key];
  else target[key] = jsonRoundTrip(value);
}

/**
 * Where the main container's env, envFrom secret, resources, volume mounts and probes came from,
 * put back as preserved when the live main container still holds what the preserved service gave.
 */
function restoreMainContainerOrigins(dst: GoMap, preserved: GoMap, mainPresent: boolean): void {
  const keptMain = preserved.extraPodSpec?.mainContainer;
  if (!mainPresent || !keptMain) return;
  const current = mainContainerOf(dst);
  const kept = mainContainerOf(preserved);
  if (semanticEqual(current.env, kept.env, '[]EnvVar') && (nonEmpty(preserved.envs) || nonEmpty(keptMain.env))) {
    setOrDelete(dst, 'envs', preserved.envs);
    setOrDelete(ensureMainContainer(dst), 'env', keptMain.env);
  }
  if (semanticEqual(current.envFrom, kept.envFrom, '[]EnvFromSource') && preserved.envFromSecret !== undefined) {
    dst.envFromSecret = preserved.envFromSecret;
  }
  if (semanticEqual(current.resources, kept.resources, 'ResourceRequirements')
    && (preserved.resources !== undefined || !isGoZero(keptMain.resources, 'ResourceRequirements'))) {
    setOrDelete(dst, 'resources', preserved.resources);
    ensureMainContainer(dst).resources = jsonRoundTrip(keptMain.resources ?? {});
  }
  const currentMounts = withoutCacheMounts(current.volumeMounts, dst.volumeMounts);
  const keptMounts = mountsFromNative(withoutCacheMounts(kept.volumeMounts, preserved.volumeMounts));
  const originsMatch = keptMounts.length === currentMounts.length
    && keptMounts.every((m, i) => m.name === (currentMounts[i].name ?? '') && m.mountPoint === (currentMounts[i].mountPath ?? ''));
  if (originsMatch && (nonEmpty(preserved.volumeMounts) || nonEmpty(keptMain.volumeMounts))) {
    dst.volumeMounts = mountOrigins(preserved.volumeMounts ?? [], dst.volumeMounts ?? [], keptMain.volumeMounts ?? []);
    setOrDelete(ensureMainContainer(dst), 'volumeMounts', nonEmpty(keptMain.volumeMounts) ? keptMain.volumeMounts : undefined);
  }
  for (const probe of ['livenessProbe', 'readinessProbe']) {
    if (semanticEqual(current[probe], kept[probe], '*Probe') && (preserved[probe] !== undefined || keptMain[probe] !== undefined)) {
      setOrDelete(dst, probe, preserved[probe]);
      setOrDelete(ensureMainContainer(dst), probe, keptMain[probe]);
    }
  }
}

/** Container mounts without those the v1alpha1 mounts flag as compilation cache. */
function withoutCacheMounts(mounts: GoMap[] | undefined, flat: GoMap[] | undefined): GoMap[] {
  const caches = (flat ?? []).filter(isCacheMount);
  return (mounts ?? []).filter(m => !caches.some(c => sameMount(c, m.name ?? '', m.mountPath ?? '')));
}

/**
 * The v1alpha1 mounts in their preserved origins: the preserved plain mounts, then the live plain
 * mounts neither preserved nor on the preserved main container; a live cache mount flags the plain
 * mount of the same name and path, or is appended.
 */
function mountOrigins(kept: GoMap[], current: GoMap[], keptMain: GoMap[]): GoMap[] {
  const out: GoMap[] = kept.filter(m => !isCacheMount(m)).map(m => jsonRoundTrip(m));
  for (const m of current) {
    const name = m.name ?? '';
    const path = m.mountPoint ?? '';
    if (!isCacheMount(m)) {
      const onKeptMain = keptMain.some(v => (v.name ?? '') === name && (v.mountPath ?? '') === path);
      if (!onKeptMain && !out.some(e => sameMount(e, name, path))) out.push(m);
      continue;
    }
    const same = out.find(e => sameMount(e, name, path));
    if (same) same.useAsCompilationCache = true;
    else out.push(m);
  }
  return out;
}

/** Drops an `extraPodSpec.mainContainer` and an `extraPodSpec` left empty, unless the preserved service had that shape. */
function dropEmptyExtraPodSpec(dst: GoMap, preserved: GoMap | undefined): void {
  const eps = dst.extraPodSpec;
  if (!eps) return;
  if (containerIsEmpty(eps.mainContainer) && !extraPodSpecOnlyNamesMainContainer(preserved?.extraPodSpec)) delete eps.mainContainer;
  if (!extraPodSpecIsZero(eps)) return;
  if (preserved && extraPodSpecNeedsPreservation(preserved.extraPodSpec)) return;
  delete dst.extraPodSpec;
}
