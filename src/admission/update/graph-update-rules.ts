/**
 * Update-only rules of a DynamoGraphDeployment (rows 7, 8, 13, 18, 27, 34, 40, 88 at the root,
 * 97, 98) and of a standalone DynamoComponentDeployment (row 13); each matched component is then
 * checked by component-update-rules.
 *
 * Internal module.
 */
import { componentsByName } from './admit-update';
import { checkComponentUpdate, checkOverrideUpdate, FIELD_IMMUTABLE } from './component-update-rules';
import { mayMaterializeProvider, UpdateOptions } from './update-options';
import { canonicalQuantity } from '../../go/quantity';
import { compareStrings, has, intAt, JsonMap, mapAt, stringAt } from '../../model/json';
import { ANNOTATION_GPU_POWER_LIMIT, ANNOTATION_WORKLOAD_PROVIDER } from '../../model/well-known';
import { componentEntries } from '../component-shape';
import { FieldPath } from '../field-path';
import { mainContainer } from '../main-container';
import { rulesHave } from '../operator-rules';
import { DGD_KIND_NAME } from '../validate';
import { ViolationSink } from '../violation';

const SPEC = FieldPath.of('spec');
const DCD_KIND = 'DynamoComponentDeployment';
const GPU_RESOURCE = 'nvidia.com/gpu';
const ROLLING_PHASES = ['Pending', 'InProgress'];

/** Every update-only rule of a DGD, on the admitted old and new objects. */
export function checkGraphUpdate(next: JsonMap, previous: JsonMap, options: UpdateOptions, sink: ViolationSink): void {
  checkProviderAnnotation(next, previous, options, sink);
  const spec = mapAt(next, 'spec');
  const oldSpec = mapAt(previous, 'spec');

  // row 88 (root scope)
  const override = mapAt(spec, 'providerOverride');
  const oldOverride = mapAt(oldSpec, 'providerOverride');
  if (override && oldOverride) checkOverrideUpdate(override, oldOverride, SPEC.child('providerOverride'), sink);

  checkComponentSet(spec, oldSpec, sink);
  const oldComponents = componentsByName(oldSpec);
  for (const { component, index } of componentEntries(spec)) {
    const old = oldComponents.get(stringAt(component, 'name') ?? '');
    if (!old) continue;
    const path = SPEC.child('components').index(index);
    checkComponentUpdate({ owner: 'DGD', ownerKind: DGD_KIND_NAME, next: component, previous: old, path, options }, sink);
    checkPowerContract(component, old, path, options, sink);
  }

  checkBackendFramework(spec, oldSpec, sink);
  checkGraphTopologyConstraint(spec, oldSpec, sink);
  checkKvTransferPolicy(spec, oldSpec, sink);
  checkRestartId(spec, oldSpec, mapAt(previous, 'status'), sink);
}

/** Every update-only rule of a standalone DCD. */
export function checkComponentDeploymentUpdate(next: JsonMap, previous: JsonMap, options: UpdateOptions, sink: ViolationSink): void {
  const spec = mapAt(next, 'spec') ?? {};
  const oldSpec = mapAt(previous, 'spec') ?? {};
  checkBackendFramework(spec, oldSpec, sink);
  checkComponentUpdate({ owner: 'DCD', ownerKind: DCD_KIND, next: spec, previous: oldSpec, path: SPEC, options }, sink);
}

/** Rows 7 and 8: the workload-provider annotation is materialised by the operator and then frozen. */
function checkProviderAnnotation(next: JsonMap, previous: JsonMap, options: UpdateOptions, sink: ViolationSink): void {
  const path = FieldPath.of('metadata', 'annotations').key(ANNOTATION_WORKLOAD_PROVIDER);
  const annotations = mapAt(mapAt(next, 'metadata'), 'annotations');
  const oldAnnotations = mapAt(mapAt(previous, 'metadata'), 'annotations');
  const value = stringAt(annotations, ANNOTATION_WORKLOAD_PROVIDER);
  const oldValue = stringAt(oldAnnotations, ANNOTATION_WORKLOAD_PROVIDER);
  if (oldValue === undefined && value !== undefined && !mayMaterializeProvider(options)) {
    sink.forbidden(path, value, 'may only be materialized by the Dynamo operator', '7');
  }
  if (oldValue !== undefined && value !== oldValue) {
    sink.invalid(path, value ?? null, FIELD_IMMUTABLE, '8');
  }
}

/** Row 13 (DGD and DCD). */
function checkBackendFramework(spec: JsonMap | undefined, oldSpec: JsonMap | undefined, sink: ViolationSink): void {
  const value = stringAt(spec, 'backendFramework') ?? '';
  if (value !== (stringAt(oldSpec, 'backendFramework') ?? '')) {
    sink.invalid(SPEC.child('backendFramework'), value, 'is immutable and cannot be changed after creation', '13');
  }
}

/** Row 18: no component is added or removed (names compared exactly). */
function checkComponentSet(spec: JsonMap | undefined, oldSpec: JsonMap | undefined, sink: ViolationSink): void {
  const names = [...componentsByName(spec).keys()];
  const oldNames = [...componentsByName(oldSpec).keys()];
  const added = names.filter((n) => !oldNames.includes(n)).sort(compareStrings);
  const removed = oldNames.filter((n) => !names.includes(n)).sort(compareStrings);
  if (added.length === 0 && removed.length === 0) return;
  const parts: string[] = [];
  if (added.length > 0) parts.push(`components added: [${added.join(' ')}]`);
  if (removed.length > 0) parts.push(`components removed: [${removed.join(' ')}]`);
  sink.forbidden(
    SPEC.child('components'),
    spec?.components,
    `component topology is immutable and cannot be modified after creation: ${parts.join(', ')}`,
    '18',
  );
}

/** Row 34: clusterTopologyName and packDomain of spec.topologyConstraint are frozen. */
function checkGraphTopologyConstraint(spec: JsonMap | undefined, oldSpec: JsonMap | undefined, sink: ViolationSink): void {
  const next = mapAt(spec, 'topologyConstraint');
  const previous = mapAt(oldSpec, 'topologyConstraint');
  if (!next && !previous) return;
  const same = next && previous &&
    (stringAt(next, 'clusterTopologyName') ?? '') === (stringAt(previous, 'clusterTopologyName') ?? '') &&
    (stringAt(next, 'packDomain') ?? '') === (stringAt(previous, 'packDomain') ?? '');
  if (same) return;
  sink.invalid(
    SPEC.child('topologyConstraint'),
    next ?? null,
    'is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoGraphDeployment to change topology constraints',
    '34',
  );
}

/** Row 40: the KV transfer policy is frozen (enforcement compared with its default `required`). */
function checkKvTransferPolicy(spec: JsonMap | undefined, oldSpec: JsonMap | undefined, sink: ViolationSink): void {
  const next = mapAt(mapAt(spec, 'experimental'), 'kvTransferPolicy');
  const previous = mapAt(mapAt(oldSpec, 'experimental'), 'kvTransferPolicy');
  if (!next && !previous) return;
  if (next && previous && samePolicy(next, previous)) return;
  sink.invalid(
    SPEC.child('experimental', 'kvTransferPolicy'),
    next ?? null,
    'is immutable and cannot be added, removed, or changed after creation; delete and recreate the DynamoGraphDeployment to change the KV transfer policy',
    '40',
  );
}

function samePolicy(a: JsonMap, b: JsonMap): boolean {
  const text = (policy: JsonMap, key: string): string => stringAt(policy, key) ?? '';
  const enforcement = (policy: JsonMap): string => text(policy, 'enforcement') || 'required';
  const weight = (policy: JsonMap): unknown => (has(policy, 'preferredWeight') ? policy.preferredWeight : null);
  return text(a, 'clusterTopologyName') === text(b, 'clusterTopologyName') &&
    text(a, 'labelKey') === text(b, 'labelKey') &&
    text(a, 'domain') === text(b, 'domain') &&
    enforcement(a) === enforcement(b) &&
    weight(a) === weight(b);
}

/** Row 27: restart.id is frozen while the old object's rolling update is pending or in progress. */
function checkRestartId(spec: JsonMap | undefined, oldSpec: JsonMap | undefined, oldStatus: JsonMap | undefined, sink: ViolationSink): void {
  const phase = stringAt(mapAt(oldStatus, 'rollingUpdate'), 'phase');
  if (phase === undefined || !ROLLING_PHASES.includes(phase)) return;
  const id = stringAt(mapAt(spec, 'restart'), 'id') ?? '';
  if (id === (stringAt(mapAt(oldSpec, 'restart'), 'id') ?? '')) return;
  sink.invalid(SPEC.child('restart', 'id'), id, `cannot be changed while a rolling update is ${phase}`, '27');
}

/** The GPU power-limit annotation of a component's pod template. */
function powerLimit(component: JsonMap): string | undefined {
  return stringAt(mapAt(mapAt(mapAt(component, 'podTemplate'), 'metadata'), 'annotations'), ANNOTATION_GPU_POWER_LIMIT);
}

/** The main container's `nvidia.com/gpu` (limits, else requests) and where it is, as row 98 compares it. */
interface GpuCount {
  readonly value?: string;
  readonly path: FieldPath;
}

function gpuCount(component: JsonMap, path: FieldPath): GpuCount {
  const containersPath = path.child('podTemplate', 'spec', 'containers');
  const main = mainContainer(component);
  if (!main) return { path: containersPath };
  const resourcesPath = containersPath.index(main.index).child('resources');
  const resources = mapAt(main.container, 'resources');
  for (const bucket of ['limits', 'requests']) {
    const quantities = mapAt(resources, bucket);
    if (quantities && has(quantities, GPU_RESOURCE)) {
      return { value: quantityText(quantities[GPU_RESOURCE]), path: resourcesPath.child(bucket).key(GPU_RESOURCE) };
    }
  }
  return { path: resourcesPath };
}

function quantityText(raw: unknown): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') return JSON.stringify(raw);
  try {
    return canonicalQuantity(raw);
  } catch {
    return String(raw);
  }
}

/** The node count the operator compares: `multinode.nodeCount` of a multinode component, else 1. */
function numberOfNodes(component: JsonMap): number {
  const multinode = mapAt(component, 'multinode');
  const count = multinode ? intAt(multinode, 'nodeCount') : undefined;
  return multinode ? (count ?? 0) : 1;
}

/**
 * Rows 97 and 98: the power-limit annotation and, while the old object has it, the GPU count; for
 * operators without row 69 (`OPERATOR_GATES.nodeCountImmutable`) also the node count.
 */
function checkPowerContract(next: JsonMap, previous: JsonMap, path: FieldPath, options: UpdateOptions, sink: ViolationSink): void {
  const limit = powerLimit(next);
  const oldLimit = powerLimit(previous);
  if (limit !== oldLimit) {
    const annotationPath = path.child('podTemplate', 'metadata', 'annotations').key(ANNOTATION_GPU_POWER_LIMIT);
    sink.invalid(annotationPath, limit ?? null, FIELD_IMMUTABLE, '97');
  }
  if (oldLimit === undefined) return;
  const gpus = gpuCount(next, path);
  const oldGpus = gpuCount(previous, path);
  if (gpus.value !== oldGpus.value) sink.invalid(gpus.path, gpus.value ?? null, FIELD_IMMUTABLE, '98');
  if (rulesHave(options, 'nodeCountImmutable')) return;
  const nodes = numberOfNodes(next);
  if (nodes !== numberOfNodes(previous)) sink.invalid(path.child('multinode', 'nodeCount'), nodes, FIELD_IMMUTABLE, '98');
}
