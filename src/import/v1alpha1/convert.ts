/**
 * nvidia.com/v1alpha1 DynamoGraphDeployment and DynamoComponentDeployment documents converted to
 * nvidia.com/v1beta1 as the operator's conversion webhook converts them (API `api/v1alpha1`,
 * operator main of 2026-08-21), field by field:
 *
 * - DynamoGraphDeployment `services` (a map) becomes `components` (a list in name order, each
 *   named by its map key); `envs` becomes `env`; `topologyConstraint.topologyProfile` becomes
 *   `clusterTopologyName`; the rest of the graph fields are the same.
 * - each component as `shared-spec.ts` converts it: `serviceName` → `name`, `componentType` →
 *   `type` (worker + subComponentType prefill/decode → prefill/decode), the pod fields → one
 *   `podTemplate`, `sharedMemory` → `sharedMemorySize`, a compilation-cache volume mount →
 *   `compilationCache`, `scalingAdapter.enabled` → presence, `gpuMemoryService` / `failover` /
 *   `checkpoint` → `experimental`, `multinode.leader` / `worker` → `roles`.
 * - a DynamoComponentDeployment without `serviceName` is named after the object.
 * - status: see `status.ts`.
 *
 * What v1beta1 cannot hold is kept as the webhook keeps it, in the annotations
 * `nvidia.com/dgd-spec` / `nvidia.com/dcd-spec` (Go JSON of a sparse v1alpha1 spec in an envelope,
 * see `preservation.ts`) and `nvidia.com/dgd-status` / `nvidia.com/dcd-status`. A v1alpha1
 * object that carries preserved v1beta1 data in those annotations (it was written as v1beta1)
 * gets that data back (`hub-restore.ts`).
 *
 * The v1beta1 spec and status are written as the operator's v1beta1 types write them: Go field
 * order, canonical quantities, no empty value structs (`podTemplate.metadata: {}`), no nulls.
 */
import { conversionRegistry } from './go-types';
import { GoMap, goText, goView, nonEmpty } from './go-view';
import { ConversionLoss } from './pod-parts';
import {
  DCD_SPEC_ANNOTATION, DCD_STATUS_ANNOTATION, DGD_SPEC_ANNOTATION, DGD_STATUS_ANNOTATION, envelopeText, preservedSpec, RawRecord,
} from './preservation';
import { FieldProblem, pruneNulls } from './read';
import { convertSharedSpec } from './shared-spec';
import { convertComponentStatus, convertGraphStatus } from './status';
import { stripEmptyValueStructs } from '../../go/empty-structs';
import { compareUtf8 } from '../../go/marshal';
import { isMap, JsonMap } from '../../model/json';
import { jsonRoundTrip } from '../../model/json-copy';

export const V1BETA1 = 'nvidia.com/v1beta1';

/** The parts of a converted object. */
export interface ConvertedObject {
  /** Metadata with the preservation annotations. */
  readonly metadata: JsonMap;
  /** The v1beta1 spec, in wire form. */
  readonly spec: GoMap;
  /** The v1beta1 status (when the object had one). */
  readonly status?: GoMap;
  /** The sparse v1alpha1 spec kept in the spec annotation (empty when none was written). */
  readonly savedSpec: GoMap;
  /** Data dropped on the way, with paths from the document root. */
  readonly losses: FieldProblem[];
}

/** Metadata with the preservation annotations taken out, and the preserved v1beta1 spec they held. */
function takeAnnotations(metadata: unknown, specKey: string, statusKey: string, hubType: string): { metadata: JsonMap; hub?: GoMap } {
  const meta: JsonMap = isMap(metadata) ? jsonRoundTrip(metadata) : {};
  const annotations = isMap(meta.annotations) ? meta.annotations : undefined;
  const raw = annotations?.[specKey];
  const hub = typeof raw === 'string' && raw !== '' ? preservedSpec(raw, hubType) : undefined;
  if (annotations) {
    delete annotations[specKey];
    delete annotations[statusKey];
    if (Object.keys(annotations).length === 0) delete meta.annotations;
  }
  return { metadata: meta, hub };
}

function setAnnotation(metadata: JsonMap, key: string, value: string): void {
  if (!isMap(metadata.annotations)) metadata.annotations = {};
  (metadata.annotations as JsonMap)[key] = value;
}

/** A v1beta1 value as the operator's Go type writes it (see the module comment). */
export function v1beta1Form(value: GoMap, type: string): GoMap {
  const registry = conversionRegistry();
  const out = goView(value, type);
  stripEmptyValueStructs(registry, registry.type(type), out);
  return pruneNulls(out) as GoMap;
}

/** Names of the services in the order the components are written: a preserved unsorted order first, then by name. */
function emissionOrder(services: GoMap, restored: GoMap | undefined): string[] {
  const sorted = Object.keys(services).sort(compareUtf8);
  const preserved: GoMap[] = restored?.components ?? [];
  const unsorted = preserved.some((c, i) => i > 0 && compareUtf8(preserved[i - 1].name ?? '', c.name ?? '') > 0);
  if (!unsorted) return sorted;
  const remaining = new Set(sorted);
  const out: string[] = [];
  for (const c of preserved) {
    if (!remaining.has(c.name)) continue;
    remaining.delete(c.name);
    out.push(c.name);
  }
  return [...out, ...sorted.filter(n => remaining.has(n))];
}

function lossProblems(prefix: string, losses: ConversionLoss[]): FieldProblem[] {
  return losses.map(l => ({ path: `${prefix}.${l.path}`, message: l.message }));
}

/**
 * The v1beta1 DynamoGraphDeployment spec of a v1alpha1 spec (a Go view), filling `save` with the
 * v1alpha1-only data. `restored` is a preserved v1beta1 spec, when the object carried one.
 */
export function convertGraphSpec(src: GoMap, restored: GoMap | undefined, save: GoMap, losses: FieldProblem[]): GoMap {
  const includeOriginSplits = restored === undefined;
  const dst: GoMap = {
    annotations: jsonRoundTrip(src.annotations),
    labels: jsonRoundTrip(src.labels),
    priorityClassName: src.priorityClassName,
    backendFramework: src.backendFramework,
  };
  if (src.providerOverride) dst.providerOverride = jsonRoundTrip(src.providerOverride);
  if (src.restart) {
    dst.restart = { id: src.restart.id };
    if (src.restart.strategy) dst.restart.strategy = { type: src.restart.strategy.type, order: jsonRoundTrip(src.restart.strategy.order) };
  }
  if (src.topologyConstraint) {
    dst.topologyConstraint = { clusterTopologyName: src.topologyConstraint.topologyProfile, packDomain: src.topologyConstraint.packDomain };
  }
  if (src.experimental) {
    dst.experimental = {};
    const kv = src.experimental.kvTransferPolicy;
    if (kv) {
      dst.experimental.kvTransferPolicy = {
        clusterTopologyName: kv.clusterTopologyName,
        labelKey: kv.labelKey,
        domain: kv.domain,
        enforcement: kv.enforcement,
      };
      if (kv.preferredWeight !== undefined) dst.experimental.kvTransferPolicy.preferredWeight = kv.preferredWeight;
    }
  }
  dst.env = jsonRoundTrip(src.envs);
  if (nonEmpty(src.pvcs)) save.pvcs = jsonRoundTrip(src.pvcs);
  const restoredByName = new Map<string, GoMap>();
  for (const c of restored?.components ?? []) restoredByName.set(c.name, c);
  const services: GoMap = src.services ?? {};
  if (Object.keys(services).length > 0) {
    dst.components = [];
    for (const name of emissionOrder(services, restored)) {
      const svc = services[name];
      if (svc === null || svc === undefined) {
        (save.services ??= {})[name] = null;
        continue;
      }
      const restoredComponent = restoredByName.get(name);
      const componentSave: GoMap = {};
      const componentLosses: ConversionLoss[] = [];
      const component = convertSharedSpec(svc, restoredComponent, componentSave, {
        includeOriginSplits,
        podTemplateOrigin: restoredComponent?.podTemplate !== undefined,
      }, componentLosses);
      // the services key is the component's name; a different serviceName is kept in the save
      component.name = name;
      if (svc.serviceName && svc.serviceName !== name) componentSave.serviceName = svc.serviceName;
      if (goText(componentSave, 'A1SharedSpec') !== '{}') (save.services ??= {})[name] = componentSave;
      losses.push(...lossProblems(`spec.services[${name}]`, componentLosses));
      dst.components.push(component);
    }
  }
  return dst;
}

/** A v1alpha1 DynamoGraphDeployment (metadata, and spec and status as Go views) converted. */
export function convertGraphObject(metadata: unknown, spec: GoMap, status?: GoMap): ConvertedObject {
  const taken = takeAnnotations(metadata, DGD_SPEC_ANNOTATION, DGD_STATUS_ANNOTATION, 'B1DGDSpec');
  const save: GoMap = {};
  const losses: FieldProblem[] = [];
  const converted = convertGraphSpec(spec, taken.hub, save, losses);
  const statusParts = status ? convertGraphStatus(status) : undefined;
  if (goText(save, 'A1DGDSpec') !== '{}') setAnnotation(taken.metadata, DGD_SPEC_ANNOTATION, envelopeText(save, 'A1DGDSpecEnvelope'));
  if (statusParts && goText(statusParts.save, 'A1DGDStatus') !== goText({}, 'A1DGDStatus')) {
    setAnnotation(taken.metadata, DGD_STATUS_ANNOTATION, goText(statusParts.save, 'A1DGDStatus'));
  }
  return {
    metadata: taken.metadata,
    spec: v1beta1Form(converted, 'B1DGDSpec'),
    status: statusParts ? v1beta1Form(statusParts.status, 'B1DGDStatus') : undefined,
    savedSpec: save,
    losses,
  };
}

/** A v1alpha1 DynamoComponentDeployment (metadata, and spec and status as Go views) converted. */
export function convertComponentObject(metadata: unknown, spec: GoMap, status?: GoMap): ConvertedObject {
  const taken = takeAnnotations(metadata, DCD_SPEC_ANNOTATION, DCD_STATUS_ANNOTATION, 'DynamoComponentDeploymentSpec');
  const objectName = typeof taken.metadata.name === 'string' ? taken.metadata.name : '';
  const restored = taken.hub;
  const hubOrigin = restored !== undefined;
  const save: GoMap = {};
  const componentLosses: ConversionLoss[] = [];
  const ctx = { includeOriginSplits: !hubOrigin, podTemplateOrigin: restored?.podTemplate !== undefined };
  const dst = convertSharedSpec(spec, restored, save, ctx, componentLosses);
  const converted: GoMap = { backendFramework: spec.backendFramework, ...dst };
  // v1beta1 names every DCD: the object's name stands in for a missing serviceName
  if (!converted.name) converted.name = objectName;
  if (restored !== undefined && !restored.name && converted.name === objectName) converted.name = '';
  const emptyServiceName = !spec.serviceName && objectName !== '' && converted.name === objectName;
  const saveSpec = (!hubOrigin && converted.podTemplate !== undefined) || emptyServiceName || goText(save, 'A1DCDSpec') !== '{}';
  const statusParts = status ? convertComponentStatus(status) : undefined;
  if (saveSpec) {
    const records: RawRecord[] = emptyServiceName ? [{ path: 'serviceName', nil: true }] : [];
    setAnnotation(taken.metadata, DCD_SPEC_ANNOTATION, envelopeText(save, 'A1DCDSpecEnvelope', records));
  }
  if (statusParts && goText(statusParts.save, 'A1DCDStatus') !== goText({}, 'A1DCDStatus')) {
    setAnnotation(taken.metadata, DCD_STATUS_ANNOTATION, goText(statusParts.save, 'A1DCDStatus'));
  }
  return {
    metadata: taken.metadata,
    spec: v1beta1Form(converted, 'DynamoComponentDeploymentSpec'),
    status: statusParts ? v1beta1Form(statusParts.status, 'B1DCDStatus') : undefined,
    savedSpec: save,
    losses: lossProblems('spec', componentLosses),
  };
}
