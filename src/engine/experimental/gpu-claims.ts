/**
 * Pod-spec edits shared by every GPU memory service layout (docs/design/render-experimental.md §1.3, §1.4): GPUs
 * move from scalar extended resources to a shared DRA claim, and the pod tolerates GPU nodes.
 */
import { isMap } from '../../model/json';
import { JsonObject } from '../../model/v1beta1';
import { isGpuResourceName } from '../multinode/gpu-count';
import { ContainerJson, objectItems, PodSpecJson } from '../pod/k8s-json';

/** Taint key (and resource name) of NVIDIA GPU nodes. */
export const GPU_TAINT_KEY = 'nvidia.com/gpu';

/**
 * Removes every GPU-like scalar resource from the container's `limits` and `requests`; a list left
 * empty is removed too, as the operator's Go type writes it (`omitempty` on both lists).
 */
export function removeGpuResources(container: ContainerJson): void {
  const resources = container.resources;
  if (!isMap(resources)) return;
  for (const list of ['limits', 'requests'] as const) {
    const entries = resources[list];
    if (!isMap(entries)) continue;
    const kept: JsonObject = {};
    for (const [name, quantity] of Object.entries(entries)) {
      if (!isGpuResourceName(name)) kept[name] = quantity;
    }
    if (Object.keys(kept).length > 0) resources[list] = kept;
    else delete resources[list];
  }
}

/** Adds the container claim `{name}` to `resources.claims` unless a claim of that name is there. */
export function ensureContainerClaim(container: ContainerJson, claimName: string): void {
  const resources: JsonObject = isMap(container.resources) ? container.resources : {};
  const claims = objectItems<JsonObject>(resources.claims);
  if (!claims.some(c => c.name === claimName)) claims.push({ name: claimName });
  resources.claims = claims;
  container.resources = resources;
}

/** Adds `nvidia.com/gpu` Exists/NoSchedule unless a toleration with that key and effect exists. */
export function ensureGpuToleration(podSpec: PodSpecJson): void {
  const tolerations = objectItems<JsonObject>(podSpec.tolerations);
  if (!tolerations.some(t => t.key === GPU_TAINT_KEY && t.effect === 'NoSchedule')) {
    tolerations.push({ key: GPU_TAINT_KEY, operator: 'Exists', effect: 'NoSchedule' });
  }
  podSpec.tolerations = tolerations;
}

/** Sets the pod claim `name` to the given claim template, replacing a pod claim of the same name in place. */
export function upsertPodClaim(podSpec: PodSpecJson, name: string, templateName: string): void {
  const claims = objectItems<JsonObject>(podSpec.resourceClaims);
  const claim: JsonObject = { name, resourceClaimTemplateName: templateName };
  const at = claims.findIndex(c => c.name === name);
  if (at >= 0) claims[at] = claim;
  else claims.push(claim);
  podSpec.resourceClaims = claims;
}

/** Replaces the list entry named like `item` in place, else appends it; returns the list. */
export function upsertByName<T extends { name: string }>(list: unknown, item: T): T[] {
  const items = objectItems<T>(list);
  const at = items.findIndex(i => i.name === item.name);
  if (at >= 0) items[at] = item;
  else items.push(item);
  return items;
}
