/**
 * Structural validation of every object the engine emits (the `workloads` output): the custom
 * resources (DynamoGraphDeployment, DynamoComponentDeployment, Grove PodCliqueSet, LeaderWorkerSet,
 * SnapshotJob, PodSnapshot) against their generated CRD schema, with their embedded Kubernetes
 * types (pod templates, pod specs, env vars, PVCs, metrics, resource claim templates) and their
 * `metadata` checked against the Kubernetes OpenAPI schema; the Kubernetes kinds (Deployment,
 * Service, ServiceAccount, Role, RoleBinding, ConfigMap, …) against the Kubernetes OpenAPI schema.
 * Objects of any other apiVersion/kind are not checked. CEL rules are not evaluated here.
 *
 * Unlike `validateDocument`, nothing is defaulted first: the object is checked as it is written.
 * The pod templates of an object are checked once per distinct template (templates.ts).
 */
import { compileOnce } from './ajv-instance';
import { CompiledSchema, checkCompiled } from './crd';
import { crdJsonSchema, CrdCompileOptions } from './crd-json-schema';
import { JsonSchema, StructuralNode } from './json-schema';
import { k8sRef, registerK8sSchemas } from './k8s-json-schema';
import { kubernetesKindDefinition } from './kubernetes';
import { deferTemplates, checkDeferred } from './templates';
import { PCS_V1ALPHA1_SCHEMA } from '../../../imports/grove.io.schema';
import { K8S_KINDS } from '../../../imports/k8s-openapi.schema';
import { LWS_V1_SCHEMA } from '../../../imports/leaderworkerset.x-k8s.io.schema';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA } from '../../../imports/nvidia.com.schema';
import { POD_SNAPSHOT_V1ALPHA1_SCHEMA, SNAPSHOT_JOB_V1ALPHA1_SCHEMA } from '../../../imports/nvidia.com.snapshot.schema';
import { isMap, mapAt, stringAt } from '../../model/json';
import { Violation } from '../../model/violation-report';
import { inDocumentOrder } from '../document-order';
import { DCD_SCHEMA, DGD_SCHEMA, STRUCTURAL_RULE } from '../dynamo-schema';
import { FieldPath } from '../field-path';
import { KindTable } from '../kind-table';
import { SchemaOverlay } from '../schema-node';
import { attachObject, ViolationSink } from '../violation';

/** One custom resource kind checked here. */
interface CustomKind {
  readonly root: StructuralNode;
  /** The overlay whose rows and pruned fields apply (Dynamo kinds). */
  readonly overlay?: SchemaOverlay;
}

const CUSTOM_KINDS: Readonly<Record<string, CustomKind>> = {
  'nvidia.com/v1beta1/DynamoGraphDeployment': { root: DGD_V1BETA1_SCHEMA, overlay: DGD_SCHEMA.overlay },
  'nvidia.com/v1beta1/DynamoComponentDeployment': { root: DCD_V1BETA1_SCHEMA, overlay: DCD_SCHEMA.overlay },
  'grove.io/v1alpha1/PodCliqueSet': { root: PCS_V1ALPHA1_SCHEMA },
  'leaderworkerset.x-k8s.io/v1/LeaderWorkerSet': { root: LWS_V1_SCHEMA },
  'nvidia.com/v1alpha1/SnapshotJob': { root: SNAPSHOT_JOB_V1ALPHA1_SCHEMA },
  'nvidia.com/v1alpha1/PodSnapshot': { root: POD_SNAPSHOT_V1ALPHA1_SCHEMA },
};

/** `metadata` is the Kubernetes ObjectMeta; `status` is not written on create and not checked. */
const API_SERVER_FIELDS = {
  metadata: k8sRef('MetaV1ObjectMeta'),
  status: { 'type': 'object', 'nullable': true, 'x-rule': STRUCTURAL_RULE },
};

function kindCompileOptions(kind: CustomKind): CrdCompileOptions {
  return {
    rules: kind.overlay?.rules,
    prunedFields: kind.overlay?.prunedFields,
    apiServerFields: API_SERVER_FIELDS,
    embedded: 'kubernetes',
    rootRule: STRUCTURAL_RULE,
  };
}

/**
 * The schema of a custom resource kind (`key`) or a Kubernetes kind (`definition`), its pod
 * templates deferred (or not, `deferred`).
 */
function kindJsonSchema(key: string, definition: string | undefined, deferred = true): JsonSchema {
  registerK8sSchemas();
  const custom = ownKind(key);
  const json = custom ? crdJsonSchema(custom.root, kindCompileOptions(custom)) : k8sRef(definition!);
  return deferred ? deferTemplates(json) : json;
}

/** A kind checked here: its schema compiled on first use, with its pod templates deferred and without. */
class CheckedKind {
  private deferred?: CompiledSchema;
  private whole?: CompiledSchema;

  /**
   * @param key `apiVersion/kind`
   * @param definition the Kubernetes definition of a Kubernetes kind (none for a custom resource kind)
   */
  public constructor(private readonly key: string, private readonly definition: string | undefined) {}

  /**
   * Whether the outcomes of the object's pod templates are kept for the templates that come again.
   * Not for a Deployment: its template carries the Deployment's own selector labels (the component
   * and graph it runs), so no other Deployment the operator creates for the graphs of an app has
   * the same one; a DCD's template is its component's, which the graph's admission checked
   * already, and a LeaderWorkerSet's or PodCliqueSet's hold templates and pod specs that repeat.
   */
  public get keepsTemplateOutcomes(): boolean {
    return this.key !== 'apps/v1/Deployment';
  }

  /** The compiled schema of the kind, its pod templates deferred (or not). */
  public compiled(deferred: boolean): CompiledSchema {
    const known = deferred ? this.deferred : this.whole;
    if (known !== undefined) return known;
    const json = kindJsonSchema(this.key, this.definition, deferred);
    const compiled: CompiledSchema = { json, validate: compileOnce(json) };
    if (deferred) this.deferred = compiled;
    else this.whole = compiled;
    return compiled;
  }
}

/** The kinds checked here (the custom resource kinds and the Kubernetes kinds the library has the schema of). */
const CHECKED_KINDS = new KindTable<CheckedKind>((apiVersion, kind) => {
  const key = `${apiVersion}/${kind}`;
  if (ownKind(key)) return new CheckedKind(key, undefined);
  const definition = kubernetesKindDefinition(apiVersion, kind);
  return definition === undefined ? undefined : new CheckedKind(key, definition);
});

/**
 * The JSON schema of each kind checked here that differs from the schema of its kind elsewhere:
 * the custom resource kinds, and the Kubernetes kinds that hold pod templates, by `apiVersion/kind`.
 */
export function emittedKindJsonSchemas(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const key of Object.keys(CUSTOM_KINDS)) out[key] = kindJsonSchema(key, undefined);
  for (const [key, definition] of Object.entries(K8S_KINDS)) {
    const json = kindJsonSchema(key, definition);
    if (json.$ref === undefined) out[key] = json;
  }
  return out;
}

function ownKind(key: string): CustomKind | undefined {
  return Object.prototype.hasOwnProperty.call(CUSTOM_KINDS, key) ? CUSTOM_KINDS[key] : undefined;
}

/**
 * The structural violations of one emitted object, in document order: its CRD schema (custom
 * resources) or its Kubernetes OpenAPI schema (Kubernetes kinds), embedded Kubernetes types
 * included, and a name (or generateName). Empty for an object of an apiVersion/kind the library
 * has no schema of. Never throws.
 */
export function validateEmittedObject(obj: unknown): Violation[] {
  return emittedObjectViolations(obj, true);
}

/**
 * `validateEmittedObject`, its pod templates checked once per distinct template (`deferred`), or
 * with the whole object (the same violations: for tests).
 */
export function emittedObjectViolations(obj: unknown, deferred: boolean): Violation[] {
  if (!isMap(obj)) return [];
  const kind = stringAt(obj, 'kind') ?? '';
  const name = stringAt(mapAt(obj, 'metadata'), 'name') ?? '';
  const sink = new ViolationSink();
  try {
    const checked = CHECKED_KINDS.get(stringAt(obj, 'apiVersion') ?? '', kind);
    if (checked === undefined) return [];
    const compiled = checked.compiled(deferred);
    if (deferred) checkDeferred(obj, compiled, sink, checked.keepsTemplateOutcomes);
    else checkCompiled(obj, compiled, sink);
    checkName(obj.metadata, sink);
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    return [{ kind, name, path: '', message: `Internal error: validation failed unexpectedly: ${detail}`, rule: 'internal' }];
  }
  if (sink.all.length === 0) return [];
  return inDocumentOrder(sink.all, obj).map((record) => attachObject(record, kind, name, obj));
}

/** The structural violations of every emitted object, in object order. */
export function validateEmittedObjects(objects: readonly unknown[]): Violation[] {
  return objects.flatMap((obj) => validateEmittedObject(obj));
}

/** Whether `validateEmittedObject` checks objects of this apiVersion and kind. */
export function isCheckedKind(apiVersion: string, kind: string): boolean {
  return CHECKED_KINDS.get(apiVersion, kind) !== undefined;
}

function checkName(metadata: unknown, sink: ViolationSink): void {
  if (metadata !== undefined && metadata !== null && !isMap(metadata)) return; // a type error, reported by the schema
  if ((stringAt(metadata, 'name') ?? '') === '' && (stringAt(metadata, 'generateName') ?? '') === '') {
    sink.required(FieldPath.of('metadata', 'name'), 'name or generateName is required', STRUCTURAL_RULE);
  }
}
