/**
 * The DynamoGraphDeploymentRequest (nvidia.com/v1beta1) as plain JSON, and the Go layouts the
 * operator serialises its spec with (the `--config` argument of the profiling Job), from
 * ai-dynamo/dynamo `deploy/operator/api/v1beta1/dynamographdeploymentrequest_types.go`.
 *
 * Internal module.
 */
import { isMap, JsonMap } from '../model/json';

export const DGDR_API_VERSION = 'nvidia.com/v1beta1';
export const DGDR_KIND = 'DynamoGraphDeploymentRequest';

/** A DynamoGraphDeploymentRequest document. */
export interface DgdrJson extends JsonMap {
  apiVersion: string;
  kind: string;
  metadata?: any;
  spec?: any;
}

/** Whether a document is a v1beta1 DynamoGraphDeploymentRequest. */
export function isDgdr(doc: unknown): doc is DgdrJson {
  return isMap(doc) && doc.apiVersion === DGDR_API_VERSION && doc.kind === DGDR_KIND;
}

/**
 * Go layouts (notation of src/go/types.ts) of the DGDR spec and of `batch/v1` JobSpec
 * (k8s.io/api v0.36). The JobSpec fields the operator never writes into its Job (the override
 * allowlist leaves them out) are read as raw JSON.
 */
export const DGDR_GO_TYPES: Readonly<Record<string, string>> = Object.freeze({
  DgdrSpec: 'model:s backend?:s image?:s runtimeVersionOverride?:s modelCache?:*DgdrModelCache hardware?:*DgdrHardware workload?:*DgdrWorkload sla?:*DgdrSla overrides?:*DgdrOverrides features?:*DgdrFeatures searchStrategy?:s autoApply?:*b',
  DgdrModelCache: 'pvcName?:s pvcModelPath?:s pvcMountPath?:s',
  DgdrHardware: 'gpuSku?:s vramMb?:*f64 totalGpus?:*i numGpusPerNode?:*i interconnect?:s rdma?:*b',
  DgdrWorkload: 'isl?:*i osl?:*i concurrency?:*f64 requestRate?:*f64',
  DgdrSla: 'ttft?:*f64 itl?:*f64 e2eLatency?:*f64 optimizationType?:*s',
  DgdrOverrides: 'profilingJob?:*JobSpec dgd?:*raw',
  DgdrFeatures: 'planner?:*raw mocker?:*DgdrMocker',
  DgdrMocker: 'enabled?:b',
  JobSpec: 'parallelism?:*i completions?:*i activeDeadlineSeconds?:*i podFailurePolicy?:*raw successPolicy?:*raw backoffLimit?:*i backoffLimitPerIndex?:*i maxFailedIndexes?:*i selector?:*LabelSelector manualSelector?:*b template:PodTemplateSpec ttlSecondsAfterFinished?:*i completionMode?:*s suspend?:*b podReplacementPolicy?:*s managedBy?:*s',
});

/** A copy of a JSON value with the keys of every object sorted (how the API server serves stored custom-resource JSON). */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isMap(value)) return value;
  const out: JsonMap = {};
  for (const key of Object.keys(value).sort()) if (value[key] !== undefined) out[key] = sortedKeys(value[key]);
  return out;
}
