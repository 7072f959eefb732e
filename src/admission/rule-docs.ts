/**
 * What each admission rule id checks and how to fix a violation of it: the data behind
 * `docs/admission-rules.md` (written by `scripts/admission-rules-doc.ts`) and behind the fix text
 * of the validation plugin.
 *
 * Every id a violation can carry has an entry: the numbered rules 1-148 (also those that are not
 * checked offline, with the reason) and the ids without a number (`schema`, `apiserver`, `cel`,
 * `internal`).
 */

import { API_SERVER_CHECKS } from './rule-catalog';

/** Where a rule is enforced when the object reaches the cluster. */
export type RuleStage =
  /** The API server: the CRD's structural schema (types, enums, bounds, patterns, required fields). */
  | 'schema'
  /** The API server: a validation rule (`x-kubernetes-validations`) of the CRD. */
  | 'cel'
  /** The API server: its built-in checks of object metadata and of built-in kinds. */
  | 'apiserver'
  /** The Dynamo operator's validating webhook (on create, and again on update unless the rule says otherwise). */
  | 'webhook'
  /** The Dynamo operator's validating webhook, on update only (comparing the stored and the new object). */
  | 'update'
  /** A default filled in at admission (by the API server or the operator); nothing to violate. */
  | 'defaulting'
  /** Not a cluster rule: the checker of this library itself. */
  | 'checker';

/** One admission rule, in user-facing words. */
export interface RuleDoc {
  /** The rule id that violations carry, e.g. `47` or `schema`. */
  readonly id: string;
  /** A short title. */
  readonly title: string;
  /** What the rule checks (or, for a default, what is filled in). */
  readonly checks: string;
  /** How to fix an object that breaks the rule. */
  readonly fix: string;
  /** Where the rule is enforced. */
  readonly stage: RuleStage;
  /** Why the rule is not checked offline; absent when it is. */
  readonly notChecked?: string;
  /** True for a rule that can only be broken by an update, though it is not an update-only rule. */
  readonly onUpdateOnly?: boolean;
  /** The part of the rule that is not checked offline, when the rest is. */
  readonly partly?: string;
  /** For a rule made of several checks: each of them, in a sentence. */
  readonly covers?: readonly string[];
}

/** Rules that belong together, in the order the documentation lists them. */
export interface RuleGroup {
  readonly title: string;
  readonly rules: readonly RuleDoc[];
}

/** The documentation file, relative to the package root. */
export const ADMISSION_RULES_DOC = 'docs/admission-rules.md';

/** Where the documentation file lives in a project that installed the package. */
export const INSTALLED_ADMISSION_RULES_DOC = `node_modules/cdk8s-dynamo/${ADMISSION_RULES_DOC}`;

const DEFAULT_ONLY = 'Nothing to fix: this is a default. Set the field yourself if you want another value.';
const RECREATE = 'delete and recreate the object';
const CLUSTER_TOPOLOGY_PARTLY = 'Checked when the ClusterTopologyBinding is among the input documents (as `kubectl get clustertopologybinding NAME -o yaml` returns it); '
  + 'otherwise it is not checked and the CLI says so on stderr.';
const NEWER_OPERATORS = 'Only operator versions 1.6.0 and later have this rule (known from newer Dynamo sources, not verified against a release).';
const ON_UPDATE = 'Checked only when an update is validated against the stored object (`cdk8s-dynamo validate --old`).';

type Extra = Pick<RuleDoc, 'notChecked' | 'onUpdateOnly' | 'partly' | 'covers'>;

function rule(id: number | string, stage: RuleStage, title: string, checks: string, fix: string, extra: Extra = {}): RuleDoc {
  return { id: String(id), stage, title, checks, fix, ...extra };
}

/** A rule refused on update when a field changes: the usual fix is to keep the stored value. */
function frozen(id: number, title: string, checks: string, what = 'the stored value'): RuleDoc {
  return rule(id, 'update', title, checks, `Keep ${what} in the manifest you apply. To make this change, ${RECREATE}.`);
}

function defaulted(id: number, title: string, checks: string, fix = DEFAULT_ONLY): RuleDoc {
  return rule(id, 'defaulting', title, checks, fix);
}

/** The rules, grouped and ordered as the documentation lists them. */
export const RULE_GROUPS: readonly RuleGroup[] = [
  {
    title: 'Graph annotations',
    rules: [
      rule(1, 'webhook', 'Origin-version annotation is a semantic version',
        'If the graph has the annotation `nvidia.com/dynamo-operator-origin-version`, its value must be a semantic version such as `1.2.0`.',
        'Correct the value, or delete the annotation and let the operator fill it in.'),
      rule(2, 'webhook', 'vLLM executor backend annotation is mp or ray',
        'The graph annotation `nvidia.com/vllm-distributed-executor-backend`, when present, must be `mp` or `ray` (any letter case).',
        'Set the annotation to `mp` or `ray`, or remove it.'),
      rule(3, 'webhook', 'Grove update strategy annotation',
        'The graph annotation `nvidia.com/grove-update-strategy` accepts exactly `RollingRecreate` or `OnDelete`.',
        'Use one of these two values, spelled exactly so, or remove the annotation.'),
      rule(4, 'webhook', 'Discovery mode annotation',
        'The graph annotation `nvidia.com/dynamo-kube-discovery-mode` accepts only `pod` or `container`.',
        'Set the annotation to `pod` or `container`, or remove it.'),
      rule(5, 'webhook', 'Workload provider annotation',
        'The graph annotation `nvidia.com/workload-provider` accepts only `component` or `grove`. The operator writes it itself when a graph is created, so a wrong value can only come from an update.',
        'Keep the value the cluster stored; do not edit this annotation by hand.',
        { onUpdateOnly: true }),
      rule(6, 'webhook', 'Intra-pod failover needs container discovery',
        'When a component uses failover in intra-pod mode (the default failover mode), the graph must carry the annotation `nvidia.com/dynamo-kube-discovery-mode: container`.',
        'Add the annotation `nvidia.com/dynamo-kube-discovery-mode: container` to the graph, or remove the intra-pod failover.'),
      rule(7, 'update', 'Only the operator adds the workload provider annotation',
        'On update, adding `nvidia.com/workload-provider` to a graph that did not have it is reserved to the operator\'s own service account (when the operator\'s identity is known).',
        'Leave this annotation out of the manifest and let the operator add it.'),
      frozen(8, 'Workload provider annotation is fixed once set',
        'After `nvidia.com/workload-provider` has been set, an update may neither change nor remove it.',
        'the annotation with its stored value'),
      defaulted(9, 'Workload provider chosen on create',
        'When a graph is created, the operator writes `nvidia.com/workload-provider`, replacing any value given: `grove` if Grove is enabled in the operator and the annotation `nvidia.com/enable-grove` is not `false`, otherwise `component`.',
        'Nothing to fix: this is a default. To keep a graph off Grove, annotate it with `nvidia.com/enable-grove: "false"`.'),
      defaulted(10, 'Origin version stamped on create',
        'When a graph is created without `nvidia.com/dynamo-operator-origin-version`, the operator sets it to its own version.'),
    ],
  },
  {
    title: 'Graph spec',
    rules: [
      rule(11, 'cel', 'No restart request on create',
        '`spec.restart` may not be present when a graph is created; it is meant for asking a running graph to restart.',
        'Remove `spec.restart` from the manifest you create; set `spec.restart.id` in a later update to request a restart.'),
      rule(12, 'schema', 'Backend framework value',
        '`spec.backendFramework` is optional; when set it must be `sglang`, `vllm` or `trtllm`.',
        'Use one of these three values, or leave the field out.'),
      frozen(13, 'Backend framework cannot change',
        'An update may not change `spec.backendFramework` of a graph or a component deployment.'),
      rule(14, 'schema', 'Component list size and keys',
        'A graph has at most 25 entries in `spec.components`, and every entry is identified by its `name`: no two may have the same name.',
        'Keep to 25 components (split the graph if needed) and give every component its own name.'),
      rule(15, 'cel', 'At most one EPP component',
        'Only one component of a graph may have `type: epp`.',
        'Keep a single endpoint-picker component; remove the others or change their type.'),
      rule(16, 'cel', 'Component names differ ignoring case',
        'Component names must be distinct even when upper and lower case are not told apart (`Decode` and `decode` clash).',
        'Rename components so that no two names are equal once lower-cased.'),
      rule(17, 'webhook', 'At least one component',
        '`spec.components` must contain at least one component.',
        'Add a component to the graph.'),
      frozen(18, 'Components cannot be added or removed',
        'An update must keep the same set of component names: adding or removing a component is refused.',
        'the original components'),
      rule(19, 'webhook', 'Grove pod names fit the length limit',
        'On the Grove provider, the graph name plus the lower-cased component name (plus the longest clique name, for a component rendered as a scaling group) may total at most 45 characters, so that pod names stay valid.',
        'Shorten the graph name or the component name given in the message.'),
      rule(20, 'webhook', 'Priority class needs Grove',
        'A non-empty `spec.priorityClassName` is supported only on the Grove provider.',
        'Remove `spec.priorityClassName`, or run the graph on Grove (Grove enabled in the operator, and no `nvidia.com/enable-grove: "false"` annotation).'),
      rule(21, 'schema', 'Restart request has an id',
        '`spec.restart.id` is required and may not be empty.',
        'Give `spec.restart.id` a non-empty value; each new value requests a new restart.'),
      rule(22, 'schema', 'Restart strategy type',
        '`spec.restart.strategy.type` is `Sequential` (the default) or `Parallel`.',
        'Use `Sequential` or `Parallel`, or leave the field out.'),
      rule(23, 'webhook', 'No restart order with a parallel restart',
        '`spec.restart.strategy.order` must stay empty when the strategy type is `Parallel`.',
        'Remove `order`, or switch the strategy type to `Sequential`.'),
      rule(24, 'webhook', 'Restart order without repeats',
        'A component may be listed only once in `spec.restart.strategy.order`.',
        'Remove the repeated names from `order`.'),
      rule(25, 'webhook', 'Restart order covers every component',
        '`spec.restart.strategy.order` must name as many different components as the graph has.',
        'List every component of the graph exactly once in `order`.'),
      rule(26, 'webhook', 'Restart order names existing components',
        'Each entry of `spec.restart.strategy.order` must be the name of one of the graph\'s components.',
        'Correct the misspelled entry, or remove names of components the graph does not have.'),
      rule(27, 'update', 'Restart id frozen during a rolling update',
        'While the stored graph reports a rolling update that is `Pending` or `InProgress`, an update may not change `spec.restart.id`.',
        'Wait until the rolling update has finished, then change the restart id.'),
      rule(28, 'schema', 'Graph topology constraint fields',
        '`spec.topologyConstraint` needs a non-empty `clusterTopologyName`; its `packDomain`, when given, is a lower-case name of letters, digits and inner dashes.',
        'Set `clusterTopologyName`, and write `packDomain` in that form.'),
      rule(29, 'webhook', 'Component topology needs a graph topology',
        'When any component sets `topologyConstraint`, the graph must set `spec.topologyConstraint` as well.',
        'Add `spec.topologyConstraint` naming the cluster topology, or remove the component constraints.'),
      rule(30, 'webhook', 'Pack domain needed without component constraints',
        'When no component has a `topologyConstraint`, `spec.topologyConstraint.packDomain` is required.',
        'Set `spec.topologyConstraint.packDomain`, or give the components that need placement their own constraint.'),
      rule(31, 'webhook', 'Cluster topology exists',
        'For a new graph on the Grove provider, the ClusterTopologyBinding named by `spec.topologyConstraint.clusterTopologyName` must exist and be readable.',
        'Create that ClusterTopologyBinding in the cluster, or correct the name.',
        { partly: 'A binding among the input documents exists; one that is not given is not looked up (the CLI says so on stderr).' }),
      rule(32, 'webhook', 'Pack domain exists in the cluster topology',
        '`spec.topologyConstraint.packDomain` must be one of the domains (levels) of the referenced ClusterTopologyBinding.',
        'Use one of the domains the error message lists.',
        { partly: CLUSTER_TOPOLOGY_PARTLY }),
      rule(33, 'webhook', 'Typed topology or Grove topology override, not both',
        'On the Grove provider, a provider override that sets a topology constraint may not be used together with `spec.topologyConstraint` or with a component `topologyConstraint`.',
        'Express topology either with the typed `topologyConstraint` fields or with the Grove provider override, and remove the other.'),
      frozen(34, 'Graph topology constraint is fixed',
        'An update may not add, remove or change `spec.topologyConstraint`.',
        'the stored constraint'),
      rule(35, 'schema', 'KV transfer policy fields',
        'In `spec.experimental.kvTransferPolicy`: `domain` is required (lower-case letters, digits, inner dashes); `clusterTopologyName` and `labelKey` may not be empty and `labelKey` must be a valid label key; `enforcement` is `required` (default) or `preferred`; `preferredWeight` lies between 0 and 1.',
        'Correct the field named in the message.'),
      rule(36, 'cel', 'KV transfer policy: label key or cluster topology',
        'A KV transfer policy sets exactly one of `labelKey` and `clusterTopologyName`.',
        'Keep one of the two fields and remove the other, or add one if neither is set.'),
      rule(37, 'cel', 'KV transfer policy: weight goes with preferred enforcement',
        '`preferredWeight` must be set when `enforcement` is `preferred`, and may be set only then.',
        'Add `preferredWeight` together with `enforcement: preferred`, or remove it when enforcement is `required`.'),
      rule(38, 'cel', 'KV transfer label key prefix length',
        'The prefix of `labelKey` (the part before `/`) may be at most 253 characters long.',
        'Use a shorter prefix.'),
      rule(39, 'webhook', 'KV transfer cluster topology',
        'A `kvTransferPolicy.clusterTopologyName` must be a DNS subdomain and needs the Grove provider; for a new graph, the ClusterTopologyBinding must also exist and contain the policy\'s `domain`.',
        'Use the valid name of an existing ClusterTopologyBinding and run the graph on Grove, or use `labelKey` instead.',
        { partly: `The domain check reads the ClusterTopologyBinding: ${CLUSTER_TOPOLOGY_PARTLY}` }),
      frozen(40, 'KV transfer policy is fixed',
        'An update may not add, remove or change `spec.experimental.kvTransferPolicy`.',
        'the stored policy'),
    ],
  },
  {
    title: 'Components: name, type, image and version',
    rules: [
      rule(41, 'schema', 'Component name format',
        'A component `name` has 1 to 63 characters: letters, digits and dashes, beginning and ending with a letter or digit. Graph components must have one; a standalone component deployment may leave it out.',
        'Rename the component to fit this form.'),
      defaulted(42, 'Component deployment name defaulted',
        'A standalone component deployment created without `spec.name` takes its `metadata.name`.'),
      rule(43, 'schema', 'Component type value',
        '`type` is optional; when set it is one of `frontend`, `worker`, `prefill`, `decode`, `planner` or `epp`.',
        'Use one of these types, or leave the field out.'),
      rule(44, 'cel', 'Component type cannot change',
        `Once a component has a \`type\`, an update may not change or remove it. ${NEWER_OPERATORS}`,
        `Keep the stored type; to change it, ${RECREATE}.`,
        { onUpdateOnly: true }),
      rule(45, 'schema', 'Runtime version override format',
        '`runtimeVersionOverride` is a plain `MAJOR.MINOR.PATCH` version whose parts are numbers of at most four digits, without leading zeros.',
        'Write the version like `1.4.0`, without a `v` prefix or suffix.'),
      rule(46, 'webhook', 'Main container with an image',
        'The component\'s pod template must include a `main` container whose `image` is set (non-empty).',
        'Add a `main` container to `podTemplate.spec.containers` and give it an image.'),
      rule(47, 'webhook', 'Runtime version needed when the image tag is not a version',
        'When the tag of the main container image is not a semantic version (e.g. `latest`, a custom tag, or no tag at all), the component must set `runtimeVersionOverride`. Standalone component deployments are exempt (from operator 1.6.0 on, except `epp` ones).',
        'Tag the image with its Dynamo version (e.g. `:1.4.0`), or set `runtimeVersionOverride` to the Dynamo version the image contains.'),
      rule(48, 'update', 'Runtime version check on update',
        'On update, rule 47 is enforced only when the update changes the main image or `runtimeVersionOverride`; removing a main image the object had is refused.',
        'When you change the image, give it a version tag or set `runtimeVersionOverride`; keep a `main` container with an image.'),
      rule(49, 'webhook', 'EPP configuration matches the EPP version',
        `For an \`epp\` component whose version is known, images of version 1.5.0 or later (the native endpoint picker) must not set \`eppConfig\`, and older images must set it. ${NEWER_OPERATORS}`,
        'Remove `eppConfig` for 1.5.0 or later; add it for older images (or correct the image tag or `runtimeVersionOverride`).'),
      rule(50, 'update', 'EPP configuration check on update',
        `On update, a mismatch between the EPP version and \`eppConfig\` is tolerated only while the type, the image, the version override and \`eppConfig\` all stay unchanged. ${NEWER_OPERATORS}`,
        'When you touch any of these fields, bring `eppConfig` in line with the image version (see rule 49).'),
      rule(51, 'webhook', 'EPP configuration always required (operators 1.4.0 and 1.5.0)',
        'Operator versions 1.4.0 and 1.5.0 require `eppConfig` on every `epp` component, whatever its image version; rule 49 replaces this from 1.6.0 on.',
        'Add `eppConfig` (a `configMapRef` or an inline `config`), or render for an operator version with the native endpoint picker.'),
      rule(52, 'cel', 'EPP configuration only on EPP components',
        '`eppConfig` is accepted only on a component whose `type` is `epp`.',
        'Remove `eppConfig`, or set `type: epp` on that component.'),
      rule(53, 'cel', 'EPP configuration has one source',
        '`eppConfig` holds exactly one of `configMapRef` and `config`.',
        'Keep either the ConfigMap reference or the inline configuration (not both, not neither).'),
      rule(54, 'schema', 'EPP configuration fields',
        '`eppConfig.configMapRef` needs a `key`; an inline `eppConfig.config` needs `plugins` and `schedulingProfiles`.',
        'Add the missing field.'),
      rule(55, 'webhook', 'EPP ConfigMap name',
        'When `eppConfig.configMapRef` is used, its `name` may not be empty.',
        'Name the ConfigMap that holds the endpoint-picker configuration.'),
      rule(56, 'webhook', 'InferencePool API installed',
        'An `epp` component can be deployed only if the cluster serves the InferencePool API of the Gateway API Inference Extension.',
        'Install the Gateway API Inference Extension in the cluster before deploying EPP components.',
        { notChecked: 'It depends on which APIs the cluster serves.' }),
      rule(57, 'webhook', 'EPP is single-node',
        'An `epp` component cannot be multinode.',
        'Remove `multinode` from the EPP component.'),
      rule(58, 'webhook', 'EPP runs one replica',
        'When an `epp` component sets `replicas`, the value must be 1.',
        'Set `replicas: 1`, or leave replicas out.'),
    ],
  },
  {
    title: 'Replicas, minAvailable and scaling',
    rules: [
      rule(59, 'schema', 'Replicas not negative',
        '`replicas` is 0 or more.',
        'Use a count of 0 or more.'),
      defaulted(60, 'Replicas default to 1',
        'A graph component without `replicas` gets 1. Standalone component deployments are not defaulted.'),
      rule(61, 'schema', 'minAvailable at least 1',
        '`minAvailable`, when set, is 1 or more.',
        'Use 1 or more, or remove the field.'),
      rule(62, 'cel', 'minAvailable within replicas',
        '`minAvailable` may not be larger than `replicas` (1 when unset), unless replicas is 0.',
        'Lower `minAvailable` or raise `replicas`.'),
      rule(63, 'cel', 'minAvailable cannot change',
        'Once `minAvailable` is set, an update may not change or remove it.',
        `Keep the stored value; to change it, ${RECREATE}.`,
        { onUpdateOnly: true }),
      rule(64, 'webhook', 'minAvailable needs Grove',
        '`minAvailable` is supported only for graph components on the Grove provider; standalone component deployments never accept it.',
        'Remove `minAvailable`, or run the graph on Grove.'),
      defaulted(65, 'minAvailable defaults to 1 on Grove',
        'On the Grove provider, a graph component without `minAvailable` gets 1.'),
      rule(66, 'update', 'Replicas belong to the scaling adapter',
        'When a graph component has a `scalingAdapter` (before or after the update), only the operator or the planner\'s service account may change its `replicas`.',
        'Scale the component through its DynamoGraphDeploymentScalingAdapter, and keep the stored `replicas` (or none) in the manifest you apply.'),
    ],
  },
  {
    title: 'Multinode and roles',
    rules: [
      rule(67, 'schema', 'Node count at least 2',
        '`multinode.nodeCount` is at least 2; it defaults to 2.',
        'Use 2 or more nodes, or remove `multinode` for a single-node component.'),
      frozen(68, 'Single-node or multinode is fixed',
        'An update may not turn a single-node component into a multinode one, or the reverse.',
        'the stored layout'),
      frozen(69, 'Node count cannot change',
        `For a multinode component, an update may not change \`multinode.nodeCount\`. ${NEWER_OPERATORS} Operators 1.4.0 and 1.5.0 keep the node count only under a GPU power limit (rule 98).`,
        'the stored node count'),
      rule(70, 'schema', 'Role entries',
        'Every entry of `roles` has a `name` of 1 to 63 lower-case letters, digits and inner dashes, unique in the list; a role\'s `replicas` is at least 1.',
        'Correct the role entry named in the message.'),
      rule(71, 'webhook', 'Roles only for multinode components',
        '`roles` may be set only on multinode components.',
        'Remove `roles`, or make the component multinode.'),
      rule(72, 'webhook', 'Leader and worker roles',
        'The only role names are `leader` and `worker`; each is listed once and both must be there.',
        'Declare exactly one `leader` role and one `worker` role.'),
      rule(73, 'webhook', 'Role replica counts',
        'A role\'s `replicas`, when set, is 1 for `leader` and `nodeCount - 1` for `worker`.',
        'Use these counts, or leave role replicas out so that they are filled in.'),
      defaulted(74, 'Role replicas defaulted',
        'In a multinode graph component, a role without `replicas` gets 1 (leader) or `nodeCount - 1` (worker).'),
      rule(75, 'update', 'Switching between implicit and explicit roles',
        'An update may replace the implicit roles (no `roles` list) with an explicit list, or the reverse, only if both describe the same layout.',
        'First write the explicit roles exactly as the current layout is (leader 1, worker `nodeCount - 1`), without changing anything else.'),
      frozen(76, 'Role names are fixed',
        'When roles are explicit before and after an update, the set of role names may not change.',
        'the stored role names'),
      rule(77, 'schema', 'Leader and worker overrides under multinode (older API)',
        'Older API versions took provider overrides under `multinode.leader` and `multinode.worker`; the current API takes them in `roles[].providerOverride`.',
        'Move such overrides to `roles[].providerOverride`.',
        { notChecked: 'That field belongs to an older API version, not the one this library targets.' }),
    ],
  },
  {
    title: 'Provider overrides',
    rules: [
      rule(78, 'schema', 'Provider override fields',
        'A `providerOverride` needs a non-empty `apiVersion` and a `value` object; `target` is optional.',
        'Add the missing `apiVersion` or `value`.'),
      rule(79, 'schema', 'No provider overrides in a standalone component deployment',
        'The schema of a standalone component deployment has no `providerOverride` (nor `multinode.leader` / `multinode.worker`), so these fields are unknown there.',
        'Remove the override, or define the component inside a DynamoGraphDeployment.'),
      rule(80, 'webhook', 'Provider overrides only inside a graph',
        'The operator refuses provider overrides on a standalone component deployment.',
        'Use provider overrides only on components of a DynamoGraphDeployment.',
        { notChecked: 'Rule 79 already reports such a field as unknown before this check is reached.' }),
      rule(81, 'webhook', 'Provider annotation recorded before overrides',
        'A graph with provider overrides needs the `nvidia.com/workload-provider` annotation; only an older graph the operator has not adopted yet can lack it.',
        'Wait until the operator has added the annotation, then apply again.',
        { onUpdateOnly: true }),
      rule(82, 'webhook', 'Provider overrides need Grove',
        'Provider overrides are accepted only when the graph\'s workload provider is `grove`.',
        'Remove the overrides, or run the graph on Grove.'),
      rule(83, 'webhook', 'Provider override API version',
        '`providerOverride.apiVersion` is required and must be `grove.io/v1alpha1`.',
        'Set `apiVersion: grove.io/v1alpha1`.'),
      rule(84, 'webhook', 'Provider override placement',
        'Where an override sits decides what it changes: the PodCliqueSet at graph level, a clique or a scaling group for a component, a clique for a role. Role overrides need a multinode component and are not available with inter-pod GPU memory service.',
        'Move the override to a place the component\'s layout supports, as the message explains.'),
      rule(85, 'webhook', 'Provider override target',
        '`providerOverride.target` must be the Grove type the override\'s place resolves to; when left out it is filled in if that is unambiguous.',
        'Remove `target` so that it is derived, or set it to the value the message gives.'),
      rule(86, 'webhook', 'Provider override content',
        '`providerOverride.value` must be an object shaped like its Grove target type and may set only the topology constraint (`spec.template.topologyConstraint` of a PodCliqueSet, `topologyConstraint` elsewhere); everything else is managed by Dynamo.',
        'Keep only the topology constraint in `value`, in the shape the Grove type expects.'),
      defaulted(87, 'Provider override target defaulted',
        'An override without `target` gets the target its place resolves to.'),
      frozen(88, 'Provider override API version and target are fixed',
        'For an override present before and after an update, neither `apiVersion` nor `target` may change.',
        'the stored `apiVersion` and `target`'),
    ],
  },
  {
    title: 'Pod template and other component settings',
    rules: [
      rule(89, 'schema', 'Pod template shape',
        '`podTemplate` follows the Kubernetes pod template schema: for instance `spec.containers` is required and every container has a unique `name`; its metadata may hold only labels, annotations, name, namespace and finalizers.',
        'Correct the pod template field named in the message.'),
      rule(90, 'cel', 'Sidecar containers have an image',
        'Every container other than `main` must have a non-empty `image`.',
        'Give the sidecar container an image.'),
      rule(91, 'cel', 'Init containers have an image',
        'Every init container must have a non-empty `image`.',
        'Give the init container an image.'),
      rule(92, 'cel', 'Pod template executor backend annotation',
        'In `podTemplate.metadata.annotations`, `nvidia.com/vllm-distributed-executor-backend` must be `mp` or `ray` (any letter case); each annotation value may be at most 262144 characters long.',
        'Use `mp` or `ray`, or remove the annotation.'),
      rule(93, 'webhook', 'Elastic expert parallelism needs a command',
        'A vLLM main container that enables elastic expert parallelism with the Ray data-parallel backend (`--enable-elastic-ep` with `--data-parallel-backend ray`) must set `command`, because the operator wraps that command to start Ray.',
        'Set `command` on the main container explicitly instead of relying on the image entrypoint.'),
      rule(94, 'webhook', 'Elastic expert parallelism runs one replica',
        'Some operator builds refuse more than one replica for a single-node vLLM worker using elastic expert parallelism with Ray.',
        'Use `replicas: 1` for such a component, or split it into separate components.',
        { notChecked: 'The rule sits behind an operator feature gate and when it applies is not confirmed.' }),
      rule(95, 'webhook', 'GPU power limit annotation value',
        'The pod template annotation `dynamo.nvidia.com/gpu-power-limit` must be a whole decimal number greater than zero.',
        'Set a positive integer, e.g. `"300"`.'),
      rule(96, 'webhook', 'GPU power limit without dynamic resource allocation',
        'The GPU power limit annotation cannot be combined with GPU memory service or with containers that use `resources.claims`.',
        'Remove the annotation, or remove GPU memory service and the resource claims.'),
      frozen(97, 'GPU power limit is fixed',
        'An update may not add, remove or change the `dynamo.nvidia.com/gpu-power-limit` annotation.',
        'the stored annotation'),
      frozen(98, 'GPU count frozen under a power limit',
        'While the stored component has the GPU power limit annotation, an update may not change the `nvidia.com/gpu` count of the main container (its limit, else its request); operators 1.4.0 and 1.5.0 also keep its node count (`multinode.nodeCount`, 1 for a single-node component).',
        'the stored GPU count'),
      rule(99, 'schema', 'Shared memory size is a quantity',
        '`sharedMemorySize` is a Kubernetes quantity such as `8Gi`.',
        'Write the size as a quantity.'),
      rule(100, 'webhook', 'Shared memory size not negative',
        '`sharedMemorySize` may not be negative; `0` turns the `/dev/shm` volume off.',
        'Use 0 or a positive size.'),
      rule(101, 'schema', 'Compilation cache claim',
        '`compilationCache.pvcName` is required and may not be empty.',
        'Name the PersistentVolumeClaim that holds the cache.'),
      rule(102, 'schema', 'Model reference name',
        '`modelRef.name` is required and may not be empty.',
        'Name the model the component refers to.'),
      rule(103, 'webhook', 'Frontend sidecar names a container',
        'When `frontendSidecar` is set it may not be empty, and the pod template must have a container of that name in `podTemplate.spec.containers`.',
        'Add the sidecar container to the pod template, or correct the name.'),
      rule(104, 'schema', 'Component topology constraint',
        'A component `topologyConstraint` needs a `packDomain` made of lower-case letters, digits and inner dashes.',
        'Set a `packDomain` of that form.'),
      rule(105, 'webhook', 'Component pack domain within the cluster topology',
        'A component `packDomain` must be a domain of the graph\'s ClusterTopologyBinding, and the same as or narrower than the graph-level `packDomain`.',
        'Choose a domain of the binding that is at least as narrow as the graph-level domain.',
        { partly: CLUSTER_TOPOLOGY_PARTLY }),
      frozen(106, 'Component topology constraint is fixed',
        'An update may not add, remove or change a component\'s `topologyConstraint`.',
        'the stored constraint'),
    ],
  },
  {
    title: 'GPU memory service (experimental)',
    rules: [
      rule(107, 'schema', 'GPU memory service mode',
        '`experimental.gpuMemoryService.mode` is `IntraPod` (the default) or `InterPod`.',
        'Use one of these modes, or leave the field out.'),
      defaulted(108, 'GPU memory service device class defaulted',
        '`experimental.gpuMemoryService.deviceClassName` defaults to `gpu.nvidia.com`.'),
      rule(109, 'schema', 'Extra client container names',
        '`extraClientContainers` is a list of distinct container names of 1 to 63 lower-case letters, digits and inner dashes.',
        'Correct or de-duplicate the names.'),
      rule(110, 'cel', 'Extra client containers only in intra-pod mode',
        '`extraClientContainers` may be non-empty only when the mode is `IntraPod`.',
        'Remove the list, or use mode `IntraPod`.'),
      rule(111, 'cel', 'Extra client pods only in inter-pod mode',
        '`extraClientPods` may be non-empty only when the mode is `InterPod`.',
        'Remove the list, or use mode `InterPod`.'),
      rule(112, 'cel', 'Extra client pods not available yet',
        '`extraClientPods` is reserved for a future release: any non-empty list is refused.',
        'Remove `extraClientPods`.'),
      rule(113, 'schema', 'Extra client pod entries',
        'Every `extraClientPods` entry has a unique `name` (a DNS label of at most 63 characters) and a `podTemplate`.',
        'Complete or correct the entry.'),
      rule(114, 'webhook', 'GPU memory service component types',
        'GPU memory service is supported only on `worker`, `prefill` and `decode` components; a component without a type is refused too.',
        'Give the component one of these types, or remove `gpuMemoryService`.'),
      rule(115, 'webhook', 'GPU memory service needs a GPU',
        'To use GPU memory service, the main container must ask for at least one whole GPU (`nvidia.com/gpu` limit, else request).',
        'Set `resources.limits` `nvidia.com/gpu` of the main container to 1 or more.'),
      rule(116, 'webhook', 'Extra client containers exist',
        'In intra-pod mode, each `extraClientContainers` entry appears once and names a container of `podTemplate.spec.containers`.',
        'Add the container to the pod template or correct the name, and remove repeats.'),
      rule(117, 'webhook', 'Inter-pod GPU memory service needs Grove',
        'Mode `InterPod` needs the graph to run on the Grove provider.',
        'Run the graph on Grove, or use mode `IntraPod`.'),
      rule(118, 'webhook', 'Inter-pod GPU memory service needs vLLM',
        'Mode `InterPod` is supported only when `spec.backendFramework` is `vllm`.',
        'Set `backendFramework: vllm`, or use mode `IntraPod`.'),
      frozen(119, 'Inter-pod GPU memory service layout is fixed',
        'An update may not move a component into or out of the inter-pod layout, also not by removing `gpuMemoryService` or `experimental`.',
        'the stored layout'),
    ],
  },
  {
    title: 'Failover (experimental)',
    rules: [
      rule(120, 'schema', 'Failover mode',
        '`experimental.failover.mode` is `IntraPod` (the default) or `InterPod`.',
        'Use one of these modes, or leave the field out.'),
      rule(121, 'schema', 'Failover shadow count',
        '`experimental.failover.numShadows` can only be 1, which is also its default.',
        'Set it to 1 or leave it out.'),
      rule(122, 'webhook', 'Failover needs GPU memory service',
        '`experimental.failover` requires `experimental.gpuMemoryService` on the same component.',
        'Add `gpuMemoryService`, or remove `failover`.'),
      rule(123, 'webhook', 'Failover and GPU memory service modes match',
        'The failover mode must equal the GPU memory service mode (both default to `IntraPod`).',
        'Give both the same mode.'),
      rule(124, 'webhook', 'Inter-pod failover needs a GPU',
        'Inter-pod failover needs a readable GPU count of at least 1 on the main container.',
        'Set `resources.limits` `nvidia.com/gpu` of the main container to a whole number of 1 or more.'),
      rule(125, 'webhook', 'Inter-pod failover component types',
        'Inter-pod failover is not available for `epp`, `frontend` or `planner` components.',
        'Remove `failover` from that component.'),
      rule(126, 'webhook', 'Intra-pod failover needs container discovery (restated)',
        'The same requirement as rule 6, seen from the component: intra-pod failover needs the graph annotation `nvidia.com/dynamo-kube-discovery-mode: container`.',
        'See rule 6.',
        { notChecked: 'Violations are reported as rule 6.' }),
      frozen(127, 'Inter-pod failover is fixed',
        'An update may not turn inter-pod failover on or off, also not by removing `experimental`.',
        'the stored failover setting'),
      frozen(128, 'Inter-pod failover shadow count is fixed',
        'With inter-pod failover before and after an update, the shadow count (unset counts as 1) may not change.',
        'the stored `numShadows`'),
    ],
  },
  {
    title: 'Grove options (experimental)',
    rules: [
      rule(129, 'webhook', 'Forced scaling group needs a Grove graph',
        '`experimental.grove.forceScalingGroup: true` is accepted only for graph components on the Grove provider; standalone component deployments refuse it.',
        'Remove the flag, or run the graph on Grove.'),
      frozen(130, 'Forced scaling group is fixed',
        'An update may not change `forceScalingGroup` (unset counts as false), also not by removing `grove` or `experimental`.',
        'the stored setting'),
    ],
  },
  {
    title: 'Checkpointing (experimental)',
    rules: [
      rule(131, 'schema', 'Checkpoint enabled flag',
        '`experimental.checkpoint.enabled` is required (`true` or `false`).',
        'Set `enabled`.'),
      rule(132, 'schema', 'Checkpoint mode (deprecated)',
        'The deprecated `experimental.checkpoint.mode` accepts `Auto` or `Manual`.',
        'Use one of these values, or better remove the deprecated field.'),
      rule(133, 'schema', 'Checkpoint startup policy',
        '`experimental.checkpoint.startupPolicy` is `Immediate` (the default) or `WaitForCheckpoint`.',
        'Use one of these values, or leave the field out.'),
      rule(134, 'schema', 'Checkpoint deletion policy',
        '`experimental.checkpoint.deletionPolicy` is `Delete` (the default) or `Retain`.',
        'Use one of these values, or leave the field out.'),
      rule(135, 'schema', 'Checkpoint target container',
        '`experimental.checkpoint.targetContainerName` is a container name of 1 to 63 lower-case letters, digits and inner dashes; it defaults to `main`.',
        'Correct the container name, or leave the field out.'),
      rule(136, 'schema', 'Checkpoint reference',
        '`experimental.checkpoint.checkpointRef` is a string naming an existing snapshot (PodSnapshot); its content is not constrained.',
        'Give the reference as a string.'),
      rule(137, 'schema', 'Checkpoint job client containers',
        '`experimental.checkpoint.job.gmsClientContainers` is a list of distinct container names of 1 to 63 lower-case letters, digits and inner dashes; `job.podTemplate` is a free-form pod template.',
        'Correct or de-duplicate the names.'),
      rule(138, 'schema', 'Checkpoint identity (deprecated)',
        'The deprecated `experimental.checkpoint.identity` needs a non-empty `model` and a `backendFramework` of `vllm`, `sglang` or `trtllm`; the parallel sizes and `maxModelLen` are at least 1 (the sizes default to 1).',
        'Complete or correct the field named in the message, or remove the deprecated block.'),
      rule(139, 'cel', 'Checkpoint job or checkpoint reference',
        '`experimental.checkpoint.job` cannot be set together with a non-empty `checkpointRef`.',
        'Either restore from `checkpointRef` or create a checkpoint with `job`, not both.'),
      rule(140, 'webhook', 'Checkpointing enabled in the operator',
        '`experimental.checkpoint.enabled: true` requires checkpointing to be turned on in the operator configuration (which in turn needs the PodSnapshot API in the cluster).',
        'Enable checkpointing in the operator configuration (and tell the checker so through the operator options), or set `enabled: false`.'),
      rule(141, 'webhook', 'Checkpoint client containers need GPU memory service',
        'A non-empty `job.gmsClientContainers` requires `gpuMemoryService` on the component.',
        'Add `gpuMemoryService`, or empty the list.'),
      rule(142, 'webhook', 'Checkpoint client containers need intra-pod mode',
        'A non-empty `job.gmsClientContainers` requires the GPU memory service mode to be `IntraPod`.',
        'Use mode `IntraPod`, or empty the list.'),
      rule(143, 'webhook', 'No checkpointing with inter-pod GPU memory service',
        'Checkpointing cannot be enabled when `gpuMemoryService.mode` is set to `InterPod`.',
        'Disable checkpointing, or use mode `IntraPod`.'),
      rule(144, 'webhook', 'No checkpointing with failover',
        'Checkpointing cannot be enabled on a component that configures `failover`.',
        'Disable checkpointing, or remove `failover`.'),
      rule(145, 'webhook', 'Worker checkpoint references only inside a graph',
        `A standalone component deployment of type \`worker\`, \`prefill\` or \`decode\` may set a non-blank \`checkpointRef\` only when a DynamoGraphDeployment owns it. ${NEWER_OPERATORS}`,
        'Define the component inside a DynamoGraphDeployment, or remove `checkpointRef`.'),
      rule(146, 'webhook', 'Checkpointing and failover on a standalone deployment',
        'The operator applies a further compatibility check between failover and checkpointing to standalone component deployments; its exact conditions are not known.',
        'Avoid combining failover and checkpointing on a standalone component deployment.',
        { notChecked: 'Its exact conditions are not established, so it cannot be reproduced.' }),
      rule(147, 'webhook', 'Checkpointing with GPU memory service (older operators)',
        'Some earlier operator builds refused checkpointing together with any GPU memory service unless an internal switch was on.',
        'Upgrade the operator, or disable one of the two features.',
        { notChecked: 'The rule is absent from the API version this library targets.' }),
    ],
  },
  {
    title: 'Older API version',
    rules: [
      rule(148, 'webhook', 'Data of the older v1alpha1 API',
        'Objects sent as `nvidia.com/v1alpha1`, or carrying data only it can express, meet its rules: PVCs need a `name`; non-cache volume mounts a `mountPoint`; an enabled ingress a `host`; '
          + '`eppConfig` one source; `intraPod` failover one shadow at most; no `extraPodSpec` container named as the frontend sidecar; the vLLM executor-backend annotation `mp` or `ray`.',
        'Fix the named `v1alpha1` field, or convert the object (`cdk8s-dynamo convert`) and keep it in `nvidia.com/v1beta1` without those leftovers.',
        { partly: 'Checked for `nvidia.com/v1alpha1` input, which the CLI and `DynamoDocuments` convert first; the `v1alpha1` data a `v1beta1` object keeps in its preservation annotation is not read back.' }),
    ],
  },
  {
    title: 'Rules without a number',
    rules: [
      rule('schema', 'schema', 'Object fits its schema',
        'The object must match the schema the API server knows: a supported `apiVersion` and `kind`, values of the right type, no unknown fields, and a valid name. Used where no numbered rule covers the field, and for every non-Dynamo object the library renders.',
        'Correct the type or the spelling of the field, or remove the unknown field.'),
      rule('apiserver', 'apiserver', 'Kubernetes object checks',
        'The checks the API server makes beyond the schema: names of objects and namespaces, labels, annotations and selectors; in pod templates container and volume names, ports, environment variables and the ConfigMap and Secret keys they read, volume mounts and resources; the specs of built-in kinds such as Deployments and Services; ConfigMap and Secret keys and sizes.',
        'Correct the name, label, annotation, key or field named in the message; when the value is a name derived from a graph or component name, shorten that name.',
        { covers: Object.values(API_SERVER_CHECKS) }),
      rule('cel', 'cel', 'CRD validation rule of a rendered resource',
        'A validation rule of the CRD of a non-Dynamo resource (Grove PodCliqueSet, LeaderWorkerSet, SnapshotJob, PodSnapshot) failed; the message quotes the rule.',
        'Change the input so that the rendered object satisfies the quoted rule; if the object comes from the library\'s rendering alone, report it as a bug.'),
      rule('internal', 'checker', 'Internal error of the checker',
        'The checker itself failed, for example a rule that could not be evaluated; the object may or may not be valid.',
        'Report the message as a bug of cdk8s-dynamo, together with the manifest that triggers it.'),
    ],
  },
  {
    title: 'DynamoGraphDeploymentRequest',
    rules: [
      rule('dgdr-hardware', 'webhook', 'Hardware is given while GPU discovery is off',
        'A request must name its GPU by hand (`spec.hardware.gpuSku`, `vramMb` or `numGpusPerNode`) when the operator runs without GPU discovery. On update, only a change that newly needs it is refused.',
        'Set `spec.hardware.gpuSku`, `vramMb` and `numGpusPerNode` (and `totalGpus`, which the profiling Job needs).'),
      rule('dgdr-search-strategy', 'webhook', 'A thorough search needs a specific backend',
        '`spec.searchStrategy: thorough` may not be combined with `spec.backend: auto` (the default). On update, only a change that newly combines them is refused.',
        'Set `spec.backend` to `sglang`, `trtllm` or `vllm`, or use `searchStrategy: rapid`.'),
      rule('dgdr-runtime-version-override', 'webhook', 'A profiler image without a version tag needs a runtime version',
        'When `spec.image` has no semantic-version tag (such as `latest`), `spec.runtimeVersionOverride` is required. On update, it is refused only when the image, the override or `autoApply` changes.',
        'Set `spec.runtimeVersionOverride` to the Dynamo version of the image (such as `1.5.0`), or use an image tagged with its version.'),
      rule('dgdr-immutable', 'update', 'No spec change once profiling has started',
        'While the stored request is in phase Profiling, Ready, Deploying or Deployed its spec may not change; a request created with `autoApply: false` may still choose `runtimeVersionOverride`, and once Ready turn `autoApply` on.',
        `Keep the stored spec in the manifest you apply. To make this change, ${RECREATE}.`),
    ],
  },
];

const BY_ID: ReadonlyMap<string, RuleDoc> = new Map(RULE_GROUPS.flatMap((group) => group.rules.map((doc) => [doc.id, doc] as const)));

/** Every rule in documentation order. */
export function allRuleDocs(): RuleDoc[] {
  return RULE_GROUPS.flatMap((group) => group.rules);
}

/** The documentation of a rule id (`47`, `schema`, ...), or `undefined` for an unknown id. */
export function ruleDoc(id: string): RuleDoc | undefined {
  return BY_ID.get(id);
}

/** The anchor of a rule in the documentation file, e.g. `rule-47`. */
export function ruleDocAnchor(id: string): string {
  return `rule-${id.toLowerCase().replace(/[^a-z0-9-]+/g, '-')}`;
}

/** Where a rule is documented, relative to the package root, e.g. `docs/admission-rules.md#rule-47`. */
export function ruleDocReference(id: string): string {
  return `${ADMISSION_RULES_DOC}#${ruleDocAnchor(id)}`;
}

const STAGE_TEXT: Readonly<Record<RuleStage, string>> = {
  schema: 'the API server (CRD schema)',
  cel: 'the API server (CRD validation rule)',
  apiserver: 'the API server (its built-in object checks)',
  webhook: 'the Dynamo operator\'s validating webhook',
  update: 'the Dynamo operator\'s validating webhook, on update only',
  defaulting: 'admission defaulting (a value filled in, not a check)',
  checker: 'cdk8s-dynamo itself',
};

/** Who enforces the rule, in words. */
export function ruleStageText(doc: RuleDoc): string {
  return STAGE_TEXT[doc.stage];
}

/** Whether a rule is checked offline: `yes`, `partly`, `on update`, `applied` (a default) or `no`. */
export type OfflineStatus = 'yes' | 'partly' | 'on update' | 'applied' | 'no';

/** Whether the rule is checked offline (at synth time, by the plugin and the CLI). */
export function offlineStatus(doc: RuleDoc): OfflineStatus {
  if (doc.notChecked !== undefined) return 'no';
  if (doc.partly !== undefined) return 'partly';
  if (doc.stage === 'update' || doc.onUpdateOnly === true) return 'on update';
  if (doc.stage === 'defaulting') return 'applied';
  return 'yes';
}

const CHECKED = 'Checked offline: at synth time, by the validation plugin and by `cdk8s-dynamo validate`.';

/** Whether and how the rule is checked offline, in words. */
export function offlineText(doc: RuleDoc): string {
  switch (offlineStatus(doc)) {
    case 'no':
      return `Not checked offline. ${doc.notChecked}`;
    case 'partly':
      return `Partly checked offline (at synth time, by the validation plugin and by \`cdk8s-dynamo validate\`). ${doc.partly}`;
    case 'on update':
      return ON_UPDATE;
    case 'applied':
      return 'Applied offline: objects are defaulted this way before they are checked and rendered.';
    default:
      return doc.stage === 'checker' ? 'Raised by the offline checker itself.' : CHECKED;
  }
}
