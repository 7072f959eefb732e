/**
 * The endpoint picker's (EPP) fixed names: its ServiceAccount, the ConfigMap and InferencePool
 * the operator names after the graph, the configuration file, the EPP's ports and the
 * InferencePool API. Shared by the renderer and the checks of derived names.
 */

/** The ServiceAccount EPP pods run as. */
export const EPP_SERVICE_ACCOUNT = 'epp-serviceaccount';

/** Suffix of the EPP configuration ConfigMap the operator creates: `<graph>-epp-config`. */
export const EPP_CONFIG_MAP_SUFFIX = '-epp-config';
/** Suffix of the graph's InferencePool: `<graph>-pool`. */
export const INFERENCE_POOL_SUFFIX = '-pool';

/** `<graph>-epp-config`. */
export function eppConfigMapName(graphName: string): string {
  return `${graphName}${EPP_CONFIG_MAP_SUFFIX}`;
}

/** `<graph>-pool`. */
export function inferencePoolName(graphName: string): string {
  return `${graphName}${INFERENCE_POOL_SUFFIX}`;
}

/** Key of the EPP configuration file in its ConfigMap, and the file name it is mounted as. */
export const EPP_CONFIG_FILE = 'epp-config-dynamo.yaml';

export const EPP_GRPC_PORT_NAME = 'grpc';
export const EPP_GRPC_PORT = 9002;
export const EPP_GRPC_HEALTH_PORT_NAME = 'grpc-health';
export const EPP_GRPC_HEALTH_PORT = 9003;
export const EPP_METRICS_PORT_NAME = 'metrics';
export const EPP_METRICS_PORT = 9090;

/** InferencePool API group the EPP watches. */
export const INFERENCE_POOL_GROUP = 'inference.networking.k8s.io';
/** `apiVersion` of the InferencePool the operator creates. */
export const INFERENCE_POOL_API_VERSION = `${INFERENCE_POOL_GROUP}/v1`;
