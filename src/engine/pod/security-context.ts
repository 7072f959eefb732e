/**
 * Default pod security context (docs/design/render-core.md §5.10): `fsGroup: 1000` so volumes are group-writable,
 * unless the user wrote any pod security context at all (then nothing is added).
 */
import { PodSpecJson } from './k8s-json';
import { isMap } from '../../model/json';

export const DEFAULT_FS_GROUP = 1000;

/** Sets `securityContext.fsGroup` to 1000 when it is not set. Call only when the user gave no security context. */
export function applyDefaultSecurityContext(podSpec: Omit<PodSpecJson, 'containers'>): void {
  const securityContext = isMap(podSpec.securityContext) ? podSpec.securityContext : {};
  if (securityContext.fsGroup === undefined || securityContext.fsGroup === null) securityContext.fsGroup = DEFAULT_FS_GROUP;
  podSpec.securityContext = securityContext;
}
