/**
 * Admission check of the objects the engine emits (the `workloads` output), as the API server
 * would check them on create: the structural check of `validateEmittedObjects` (CRD schema of each
 * custom resource, Kubernetes OpenAPI schema of embedded types and core kinds, a name) plus the CEL
 * rules (`x-kubernetes-validations`) of each emitted custom resource's CRD.
 *
 * The CEL rules by kind:
 * - Grove PodCliqueSet, LeaderWorkerSet, SnapshotJob, PodSnapshot: the rules of their generated CRD
 *   schema (transition rules such as `self == oldSelf` do not run on create);
 * - DynamoGraphDeployment / DynamoComponentDeployment (the DCDs a graph's workloads output holds):
 *   the Dynamo CRD rules, reported under their numbered admission rules. The operator's
 *   webhooks are not re-run here: an emitted DCD is generated from a graph `validateDocument`
 *   already admitted.
 * Core Kubernetes kinds have no CEL rules. Objects of any other apiVersion/kind are not checked.
 */
import { CEL_RULE, CelRule, CelSchemaNode, checkCelRules, checkDynamoCelRules } from './cel';
import { emittedValueExplainer } from './derived-names';
import { inDocumentOrder } from './document-order';
import { KindTable } from './kind-table';
import { API_SERVER_RULE, apiServerRecords } from './object-meta';
import { isCheckedKind, validateEmittedObject } from './structural';
import { attachObject, renderValue, ViolationSink } from './violation';
import { PCS_V1ALPHA1_SCHEMA } from '../../imports/grove.io.schema';
import { LWS_V1_SCHEMA } from '../../imports/leaderworkerset.x-k8s.io.schema';
import { POD_SNAPSHOT_V1ALPHA1_SCHEMA, SNAPSHOT_JOB_V1ALPHA1_SCHEMA } from '../../imports/nvidia.com.snapshot.schema';
import { isMap, mapAt, stringAt } from '../model/json';
import { EmittedViolation } from '../model/violation-report';

export type { EmittedViolation } from '../model/violation-report';

/** CRD schemas whose CEL rules run on emitted objects, by `apiVersion/kind` (Dynamo kinds apart). */
const CEL_SCHEMAS: Readonly<Record<string, CelSchemaNode>> = {
  'grove.io/v1alpha1/PodCliqueSet': PCS_V1ALPHA1_SCHEMA,
  'leaderworkerset.x-k8s.io/v1/LeaderWorkerSet': LWS_V1_SCHEMA,
  'nvidia.com/v1alpha1/SnapshotJob': SNAPSHOT_JOB_V1ALPHA1_SCHEMA,
  'nvidia.com/v1alpha1/PodSnapshot': POD_SNAPSHOT_V1ALPHA1_SCHEMA,
};

/** The CEL check of the objects of one kind. */
type CelCheck = (obj: Record<string, unknown>, sink: ViolationSink) => void;

const DYNAMO_KINDS = new Set(['nvidia.com/v1beta1/DynamoGraphDeployment', 'nvidia.com/v1beta1/DynamoComponentDeployment']);

/** Prefix of the rule id of a failed CEL rule of a non-Dynamo CRD; the expression follows it. */
const CEL_RULE_PREFIX = `${CEL_RULE}:`;

const celRuleId = (rule: CelRule): string => `${CEL_RULE_PREFIX}${rule.rule}`;

/** The kinds with CEL rules: the Dynamo kinds and those of `CEL_SCHEMAS`. */
const CEL_CHECKS = new KindTable<CelCheck>((apiVersion, kind) => {
  const key = `${apiVersion}/${kind}`;
  if (DYNAMO_KINDS.has(key)) return (obj, sink) => checkDynamoCelRules(obj, sink);
  if (!Object.prototype.hasOwnProperty.call(CEL_SCHEMAS, key)) return undefined;
  const schema = CEL_SCHEMAS[key];
  return (obj, sink) => checkCelRules(obj, schema, sink, { ruleId: celRuleId });
});

/** Whether `checkEmittedObjects` checks objects of this apiVersion and kind. */
export function isEmittedKindChecked(apiVersion: string, kind: string): boolean {
  return isCheckedKind(apiVersion, kind);
}

/** The CEL violations of one emitted object (none for a kind without CRD rules). Never throws. */
function celViolations(obj: Record<string, unknown>, apiVersion: string, kind: string, name: string): EmittedViolation[] {
  const check = CEL_CHECKS.get(apiVersion, kind);
  if (check === undefined) return [];
  const sink = new ViolationSink();
  try {
    check(obj, sink);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return [{ kind, name, path: '', message: `Internal error: CEL check failed unexpectedly: ${detail}`, rule: 'internal' }];
  }
  if (sink.all.length === 0) return [];
  return inDocumentOrder(sink.all, obj).map((record) => {
    const violation: EmittedViolation = attachObject(record, kind, name, obj);
    if (!record.rule.startsWith(CEL_RULE_PREFIX)) return violation;
    return { ...violation, rule: CEL_RULE, expression: record.rule.slice(CEL_RULE_PREFIX.length) };
  });
}

/**
 * The API server's own object checks (object-meta.ts, rule `apiserver`): names by kind, namespace,
 * labels, annotations, selectors, ports, quantities. A name or label value derived from the graph's
 * names says which input names it is made of (derived-names.ts). Never throws.
 */
function apiServerViolations(obj: Record<string, unknown>, kind: string, name: string): EmittedViolation[] {
  try {
    const records = apiServerRecords(obj, emittedValueExplainer(obj));
    if (records.length === 0) return [];
    return inDocumentOrder(records, obj).map((record) => {
      const base: EmittedViolation = { kind, name, path: record.path.toString(), message: record.message, rule: record.rule };
      return record.value === undefined ? base : { ...base, value: record.value };
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return [{ kind, name, path: '', message: `Internal error: object check failed unexpectedly: ${detail}`, rule: 'internal' }];
  }
}

/**
 * Every rule the API server would find broken when the operator creates `obj`: its schema, its
 * kind's object checks (names, labels, annotations, selectors, ports, quantities), then its CRD's
 * CEL rules. Empty for an object of a kind the library has no schema of. Never throws.
 */
export function checkEmittedObject(obj: unknown): EmittedViolation[] {
  if (!isMap(obj)) return [];
  const apiVersion = stringAt(obj, 'apiVersion') ?? '';
  const kind = stringAt(obj, 'kind') ?? '';
  const name = stringAt(mapAt(obj, 'metadata'), 'name') ?? '';
  let structural: EmittedViolation[] = validateEmittedObject(obj);
  if (apiVersion === 'nvidia.com/v1alpha1' && kind === 'SnapshotJob') structural = withNewerSnapshotFields(obj, structural);
  const violations = [...structural, ...apiServerViolations(obj, kind, name), ...celViolations(obj, apiVersion, kind, name)];
  return apiVersion === 'v1' && kind === 'Secret' ? withoutSecretValues(violations) : violations;
}

/** Where a Secret keeps its values: `data`, `stringData` and everything below them. */
const SECRET_VALUE_PATH = /^(data|stringData)(\[|\.|$)/;
const HIDDEN = '(the value of a Secret is not shown)';

/**
 * A Secret's values never appear in a message: a violation under `data` or `stringData` of a
 * Secret keeps its field path and what is wrong, and loses its value.
 */
function withoutSecretValues(violations: EmittedViolation[]): EmittedViolation[] {
  return violations.map(v => {
    if (!SECRET_VALUE_PATH.test(v.path) || showsNoSecretValue(v)) return v;
    const { value, ...rest } = v;
    const shown = value === undefined ? undefined : renderValue(value);
    const message = shown !== undefined && v.message.includes(shown)
      ? v.message.split(shown).join(HIDDEN)
      : v.message.replace(/^([A-Z][a-z]+(?: [a-z]+)*): .*?(: [^:]*)?$/, (_m, type: string, detail?: string) => `${type}: ${HIDDEN}${detail ?? ''}`);
    return { ...rest, message };
  });
}

/**
 * A violation that shows no value of the Secret: one of a key of `data` / `stringData` (the key,
 * which its path shows already), or an API server check without a value (`Required value`, `Too long`).
 */
function showsNoSecretValue(v: EmittedViolation): boolean {
  if (v.rule === API_SERVER_RULE && v.value === undefined) return true;
  return typeof v.value === 'string' && (v.path === `data[${v.value}]` || v.path === `stringData[${v.value}]`);
}

const SNAPSHOT_TEMPLATE_METADATA = 'spec.podSnapshotTemplate.metadata';

/**
 * The SnapshotJob CRD snapshot in imports/ predates `spec.podSnapshotTemplate.metadata` (labels and
 * annotations of the PodSnapshot the job creates), which the operator writes (docs/design/render-experimental.md
 * §3.2.2) and the current upstream CRD has. Its unknown-field report is replaced by a check of
 * what the field may hold: `labels` and `annotations`, each a map of strings.
 */
function withNewerSnapshotFields(obj: Record<string, unknown>, violations: EmittedViolation[]): EmittedViolation[] {
  const rest = violations.filter((v) => !(v.path === SNAPSHOT_TEMPLATE_METADATA && v.message.startsWith('unknown field')));
  if (rest.length === violations.length) return violations;
  const kind = stringAt(obj, 'kind') ?? '';
  const name = stringAt(mapAt(obj, 'metadata'), 'name') ?? '';
  const metadata = mapAt(mapAt(mapAt(obj, 'spec'), 'podSnapshotTemplate'), 'metadata') ?? {};
  const problems: EmittedViolation[] = [];
  for (const [field, value] of Object.entries(metadata)) {
    const path = `${SNAPSHOT_TEMPLATE_METADATA}.${field}`;
    if (field !== 'labels' && field !== 'annotations') {
      problems.push({ kind, name, path, message: `unknown field "${path}"`, rule: 'schema', structural: true });
    } else if (!isMap(value) || Object.values(value).some((v) => typeof v !== 'string')) {
      problems.push({ kind, name, path, message: 'Invalid value: must be a map of strings', rule: 'schema', structural: true });
    }
  }
  return [...rest, ...problems];
}

/** `checkEmittedObject` of every object, in object order. */
export function checkEmittedObjects(objects: readonly unknown[]): EmittedViolation[] {
  return objects.flatMap((obj) => checkEmittedObject(obj));
}
