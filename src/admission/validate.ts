/**
 * Synth-time admission check of a DynamoGraphDeployment or DynamoComponentDeployment
 * (nvidia.com/v1beta1) as it would be created: the defaulting of the API server and the Dynamo
 * mutating webhooks is applied to a copy, then every create-time rule a single object can break
 * is evaluated (structural schema, CEL rules, validating webhooks). The CEL rules of the CRDs are
 * evaluated by a CEL engine (src/admission/cel); given the stored object (`options.old`), their
 * transition rules are evaluated too.
 */
import { checkDynamoCelRules } from './cel/dynamo-rules';
import { UncheckedRule, uncheckedTopologyRules } from './cluster-topology';
import { ComponentContext, GraphPathway, pathwayOf } from './component-context';
import { checkComponent } from './component-rules';
import { defaultComponentDeployment, defaultGraphDeployment } from './defaulting';
import { componentWorkloadRecords, graphWorkloadRecords } from './derived-names';
import { dns1123SubdomainErrors } from './dns-names';
import { inDocumentOrder } from './document-order';
import { DCD_SCHEMA, DGD_SCHEMA, STRUCTURAL_RULE } from './dynamo-schema';
import { FieldPath } from './field-path';
import { checkGraphSpec } from './graph-rules';
import { checkGraphAnnotations } from './metadata-rules';
import { customResourceMetaRecords } from './object-meta';
import { withoutFieldsOfNewerOperators } from './operator-rules';
import { ValidateOptions } from './options';
import { checkStructure } from './structural-check';
import { attachObject, ViolationRecord, ViolationSink } from './violation';
import { isMap, JsonMap, mapAt, stringAt } from '../model/json';
import { Violation } from '../model/violation-report';

export { formatViolation } from '../model/violation-report';
export type { UncheckedRule } from './cluster-topology';
export type { Violation } from '../model/violation-report';
export type { ValidateOptions } from './options';

export const SUPPORTED_API_VERSION = 'nvidia.com/v1beta1';
export const DGD_KIND_NAME = 'DynamoGraphDeployment';
export const DCD_KIND_NAME = 'DynamoComponentDeployment';

/**
 * Every create-time admission rule the document breaks, in document order. Never throws: malformed
 * input (wrong types anywhere) yields violations. The input is not modified.
 */
export function validateDocument(doc: unknown, options: ValidateOptions = {}): Violation[] {
  return admitDocument(doc, options).violations;
}

/**
 * `validateDocument`, with the object as the defaulting webhook left it (`admitted`: the CRD's
 * defaults and the webhook's, never the pruning of fields a CRD lacks) when the document is a
 * DynamoGraphDeployment or DynamoComponentDeployment that got that far: what the pipeline renders
 * from when nothing is refused, so that a document is defaulted once. The input is not modified.
 */
export function admitDocument(
  doc: unknown, options: ValidateOptions = {}, listUnchecked = false,
): { violations: Violation[]; admitted?: JsonMap; unchecked?: UncheckedRule[] } {
  const kind = stringAt(doc, 'kind') ?? '';
  const name = stringAt(mapAt(doc, 'metadata'), 'name') ?? '';
  try {
    const { records, ordered, admitted, unchecked } = check(doc, kind, options, listUnchecked);
    return { violations: inDocumentOrder(records, ordered).map((record) => attachObject(record, kind, name, ordered)), admitted, unchecked };
  } catch (error) {
    return { violations: unexpectedFailure(error, kind, name) };
  }
}

/**
 * The admission rules `validateDocument` could not check on a new DynamoGraphDeployment because the
 * cluster state they read is not among `options.clusterObjects`: today the ClusterTopologyBindings
 * of rows 31, 32, 39 and 105 (read for a new graph on the Grove pathway). One entry per field that
 * names a missing object; empty for any other document. Never throws.
 */
export function uncheckedClusterRules(doc: unknown, options: ValidateOptions = {}): UncheckedRule[] {
  if (!isMap(doc) || doc.apiVersion !== SUPPORTED_API_VERSION || doc.kind !== DGD_KIND_NAME) return [];
  try {
    const { doc: admitted, provider } = defaultGraphDeployment(doc, options);
    return uncheckedOf(admitted, pathwayOf(provider), options);
  } catch {
    return [];
  }
}

/** `uncheckedClusterRules` of a graph admission defaulted already. Never throws. */
function uncheckedOf(admitted: JsonMap, pathway: GraphPathway, options: ValidateOptions): UncheckedRule[] {
  try {
    return uncheckedTopologyRules(admitted, pathway.grovePathway, options);
  } catch {
    return [];
  }
}

/** A safety net: a bug in a rule must not turn into an exception for the caller. */
export function unexpectedFailure(error: unknown, kind: string, name: string): Violation[] {
  const detail = error instanceof Error ? error.message : String(error);
  return [{ kind, name, path: '', message: `Internal error: validation failed unexpectedly: ${detail}`, rule: 'internal' }];
}

function check(
  doc: unknown, kind: string, options: ValidateOptions, listUnchecked: boolean,
): { records: readonly ViolationRecord[]; ordered: unknown; admitted?: JsonMap; unchecked?: UncheckedRule[] } {
  const sink = new ViolationSink();
  if (!isMap(doc)) {
    sink.wrongType(FieldPath.root(), doc, 'object', STRUCTURAL_RULE);
    return { records: sink.all, ordered: doc };
  }
  const apiVersion = doc.apiVersion;
  if (apiVersion !== SUPPORTED_API_VERSION) {
    sink.notSupported(FieldPath.of('apiVersion'), apiVersion, [SUPPORTED_API_VERSION], STRUCTURAL_RULE);
  }
  if (kind !== DGD_KIND_NAME && kind !== DCD_KIND_NAME) {
    sink.notSupported(FieldPath.of('kind'), doc.kind, [DGD_KIND_NAME, DCD_KIND_NAME], STRUCTURAL_RULE);
  }
  if (sink.all.length > 0) return { records: sink.all, ordered: doc };

  checkObjectName(doc, sink);
  checkObjectMetaFields(doc, sink);
  // the API server's object checks of the document, and of the objects the operator creates from it
  const metadata = customResourceMetaRecords(doc);
  if (kind === DGD_KIND_NAME) {
    const { doc: admitted, provider } = defaultGraphDeployment(doc, options);
    const pathway = pathwayOf(provider);
    checkGraphDeployment(admitted, pathway, options, sink);
    const unchecked = listUnchecked ? uncheckedOf(admitted, pathway, options) : undefined;
    return { records: [...sink.all, ...metadata, ...graphWorkloadRecords(admitted, pathway.grovePathway)], ordered: admitted, admitted, unchecked };
  }
  const admitted = defaultComponentDeployment(doc);
  checkComponentDeployment(admitted, options, sink);
  return { records: [...sink.all, ...metadata, ...componentWorkloadRecords(admitted)], ordered: admitted, admitted };
}

/**
 * The rules of the API server (schema, CEL) and of the validating webhook on an admitted
 * DynamoGraphDeployment on the given pathway. `options.old`: the stored object of an update.
 */
export function checkGraphDeployment(admitted: JsonMap, pathway: GraphPathway, options: ValidateOptions, sink: ViolationSink): void {
  // fields the operator's CRD does not have yet are unknown fields, and pruned for the other rules
  const doc = withoutFieldsOfNewerOperators(admitted, options, sink);
  checkStructure(doc, DGD_SCHEMA, sink);
  checkDynamoCelRules(doc, sink, options.old, options);
  checkGraphAnnotations(doc, sink);
  checkGraphSpec(doc, pathway, options, sink);
}

/**
 * The rules of the API server (schema, CEL) and of the validating webhook on an admitted
 * standalone DynamoComponentDeployment. `options.old`: the stored object of an update.
 */
export function checkComponentDeployment(admitted: JsonMap, options: ValidateOptions, sink: ViolationSink): void {
  checkStructure(admitted, DCD_SCHEMA, sink);
  checkDynamoCelRules(admitted, sink, options.old, options);
  const spec = mapAt(admitted, 'spec') ?? {};
  const ctx: ComponentContext = {
    owner: 'DCD',
    component: spec,
    path: FieldPath.of('spec'),
    backendFramework: stringAt(spec, 'backendFramework') ?? '',
    grovePathway: false,
    groveRequirement: '',
    document: admitted,
    options,
  };
  checkComponent(ctx, sink);
}

/**
 * Kubernetes object metadata: a name (or generateName) is required, and a custom resource's name
 * must be a DNS-1123 subdomain (one violation per broken condition, as the API server reports it).
 */
export function checkObjectName(doc: JsonMap, sink: ViolationSink): void {
  const metadata = doc.metadata;
  if (metadata !== undefined && metadata !== null && !isMap(metadata)) return; // a type error, reported by the schema check
  const name = stringAt(metadata, 'name') ?? '';
  const generateName = stringAt(metadata, 'generateName') ?? '';
  const path = FieldPath.of('metadata', 'name');
  if (name === '' && generateName === '') {
    sink.required(path, 'name or generateName is required', STRUCTURAL_RULE);
    return;
  }
  if (name === '') return;
  for (const error of dns1123SubdomainErrors(name)) sink.invalid(path, name, error, STRUCTURAL_RULE);
}

/**
 * The fields of ObjectMeta (apimachinery `pkg/apis/meta/v1` ObjectMeta, by their JSON names): the
 * API server reads a custom resource's `metadata` into it strictly, so any other field is unknown.
 */
const OBJECT_META_FIELDS = new Set([
  'name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion', 'generation', 'creationTimestamp',
  'deletionTimestamp', 'deletionGracePeriodSeconds', 'labels', 'annotations', 'ownerReferences', 'finalizers', 'managedFields',
]);

/** An unknown field of `metadata`, as strict field validation reports it (`unknown field "metadata.x"`). */
function checkObjectMetaFields(doc: JsonMap, sink: ViolationSink): void {
  const metadata = doc.metadata;
  if (!isMap(metadata)) return;
  for (const [key, value] of Object.entries(metadata)) {
    if (!OBJECT_META_FIELDS.has(key)) sink.unknownField(FieldPath.of('metadata', key), value, STRUCTURAL_RULE, OBJECT_META_FIELDS);
  }
}

