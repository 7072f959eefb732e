/**
 * The PodCliqueSet name of a graph (docs/design/render-multinode.md §4.2): the graph name, shortened with a hash
 * suffix when the longest Grove child name (`<pcs>-<scaling group>-<clique>` pods) would not fit.
 */
import { longestCliqueNameLength, usesScalingGroup } from './clique-roles';
import { lowerAscii } from '../../model/json';
import { ComponentSpecJson } from '../../model/v1beta1';

/** Pod names Grove builds from PCS, scaling group and clique names stay within this length. */
const CHILD_NAME_BUDGET = 45;
/** A shortened PodCliqueSet name is never shorter than this. */
const MIN_PCS_NAME_LENGTH = 8;

/** 32-bit FNV-1a over the UTF-8 bytes of `text`. */
/* eslint-disable no-bitwise */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash >>> 0;
}
/* eslint-enable no-bitwise */

/** The name budget of a component: its lower-cased name, plus its longest clique name in a scaling group. */
function componentBudget(component: ComponentSpecJson): number {
  const name = lowerAscii(component.name ?? '');
  if (!usesScalingGroup(component)) return name.length;
  return name.length + longestCliqueNameLength(component);
}

/**
 * `<graph>` when it fits the budget left by the largest component, else its first `budget - 5`
 * characters, `-` and 4 hex digits of its FNV-1a hash.
 */
export function podCliqueSetName(graphName: string, components: readonly ComponentSpecJson[]): string {
  const maxBudget = Math.max(0, ...components.map(componentBudget));
  const budget = Math.max(CHILD_NAME_BUDGET - maxBudget, MIN_PCS_NAME_LENGTH);
  if (graphName.length <= budget) return graphName;
  const suffix = (fnv1a32(graphName) % 0x10000).toString(16).padStart(4, '0');
  return `${graphName.slice(0, budget - 5)}-${suffix}`;
}
