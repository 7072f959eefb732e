/**
 * The runtime version of a component, resolved the way the operator resolves it: the
 * `runtimeVersionOverride` when set, else the semantic version in the `main` image tag.
 */
import { compareVersions, resolveRuntimeVersion as resolveVersion, RuntimeVersion } from '../model/runtime-version';
import { ComponentSpecJson } from '../model/v1beta1';
import { MAIN_CONTAINER } from '../model/well-known';

export function mainContainer(component: ComponentSpecJson): any | undefined {
  const containers = component.podTemplate?.spec?.containers;
  return Array.isArray(containers) ? containers.find(c => c?.name === MAIN_CONTAINER) : undefined;
}

/** The resolved runtime version of a component, or undefined when it cannot be resolved. */
export function resolveRuntimeVersion(component: ComponentSpecJson): RuntimeVersion | undefined {
  const image = mainContainer(component)?.image;
  return resolveVersion(typeof image === 'string' ? image : undefined, component.runtimeVersionOverride || undefined);
}

/** Canonical `MAJOR.MINOR.PATCH`. */
export function formatVersion(version: RuntimeVersion): string {
  return `${version.major}.${version.minor}.${version.patch}`;
}

/** Whether `version` is at least `minimum`. */
export function versionAtLeast(version: RuntimeVersion | undefined, minimum: RuntimeVersion): boolean {
  return version !== undefined && compareVersions(version, minimum) >= 0;
}
