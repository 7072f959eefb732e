/**
 * The defaulting a new object goes through before it is validated and stored: CRD schema defaults
 * (API server, DEF-CRD rows, generated from the CRDs) and the mutating webhooks (DEF-WH rows),
 * applied to a copy. The render engine admits graphs through the same functions.
 *
 * Internal module.
 */
import { componentEntries, isMultinode, nodeCount } from './component-shape';
import { admittingOperator, ValidateOptions } from './options';
import { expectedTarget, GROVE_API_VERSION, OverrideScope, roleScope } from './provider-override-rules';
import { applyStoredDefaults } from './stored-defaults';
import { has, isMap, JsonMap, mapAt, stringAt } from '../model/json';
import { copyJson } from '../model/json-copy';
import { ANNOTATION_ENABLE_GROVE, ANNOTATION_ORIGIN_VERSION, ANNOTATION_WORKLOAD_PROVIDER, PROVIDER_COMPONENT, PROVIDER_GROVE } from '../model/well-known';

/** Sets `obj[key] = value` when `obj` is an object whose `key` is absent or null. */
function setDefault(obj: unknown, key: string, value: unknown): void {
  if (isMap(obj) && !has(obj, key)) obj[key] = value;
}

/** The workload provider the DGD defaulting webhook writes on create (row 9). */
export function createTimeProvider(doc: JsonMap, options: ValidateOptions): string {
  const enableGrove = stringAt(mapAt(mapAt(doc, 'metadata'), 'annotations'), ANNOTATION_ENABLE_GROVE);
  return admittingOperator(options).groveAvailable && (enableGrove ?? '').toLowerCase() !== 'false' ? PROVIDER_GROVE : PROVIDER_COMPONENT;
}

/** Row 87: a Grove override without a target gets the one its context resolves to. */
function defaultOverrideTarget(override: unknown, provider: string, scope: OverrideScope, component: JsonMap | undefined): void {
  if (!isMap(override) || provider !== PROVIDER_GROVE) return;
  if ((stringAt(override, 'target') ?? '') !== '') return;
  if (stringAt(override, 'apiVersion') !== GROVE_API_VERSION) return;
  const expected = expectedTarget(scope, component);
  if ('target' in expected) override.target = expected.target;
}

/**
 * Which pass of the defaulting webhook runs: `create` decides the workload provider and writes it
 * (row 9) with the origin version (10); `update` writes no annotation and reads the provider from
 * the object's workload-provider annotation ('' when it has none).
 */
export type DefaultingMode = 'create' | 'update';

/**
 * A copy of a DynamoGraphDeployment as the validating webhook sees it: CRD defaults, the
 * workload-provider annotation (row 9, create), override targets (87), replicas (60), role
 * replicas (74), minAvailable for Grove (65), and the origin-version annotation (10, create).
 * `provider` is the workload provider the defaulting ran with.
 */
export function defaultGraphDeployment(input: JsonMap, options: ValidateOptions, mode: DefaultingMode = 'create'): { doc: JsonMap; provider: string } {
  const doc = copyJson(input);
  applyStoredDefaults(doc);
  const spec = mapAt(doc, 'spec');

  // mutating webhook
  const provider = mode === 'create' ? createTimeProvider(doc, options) : stringAt(mapAt(mapAt(doc, 'metadata'), 'annotations'), ANNOTATION_WORKLOAD_PROVIDER) ?? '';
  const metadata = mapAt(doc, 'metadata');
  if (metadata && mode === 'create') {
    setDefault(metadata, 'annotations', {});
    const annotations = mapAt(metadata, 'annotations');
    if (annotations) {
      annotations[ANNOTATION_WORKLOAD_PROVIDER] = provider;
      setDefault(annotations, ANNOTATION_ORIGIN_VERSION, admittingOperator(options).version);
    }
  }
  defaultOverrideTarget(spec?.providerOverride, provider, 'root', undefined);
  for (const { component } of componentEntries(spec)) {
    setDefault(component, 'replicas', 1);
    if (isMultinode(component) && Array.isArray(component.roles)) {
      for (const role of component.roles) {
        const name = stringAt(role, 'name');
        if (name === 'leader') setDefault(role, 'replicas', 1);
        if (name === 'worker') setDefault(role, 'replicas', nodeCount(component) - 1);
      }
    }
    if (provider === PROVIDER_GROVE) setDefault(component, 'minAvailable', 1);
    defaultOverrideTarget(component.providerOverride, provider, 'component', component);
    if (Array.isArray(component.roles)) {
      for (const role of component.roles) {
        const scope = roleScope(stringAt(role, 'name'));
        if (scope && isMap(role)) defaultOverrideTarget(role.providerOverride, provider, scope, component);
      }
    }
  }
  return { doc, provider };
}

/**
 * A copy of a new standalone DynamoComponentDeployment as the validating webhook sees it: CRD
 * defaults and `spec.name` from `metadata.name` (row 42).
 */
export function defaultComponentDeployment(input: JsonMap): JsonMap {
  const doc = copyJson(input);
  applyStoredDefaults(doc);
  const spec = mapAt(doc, 'spec');
  if (spec) {
    const metadataName = stringAt(mapAt(doc, 'metadata'), 'name') ?? '';
    if ((stringAt(spec, 'name') ?? '') === '' && !(has(spec, 'name') && typeof spec.name !== 'string') && metadataName !== '') {
      spec.name = metadataName;
    }
  }
  return doc;
}
