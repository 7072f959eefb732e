/**
 * Go struct layouts for the nvidia.com/v1alpha1 Dynamo types (prefix `A1`) and for the parts of
 * the v1beta1 types the built-in table (`go/types.ts`) does not hold (prefix `B1`),
 * in the notation of that table. They serve three purposes:
 *
 * - reading a v1alpha1 document the way the operator's Go types read it (`readAlphaSpec`):
 *   quantities canonical, absent fields as Go zero values, unknown fields reported;
 * - writing the preservation annotations byte for byte as Go's `encoding/json` writes the
 *   operator's sparse save structs;
 * - writing the converted v1beta1 spec and status in Go field order.
 *
 * Field order and `omitempty` follow the operator's v1alpha1 API (main of 2026-08-21) and
 * k8s.io/api autoscaling/v2 v0.36.
 */
import { goTypeRegistry, GoTypeRegistry } from '../../go/marshal';
import { K8S_STRUCTS } from '../../go/types';

/** `PodSpec` without `containers`: the inline part of v1alpha1 `extraPodSpec`. */
const POD_SPEC_WITHOUT_CONTAINERS = K8S_STRUCTS.PodSpec.split(/\s+/).filter(token => !token.startsWith('containers:')).join(' ');

const SHARED_SPEC_V1ALPHA1 = [
  'providerOverride?:*ProviderOverride',
  'annotations?:{}s',
  'labels?:{}s',
  'serviceName?:s',
  'componentType?:s',
  'subComponentType?:s',
  'runtimeVersionOverride?:s',
  'dynamoNamespace?:*s',
  'globalDynamoNamespace?:b',
  'resources?:*A1Resources',
  'autoscaling?:*A1Autoscaling',
  'envs?:[]EnvVar',
  'envFromSecret?:*s',
  'volumeMounts?:[]A1VolumeMount',
  'ingress?:*A1IngressSpec',
  'modelRef?:*ModelReference',
  'sharedMemory?:*A1SharedMemorySpec',
  'extraPodMetadata?:*A1ExtraPodMetadata',
  'extraPodSpec?:*A1ExtraPodSpec',
  'livenessProbe?:*Probe',
  'readinessProbe?:*Probe',
  'replicas?:*i',
  'minAvailable?:*i',
  'multinode?:*A1MultinodeSpec',
  'scalingAdapter?:*A1ScalingAdapter',
  'eppConfig?:*EPPConfig',
  'frontendSidecar?:*A1FrontendSidecarSpec',
  'checkpoint?:*A1CheckpointConfig',
  'topologyConstraint?:*TopologyConstraint',
  'gpuMemoryService?:*A1GMSSpec',
  'failover?:*A1FailoverSpec',
].join(' ');

/** The layouts, by Go type name. */
export const CONVERSION_GO_TYPES: Readonly<Record<string, string>> = Object.freeze({
  // --- nvidia.com/v1alpha1 ---
  A1DGDSpec: 'providerOverride?:*ProviderOverride annotations?:{}s labels?:{}s priorityClassName?:s pvcs?:[]A1PVC services?:{}*A1SharedSpec envs?:[]EnvVar backendFramework?:s restart?:*A1Restart topologyConstraint?:*A1SpecTopologyConstraint experimental?:*A1DGDExperimentalSpec',
  A1DCDSpec: 'backendFramework?:s ...A1SharedSpec',
  A1SharedSpec: SHARED_SPEC_V1ALPHA1,
  A1PVC: 'create?:*b name?:*s storageClass?:s size?:q volumeAccessMode?:s',
  A1Restart: 'id:s strategy?:*A1RestartStrategy',
  A1RestartStrategy: 'type?:s order?:[]s',
  A1SpecTopologyConstraint: 'topologyProfile:s packDomain?:s',
  A1DGDExperimentalSpec: 'kvTransferPolicy?:*A1KvTransferPolicy',
  A1KvTransferPolicy: 'clusterTopologyName?:s labelKey?:s domain:s enforcement?:s preferredWeight?:*f32',
  A1MultinodeSpec: 'nodeCount:i leader?:*A1MultinodeRoleSpec worker?:*A1MultinodeRoleSpec',
  A1MultinodeRoleSpec: 'providerOverride?:*ProviderOverride',
  A1VolumeMount: 'name?:s mountPoint?:s useAsCompilationCache?:b',
  A1Autoscaling: 'enabled?:b minReplicas?:i maxReplicas?:i behavior?:*A1HPABehavior metrics?:[]A1MetricSpec',
  A1SharedMemorySpec: 'disabled?:b size?:q',
  A1ResourceItem: 'cpu?:s memory?:s gpu?:s gpuType?:s custom?:{}s',
  A1Resources: 'requests?:*A1ResourceItem limits?:*A1ResourceItem claims?:[]ResourceClaim',
  A1ExtraPodMetadata: 'annotations?:{}s labels?:{}s',
  A1ExtraPodSpec: '...A1InlinePodSpec containers?:[]Container mainContainer?:*Container',
  A1InlinePodSpec: POD_SPEC_WITHOUT_CONTAINERS,
  A1IngressSpec: 'enabled?:b host?:s useVirtualService?:b virtualServiceGateway?:*s hostPrefix?:*s annotations?:{}s labels?:{}s tls?:*A1IngressTLSSpec hostSuffix?:*s ingressControllerClassName?:*s',
  A1IngressTLSSpec: 'secretName?:s',
  A1ScalingAdapter: 'enabled?:b',
  A1FrontendSidecarSpec: 'image:s args?:[]s envFromSecret?:*s envs?:[]EnvVar',
  A1GMSSpec: 'enabled:b mode?:s deviceClassName?:s extraClientContainers?:[]s extraClientPods?:[]GMSClientPodSpec',
  A1FailoverSpec: 'enabled:b mode?:s numShadows?:i',
  A1CheckpointConfig: 'enabled?:b mode?:s startupPolicy?:s deletionPolicy?:s checkpointRef?:*s identity?:*DynamoCheckpointIdentity targetContainerName?:s job?:*A1CheckpointJobConfig',
  A1CheckpointJobConfig: 'gmsClientContainers?:[]s podTemplate?:*PodTemplateSpec',
  // autoscaling/v2, as the v1alpha1 autoscaling block embeds it
  A1HPABehavior: 'scaleUp?:*A1HPAScalingRules scaleDown?:*A1HPAScalingRules',
  A1HPAScalingRules: 'stabilizationWindowSeconds?:*i selectPolicy?:*s policies?:[]A1HPAScalingPolicy tolerance?:*q',
  A1HPAScalingPolicy: 'type:s value:i periodSeconds:i',
  A1MetricSpec: 'type:s object?:*A1ObjectMetricSource pods?:*A1PodsMetricSource resource?:*A1ResourceMetricSource containerResource?:*A1ContainerResourceMetricSource external?:*A1ExternalMetricSource',
  A1ObjectMetricSource: 'describedObject:A1CrossVersionObjectReference target:A1MetricTarget metric:A1MetricIdentifier',
  A1PodsMetricSource: 'metric:A1MetricIdentifier target:A1MetricTarget',
  A1ResourceMetricSource: 'name:s target:A1MetricTarget',
  A1ContainerResourceMetricSource: 'name:s target:A1MetricTarget container:s',
  A1ExternalMetricSource: 'metric:A1MetricIdentifier target:A1MetricTarget',
  A1CrossVersionObjectReference: 'kind:s name:s apiVersion?:s',
  A1MetricIdentifier: 'name:s selector?:*LabelSelector',
  A1MetricTarget: 'type:s value?:*q averageValue?:*q averageUtilization?:*i',
  // status
  A1DGDStatus: 'observedGeneration?:i state:s conditions?:[]B1Condition services?:{}A1ServiceReplicaStatus restart?:*B1RestartStatus checkpoints?:{}B1CheckpointStatus rollingUpdate?:*A1RollingUpdateStatus placement?:*B1PlacementStatus',
  A1DCDStatus: 'observedGeneration?:i conditions:[]B1Condition podSelector?:{}s service?:*A1ServiceReplicaStatus',
  A1ServiceReplicaStatus: 'componentKind:s componentName:s componentNames?:[]s runtimeNamespace?:s replicas:i updatedReplicas:i readyReplicas?:*i availableReplicas?:*i scheduledReplicas?:*i',
  A1RollingUpdateStatus: 'phase?:s startTime?:*t endTime?:*t updatedServices?:[]s',
  // the preservation envelope (`{"version":1,"spec":...,"rawJSON":[...]}`)
  A1DGDSpecEnvelope: 'version:i spec:A1DGDSpec rawJSON?:[]A1PreservedRawJSON',
  A1DCDSpecEnvelope: 'version:i spec:A1DCDSpec rawJSON?:[]A1PreservedRawJSON',
  A1PreservedRawJSON: 'path:s raw?:bytes nil?:b',

  // --- nvidia.com/v1beta1 parts the built-in table lacks ---
  B1DGDSpec: 'providerOverride?:*ProviderOverride annotations?:{}s labels?:{}s priorityClassName?:s components?:[]DynamoComponentDeploymentSharedSpec env?:[]EnvVar backendFramework?:s restart?:*A1Restart topologyConstraint?:*B1SpecTopologyConstraint experimental?:*B1DGDExperimentalSpec',
  B1SpecTopologyConstraint: 'clusterTopologyName:s packDomain?:s',
  B1DGDExperimentalSpec: 'kvTransferPolicy?:*A1KvTransferPolicy',
  B1DGDStatus: 'observedGeneration?:i state:s conditions?:[]B1Condition components?:{}B1ComponentReplicaStatus restart?:*B1RestartStatus checkpoints?:{}B1CheckpointStatus rollingUpdate?:*B1RollingUpdateStatus placement?:*B1PlacementStatus',
  B1DCDStatus: 'observedGeneration?:i conditions?:[]B1Condition component?:*B1ComponentReplicaStatus',
  B1ComponentReplicaStatus: 'componentKind:s componentNames?:[]s runtimeNamespace?:s replicas:i updatedReplicas:i readyReplicas?:*i availableReplicas?:*i scheduledReplicas?:*i',
  B1CheckpointStatus: 'checkpointName?:s checkpointID?:s identityHash?:s ready?:b',
  B1RestartStatus: 'observedID?:s phase?:s inProgress?:[]s',
  B1RollingUpdateStatus: 'phase?:s startTime?:*t endTime?:*t updatedComponents?:[]s',
  B1PlacementStatus: 'score?:*f64 state?:s',
  B1Condition: 'type:s status:s observedGeneration?:i lastTransitionTime:t reason:s message:s',
});

/** The registry of the built-in layouts plus these. */
export function conversionRegistry(): GoTypeRegistry {
  return goTypeRegistry(CONVERSION_GO_TYPES);
}
