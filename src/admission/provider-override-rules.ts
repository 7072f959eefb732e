/**
 * `providerOverride` at the DGD root, on components and on multinode roles (rows 82-86) and the
 * typed-topology exclusion (row 33). Row 87 (target defaulting) uses `expectedTarget`.
 *
 * Internal module.
 */
import { isInterPodGms, isMultinode, usesScalingGroup } from './component-shape';
import { FieldPath } from './field-path';
import { ViolationSink } from './violation';
import { has, isMap, JsonMap, stringAt } from '../model/json';
import { PROVIDER_GROVE } from '../model/well-known';

export const GROVE_API_VERSION = 'grove.io/v1alpha1';
export const TARGET_POD_CLIQUE_SET = 'PodCliqueSet';
export const TARGET_POD_CLIQUE_TEMPLATE_SPEC = 'PodCliqueTemplateSpec';
export const TARGET_POD_CLIQUE_SCALING_GROUP_CONFIG = 'PodCliqueScalingGroupConfig';

/** Where an override sits: the DGD root, a component, or a multinode role. */
export type OverrideScope = 'root' | 'component' | 'roles.leader' | 'roles.worker';

/** The one Grove target an override in this scope may have, or why there is none. */
export function expectedTarget(scope: OverrideScope, component: JsonMap | undefined): { target: string } | { error: string } {
  switch (scope) {
    case 'root':
      return { target: TARGET_POD_CLIQUE_SET };
    case 'component':
      if (!component) return { error: `component context is required for scope ${JSON.stringify(scope)}` };
      return { target: usesScalingGroup(component) ? TARGET_POD_CLIQUE_SCALING_GROUP_CONFIG : TARGET_POD_CLIQUE_TEMPLATE_SPEC };
    case 'roles.leader':
    case 'roles.worker':
      if (!component || !isMultinode(component)) return { error: `scope ${JSON.stringify(scope)} requires a multinode component` };
      if (isInterPodGms(component)) return { error: `scope ${JSON.stringify(scope)} is not supported for inter-pod GMS components` };
      return { target: TARGET_POD_CLIQUE_TEMPLATE_SPEC };
  }
}

/** The provider-context scope of a role name, or undefined for names other than leader/worker. */
export function roleScope(roleName: string | undefined): OverrideScope | undefined {
  if (roleName === 'leader') return 'roles.leader';
  if (roleName === 'worker') return 'roles.worker';
  return undefined;
}

/** One provider override of a DGD with its place. */
export interface OverrideSite {
  readonly override: JsonMap;
  readonly path: FieldPath;
  readonly scope: OverrideScope;
  readonly component?: JsonMap;
}

/** Rows 82-86 for one override of a DGD whose workload provider is `provider`. */
export function checkProviderOverride(site: OverrideSite, provider: string, sink: ViolationSink): void {
  const { override, path } = site;
  if (provider !== PROVIDER_GROVE) {
    sink.forbidden(path, override, `requires workload provider ${JSON.stringify(PROVIDER_GROVE)}, but ${JSON.stringify(provider)} is selected`, '82');
    return;
  }
  const apiVersion = stringAt(override, 'apiVersion') ?? '';
  if (apiVersion === '') {
    sink.required(path.child('apiVersion'), 'is required', '83');
    return;
  }
  if (apiVersion !== GROVE_API_VERSION) {
    sink.notSupported(path.child('apiVersion'), apiVersion, [GROVE_API_VERSION], '83');
    return;
  }
  const expected = expectedTarget(site.scope, site.component);
  if ('error' in expected) {
    sink.forbidden(path, override, expected.error, '84');
    return;
  }
  const target = stringAt(override, 'target') ?? '';
  if (target === '') {
    sink.required(path.child('target'), 'must be defaulted from the provider context', '85');
    return;
  }
  if (target !== expected.target) {
    sink.invalid(path.child('target'), target, `must match the provider-context target ${JSON.stringify(expected.target)}`, '85');
    return;
  }
  checkOverrideValue(override.value, target, path.child('value'), sink);
}

const OWNERSHIP = 'is Dynamo-owned or not enabled for provider override';

/** Row 86: the value may only write the Grove topology constraint of its target. */
function checkOverrideValue(value: unknown, target: string, path: FieldPath, sink: ViolationSink): void {
  if (!isMap(value)) {
    sink.invalid(path, null, 'must be a JSON object', '86');
    return;
  }
  const shapeError = groveShapeError(value, target);
  if (shapeError !== undefined) {
    sink.invalid(path, null, `does not match the registered ${target} schema: ${shapeError}`, '86');
    return;
  }
  if (target === TARGET_POD_CLIQUE_SET) {
    rejectOtherKeys(value, 'spec', path, sink);
    const spec = requiredObject(value, 'spec', path, sink);
    if (!spec) return;
    rejectOtherKeys(spec, 'template', path.child('spec'), sink);
    const template = requiredObject(spec, 'template', path.child('spec'), sink);
    if (!template) return;
    rejectOtherKeys(template, 'topologyConstraint', path.child('spec', 'template'), sink);
    requiredObject(template, 'topologyConstraint', path.child('spec', 'template'), sink);
    return;
  }
  rejectOtherKeys(value, 'topologyConstraint', path, sink);
  requiredObject(value, 'topologyConstraint', path, sink);
}

function rejectOtherKeys(obj: JsonMap, allowed: string, path: FieldPath, sink: ViolationSink): void {
  for (const key of Object.keys(obj).sort()) {
    if (key !== allowed) sink.forbidden(path.child(key), obj[key], OWNERSHIP, '86');
  }
}

function requiredObject(obj: JsonMap, key: string, path: FieldPath, sink: ViolationSink): JsonMap | undefined {
  if (!Object.prototype.hasOwnProperty.call(obj, key)) {
    sink.invalid(path.child(key), null, 'is required', '86');
    return undefined;
  }
  const child = obj[key];
  if (!isMap(child)) {
    sink.invalid(path.child(key), null, 'must be a JSON object', '86');
    return undefined;
  }
  return child;
}

/**
 * Type errors in the parts of the value this release knows of the Grove type: the objects leading
 * to the topology constraint, and the constraint's own fields.
 */
function groveShapeError(value: JsonMap, target: string): string | undefined {
  let constraintParent: unknown = value;
  let where = '';
  if (target === TARGET_POD_CLIQUE_SET) {
    for (const key of ['spec', 'template']) {
      if (!isMap(constraintParent) || !has(constraintParent, key)) return undefined;
      const next: unknown = constraintParent[key];
      where = where === '' ? key : `${where}.${key}`;
      if (!isMap(next)) return `${where} must be an object`;
      constraintParent = next;
    }
  }
  if (!isMap(constraintParent) || !has(constraintParent, 'topologyConstraint')) return undefined;
  const constraint = constraintParent.topologyConstraint;
  const at = where === '' ? 'topologyConstraint' : `${where}.topologyConstraint`;
  if (!isMap(constraint)) return `${at} must be an object`;
  for (const key of ['topologyName', 'packDomain']) {
    if (has(constraint, key) && typeof constraint[key] !== 'string') return `${at}.${key} must be a string`;
  }
  if (has(constraint, 'pack')) {
    const pack = constraint.pack;
    if (!isMap(pack)) return `${at}.pack must be an object`;
    for (const key of ['required', 'preferred']) {
      if (has(pack, key) && typeof pack[key] !== 'string') return `${at}.pack.${key} must be a string`;
    }
  }
  return undefined;
}

/** Whether an override (with its resolved target) writes a Grove topology constraint (row 33). */
export function writesGroveTopology(override: JsonMap): boolean {
  const value = override.value;
  if (!isMap(value)) return false;
  const target = stringAt(override, 'target');
  if (target === TARGET_POD_CLIQUE_SET) {
    const spec = value.spec;
    const template = isMap(spec) ? spec.template : undefined;
    return isMap(template) && Object.prototype.hasOwnProperty.call(template, 'topologyConstraint');
  }
  if (target === TARGET_POD_CLIQUE_TEMPLATE_SPEC || target === TARGET_POD_CLIQUE_SCALING_GROUP_CONFIG) {
    return Object.prototype.hasOwnProperty.call(value, 'topologyConstraint');
  }
  return false;
}
