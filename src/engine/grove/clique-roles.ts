/**
 * The cliques of a component on the Grove path (docs/design/render-multinode.md §2.1, §4.4): one clique for a
 * single-node component, a leader and a worker clique for a multinode one; with the inter-pod
 * GPU memory service (docs/design/render-experimental.md §1.4), a weight-server clique and an engine clique per
 * node rank. Components spanning nodes, using the inter-pod layout, or forced to, are grouped in a
 * PodCliqueScalingGroup.
 */
import { MAX_OBJECT_BYTES } from '../../import/document-kinds';
import { lowerAscii } from '../../model/json';
import { RenderError } from '../../model/render-error';
import { ComponentSpecJson } from '../../model/v1beta1';
import { enginePodsPerRank, isInterPodGms } from '../experimental/gms-spec';
import { multinodeRoles, MultinodeRoleName, nodeCountOf, ROLE_NAME_SUFFIX } from '../multinode/roles';

/** Role (and clique-name infix) of the inter-pod GPU memory service weight servers. */
export const GMS_ROLE_SUFFIX = 'gms';

/** One clique of a component. */
export interface CliqueRole {
  /**
   * `main` for the single pod kind of a single-node component, the multinode role, or `gms` for
   * an inter-pod weight server.
   */
  readonly role: 'main' | MultinodeRoleName | 'gms';
  /** Lower-cased clique (and role) name: `<comp>`, `<comp>-ldr`, `<comp>-wkr`, `<comp>-gms-<r>`, `<comp>-wkr-<r>`. */
  readonly cliqueName: string;
  /** Pods of the clique (per scaling-group replica for grouped components). */
  readonly replicas: number;
  /** Node rank of the clique's pods in the inter-pod layout (0 elsewhere). */
  readonly rank: number;
}

/** Whether `experimental.grove.forceScalingGroup` is set. */
export function forcesScalingGroup(component: ComponentSpecJson): boolean {
  return component.experimental?.grove?.forceScalingGroup === true;
}

/** Whether the component's cliques form a PodCliqueScalingGroup. */
export function usesScalingGroup(component: ComponentSpecJson): boolean {
  return nodeCountOf(component) > 1 || isInterPodGms(component) || forcesScalingGroup(component);
}

/**
 * The inter-pod cliques: per rank the weight server (`<comp>-gms-<r>`, one pod), then the engines
 * (`<comp>` on a single node; `<comp>-ldr` for rank 0 and `<comp>-wkr-<r>` for the others across
 * nodes), each with the primary plus the failover shadows.
 */
function interPodRoles(component: ComponentSpecJson, name: string): CliqueRole[] {
  const nodeCount = nodeCountOf(component);
  const engines = enginePodsPerRank(component);
  if (nodeCount <= 1) {
    return [
      { role: 'gms', cliqueName: `${name}-${GMS_ROLE_SUFFIX}-0`, replicas: 1, rank: 0 },
      { role: 'main', cliqueName: name, replicas: engines, rank: 0 },
    ];
  }
  const roles: CliqueRole[] = [];
  for (let rank = 0; rank < nodeCount; rank++) {
    roles.push({ role: 'gms', cliqueName: `${name}-${GMS_ROLE_SUFFIX}-${rank}`, replicas: 1, rank });
    roles.push(rank === 0
      ? { role: 'leader', cliqueName: `${name}-${ROLE_NAME_SUFFIX.leader}`, replicas: engines, rank }
      : { role: 'worker', cliqueName: `${name}-${ROLE_NAME_SUFFIX.worker}-${rank}`, replicas: engines, rank });
  }
  return roles;
}

/**
 * The least JSON text one node of the inter-pod layout adds to the PodCliqueSet: its two cliques
 * (names, labels, pod specs) and their names in the scaling group are far more than this.
 */
const MIN_INTER_POD_RANK_TEXT = 200;

/** The PodCliqueSet of an inter-pod component would be over the API server's request size: the operator cannot create it. */
export function interPodTooLarge(graphName: string, index: number, nodeCount: number): RenderError {
  return new RenderError(`DynamoGraphDeployment/${graphName}`, `spec.components[${index}].multinode.nodeCount`,
    `Too long: the PodCliqueSet the operator creates holds two cliques per node (${nodeCount} nodes) and would be more than `
    + `${MAX_OBJECT_BYTES} bytes as JSON; the API server accepts at most 3 MiB per request, so the operator could not create it`);
}

/**
 * The error of an inter-pod component whose nodes could not all fit in a PodCliqueSet however
 * small its pods, or undefined: checked before anything is built per node.
 */
export function interPodNodeLimit(graphName: string, index: number, component: ComponentSpecJson): RenderError | undefined {
  const nodeCount = nodeCountOf(component);
  const fits = !isInterPodGms(component) || nodeCount * MIN_INTER_POD_RANK_TEXT <= MAX_OBJECT_BYTES;
  return fits ? undefined : interPodTooLarge(graphName, index, nodeCount);
}

/**
 * The length of the longest clique name of a component, without listing every rank's cliques (the
 * inter-pod layout has two per node: `<c>-gms-<rank>` and `<c>-wkr-<rank>` are the longest).
 */
export function longestCliqueNameLength(component: ComponentSpecJson): number {
  const nodeCount = nodeCountOf(component);
  if (isInterPodGms(component) && nodeCount > 1) {
    return lowerAscii(component.name ?? '').length + `-${GMS_ROLE_SUFFIX}-`.length + String(nodeCount - 1).length;
  }
  return Math.max(...cliqueRoles(component).map(role => role.cliqueName.length));
}

/** The cliques of a component in role order. `objectRef` names the graph in errors. */
export function cliqueRoles(component: ComponentSpecJson, objectRef = ''): CliqueRole[] {
  const name = lowerAscii(component.name ?? '');
  if (isInterPodGms(component)) return interPodRoles(component, name);
  if (nodeCountOf(component) > 1) {
    return multinodeRoles(component, name, objectRef).map(r => ({ role: r.role, cliqueName: r.name, replicas: r.replicas, rank: 0 }));
  }
  // a forced scaling group scales whole groups, so its clique has one pod
  const replicas = forcesScalingGroup(component) ? 1 : component.replicas ?? 1;
  return [{ role: 'main', cliqueName: name, replicas, rank: 0 }];
}
