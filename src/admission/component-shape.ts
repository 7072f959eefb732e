/**
 * Shape of a component as the operator sees it after defaulting: multinode or not, GPU memory
 * service and failover modes, whether Grove renders it as a scaling group, and its clique names.
 *
 * Internal module.
 */
import { boolAt, intAt, isMap, JsonMap, mapAt, stringAt } from '../model/json';

export const MODE_INTRA_POD = 'IntraPod';
export const MODE_INTER_POD = 'InterPod';

/** `multinode.nodeCount` (after the CRD default of 2), or 1 for a single-node component. */
export function nodeCount(component: JsonMap): number {
  const multinode = mapAt(component, 'multinode');
  if (!multinode) return 1;
  return intAt(multinode, 'nodeCount') ?? 1;
}

/** Whether the component spans several nodes (nodeCount > 1). */
export function isMultinode(component: JsonMap): boolean {
  return nodeCount(component) > 1;
}

/** A GPU memory service or failover mode, empty meaning IntraPod. */
export function effectiveMode(mode: string | undefined): string {
  return mode === undefined || mode === '' ? MODE_INTRA_POD : mode;
}

export function gpuMemoryService(component: JsonMap): JsonMap | undefined {
  return mapAt(mapAt(component, 'experimental'), 'gpuMemoryService');
}

export function failover(component: JsonMap): JsonMap | undefined {
  return mapAt(mapAt(component, 'experimental'), 'failover');
}

export function checkpoint(component: JsonMap): JsonMap | undefined {
  return mapAt(mapAt(component, 'experimental'), 'checkpoint');
}

/** Whether the component uses the inter-pod GPU memory service layout. */
export function isInterPodGms(component: JsonMap): boolean {
  const gms = gpuMemoryService(component);
  return gms !== undefined && effectiveMode(stringAt(gms, 'mode')) === MODE_INTER_POD;
}

export function forcesScalingGroup(component: JsonMap): boolean {
  return boolAt(mapAt(mapAt(component, 'experimental'), 'grove'), 'forceScalingGroup') === true;
}

/** Whether Grove renders the component as a PodCliqueScalingGroup. */
export function usesScalingGroup(component: JsonMap): boolean {
  return isMultinode(component) || isInterPodGms(component) || forcesScalingGroup(component);
}

/** The Grove clique (role) names of a component, lower-cased, in role order. */
export function cliqueNames(component: JsonMap, componentName: string): string[] {
  const base = componentName.toLowerCase();
  const nodes = nodeCount(component);
  if (!isInterPodGms(component)) {
    return nodes > 1 ? [`${base}-ldr`, `${base}-wkr`] : [base];
  }
  if (nodes <= 1) return [`${base}-gms-0`, base];
  const names: string[] = [];
  for (let rank = 0; rank < nodes; rank++) {
    names.push(`${base}-gms-${rank}`);
    names.push(rank === 0 ? `${base}-ldr` : `${base}-wkr-${rank}`);
  }
  return names;
}

/**
 * The longest clique name of a component (the first one when several are equally long), without
 * listing the names of every rank: with the inter-pod layout over several nodes the names grow
 * with the rank's digits, so the first longest is the weight-server clique of the first rank with
 * the most digits (`<c>-gms-0` up to 10 nodes, `<c>-gms-10` up to 100, ...).
 */
export function longestCliqueName(component: JsonMap, componentName: string): string {
  const nodes = nodeCount(component);
  if (isInterPodGms(component) && nodes > 1) {
    const digits = String(nodes - 1).length;
    return `${componentName.toLowerCase()}-gms-${digits === 1 ? 0 : 10 ** (digits - 1)}`;
  }
  let longest = '';
  for (const name of cliqueNames(component, componentName)) {
    if (name.length > longest.length) longest = name;
  }
  return longest;
}

/** The component type, or '' when unset. */
export function componentType(component: JsonMap): string {
  return stringAt(component, 'type') ?? '';
}

/** Whether a component type is worker-class (worker, prefill, decode). */
export function isWorkerClass(type: string): boolean {
  return type === 'worker' || type === 'prefill' || type === 'decode';
}

/** The components of a DGD spec that are objects, with their indexes. */
export function componentEntries(spec: JsonMap | undefined): Array<{ component: JsonMap; index: number }> {
  const list = spec?.components;
  if (!Array.isArray(list)) return [];
  const out: Array<{ component: JsonMap; index: number }> = [];
  list.forEach((component, index) => {
    if (isMap(component)) out.push({ component, index });
  });
  return out;
}
