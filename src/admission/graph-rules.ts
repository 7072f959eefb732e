/**
 * DynamoGraphDeployment spec-level webhook rules: restart order (rows 23-26), components list (17,
 * 19), priorityClassName (20), topology constraints (29, 30, 33; 32 and 105 with a given
 * ClusterTopologyBinding), the KV transfer policy topology name (39), and the root provider
 * override (82-86). Each component is then checked by
 * component-rules. The CRD's CEL rules (rows 11, 15, 16, 36-38) are evaluated by the CEL engine
 * (cel/check.ts).
 *
 * Internal module.
 */
import { checkKvTransferPolicyBinding, checkTopologyBinding } from './cluster-topology';
import { ComponentContext, GraphPathway } from './component-context';
import { checkComponent } from './component-rules';
import { componentEntries } from './component-shape';
import { dns1123SubdomainErrors } from './dns-names';
import { FieldPath } from './field-path';
import { checkGroveNameLengths } from './grove-naming';
import { ValidateOptions } from './options';
import { checkProviderOverride, OverrideSite, roleScope, writesGroveTopology } from './provider-override-rules';
import { ViolationSink } from './violation';
import { has, isMap, JsonMap, listAt, mapAt, stringAt, stringItems } from '../model/json';

const SPEC = FieldPath.of('spec');

/**
 * Every DGD rule that reads the spec, on a defaulted DGD on the given pathway (see `pathwayOf`;
 * an update passes the detail that explains why its stored graph is not on the Grove pathway).
 */
export function checkGraphSpec(doc: JsonMap, pathway: GraphPathway, options: ValidateOptions, sink: ViolationSink): void {
  const spec = mapAt(doc, 'spec');
  const { provider, grovePathway, groveRequirement } = pathway;

  checkComponentList(spec, sink);
  if (grovePathway) checkGroveNameLengths(stringAt(mapAt(doc, 'metadata'), 'name') ?? '', spec, sink);

  // row 20
  const priorityClassName = stringAt(spec, 'priorityClassName');
  if (priorityClassName !== undefined && priorityClassName !== '' && !grovePathway) {
    sink.forbidden(SPEC.child('priorityClassName'), priorityClassName, groveRequirement, '20');
  }

  const backendFramework = stringAt(spec, 'backendFramework') ?? '';
  for (const { component, index } of componentEntries(spec)) {
    const ctx: ComponentContext = {
      owner: 'DGD',
      component,
      path: SPEC.child('components').index(index),
      backendFramework,
      provider,
      grovePathway,
      groveRequirement,
      document: doc,
      options,
    };
    checkComponent(ctx, sink);
  }

  checkRestartOrder(spec, sink);
  checkTopologyConstraints(spec, sink);
  checkTopologyBinding(doc, grovePathway, options, sink);
  const policyNameAccepted = checkKvTransferPolicy(spec, grovePathway, groveRequirement, sink);
  checkKvTransferPolicyBinding(doc, policyNameAccepted, options, sink);
  const rootOverride = mapAt(spec, 'providerOverride');
  if (rootOverride) checkProviderOverride({ override: rootOverride, path: SPEC.child('providerOverride'), scope: 'root' }, provider, sink);
  if (grovePathway) checkTopologyOverrideConflict(spec, sink);
}

/** Row 17: at least one component. */
function checkComponentList(spec: JsonMap | undefined, sink: ViolationSink): void {
  const list = spec?.components;
  if (list === undefined || list === null || (Array.isArray(list) && list.length === 0)) {
    sink.required(SPEC.child('components'), 'must have at least one component', '17');
  }
}

/** Rows 23-26: restart.strategy.order. */
function checkRestartOrder(spec: JsonMap | undefined, sink: ViolationSink): void {
  const strategy = mapAt(mapAt(spec, 'restart'), 'strategy');
  const order = listAt(strategy, 'order');
  if (!order || order.length === 0) return;
  const path = SPEC.child('restart', 'strategy', 'order');
  if (stringAt(strategy, 'type') === 'Parallel') {
    sink.forbidden(path, order, 'cannot be specified when strategy is parallel', '23');
    return;
  }
  const entries = stringItems(order);
  const unique = new Set(entries.map((e) => e.value));
  if (unique.size !== order.length) sink.invalid(path, order, 'must be unique', '24');
  const names = new Set(componentEntries(spec).map(({ component }) => stringAt(component, 'name')).filter((n): n is string => n !== undefined));
  if (unique.size !== names.size) sink.invalid(path, order, 'must have the same number of unique components as the deployment', '25');
  const supported = [...names].sort();
  for (const { value, index } of entries) {
    if (!names.has(value)) sink.notSupported(path.index(index), value, supported, '26');
  }
}

/** Rows 29 and 30. */
function checkTopologyConstraints(spec: JsonMap | undefined, sink: ViolationSink): void {
  const specConstraint = mapAt(spec, 'topologyConstraint');
  const anyComponentConstraint = componentEntries(spec).some(({ component }) => has(component, 'topologyConstraint'));
  if (!specConstraint && !anyComponentConstraint) return;
  const path = SPEC.child('topologyConstraint');
  if (!specConstraint) {
    if (!has(spec, 'topologyConstraint')) sink.required(path, 'is required when any component topology constraint is set', '29');
    return;
  }
  if ((stringAt(specConstraint, 'packDomain') ?? '') === '' && !anyComponentConstraint) {
    sink.required(path.child('packDomain'), 'is required when no component topologyConstraint is set', '30');
  }
}

/**
 * Row 39: the cluster topology name of the KV transfer policy. Returns whether the name passed
 * (then the operator reads the binding, see `checkKvTransferPolicyBinding`).
 */
function checkKvTransferPolicy(spec: JsonMap | undefined, grovePathway: boolean, groveRequirement: string, sink: ViolationSink): boolean {
  const policy = mapAt(mapAt(spec, 'experimental'), 'kvTransferPolicy');
  if (!policy) return false;
  const path = SPEC.child('experimental', 'kvTransferPolicy');
  const topologyName = stringAt(policy, 'clusterTopologyName') ?? '';
  if (topologyName === '') return false;
  const namePath = path.child('clusterTopologyName');
  const errors = dns1123SubdomainErrors(topologyName);
  if (errors.length > 0) sink.invalid(namePath, topologyName, errors.join('; '), '39');
  if (!grovePathway) sink.forbidden(namePath, topologyName, groveRequirement, '39');
  return errors.length === 0 && grovePathway;
}

/** Row 33: Grove topology through provider overrides excludes the typed topology API. */
function checkTopologyOverrideConflict(spec: JsonMap | undefined, sink: ViolationSink): void {
  const typedTopology = has(spec, 'topologyConstraint') || componentEntries(spec).some(({ component }) => has(component, 'topologyConstraint'));
  if (!typedTopology) return;
  for (const site of overrideSites(spec)) {
    if (writesGroveTopology(site.override)) {
      sink.forbidden(
        site.path.child('value'),
        site.override.value,
        'cannot be combined with spec.topologyConstraint or components[].topologyConstraint; ' +
          'use either the typed topology API or provider-native Grove topology overrides',
        '33',
      );
    }
  }
}

/** Every provider override of a DGD spec: root, components, leader/worker roles, in document order. */
export function overrideSites(spec: JsonMap | undefined): OverrideSite[] {
  const sites: OverrideSite[] = [];
  const root = mapAt(spec, 'providerOverride');
  if (root) sites.push({ override: root, path: SPEC.child('providerOverride'), scope: 'root' });
  for (const { component, index } of componentEntries(spec)) {
    const componentPath = SPEC.child('components').index(index);
    const override = mapAt(component, 'providerOverride');
    if (override) sites.push({ override, path: componentPath.child('providerOverride'), scope: 'component', component });
    (listAt(component, 'roles') ?? []).forEach((role, roleIndex) => {
      const scope = roleScope(stringAt(role, 'name'));
      const roleOverride = isMap(role) ? mapAt(role, 'providerOverride') : undefined;
      if (scope && roleOverride) {
        sites.push({ override: roleOverride, path: componentPath.child('roles').index(roleIndex).child('providerOverride'), scope, component });
      }
    });
  }
  return sites;
}
