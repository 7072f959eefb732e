/**
 * `frontendSidecar` (docs/design/render-core.md §5.6): the named pod-template container becomes a frontend —
 * frontend defaults (computed with the parent's Dynamo namespace and discovery) with the user's
 * container merged over them. Unlike the main container, probes merge field by field. The
 * sidecar also gets the standard env and every main-container mount it lacks (as the mounts
 * were after the compilation-cache step, so without `/dev/shm`).
 */
import { addStandardEnv, mergeEnvs } from './env';
import { ContainerJson, objectItems, PodSpecJson, VolumeMountJson } from './k8s-json';
import { mergoMerge } from '../../go/mergo';
import { OperatorSettings } from '../../model/operator-settings';
import { RenderError } from '../../model/render-error';
import { ComponentContext } from '../component/defaults-context';
import { frontendContainer } from '../component/frontend';

/** `mounts` followed by each of `extra` whose name is not present yet, in order. */
export function appendMissingMounts(mounts: unknown, extra: readonly VolumeMountJson[]): VolumeMountJson[] {
  const out = objectItems<VolumeMountJson>(mounts);
  const names = new Set(out.map(m => m.name));
  for (const mount of extra) {
    if (names.has(mount.name)) continue;
    out.push(mount);
    names.add(mount.name);
  }
  return out;
}

/** Rebuilds the container named `sidecarName` of `podSpec` as a frontend. */
export function applyFrontendSidecar(
  podSpec: PodSpecJson,
  sidecarName: string,
  parent: ComponentContext,
  settings: OperatorSettings,
  mainMounts: readonly VolumeMountJson[],
  objectRef: string,
): void {
  const index = podSpec.containers.findIndex(c => c.name === sidecarName);
  if (index < 0) {
    throw new RenderError(objectRef, 'spec.frontendSidecar', `frontendSidecar "${sidecarName}" does not match any podTemplate container`);
  }
  const base = frontendContainer({
    componentType: 'frontend',
    dynamoNamespace: parent.dynamoNamespace,
    parentName: parent.parentName,
    parentNamespace: parent.parentNamespace,
    discovery: parent.discovery,
    runtimeGatesAvailable: parent.runtimeGatesAvailable,
  });
  base.name = sidecarName;
  const user = podSpec.containers[index];
  const sidecar: ContainerJson = mergoMerge(base, user);
  sidecar.env = mergeEnvs(base.env, user.env);
  addStandardEnv(sidecar, settings);
  sidecar.volumeMounts = appendMissingMounts(sidecar.volumeMounts, mainMounts);
  podSpec.containers[index] = sidecar;
}
