/**
 * One component spec (an entry of a graph's `spec.components`, or a DynamoComponentDeployment's
 * spec) as the props of `addFrontend`, `addWorker`, ... : every field of the spec as the prop that
 * writes it back, the preview features as their classes (GpuMemoryService, Failover,
 * CheckpointConfig), a field no prop writes as a problem naming it.
 */
import {
  anyMap, bool, Code, construct, dynamo, isEmptyStruct, list, MISSING, num, plain, plainStruct, staticCall, str, struct, TypeRef, variable,
} from './code';
import { enumMember } from './enum-members';
import { kubernetesLiteral, quantity } from './kubernetes-literal';
import { podProps } from './pod-props';
import { EjectProblems } from './problems';
import { ChartReferences, ProgramNames } from './program';
import { isMap } from '../model/json';

/** Fields of a component spec the props write (in the order the props are written). */
const COMPONENT_FIELDS = [
  'name', 'type', 'replicas', 'minAvailable', 'podTemplate', 'multinode', 'roles', 'sharedMemorySize', 'globalDynamoNamespace',
  'modelRef', 'scalingAdapter', 'frontendSidecar', 'compilationCache', 'eppConfig', 'topologyConstraint', 'runtimeVersionOverride',
  'providerOverride', 'experimental',
];

/** What the generator needs to write one component. */
export interface ComponentContext {
  readonly names: ProgramNames;
  readonly refs: ChartReferences;
  readonly problems: EjectProblems;
  /** The variable holding the app's `OperatorOptions`, when it names an operator. */
  readonly operator?: string;
  /** Whether the language keeps a map in the order written (Go's maps have no order: an `env` map of several entries is not written). */
  readonly orderedMaps: boolean;
}

/** Whether `value` is a map with only (some of) the keys `allowed`; records a problem for each other key. */
export function onlyKeys(
  value: unknown, allowed: readonly string[], path: string, what: string, problems: EjectProblems,
): value is Record<string, any> {
  if (!isMap(value)) {
    problems.add(path, `Invalid value: ${JSON.stringify(value)}: must be an object`);
    return false;
  }
  let ok = true;
  for (const key of Object.keys(value)) {
    if (allowed.includes(key) || value[key] === undefined) continue;
    problems.add(`${path}.${key}`, `not a field ${what} writes; it cannot be ejected`);
    ok = false;
  }
  return ok;
}

/** A field holding a JSON value of the given type (`string`, `number`, `boolean`), or a problem. */
function typed(value: unknown, type: 'string' | 'number' | 'boolean', path: string, problems: EjectProblems): Code | undefined {
  if (value === undefined) return undefined;
  if (typeof value === type) return plain(value);
  problems.add(path, `Invalid value: ${JSON.stringify(value)}: must be a ${type}`);
  return undefined;
}

/** `providerOverride` as the ProviderOverride prop. */
export function providerOverride(value: unknown, path: string, problems: EjectProblems): Code | undefined {
  if (value === undefined) return undefined;
  if (!onlyKeys(value, ['apiVersion', 'target', 'value'], path, 'ProviderOverride', problems)) return undefined;
  const given = value.value ?? {};
  if (!isMap(given)) {
    problems.add(`${path}.value`, `Invalid value: ${JSON.stringify(given)}: must be an object`);
    return undefined;
  }
  return struct(dynamo('ProviderOverride'), [
    ['apiVersion', typed(value.apiVersion, 'string', `${path}.apiVersion`, problems)],
    ['target', typed(value.target, 'string', `${path}.target`, problems)],
    ['value', anyMap(given)],
  ]);
}

/**
 * The props of a component spec at `path`, without `name` and `type` (the method and id say them)
 * and, for a multinode component, with `multinode` (nodeCount and roles).
 */
export function componentProps(spec: Record<string, any>, path: string, ctx: ComponentContext): Array<readonly [string, Code]> {
  const { problems } = ctx;
  onlyKeys(spec, COMPONENT_FIELDS, path, 'the component props', problems);
  const props: Array<readonly [string, Code | undefined]> = [];
  if (spec.multinode !== undefined) props.push(['multinode', multinode(spec, path, ctx)]);
  else if (spec.roles !== undefined) problems.add(`${path}.roles`, 'roles are written with multinode (addMultinodeWorker); this component has none');
  props.push(['replicas', typed(spec.replicas, 'number', `${path}.replicas`, problems)]);
  props.push(['minAvailable', typed(spec.minAvailable, 'number', `${path}.minAvailable`, problems)]);
  if (spec.podTemplate !== undefined) props.push(...podProps(spec.podTemplate, `${path}.podTemplate`, ctx.refs, problems, ctx.orderedMaps));
  if (spec.sharedMemorySize !== undefined) props.push(['sharedMemorySize', quantity(spec.sharedMemorySize, `${path}.sharedMemorySize`, problems)]);
  props.push(['globalDynamoNamespace', typed(spec.globalDynamoNamespace, 'boolean', `${path}.globalDynamoNamespace`, problems)]);
  if (spec.modelRef !== undefined && onlyKeys(spec.modelRef, ['name', 'revision'], `${path}.modelRef`, 'ModelRef', problems)) {
    props.push(['modelRef', plainStruct(dynamo('ModelRef'), spec.modelRef)]);
  }
  if (spec.scalingAdapter !== undefined) {
    // the prop writes `scalingAdapter: {}` and nothing else
    if (isMap(spec.scalingAdapter) && Object.keys(spec.scalingAdapter).length === 0) props.push(['scalingAdapter', bool(true)]);
    else problems.add(`${path}.scalingAdapter`, `${JSON.stringify(spec.scalingAdapter)}: the scalingAdapter prop writes only {}`);
  }
  props.push(['frontendSidecar', typed(spec.frontendSidecar, 'string', `${path}.frontendSidecar`, problems)]);
  if (spec.compilationCache !== undefined && onlyKeys(spec.compilationCache, ['pvcName', 'mountPath'], `${path}.compilationCache`, 'CompilationCache', problems)) {
    props.push(['compilationCache', plainStruct(dynamo('CompilationCache'), spec.compilationCache)]);
  }
  if (spec.eppConfig !== undefined) props.push(['eppConfig', eppConfig(spec.eppConfig, `${path}.eppConfig`, ctx)]);
  if (spec.topologyConstraint !== undefined && onlyKeys(spec.topologyConstraint, ['packDomain'], `${path}.topologyConstraint`, 'ComponentTopologyConstraint', problems)) {
    props.push(['topologyConstraint', plainStruct(dynamo('ComponentTopologyConstraint'), spec.topologyConstraint)]);
  }
  props.push(['runtimeVersionOverride', typed(spec.runtimeVersionOverride, 'string', `${path}.runtimeVersionOverride`, problems)]);
  props.push(['providerOverride', providerOverride(spec.providerOverride, `${path}.providerOverride`, problems)]);
  if (spec.experimental !== undefined) props.push(['experimental', experimental(spec.experimental, `${path}.experimental`, ctx)]);
  return props.filter((p): p is readonly [string, Code] => p[1] !== undefined);
}

/** `multinode: { nodeCount, roles }` of a multinode component. */
function multinode(spec: Record<string, any>, path: string, ctx: ComponentContext): Code | undefined {
  const { problems } = ctx;
  if (!onlyKeys(spec.multinode, ['nodeCount'], `${path}.multinode`, 'MultinodeOptions', problems)) return undefined;
  if (typeof spec.multinode.nodeCount !== 'number') {
    problems.add(`${path}.multinode.nodeCount`, 'required to eject a multinode component (the nodeCount prop is required)');
    return undefined;
  }
  let roles: Code | undefined;
  if (spec.roles !== undefined) {
    if (!Array.isArray(spec.roles)) {
      problems.add(`${path}.roles`, 'must be a list');
    } else {
      roles = list({ struct: dynamo('ComponentRole') }, spec.roles.map((role: unknown, i: number) => {
        const at = `${path}.roles[${i}]`;
        if (!onlyKeys(role, ['name', 'replicas', 'providerOverride'], at, 'ComponentRole', problems)) return MISSING;
        return struct(dynamo('ComponentRole'), [
          ['name', enumMember('MultinodeRoleName', role.name, `${at}.name`, problems)],
          ['replicas', typed(role.replicas, 'number', `${at}.replicas`, problems)],
          ['providerOverride', providerOverride(role.providerOverride, `${at}.providerOverride`, problems)],
        ]);
      }));
    }
  }
  return struct(dynamo('MultinodeOptions'), [['nodeCount', num(spec.multinode.nodeCount)], ['roles', roles]]);
}

/** `EppConfig.fromConfigMap(...)` or `EppConfig.fromConfig(...)`. */
function eppConfig(value: unknown, path: string, ctx: ComponentContext): Code | undefined {
  const { problems } = ctx;
  if (!onlyKeys(value, ['configMapRef', 'config'], path, 'EppConfig', problems)) return undefined;
  if (value.configMapRef !== undefined && value.config === undefined) {
    const ref = value.configMapRef;
    if (!onlyKeys(ref, ['name', 'key', 'optional'], `${path}.configMapRef`, 'EppConfig.fromConfigMap', problems)) return undefined;
    if (typeof ref.name !== 'string' || typeof ref.key !== 'string' || (ref.optional !== undefined && typeof ref.optional !== 'boolean')) {
      problems.add(`${path}.configMapRef`, 'EppConfig.fromConfigMap needs a name and a key (and optional: true or false)');
      return undefined;
    }
    return staticCall(dynamo('EppConfig'), 'fromConfigMap', 3, variable(ctx.refs.configMap(ref.name)), str(ref.key), ref.optional === undefined ? undefined : bool(ref.optional));
  }
  if (value.config !== undefined && value.configMapRef === undefined && isMap(value.config)) return staticCall(dynamo('EppConfig'), 'fromConfig', 1, anyMap(value.config));
  problems.add(path, 'EppConfig writes either configMapRef or config');
  return undefined;
}

/** `experimental: { gpuMemoryService, failover, checkpoint, grove }` with the preview classes. */
function experimental(value: unknown, path: string, ctx: ComponentContext): Code | undefined {
  const { problems } = ctx;
  if (!onlyKeys(value, ['gpuMemoryService', 'failover', 'checkpoint', 'grove'], path, 'ExperimentalOptions', problems)) return undefined;
  const entries: Array<readonly [string, Code | undefined]> = [];
  const gms = value.gpuMemoryService;
  if (gms !== undefined && onlyKeys(gms, ['mode', 'deviceClassName', 'extraClientContainers', 'extraClientPods'], `${path}.gpuMemoryService`, 'GpuMemoryService', problems)) {
    const pods = Array.isArray(gms.extraClientPods) ? list({ struct: dynamo('GmsClientPod') }, gms.extraClientPods.map((pod: unknown, i: number) => {
      const at = `${path}.gpuMemoryService.extraClientPods[${i}]`;
      if (!onlyKeys(pod, ['name', 'podTemplate'], at, 'GmsClientPod', problems)) return MISSING;
      return struct(dynamo('GmsClientPod'), [
        ['name', typed(pod.name, 'string', `${at}.name`, problems)],
        ['podTemplate', kubernetesLiteral(pod.podTemplate ?? {}, 'PodTemplateSpec', `${at}.podTemplate`, problems)],
      ]);
    })) : undefined;
    entries.push(['gpuMemoryService', newWithProps('GpuMemoryService', [
      ['mode', gms.mode === undefined ? undefined : enumMember('GpuSharingMode', gms.mode, `${path}.gpuMemoryService.mode`, problems)],
      ['deviceClassName', typed(gms.deviceClassName, 'string', `${path}.gpuMemoryService.deviceClassName`, problems)],
      ['extraClientContainers', gms.extraClientContainers === undefined ? undefined : plain(gms.extraClientContainers)],
      ['extraClientPods', pods],
    ])]);
  }
  const failover = value.failover;
  if (failover !== undefined && onlyKeys(failover, ['mode', 'numShadows'], `${path}.failover`, 'Failover', problems)) {
    entries.push(['failover', newWithProps('Failover', [
      ['mode', failover.mode === undefined ? undefined : enumMember('GpuSharingMode', failover.mode, `${path}.failover.mode`, problems)],
      ['numShadows', typed(failover.numShadows, 'number', `${path}.failover.numShadows`, problems)],
    ])]);
  }
  if (value.checkpoint !== undefined) entries.push(['checkpoint', checkpoint(value.checkpoint, `${path}.checkpoint`, ctx)]);
  if (value.grove !== undefined && onlyKeys(value.grove, ['forceScalingGroup'], `${path}.grove`, 'GroveOptions', problems)) {
    entries.push(['grove', struct(dynamo('GroveOptions'), [['forceScalingGroup', typed(value.grove.forceScalingGroup, 'boolean', `${path}.grove.forceScalingGroup`, problems)]])]);
  }
  return struct(dynamo('ExperimentalOptions'), entries);
}

/** `new X({ ... })` (props of the struct `XProps`), or `new X()` without props. */
function newWithProps(className: string, entries: Array<readonly [string, Code | undefined]>): Code {
  const props = struct(dynamo(`${className}Props`), entries);
  return construct(dynamo(className), 1, isEmptyStruct(props) ? undefined : props);
}

const CHECKPOINT: TypeRef = dynamo('CheckpointConfig');
const CHECKPOINT_PROPS: TypeRef = dynamo('CheckpointConfigProps');

/** `CheckpointConfig.automatic(...)`, `CheckpointConfig.restore(name, ...)` or `new CheckpointConfig({ enabled: false, ... })`. */
function checkpoint(value: unknown, path: string, ctx: ComponentContext): Code | undefined {
  const { problems } = ctx;
  const fields = ['enabled', 'checkpointRef', 'startupPolicy', 'deletionPolicy', 'targetContainerName', 'job', 'mode', 'identity'];
  if (!onlyKeys(value, fields, path, 'CheckpointConfig', problems)) return undefined;
  if (typeof value.enabled !== 'boolean') {
    problems.add(`${path}.enabled`, 'required to eject: CheckpointConfig always writes enabled (true unless given)');
    return undefined;
  }
  let job: Array<readonly [string, Code | undefined]> = [];
  if (value.job !== undefined && onlyKeys(value.job, ['gmsClientContainers', 'podTemplate'], `${path}.job`, 'CheckpointConfig', problems)) {
    if (value.job.gmsClientContainers === undefined && value.job.podTemplate === undefined) problems.add(`${path}.job`, 'an empty job is not written by CheckpointConfig');
    job = [
      ['jobGmsClientContainers', value.job.gmsClientContainers === undefined ? undefined : plain(value.job.gmsClientContainers)],
      ['jobPodTemplate', value.job.podTemplate === undefined ? undefined : kubernetesLiteral(value.job.podTemplate, 'PodTemplateSpec', `${path}.job.podTemplate`, problems)],
    ];
  }
  let identity: Code | undefined;
  if (value.identity !== undefined) {
    const id = value.identity;
    const idFields = ['model', 'backendFramework', 'dynamoVersion', 'tensorParallelSize', 'pipelineParallelSize', 'dtype', 'maxModelLen', 'extraParameters'];
    if (onlyKeys(id, idFields, `${path}.identity`, 'CheckpointIdentity', problems)) {
      identity = struct(dynamo('CheckpointIdentity'), Object.entries(id).map(([k, v]) => [k, k === 'backendFramework'
        ? enumMember('BackendFramework', v, `${path}.identity.backendFramework`, problems) : plain(v)] as const));
    }
  }
  const restore = value.enabled && typeof value.checkpointRef === 'string';
  const props = struct(CHECKPOINT_PROPS, [
    ['enabled', value.enabled ? undefined : bool(false)],
    ['checkpointRef', restore ? undefined : typed(value.checkpointRef, 'string', `${path}.checkpointRef`, problems)],
    ['startupPolicy', value.startupPolicy === undefined ? undefined : enumMember('CheckpointStartupPolicy', value.startupPolicy, `${path}.startupPolicy`, problems)],
    ['deletionPolicy', value.deletionPolicy === undefined ? undefined : enumMember('CheckpointDeletionPolicy', value.deletionPolicy, `${path}.deletionPolicy`, problems)],
    ['targetContainerName', typed(value.targetContainerName, 'string', `${path}.targetContainerName`, problems)],
    ...job,
    ['mode', value.mode === undefined ? undefined : enumMember('CheckpointMode', value.mode, `${path}.mode`, problems)],
    ['identity', identity],
  ]);
  const given = isEmptyStruct(props) ? undefined : props;
  if (restore) return staticCall(CHECKPOINT, 'restore', 2, str(value.checkpointRef), given);
  if (value.enabled) return staticCall(CHECKPOINT, 'automatic', 1, given);
  return construct(CHECKPOINT, 1, props);
}
