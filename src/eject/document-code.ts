/**
 * A DynamoGraphDeployment as `new DynamoGraph(...)` and one `graph.addX(...)` per component; a
 * DynamoComponentDeployment as `new ComponentDeployment(...)`.
 */
import { call, Code, json, obj, print, raw, str } from './code';
import { ComponentContext, componentProps, onlyKeys } from './component-props';
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
  return json(doc.metadata);
}

/** The statements of a graph: its construct, held by `variable` in `chart`, and its components. */
export function graphStatements(doc: Record<string, any>, chart: string, variable: string, ids: ConstructIds, ctx: ComponentContext): string[] {
  const { problems, names } = ctx;
  names.dynamo.add('DynamoGraph');
  const spec = isMap(doc.spec) ? doc.spec : {};
  onlyKeys(spec, GRAPH_FIELDS, 'spec', 'the DynamoGraph props', problems);
  const props: Array<readonly [string, Code | undefined]> = [['metadata', metadata(doc, ctx)], ['operator', ctx.operator === undefined ? undefined : raw(ctx.operator)]];
  if (spec.backendFramework !== undefined) props.push(['backendFramework', enumMember('BackendFramework', spec.backendFramework, 'spec.backendFramework', names, problems)]);
  if (spec.env !== undefined) {
    const env = Array.isArray(spec.env) ? envProp(spec.env, ctx.refs) : undefined;
    if (env === undefined || env.kept.length > 0) problems.add('spec.env', 'an entry is not an EnvValue (a value, a secret or config map key, a field or resource reference), or names repeat');
    else props.push(['env', env.prop]);
  }
  for (const key of ['annotations', 'labels'] as const) if (spec[key] !== undefined) props.push([key, json(spec[key])]);
  if (spec.priorityClassName !== undefined) props.push(['priorityClassName', json(spec.priorityClassName)]);
  if (spec.topologyConstraint !== undefined && onlyKeys(spec.topologyConstraint, ['clusterTopologyName', 'packDomain'], 'spec.topologyConstraint', 'GraphTopologyConstraint', problems)) {
    props.push(['topologyConstraint', json(spec.topologyConstraint)]);
  }
  if (spec.restart !== undefined) props.push(['restart', restart(spec.restart, ctx)]);
  if (spec.experimental !== undefined && onlyKeys(spec.experimental, ['kvTransferPolicy'], 'spec.experimental', 'DynamoGraph', problems)) {
    const policy = spec.experimental.kvTransferPolicy;
    const fields = ['domain', 'labelKey', 'clusterTopologyName', 'enforcement', 'preferredWeight'];
    if (policy === undefined) {problems.add('spec.experimental', 'an empty experimental is not written by DynamoGraph');} else if (onlyKeys(policy, fields, 'spec.experimental.kvTransferPolicy', 'KvTransferPolicy', problems)) {
      props.push(['kvTransferPolicy', obj(Object.entries(policy).map(([k, v]) => [k, k === 'enforcement'
        ? enumMember('KvTransferEnforcement', v, 'spec.experimental.kvTransferPolicy.enforcement', names, problems) : json(v)] as const))]);
    }
  }
  if (spec.providerOverride !== undefined) props.push(['providerOverride', json(spec.providerOverride)]);

  const statements = [`const ${variable} = ${print(call('new DynamoGraph', raw(chart), str(ids.unique('Graph')), obj(props)))};`];
  const components: unknown[] = Array.isArray(spec.components) ? spec.components : [];
  if (spec.components !== undefined && !Array.isArray(spec.components)) problems.add('spec.components', 'must be a list');
  const componentIds = new ConstructIds(['Resource', 'Workloads']);
  components.forEach((component, i) => {
    const path = `spec.components[${i}]`;
    if (!isMap(component)) {
      problems.add(path, 'must be an object');
      return;
    }
    statements.push(componentStatement(component, path, variable, componentIds, ctx));
  });
  return statements;
}

/** `graph.addX(name, { ... });` of one component. */
function componentStatement(component: Record<string, any>, path: string, graph: string, ids: ConstructIds, ctx: ComponentContext): string {
  const { problems, names } = ctx;
  const name = component.name;
  if (typeof name !== 'string' || name.length > 63 || !COMPONENT_NAME.test(name)) {
    problems.add(`${path}.name`, `Invalid value: ${JSON.stringify(name)}: a component is ejected under its name (1-63 alphanumerics or -)`);
    return '';
  }
  // the component's name is its construct id; a name the graph uses for a child of its own needs the name prop
  const id = ids.has(name) ? ids.unique(`${name}Component`) : ids.unique(name);
  const props = componentProps(component, path, ctx);
  if (id !== name) props.unshift(['name', str(name)]);
  const type = component.type;
  let method: string;
  if (component.multinode !== undefined) {
    method = 'addMultinodeWorker';
    // a multinode worker is a worker unless its type says otherwise
    if (type === undefined) problems.add(`${path}.type`, 'required to eject a multinode component (addMultinodeWorker makes an untyped one a worker)');
    else if (type !== 'worker') props.unshift(['type', enumMember('ComponentType', type, `${path}.type`, names, problems) ?? raw('undefined')]);
  } else if (type === undefined) {
    method = 'addComponent';
  } else if (typeof type === 'string' && ADD_METHODS[type] !== undefined) {
    method = ADD_METHODS[type];
  } else {
    problems.add(`${path}.type`, `Unsupported value: ${JSON.stringify(type)}: the library adds only the component types ${Object.keys(ADD_METHODS).join(', ')}`);
    return '';
  }
  const options = obj(props);
  const empty = options.kind === 'object' && options.entries.length === 0;
  return `${print(call(`${graph}.${method}`, str(id), empty ? undefined : options))};`;
}

/** The `restart` prop. */
function restart(value: unknown, ctx: ComponentContext): Code | undefined {
  const { problems, names } = ctx;
  if (!onlyKeys(value, ['id', 'strategy'], 'spec.restart', 'GraphRestart', problems)) return undefined;
  const strategy = value.strategy;
  if (strategy !== undefined && !onlyKeys(strategy, ['type', 'order'], 'spec.restart.strategy', 'GraphRestart', problems)) return undefined;
  if (strategy !== undefined && strategy.type === undefined && strategy.order === undefined) {
    problems.add('spec.restart.strategy', 'an empty strategy is not written by GraphRestart');
  }
  return obj([
    ['id', json(value.id)],
    ['strategy', strategy?.type === undefined ? undefined : enumMember('RestartStrategyType', strategy.type, 'spec.restart.strategy.type', names, problems)],
    ['order', strategy?.order === undefined ? undefined : json(strategy.order)],
  ]);
}

/** The statement of a standalone component deployment held by `variable` in `chart`. */
export function componentDeploymentStatements(
  doc: Record<string, any>, chart: string, variable: string, ids: ConstructIds, ctx: ComponentContext,
): string[] {
  const { problems, names } = ctx;
  names.dynamo.add('ComponentDeployment');
  const spec = isMap(doc.spec) ? { ...doc.spec } : {};
  const props: Array<readonly [string, Code | undefined]> = [['metadata', metadata(doc, ctx)], ['operator', ctx.operator === undefined ? undefined : raw(ctx.operator)]];
  if (spec.backendFramework !== undefined) props.push(['backendFramework', enumMember('BackendFramework', spec.backendFramework, 'spec.backendFramework', names, problems)]);
  delete spec.backendFramework;
  if (spec.name !== undefined) props.push(['name', json(spec.name)]);
  if (spec.type !== undefined) props.push(['type', enumMember('ComponentType', spec.type, 'spec.type', names, problems)]);
  props.push(...componentProps(spec, 'spec', ctx));
  return [`const ${variable} = ${print(call('new ComponentDeployment', raw(chart), str(ids.unique('Deployment')), obj(props)))};`];
}
