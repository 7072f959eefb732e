/**
 * Main-container mounts and pod volumes (docs/design/render-core.md §5.2 step 6, §5.7.3): every mount needs a
 * name and a path, and the pod's volumes are put in mount order, with a PVC of the mount's name
 * generated for a mount whose volume does not exist.
 */
import { ContainerJson, objectItems, VolumeJson, VolumeMountJson } from './k8s-json';
import { RenderError } from '../../model/render-error';

/** Refuses a main-container mount without `name` or `mountPath`. */
export function validateMainMounts(container: ContainerJson, objectRef: string): void {
  objectItems<VolumeMountJson>(container.volumeMounts).forEach((mount, i) => {
    const field = `spec.podTemplate.spec.containers[main].volumeMounts[${i}]`;
    if (!mount.name) throw new RenderError(objectRef, `${field}.name`, 'volumeMount.name is required');
    if (!mount.mountPath) throw new RenderError(objectRef, `${field}.mountPath`, `volumeMount.mountPath is required for ${mount.name}`);
  });
}

/**
 * The volumes reordered: one per distinct mount name in mount order (a missing one becomes
 * `{name, persistentVolumeClaim: {claimName: name}}`), then the unmounted ones in their order.
 */
export function orderVolumesByMounts(volumes: unknown, mounts: unknown): VolumeJson[] {
  const existing = objectItems<VolumeJson>(volumes);
  const byName = new Map<string, VolumeJson>();
  for (const volume of existing) byName.set(volume.name, volume);
  const ordered: VolumeJson[] = [];
  const placed = new Set<string>();
  for (const mount of objectItems<VolumeMountJson>(mounts)) {
    if (!mount.name || placed.has(mount.name)) continue;
    ordered.push(byName.get(mount.name) ?? { name: mount.name, persistentVolumeClaim: { claimName: mount.name } });
    placed.add(mount.name);
  }
  for (const volume of existing) {
    if (!placed.has(volume.name)) ordered.push(volume);
  }
  return ordered;
}
