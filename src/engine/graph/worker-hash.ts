/**
 * The graph's worker hash: 8 hex characters over the rendered worker-class DCDs, used to suffix
 * worker DCD names and to tag worker pods.
 */
import { generateComponentDcds } from './component-dcds';
import { DgdJson, isWorkerType } from '../../model/v1beta1';
import { WORKER_HASH_PLACEHOLDER } from '../../model/well-known';
import { computeWorkerHash, WorkerHashRecord } from '../hash/worker-hash';
import { formatVersion, resolveRuntimeVersion, versionAtLeast } from '../runtime-version';
import { dcdComponentName, workloadAnnotations, workloadLabels } from '../workload-metadata';

/** Runtime versions from this one on are part of the worker hash. */
export const HASHED_RUNTIME_VERSION_MINIMUM = { major: 1, minor: 5, patch: 0 };

/** The worker hash of an admitted graph (see `admitNewGraph`). */
export function graphWorkerHash(dgd: DgdJson): string {
  const records: Record<string, WorkerHashRecord> = {};
  for (const dcd of generateComponentDcds(dgd, WORKER_HASH_PLACEHOLDER, { restart: false })) {
    if (!isWorkerType(dcd.spec.type)) continue;
    const { replicas, minAvailable, scalingAdapter, runtimeVersionOverride, ...spec } = dcd.spec;
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
