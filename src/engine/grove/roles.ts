/**
 * The cliques of a component on the Grove path (render-multinode §2.1, §4.4): one clique for a
 * single-node component, a leader and a worker clique for a multinode one; components spanning
 * nodes (or forced to) are grouped in a PodCliqueScalingGroup.
 */
import { lowerAscii } from '../../model/json';
import { ComponentSpecJson } from '../../model/v1beta1';
import { multinodeRoles, MultinodeRoleName, nodeCountOf } from '../multinode/roles';

/** One clique of a component. */
export interface CliqueRole {
  /** `main` for the single pod kind of a single-node component, else the multinode role. */
  readonly role: 'main' | MultinodeRoleName;
  /** Lower-cased clique (and role) name: `<comp>`, `<comp>-ldr`, `<comp>-wkr`. */
  readonly cliqueName: string;
  /** Pods of the clique (per scaling-group replica for grouped components). */
  readonly replicas: number;
}

/** Whether `experimental.grove.forceScalingGroup` is set. */
export function forcesScalingGroup(component: ComponentSpecJson): boolean {
  return component.experimental?.grove?.forceScalingGroup === true;
}

/** Whether the component's cliques form a PodCliqueScalingGroup. */
export function usesScalingGroup(component: ComponentSpecJson): boolean {
  return nodeCountOf(component) > 1 || forcesScalingGroup(component);
}

/** The cliques of a component in role order. `objectRef` names the graph in errors. */
export function cliqueRoles(component: ComponentSpecJson, objectRef = ''): CliqueRole[] {
  const name = lowerAscii(component.name ?? '');
  if (nodeCountOf(component) > 1) {
    return multinodeRoles(component, name, objectRef).map(r => ({ role: r.role, cliqueName: r.name, replicas: r.replicas }));
  }
  // a forced scaling group scales whole groups, so its clique has one pod
  const replicas = forcesScalingGroup(component) ? 1 : component.replicas ?? 1;
  return [{ role: 'main', cliqueName: name, replicas }];
}
