/**
 * The CEL rules of the Dynamo CRDs (nvidia.com/v1beta1) and the rows of the operator admission
 * rules (docs/design/validation-rules.md) they belong to.
 *
 * Most rules come straight from the generated CRD schemas (`DGD_V1BETA1_SCHEMA`,
 * `DCD_V1BETA1_SCHEMA`). Two groups do not, and are added here with their rule text quoted from
 * their source:
 * - rules the Dynamo build injects inside the embedded PodTemplateSpec (rows 90-92): the CRDs carry
 *   them, but the compact schema replaces the whole pod template by a `{ k8sType }` marker;
 * - the `type` transition rule of the target API (row 44), which the CRD snapshot predates.
 *
 * Internal module.
 */
import { CEL_RULE, checkCelRules } from './check';
import { CelRule, CelSchemaNode } from './schema';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA } from '../../../imports/nvidia.com.schema';
import { rulesHave } from '../operator-rules';
import { ValidateOptions } from '../options';
import { ViolationSink } from '../violation';

/** Row of docs/design/validation-rules.md of each CEL rule of the Dynamo CRDs, by rule text. */
export const DYNAMO_CEL_ROWS: Readonly<Record<string, string>> = {
  'oldSelf.hasValue() || !has(self.restart)': '11',
  'self.filter(c, has(c.type) && c.type == \'epp\').size() <= 1': '15',
  'self.all(c1, !has(c1.name) || self.filter(c2, has(c2.name) && c2.name.lowerAscii() == c1.name.lowerAscii()).size() == 1)': '16',
  '(has(self.labelKey) && !has(self.clusterTopologyName)) || (!has(self.labelKey) && has(self.clusterTopologyName))': '36',
  '!has(self.enforcement) || self.enforcement != \'preferred\' || has(self.preferredWeight)': '37',
  '!has(self.preferredWeight) || (has(self.enforcement) && self.enforcement == \'preferred\')': '37',
  '!self.contains(\'/\') || self.split(\'/\')[0].size() <= 253': '38',
  '!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)': '44',
  '!has(self.eppConfig) || (has(self.type) && self.type == \'epp\')': '52',
  'has(self.configMapRef) != has(self.config)': '53',
  '!has(self.minAvailable) || (has(self.replicas) && self.replicas == 0) || self.minAvailable <= (has(self.replicas) ? self.replicas : 1)': '62',
  '!has(oldSelf.minAvailable) || (has(self.minAvailable) && self.minAvailable == oldSelf.minAvailable)': '63',
  'self.name == "main" || (has(self.image) && self.image != "")': '90',
  'has(self.image) && self.image != ""': '91',
  '!("nvidia.com/vllm-distributed-executor-backend" in self) || self["nvidia.com/vllm-distributed-executor-backend"].lowerAscii() in ["mp", "ray"]': '92',
  '!has(self.extraClientContainers) || size(self.extraClientContainers) == 0 || self.mode == \'IntraPod\'': '110',
  '!has(self.extraClientPods) || size(self.extraClientPods) == 0 || self.mode == \'InterPod\'': '111',
  '!has(self.extraClientPods) || size(self.extraClientPods) == 0': '112',
  '!has(self.job) || !has(self.checkpointRef) || size(self.checkpointRef) == 0': '139',
};

/** The row of a Dynamo CEL rule (`cel` for a rule no row names). */
export function dynamoCelRow(rule: CelRule): string {
  return Object.prototype.hasOwnProperty.call(DYNAMO_CEL_ROWS, rule.rule) ? DYNAMO_CEL_ROWS[rule.rule] : CEL_RULE;
}

/** A container list of the pod template whose items carry one rule. */
function containerList(rule: CelRule): CelSchemaNode {
  return {
    'type': 'array',
    'x-kubernetes-list-type': 'map',
    'x-kubernetes-list-map-keys': ['name'],
    'items': { 'type': 'object', 'required': ['name'], 'properties': { name: { type: 'string' }, image: { type: 'string' } }, 'x-kubernetes-validations': [rule] },
  };
}

/**
 * The rules inside the embedded Kubernetes types of the Dynamo CRDs (rows 90-92), with the part of
 * the type's schema that leads to them. Quoted from the CRDs (`podTemplate.spec.containers[]`,
 * `podTemplate.spec.initContainers[]`, `podTemplate.metadata.annotations`); the test compares them
 * with the CRD files when those are present.
 */
export const DYNAMO_EMBEDDED_CEL: Readonly<Record<string, CelSchemaNode>> = {
  PodTemplateSpec: {
    type: 'object',
    properties: {
      metadata: {
        type: 'object',
        properties: {
          annotations: {
            'type': 'object',
            'additionalProperties': { type: 'string' },
            'x-kubernetes-validations': [
              {
                rule: '!("nvidia.com/vllm-distributed-executor-backend" in self) || self["nvidia.com/vllm-distributed-executor-backend"].lowerAscii() in ["mp", "ray"]',
                message: 'podTemplate backend annotation must be mp or ray, case-insensitively',
              },
            ],
          },
        },
      },
      spec: {
        type: 'object',
        properties: {
          containers: containerList({ rule: 'self.name == "main" || (has(self.image) && self.image != "")', message: 'sidecar containers must specify a non-empty image' }),
          initContainers: containerList({ rule: 'has(self.image) && self.image != ""', message: 'init containers must specify a non-empty image' }),
        },
      },
    },
  },
};

/**
 * Rules of the target API the CRD snapshot does not have yet, by the component node they sit on:
 * `type` may not change once set (row 44, a transition rule on the shared component spec).
 */
export const TARGET_API_COMPONENT_RULES: readonly CelRule[] = [
  { rule: '!has(oldSelf.type) || (has(self.type) && self.type == oldSelf.type)', message: 'type is immutable after it is set' },
];

/** `root` with `rules` added to the node at `path` (property names; `[]` for list items). */
function withRules(root: CelSchemaNode, path: readonly string[], rules: readonly CelRule[]): CelSchemaNode {
  if (path.length === 0) return { ...root, 'x-kubernetes-validations': [...(root['x-kubernetes-validations'] ?? []), ...rules] };
  const [step, ...rest] = path;
  if (step === '[]') return { ...root, items: withRules(root.items ?? {}, rest, rules) };
  const properties = root.properties ?? {};
  return { ...root, properties: { ...properties, [step]: withRules(properties[step] ?? {}, rest, rules) } };
}

/** The CEL schema of a DynamoGraphDeployment: the CRD's, plus the target-API component rules. */
export const DGD_CEL_SCHEMA: CelSchemaNode = withRules(DGD_V1BETA1_SCHEMA, ['spec', 'components', '[]'], TARGET_API_COMPONENT_RULES);

/** The CEL schema of a DynamoComponentDeployment: the CRD's, plus the target-API component rules. */
export const DCD_CEL_SCHEMA: CelSchemaNode = withRules(DCD_V1BETA1_SCHEMA, ['spec'], TARGET_API_COMPONENT_RULES);

/** Whether the default operator's CRDs have the target-API rules, once worked out. */
let defaultHasTargetApi: boolean | undefined;

/**
 * Whether the CRDs of the operator of `options` (only its version matters) have the target-API
 * rules; the default operator's answer is worked out once, as most objects are checked without a
 * version.
 */
function hasTargetApiRules(options: ValidateOptions): boolean {
  if (options.version !== undefined) return rulesHave(options, 'typeImmutable');
  return defaultHasTargetApi ??= rulesHave({}, 'typeImmutable');
}

/**
 * Every CEL rule of the Dynamo CRDs on an admitted (defaulted) DynamoGraphDeployment or
 * DynamoComponentDeployment (by its `kind`), reported under their rows. `old`: the stored object of
 * an update (transition rules, ratcheting); without it, the object is checked as created.
 * `options` names the operator whose CRDs apply: the target-API rules (row 44) only exist in the
 * CRDs of operators with `OPERATOR_GATES.typeImmutable`.
 */
export function checkDynamoCelRules(doc: unknown, sink: ViolationSink, old?: unknown, options: ValidateOptions = {}): void {
  const kind = typeof doc === 'object' && doc !== null && !Array.isArray(doc) ? (doc as Record<string, unknown>).kind : undefined;
  const targetApi = hasTargetApiRules(options);
  const schema = kind === 'DynamoComponentDeployment'
    ? (targetApi ? DCD_CEL_SCHEMA : DCD_V1BETA1_SCHEMA)
    : (targetApi ? DGD_CEL_SCHEMA : DGD_V1BETA1_SCHEMA);
  checkCelRules(doc, schema, sink, { old, embedded: DYNAMO_EMBEDDED_CEL, ruleId: dynamoCelRow });
}
