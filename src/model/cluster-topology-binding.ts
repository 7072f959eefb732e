/** Grove's cluster-scoped ClusterTopologyBinding, read as cluster state while a new graph is admitted. */
import { isMap, JsonMap } from './json';

export const TOPOLOGY_BINDING_API_VERSION = 'grove.io/v1alpha1';
export const TOPOLOGY_BINDING_KIND = 'ClusterTopologyBinding';

/** Whether a document is a Grove ClusterTopologyBinding. */
export function isClusterTopologyBinding(doc: unknown): doc is JsonMap {
  return isMap(doc) && doc.apiVersion === TOPOLOGY_BINDING_API_VERSION && doc.kind === TOPOLOGY_BINDING_KIND && isMap(doc.metadata);
}
