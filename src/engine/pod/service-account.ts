/**
 * The pod's service account (docs/design/render-core.md §5.11): the merged pod spec's value (type default or
 * user), else the graph's Kubernetes-discovery account when discovery uses Kubernetes, else
 * `default`.
 */
import { PodSpecJson } from './k8s-json';
import { discoveryServiceAccountName } from '../discovery';

/**
 * The account the operator falls back to when nothing named one. The operator picks the first
 * account labelled `nvidia.com/dynamo-component-pod: "true"` in the namespace; with no cluster to
 * look into, that is the namespace's `default` account.
 */
export const FALLBACK_SERVICE_ACCOUNT = 'default';

/** Names the discovery account when Kubernetes discovery is on and no account is set yet. */
export function applyDiscoveryServiceAccount(podSpec: Omit<PodSpecJson, 'containers'>, kubeDiscovery: boolean, parentName: string): void {
  if (kubeDiscovery && !podSpec.serviceAccountName) podSpec.serviceAccountName = discoveryServiceAccountName(parentName);
}

/** Names the fallback account when the pod still has none. */
export function applyFallbackServiceAccount(podSpec: Omit<PodSpecJson, 'containers'>): void {
  if (!podSpec.serviceAccountName) podSpec.serviceAccountName = FALLBACK_SERVICE_ACCOUNT;
}
