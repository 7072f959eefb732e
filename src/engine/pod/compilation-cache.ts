/**
 * The compilation cache PVC (docs/design/render-core.md §5.7.2): mounted into the main container at
 * `compilationCache.mountPath` (or the backend's default, vLLM only) and added to the pod as a
 * PVC volume of the same name. The cache must be writable and own its mount path.
 */
import { ContainerJson, objectItems, PodSpecJson, VolumeJson, VolumeMountJson } from './k8s-json';
import { isMap } from '../../model/json';
import { RenderError } from '../../model/render-error';
import { Backend } from '../backend/backend';

/** The cache after defaulting. */
export interface CompilationCache {
  readonly pvcName: string;
  readonly mountPath: string;
}

const FIELD = 'spec.compilationCache';

/** The component's cache with its mount path defaulted, or undefined when it has none. */
export function resolveCompilationCache(config: unknown, backend: Backend, objectRef: string): CompilationCache | undefined {
  if (config === undefined || config === null) return undefined;
  const pvcName = isMap(config) && typeof config.pvcName === 'string' ? config.pvcName : '';
  if (!pvcName) throw new RenderError(objectRef, `${FIELD}.pvcName`, 'compilationCache.pvcName is required when compilationCache is set');
  const given = isMap(config) && typeof config.mountPath === 'string' ? config.mountPath : '';
  const mountPath = given || backend.defaultCompilationCacheMountPath;
  if (!mountPath) {
    throw new RenderError(objectRef, `${FIELD}.mountPath`,
      `compilationCache.mountPath is required for backend framework ${backend.framework} (no default available)`);
  }
  return { pvcName, mountPath };
}

/**
 * Mounts the cache into the main container: a mount of the PVC without a path gets the cache
 * path, one writable mount of the PVC at that path is kept (or appended), another volume at the
 * path or a read-only cache mount is refused.
 */
export function applyCompilationCacheMount(container: ContainerJson, cache: CompilationCache, objectRef: string): void {
  const mounts: VolumeMountJson[] = [];
  let mounted = false;
  for (const original of objectItems<VolumeMountJson>(container.volumeMounts)) {
    const mount = original.name === cache.pvcName && !original.mountPath ? { ...original, mountPath: cache.mountPath } : original;
    if (mount.mountPath !== cache.mountPath) {
      mounts.push(mount);
      continue;
    }
    if (mount.name !== cache.pvcName) {
      throw new RenderError(objectRef, `${FIELD}.mountPath`,
        `compilationCache.mountPath "${cache.mountPath}" is already used by volume "${mount.name}"`);
    }
    if (mount.readOnly) {
      throw new RenderError(objectRef, FIELD, `compilation cache volume "${cache.pvcName}" at "${cache.mountPath}" must be writable (the main container mounts it readOnly)`);
    }
    if (mounted) continue;
    mounts.push(mount);
    mounted = true;
  }
  if (!mounted) mounts.push({ name: cache.pvcName, mountPath: cache.mountPath });
  container.volumeMounts = mounts;
}

/** Adds the cache's PVC volume unless the pod already has one of that name (which must then be that writable PVC, once). */
export function applyCompilationCacheVolume(podSpec: Omit<PodSpecJson, 'containers'>, cache: CompilationCache, objectRef: string): void {
  const volumes = objectItems<VolumeJson>(podSpec.volumes);
  const field = 'spec.podTemplate.spec.volumes';
  let found = false;
  for (const volume of volumes) {
    if (volume.name !== cache.pvcName) continue;
    const pvc = volume.persistentVolumeClaim;
    if (!isMap(pvc)) {
      throw new RenderError(objectRef, field, `compilation cache volume "${volume.name}" must reference PVC "${cache.pvcName}"`);
    }
    if (pvc.claimName !== cache.pvcName) {
      throw new RenderError(objectRef, field,
        `compilation cache volume "${volume.name}" references PVC "${String(pvc.claimName ?? '')}" instead of "${cache.pvcName}"`);
    }
    if (pvc.readOnly === true) throw new RenderError(objectRef, field, `compilation cache PVC "${cache.pvcName}" must be writable`);
    if (found) throw new RenderError(objectRef, field, `compilation cache volume "${cache.pvcName}" is defined more than once`);
    found = true;
  }
  if (!found) podSpec.volumes = [...volumes, { name: cache.pvcName, persistentVolumeClaim: { claimName: cache.pvcName } }];
}
