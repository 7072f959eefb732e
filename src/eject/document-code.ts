/**
 * A DynamoGraphDeployment as `new DynamoGraph(...)` and one `graph.addX(...)` per component; a
 * DynamoComponentDeployment as `new ComponentDeployment(...)`.
 */
import {
  cdk8s, Code, construct, dynamo, isEmptyStruct, list, methodCall, MISSING, plain, plainStruct, Statement, str, struct, TypeRef, variable,
} from './code';
import { ComponentContext, componentProps, onlyKeys, providerOverride } from './component-props';
import { enumMember } from './enum-members';
import { envProp } from './env-values';
import { ConstructIds } from './program';
import { isMap } from '../model/json';

const COMPONENT_NAME = /^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$/;

/** The method of DynamoGraph that adds a component of each type. */
const ADD_METHODS: { readonly [type: string]: string } = {
  frontend: 'addFrontend',
  worker: 'addWorker',
  prefill: 'addPrefillWorker',
  decode: 'addDecodeWorker',
  planner: 'addPlanner',
  epp: 'addEpp',
};

const GRAPH_FIELDS = [
  'backendFramework', 'env', 'annotations', 'labels', 'priorityClassName', 'topologyConstraint', 'restart', 'experimental',
  'providerOverride', 'components',
];

/** The metadata prop, or a problem when the construct would name the object itself. */
function metadata(doc: Record<string, any>, ctx: ComponentContext): Code | undefined {
  if (!isMap(doc.metadata) || typeof doc.metadata.name !== 'string' || doc.metadata.name === '') {
    ctx.problems.add('metadata.name', 'required to eject (without it the construct names the object after its construct path)');
    return undefined;
  }
  return metadataStruct(doc.metadata);
}

/** `metadata` as the ApiObjectMetadata struct of cdk8s. */
export function metadataStruct(value: Record<string, unknown>): Code {
  return struct(cdk8s('ApiObjectMetadata'), Object.entries(value).map(([k, v]) => {
    if (k === 'ownerReferences' && Array.isArray(v) && v.every(isMap)) return [k, list({ struct: cdk8s('OwnerReference') }, v.map(r => plainStruct(cdk8s('OwnerReference'), r)))] as const;
    return [k, v === undefined ? undefined : plain(v)] as const;
  }));
}

/** The statements of a graph: its construct, held by `variable` in `chart`, and its components. */
export function graphStatements(doc: Record<string, any>, chart: string, graph: string, ids: ConstructIds, ctx: ComponentContext): Statement[] {
  const { problems } = ctx;
  const spec = isMap(doc.spec) ? doc.spec : {};
  onlyKeys(spec, GRAPH_FIELDS, 'spec', 'the DynamoGraph props', problems);
  const props: Array<readonly [string, Code | undefined]> = [['metadata', metadata(doc, ctx)], ['operator', ctx.operator === undefined ? undefined : variable(ctx.operator)]];
  const addEnv: Statement[] = [];
  if (spec.backendFramework !== undefined) props.push(['backendFramework', enumMember('BackendFramework', spec.backendFramework, 'spec.backendFramework', problems)]);
  if (spec.env !== undefined) {
    const env = Array.isArray(spec.env) ? envProp(spec.env, ctx.refs) : undefined;
    if (env === undefined || env.kept.length > 0) problems.add('spec.env', 'an entry is not an EnvValue (a value, a secret or config map key, a field or resource reference), or names repeat');
    else if (ctx.orderedMaps || env.prop.kind !== 'map' || env.prop.entries.length < 2) props.push(['env', env.prop]);
    // where maps have no order (Go), each variable is added in turn
    else addEnv.push(...env.prop.entries.map(([name, value]): Statement => ({ kind: 'do', value: methodCall(graph, 'addEnv', 2, str(name), value) })));
  }
  for (const key of ['annotations', 'labels'] as const) if (spec[key] !== undefined) props.push([key, plain(spec[key])]);
  if (spec.priorityClassName !== undefined) props.push(['priorityClassName', plain(spec.priorityClassName)]);
  if (spec.topologyConstraint !== undefined && onlyKeys(spec.topologyConstraint, ['clusterTopologyName', 'packDomain'], 'spec.topologyConstraint', 'GraphTopologyConstraint', problems)) {
    props.push(['topologyConstraint', plainStruct(dynamo('GraphTopologyConstraint'), spec.topologyConstraint)]);
  }
  if (spec.restart !== undefined) props.push(['restart', restart(spec.restart, ctx)]);
  if (spec.experimental !== undefined && onlyKeys(spec.experimental, ['kvTransferPolicy'], 'spec.experimental', 'DynamoGraph', problems)) {
    const policy = spec.experimental.kvTransferPolicy;
    const fields = ['domain', 'labelKey', 'clusterTopologyName', 'enforcement', 'preferredWeight'];
    if (policy === undefined) {problems.add('spec.experimental', 'an empty experimental is not written by DynamoGraph');} else if (onlyKeys(policy, fields, 'spec.experimental.kvTransferPolicy', 'KvTransferPolicy', problems)) {
      props.push(['kvTransferPolicy', struct(dynamo('KvTransferPolicy'), Object.entries(policy).map(([k, v]) => [k, k === 'enforcement'
        ? enumMember('KvTransferEnforcement', v, 'spec.experimental.kvTransferPolicy.enforcement', problems) : plain(v)] as const))]);
    }
  }
  if (spec.providerOverride !== undefined) props.push(['providerOverride', providerOverride(spec.providerOverride, 'spec.providerOverride', problems)]);

  const statements: Statement[] = [
    { kind: 'declare', name: graph, value: construct(dynamo('DynamoGraph'), 3, variable(chart), str(ids.unique('Graph')), struct(dynamo('DynamoGraphProps'), props)) },
    ...addEnv,
  ];
  const components: unknown[] = Array.isArray(spec.components) ? spec.components : [];
  if (spec.components !== undefined && !Array.isArray(spec.components)) problems.add('spec.components', 'must be a list');
  const componentIds = new ConstructIds(['Resource', 'Workloads']);
  components.forEach((component, i) => {
    const path = `spec.components[${i}]`;
    if (!isMap(component)) {
      problems.add(path, 'must be an object');
      return;
    }
    const statement = componentStatement(component, path, graph, componentIds, ctx);
    if (statement !== undefined) statements.push(statement);
  });
  return statements;
}

/** `graph.addX(name, { ... });` of one component. */
function componentStatement(
  component: Record<string, any>, path: string, graph: string, ids: ConstructIds, ctx: ComponentContext,
): Statement | undefined {
  const { problems } = ctx;
  const name = component.name;
  if (typeof name !== 'string' || name.length > 63 || !COMPONENT_NAME.test(name)) {
    problems.add(`${path}.name`, `Invalid value: ${JSON.stringify(name)}: a component is ejected under its name (1-63 alphanumerics or -)`);
    return undefined;
  }
  // the component's name is its construct id; a name the graph uses for a child of its own needs the name prop
  const id = ids.has(name) ? ids.unique(`${name}Component`) : ids.unique(name);
  const props: Array<readonly [string, Code]> = componentProps(component, path, ctx);
  if (id !== name) props.unshift(['name', str(name)]);
  const type = component.type;
  let method: string;
  let options: TypeRef = dynamo('ComponentOptions');
  if (component.multinode !== undefined) {
    method = 'addMultinodeWorker';
    options = dynamo('MultinodeWorkerProps');
    // its type is written, a worker's too: an untyped multinode worker is refused beside prefill or decode workers
    if (type === undefined) problems.add(`${path}.type`, 'required to eject a multinode component (addMultinodeWorker needs its role)');
    else props.unshift(['type', enumMember('ComponentType', type, `${path}.type`, problems) ?? MISSING]);
  } else if (type === undefined) {
    method = 'addComponent';
    options = dynamo('ComponentProps');
  } else if (typeof type === 'string' && ADD_METHODS[type] !== undefined) {
    method = ADD_METHODS[type];
  } else {
    problems.add(`${path}.type`, `Unsupported value: ${JSON.stringify(type)}: the library adds only the component types ${Object.keys(ADD_METHODS).join(', ')}`);
    return undefined;
  }
  const given = struct(options, props);
  return { kind: 'do', value: methodCall(graph, method, 2, str(id), isEmptyStruct(given) ? undefined : given) };
}

/** The `restart` prop. */
function restart(value: unknown, ctx: ComponentContext): Code | undefined {
  const { problems } = ctx;
  if (!onlyKeys(value, ['id', 'strategy'], 'spec.restart', 'GraphRestart', problems)) return undefined;
  const strategy = value.strategy;
  if (strategy !== undefined && !onlyKeys(strategy, ['type', 'order'], 'spec.restart.strategy', 'GraphRestart', problems)) return undefined;
  if (strategy !== undefined && strategy.type === undefined && strategy.order === undefined) {
    problems.add('spec.restart.strategy', 'an empty strategy is not written by GraphRestart');
  }
  return struct(dynamo('GraphRestart'), [
    ['id', plain(value.id)],
    ['strategy', strategy?.type === undefined ? undefined : enumMember('RestartStrategyType', strategy.type, 'spec.restart.strategy.type', problems)],
    ['order', strategy?.order === undefined ? undefined : plain(strategy.order)],
  ]);
}

/** The statement of a standalone component deployment held by `variable` in `chart`. */
export function componentDeploymentStatements(
  doc: Record<string, any>, chart: string, deployment: string, ids: ConstructIds, ctx: ComponentContext,
): Statement[] {
  const { problems } = ctx;
  const spec = isMap(doc.spec) ? { ...doc.spec } : {};
  const props: Array<readonly [string, Code | undefined]> = [['metadata', metadata(doc, ctx)], ['operator', ctx.operator === undefined ? undefined : variable(ctx.operator)]];
  if (spec.backendFramework !== undefined) props.push(['backendFramework', enumMember('BackendFramework', spec.backendFramework, 'spec.backendFramework', problems)]);
  delete spec.backendFramework;
  if (spec.name !== undefined) props.push(['name', plain(spec.name)]);
  if (spec.type !== undefined) props.push(['type', enumMember('ComponentType', spec.type, 'spec.type', problems)]);
  props.push(...componentProps(spec, 'spec', ctx));
  const value = construct(dynamo('ComponentDeployment'), 3, variable(chart), str(ids.unique('Deployment')), struct(dynamo('ComponentDeploymentProps'), props));
  return [{ kind: 'declare', name: deployment, value }];
}
