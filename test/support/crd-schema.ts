/**
 * Validation of the custom resources the engine renders for multinode components — LeaderWorkerSet
 * (`leaderworkerset.x-k8s.io/v1`) and Grove PodCliqueSet (`grove.io/v1alpha1`) — against the compact
 * structural schemas generated from their CRDs (`imports/leaderworkerset.x-k8s.io.schema.ts`,
 * `imports/grove.io.schema.ts`), as the API server would on create:
 *
 * 1. the structural walk of src/admission (`checkStructure`): JSON types, required fields, enum,
 *    pattern, length and bound failures, item counts, list-map key and set uniqueness, unknown fields
 *    (unless the node keeps unknown fields). The walk stops at a `{ k8sType }` marker node and only
 *    checks the marker's JSON type there;
 * 2. every value at a marker node (PodTemplateSpec, PodSpec, a PVC, a metric, a resource claim
 *    template) and the object's own `metadata` (ObjectMeta) is checked against the Kubernetes schema
 *    of that type: wrapped into the smallest Kubernetes object that holds it (a PodSpec becomes the
 *    spec of a `v1 Pod`) and validated with kubernetes-models (`validateKubernetesObjects`, one child
 *    process for a whole batch), plus a walk for unknown fields along the Go struct layouts of
 *    src/go/types.ts (kubernetes-models accepts unknown fields; the CRD's embedded
 *    schema, like the API server's strict field validation, does not).
 *
 * 3. the CEL rules (`x-kubernetes-validations`) of the schema, for a create (no old object). No CEL
 *    library is installed; the rules of these CRDs use a small part of CEL (`has()`, `!`, `&&`,
 *    `||`, field selection, `list.all(x, …)`, `oldSelf.hasValue()`), which `celRule` evaluates. A
 *    rule outside that part is reported as an error of the object rather than passed silently.
 */
import { KUBERNETES_SCHEMA_VERSION, validateKubernetesObjects } from './kubernetes-schema';
import { GroveK8sType, GroveSchemaNode, PCS_V1ALPHA1_SCHEMA } from '../../imports/grove.io.schema';
import { LWS_V1_SCHEMA, LwsK8sType, LwsSchemaNode } from '../../imports/leaderworkerset.x-k8s.io.schema';
import { CrdSchemaNode, CrdValidationRule } from '../../imports/nvidia.com.schema';
import { checkStructure, FieldPath, SchemaOverlay, ViolationSink } from '../../src/admission';
import { GoType, goTypeRegistry } from '../../src/go';
import { isMap } from '../../src/model';

/** A node of either compact CRD schema (they share the keywords; only the `k8sType` names differ). */
export type CrdObjectSchemaNode = LwsSchemaNode | GroveSchemaNode;

/** The embedded Kubernetes types the schemas mark, plus the root `metadata` (checked as ObjectMeta). */
export type EmbeddedK8sType = LwsK8sType | GroveK8sType | 'ObjectMeta';

/** One custom resource kind this module checks. */
export interface CrdKind {
  readonly apiVersion: string;
  readonly kind: string;
  readonly schema: CrdObjectSchemaNode;
}

export const LEADER_WORKER_SET: CrdKind = { apiVersion: 'leaderworkerset.x-k8s.io/v1', kind: 'LeaderWorkerSet', schema: LWS_V1_SCHEMA };
export const POD_CLIQUE_SET: CrdKind = { apiVersion: 'grove.io/v1alpha1', kind: 'PodCliqueSet', schema: PCS_V1ALPHA1_SCHEMA };

/** The kinds with a CRD schema here. */
export const CRD_KINDS: readonly CrdKind[] = [LEADER_WORKER_SET, POD_CLIQUE_SET];

/** The CRD kind of an object (by apiVersion and kind), if this module has its schema. */
export function crdKindOf(object: unknown): CrdKind | undefined {
  if (!isMap(object)) return undefined;
  return CRD_KINDS.find(k => k.apiVersion === object.apiVersion && k.kind === object.kind);
}

/** The outcome of the CRD schema check of one object. */
export interface CrdCheck {
  readonly apiVersion: string;
  readonly kind: string;
  readonly name: string;
  /** `valid` / `invalid` (see `errors`); `not-crd` for objects of other kinds (not checked). */
  readonly status: 'valid' | 'invalid' | 'not-crd';
  /**
   * Violations as `field.path: message`: the structural walk's first, then failed CEL rules, then
   * unknown fields of embedded Kubernetes values, then their Kubernetes schema errors.
   */
  readonly errors: readonly string[];
}

/** Checks one object; see `checkCrdObjects` for a batch (one child process for all). */
export function checkCrdObject(object: unknown): CrdCheck {
  return checkCrdObjects([object])[0];
}

/**
 * Checks every LeaderWorkerSet and PodCliqueSet against its CRD schema; other objects come back as
 * `not-crd`. The embedded Kubernetes values of all objects are validated in one child process.
 * Results are in the order of `objects`.
 */
export function checkCrdObjects(objects: readonly unknown[]): CrdCheck[] {
  const pending = objects.map(object => {
    const crd = crdKindOf(object);
    const described = identity(object);
    if (!crd) return { described, crd, errors: [] as string[], embedded: [] as EmbeddedValue[] };
    const errors = structuralErrors(object as Record<string, unknown>, crd);
    errors.push(...celErrors(object, crd.schema));
    const embedded = embeddedValues(object, crd.schema, FieldPath.root());
    for (const e of embedded) errors.push(...unknownFieldErrors(e));
    return { described, crd, errors, embedded };
  });

  const wrappers = pending.flatMap(p => p.embedded.map(e => wrap(e)));
  const checks = validateKubernetesObjects(wrappers.map(w => w.object));
  let at = 0;
  for (const p of pending) {
    for (const e of p.embedded) {
      const wrapper = wrappers[at];
      const check = checks[at++];
      if (check.status === 'no-model') throw new Error(`crd-schema: kubernetes-models has no ${check.apiVersion} ${check.kind}`);
      for (const error of check.errors) p.errors.push(kubernetesError(e, wrapper.prefix, error));
    }
  }

  return pending.map(p => ({
    ...p.described,
    status: !p.crd ? 'not-crd' : p.errors.length > 0 ? 'invalid' : 'valid',
    errors: p.errors,
  }));
}

/** Field errors of a sink as `field.path: message`. */
function sinkErrors(sink: ViolationSink): string[] {
  return sink.all.map(v => `${v.path.toString()}: ${v.message}`);
}

function identity(object: unknown): { apiVersion: string; kind: string; name: string } {
  const o = isMap(object) ? object : {};
  const metadata = isMap(o.metadata) ? o.metadata : {};
  return { apiVersion: String(o.apiVersion ?? ''), kind: String(o.kind ?? ''), name: String(metadata.name ?? '') };
}

// ---------------------------------------------------------------------------------------------
// 1. The structural walk (src/admission/structural-check.ts)
// ---------------------------------------------------------------------------------------------

/** Below a marker node the walk checks only the JSON type; step 2 checks the rest. */
const EMBEDDED_SHAPES: Readonly<Record<EmbeddedK8sType, CrdSchemaNode>> = {
  IntOrString: { 'x-kubernetes-int-or-string': true },
  KubePersistentVolumeClaimProps: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
  MetricSpecV2: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
  ObjectMeta: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
  PodSpec: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
  PodTemplateSpec: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
  ResourceClaimTemplateSpec: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true },
};

/**
 * The overlay for LWS and PCS: no rows (every violation is a schema error), nothing pruned, the
 * root `metadata` left to the ObjectMeta check, markers resolved to their JSON type only.
 */
const CRD_OVERLAY: SchemaOverlay = {
  rules: {},
  prunedFields: {},
  apiServerFields: { metadata: EMBEDDED_SHAPES.ObjectMeta },
  // the structural check looks markers up by name; the names of these CRDs are other than Dynamo's
  embedded: EMBEDDED_SHAPES as unknown as SchemaOverlay['embedded'],
};

function structuralErrors(object: Record<string, unknown>, crd: CrdKind): string[] {
  const sink = new ViolationSink();
  // the compact schemas use the keywords of CrdSchemaNode; only the k8sType names differ
  checkStructure(object, { root: crd.schema as unknown as CrdSchemaNode, overlay: CRD_OVERLAY }, sink);
  const errors = sinkErrors(sink);
  if (object.apiVersion !== crd.apiVersion || object.kind !== crd.kind) errors.unshift(`apiVersion/kind: not ${crd.apiVersion} ${crd.kind}`);
  const metadata = isMap(object.metadata) ? object.metadata : {};
  if (typeof metadata.name !== 'string' || metadata.name === '') {
    errors.push('metadata.name: Required value: name or generateName is required');
  } else if (!DNS_SUBDOMAIN.test(metadata.name) || metadata.name.length > 253) {
    errors.push(`metadata.name: Invalid value: ${JSON.stringify(metadata.name)}: a lowercase RFC 1123 subdomain must consist of lower case `
      + 'alphanumeric characters, \'-\' or \'.\', and must start and end with an alphanumeric character');
  }
  return errors;
}

/** The name of a custom resource: a DNS-1123 subdomain (the API server's default name rule for CRs). */
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

// ---------------------------------------------------------------------------------------------
// 2. Values of embedded Kubernetes types
// ---------------------------------------------------------------------------------------------

/** A value at a marker node (or the root metadata) with where it is. */
export interface EmbeddedValue {
  readonly k8sType: EmbeddedK8sType;
  readonly path: FieldPath;
  readonly value: unknown;
}

/**
 * Every value of an embedded Kubernetes type in `value` (which sits at `node`), in document order,
 * and the root metadata first. Values of the wrong JSON type are left to the structural walk.
 */
export function embeddedValues(value: unknown, node: CrdObjectSchemaNode, path: FieldPath): EmbeddedValue[] {
  const out: EmbeddedValue[] = [];
  if (path.segments.length === 0 && isMap(value) && isMap(value.metadata)) out.push({ k8sType: 'ObjectMeta', path: path.child('metadata'), value: value.metadata });
  collect(value, node, path, out);
  return out;
}

function collect(value: unknown, node: CrdObjectSchemaNode, path: FieldPath, out: EmbeddedValue[]): void {
  if (value === null || value === undefined) return;
  if (node.k8sType !== undefined) {
    // IntOrString is fully checked by the structural walk
    if (node.k8sType !== 'IntOrString' && isMap(value)) out.push({ k8sType: node.k8sType, path, value });
    return;
  }
  if (Array.isArray(value)) {
    if (node.items) value.forEach((item, i) => collect(item, node.items!, path.index(i), out));
    return;
  }
  if (!isMap(value)) return;
  for (const [key, child] of Object.entries(value)) {
    if (path.segments.length === 0 && key === 'metadata') continue;
    const property = node.properties && Object.prototype.hasOwnProperty.call(node.properties, key) ? node.properties[key] : undefined;
    if (property) collect(child, property, path.child(key), out);
    else if (typeof node.additionalProperties === 'object') collect(child, node.additionalProperties, path.key(key), out);
  }
}

/** A Kubernetes object that holds an embedded value, and the JSON pointer of the value in it. */
interface Wrapper {
  readonly object: Record<string, unknown>;
  readonly prefix: string;
}

const WRAPPER_META = { name: 'embedded-value' };

/** The smallest Kubernetes object that holds a value of an embedded type. */
export function wrap(e: EmbeddedValue): Wrapper {
  const value = e.value;
  switch (e.k8sType) {
    case 'ObjectMeta':
      return { object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: value }, prefix: '/metadata' };
    case 'PodTemplateSpec':
      return { object: { apiVersion: 'v1', kind: 'PodTemplate', metadata: WRAPPER_META, template: value }, prefix: '/template' };
    case 'PodSpec':
      return { object: { apiVersion: 'v1', kind: 'Pod', metadata: WRAPPER_META, spec: value }, prefix: '/spec' };
    case 'KubePersistentVolumeClaimProps':
      // a whole claim (metadata, spec); apiVersion and kind as the API server fills them in
      return { object: { ...(value as object), apiVersion: 'v1', kind: 'PersistentVolumeClaim' }, prefix: '' };
    case 'MetricSpecV2':
      return {
        object: {
          apiVersion: 'autoscaling/v2',
          kind: 'HorizontalPodAutoscaler',
          metadata: WRAPPER_META,
          spec: { scaleTargetRef: { kind: 'Deployment', name: 'embedded-value' }, maxReplicas: 1, metrics: [value] },
        },
        prefix: '/spec/metrics/0',
      };
    case 'ResourceClaimTemplateSpec':
      return { object: { apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: WRAPPER_META, spec: value }, prefix: '/spec' };
    case 'IntOrString':
      throw new Error('crd-schema: IntOrString is checked by the structural walk');
  }
}

/** A kubernetes-models error (`/json/pointer: message`) of a wrapper, at the value's field path. */
function kubernetesError(e: EmbeddedValue, prefix: string, error: string): string {
  const colon = error.indexOf(': ');
  const pointer = colon < 0 ? '' : error.slice(0, colon);
  const message = colon < 0 ? error : error.slice(colon + 2);
  const inside = pointer === prefix || pointer.startsWith(`${prefix}/`) ? pointer.slice(prefix.length) : undefined;
  if (inside === undefined) return `${e.path.toString()}: ${message} (Kubernetes ${KUBERNETES_SCHEMA_VERSION} ${e.k8sType}, at ${pointer} of the wrapper)`;
  const steps = inside.split('/').slice(1).map(raw => raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  return `${pathBelow(e, steps).toString()}: ${message} (Kubernetes ${KUBERNETES_SCHEMA_VERSION} ${e.k8sType})`;
}

/**
 * The field path of the JSON pointer steps below an embedded value: map entries as `[key]` where
 * the Go layout of the type says the step is a map key, list items as `[i]`, fields as `.name`.
 */
function pathBelow(e: EmbeddedValue, steps: readonly string[]): FieldPath {
  const registry = goTypeRegistry(EXTRA_LAYOUTS);
  const goType = GO_TYPES[e.k8sType];
  let type: GoType | undefined = goType === undefined ? undefined : registry.type(goType);
  let path = e.path;
  for (const step of steps) {
    while (type?.kind === 'ptr') type = type.elem;
    if (type?.kind === 'map') {
      path = path.key(step);
      type = type.elem;
    } else if (type?.kind === 'slice' || (type === undefined && /^\d+$/.test(step))) {
      path = path.index(Number(step));
      type = type?.elem;
    } else {
      path = path.child(step);
      type = type?.kind === 'struct' ? registry.fields(type.name).find(f => f.name === step)?.type : undefined;
    }
  }
  return path;
}

/** Go struct layouts (src/go/types.ts notation) of the embedded types that the built-in layouts lack. */
const EXTRA_LAYOUTS: Readonly<Record<string, string>> = {
  PersistentVolumeClaimObject: 'apiVersion?:s kind?:s metadata?:ObjectMeta spec?:PersistentVolumeClaimSpec status?:any',
};

/** The Go type of each embedded type whose fields are known here (others: kubernetes-models only). */
const GO_TYPES: Partial<Record<EmbeddedK8sType, string>> = {
  ObjectMeta: 'ObjectMeta',
  PodSpec: 'PodSpec',
  PodTemplateSpec: 'PodTemplateSpec',
  KubePersistentVolumeClaimProps: 'PersistentVolumeClaimObject',
};

/** Fields of an embedded value that its Kubernetes type does not have (exact, case-sensitive names). */
export function unknownFieldErrors(e: EmbeddedValue): string[] {
  const goType = GO_TYPES[e.k8sType];
  if (goType === undefined) return [];
  const registry = goTypeRegistry(EXTRA_LAYOUTS);
  const errors: string[] = [];
  const walk = (value: unknown, type: GoType, path: FieldPath): void => {
    if (value === null || value === undefined) return;
    switch (type.kind) {
      case 'ptr':
        walk(value, type.elem, path);
        return;
      case 'slice':
        if (Array.isArray(value)) value.forEach((item, i) => walk(item, type.elem, path.index(i)));
        return;
      case 'map':
        if (isMap(value)) for (const [key, v] of Object.entries(value)) walk(v, type.elem, path.key(key));
        return;
      case 'struct': {
        if (!isMap(value)) return;
        const fields = registry.fields(type.name);
        for (const [key, v] of Object.entries(value)) {
          const field = fields.find(f => f.name === key);
          if (field) walk(v, field.type, path.child(key));
          else errors.push(`${path.child(key).toString()}: unknown field ${JSON.stringify(path.child(key).toString())} (Kubernetes ${e.k8sType})`);
        }
        return;
      }
      case 'prim':
        return;
    }
  };
  walk(e.value, registry.type(goType), e.path);
  return errors;
}

// ---------------------------------------------------------------------------------------------
// 3. CEL rules (the part of CEL these CRDs use)
// ---------------------------------------------------------------------------------------------

/** The errors of the `x-kubernetes-validations` rules of every node the object has a value at, on create. */
export function celErrors(object: unknown, schema: CrdObjectSchemaNode): string[] {
  const sink = new ViolationSink();
  const walk = (value: unknown, node: CrdObjectSchemaNode, path: FieldPath): void => {
    if (value === null || value === undefined || node.k8sType !== undefined) return;
    for (const rule of node['x-kubernetes-validations'] ?? []) checkRule(rule, value, path, sink);
    if (Array.isArray(value)) {
      if (node.items) value.forEach((item, i) => walk(item, node.items!, path.index(i)));
    } else if (isMap(value)) {
      for (const [key, child] of Object.entries(value)) {
        const property = node.properties && Object.prototype.hasOwnProperty.call(node.properties, key) ? node.properties[key] : undefined;
        if (property) walk(child, property, path.child(key));
        else if (typeof node.additionalProperties === 'object') walk(child, node.additionalProperties, path.key(key));
      }
    }
  };
  walk(object, schema, FieldPath.root());
  return sinkErrors(sink);
}

/** One rule: reported like the API server does, at the node's path plus the rule's `fieldPath`, typed by its `reason`. */
function checkRule(rule: CrdValidationRule, self: unknown, path: FieldPath, sink: ViolationSink): void {
  let holds: boolean;
  try {
    holds = celRule(rule.rule)(self);
  } catch (e) {
    sink.invalid(path, rule.rule, `CEL rule not evaluated: ${(e as Error).message}`, 'cel');
    return;
  }
  if (holds) return;
  const at = (rule.fieldPath ?? '').split('.').filter(f => f !== '').reduce((p, f) => p.child(f), path);
  const message = rule.message ?? `failed rule: ${rule.rule}`;
  if (rule.reason === 'FieldValueRequired') sink.required(at, message, 'cel');
  else if (rule.reason === 'FieldValueForbidden') sink.forbidden(at, self, message, 'cel');
  else sink.celFailure(at, self, message, 'cel');
}

/** A parsed rule of the CEL subset. */
type CelExpr =
  | { readonly op: 'or' | 'and'; readonly left: CelExpr; readonly right: CelExpr }
  | { readonly op: 'not'; readonly operand: CelExpr }
  | { readonly op: 'has'; readonly target: CelExpr; readonly field: string }
  | { readonly op: 'select'; readonly target: CelExpr; readonly field: string }
  | { readonly op: 'all'; readonly target: CelExpr; readonly variable: string; readonly body: CelExpr }
  | { readonly op: 'hasValue'; readonly target: CelExpr }
  | { readonly op: 'var'; readonly name: string };

/** `oldSelf` on create: an optional without a value. */
const NO_OLD_SELF = Symbol('no old object');

const RULES = new Map<string, (self: unknown) => boolean>();

/** The evaluator of a rule of the CEL subset (throws on anything outside it). */
export function celRule(text: string): (self: unknown) => boolean {
  let rule = RULES.get(text);
  if (!rule) {
    const expr = new CelParser(text).parse();
    rule = (self: unknown) => {
      const result = evaluate(expr, new Map<string, unknown>([['self', self], ['oldSelf', NO_OLD_SELF]]));
      if (typeof result !== 'boolean') throw new Error(`rule ${JSON.stringify(text)} gives no boolean`);
      return result;
    };
    RULES.set(text, rule);
  }
  return rule;
}

function evaluate(e: CelExpr, scope: ReadonlyMap<string, unknown>): unknown {
  switch (e.op) {
    case 'or': return evaluate(e.left, scope) === true || evaluate(e.right, scope) === true;
    case 'and': return evaluate(e.left, scope) === true && evaluate(e.right, scope) === true;
    case 'not': return evaluate(e.operand, scope) !== true;
    case 'has': {
      const target = evaluate(e.target, scope);
      return isMap(target) && target[e.field] !== undefined && target[e.field] !== null;
    }
    case 'select': {
      const target = evaluate(e.target, scope);
      if (!isMap(target) || target[e.field] === undefined) throw new Error(`no such key: ${e.field}`);
      return target[e.field];
    }
    case 'all': {
      const list = evaluate(e.target, scope);
      if (!Array.isArray(list)) throw new Error('all() on a value that is not a list');
      return list.every(item => evaluate(e.body, new Map([...scope, [e.variable, item]])) === true);
    }
    case 'hasValue': return evaluate(e.target, scope) !== NO_OLD_SELF;
    case 'var':
      if (!scope.has(e.name)) throw new Error(`undeclared reference to ${e.name}`);
      return scope.get(e.name);
  }
}

/**
 * Recursive descent over: `a || b`, `a && b`, `!a`, `(a)`, `has(x.f)`, `x.f`, `x.all(v, e)`,
 * `x.hasValue()`, identifiers.
 */
class CelParser {
  private readonly tokens: string[];
  private at = 0;

  constructor(private readonly text: string) {
    this.tokens = text.match(/\|\||&&|[A-Za-z_][A-Za-z0-9_]*|[().,!]|\S/g) ?? [];
  }

  public parse(): CelExpr {
    const e = this.or();
    if (this.at < this.tokens.length) this.fail();
    return e;
  }

  private or(): CelExpr {
    let e = this.and();
    while (this.eat('||')) e = { op: 'or', left: e, right: this.and() };
    return e;
  }

  private and(): CelExpr {
    let e = this.unary();
    while (this.eat('&&')) e = { op: 'and', left: e, right: this.unary() };
    return e;
  }

  private unary(): CelExpr {
    return this.eat('!') ? { op: 'not', operand: this.unary() } : this.postfix();
  }

  private postfix(): CelExpr {
    let e = this.primary();
    while (this.eat('.')) {
      const name = this.identifier();
      if (name === 'all' && this.eat('(')) {
        const variable = this.identifier();
        this.expect(',');
        const body = this.or();
        this.expect(')');
        e = { op: 'all', target: e, variable, body };
      } else if (name === 'hasValue' && this.eat('(')) {
        this.expect(')');
        e = { op: 'hasValue', target: e };
      } else {
        e = { op: 'select', target: e, field: name };
      }
    }
    return e;
  }

  private primary(): CelExpr {
    if (this.eat('(')) {
      const e = this.or();
      this.expect(')');
      return e;
    }
    const name = this.identifier();
    if (name === 'has' && this.eat('(')) {
      const selection = this.postfix();
      this.expect(')');
      if (selection.op !== 'select') this.fail();
      return { op: 'has', target: (selection as { target: CelExpr }).target, field: (selection as { field: string }).field };
    }
    return { op: 'var', name };
  }

  private identifier(): string {
    const token = this.tokens[this.at];
    if (token === undefined || !/^[A-Za-z_]/.test(token)) this.fail();
    this.at++;
    return token;
  }

  private eat(token: string): boolean {
    if (this.tokens[this.at] !== token) return false;
    this.at++;
    return true;
  }

  private expect(token: string): void {
    if (!this.eat(token)) this.fail();
  }

  private fail(): never {
    const near = this.tokens[this.at] === undefined ? 'the end' : JSON.stringify(this.tokens[this.at]);
    throw new Error(`${JSON.stringify(this.text)} is outside the CEL subset this checker evaluates (at ${near})`);
  }
}
