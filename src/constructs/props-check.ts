/**
 * Props checked where they cross into the library. TypeScript callers get these guarantees from the
 * compiler; JavaScript callers, and jsii languages whose values arrive untyped (a map where a class
 * is expected, a string where a list is), do not. Each construct describes its props here once; a
 * value of the wrong shape, or an unknown prop, is an error naming the construct, the prop path, the
 * value and what was expected, before anything reads the props.
 */
import { Construct } from 'constructs';
import {
  BackendFramework, CheckpointDeletionPolicy, CheckpointMode, CheckpointStartupPolicy, ComponentType, GpuSharingMode,
  KvTransferEnforcement, MultinodeRoleName, OutputMode, RestartStrategyType,
} from './enums';
import { pathOf, shownValue as shown } from './kubernetes-values';
import { isMap, JsonMap } from '../model/json';
import { DEFAULT_OPERATOR_SETTINGS, OperatorSettings } from '../model/operator-settings';

/** What one prop must hold. */
export type PropCheck =
  | 'string' | 'nonEmptyString' | 'boolean' | 'number' | 'any' | 'object'
  | 'stringList' | 'stringMap' | 'envMap' | 'list' | 'operator'
  | { readonly oneOf: object; readonly name: string }
  | { readonly listOf: PropTable }
  | { readonly fields: PropTable; readonly open?: boolean }
  | { readonly instanceOf: string };

/** The checks of every prop of one props interface (the key set is the interface's, see the tables' types). */
export type PropTable = { readonly [prop: string]: PropCheck };

/** The problem of `value` at `path` against `check`, or undefined. */
function problemOf(path: string, value: unknown, check: PropCheck): string | undefined {
  const bad = (expected: string) => `${path}: Invalid value: ${shown(value)}: must be ${expected}`;
  if (check === 'any') return undefined;
  if (check === 'string') return typeof value === 'string' ? undefined : bad('a string');
  if (check === 'nonEmptyString') return typeof value === 'string' && value !== '' ? undefined : bad('a non-empty string');
  if (check === 'boolean') return typeof value === 'boolean' ? undefined : bad('true or false');
  if (check === 'number') return typeof value === 'number' && Number.isFinite(value) ? undefined : bad('a finite number');
  if (check === 'object') return isMap(value) ? undefined : bad('an object');
  if (check === 'stringList') {
    if (!Array.isArray(value)) return bad('a list of strings');
    const at = value.findIndex(v => typeof v !== 'string');
    return at < 0 ? undefined : `${path}[${at}]: Invalid value: ${shown(value[at])}: must be a string`;
  }
  if (check === 'stringMap') {
    if (!isMap(value)) return bad('a map of strings');
    const key = Object.keys(value).find(k => typeof value[k] !== 'string');
    return key === undefined ? undefined : `${path}.${key}: Invalid value: ${shown(value[key])}: must be a string`;
  }
  if (check === 'envMap') return isMap(value) ? undefined : bad('a map of environment variable names to EnvValue (EnvValue.fromValue, EnvValue.fromSecretValue, ...)');
  if (check === 'list') return Array.isArray(value) ? undefined : bad('a list');
  if (check === 'operator') return operatorProblem(path, value);
  if ('oneOf' in check) {
    const allowed = Object.values(check.oneOf).filter(v => typeof v === 'string') as string[];
    return allowed.includes(value as string) ? undefined : bad(`one of ${allowed.map(a => JSON.stringify(a)).join(', ')} (${check.name})`);
  }
  if ('instanceOf' in check) return isMap(value) ? undefined : bad(`a ${check.instanceOf}`);
  if ('listOf' in check) {
    if (!Array.isArray(value)) return bad('a list');
    for (let i = 0; i < value.length; i++) {
      const p = tableProblem(`${path}[${i}]`, value[i], check.listOf);
      if (p !== undefined) return p;
    }
    return undefined;
  }
  return tableProblem(path, value, check.fields, check.open);
}

/** The problem of an object against a table of props, or undefined. */
function tableProblem(path: string, value: unknown, table: PropTable, open = false): string | undefined {
  if (!isMap(value)) return `${path}: Invalid value: ${shown(value)}: must be an object`;
  for (const key of Object.keys(value)) {
    const prefix = path === '' ? key : `${path}.${key}`;
    if (!Object.prototype.hasOwnProperty.call(table, key)) {
      if (open) continue;
      return `${prefix}: unknown property; known properties: ${Object.keys(table).sort().join(', ')}`;
    }
    const v = value[key];
    if (v === undefined) continue;
    const p = problemOf(prefix, v, table[key]);
    if (p !== undefined) return p;
  }
  return undefined;
}

/** `operator` props: every key an operator option, of the option's type. */
function operatorProblem(path: string, value: unknown): string | undefined {
  if (!isMap(value)) return `${path}: Invalid value: ${shown(value)}: must be an object (OperatorOptions)`;
  for (const key of Object.keys(value)) {
    const v = value[key];
    if (v === undefined) continue;
    if (!isOperatorOption(key)) {
      return `${path}.${key}: unknown property; known properties: ${OPERATOR_OPTION_NAMES.join(', ')}`;
    }
    const p = operatorOptionProblem(`${path}.${key}`, key, v);
    if (p !== undefined) return p;
  }
  return undefined;
}

/** The names of the operator options (`OperatorOptions`, the same as `OperatorSettings`), sorted. */
export const OPERATOR_OPTION_NAMES: readonly string[] = Object.keys(DEFAULT_OPERATOR_SETTINGS).sort();

/** Whether `key` names an operator option. */
export function isOperatorOption(key: string): key is keyof OperatorSettings {
  return Object.prototype.hasOwnProperty.call(DEFAULT_OPERATOR_SETTINGS, key);
}

/** Registry secrets: each a `{ name, registries }` with a non-empty name. */
const REGISTRY_SECRETS: PropCheck = { listOf: { name: 'nonEmptyString', registries: 'stringList' } };

/**
 * The problem of `value` (not undefined) as the operator option `key` (see `isOperatorOption`), named
 * at `path`, or undefined: the one type check of operator options, for construct props and the
 * validation plugin's properties. An option's type is its default's; `registrySecrets` is a list of
 * `{ name, registries }`.
 */
export function operatorOptionProblem(path: string, key: keyof OperatorSettings, value: unknown): string | undefined {
  if (key === 'registrySecrets') {
    const problem = problemOf(path, value, REGISTRY_SECRETS);
    if (problem !== undefined) return problem;
    for (const [i, secret] of (value as JsonMap[]).entries()) {
      const missing = ['name', 'registries'].find(field => secret[field] === undefined);
      if (missing !== undefined) return `${path}[${i}].${missing}: Required value: a registry secret has a name and a list of registries`;
    }
    return undefined;
  }
  return problemOf(path, value, typeof DEFAULT_OPERATOR_SETTINGS[key] as PropCheck);
}

/**
 * Throws when `props` (the props of `scope`, a construct or a component's path) does not fit `table`:
 * `undefined` stands for no props; anything that is not an object, an unknown prop or a value of the
 * wrong shape is an error.
 */
export function checkProps(scope: Construct | string, propsName: string, props: unknown, table: PropTable): void {
  if (props === undefined) return;
  const problem = props === null || typeof props !== 'object' || Array.isArray(props)
    ? `props: Invalid value: ${shown(props)}: must be an object (${propsName}) or left out`
    : tableProblem('', props, table);
  if (problem !== undefined) throw new Error(`${pathOf(scope)}: ${problem}`);
}

/**
 * Throws when `props` of a value class (not a construct: `owner` names it in the message) does not
 * fit `table`, as checkProps.
 */
export function checkValueProps(owner: string, propsName: string, props: unknown, table: PropTable): void {
  if (props === undefined) return;
  const problem = props === null || typeof props !== 'object' || Array.isArray(props)
    ? `props: Invalid value: ${shown(props)}: must be an object (${propsName}) or left out`
    : tableProblem('', props, table);
  if (problem !== undefined) throw new Error(`${owner}: ${problem}`);
}

// --- the tables of the public props ---------------------------------------------------------------

/** `ApiObjectMetadata`: the named fields checked, other fields (`generateName`, ...) allowed as cdk8s allows them. */
const METADATA: PropCheck = {
  fields: { name: 'string', namespace: 'string', labels: 'stringMap', annotations: 'stringMap', finalizers: 'stringList', ownerReferences: 'any' },
  open: true,
};
const PROVIDER_OVERRIDE: PropCheck = { fields: { apiVersion: 'string', target: 'string', value: 'object' } };
const MULTINODE: PropCheck = {
  fields: {
    nodeCount: 'number',
    roles: { listOf: { name: { oneOf: MultinodeRoleName, name: 'MultinodeRoleName' }, replicas: 'number', providerOverride: PROVIDER_OVERRIDE } },
  },
};

/** `SynthesisOptions` (and `ImportOptions`). */
export const SYNTHESIS_OPTIONS_PROPS = {
  output: { oneOf: OutputMode, name: 'OutputMode' },
  operator: 'operator',
} as const satisfies PropTable;

/** `PodOptions`. */
const POD_OPTIONS_PROPS = {
  image: 'string',
  command: 'stringList',
  args: 'stringList',
  workingDir: 'string',
  env: 'envMap',
  envFrom: 'list',
  gpus: 'number',
  resources: 'object',
  volumeMounts: 'list',
  podTemplate: 'object',
} as const satisfies PropTable;

/** `ComponentOptions`. */
export const COMPONENT_OPTIONS_PROPS = {
  ...POD_OPTIONS_PROPS,
  replicas: 'number',
  minAvailable: 'number',
  // a k8s.Quantity or a quantity as in Kubernetes: checked where it is read (kubernetes-values.ts quantityJson)
  sharedMemorySize: 'any',
  globalDynamoNamespace: 'boolean',
  modelRef: { fields: { name: 'string', revision: 'string' } },
  scalingAdapter: 'boolean',
  frontendSidecar: 'string',
  compilationCache: { fields: { pvcName: 'string', mountPath: 'string' } },
  eppConfig: { instanceOf: 'EppConfig' },
  topologyConstraint: { fields: { packDomain: 'string' } },
  runtimeVersionOverride: 'string',
  providerOverride: PROVIDER_OVERRIDE,
  experimental: {
    fields: {
      gpuMemoryService: { instanceOf: 'GpuMemoryService' },
      failover: { instanceOf: 'Failover' },
      checkpoint: { instanceOf: 'CheckpointConfig' },
      grove: { fields: { forceScalingGroup: 'boolean' } },
    },
  },
} as const satisfies PropTable;

/** `ComponentProps` (with `multinode`, which `MultinodeWorkerProps` and `ComponentDeploymentProps` add). */
export const COMPONENT_PROPS = {
  ...COMPONENT_OPTIONS_PROPS,
  name: 'string',
  type: { oneOf: ComponentType, name: 'ComponentType' },
  multinode: MULTINODE,
} as const satisfies PropTable;

/** `ComponentDeploymentProps`. */
export const COMPONENT_DEPLOYMENT_PROPS = {
  ...COMPONENT_PROPS,
  ...SYNTHESIS_OPTIONS_PROPS,
  metadata: METADATA,
  backendFramework: { oneOf: BackendFramework, name: 'BackendFramework' },
} as const satisfies PropTable;

/** `DynamoGraphProps`. */
export const GRAPH_PROPS = {
  ...SYNTHESIS_OPTIONS_PROPS,
  metadata: METADATA,
  backendFramework: { oneOf: BackendFramework, name: 'BackendFramework' },
  env: 'envMap',
  annotations: 'stringMap',
  labels: 'stringMap',
  priorityClassName: 'string',
  topologyConstraint: { fields: { clusterTopologyName: 'string', packDomain: 'string' } },
  restart: { fields: { id: 'string', strategy: { oneOf: RestartStrategyType, name: 'RestartStrategyType' }, order: 'stringList' } },
  kvTransferPolicy: {
    fields: {
      domain: 'string',
      labelKey: 'string',
      clusterTopologyName: 'string',
      enforcement: { oneOf: KvTransferEnforcement, name: 'KvTransferEnforcement' },
      preferredWeight: 'number',
    },
  },
  providerOverride: PROVIDER_OVERRIDE,
} as const satisfies PropTable;

/** `GpuMemoryServiceProps`. */
export const GPU_MEMORY_SERVICE_PROPS = {
  mode: { oneOf: GpuSharingMode, name: 'GpuSharingMode' },
  deviceClassName: 'string',
  extraClientContainers: 'stringList',
  extraClientPods: { listOf: { name: 'string', podTemplate: 'object' } },
} as const satisfies PropTable;

/** `FailoverProps`. */
export const FAILOVER_PROPS = {
  mode: { oneOf: GpuSharingMode, name: 'GpuSharingMode' },
  numShadows: 'number',
} as const satisfies PropTable;

/** `CheckpointConfigProps`. */
export const CHECKPOINT_CONFIG_PROPS = {
  enabled: 'boolean',
  checkpointRef: 'string',
  startupPolicy: { oneOf: CheckpointStartupPolicy, name: 'CheckpointStartupPolicy' },
  deletionPolicy: { oneOf: CheckpointDeletionPolicy, name: 'CheckpointDeletionPolicy' },
  targetContainerName: 'string',
  jobGmsClientContainers: 'stringList',
  jobPodTemplate: 'object',
  mode: { oneOf: CheckpointMode, name: 'CheckpointMode' },
  identity: {
    fields: {
      model: 'string',
      backendFramework: { oneOf: BackendFramework, name: 'BackendFramework' },
      dynamoVersion: 'string',
      tensorParallelSize: 'number',
      pipelineParallelSize: 'number',
      dtype: 'string',
      maxModelLen: 'number',
      extraParameters: 'stringMap',
    },
  },
} as const satisfies PropTable;
