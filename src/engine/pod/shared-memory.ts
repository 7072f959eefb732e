/**
 * `/dev/shm` for the main container (docs/design/render-core.md §5.7.1): a memory-backed emptyDir of
 * `sharedMemorySize` (8Gi when unset), replacing any volume named `shared-memory` and any mount
 * named so or mounted at `/dev/shm`. A zero size (`"0"`, `0Gi`) adds nothing and removes nothing.
 */
import { ContainerJson, objectItems, PodSpecJson, VolumeJson, VolumeMountJson } from './k8s-json';
import { canonicalQuantity, isZeroQuantity, QuantityParseError } from '../../go/quantity';
import { RenderError } from '../../model/render-error';

export const SHARED_MEMORY_VOLUME = 'shared-memory';
export const SHARED_MEMORY_MOUNT_PATH = '/dev/shm';
export const DEFAULT_SHARED_MEMORY_SIZE = '8Gi';

/** The canonical size of the shared-memory volume, or undefined when disabled by a zero size. */
export function sharedMemorySize(size: unknown, objectRef: string): string | undefined {
  if (size === undefined || size === null) return DEFAULT_SHARED_MEMORY_SIZE;
  if (typeof size !== 'string' && typeof size !== 'number') {
    throw new RenderError(objectRef, 'spec.sharedMemorySize', `must be a quantity, got ${JSON.stringify(size)}`);
  }
  try {
    return isZeroQuantity(size) ? undefined : canonicalQuantity(size);
  } catch (e) {
    if (e instanceof QuantityParseError) {
      throw new RenderError(objectRef, 'spec.sharedMemorySize', `${JSON.stringify(size)} is not a valid quantity`);
    }
    throw e;
  }
}

/** Adds the shared-memory volume to the pod and its mount (last) to the main container. */
export function applySharedMemory(podSpec: Omit<PodSpecJson, 'containers'>, main: ContainerJson, size: unknown, objectRef: string): void {
  const sizeLimit = sharedMemorySize(size, objectRef);
  if (sizeLimit === undefined) return;
  podSpec.volumes = [
    ...objectItems<VolumeJson>(podSpec.volumes).filter(v => v.name !== SHARED_MEMORY_VOLUME),
    { name: SHARED_MEMORY_VOLUME, emptyDir: { medium: 'Memory', sizeLimit } },
  ];
  main.volumeMounts = [
    ...objectItems<VolumeMountJson>(main.volumeMounts).filter(m => m.name !== SHARED_MEMORY_VOLUME && m.mountPath !== SHARED_MEMORY_MOUNT_PATH),
    { name: SHARED_MEMORY_VOLUME, mountPath: SHARED_MEMORY_MOUNT_PATH },
  ];
}
