/**
 * The structural schema of the Dynamo-owned parts of DynamoGraphDeployment and
 * DynamoComponentDeployment (nvidia.com/v1beta1), written from the CRDs, each constraint tagged
 * with its row in validation-rules.md. Embedded Kubernetes types (pod templates, env entries,
 * ConfigMap key selectors) are open: only the parts a Dynamo rule speaks about are described.
 *
 * Internal module.
 */
import { QUANTITY_PATTERN } from './quantity';
import { anyValue, arr, bool, int, intOrString, num, obj, openObj, SchemaNode, str, stringMap } from './schema-node';

/** Rule id for structural errors (wrong type, unknown field) that no numbered row covers. */
export const STRUCTURAL_RULE = 'schema';

export const DNS_LABEL_PATTERN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
export const COMPONENT_NAME_PATTERN = '^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$';
export const PACK_DOMAIN_PATTERN = '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$';
export const RUNTIME_VERSION_OVERRIDE_PATTERN = '^(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})$';
export const LABEL_KEY_PATTERN =
  '^(([a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)(\\.[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?)*/)?([A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?)$';

export const BACKEND_FRAMEWORKS = ['sglang', 'vllm', 'trtllm'] as const;
export const COMPONENT_TYPES = ['frontend', 'worker', 'prefill', 'decode', 'planner', 'epp'] as const;
export const GMS_MODES = ['IntraPod', 'InterPod'] as const;

const dnsLabel = (rule?: string): SchemaNode => str({ rule, minLength: 1, maxLength: 63, pattern: DNS_LABEL_PATTERN });

/** A container of a pod template: only what rows 46, 89-91 and 93 read. */
const container = obj({ name: str(), image: str() }, { openFields: true, required: ['name'] });

/** `podTemplate` (row 89): an embedded PodTemplateSpec, checked where Dynamo rules look. */
const podTemplate = obj({
  metadata: obj({
    annotations: stringMap(str({ maxLength: 262144 }), { rule: '92' }),
  }, { openFields: true }),
  spec: obj({
    containers: arr(container, { listMapKeys: ['name'] }),
    initContainers: arr(container, { listMapKeys: ['name'] }),
  }, { openFields: true, required: ['containers'] }),
}, { rule: '89', openFields: true });

const providerOverride = obj({
  apiVersion: str({ minLength: 1 }),
  target: str(),
  value: openObj(),
}, { rule: '78', required: ['apiVersion', 'value'] });

const eppConfig = obj({
  config: obj({
    apiVersion: str(),
    featureGates: arr(str()),
    kind: str(),
    plugins: arr(obj({ name: str(), parameters: anyValue(), type: str() }, { required: ['type'] })),
    saturationDetector: obj({ kvCacheUtilThreshold: num(), metricsStalenessThreshold: str(), queueDepthThreshold: int() }),
    schedulingProfiles: arr(obj({
      name: str(),
      plugins: arr(obj({ pluginRef: str(), weight: int() }, { required: ['pluginRef'] })),
    }, { required: ['name', 'plugins'] })),
  }, { openFields: true, required: ['plugins', 'schedulingProfiles'] }),
  configMapRef: obj({ key: str(), name: str(), optional: bool() }, { openFields: true, required: ['key'] }),
}, { rule: '54' });

const checkpoint = obj({
  checkpointRef: str({ rule: '136' }),
  deletionPolicy: str({ rule: '134', enum: ['Delete', 'Retain'] }),
  enabled: bool({ rule: '131' }),
  identity: obj({
    backendFramework: str({ enum: ['vllm', 'sglang', 'trtllm'] }),
    dtype: str(),
    dynamoVersion: str(),
    extraParameters: stringMap(),
    maxModelLen: int({ minimum: 1 }),
    model: str({ minLength: 1 }),
    pipelineParallelSize: int({ minimum: 1 }),
    tensorParallelSize: int({ minimum: 1 }),
  }, { rule: '138', required: ['backendFramework', 'model'] }),
  job: obj({
    gmsClientContainers: arr(dnsLabel(), { listSet: true }),
    podTemplate: openObj(),
  }, { rule: '137' }),
  mode: str({ rule: '132', enum: ['Auto', 'Manual'] }),
  startupPolicy: str({ rule: '133', enum: ['Immediate', 'WaitForCheckpoint'] }),
  targetContainerName: str({ rule: '135', minLength: 1, maxLength: 63, pattern: DNS_LABEL_PATTERN }),
}, { required: ['enabled'] });

const experimental = obj({
  checkpoint,
  failover: obj({
    mode: str({ rule: '120', enum: GMS_MODES }),
    numShadows: int({ rule: '121', minimum: 1, maximum: 1 }),
  }),
  gpuMemoryService: obj({
    mode: str({ rule: '107', enum: GMS_MODES }),
    deviceClassName: str({ rule: '108' }),
    extraClientContainers: arr(dnsLabel(), { rule: '109', listSet: true }),
    extraClientPods: arr(obj({ name: dnsLabel(), podTemplate: openObj() }, { required: ['name', 'podTemplate'] }), {
      rule: '113',
      listMapKeys: ['name'],
    }),
  }),
  grove: obj({ forceScalingGroup: bool() }),
});

/** The shared component spec: a DGD `spec.components[*]` entry, or a DCD `spec` (without backendFramework). */
function componentSpec(owner: 'DGD' | 'DCD'): Record<string, SchemaNode> {
  const dcd = owner === 'DCD';
  const roleProperties: Record<string, SchemaNode> = {
    name: dnsLabel(),
    replicas: int({ minimum: 1 }),
  };
  if (!dcd) roleProperties.providerOverride = providerOverride;
  const properties: Record<string, SchemaNode> = {
    compilationCache: obj({ mountPath: str(), pvcName: str({ minLength: 1 }) }, { rule: '101', required: ['pvcName'] }),
    eppConfig,
    experimental,
    frontendSidecar: str(),
    globalDynamoNamespace: bool(),
    minAvailable: int({ rule: '61', minimum: 1 }),
    modelRef: obj({ name: str({ minLength: 1 }), revision: str() }, { rule: '102', required: ['name'] }),
    multinode: obj({ nodeCount: int({ minimum: 2 }) }, {
      rule: '67',
      prunedFields: dcd ? { leader: '79', worker: '79' } : undefined,
    }),
    name: str({ rule: '41', minLength: 1, maxLength: 63, pattern: COMPONENT_NAME_PATTERN }),
    podTemplate,
    replicas: int({ rule: '59', minimum: 0 }),
    runtimeVersionOverride: str({ rule: '45', pattern: RUNTIME_VERSION_OVERRIDE_PATTERN }),
    scalingAdapter: obj({}),
    sharedMemorySize: intOrString({ rule: '99', pattern: QUANTITY_PATTERN }),
    topologyConstraint: obj({ packDomain: str({ pattern: PACK_DOMAIN_PATTERN }) }, { rule: '104', required: ['packDomain'] }),
    type: str({ rule: '43', enum: COMPONENT_TYPES }),
    roles: arr(obj(roleProperties, { required: ['name'], prunedFields: dcd ? { providerOverride: '79' } : undefined }), {
      rule: '70',
      listMapKeys: ['name'],
    }),
  };
  if (!dcd) properties.providerOverride = providerOverride;
  return properties;
}

/** Top level of both kinds; `status` is ignored on create (status subresource). */
function topLevel(spec: SchemaNode): SchemaNode {
  return obj({
    apiVersion: str(),
    kind: str(),
    metadata: obj({ name: str(), annotations: stringMap(), labels: stringMap() }, { openFields: true }),
    spec,
    status: anyValue(),
  }, { rule: STRUCTURAL_RULE });
}

export const DGD_SCHEMA: SchemaNode = topLevel(obj({
  annotations: stringMap(),
  backendFramework: str({ rule: '12', enum: BACKEND_FRAMEWORKS }),
  components: arr(obj(componentSpec('DGD'), { rule: STRUCTURAL_RULE, required: ['name'] }), {
    rule: '14',
    maxItems: 25,
    listMapKeys: ['name'],
  }),
  env: arr(openObj()),
  experimental: obj({
    kvTransferPolicy: obj({
      clusterTopologyName: str({ minLength: 1 }),
      domain: str({ pattern: PACK_DOMAIN_PATTERN }),
      enforcement: str({ enum: ['required', 'preferred'] }),
      labelKey: str({ minLength: 1, maxLength: 317, pattern: LABEL_KEY_PATTERN }),
      preferredWeight: num({ minimum: 0, maximum: 1 }),
    }, { rule: '35', required: ['domain'] }),
  }),
  labels: stringMap(),
  priorityClassName: str(),
  providerOverride,
  restart: obj({
    id: str({ minLength: 1 }),
    strategy: obj({
      order: arr(str()),
      type: str({ rule: '22', enum: ['Sequential', 'Parallel'] }),
    }),
  }, { rule: '21', required: ['id'] }),
  topologyConstraint: obj({
    clusterTopologyName: str({ minLength: 1 }),
    packDomain: str({ pattern: PACK_DOMAIN_PATTERN }),
  }, { rule: '28', required: ['clusterTopologyName'] }),
}));

export const DCD_SCHEMA: SchemaNode = topLevel(obj({
  backendFramework: str({ rule: '12', enum: BACKEND_FRAMEWORKS }),
  ...componentSpec('DCD'),
}, { prunedFields: { providerOverride: '79' } }));
