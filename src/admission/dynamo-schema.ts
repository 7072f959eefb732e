/**
 * The structural schema of DynamoGraphDeployment and DynamoComponentDeployment (nvidia.com/v1beta1):
 * the schema generated from the CRDs (`imports/nvidia.com.schema.ts`) plus an explicit overlay of
 * what the CRD does not say: the row of docs/design/validation-rules.md each node belongs to, the fields the
 * CRD post-processing pruned, and the parts of embedded Kubernetes types a Dynamo rule speaks about
 * (the rest of each embedded type is the Kubernetes OpenAPI definition).
 *
 * Internal module.
 */
import { DocumentSchema, SchemaOverlay } from './schema-node';
import { CrdSchemaNode, DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA } from '../../imports/nvidia.com.schema';
import { QUANTITY_PATTERN } from '../go/quantity';

/** Rule id for structural errors (wrong type, unknown field) that no numbered row covers. */
export const STRUCTURAL_RULE = 'schema';

/** Row ids of the graph-level fields of a DGD, by schema path. */
const GRAPH_RULES: Record<string, string> = {
  'spec.backendFramework': '12',
  'spec.components': '14',
  // a component's own errors are not row 14's
  'spec.components[]': STRUCTURAL_RULE,
  'spec.experimental.kvTransferPolicy': '35',
  'spec.providerOverride': '78',
  'spec.restart': '21',
  'spec.restart.strategy.type': '22',
  'spec.topologyConstraint': '28',
};

/** Row ids of the shared component spec, by schema path below a component (DGD `spec.components[]`, DCD `spec`). */
const COMPONENT_RULES: Record<string, string> = {
  'compilationCache': '101',
  'eppConfig': '54',
  'experimental.checkpoint.checkpointRef': '136',
  'experimental.checkpoint.deletionPolicy': '134',
  'experimental.checkpoint.enabled': '131',
  'experimental.checkpoint.identity': '138',
  'experimental.checkpoint.job': '137',
  'experimental.checkpoint.mode': '132',
  'experimental.checkpoint.startupPolicy': '133',
  'experimental.checkpoint.targetContainerName': '135',
  'experimental.failover.mode': '120',
  'experimental.failover.numShadows': '121',
  'experimental.gpuMemoryService.deviceClassName': '108',
  'experimental.gpuMemoryService.extraClientContainers': '109',
  'experimental.gpuMemoryService.extraClientPods': '113',
  'experimental.gpuMemoryService.mode': '107',
  'minAvailable': '61',
  'modelRef': '102',
  'multinode': '67',
  'name': '41',
  'podTemplate': '89',
  'podTemplate.metadata.annotations': '92',
  'providerOverride': '78',
  'replicas': '59',
  'roles': '70',
  'roles[].providerOverride': '78',
  'runtimeVersionOverride': '45',
  'sharedMemorySize': '99',
  'topologyConstraint': '104',
  'type': '43',
};

/** Fields the post-processing removed from the standalone DCD schema (row 79), by schema path. */
const DCD_PRUNED_FIELDS: Record<string, string> = {
  'spec.multinode.leader': '79',
  'spec.multinode.worker': '79',
  'spec.providerOverride': '79',
  'spec.roles[].providerOverride': '79',
};

const PRESERVE = { 'x-kubernetes-preserve-unknown-fields': true } as const;
const STRING: CrdSchemaNode = { type: 'string' };
const STRING_MAP: CrdSchemaNode = { type: 'object', additionalProperties: STRING };

/** Object metadata (ObjectMeta, validated by the API server itself) and the status subresource, ignored on create. */
const API_SERVER_FIELDS: Record<string, CrdSchemaNode> = {
  metadata: { type: 'object', ...PRESERVE, properties: { name: STRING, annotations: STRING_MAP, labels: STRING_MAP } },
  status: PRESERVE,
};

/** A container of a pod template: what rows 46, 89-91 and 93 read (the rest is the Kubernetes Container). */
const CONTAINERS: CrdSchemaNode = {
  'type': 'array',
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': ['name'],
  'items': { type: 'object', ...PRESERVE, required: ['name'], properties: { name: STRING, image: STRING } },
};

/**
 * The metadata of a pod template, exactly as the CRD embeds it (the fields the operator reads;
 * every other field is unknown): not the Kubernetes ObjectMeta.
 */
const POD_TEMPLATE_METADATA: CrdSchemaNode = {
  type: 'object',
  properties: {
    annotations: { type: 'object', additionalProperties: { type: 'string', maxLength: 262144 } },
    finalizers: { type: 'array', items: STRING },
    labels: STRING_MAP,
    name: STRING,
    namespace: STRING,
  },
};

/**
 * The embedded Kubernetes types, checked where Dynamo rules look. Where a node keeps unknown
 * fields, the admission check completes it with the Kubernetes OpenAPI definition of the type
 * (src/admission/structural/embedded-overlay.ts): the rest
 * of a pod template, container, env var or config map key selector is then checked as the API
 * server checks the CRD's embedded schema.
 */
export const DYNAMO_EMBEDDED_TYPES: SchemaOverlay['embedded'] = {
  ConfigMapKeySelector: {
    type: 'object',
    ...PRESERVE,
    required: ['key'],
    properties: { key: STRING, name: STRING, optional: { type: 'boolean' } },
  },
  EnvVar: { type: 'object', ...PRESERVE },
  PodTemplateSpec: {
    type: 'object',
    ...PRESERVE,
    properties: {
      metadata: POD_TEMPLATE_METADATA,
      spec: { type: 'object', ...PRESERVE, required: ['containers'], properties: { containers: CONTAINERS, initContainers: CONTAINERS } },
    },
  },
  Quantity: { 'x-kubernetes-int-or-string': true, 'pattern': QUANTITY_PATTERN },
};

/** `rules` with every path put below `prefix`. */
function below(prefix: string, rules: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(rules).map(([path, rule]) => [`${prefix}.${path}`, rule]));
}

export const DGD_SCHEMA: DocumentSchema = {
  root: DGD_V1BETA1_SCHEMA,
  overlay: {
    rules: { ...GRAPH_RULES, ...below('spec.components[]', COMPONENT_RULES) },
    prunedFields: {},
    apiServerFields: API_SERVER_FIELDS,
    embedded: DYNAMO_EMBEDDED_TYPES,
  },
};

export const DCD_SCHEMA: DocumentSchema = {
  root: DCD_V1BETA1_SCHEMA,
  overlay: {
    rules: { 'spec.backendFramework': GRAPH_RULES['spec.backendFramework'], ...below('spec', COMPONENT_RULES) },
    prunedFields: DCD_PRUNED_FIELDS,
    apiServerFields: API_SERVER_FIELDS,
    embedded: DYNAMO_EMBEDDED_TYPES,
  },
};
