/**
 * Image pull secret discovery (docs/design/render-core.md §5.10): for each container image (main, then sidecars)
 * the docker-registry secrets of the namespace that hold credentials for the image's registry
 * host are added after the user's `imagePullSecrets`, skipping names already present. The
 * pod-template annotation `nvidia.com/disable-image-pull-secret-discovery: "true"` turns it off.
 */
import { LocalObjectReferenceJson, objectItems, PodSpecJson } from './k8s-json';
import { compareStrings } from '../../model/json';
import { OperatorSettings } from '../../model/operator-settings';
import { ANNOTATION_DISABLE_IMAGE_PULL_SECRET_DISCOVERY } from '../../model/well-known';


/** Characters Go's URL parser accepts unescaped in a host (besides letters, digits and `%XX`). */
const HOST_CHARACTERS = /^[A-Za-z0-9\-._~!$&'()*+,;=:[\]<>"\u0080-\uFFFF]*$/;

/** Go accepts `%XX` in a host only for non-ASCII bytes (first digit 8-F) and for `%25`. */
function validEscapes(host: string): boolean {
  for (let i = host.indexOf('%'); i >= 0; i = host.indexOf('%', i + 1)) {
    const escape = host.slice(i, i + 3);
    if (!/^%[0-9A-Fa-f]{2}$/.test(escape)) return false;
    if (parseInt(escape[1], 16) < 8 && escape !== '%25') return false;
  }
  return true;
}

/**
 * The registry host of an image reference or registry address, read the way the operator reads
 * it: as the host of the URL `dummy://<reference>` (a reference with a scheme is parsed as is).
 * `nvcr.io/nvidia/x:1.0` → `nvcr.io`, `localhost:5000/x` → `localhost:5000`. Undefined when the
 * URL does not parse (`ubuntu:22.04` has an invalid port).
 */
export function registryHost(reference: string): string | undefined {
  const url = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(reference) ? reference : `dummy://${reference}`;
  // eslint-disable-next-line no-control-regex
  if (/[\x00-\x1f\x7f]/.test(url)) return undefined;
  const rest = url.slice(url.indexOf('://') + 3).split('#')[0].split('?')[0];
  const authority = rest.split('/')[0];
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  if (at >= 0 && !/^[A-Za-z0-9\-._~!$&'()*+,;=:%@]*$/.test(authority.slice(0, at))) return undefined;
  if (host.startsWith('[')) {
    const close = host.indexOf(']');
    if (close < 0) return undefined;
    const port = host.slice(close + 1);
    if (port !== '' && !/^:[0-9]*$/.test(port)) return undefined;
  } else {
    const colon = host.lastIndexOf(':');
    if (colon >= 0 && !/^:[0-9]*$/.test(host.slice(colon))) return undefined;
  }
  if (!HOST_CHARACTERS.test(host.replace(/%/g, '')) || !validEscapes(host)) return undefined;
  return decodeURIComponentSafe(host);
}

function decodeURIComponentSafe(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** Names of the registry secrets holding credentials for the image's registry, sorted and unique. */
export function registrySecretsFor(image: string, settings: OperatorSettings): string[] {
  if (settings.registrySecrets.length === 0) return []; // nothing to match: the image is not read
  const host = registryHost(image);
  if (host === undefined) return [];
  const names = settings.registrySecrets
    .filter(secret => secret.registries.some(registry => registryHost(registry) === host))
    .map(secret => secret.name);
  return [...new Set(names)].sort(compareStrings);
}

/** `existing` followed by each of `extra` whose name is not present yet. */
export function appendUniqueSecrets(
  existing: readonly LocalObjectReferenceJson[],
  extra: readonly LocalObjectReferenceJson[],
): LocalObjectReferenceJson[] {
  const out = [...existing];
  const names = new Set(out.map(s => s.name));
  for (const secret of extra) {
    if (names.has(secret.name)) continue;
    out.push(secret);
    names.add(secret.name);
  }
  return out;
}

/** Adds the discovered pull secrets of every container image to the pod. */
export function applyImagePullSecrets(podSpec: PodSpecJson, annotations: Readonly<Record<string, string>>, settings: OperatorSettings): void {
  if (annotations[ANNOTATION_DISABLE_IMAGE_PULL_SECRET_DISCOVERY] === 'true') return;
  let discovered: LocalObjectReferenceJson[] = [];
  for (const container of podSpec.containers) {
    if (typeof container.image !== 'string' || container.image === '') continue;
    discovered = appendUniqueSecrets(discovered, registrySecretsFor(container.image, settings).map(name => ({ name })));
  }
  if (discovered.length === 0) return;
  podSpec.imagePullSecrets = appendUniqueSecrets(objectItems<LocalObjectReferenceJson>(podSpec.imagePullSecrets), discovered);
}
