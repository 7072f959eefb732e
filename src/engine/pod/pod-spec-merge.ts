/**
 * Merging the user's pod spec (without its containers) over the component-type base pod spec
 * (docs/design/render-core.md §5.5): lists replace when non-empty, scalars override when non-empty (so a user
 * `terminationGracePeriodSeconds: 0` keeps the default), maps merge key by key.
 */
import { PodSpecJson } from './k8s-json';
import { mergoMerge } from '../../go/mergo';
import { isMap } from '../../model/json';

/** The base pod spec with the user's pod spec overlaid; `containers` of the user spec is ignored. */
export function mergePodSpec(base: Omit<PodSpecJson, 'containers'>, user: unknown): Omit<PodSpecJson, 'containers'> {
  if (!isMap(user)) return mergoMerge(base, undefined);
  const { containers: _containers, ...rest } = user;
  return mergoMerge(base, rest);
}

/** Whether the user wrote a pod security context (even an empty one). */
export function userSetSecurityContext(user: unknown): boolean {
  return isMap(user) && user.securityContext !== undefined && user.securityContext !== null;
}
