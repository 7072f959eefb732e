/**
 * Topology constraints of the typed API as Grove writes them (docs/design/render-multinode.md §4.7):
 * `{topologyName?, pack: {required: <domain>}}`.
 */
import { ComponentSpecJson, DgdJson, JsonObject } from '../../model/v1beta1';

/** The PodCliqueSet template's constraint: none unless the graph names a pack domain. */
export function graphTopologyConstraint(dgd: DgdJson): JsonObject | undefined {
  const constraint = dgd.spec.topologyConstraint;
  if (!constraint?.packDomain) return undefined;
  const out: JsonObject = {};
  if (constraint.clusterTopologyName) out.topologyName = constraint.clusterTopologyName;
  out.pack = { required: constraint.packDomain };
  return out;
}

/**
 * A component's constraint (for its scaling group, or its clique when it has none). It names the
 * cluster topology itself only when the graph has no pack domain to inherit it from.
 */
export function componentTopologyConstraint(dgd: DgdJson, component: ComponentSpecJson): JsonObject | undefined {
  const domain = component.topologyConstraint?.packDomain;
  if (!domain) return undefined;
  const out: JsonObject = {};
  const graph = dgd.spec.topologyConstraint;
  if (!graph?.packDomain && graph?.clusterTopologyName) out.topologyName = graph.clusterTopologyName;
  out.pack = { required: domain };
  return out;
}
