/**
 * Dynamo runtime versions: the semantic version in a main-container image tag, or the explicit
 * `runtimeVersionOverride`. Used by the runtime-version rows (46, 47) and the EPP runtime contract
 * (row 49).
 *
 * Internal module.
 */

/** The MAJOR.MINOR.PATCH core of a runtime version (pre-release and build suffixes are dropped). */
export interface RuntimeVersion {
  readonly major: number;
  readonly minor: number;
  readonly patch: number;
}

const NUMERIC = '(0|[1-9][0-9]*)';
const PRERELEASE_ID = '(?:0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)';
const BUILD_ID = '[0-9A-Za-z-]+';
const SEMVER_BODY = `${NUMERIC}\\.${NUMERIC}\\.${NUMERIC}(?:-${PRERELEASE_ID}(?:\\.${PRERELEASE_ID})*)?(?:\\+${BUILD_ID}(?:\\.${BUILD_ID})*)?`;

/** A strict semantic version, optionally prefixed with `v`/`V` (image tags such as `v1.4.0`). */
const IMAGE_TAG_VERSION = new RegExp(`^[vV]?${SEMVER_BODY}$`);
/** A strict semantic version without prefix. */
const STRICT_VERSION = new RegExp(`^${SEMVER_BODY}$`);
/**
 * A lenient semantic version: optional `v`, one to three numeric parts, optional pre-release and
 * build (what the operator accepts for the origin-version annotation, row 1).
 */
const LENIENT_VERSION = /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;

/** The first version whose EPP image is the native Rust EPP (no `eppConfig`). */
export const NATIVE_RUST_EPP_VERSION: RuntimeVersion = { major: 1, minor: 5, patch: 0 };

/**
 * The tag of an image reference: the text after the last `:` that follows the last `/`,
 * with any `@digest` removed first. Empty when the reference has no tag.
 */
export function imageTag(image: string): string {
  let ref = image.trim();
  const at = ref.indexOf('@');
  if (at >= 0) ref = ref.slice(0, at);
  const lastSlash = ref.lastIndexOf('/');
  const lastColon = ref.lastIndexOf(':');
  if (lastColon <= lastSlash) return '';
  return ref.slice(lastColon + 1);
}

/** The runtime version in an image tag (`[v]MAJOR.MINOR.PATCH[-pre][+build]`), or undefined. */
export function parseImageVersion(image: string): RuntimeVersion | undefined {
  const match = IMAGE_TAG_VERSION.exec(imageTag(image).trim());
  return match ? toVersion(match) : undefined;
}

/** A strict `MAJOR.MINOR.PATCH[-pre][+build]` version (runtimeVersionOverride), or undefined. */
export function parseStrictVersion(value: string): RuntimeVersion | undefined {
  const match = STRICT_VERSION.exec(value);
  return match ? toVersion(match) : undefined;
}

/** Whether a value is a semantic version in the lenient sense (`1`, `1.2`, `v1.2.3-rc.1`, ...). */
export function isLenientSemver(value: string): boolean {
  const match = LENIENT_VERSION.exec(value);
  if (!match) return false;
  const prerelease = match[5];
  if (prerelease === undefined) return true;
  // numeric pre-release identifiers must not carry leading zeros
  return prerelease.split('.').every((id) => !/^[0-9]+$/.test(id) || id === '0' || !id.startsWith('0'));
}

/**
 * The runtime version of a component: the override when set, else the main image tag.
 * Undefined when neither yields a version.
 */
export function resolveRuntimeVersion(image: string | undefined, override: string | undefined): RuntimeVersion | undefined {
  if (override !== undefined && override !== '') return parseStrictVersion(override);
  return image === undefined ? undefined : parseImageVersion(image);
}

/** Negative, zero or positive as `a` is lower than, equal to or higher than `b`. */
export function compareVersions(a: RuntimeVersion, b: RuntimeVersion): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** Whether the main image needs an explicit runtimeVersionOverride (no override, tag not a version). */
export function runtimeVersionOverrideRequired(image: string, override: string | undefined): boolean {
  if (override !== undefined && override !== '') return false;
  return parseImageVersion(image) === undefined;
}

function toVersion(match: RegExpExecArray): RuntimeVersion {
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}
