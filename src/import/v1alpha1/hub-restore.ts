/**
 * A v1alpha1 object read from a cluster where it was written as v1beta1 carries the v1beta1 data
 * v1alpha1 cannot hold in its preservation annotation (`nvidia.com/dgd-spec` /
 * `nvidia.com/dcd-spec`, a sparse v1beta1 spec). Converting such an object back, the webhook
 * restores that data around what the v1alpha1 fields say: pod-template metadata other than labels
 * and annotations, containers v1alpha1 could not represent and their order, fields of the
 * generated frontend sidecar and of volume mounts, a frontend sidecar naming a user container,
 * and the `experimental.grove` block. The v1alpha1 fields win where both say something.
 */
import { GoMap, isGoZero, nonEmpty } from './go-view';
import { containerIsEmpty, FRONTEND_SIDECAR_CONTAINER, MAIN_CONTAINER, resourcesNeedPreservation } from './pod-parts';
import { mergoMerge } from '../../go/mergo';
import { jsonRoundTrip } from '../../model/json-copy';

/** Restores the preserved v1beta1-only data of one component into `dst` (see the module comment). */
export function restoreSharedHubOnlyFields(dst: GoMap, preserved: GoMap | undefined, src: GoMap): void {
  if (!preserved) return;
  const podTemplate = restorePodTemplate(preserved, dst.podTemplate, dst.compilationCache, src);
  if (podTemplate === undefined) delete dst.podTemplate;
  else dst.podTemplate = podTemplate;
  restoreFrontendSidecarReference(dst, preserved);
  const exp = preserved.experimental;
  if (dst.experimental === undefined && exp !== undefined && !exp.gpuMemoryService && !exp.failover && !exp.checkpoint) {
    dst.experimental = jsonRoundTrip(exp);
  } else if (dst.experimental !== undefined && exp !== undefined && dst.experimental.grove === undefined && exp.grove !== undefined) {
    dst.experimental.grove = jsonRoundTrip(exp.grove);
  }
}

function containers(podTemplate: GoMap | undefined): GoMap[] {
  return (podTemplate?.spec?.containers ?? []) as GoMap[];
}

function findContainer(podTemplate: GoMap | undefined, name: string): GoMap | undefined {
  return containers(podTemplate).find(c => c.name === name);
}

function containerHasOnlyName(c: GoMap): boolean {
  return containerIsEmpty(c);
}

function restoreFrontendSidecarReference(dst: GoMap, preserved: GoMap): void {
  if (dst.frontendSidecar !== undefined || preserved.frontendSidecar === undefined) return;
  const name = preserved.frontendSidecar;
  // a sidecar the preserved template held that the live object no longer has is not named again
  if (preserved.podTemplate && findContainer(preserved.podTemplate, name) && !findContainer(dst.podTemplate, name)) return;
  dst.frontendSidecar = name;
}

function restorePodTemplate(preserved: GoMap, semantic: GoMap | undefined, cache: GoMap | undefined, src: GoMap): GoMap | undefined {
  const saved = preserved.podTemplate;
  if (!saved) return semantic === undefined ? undefined : jsonRoundTrip(semantic);
  const out: GoMap = semantic ? jsonRoundTrip(semantic) : { metadata: {}, spec: {} };
  out.metadata ??= {};
  out.spec ??= {};
  dropGeneratedCacheMount(out, saved, cache, src);
  dropGeneratedMainContainer(out, saved, cache, src);
  restoreMissingContainers(out, saved, src);
  restoreGeneratedSidecarFields(out, saved, src);
  restoreContainerOrder(out, saved);
  restoreMetadata(out, saved);
  restoreVolumeMountFields(out, saved, src);
  if (isGoZero(saved, 'PodTemplateSpec') && isGoZero(out, 'PodTemplateSpec')) return out;
  return isGoZero(out, 'PodTemplateSpec') ? undefined : out;
}

/** Removes the compilation-cache mount the conversion added to `main` when the v1beta1 object had none. */
function dropGeneratedCacheMount(out: GoMap, saved: GoMap, cache: GoMap | undefined, src: GoMap): void {
  if (!cache) return;
  const matches = (m: GoMap) => m.name === cache.pvcName && m.mountPath === (cache.mountPath ?? '');
  const savedMain = findContainer(saved, MAIN_CONTAINER);
  if (savedMain && (savedMain.volumeMounts ?? []).some(matches)) return;
  if ((src.extraPodSpec?.mainContainer?.volumeMounts ?? []).some(matches)) return;
  const main = findContainer(out, MAIN_CONTAINER);
  if (!main) return;
  main.volumeMounts = (main.volumeMounts ?? []).filter((m: GoMap) => !matches(m));
  if (main.volumeMounts.length === 0) delete main.volumeMounts;
}

/** Removes a generated `main` container that holds nothing when the v1beta1 object had no `main`. */
function dropGeneratedMainContainer(out: GoMap, saved: GoMap, cache: GoMap | undefined, src: GoMap): void {
  if (findContainer(saved, MAIN_CONTAINER)) return;
  if (resourcesNeedPreservation(src.resources)) return;
  const list = containers(out);
  const i = list.findIndex(c => c.name === MAIN_CONTAINER);
  if (i < 0) return;
  const candidate = jsonRoundTrip(list[i]);
  if (cache) {
    candidate.volumeMounts = (candidate.volumeMounts ?? []).filter((m: GoMap) => !(m.name === cache.pvcName && m.mountPath === (cache.mountPath ?? '')));
  }
  if (!containerIsEmpty(candidate)) return;
  list.splice(i, 1);
  if (list.length === 0) delete out.spec.containers;
}

/** Adds the preserved containers v1alpha1 could not represent (not a stale generated sidecar). */
function restoreMissingContainers(out: GoMap, saved: GoMap, src: GoMap): void {
  for (const c of containers(saved)) {
    if (containerHasOnlyName(c) || findContainer(out, c.name)) continue;
    if (c.name === FRONTEND_SIDECAR_CONTAINER && src.frontendSidecar === undefined) continue;
    (out.spec.containers ??= []).push(jsonRoundTrip(c));
  }
}

/** Merges the preserved v1beta1-only fields of the generated frontend sidecar into it. */
function restoreGeneratedSidecarFields(out: GoMap, saved: GoMap, src: GoMap): void {
  const fs = src.frontendSidecar;
  if (fs === undefined) return;
  const preserved = findContainer(saved, FRONTEND_SIDECAR_CONTAINER);
  if (!preserved || containerHasOnlyName(preserved)) return;
  const list = containers(out);
  const i = list.findIndex(c => c.name === FRONTEND_SIDECAR_CONTAINER);
  if (i < 0) return;
  const extra = jsonRoundTrip(preserved);
  extra.name = '';
  delete extra.image;
  delete extra.args;
  delete extra.env;
  if (nonEmpty(extra.envFrom)) {
    const envFrom = restoredSidecarEnvFrom(list[i].envFrom, extra.envFrom, fs);
    if (envFrom === undefined) delete extra.envFrom;
    else extra.envFrom = envFrom;
  }
  list[i] = mergoMerge(list[i], extra);
}

function restoredSidecarEnvFrom(current: GoMap[] | undefined, preserved: GoMap[], fs: GoMap): GoMap[] | undefined {
  const secret = fs.envFromSecret;
  if (typeof secret !== 'string' || secret === '') return jsonRoundTrip(preserved);
  if (current?.length !== 1 || preserved.length !== 1 || !current[0].secretRef || !preserved[0].secretRef
    || current[0].secretRef.name !== secret || preserved[0].secretRef.name !== secret) return undefined;
  const out = jsonRoundTrip(preserved);
  out[0].secretRef.name = current[0].secretRef.name;
  return out;
}

/** Puts the containers back in the preserved order when both hold the same names. */
function restoreContainerOrder(out: GoMap, saved: GoMap): void {
  const order = containers(saved);
  const list = containers(out);
  if (order.length < 2 || order.length !== list.length) return;
  if (!list.every(c => order.some(s => s.name === c.name))) return;
  const remaining = [...list];
  const sorted: GoMap[] = [];
  for (const s of order) {
    const i = remaining.findIndex(c => c.name === s.name);
    if (i >= 0) sorted.push(...remaining.splice(i, 1));
  }
  out.spec.containers = [...sorted, ...remaining];
}

/** The preserved pod-template metadata, with the labels and annotations of the v1alpha1 fields. */
function restoreMetadata(out: GoMap, saved: GoMap): void {
  const { labels, annotations } = out.metadata ?? {};
  const metadata: GoMap = jsonRoundTrip(saved.metadata ?? {});
  delete metadata.labels;
  delete metadata.annotations;
  if (labels !== undefined) metadata.labels = labels;
  if (annotations !== undefined) metadata.annotations = annotations;
  out.metadata = metadata;
}

/** Copies preserved fields (readOnly, subPath, ...) onto the `main` mounts built from v1alpha1 volumeMounts. */
function restoreVolumeMountFields(out: GoMap, saved: GoMap, src: GoMap): void {
  if (!nonEmpty(src.volumeMounts)) return;
  const savedMain = findContainer(saved, MAIN_CONTAINER);
  if (!savedMain || !nonEmpty(savedMain.volumeMounts)) return;
  const main = findContainer(out, MAIN_CONTAINER);
  if (!main) return;
  main.volumeMounts = (main.volumeMounts ?? []).map((m: GoMap) => {
    const fromFlat = (src.volumeMounts as GoMap[]).some(v => v.name === m.name && (v.mountPoint ?? '') === m.mountPath);
    const fromExtra = (src.extraPodSpec?.mainContainer?.volumeMounts ?? []).some((v: GoMap) => v.name === m.name && v.mountPath === m.mountPath);
    if (!fromFlat || fromExtra) return m;
    const found = preservedVolumeMount(savedMain.volumeMounts, m);
    return found ? { ...jsonRoundTrip(found), name: m.name, mountPath: m.mountPath } : m;
  });
}

/** The preserved mount with the same name and path, else the only one with the same name. */
function preservedVolumeMount(mounts: GoMap[], mount: GoMap): GoMap | undefined {
  const exact = mounts.find(m => m.name === mount.name && m.mountPath === mount.mountPath);
  if (exact) return exact;
  const named = mounts.filter(m => m.name === mount.name);
  return named.length === 1 ? named[0] : undefined;
}
