/**
 * The two pod roles of a multinode component (docs/design/render-multinode.md §2.1, §10.2): one leader pod and
 * `nodeCount - 1` worker pods per replica. The explicit `roles` list may restate that shape but
 * cannot change it.
 */
import { isMap } from '../../model/json';
import { RenderError } from '../../model/render-error';
import { ComponentRoleJson, ComponentSpecJson } from '../../model/v1beta1';

/** Pod label naming the role of a LeaderWorkerSet pod (docs/design/render-multinode.md §3.4); Services select `leader`. */
export const LABEL_ROLE = 'role';

/** The role of a pod of a multinode component. */
export type MultinodeRoleName = 'leader' | 'worker';

/**
 * The role a backend's multinode rewrite is run for: a leader or worker pod, or `main` — the one
 * pod of the Deployment the component controller renders for a multinode DCD when LeaderWorkerSet
 * is unavailable. That pod is rewritten for `nodeCount` nodes with LeaderWorkerSet addressing but
 * is neither leader nor worker: it gets the parts of the rewrite every role gets (vLLM mp flags
 * without a node rank, SGLang flags with the worker rank, the TensorRT-LLM SSH mount and env) and
 * none of the leader- or worker-only parts.
 */
export type MultinodeLaunchRole = MultinodeRoleName | 'main';

/** Suffix of the Grove clique (and role name) of each role. */
export const ROLE_NAME_SUFFIX: Readonly<Record<MultinodeRoleName, string>> = { leader: 'ldr', worker: 'wkr' };

/** One role of a multinode component. */
export interface MultinodeRole {
  readonly role: MultinodeRoleName;
  /** `<comp>-ldr` / `<comp>-wkr` (lower-cased wherever it becomes a Grove name). */
  readonly name: string;
  /** Pods of this role in one replica of the component. */
  readonly replicas: number;
}

/** `multinode.nodeCount`, 1 when absent. */
export function nodeCountOf(spec: ComponentSpecJson): number {
  const count = isMap(spec.multinode) ? spec.multinode.nodeCount : undefined;
  return typeof count === 'number' ? count : 1;
}

/** Whether the component spans several nodes (`multinode.nodeCount > 1`). */
export function isMultinode(spec: ComponentSpecJson): boolean {
  return nodeCountOf(spec) > 1;
}

/** The pod count a role gets when its `replicas` is omitted: leader 1, worker `nodeCount - 1`. */
export function defaultRoleReplicas(role: MultinodeRoleName, nodeCount: number): number {
  return role === 'leader' ? 1 : nodeCount - 1;
}

/**
 * Leader then worker role of a multinode component, from `multinode.nodeCount` and the optional
 * `roles` list. `componentName` is the component name as written; `objectRef` names the object in
 * errors. Refuses a single-node component, a roles list that is not exactly one leader and one
 * worker, and replicas that differ from the implicit shape.
 */
export function multinodeRoles(spec: ComponentSpecJson, componentName: string, objectRef: string): [MultinodeRole, MultinodeRole] {
  const nodeCount = nodeCountOf(spec);
  if (!Number.isInteger(nodeCount) || nodeCount < 2) {
    throw new RenderError(objectRef, 'multinode.nodeCount', `multinode roles need nodeCount >= 2, got ${nodeCount}`);
  }
  const explicit = explicitRoles(spec.roles, objectRef);
  const role = (name: MultinodeRoleName): MultinodeRole => {
    const wanted = defaultRoleReplicas(name, nodeCount);
    const entry = explicit.get(name);
    const replicas = entry?.replicas ?? wanted;
    if (replicas !== wanted) {
      throw new RenderError(objectRef, `roles[${entry!.index}].replicas`,
        `role ${name} must have ${wanted} replicas with nodeCount ${nodeCount}, got ${replicas}`);
    }
    return { role: name, name: `${componentName}-${ROLE_NAME_SUFFIX[name]}`, replicas };
  };
  return [role('leader'), role('worker')];
}

interface ExplicitRole {
  readonly index: number;
  readonly replicas?: number;
}

/** The explicit roles by name; empty when the list is absent or empty. */
function explicitRoles(roles: ComponentRoleJson[] | undefined, objectRef: string): Map<MultinodeRoleName, ExplicitRole> {
  const found = new Map<MultinodeRoleName, ExplicitRole>();
  if (!Array.isArray(roles) || roles.length === 0) return found;
  roles.forEach((entry, index) => {
    const name = isMap(entry) ? entry.name : undefined;
    if (name !== 'leader' && name !== 'worker') {
      throw new RenderError(objectRef, `roles[${index}].name`, `role name must be leader or worker, got ${JSON.stringify(name ?? null)}`);
    }
    if (found.has(name)) throw new RenderError(objectRef, `roles[${index}].name`, `role ${name} is listed more than once`);
    const replicas = typeof entry.replicas === 'number' ? entry.replicas : undefined;
    found.set(name, { index, replicas });
  });
  for (const name of ['leader', 'worker'] as const) {
    if (!found.has(name)) throw new RenderError(objectRef, 'roles', `roles must list exactly one leader and one worker; ${name} is missing`);
  }
  return found;
}
