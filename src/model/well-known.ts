/** Label and annotation keys, and fixed names, that the Dynamo operator reads or writes. */

export const LABEL_COMPONENT = 'nvidia.com/dynamo-component';
export const LABEL_COMPONENT_TYPE = 'nvidia.com/dynamo-component-type';
export const LABEL_SUB_COMPONENT_TYPE = 'nvidia.com/dynamo-sub-component-type';
export const LABEL_COMPONENT_CLASS = 'nvidia.com/dynamo-component-class';
export const LABEL_DYNAMO_NAMESPACE = 'nvidia.com/dynamo-namespace';
export const LABEL_GRAPH_NAME = 'nvidia.com/dynamo-graph-deployment-name';
export const LABEL_WORKER_HASH = 'nvidia.com/dynamo-worker-hash';
export const LABEL_BASE_MODEL_HASH = 'nvidia.com/dynamo-base-model-hash';
export const LABEL_SELECTOR = 'nvidia.com/selector';
export const LABEL_METRICS_ENABLED = 'nvidia.com/metrics-enabled';
/** Pod and Service labels of components that register with Kubernetes discovery. */
export const LABEL_DISCOVERY_BACKEND = 'nvidia.com/dynamo-discovery-backend';
export const LABEL_DISCOVERY_ENABLED = 'nvidia.com/dynamo-discovery-enabled';
/** Label of the model headless Services, with value {@link MANAGED_BY_OPERATOR}. */
export const LABEL_MANAGED_BY = 'nvidia.com/managed-by';
export const MANAGED_BY_OPERATOR = 'dynamo-operator';
/** Standard labels of the RBAC objects the operator creates. */
export const LABEL_APP_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const LABEL_APP_COMPONENT = 'app.kubernetes.io/component';
export const LABEL_APP_NAME = 'app.kubernetes.io/name';
export const APP_COMPONENT_RBAC = 'rbac';

export const ANNOTATION_ORIGIN_VERSION = 'nvidia.com/dynamo-operator-origin-version';
export const ANNOTATION_WORKLOAD_PROVIDER = 'nvidia.com/workload-provider';
export const ANNOTATION_ENABLE_GROVE = 'nvidia.com/enable-grove';
export const ANNOTATION_ENABLE_METRICS = 'nvidia.com/enable-metrics';
export const ANNOTATION_DISCOVERY_BACKEND = 'nvidia.com/dynamo-discovery-backend';
export const ANNOTATION_KUBE_DISCOVERY_MODE = 'nvidia.com/dynamo-kube-discovery-mode';
export const ANNOTATION_VLLM_EXECUTOR_BACKEND = 'nvidia.com/vllm-distributed-executor-backend';
export const ANNOTATION_RESTART_AT = 'nvidia.com/restartAt';
export const ANNOTATION_BASE_MODEL = 'nvidia.com/dynamo-base-model';
export const ANNOTATION_TOPOLOGY_LABEL_KEY = 'nvidia.com/topology-label-key';
export const ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY = 'nvidia.com/topology-cluster-topology-name';
export const ANNOTATION_LAST_APPLIED_HASH = 'nvidia.com/last-applied-hash';
export const ANNOTATION_LAST_APPLIED_GENERATION = 'nvidia.com/last-applied-generation';
export const ANNOTATION_ISTIO_INJECT = 'sidecar.istio.io/inject';
export const ANNOTATION_GROVE_UPDATE_STRATEGY = 'nvidia.com/grove-update-strategy';
export const ANNOTATION_GPU_POWER_LIMIT = 'dynamo.nvidia.com/gpu-power-limit';
export const ANNOTATION_DISABLE_IMAGE_PULL_SECRET_DISCOVERY = 'nvidia.com/disable-image-pull-secret-discovery';
/** Pod-template annotations that shape the Deployment strategy. */
export const ANNOTATION_DEPLOYMENT_STRATEGY = 'nvidia.com/deployment-strategy';
export const ANNOTATION_MAX_SURGE = 'nvidia.com/deployment-rolling-update-max-surge';
export const ANNOTATION_MAX_UNAVAILABLE = 'nvidia.com/deployment-rolling-update-max-unavailable';

/** Values of `nvidia.com/workload-provider`. */
export const PROVIDER_GROVE = 'grove';
export const PROVIDER_COMPONENT = 'component';

/** DGD metadata annotations that the operator copies into every component's pod template. */
export const PROPAGATED_GRAPH_ANNOTATIONS: readonly string[] = [
  ANNOTATION_ENABLE_METRICS,
  ANNOTATION_DISCOVERY_BACKEND,
  ANNOTATION_KUBE_DISCOVERY_MODE,
  ANNOTATION_ORIGIN_VERSION,
  ANNOTATION_VLLM_EXECUTOR_BACKEND,
];

/** Name of the container the operator injects its defaults into. */
export const MAIN_CONTAINER = 'main';

/** The worker hash used while computing the worker hash itself. */
export const WORKER_HASH_PLACEHOLDER = 'worker-hash-placeholder';

export const PLANNER_SERVICE_ACCOUNT = 'planner-serviceaccount';

/** Kinds that live outside namespaces and never get one. */
const CLUSTER_SCOPED_KINDS = new Set([
  'APIService', 'CSIDriver', 'ClusterRole', 'ClusterRoleBinding', 'ClusterTopology', 'ClusterTopologyBinding', 'CustomResourceDefinition',
  'DeviceClass', 'IngressClass', 'MutatingWebhookConfiguration', 'Namespace', 'Node', 'PersistentVolume',
  'PriorityClass', 'RuntimeClass', 'StorageClass', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
  'ValidatingWebhookConfiguration', 'VolumeAttachment',
]);

/** Whether objects of `kind` live outside namespaces. */
export function isClusterScopedKind(kind: string): boolean {
  return CLUSTER_SCOPED_KINDS.has(kind);
}
