/**
 * Annotation keys the Dynamo admission webhooks read.
 *
 * Internal module.
 */
export const ANNOTATION_ORIGIN_VERSION = 'nvidia.com/dynamo-operator-origin-version';
export const ANNOTATION_VLLM_EXECUTOR_BACKEND = 'nvidia.com/vllm-distributed-executor-backend';
export const ANNOTATION_GROVE_UPDATE_STRATEGY = 'nvidia.com/grove-update-strategy';
export const ANNOTATION_DISCOVERY_MODE = 'nvidia.com/dynamo-kube-discovery-mode';
export const ANNOTATION_WORKLOAD_PROVIDER = 'nvidia.com/workload-provider';
export const ANNOTATION_ENABLE_GROVE = 'nvidia.com/enable-grove';
export const ANNOTATION_GPU_POWER_LIMIT = 'dynamo.nvidia.com/gpu-power-limit';

export const PROVIDER_GROVE = 'grove';
export const PROVIDER_COMPONENT = 'component';
