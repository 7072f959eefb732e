/**
 * Admission of a DynamoGraphDeploymentRequest on create, in the API server's order: the CRD's
 * structural defaults, the operator's DGDR defaulting webhook (spec.image), the CRD schema
 * (crds/nvidia.com_dynamographdeploymentrequests.yaml, compiled from
 * src/dgdr/crd-schema.ts; the CRD has no CEL rules), then the operator's DGDR
 * validating webhook. Rules from ai-dynamo/dynamo `deploy/operator/internal/webhook/defaulting/
 * dynamographdeploymentrequest_handler.go` and `internal/webhook/validation/
 * dynamographdeploymentrequest.go` (+ `_helpers.go`).
 *
 * Internal module.
 */
import { isDeepStrictEqual } from 'util';
import { DGDR_V1BETA1_SPEC_SCHEMA } from './crd-schema';
import { DGDR_GO_TYPES, DgdrJson, sortedKeys } from './model';
import { dns1123SubdomainErrors } from '../admission/dns-names';
import { FieldPath } from '../admission/field-path';
import { customResourceMetaRecords } from '../admission/object-meta';
import { checkCompiled, CompiledSchema, compileCrdSchema } from '../admission/structural/crd';
import { crdJsonSchema } from '../admission/structural/crd-json-schema';
import { JsonSchema } from '../admission/structural/json-schema';
import { registerK8sSchemas } from '../admission/structural/k8s-json-schema';
import { attachObject, ViolationSink } from '../admission/violation';
import { goJsonValue } from '../go/value';
import { isMap, JsonMap } from '../model/json';
import { copyJson } from '../model/json-copy';
import { OperatorSettings } from '../model/operator-settings';
import { parseImageVersion } from '../model/runtime-version';
import { Violation } from '../model/violation-report';

/** Rule ids of the DGDR rules (the structural ones are `schema`). */
export const DGDR_RULES = {
  /** The validating webhook: `spec.hardware` is required while GPU discovery is off. */
  hardware: 'dgdr-hardware',
  /** The validating webhook: `searchStrategy: thorough` needs a specific backend. */
  searchStrategy: 'dgdr-search-strategy',
  /** The validating webhook: an image without a semantic-version tag needs `runtimeVersionOverride`. */
  runtimeVersionOverride: 'dgdr-runtime-version-override',
  /** The API server: `metadata` of the request. */
  metadata: 'apiserver',
  /** The CRD schema. */
  schema: 'schema',
  /** The validating webhook on update: no spec change once profiling has started. */
  immutable: 'dgdr-immutable',
} as const;

/** The rule ids of the operator's DGDR validating webhook, in its order (documented in docs/admission-rules.md). */
export const DGDR_WEBHOOK_RULES = {
  hardware: DGDR_RULES.hardware,
  searchStrategy: DGDR_RULES.searchStrategy,
  runtimeVersionOverride: DGDR_RULES.runtimeVersionOverride,
  immutable: DGDR_RULES.immutable,
} as const;

/** The image the operator's defaulting webhook puts in `spec.image` when a DGDR is created without one. */
export const DEFAULT_PROFILER_REPOSITORY = 'nvcr.io/nvidia/ai-dynamo/dynamo-planner';

/** The DGDR-specific operator settings (flags and configuration the engine's settings do not carry). */
export interface DgdrOperatorSettings {
  /** `--dgdr-default-image`: put into spec.image when unset; empty derives `dynamo-planner:<operator version>`. */
  readonly dgdrDefaultImage: string;
  /** The operator's GPUDiscovery gate: on cluster-wide, else `gpu.discoveryEnabled` (default true). */
  readonly gpuDiscoveryEnabled: boolean;
  /** `rbac.dgdrProfilingClusterRoleName`: the ClusterRole the profiling ServiceAccount is bound to (cluster-wide mode). */
  readonly dgdrProfilingClusterRoleName: string;
  /** `--operator-image`: delivers the DGD override tool to the profiling Job (the Helm chart: the operator's own image). */
  readonly operatorImage: string;
  /** `--operator-image-pull-policy`. */
  readonly operatorImagePullPolicy: string;
}

/**
 * The DGDR settings of an operator: fields of the same names on `settings` win over the platform
 * chart's defaults. The engine's settings do not carry them yet (the operator configuration's
 * `gpu.discoveryEnabled` and `rbac.dgdrProfilingClusterRoleName`, the operator's
 * `--operator-image` and `--dgdr-default-image` flags), so a default install is assumed: GPU
 * discovery on (cluster-wide the operator always discovers GPUs; namespace-restricted it does
 * unless `gpu.discoveryEnabled: false`), the chart's ClusterRole and operator image.
 */
export function dgdrSettingsOf(settings: OperatorSettings): DgdrOperatorSettings {
  const loose = settings as unknown as Partial<DgdrOperatorSettings>;
  return {
    dgdrDefaultImage: loose.dgdrDefaultImage ?? '',
    gpuDiscoveryEnabled: settings.restrictedNamespace === '' || (loose.gpuDiscoveryEnabled ?? true),
    dgdrProfilingClusterRoleName: loose.dgdrProfilingClusterRoleName ?? 'dynamo-platform-dynamo-operator-dgdr-profiling',
    operatorImage: loose.operatorImage ?? `nvcr.io/nvidia/ai-dynamo/kubernetes-operator:${settings.version}`,
    operatorImagePullPolicy: loose.operatorImagePullPolicy ?? 'IfNotPresent',
  };
}

/** Canonical text of a semantic version as Masterminds/semver prints it (`v1.5` → `1.5.0`), or undefined. */
function canonicalSemver(version: string): string | undefined {
  const m = /^v?(0|[1-9][0-9]*)(?:\.(0|[1-9][0-9]*))?(?:\.(0|[1-9][0-9]*))?(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.exec(version);
  if (!m) return undefined;
  return `${m[1]}.${m[2] ?? '0'}.${m[3] ?? '0'}${m[4] ?? ''}${m[5] ?? ''}`;
}

/** What the defaulting webhook puts in spec.image on create ('' when it leaves it unset). */
export function defaultProfilerImage(settings: OperatorSettings): string {
  const dgdr = dgdrSettingsOf(settings);
  if (dgdr.dgdrDefaultImage !== '') return dgdr.dgdrDefaultImage;
  const version = canonicalSemver(settings.version);
  return version === undefined ? '' : `${DEFAULT_PROFILER_REPOSITORY}:${version}`;
}

/** The CRD's `default`s below `spec` (applied where their parent object exists, as the API server does). */
function applyCrdDefaults(spec: JsonMap): void {
  if (spec.backend === undefined) spec.backend = 'auto';
  if (spec.searchStrategy === undefined) spec.searchStrategy = 'rapid';
  if (spec.autoApply === undefined) spec.autoApply = true;
  if (isMap(spec.workload)) {
    if (spec.workload.isl === undefined) spec.workload.isl = 4000;
    if (spec.workload.osl === undefined) spec.workload.osl = 1000;
  }
  if (isMap(spec.modelCache) && spec.modelCache.pvcMountPath === undefined) spec.modelCache.pvcMountPath = '/opt/model-cache';
}

/** Drops `null` fields (the API server drops non-nullable nulls without a default before defaulting). */
function dropNulls(value: unknown): void {
  if (Array.isArray(value)) {value.forEach(dropNulls);} else if (isMap(value)) {
    for (const key of Object.keys(value)) {
      if (value[key] === null) delete value[key];
      else dropNulls(value[key]);
    }
  }
}

/** `request` with what `typed` adds or changes (nothing of `request` is removed). */
function withAdditions(request: unknown, typed: unknown): unknown {
  if (isMap(request) && isMap(typed)) {
    const out: JsonMap = { ...request };
    for (const [key, value] of Object.entries(typed)) out[key] = key in request ? withAdditions(request[key], value) : value;
    return out;
  }
  if (Array.isArray(request) && Array.isArray(typed) && request.length === typed.length) {
    return request.map((item, i) => withAdditions(item, typed[i]));
  }
  return typed;
}

/**
 * The request as the API server stores it after a create: status dropped, the CRD defaults and
 * the defaulting webhook's spec.image applied. When the webhook leaves the object as it is (an
 * image is given) it answers without a patch, and the request is stored as sent. `doc` is not
 * modified.
 */
export function storedDgdr(doc: DgdrJson, settings: OperatorSettings): DgdrJson {
  const out = copyJson(doc) as DgdrJson;
  delete out.status;
  if (!isMap(out.spec)) return out;
  const spec = out.spec as JsonMap;
  for (const key of ['hardware', 'workload', 'sla', 'features', 'modelCache']) if (isMap(spec[key])) dropNulls(spec[key]);
  applyCrdDefaults(spec);
  if (typeof spec.image === 'string' && spec.image !== '') return out;
  const image = defaultProfilerImage(settings);
  if (image === '') return out;
  // the webhook changed the object: its answer is a JSON patch from the request to the typed
  // object's JSON, without removals (controller-runtime's CustomDefaulter drops those): what the
  // Go type writes and the request lacks is added (e.g. `resources: {}` of a container)
  spec.image = image;
  try {
    out.spec = withAdditions(spec, goJsonValue(spec, 'DgdrSpec', { types: DGDR_GO_TYPES }));
  } catch {
    // a value the Go type cannot hold: the schema check reports it
    return out;
  }
  applyCrdDefaults(out.spec);
  return out;
}

const SPEC_COMPILE_OPTIONS = { embedded: 'kubernetes', rootRule: DGDR_RULES.schema } as const;

/** The JSON schema the spec is validated with (its validate functions are generated at build time, see validator-catalog.ts). */
export function dgdrSpecJsonSchema(): JsonSchema {
  registerK8sSchemas();
  return crdJsonSchema(DGDR_V1BETA1_SPEC_SCHEMA, SPEC_COMPILE_OPTIONS);
}

let compiled: CompiledSchema | undefined;
function specSchema(): CompiledSchema {
  compiled ??= compileCrdSchema(DGDR_V1BETA1_SPEC_SCHEMA, SPEC_COMPILE_OPTIONS);
  return compiled;
}

const ENVELOPE = new Set(['apiVersion', 'kind', 'metadata', 'spec', 'status']);

/** Whether `hardware` names the GPU by hand (gpuSku, vramMb or numGpusPerNode). */
function hasManualHardware(hardware: unknown): boolean {
  return isMap(hardware) && ((typeof hardware.gpuSku === 'string' && hardware.gpuSku !== '')
    || (hardware.vramMb !== undefined && hardware.vramMb !== null)
    || (hardware.numGpusPerNode !== undefined && hardware.numGpusPerNode !== null));
}

/** A request checked as new: what the cluster refuses, and the request as the API server stores it. */
export interface AdmittedDgdr {
  readonly violations: Violation[];
  /** The request defaulted as on create (CRD defaults, the defaulting webhook's profiler image). */
  readonly stored: DgdrJson;
}

/**
 * Every reason the cluster refuses to create `doc`: the CRD schema and the API server's metadata
 * checks, then (only when those pass, as the validating webhook only sees a valid object) the
 * operator's validating webhook on the defaulted object; with the defaulted object itself.
 */
export function admitNewDgdr(doc: DgdrJson, settings: OperatorSettings): AdmittedDgdr {
  const sink = new ViolationSink();
  const stored = storedDgdr(doc, settings);
  for (const key of Object.keys(stored)) {
    if (!ENVELOPE.has(key)) sink.unknownField(FieldPath.of(key), stored[key], DGDR_RULES.schema);
  }
  const metadata = isMap(stored.metadata) ? stored.metadata : {};
  const name = metadata.name;
  if (typeof name !== 'string' || name === '') {
    if (typeof metadata.generateName !== 'string' || metadata.generateName === '') {
      sink.required(FieldPath.of('metadata', 'name'), 'name or generateName is required', DGDR_RULES.metadata);
    }
  } else {
    for (const error of dns1123SubdomainErrors(name)) sink.invalid(FieldPath.of('metadata', 'name'), name, error, DGDR_RULES.metadata);
  }
  const records = [...sink.all, ...customResourceMetaRecords(stored)];
  const specSink = new ViolationSink();
  if (stored.spec !== undefined) checkCompiled(stored.spec, specSchema(), specSink, FieldPath.of('spec'));
  checkEmbeddedResource(stored.spec, specSink);
  records.push(...specSink.all);
  if (records.length === 0 && isMap(stored.spec)) records.push(...webhookRecords(stored.spec, settings));
  const kind = String(doc.kind);
  const objectName = typeof name === 'string' ? name : '';
  return { violations: records.map(record => attachObject(record, kind, objectName, doc)), stored };
}

/** `spec.overrides.dgd` is an embedded resource: the API server requires its apiVersion and kind. */
function checkEmbeddedResource(spec: unknown, sink: ViolationSink): void {
  const dgd = isMap(spec) && isMap(spec.overrides) ? spec.overrides.dgd : undefined;
  if (!isMap(dgd)) return;
  for (const field of ['apiVersion', 'kind']) {
    if (typeof dgd[field] !== 'string' || dgd[field] === '') {
      sink.required(FieldPath.of('spec', 'overrides', 'dgd', field), 'must not be empty', DGDR_RULES.schema);
    }
  }
}

/** The operator's validating webhook on create, in its order. */
function webhookRecords(spec: JsonMap, settings: OperatorSettings) {
  const sink = new ViolationSink();
  const dgdr = dgdrSettingsOf(settings);
  if (!dgdr.gpuDiscoveryEnabled && !hasManualHardware(spec.hardware)) {
    sink.required(FieldPath.of('spec', 'hardware'), 'GPU hardware configuration is required when GPU discovery is disabled', DGDR_RULES.hardware);
  }
  if (spec.searchStrategy === 'thorough' && spec.backend === 'auto') {
    sink.invalid(FieldPath.of('spec', 'searchStrategy'), spec.searchStrategy,
      `is incompatible with spec.backend ${JSON.stringify(spec.backend)}; set spec.backend to a specific backend (sglang, trtllm, or vllm)`,
      DGDR_RULES.searchStrategy);
  }
  const image = typeof spec.image === 'string' ? spec.image : '';
  const override = typeof spec.runtimeVersionOverride === 'string' ? spec.runtimeVersionOverride : '';
  if (image !== '' && override === '' && parseImageVersion(image) === undefined) {
    sink.required(FieldPath.of('spec', 'runtimeVersionOverride'), 'is required when spec.image has no parseable semantic-version tag', DGDR_RULES.runtimeVersionOverride);
  }
  return sink.all;
}

/** Phases in which the operator's webhook forbids spec changes (`status.phase` of the stored request). */
const IMMUTABLE_PHASES = new Set(['Profiling', 'Deploying', 'Ready', 'Deployed']);

/** The spec as the operator's Go type reads it, comparable with `isDeepStrictEqual` (raw fields' keys sorted). */
function typedSpec(spec: unknown): unknown {
  if (!isMap(spec)) return {};
  try {
    return sortedKeys(goJsonValue(spec, 'DgdrSpec', { types: DGDR_GO_TYPES }));
  } catch {
    return sortedKeys(spec);
  }
}

function requiresHardware(spec: JsonMap, dgdr: DgdrOperatorSettings): boolean {
  return !dgdr.gpuDiscoveryEnabled && !hasManualHardware(spec.hardware);
}

function incompatibleSearch(spec: JsonMap): boolean {
  return spec.searchStrategy === 'thorough' && spec.backend === 'auto';
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function overrideRequired(spec: JsonMap): boolean {
  return text(spec.image) !== '' && text(spec.runtimeVersionOverride) === '' && parseImageVersion(text(spec.image)) === undefined;
}

/**
 * Why the cluster refuses `doc` as an update of the stored `old`: the schema and metadata checks of
 * a create, then the validating webhook's update rules. On update the defaulting webhook changes
 * nothing, and the webhook only refuses what the update introduces: hardware newly required, an
 * incompatible search newly chosen, an image without a version tag when the image, the override or
 * autoApply changes; and any spec change while the stored request's `status.phase` is Profiling,
 * Ready, Deploying or Deployed, except choosing the runtime version (and, once Ready, turning
 * autoApply on) of a request created with `autoApply: false`.
 */
export function validateDgdrUpdate(old: DgdrJson, doc: DgdrJson, settings: OperatorSettings): Violation[] {
  const created = admitNewDgdr(doc, settings).violations.filter(v => v.rule === DGDR_RULES.schema || v.rule === DGDR_RULES.metadata);
  if (created.length > 0) return created;
  const dgdr = dgdrSettingsOf(settings);
  const next = copyJson(isMap(doc.spec) ? doc.spec : {}) as JsonMap;
  const prev = copyJson(isMap(old.spec) ? old.spec : {}) as JsonMap;
  applyCrdDefaults(next);
  applyCrdDefaults(prev);
  const sink = new ViolationSink();
  if (requiresHardware(next, dgdr) && !requiresHardware(prev, dgdr)) {
    sink.required(FieldPath.of('spec', 'hardware'), 'GPU hardware configuration is required when GPU discovery is disabled', DGDR_RULES.hardware);
  }
  if (incompatibleSearch(next) && !incompatibleSearch(prev)) {
    sink.invalid(FieldPath.of('spec', 'searchStrategy'), next.searchStrategy,
      `is incompatible with spec.backend ${JSON.stringify(next.backend)}; set spec.backend to a specific backend (sglang, trtllm, or vllm)`,
      DGDR_RULES.searchStrategy);
  }
  const autoApplyActivated = prev.autoApply === false && next.autoApply !== false;
  if (overrideRequired(next) && (text(next.image) !== text(prev.image)
    || text(next.runtimeVersionOverride) !== text(prev.runtimeVersionOverride) || autoApplyActivated)) {
    sink.required(FieldPath.of('spec', 'runtimeVersionOverride'), 'is required when spec.image has no parseable semantic-version tag', DGDR_RULES.runtimeVersionOverride);
  }
  const phase = isMap(old.status) ? text(old.status.phase) : '';
  if (IMMUTABLE_PHASES.has(phase) && !isDeepStrictEqual(typedSpec(next), typedSpec(prev)) && !deferredRuntimeVersionUpdate(next, prev, phase)) {
    sink.forbidden(FieldPath.of('spec'), undefined,
      `updates are forbidden while the resource is in phase ${JSON.stringify(phase)}; delete and recreate the resource to change its spec`,
      DGDR_RULES.immutable);
  }
  const name = isMap(doc.metadata) ? text(doc.metadata.name) : '';
  return sink.all.map(record => attachObject(record, String(doc.kind), name, doc));
}

/** A request created with autoApply off may choose its runtime version while Profiling or Ready, and turn autoApply on once Ready. */
function deferredRuntimeVersionUpdate(next: JsonMap, prev: JsonMap, phase: string): boolean {
  if (prev.autoApply !== false || (phase !== 'Profiling' && phase !== 'Ready')) return false;
  if (next.autoApply !== false && phase !== 'Ready') return false;
  const rest = { ...next, autoApply: prev.autoApply, runtimeVersionOverride: prev.runtimeVersionOverride };
  if (rest.runtimeVersionOverride === undefined) delete rest.runtimeVersionOverride;
  return isDeepStrictEqual(typedSpec(rest), typedSpec(prev));
}
