/**
 * The graph's worker hash: 8 hex characters over the rendered worker-class DCDs, used to suffix
 * worker DCD names and to tag worker pods.
 */
import { generateComponentDcds } from './component-dcds';
import { isMap } from '../../model/json';
import { DcdSpecJson, DgdJson, isWorkerType } from '../../model/v1beta1';
import { WORKER_HASH_PLACEHOLDER } from '../../model/well-known';
import { computeWorkerHash, WorkerHashRecord } from '../hash/worker-hash';
import { defaultRoleReplicas, nodeCountOf } from '../multinode/roles';
import { formatVersion, resolveRuntimeVersion, versionAtLeast } from '../runtime-version';
import { dcdComponentName, workloadAnnotations, workloadLabels } from '../workload-metadata';

/** Runtime versions from this one on are part of the worker hash. */
export const HASHED_RUNTIME_VERSION_MINIMUM = { major: 1, minor: 5, patch: 0 };

/**
 * Whether a component's `roles` list only restates the shape `multinode.nodeCount` implies (one
 * leader, one worker, replicas absent or the defaults, no provider override): such a list is a
 * representation choice and does not count as a worker change (render-multinode §10.2).
 */
export function rolesRestateImplicitShape(spec: DcdSpecJson): boolean {
  const roles = spec.roles;
  if (!Array.isArray(roles) || roles.length !== 2) return false;
  const nodeCount = nodeCountOf(spec);
  if (nodeCount < 2) return false;
  const names = new Set<string>();
  for (const role of roles) {
    if (!isMap(role) || (role.name !== 'leader' && role.name !== 'worker') || names.has(role.name)) return false;
    names.add(role.name);
    if (role.providerOverride !== undefined && role.providerOverride !== null) return false;
    if (role.replicas !== undefined && role.replicas !== defaultRoleReplicas(role.name, nodeCount)) return false;
  }
  return true;
}

/** The worker hash of an admitted graph (see `admitNewGraph`). */
export function graphWorkerHash(dgd: DgdJson): string {
  const records: Record<string, WorkerHashRecord> = {};
  for (const dcd of generateComponentDcds(dgd, WORKER_HASH_PLACEHOLDER, { restart: false })) {
    if (!isWorkerType(dcd.spec.type)) continue;
    const { replicas, minAvailable, scalingAdapter, runtimeVersionOverride, ...spec } = dcd.spec;
    if (rolesRestateImplicitShape(dcd.spec)) delete spec.roles;
    const runtimeVersion = resolveRuntimeVersion(dcd.spec);
    const record: WorkerHashRecord = {
      labels: workloadLabels(dcd),
      annotations: workloadAnnotations(dcd),
      spec,
    };
    if (versionAtLeast(runtimeVersion, HASHED_RUNTIME_VERSION_MINIMUM)) record.runtimeVersion = formatVersion(runtimeVersion!);
    records[dcdComponentName(dcd)] = record;
  }
  return computeWorkerHash(records);
}
