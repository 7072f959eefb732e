/**
 * Plain, wire-format shapes of the nvidia.com/v1beta1 custom resources.
 *
 * These are the input of the render engine: constructs build them, the CLI parses YAML into them,
 * and every renderer and validator reads them. Kubernetes-native parts (pod templates, env vars,
 * ConfigMap key selectors) are kept as plain JSON objects in their wire form.
 *
 * Internal module: not part of the jsii API (unions are fine here).
 */

/** A JSON object as it appears on the wire. */
export type JsonObject = { [key: string]: any };

export const API_GROUP = 'nvidia.com';
export const API_VERSION = 'nvidia.com/v1beta1';
export const DGD_KIND = 'DynamoGraphDeployment';
export const DCD_KIND = 'DynamoComponentDeployment';

export type BackendFrameworkValue = 'sglang' | 'vllm' | 'trtllm';
export type ComponentTypeValue = 'frontend' | 'worker' | 'prefill' | 'decode' | 'planner' | 'epp';

export interface ObjectMetaJson {
  name?: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  [key: string]: any;
}

export interface ProviderOverrideJson {
  apiVersion: string;
  target?: string;
  value: JsonObject;
}

export interface ComponentRoleJson {
  name: string;
  replicas?: number;
  providerOverride?: ProviderOverrideJson;
}

export interface CheckpointIdentityJson {
  model: string;
  backendFramework: BackendFrameworkValue;
  dynamoVersion?: string;
  tensorParallelSize?: number;
  pipelineParallelSize?: number;
  dtype?: string;
  maxModelLen?: number;
  extraParameters?: Record<string, string>;
}

export interface CheckpointJson {
  enabled: boolean;
  checkpointRef?: string;
  startupPolicy?: 'Immediate' | 'WaitForCheckpoint';
  deletionPolicy?: 'Delete' | 'Retain';
  targetContainerName?: string;
  job?: { gmsClientContainers?: string[]; podTemplate?: JsonObject };
  mode?: 'Auto' | 'Manual';
  identity?: CheckpointIdentityJson;
}

export interface GpuMemoryServiceJson {
  mode?: 'IntraPod' | 'InterPod';
  deviceClassName?: string;
  extraClientContainers?: string[];
  extraClientPods?: { name: string; podTemplate: JsonObject }[];
}

export interface FailoverJson {
  mode?: 'IntraPod' | 'InterPod';
  numShadows?: number;
}

export interface ExperimentalJson {
  gpuMemoryService?: GpuMemoryServiceJson;
  failover?: FailoverJson;
  checkpoint?: CheckpointJson;
  grove?: { forceScalingGroup?: boolean };
}

export interface EppConfigJson {
  configMapRef?: JsonObject;
  config?: JsonObject;
}

/** One entry of a DGD's `spec.components`, and the body of a DCD spec (without backendFramework). */
export interface ComponentSpecJson {
  name?: string;
  type?: ComponentTypeValue;
  replicas?: number;
  minAvailable?: number;
  podTemplate?: JsonObject;
  multinode?: { nodeCount?: number };
  roles?: ComponentRoleJson[];
  sharedMemorySize?: string | number;
  globalDynamoNamespace?: boolean;
  modelRef?: { name: string; revision?: string };
  scalingAdapter?: JsonObject;
  frontendSidecar?: string;
  compilationCache?: { pvcName: string; mountPath?: string };
  eppConfig?: EppConfigJson;
  topologyConstraint?: { packDomain: string };
  runtimeVersionOverride?: string;
  providerOverride?: ProviderOverrideJson;
  experimental?: ExperimentalJson;
  [key: string]: any;
}

export interface DcdSpecJson extends ComponentSpecJson {
  backendFramework?: BackendFrameworkValue | '';
}

export interface KvTransferPolicyJson {
  clusterTopologyName?: string;
  labelKey?: string;
  domain: string;
  enforcement?: 'required' | 'preferred';
  preferredWeight?: number;
}

export interface DgdSpecJson {
  backendFramework?: BackendFrameworkValue;
  components?: ComponentSpecJson[];
  env?: JsonObject[];
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  priorityClassName?: string;
  restart?: { id: string; strategy?: { type?: 'Sequential' | 'Parallel'; order?: string[] } };
  topologyConstraint?: { clusterTopologyName: string; packDomain?: string };
  providerOverride?: ProviderOverrideJson;
  experimental?: { kvTransferPolicy?: KvTransferPolicyJson };
  [key: string]: any;
}

export interface DgdJson {
  apiVersion: string;
  kind: string;
  metadata: ObjectMetaJson;
  spec: DgdSpecJson;
  status?: JsonObject;
}

export interface DcdJson {
  apiVersion: string;
  kind: string;
  metadata: ObjectMetaJson;
  spec: DcdSpecJson;
  status?: JsonObject;
}

/** Worker-class component types: worker, prefill, decode. */
export function isWorkerType(type: string | undefined): boolean {
  return type === 'worker' || type === 'prefill' || type === 'decode';
}

export function isDgd(doc: any): doc is DgdJson {
  return !!doc && typeof doc === 'object' && doc.apiVersion === API_VERSION && doc.kind === DGD_KIND;
}

export function isDcd(doc: any): doc is DcdJson {
  return !!doc && typeof doc === 'object' && doc.apiVersion === API_VERSION && doc.kind === DCD_KIND;
}
