/**
 * Go struct layouts used by the Go-style JSON encoder (`marshal.ts`).
 *
 * Each entry maps a Go struct name to its JSON fields in Go declaration order, written in a
 * compact notation of our own:
 *
 *   `name:T`      field `name`, always encoded
 *   `name?:T`     `omitempty`
 *   `name~:T`     `omitzero`      (`name?~:T` = both)
 *   `...Struct`   an anonymous embedded struct whose fields are promoted in place
 *
 * Type expressions: `*T` pointer, `[]T` slice, `{}T` map with string keys, a struct name, or a
 * primitive: `s` string, `b` bool, `i` any integer, `f64`/`f32` floats, `q` resource.Quantity,
 * `t` metav1.Time, `mt` metav1.MicroTime, `ios` intstr.IntOrString, `dur` metav1.Duration,
 * `bytes` []byte (base64 text), `raw` a struct holding raw JSON (apiextensions JSON,
 * RawExtension, FieldsV1), `rawmsg` json.RawMessage, `any` interface{}.
 *
 * Kubernetes layouts follow k8s.io/api and k8s.io/apimachinery v0.36.2 (the set reachable from
 * PodTemplateSpec, DeploymentSpec, ServiceSpec, IngressSpec and the RBAC content types). The only
 * differences to v0.34.3 are fields appended later (`PodSpec.schedulingGroup`,
 * `PodCertificateProjection.userAnnotations`), which never appear unless set.
 * Dynamo layouts follow the nvidia.com/v1beta1 Go types of the Dynamo operator.
 */

/** Kubernetes struct layouts. */
export const K8S_STRUCTS: Readonly<Record<string, string>> = {
  PodTemplateSpec: 'metadata?:ObjectMeta spec?:PodSpec',
  DeploymentSpec: 'replicas?:*i selector:*LabelSelector template:PodTemplateSpec strategy?:DeploymentStrategy minReadySeconds?:i revisionHistoryLimit?:*i paused?:b progressDeadlineSeconds?:*i',
  ServiceSpec: 'ports?:[]ServicePort selector?:{}s clusterIP?:s clusterIPs?:[]s type?:s externalIPs?:[]s sessionAffinity?:s loadBalancerIP?:s loadBalancerSourceRanges?:[]s externalName?:s externalTrafficPolicy?:s healthCheckNodePort?:i publishNotReadyAddresses?:b sessionAffinityConfig?:*SessionAffinityConfig ipFamilies?:[]s ipFamilyPolicy?:*s allocateLoadBalancerNodePorts?:*b loadBalancerClass?:*s internalTrafficPolicy?:*s trafficDistribution?:*s',
  IngressSpec: 'ingressClassName?:*s defaultBackend?:*IngressBackend tls?:[]IngressTLS rules?:[]IngressRule',
  PolicyRule: 'verbs:[]s apiGroups?:[]s resources?:[]s resourceNames?:[]s nonResourceURLs?:[]s',
  Subject: 'kind:s apiGroup?:s name:s namespace?:s',
  RoleRef: 'apiGroup:s kind:s name:s',
  AggregationRule: 'clusterRoleSelectors?:[]LabelSelector',
  ObjectReference: 'kind?:s namespace?:s name?:s uid?:s apiVersion?:s resourceVersion?:s fieldPath?:s',
  ObjectMeta: 'name?:s generateName?:s namespace?:s selfLink?:s uid?:s resourceVersion?:s generation?:i creationTimestamp?~:t deletionTimestamp?:*t deletionGracePeriodSeconds?:*i labels?:{}s annotations?:{}s ownerReferences?:[]OwnerReference finalizers?:[]s managedFields?:[]ManagedFieldsEntry',
  PodSpec: 'volumes?:[]Volume initContainers?:[]Container containers:[]Container ephemeralContainers?:[]EphemeralContainer restartPolicy?:s terminationGracePeriodSeconds?:*i activeDeadlineSeconds?:*i dnsPolicy?:s nodeSelector?:{}s serviceAccountName?:s serviceAccount?:s automountServiceAccountToken?:*b nodeName?:s hostNetwork?:b hostPID?:b hostIPC?:b shareProcessNamespace?:*b securityContext?:*PodSecurityContext imagePullSecrets?:[]LocalObjectReference hostname?:s subdomain?:s affinity?:*Affinity schedulerName?:s tolerations?:[]Toleration hostAliases?:[]HostAlias priorityClassName?:s priority?:*i dnsConfig?:*PodDNSConfig readinessGates?:[]PodReadinessGate runtimeClassName?:*s enableServiceLinks?:*b preemptionPolicy?:*s overhead?:{}q topologySpreadConstraints?:[]TopologySpreadConstraint setHostnameAsFQDN?:*b os?:*PodOS hostUsers?:*b schedulingGates?:[]PodSchedulingGate resourceClaims?:[]PodResourceClaim resources?:*ResourceRequirements hostnameOverride?:*s schedulingGroup?:*PodSchedulingGroup',
  LabelSelector: 'matchLabels?:{}s matchExpressions?:[]LabelSelectorRequirement',
  DeploymentStrategy: 'type?:s rollingUpdate?:*RollingUpdateDeployment',
  ServicePort: 'name?:s protocol?:s appProtocol?:*s port:i targetPort?:ios nodePort?:i',
  SessionAffinityConfig: 'clientIP?:*ClientIPConfig',
  IngressBackend: 'service?:*IngressServiceBackend resource?:*TypedLocalObjectReference',
  IngressTLS: 'hosts?:[]s secretName?:s',
  IngressRule: 'host?:s ...IngressRuleValue',
  OwnerReference: 'apiVersion:s kind:s name:s uid:s controller?:*b blockOwnerDeletion?:*b',
  ManagedFieldsEntry: 'manager?:s operation?:s apiVersion?:s time?:*t fieldsType?:s fieldsV1?:*raw subresource?:s',
  Volume: 'name:s ...VolumeSource',
  Container: 'name:s image?:s command?:[]s args?:[]s workingDir?:s ports?:[]ContainerPort envFrom?:[]EnvFromSource env?:[]EnvVar resources?:ResourceRequirements resizePolicy?:[]ContainerResizePolicy restartPolicy?:*s restartPolicyRules?:[]ContainerRestartRule volumeMounts?:[]VolumeMount volumeDevices?:[]VolumeDevice livenessProbe?:*Probe readinessProbe?:*Probe startupProbe?:*Probe lifecycle?:*Lifecycle terminationMessagePath?:s terminationMessagePolicy?:s imagePullPolicy?:s securityContext?:*SecurityContext stdin?:b stdinOnce?:b tty?:b',
  EphemeralContainer: '...EphemeralContainerCommon targetContainerName?:s',
  PodSecurityContext: 'seLinuxOptions?:*SELinuxOptions windowsOptions?:*WindowsSecurityContextOptions runAsUser?:*i runAsGroup?:*i runAsNonRoot?:*b supplementalGroups?:[]i supplementalGroupsPolicy?:*s fsGroup?:*i sysctls?:[]Sysctl fsGroupChangePolicy?:*s seccompProfile?:*SeccompProfile appArmorProfile?:*AppArmorProfile seLinuxChangePolicy?:*s',
  LocalObjectReference: 'name?:s',
  Affinity: 'nodeAffinity?:*NodeAffinity podAffinity?:*PodAffinity podAntiAffinity?:*PodAntiAffinity',
  Toleration: 'key?:s operator?:s value?:s effect?:s tolerationSeconds?:*i',
  HostAlias: 'ip:s hostnames?:[]s',
  PodDNSConfig: 'nameservers?:[]s searches?:[]s options?:[]PodDNSConfigOption',
  PodReadinessGate: 'conditionType:s',
  TopologySpreadConstraint: 'maxSkew:i topologyKey:s whenUnsatisfiable:s labelSelector?:*LabelSelector minDomains?:*i nodeAffinityPolicy?:*s nodeTaintsPolicy?:*s matchLabelKeys?:[]s',
  PodOS: 'name:s',
  PodSchedulingGate: 'name:s',
  PodResourceClaim: 'name:s resourceClaimName?:*s resourceClaimTemplateName?:*s',
  ResourceRequirements: 'limits?:{}q requests?:{}q claims?:[]ResourceClaim',
  PodSchedulingGroup: 'podGroupName?:*s',
  LabelSelectorRequirement: 'key:s operator:s values?:[]s',
  RollingUpdateDeployment: 'maxUnavailable?:*ios maxSurge?:*ios',
  ClientIPConfig: 'timeoutSeconds?:*i',
  IngressServiceBackend: 'name:s port?:ServiceBackendPort',
  TypedLocalObjectReference: 'apiGroup:*s kind:s name:s',
  IngressRuleValue: 'http?:*HTTPIngressRuleValue',
  VolumeSource: 'hostPath?:*HostPathVolumeSource emptyDir?:*EmptyDirVolumeSource gcePersistentDisk?:*GCEPersistentDiskVolumeSource awsElasticBlockStore?:*AWSElasticBlockStoreVolumeSource gitRepo?:*GitRepoVolumeSource secret?:*SecretVolumeSource nfs?:*NFSVolumeSource iscsi?:*ISCSIVolumeSource glusterfs?:*GlusterfsVolumeSource persistentVolumeClaim?:*PersistentVolumeClaimVolumeSource rbd?:*RBDVolumeSource flexVolume?:*FlexVolumeSource cinder?:*CinderVolumeSource cephfs?:*CephFSVolumeSource flocker?:*FlockerVolumeSource downwardAPI?:*DownwardAPIVolumeSource fc?:*FCVolumeSource azureFile?:*AzureFileVolumeSource configMap?:*ConfigMapVolumeSource vsphereVolume?:*VsphereVirtualDiskVolumeSource quobyte?:*QuobyteVolumeSource azureDisk?:*AzureDiskVolumeSource photonPersistentDisk?:*PhotonPersistentDiskVolumeSource projected?:*ProjectedVolumeSource portworxVolume?:*PortworxVolumeSource scaleIO?:*ScaleIOVolumeSource storageos?:*StorageOSVolumeSource csi?:*CSIVolumeSource ephemeral?:*EphemeralVolumeSource image?:*ImageVolumeSource',
  ContainerPort: 'name?:s hostPort?:i containerPort:i protocol?:s hostIP?:s',
  EnvFromSource: 'prefix?:s configMapRef?:*ConfigMapEnvSource secretRef?:*SecretEnvSource',
  EnvVar: 'name:s value?:s valueFrom?:*EnvVarSource',
  ContainerResizePolicy: 'resourceName:s restartPolicy:s',
  ContainerRestartRule: 'action?:s exitCodes?:*ContainerRestartRuleOnExitCodes',
  VolumeMount: 'name:s readOnly?:b recursiveReadOnly?:*s mountPath:s subPath?:s mountPropagation?:*s subPathExpr?:s',
  VolumeDevice: 'name:s devicePath:s',
  Probe: '...ProbeHandler initialDelaySeconds?:i timeoutSeconds?:i periodSeconds?:i successThreshold?:i failureThreshold?:i terminationGracePeriodSeconds?:*i',
  Lifecycle: 'postStart?:*LifecycleHandler preStop?:*LifecycleHandler stopSignal?:*s',
  SecurityContext: 'capabilities?:*Capabilities privileged?:*b seLinuxOptions?:*SELinuxOptions windowsOptions?:*WindowsSecurityContextOptions runAsUser?:*i runAsGroup?:*i runAsNonRoot?:*b readOnlyRootFilesystem?:*b allowPrivilegeEscalation?:*b procMount?:*s seccompProfile?:*SeccompProfile appArmorProfile?:*AppArmorProfile',
  EphemeralContainerCommon: 'name:s image?:s command?:[]s args?:[]s workingDir?:s ports?:[]ContainerPort envFrom?:[]EnvFromSource env?:[]EnvVar resources?:ResourceRequirements resizePolicy?:[]ContainerResizePolicy restartPolicy?:*s restartPolicyRules?:[]ContainerRestartRule volumeMounts?:[]VolumeMount volumeDevices?:[]VolumeDevice livenessProbe?:*Probe readinessProbe?:*Probe startupProbe?:*Probe lifecycle?:*Lifecycle terminationMessagePath?:s terminationMessagePolicy?:s imagePullPolicy?:s securityContext?:*SecurityContext stdin?:b stdinOnce?:b tty?:b',
  SELinuxOptions: 'user?:s role?:s type?:s level?:s',
  WindowsSecurityContextOptions: 'gmsaCredentialSpecName?:*s gmsaCredentialSpec?:*s runAsUserName?:*s hostProcess?:*b',
  Sysctl: 'name:s value:s',
  SeccompProfile: 'type:s localhostProfile?:*s',
  AppArmorProfile: 'type:s localhostProfile?:*s',
  NodeAffinity: 'requiredDuringSchedulingIgnoredDuringExecution?:*NodeSelector preferredDuringSchedulingIgnoredDuringExecution?:[]PreferredSchedulingTerm',
  PodAffinity: 'requiredDuringSchedulingIgnoredDuringExecution?:[]PodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution?:[]WeightedPodAffinityTerm',
  PodAntiAffinity: 'requiredDuringSchedulingIgnoredDuringExecution?:[]PodAffinityTerm preferredDuringSchedulingIgnoredDuringExecution?:[]WeightedPodAffinityTerm',
  PodDNSConfigOption: 'name?:s value?:*s',
  ResourceClaim: 'name:s request?:s',
  ServiceBackendPort: 'name?:s number?:i',
  HTTPIngressRuleValue: 'paths:[]HTTPIngressPath',
  HostPathVolumeSource: 'path:s type?:*s',
  EmptyDirVolumeSource: 'medium?:s sizeLimit?:*q',
  GCEPersistentDiskVolumeSource: 'pdName:s fsType?:s partition?:i readOnly?:b',
  AWSElasticBlockStoreVolumeSource: 'volumeID:s fsType?:s partition?:i readOnly?:b',
  GitRepoVolumeSource: 'repository:s revision?:s directory?:s',
  SecretVolumeSource: 'secretName?:s items?:[]KeyToPath defaultMode?:*i optional?:*b',
  NFSVolumeSource: 'server:s path:s readOnly?:b',
  ISCSIVolumeSource: 'targetPortal:s iqn:s lun:i iscsiInterface?:s fsType?:s readOnly?:b portals?:[]s chapAuthDiscovery?:b chapAuthSession?:b secretRef?:*LocalObjectReference initiatorName?:*s',
  GlusterfsVolumeSource: 'endpoints:s path:s readOnly?:b',
  PersistentVolumeClaimVolumeSource: 'claimName:s readOnly?:b',
  RBDVolumeSource: 'monitors:[]s image:s fsType?:s pool?:s user?:s keyring?:s secretRef?:*LocalObjectReference readOnly?:b',
  FlexVolumeSource: 'driver:s fsType?:s secretRef?:*LocalObjectReference readOnly?:b options?:{}s',
  CinderVolumeSource: 'volumeID:s fsType?:s readOnly?:b secretRef?:*LocalObjectReference',
  CephFSVolumeSource: 'monitors:[]s path?:s user?:s secretFile?:s secretRef?:*LocalObjectReference readOnly?:b',
  FlockerVolumeSource: 'datasetName?:s datasetUUID?:s',
  DownwardAPIVolumeSource: 'items?:[]DownwardAPIVolumeFile defaultMode?:*i',
  FCVolumeSource: 'targetWWNs?:[]s lun?:*i fsType?:s readOnly?:b wwids?:[]s',
  AzureFileVolumeSource: 'secretName:s shareName:s readOnly?:b',
  ConfigMapVolumeSource: '...LocalObjectReference items?:[]KeyToPath defaultMode?:*i optional?:*b',
  VsphereVirtualDiskVolumeSource: 'volumePath:s fsType?:s storagePolicyName?:s storagePolicyID?:s',
  QuobyteVolumeSource: 'registry:s volume:s readOnly?:b user?:s group?:s tenant?:s',
  AzureDiskVolumeSource: 'diskName:s diskURI:s cachingMode?:*s fsType?:*s readOnly?:*b kind?:*s',
  PhotonPersistentDiskVolumeSource: 'pdID:s fsType?:s',
  ProjectedVolumeSource: 'sources:[]VolumeProjection defaultMode?:*i',
  PortworxVolumeSource: 'volumeID:s fsType?:s readOnly?:b',
  ScaleIOVolumeSource: 'gateway:s system:s secretRef:*LocalObjectReference sslEnabled?:b protectionDomain?:s storagePool?:s storageMode?:s volumeName?:s fsType?:s readOnly?:b',
  StorageOSVolumeSource: 'volumeName?:s volumeNamespace?:s fsType?:s readOnly?:b secretRef?:*LocalObjectReference',
  CSIVolumeSource: 'driver:s readOnly?:*b fsType?:*s volumeAttributes?:{}s nodePublishSecretRef?:*LocalObjectReference',
  EphemeralVolumeSource: 'volumeClaimTemplate?:*PersistentVolumeClaimTemplate',
  ImageVolumeSource: 'reference?:s pullPolicy?:s',
  ConfigMapEnvSource: '...LocalObjectReference optional?:*b',
  SecretEnvSource: '...LocalObjectReference optional?:*b',
  EnvVarSource: 'fieldRef?:*ObjectFieldSelector resourceFieldRef?:*ResourceFieldSelector configMapKeyRef?:*ConfigMapKeySelector secretKeyRef?:*SecretKeySelector fileKeyRef?:*FileKeySelector',
  ContainerRestartRuleOnExitCodes: 'operator?:s values?:[]i',
  ProbeHandler: 'exec?:*ExecAction httpGet?:*HTTPGetAction tcpSocket?:*TCPSocketAction grpc?:*GRPCAction',
  LifecycleHandler: 'exec?:*ExecAction httpGet?:*HTTPGetAction tcpSocket?:*TCPSocketAction sleep?:*SleepAction',
  Capabilities: 'add?:[]s drop?:[]s',
  NodeSelector: 'nodeSelectorTerms:[]NodeSelectorTerm',
  PreferredSchedulingTerm: 'weight:i preference:NodeSelectorTerm',
  PodAffinityTerm: 'labelSelector?:*LabelSelector namespaces?:[]s topologyKey:s namespaceSelector?:*LabelSelector matchLabelKeys?:[]s mismatchLabelKeys?:[]s',
  WeightedPodAffinityTerm: 'weight:i podAffinityTerm:PodAffinityTerm',
  HTTPIngressPath: 'path?:s pathType:*s backend:IngressBackend',
  KeyToPath: 'key:s path:s mode?:*i',
  DownwardAPIVolumeFile: 'path:s fieldRef?:*ObjectFieldSelector resourceFieldRef?:*ResourceFieldSelector mode?:*i',
  VolumeProjection: 'secret?:*SecretProjection downwardAPI?:*DownwardAPIProjection configMap?:*ConfigMapProjection serviceAccountToken?:*ServiceAccountTokenProjection clusterTrustBundle?:*ClusterTrustBundleProjection podCertificate?:*PodCertificateProjection',
  PersistentVolumeClaimTemplate: 'metadata?:ObjectMeta spec:PersistentVolumeClaimSpec',
  ObjectFieldSelector: 'apiVersion?:s fieldPath:s',
  ResourceFieldSelector: 'containerName?:s resource:s divisor?:q',
  ConfigMapKeySelector: '...LocalObjectReference key:s optional?:*b',
  SecretKeySelector: '...LocalObjectReference key:s optional?:*b',
  FileKeySelector: 'volumeName:s path:s key:s optional?:*b',
  ExecAction: 'command?:[]s',
  HTTPGetAction: 'path?:s port:ios host?:s scheme?:s httpHeaders?:[]HTTPHeader',
  TCPSocketAction: 'port:ios host?:s',
  GRPCAction: 'port:i service:*s',
  SleepAction: 'seconds:i',
  NodeSelectorTerm: 'matchExpressions?:[]NodeSelectorRequirement matchFields?:[]NodeSelectorRequirement',
  SecretProjection: '...LocalObjectReference items?:[]KeyToPath optional?:*b',
  DownwardAPIProjection: 'items?:[]DownwardAPIVolumeFile',
  ConfigMapProjection: '...LocalObjectReference items?:[]KeyToPath optional?:*b',
  ServiceAccountTokenProjection: 'audience?:s expirationSeconds?:*i path:s',
  ClusterTrustBundleProjection: 'name?:*s signerName?:*s labelSelector?:*LabelSelector optional?:*b path:s',
  PodCertificateProjection: 'signerName?:s keyType?:s maxExpirationSeconds?:*i credentialBundlePath?:s keyPath?:s certificateChainPath?:s userAnnotations?:{}s',
  PersistentVolumeClaimSpec: 'accessModes?:[]s selector?:*LabelSelector resources?:VolumeResourceRequirements volumeName?:s storageClassName?:*s volumeMode?:*s dataSource?:*TypedLocalObjectReference dataSourceRef?:*TypedObjectReference volumeAttributesClassName?:*s',
  HTTPHeader: 'name:s value:s',
  NodeSelectorRequirement: 'key:s operator:s values?:[]s',
  VolumeResourceRequirements: 'limits?:{}q requests?:{}q',
  TypedObjectReference: 'apiGroup:*s kind:s name:s namespace?:*s',
};

/** Dynamo nvidia.com/v1beta1 struct layouts (and the EPP configuration they embed). */
export const DYNAMO_STRUCTS: Readonly<Record<string, string>> = {
  DynamoComponentDeploymentSpec: 'backendFramework?:s ...DynamoComponentDeploymentSharedSpec',
  DynamoComponentDeploymentSharedSpec: 'providerOverride?:*ProviderOverride name:s type?:s runtimeVersionOverride?:s globalDynamoNamespace?:b podTemplate?:*PodTemplateSpec replicas?:*i minAvailable?:*i multinode?:*MultinodeSpec roles?:[]ComponentRoleSpec sharedMemorySize?:*q modelRef?:*ModelReference scalingAdapter?:*ScalingAdapter eppConfig?:*EPPConfig frontendSidecar?:*s dynamoSidecar?:*s compilationCache?:*CompilationCacheConfig topologyConstraint?:*TopologyConstraint experimental?:*ExperimentalSpec',
  ProviderOverride: 'apiVersion:s target?:s value:raw',
  ComponentRoleSpec: 'name:s replicas?:*i providerOverride?:*ProviderOverride podTemplate?:*PodTemplateSpec',
  MultinodeSpec: 'nodeCount:i',
  ModelReference: 'name:s revision?:s',
  ScalingAdapter: '',
  EPPConfig: 'configMapRef?:*ConfigMapKeySelector config?:*EndpointPickerConfig',
  CompilationCacheConfig: 'pvcName:s mountPath?:s',
  TopologyConstraint: 'packDomain:s',
  ExperimentalSpec: 'gpuMemoryService?:*GPUMemoryServiceSpec failover?:*FailoverSpec grove?:*GroveSpec checkpoint?:*ComponentCheckpointConfig',
  GPUMemoryServiceSpec: 'mode?:s deviceClassName?:s extraClientContainers?:[]s extraClientPods?:[]GMSClientPodSpec',
  GMSClientPodSpec: 'name:s podTemplate:PodTemplateSpec',
  FailoverSpec: 'mode?:s numShadows?:i',
  GroveSpec: 'forceScalingGroup?:*b',
  ComponentCheckpointConfig: 'enabled:b mode?:s startupPolicy?:s deletionPolicy?:s checkpointRef?:*s identity?:*DynamoCheckpointIdentity targetContainerName?:s job?:*ComponentCheckpointJobConfig',
  ComponentCheckpointJobConfig: 'gmsClientContainers?:[]s podTemplate?:*PodTemplateSpec',
  DynamoCheckpointIdentity: 'model:s backendFramework:s dynamoVersion?:s tensorParallelSize?:i pipelineParallelSize?:i dtype?:s maxModelLen?:i extraParameters?:{}s',
  // gateway-api-inference-extension v1.2.0, apix/config/v1alpha1
  EndpointPickerConfig: '...TypeMeta plugins:[]PluginSpec schedulingProfiles:[]SchedulingProfile featureGates?:[]s saturationDetector?:*SaturationDetector',
  PluginSpec: 'name:s type:s parameters:rawmsg',
  SchedulingProfile: 'name:s plugins:[]SchedulingPlugin',
  SchedulingPlugin: 'pluginRef:s weight:*i',
  SaturationDetector: 'queueDepthThreshold?:i kvCacheUtilThreshold?:f64 metricsStalenessThreshold?:dur',
};

/**
 * LeaderWorkerSet layouts (sigs.k8s.io/lws v0.9.0, `api/leaderworkerset/v1`), the version the
 * Dynamo operator builds against. The operator never sets `volumeClaimTemplates`, so its
 * PersistentVolumeClaim items are read as plain JSON.
 */
export const LWS_STRUCTS: Readonly<Record<string, string>> = {
  LeaderWorkerSetSpec: 'replicas?:*i leaderWorkerTemplate:LeaderWorkerTemplate rolloutStrategy?:RolloutStrategy startupPolicy:s networkConfig?:*NetworkConfig',
  LeaderWorkerTemplate: 'leaderTemplate?:*PodTemplateSpec workerTemplate:PodTemplateSpec size?:*i restartPolicy?:s subGroupPolicy?:*SubGroupPolicy volumeClaimTemplates?:[]any persistentVolumeClaimRetentionPolicy?:*StatefulSetPersistentVolumeClaimRetentionPolicy',
  RolloutStrategy: 'type:s rollingUpdateConfiguration?:*RollingUpdateConfiguration',
  RollingUpdateConfiguration: 'partition?:*i maxUnavailable?:ios maxSurge?:ios',
  SubGroupPolicy: 'subGroupPolicyType?:*s subGroupSize?:*i',
  NetworkConfig: 'subdomainPolicy:*s',
  StatefulSetPersistentVolumeClaimRetentionPolicy: 'whenDeleted?:s whenScaled?:s',
};

/**
 * The non-envelope fields of spec-less Kubernetes kinds (everything but TypeMeta, metadata and
 * status), as the operator's `nvidia.com/last-applied-hash` sees them.
 */
export const K8S_CONTENT_STRUCTS: Readonly<Record<string, string>> = {
  TypeMeta: 'kind?:s apiVersion?:s',
  ConfigMapContent: 'immutable?:*b data?:{}s binaryData?:{}bytes',
  SecretContent: 'immutable?:*b data?:{}bytes stringData?:{}s type?:s',
  ServiceAccountContent: 'secrets?:[]ObjectReference imagePullSecrets?:[]LocalObjectReference automountServiceAccountToken?:*b',
  RoleContent: 'rules:[]PolicyRule',
  ClusterRoleContent: 'rules:[]PolicyRule aggregationRule?:*AggregationRule',
  RoleBindingContent: 'subjects?:[]Subject roleRef:RoleRef',
};
