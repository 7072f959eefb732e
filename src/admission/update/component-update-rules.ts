/**
 * Update-only rules on one component, old against new: a DGD `spec.components[i]` matched by name
 * with the stored component of the same name, or a standalone DCD `spec`.
 *
 * Rows 48 and 50 are the runtime-version and EPP-contract ratchets: on UPDATE the create-time
 * checks of rows 46, 47 and 49 are not run on the new object; they run here instead and fire only
 * when the relevant inputs changed.
 *
 * Internal module.
 */
import { canModifyScaledReplicas, UpdateOptions } from './update-options';
import { boolAt, has, intAt, isMap, jsonEqual, JsonMap, listAt, mapAt, stringAt } from '../../model/json';
import { compareVersions, NATIVE_RUST_EPP_VERSION, resolveRuntimeVersion, runtimeVersionOverrideRequired } from '../../model/runtime-version';
import { componentType, effectiveMode, failover, gpuMemoryService, isMultinode, MODE_INTER_POD } from '../component-shape';
import { FieldPath } from '../field-path';
import { mainContainer } from '../main-container';
import { rulesHave } from '../operator-rules';
import { RUNTIME_VERSION_OVERRIDE_REQUIRED, standaloneNeedsRuntimeVersion } from '../runtime-version-rules';
import { ViolationSink } from '../violation';

/** The standard Kubernetes immutability message (`apivalidation.FieldImmutableErrorMsg`). */
export const FIELD_IMMUTABLE = 'field is immutable';

/** One component pair. */
export interface ComponentUpdate {
  readonly owner: 'DGD' | 'DCD';
  /** `DynamoGraphDeployment` or `DynamoComponentDeployment`, as named in the messages. */
  readonly ownerKind: string;
  readonly next: JsonMap;
  readonly previous: JsonMap;
  /** Path of the new component. */
  readonly path: FieldPath;
  readonly options: UpdateOptions;
}

/** Every update-only rule on one component. */
export function checkComponentUpdate(update: ComponentUpdate, sink: ViolationSink): void {
  const { next, previous, path } = update;
  // row 88 (component scope)
  const nextOverride = mapAt(next, 'providerOverride');
  const previousOverride = mapAt(previous, 'providerOverride');
  if (nextOverride && previousOverride) checkOverrideUpdate(nextOverride, previousOverride, path.child('providerOverride'), sink);

  checkNodeTopology(update, sink);
  checkScaledReplicas(update, sink);
  checkTopologyConstraint(update, sink);
  checkExperimental(update, sink);
  checkRuntimeVersionRatchet(update, sink);
  checkEppContractRatchet(update, sink);
}

/** Row 88: apiVersion and target of an override present in both objects do not change. */
export function checkOverrideUpdate(next: JsonMap, previous: JsonMap, path: FieldPath, sink: ViolationSink): void {
  const nextApiVersion = stringAt(next, 'apiVersion') ?? '';
  if (nextApiVersion !== (stringAt(previous, 'apiVersion') ?? '')) {
    sink.invalid(path.child('apiVersion'), nextApiVersion, FIELD_IMMUTABLE, '88');
  }
  const nextTarget = stringAt(next, 'target') ?? '';
  if (nextTarget !== (stringAt(previous, 'target') ?? '')) {
    sink.invalid(path.child('target'), nextTarget, FIELD_IMMUTABLE, '88');
  }
}

/** Rows 68, 69, 75, 76 (and row 88 for role overrides). */
function checkNodeTopology(update: ComponentUpdate, sink: ViolationSink): void {
  const { next, previous, path } = update;
  if (isMultinode(next) !== isMultinode(previous)) {
    sink.invalid(path.child('multinode'), next.multinode ?? null, 'cannot change node topology between single-node and multi-node after creation', '68');
    return;
  }
  const nextMultinode = mapAt(next, 'multinode');
  const previousMultinode = mapAt(previous, 'multinode');
  // older operators keep the node count only of power-annotated graph components (row 98)
  if (nextMultinode && previousMultinode && rulesHave(update.options, 'nodeCountImmutable')) {
    const nextCount = intAt(nextMultinode, 'nodeCount');
    if (nextCount !== intAt(previousMultinode, 'nodeCount')) {
      sink.invalid(path.child('multinode', 'nodeCount'), nextMultinode.nodeCount ?? null, FIELD_IMMUTABLE, '69');
    }
  }
  checkRolesUpdate(update, sink);
}

/** Rows 75 and 76. */
function checkRolesUpdate(update: ComponentUpdate, sink: ViolationSink): void {
  const { next, previous } = update;
  const rolesPath = update.path.child('roles');
  const nextRoles = listAt(next, 'roles');
  const previousRoles = listAt(previous, 'roles');
  if ((nextRoles === undefined) !== (previousRoles === undefined)) {
    const [explicit, implicit] = nextRoles !== undefined ? [next, previous] : [previous, next];
    if (mapAt(explicit, 'multinode') && mapAt(implicit, 'multinode') && rolesMatchImplicitLayout(explicit)) return;
    sink.forbidden(
      rolesPath,
      next.roles ?? null,
      'cannot switch between implicit and explicit roles while changing the resolved role model; make the equivalent role structure explicit first',
      '75',
    );
    return;
  }
  if (nextRoles === undefined || previousRoles === undefined) return;
  const previousByName = new Map<string, JsonMap>();
  for (const role of previousRoles) {
    const name = stringAt(role, 'name');
    if (isMap(role) && name !== undefined && !previousByName.has(name)) previousByName.set(name, role);
  }
  const nextNames = new Set<string>();
  nextRoles.forEach((role, index) => {
    const name = stringAt(role, 'name');
    if (!isMap(role) || name === undefined) return;
    nextNames.add(name);
    const previousRole = previousByName.get(name);
    const nextOverride = mapAt(role, 'providerOverride');
    const previousOverride = mapAt(previousRole, 'providerOverride');
    if (nextOverride && previousOverride) {
      checkOverrideUpdate(nextOverride, previousOverride, rolesPath.index(index).child('providerOverride'), sink);
    }
  });
  const sameNames = nextNames.size === previousByName.size && [...previousByName.keys()].every((name) => nextNames.has(name));
  if (!sameNames) sink.invalid(rolesPath, nextRoles, 'role names are immutable after creation', '76');
}

/**
 * Whether explicit roles say no more than the implicit multinode layout: exactly `leader` and
 * `worker`, once each, no role override, replicas unset or equal to 1 and nodeCount-1.
 */
function rolesMatchImplicitLayout(component: JsonMap): boolean {
  const roles = listAt(component, 'roles') ?? [];
  if (!mapAt(component, 'multinode') || roles.length !== 2) return false;
  const seen = new Set<string>();
  for (const role of roles) {
    const name = stringAt(role, 'name') ?? '';
    if (!isMap(role) || seen.has(name) || has(role, 'providerOverride')) return false;
    seen.add(name);
    const expected = name === 'leader' ? 1 : name === 'worker' ? nodeCountOf(component) - 1 : undefined;
    if (expected === undefined) return false;
    if (has(role, 'replicas') && role.replicas !== expected) return false;
  }
  return true;
}

function nodeCountOf(component: JsonMap): number {
  return intAt(mapAt(component, 'multinode'), 'nodeCount') ?? 0;
}

/** Row 66: replicas of a component with a scaling adapter belong to the adapter. */
function checkScaledReplicas(update: ComponentUpdate, sink: ViolationSink): void {
  const { next, previous } = update;
  if (update.owner !== 'DGD') return; // standalone DCDs may change replicas directly
  if (!has(next, 'scalingAdapter') && !has(previous, 'scalingAdapter')) return;
  if (canModifyScaledReplicas(update.options)) return;
  if (replicasOf(next) === replicasOf(previous)) return;
  sink.forbidden(
    update.path.child('replicas'),
    next.replicas ?? null,
    'cannot be modified directly when scaling adapter is enabled; scale or update the related DynamoGraphDeploymentScalingAdapter instead',
    '66',
  );
}

function replicasOf(component: JsonMap): unknown {
  return has(component, 'replicas') ? component.replicas : 1;
}

/** Row 106: the component topology constraint (its pack domain) cannot be added, removed or changed. */
function checkTopologyConstraint(update: ComponentUpdate, sink: ViolationSink): void {
  const next = mapAt(update.next, 'topologyConstraint');
  const previous = mapAt(update.previous, 'topologyConstraint');
  if (!next && !previous) return;
  if (next && previous && stringAt(next, 'packDomain') === stringAt(previous, 'packDomain')) return;
  sink.invalid(
    update.path.child('topologyConstraint'),
    next ?? null,
    `is immutable and cannot be added, removed, or changed after creation; delete and recreate the ${update.ownerKind} to change topology constraints`,
    '106',
  );
}

function isInterPodFailover(component: JsonMap): boolean {
  const spec = failover(component);
  return spec !== undefined && effectiveMode(stringAt(spec, 'mode')) === MODE_INTER_POD;
}

function isInterPodGms(component: JsonMap): boolean {
  const spec = gpuMemoryService(component);
  return spec !== undefined && effectiveMode(stringAt(spec, 'mode')) === MODE_INTER_POD;
}

function forcesScalingGroup(component: JsonMap): boolean {
  return boolAt(mapAt(mapAt(component, 'experimental'), 'grove'), 'forceScalingGroup') === true;
}

/** Effective shadow count of a failover spec: absent or 0 means 1. */
function effectiveNumShadows(component: JsonMap): number {
  const shadows = intAt(failover(component), 'numShadows') ?? 0;
  return shadows === 0 ? 1 : shadows;
}

/** Rows 119, 127, 128, 130. */
function checkExperimental(update: ComponentUpdate, sink: ViolationSink): void {
  const { next, previous, ownerKind } = update;
  const path = update.path.child('experimental');
  const recreate = `delete and recreate the ${ownerKind}`;
  const gmsToggled = `the inter-pod GMS layout cannot be toggled after creation; ${recreate}`;
  const failoverToggled = `inter-pod GMS failover cannot be toggled after creation; ${recreate}`;
  const forceToggled = `cannot be toggled after creation; ${recreate} to change it`;

  const experimental = mapAt(next, 'experimental');
  if (!experimental) {
    // the whole block was removed (or never there): only the old opt-ins can be lost
    if (isInterPodGms(previous)) sink.invalid(path.child('gpuMemoryService', 'mode'), null, gmsToggled, '119');
    if (isInterPodFailover(previous)) sink.invalid(path.child('failover'), null, failoverToggled, '127');
    if (forcesScalingGroup(previous)) sink.invalid(path.child('grove', 'forceScalingGroup'), null, forceToggled, '130');
    return;
  }
  if (isInterPodGms(next) !== isInterPodGms(previous)) {
    const mode = stringAt(gpuMemoryService(next), 'mode') ?? '';
    sink.invalid(path.child('gpuMemoryService', 'mode'), mode, gmsToggled, '119');
  }
  if (isInterPodFailover(next) !== isInterPodFailover(previous)) {
    sink.invalid(path.child('failover'), failover(next) ?? null, failoverToggled, '127');
  } else if (isInterPodFailover(next) && effectiveNumShadows(next) !== effectiveNumShadows(previous)) {
    const shadows = failover(next)?.numShadows ?? null;
    sink.invalid(path.child('failover', 'numShadows'), shadows, `is immutable for inter-pod GMS failover; ${recreate} to change it`, '128');
  }
  const grove = mapAt(experimental, 'grove');
  if (grove) {
    const forced = boolAt(grove, 'forceScalingGroup') === true;
    if (forced !== forcesScalingGroup(previous)) sink.invalid(path.child('grove', 'forceScalingGroup'), forced, forceToggled, '130');
  } else if (forcesScalingGroup(previous)) {
    sink.invalid(path.child('grove', 'forceScalingGroup'), null, forceToggled, '130');
  }
}

/** The main container image and the path rows 46/48 report it at. */
function mainImage(component: JsonMap, path: FieldPath): { image: string; path: FieldPath } {
  const containersPath = path.child('podTemplate', 'spec', 'containers');
  const main = mainContainer(component);
  if (!main) return { image: '', path: containersPath };
  return { image: stringAt(main.container, 'image') ?? '', path: containersPath.index(main.index).child('image') };
}

/**
 * Row 48: the runtime-version ratchet. Removing a main image that the old object had is
 * `Required`; a missing runtimeVersionOverride is reported only when the image or the override
 * changed (standalone DCDs other than EPP may omit it, as on create).
 */
function checkRuntimeVersionRatchet(update: ComponentUpdate, sink: ViolationSink): void {
  const { next, previous, path } = update;
  const main = mainContainer(next);
  // an image of the wrong type is a structural error already
  if (main && has(main.container, 'image') && typeof main.container.image !== 'string') return;
  const nextImage = mainImage(next, path);
  const previousImage = mainImage(previous, path).image;
  if (nextImage.image === '') {
    if (previousImage !== '') sink.required(nextImage.path, 'is required', '48');
    return;
  }
  if (update.owner === 'DCD' && !standaloneNeedsRuntimeVersion(next, update.options)) return;
  const override = stringAt(next, 'runtimeVersionOverride') ?? '';
  if (!runtimeVersionOverrideRequired(nextImage.image, override)) return;
  if (nextImage.image === previousImage && override === (stringAt(previous, 'runtimeVersionOverride') ?? '')) return;
  sink.required(path.child('runtimeVersionOverride'), RUNTIME_VERSION_OVERRIDE_REQUIRED, '48');
}

/** What decides the EPP runtime contract of a component (row 49). */
interface EppContract {
  readonly type: string;
  readonly image: string;
  readonly override: string;
  readonly hasEppConfig: boolean;
}

function eppContract(component: JsonMap, path: FieldPath): EppContract {
  return {
    type: componentType(component),
    image: mainImage(component, path).image,
    override: stringAt(component, 'runtimeVersionOverride') ?? '',
    hasEppConfig: has(component, 'eppConfig'),
  };
}

/**
 * Row 50: the EPP runtime-contract ratchet. A violation of row 49 is tolerated only when type,
 * image, override, eppConfig presence and the eppConfig value are all unchanged.
 */
function checkEppContractRatchet(update: ComponentUpdate, sink: ViolationSink): void {
  // older operators have no runtime contract: row 51 runs on the new object instead
  if (!rulesHave(update.options, 'eppRuntimeContract')) return;
  const { next, previous, path } = update;
  const contract = eppContract(next, path);
  if (contract.type !== 'epp') return;
  const version = resolveRuntimeVersion(contract.image, contract.override === '' ? undefined : contract.override);
  if (version === undefined) return;
  const eppConfigPath = path.child('eppConfig');
  const native = compareVersions(version, NATIVE_RUST_EPP_VERSION) >= 0;
  if (native === contract.hasEppConfig) {
    const old = eppContract(previous, path);
    const unchanged = old.type === contract.type && old.image === contract.image && old.override === contract.override &&
      old.hasEppConfig === contract.hasEppConfig && jsonEqual(next.eppConfig ?? null, previous.eppConfig ?? null);
    if (unchanged) return;
    if (native) {
      sink.forbidden(eppConfigPath, next.eppConfig, 'must be omitted for native Rust EPP images with runtime version 1.5.0 or later', '50');
    } else {
      sink.required(eppConfigPath, 'is required for legacy Go EPP images with runtime version earlier than 1.5.0', '50');
    }
  }
}
