/**
 * The graph's worker hash: 8 hex characters over the rendered worker-class DCDs, used to suffix
 * worker DCD names and to tag worker pods.
 */
import { componentsRestarting, generateComponentDcds, replaceWorkerHash } from './component-dcds';
import { isMap } from '../../model/json';
import { DcdJson, DcdSpecJson, DgdJson, isWorkerType } from '../../model/v1beta1';
import { WORKER_HASH_PLACEHOLDER } from '../../model/well-known';
import { formatVersion, resolveRuntimeVersion, versionAtLeast } from '../component-runtime-version';
import { computeWorkerHash, WorkerHashRecord } from '../hash/worker-hash';
import { defaultRoleReplicas, nodeCountOf } from '../multinode/roles';
import { dcdComponentName, workloadAnnotations, workloadLabels } from '../workload-metadata';

/** Runtime versions from this one on are part of the worker hash. */
export const HASHED_RUNTIME_VERSION_MINIMUM = { major: 1, minor: 5, patch: 0 };

/**
 * Whether a component's `roles` list only restates the shape `multinode.nodeCount` implies (one
 * leader, one worker, replicas absent or the defaults, no provider override): such a list is a
 * representation choice and does not count as a worker change (docs/design/render-multinode.md §10.2).
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
  return workerHashOf(generateComponentDcds(dgd, WORKER_HASH_PLACEHOLDER, { restart: false }));
}

/**
 * `generateComponentDcds(dgd, graphWorkerHash(dgd))`. Unless a restart is under way, the DCDs the
 * hash is taken over are these DCDs but for the hash itself: they are generated once and given
 * the hash afterwards.
 */
export function generateHashedComponentDcds(dgd: DgdJson): DcdJson[] {
  if (componentsRestarting(dgd).size > 0) return generateComponentDcds(dgd, graphWorkerHash(dgd));
  const dcds = generateComponentDcds(dgd, WORKER_HASH_PLACEHOLDER, { restart: false });
  const workerHash = workerHashOf(dcds);
  for (const dcd of dcds) replaceWorkerHash(dcd, WORKER_HASH_PLACEHOLDER, workerHash);
  return dcds;
}

/** The worker hash over the worker DCDs among `dcds` (generated with the placeholder hash, no restart). */
function workerHashOf(dcds: readonly DcdJson[]): string {
  const records: Record<string, WorkerHashRecord> = {};
  for (const dcd of dcds) {
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
