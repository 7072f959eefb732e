/**
 * The runtime version of a component: `runtimeVersionOverride` when set, else the semantic
 * version in the tag of its `main` container image.
 */
import * as semver from 'semver';
import { MAIN_CONTAINER } from './well-known';
import { ComponentSpecJson } from '../model/v1beta1';

const IMAGE_TAG_VERSION = /^[vV]?(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

/** The tag of an image reference: the text after the last `:` that follows the last `/`; digest ignored. */
export function imageTag(image: string): string | undefined {
  const withoutDigest = image.split('@')[0];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.lastIndexOf(':');
  if (colon <= lastSlash) return undefined;
  return withoutDigest.slice(colon + 1);
}

/** `MAJOR.MINOR.PATCH` of an image tag, or undefined when the tag is not a semantic version. */
export function imageVersion(image: string): string | undefined {
  const tag = imageTag(image);
  const m = tag === undefined ? null : IMAGE_TAG_VERSION.exec(tag);
  return m ? `${Number(m[1])}.${Number(m[2])}.${Number(m[3])}` : undefined;
}

/** `MAJOR.MINOR.PATCH` of a strict semantic version string (an optional leading `v` allowed). */
export function overrideVersion(value: string): string | undefined {
  const parsed = semver.parse(value.replace(/^[vV]/, ''));
  return parsed ? `${parsed.major}.${parsed.minor}.${parsed.patch}` : undefined;
}

export function mainContainer(component: ComponentSpecJson): any | undefined {
  const containers = component.podTemplate?.spec?.containers;
  return Array.isArray(containers) ? containers.find(c => c?.name === MAIN_CONTAINER) : undefined;
}

/** The resolved runtime version of a component, or undefined when it cannot be resolved. */
export function resolveRuntimeVersion(component: ComponentSpecJson): string | undefined {
  if (component.runtimeVersionOverride) return overrideVersion(component.runtimeVersionOverride);
  const image = mainContainer(component)?.image;
  return typeof image === 'string' ? imageVersion(image) : undefined;
}

/** Whether `version` (MAJOR.MINOR.PATCH) is at least `minimum`. */
export function versionAtLeast(version: string | undefined, minimum: string): boolean {
  return version !== undefined && semver.gte(version, minimum);
}
