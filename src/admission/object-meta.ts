/**
 * The API server's own object checks beyond the OpenAPI schema (Kubernetes v1.36: apimachinery
 * `ValidateObjectMeta`, metav1 `ValidateLabels` / `ValidateLabelSelector`, core
 * `ValidatePodTemplateSpec` container ports and resources, apps `ValidateDeploymentSpec`, core
 * `ValidateService` ports and selector), with the API server's messages:
 *
 * - object names by kind: Service a DNS-1035 label; RBAC kinds a path segment; every other kind the
 *   library emits, custom resources included, a DNS-1123 subdomain; `generateName` checked as the
 *   name it starts (a trailing `-` masked); a namespace a DNS-1123 label;
 * - label keys (qualified names) and values, annotation keys and their total size (256 KiB);
 * - label selectors (`matchLabels`, `matchExpressions`);
 * - pod templates (Deployment): labels, annotations, container ports (1-65535, IANA_SVC_NAME names),
 *   resource quantities (not negative, whole for extended resources, requests equal to limits for
 *   resources that cannot be overcommitted, finite);
 * - Deployment: replicas not negative, a non-empty selector that matches the template labels, restart
 *   policy `Always`; Service: port numbers, port names, target ports, selector labels.
 *
 * The field paths are those of the JSON object (`spec.template.metadata.labels`), where the API
 * server names the fields of its internal types (`spec.template.labels`). Custom resources get the
 * metadata checks only: the API server does not look into their embedded pod templates.
 *
 * Internal module.
 */
import {
  dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, labelValueErrors, maskTrailingDash, pathSegmentNameErrors,
  portNameErrors, portNumberErrors, qualifiedNameErrors, byteLength,
} from './dns-names';
import { FieldPath } from './field-path';
import { KindTable } from './kind-table';
import { QUANTITY_FORMAT_MESSAGE } from './structural/report';
import { renderValue, ViolationRecord } from './violation';
import { amountSign, canonicalQuantity, compareQuantities, isWholeAmount, parseQuantity, QuantityParseError } from '../go/quantity';
import { isMap, JsonMap, listAt, mapAt, stringAt } from '../model/json';

/** Rule id of the API server's object checks. */
export const API_SERVER_RULE = 'apiserver';

/** The API server's limit on the total size of an object's annotations (keys and values). */
export const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

/** A name rule: one message per broken condition. */
export type NameRule = (name: string) => string[];

/** How the name of an emitted object is checked, by `apiVersion/kind`. */
const NAME_RULES: Readonly<Record<string, NameRule>> = {
  'v1/Service': dns1035LabelErrors,
  'v1/ServiceAccount': dns1123SubdomainErrors,
  'v1/ConfigMap': dns1123SubdomainErrors,
  'v1/Secret': dns1123SubdomainErrors,
  'v1/PersistentVolumeClaim': dns1123SubdomainErrors,
  'apps/v1/Deployment': dns1123SubdomainErrors,
  'networking.k8s.io/v1/Ingress': dns1123SubdomainErrors,
  'resource.k8s.io/v1/ResourceClaimTemplate': dns1123SubdomainErrors,
  'autoscaling/v2/HorizontalPodAutoscaler': dns1123SubdomainErrors,
  'rbac.authorization.k8s.io/v1/Role': pathSegmentNameErrors,
  'rbac.authorization.k8s.io/v1/RoleBinding': pathSegmentNameErrors,
  'rbac.authorization.k8s.io/v1/ClusterRole': pathSegmentNameErrors,
  'rbac.authorization.k8s.io/v1/ClusterRoleBinding': pathSegmentNameErrors,
  // custom resources: the API server requires a DNS-1123 subdomain
  'nvidia.com/v1beta1/DynamoGraphDeployment': dns1123SubdomainErrors,
  'nvidia.com/v1beta1/DynamoComponentDeployment': dns1123SubdomainErrors,
  'grove.io/v1alpha1/PodCliqueSet': dns1123SubdomainErrors,
  'leaderworkerset.x-k8s.io/v1/LeaderWorkerSet': dns1123SubdomainErrors,
  'nvidia.com/v1alpha1/SnapshotJob': dns1123SubdomainErrors,
  'nvidia.com/v1alpha1/PodSnapshot': dns1123SubdomainErrors,
};

const CLUSTER_SCOPED = new Set(['rbac.authorization.k8s.io/v1/ClusterRole', 'rbac.authorization.k8s.io/v1/ClusterRoleBinding']);

/** The name rule of a kind, if the library knows it. */
export function nameRuleOf(apiVersion: string, kind: string): NameRule | undefined {
  const key = `${apiVersion}/${kind}`;
  return Object.prototype.hasOwnProperty.call(NAME_RULES, key) ? NAME_RULES[key] : undefined;
}

/**
 * Explains where a name or label value that breaks a rule comes from (see derived-names.ts): the
 * text appended to the API server's message, or undefined.
 */
export type ValueExplainer = (value: string, where: ValueSite, lengthError: boolean) => string | undefined;

/** What a checked string value is: an object name (with the kind's limit), or a label value. */
export type ValueSite = { readonly kind: 'name'; readonly objectKind: string; readonly max: number } | { readonly kind: 'label'; readonly key: string };

/** Collects the API server's errors as violation records of rule `apiserver`. */
export class ApiServerProblems {
  public readonly records: ViolationRecord[] = [];

  constructor(private readonly explain?: ValueExplainer) {}

  /** `Invalid value: <value>: <detail>` */
  public invalid(path: FieldPath, value: unknown, detail: string): void {
    this.records.push({ path, value, message: `Invalid value: ${renderValue(value)}: ${detail}`, rule: API_SERVER_RULE });
  }

  /** `Required value[: <detail>]` */
  public required(path: FieldPath, detail?: string): void {
    this.records.push({ path, message: detail === undefined ? 'Required value' : `Required value: ${detail}`, rule: API_SERVER_RULE });
  }

  /** `Forbidden: <detail>` */
  public forbidden(path: FieldPath, detail: string): void {
    this.records.push({ path, message: `Forbidden: ${detail}`, rule: API_SERVER_RULE });
  }

  /** `Unsupported value: <value>: supported values: "a", "b"` */
  public notSupported(path: FieldPath, value: unknown, supported: readonly string[]): void {
    const list = supported.map((s) => JSON.stringify(s)).join(', ');
    this.records.push({ path, value, message: `Unsupported value: ${renderValue(value)}: supported values: ${list}`, rule: API_SERVER_RULE });
  }

  /** `Too long: may not be more than <max> bytes` */
  public tooLong(path: FieldPath, max: number): void {
    this.records.push({ path, message: `Too long: may not be more than ${max} bytes`, rule: API_SERVER_RULE });
  }

  /** `Invalid value` errors of a string value, with the explanation of where the value comes from. */
  public invalidValue(path: FieldPath, value: string, errors: readonly string[], site: ValueSite, lengthErrorOf: (error: string) => boolean): void {
    for (const error of errors) {
      const why = this.explain?.(value, site, lengthErrorOf(error));
      this.invalid(path, value, why === undefined ? error : `${error}: ${why}`);
    }
  }
}

const isLengthError = (error: string): boolean => error.startsWith('must be no more than');

/** The string entries of a map (entries of any other type are the schema check's). */
function stringEntries(map: unknown): Array<[string, string]> {
  if (!isMap(map)) return [];
  return Object.entries(map).filter((entry): entry is [string, string] => typeof entry[1] === 'string');
}

/** metav1 `ValidateLabels`: every key a qualified name, every value a label value (errors at the map's path). */
export function checkLabels(labels: unknown, path: FieldPath, problems: ApiServerProblems): void {
  if (!isMap(labels)) return;
  for (const key of Object.keys(labels)) {
    const value = labels[key];
    if (typeof value !== 'string') continue; // the schema check's
    for (const error of qualifiedNameErrors(key)) problems.invalid(path, key, error);
    const errors = labelValueErrors(value);
    if (errors.length > 0) problems.invalidValue(path, value, errors, { kind: 'label', key }, isLengthError);
  }
}

/**
 * apimachinery `ValidateAnnotations`: keys are qualified names (case-insensitive), at most 256 KiB
 * in all. `valueLimit`: a limit on each value another check already reports (the total size is
 * then not reported when a value breaks it).
 */
export function checkAnnotations(annotations: unknown, path: FieldPath, problems: ApiServerProblems, valueLimit?: number): void {
  if (!isMap(annotations)) return;
  let units = 0;
  let oversizedValue = false;
  for (const key of Object.keys(annotations)) {
    const value = annotations[key];
    if (typeof value !== 'string') continue; // the schema check's
    for (const error of qualifiedNameErrors(key.toLowerCase())) problems.invalid(path, key, error);
    units += key.length + value.length;
    if (valueLimit !== undefined && value.length > valueLimit) oversizedValue = true;
  }
  // a UTF-16 code unit is at most 3 bytes of UTF-8: only annotations that may be over the limit are measured
  if (units * 3 > TOTAL_ANNOTATION_SIZE_LIMIT && !oversizedValue && annotationsSize(annotations) > TOTAL_ANNOTATION_SIZE_LIMIT) {
    problems.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT);
  }
}

/** The size of annotations as the API server counts it: UTF-8 bytes of the keys and the string values. */
function annotationsSize(annotations: JsonMap): number {
  let size = 0;
  for (const [key, value] of stringEntries(annotations)) size += byteLength(key) + byteLength(value);
  return size;
}

/** What `checkObjectMeta` checks besides labels and annotations. */
export interface ObjectMetaOptions {
  /** The kind's name rule; none: the name is not checked. */
  readonly nameRule?: NameRule;
  /** The kind, for explanations of a broken name. */
  readonly objectKind: string;
  /** Whether `metadata.name` is checked (false where another check already reports it). */
  readonly checkName: boolean;
  /** Whether the kind is namespaced (its namespace, when set, is checked). */
  readonly namespaced: boolean;
}

/**
 * apimachinery `ValidateObjectMeta` on create: `generateName` and `name` by the kind's rule, the
 * namespace, labels and annotations. (A missing name is the structural check's.)
 */
export function checkObjectMeta(metadata: unknown, options: ObjectMetaOptions, path: FieldPath, problems: ApiServerProblems): void {
  if (!isMap(metadata)) return;
  const { nameRule } = options;
  const generateName = stringAt(metadata, 'generateName') ?? '';
  if (nameRule && generateName !== '') {
    for (const error of nameRule(maskTrailingDash(generateName))) problems.invalid(path.child('generateName'), generateName, error);
  }
  const name = stringAt(metadata, 'name') ?? '';
  if (nameRule && options.checkName && name !== '') {
    const max = nameRule === dns1035LabelErrors ? 63 : 253;
    problems.invalidValue(path.child('name'), name, nameRule(name), { kind: 'name', objectKind: options.objectKind, max }, isLengthError);
  }
  const namespace = stringAt(metadata, 'namespace') ?? '';
  if (options.namespaced && namespace !== '') {
    for (const error of dns1123LabelErrors(namespace)) problems.invalid(path.child('namespace'), namespace, error);
  }
  checkLabels(metadata.labels, path.child('labels'), problems);
  checkAnnotations(metadata.annotations, path.child('annotations'), problems);
}

/** metav1 `ValidateLabelSelector` (label values checked strictly, as on create). */
export function checkLabelSelector(selector: unknown, path: FieldPath, problems: ApiServerProblems): void {
  if (!isMap(selector)) return;
  checkLabels(selector.matchLabels, path.child('matchLabels'), problems);
  (listAt(selector, 'matchExpressions') ?? []).forEach((expression, i) => {
    if (!isMap(expression)) return;
    const at = path.child('matchExpressions').index(i);
    const operator = expression.operator;
    const values = (listAt(expression, 'values') ?? []).filter((v): v is string => typeof v === 'string');
    if (operator === 'In' || operator === 'NotIn') {
      if (values.length === 0) problems.required(at.child('values'), "must be specified when `operator` is 'In' or 'NotIn'");
    } else if (operator === 'Exists' || operator === 'DoesNotExist') {
      if (values.length > 0) problems.forbidden(at.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
    } else if (typeof operator === 'string') {
      problems.invalid(at.child('operator'), operator, 'not a valid selector operator');
    }
    const key = stringAt(expression, 'key');
    if (key !== undefined) for (const error of qualifiedNameErrors(key)) problems.invalid(at.child('key'), key, error);
    values.forEach((value, j) => {
      for (const error of labelValueErrors(value)) problems.invalid(at.child('values').index(j), value, error);
    });
  });
}

/** The value of a label of a pod (a value that is not a string is the schema check's, and counts as absent). */
function labelValue(labels: JsonMap | undefined, key: string): string | undefined {
  if (labels === undefined || !Object.prototype.hasOwnProperty.call(labels, key)) return undefined;
  const value = labels[key];
  return typeof value === 'string' ? value : undefined;
}

/** Whether a selector's `matchLabels` and `matchExpressions` select a pod with these labels. */
function selectorMatches(selector: JsonMap, labels: JsonMap | undefined): boolean {
  for (const [key, value] of stringEntries(selector.matchLabels)) if (labelValue(labels, key) !== value) return false;
  for (const expression of listAt(selector, 'matchExpressions') ?? []) {
    const key = stringAt(expression, 'key') ?? '';
    const values = (listAt(expression, 'values') ?? []).filter((v): v is string => typeof v === 'string');
    const label = labelValue(labels, key);
    const present = label !== undefined;
    switch (stringAt(expression, 'operator')) {
      case 'In': if (!present || !values.includes(label)) return false; break;
      case 'NotIn': if (present && values.includes(label)) return false; break;
      case 'Exists': if (!present) return false; break;
      case 'DoesNotExist': if (present) return false; break;
      default: return false;
    }
  }
  return true;
}

// -------------------------------------------------------------------------------------------------
// Pod templates: container ports and resources
// -------------------------------------------------------------------------------------------------

/** core `validateContainerPorts`: port names (IANA_SVC_NAME, unique), container and host port ranges. */
function checkContainerPorts(ports: unknown, path: FieldPath, problems: ApiServerProblems): void {
  const names = new Set<string>();
  (Array.isArray(ports) ? ports : []).forEach((port, i) => {
    if (!isMap(port)) return;
    const at = path.index(i);
    const name = stringAt(port, 'name') ?? '';
    if (name !== '') {
      const errors = portNameErrors(name);
      for (const error of errors) problems.invalid(at.child('name'), name, error);
      if (errors.length === 0 && names.has(name)) problems.records.push({ path: at.child('name'), value: name, message: `Duplicate value: ${renderValue(name)}`, rule: API_SERVER_RULE });
      else if (errors.length === 0) names.add(name);
    }
    const containerPort = port.containerPort;
    if (typeof containerPort === 'number' && Number.isInteger(containerPort)) {
      if (containerPort === 0) problems.required(at.child('containerPort'));
      else for (const error of portNumberErrors(containerPort)) problems.invalid(at.child('containerPort'), containerPort, error);
    }
    const hostPort = port.hostPort;
    if (typeof hostPort === 'number' && Number.isInteger(hostPort) && hostPort !== 0) {
      for (const error of portNumberErrors(hostPort)) problems.invalid(at.child('hostPort'), hostPort, error);
    }
  });
}

/** Whether a resource name is native (no domain, or a `kubernetes.io/` one). */
function isNativeResource(name: string): boolean {
  return !name.includes('/') || name.includes('kubernetes.io/');
}

/** Whether requests of the resource may be lower than its limit (native resources but huge pages). */
function isOvercommitAllowed(name: string): boolean {
  return isNativeResource(name) && !name.startsWith('hugepages-');
}

/** An extended resource (`nvidia.com/gpu`): counted in whole units. */
function isExtendedResource(name: string): boolean {
  if (isNativeResource(name) || name.startsWith('requests.')) return false;
  return qualifiedNameErrors(`requests.${name}`).length === 0;
}

/** A quantity read as Kubernetes reads it, or why it cannot be; undefined for a value of the wrong type (the schema check's). */
type ReadQuantity =
  | { readonly raw: string | number; readonly text: string; readonly sign: number; readonly whole: boolean }
  | { readonly error: string }
  | undefined;

function readQuantity(raw: unknown): ReadQuantity {
  if (typeof raw === 'number' && !Number.isFinite(raw)) return { error: QUANTITY_FORMAT_MESSAGE };
  if (typeof raw !== 'string' && typeof raw !== 'number') return undefined;
  try {
    const { amount } = parseQuantity(String(raw));
    return { raw, text: canonicalQuantity(raw), sign: amountSign(amount), whole: isWholeAmount(amount) };
  } catch (e) {
    // a malformed quantity string is reported by the schema check
    if (e instanceof QuantityParseError) return undefined;
    throw e;
  }
}

/**
 * core `ValidateContainerResourceRequirements`: every quantity not negative and, for an extended
 * resource, whole; a request of a resource that cannot be overcommitted equal to its limit (and
 * its limit set); any other request not above its limit. A non-finite number is not a quantity.
 */
function checkResources(resources: unknown, path: FieldPath, problems: ApiServerProblems, skip?: (resource: string) => boolean): void {
  if (!isMap(resources)) return;
  const limitNames = mapAt(resources, 'limits') ?? {};
  const limits = new Map<string, ReadQuantity>();
  for (const bucket of ['limits', 'requests'] as const) {
    const quantities = mapAt(resources, bucket);
    if (!quantities) continue;
    for (const [resource, raw] of Object.entries(quantities)) {
      if (skip?.(resource)) continue;
      const at = path.child(bucket).key(resource);
      const q = readQuantity(raw);
      if (bucket === 'limits') limits.set(resource, q);
      if (q === undefined) continue;
      if ('error' in q) {
        problems.invalid(at, raw, q.error);
        continue;
      }
      if (q.sign < 0) problems.invalid(at, q.text, 'must be greater than or equal to 0');
      if (isExtendedResource(resource) && !q.whole) problems.invalid(at, q.text, 'must be an integer');
      if (bucket !== 'requests') continue;
      if (!Object.prototype.hasOwnProperty.call(limitNames, resource)) {
        if (!isOvercommitAllowed(resource)) problems.required(path.child('limits'), 'Limit must be set for non overcommitable resources');
        continue;
      }
      const limit = limits.get(resource);
      if (limit === undefined || 'error' in limit) continue;
      const order = compareQuantities(q.raw, limit.raw);
      if (order !== 0 && !isOvercommitAllowed(resource)) {
        problems.invalid(path.child('requests'), q.text, `must be equal to ${resource} limit of ${limit.text}`);
      } else if (order > 0) {
        problems.invalid(path.child('requests'), q.text, `must be less than or equal to ${resource} limit of ${limit.text}`);
      }
    }
  }
}

/** What `checkPodTemplateSpec` leaves out (for a pod template written as input, which the operator transforms). */
export interface PodTemplateCheckOptions {
  /** Resources not to check (the operator moves them out of the containers). */
  readonly skipResource?: (resource: string) => boolean;
  /** A limit on each annotation value another check already reports (see `checkAnnotations`). */
  readonly annotationValueLimit?: number;
}

/** The checks of core `ValidatePodTemplateSpec` this module makes: labels, annotations, containers' ports and resources. */
export function checkPodTemplateSpec(template: unknown, path: FieldPath, problems: ApiServerProblems, options: PodTemplateCheckOptions = {}): void {
  if (!isMap(template)) return;
  const metadata = mapAt(template, 'metadata');
  checkLabels(metadata?.labels, path.child('metadata', 'labels'), problems);
  checkAnnotations(metadata?.annotations, path.child('metadata', 'annotations'), problems, options.annotationValueLimit);
  const spec = mapAt(template, 'spec');
  for (const listName of ['initContainers', 'containers']) {
    (listAt(spec, listName) ?? []).forEach((container, i) => {
      if (!isMap(container)) return;
      const at = path.child('spec', listName).index(i);
      checkContainerPorts(container.ports, at.child('ports'), problems);
      checkResources(container.resources, at.child('resources'), problems, options.skipResource);
    });
  }
}

// -------------------------------------------------------------------------------------------------
// Kinds
// -------------------------------------------------------------------------------------------------

/** apps `ValidateDeploymentSpec` (the parts on create this module makes). */
function checkDeploymentSpec(spec: unknown, path: FieldPath, problems: ApiServerProblems): void {
  if (!isMap(spec)) return;
  const replicas = spec.replicas;
  if (typeof replicas === 'number' && replicas < 0) problems.invalid(path.child('replicas'), replicas, 'must be greater than or equal to 0');
  const selector = spec.selector;
  if (isMap(selector)) {
    checkLabelSelector(selector, path.child('selector'), problems);
    const count = Object.keys(mapAt(selector, 'matchLabels') ?? {}).length + (listAt(selector, 'matchExpressions') ?? []).length;
    if (count === 0) problems.invalid(path.child('selector'), selector, 'empty selector is invalid for deployment');
  }
  const template = mapAt(spec, 'template');
  if (!template) return;
  const templatePath = path.child('template');
  const templateLabels = mapAt(mapAt(template, 'metadata'), 'labels');
  if (isMap(selector) && !selectorMatches(selector, templateLabels)) {
    const labels = Object.fromEntries(stringEntries(templateLabels));
    problems.invalid(templatePath.child('metadata', 'labels'), labels, '`selector` does not match template `labels`');
  }
  checkPodTemplateSpec(template, templatePath, problems);
  const restartPolicy = stringAt(mapAt(template, 'spec'), 'restartPolicy');
  if (restartPolicy !== undefined && restartPolicy !== 'Always') {
    problems.notSupported(templatePath.child('spec', 'restartPolicy'), restartPolicy, ['Always']);
  }
}

/** core `ValidateService` (ports and selector). */
function checkServiceSpec(spec: unknown, path: FieldPath, problems: ApiServerProblems): void {
  if (!isMap(spec)) return;
  const ports = listAt(spec, 'ports') ?? [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    if (!isMap(port)) return;
    const at = path.child('ports').index(i);
    const name = stringAt(port, 'name') ?? '';
    if (ports.length > 1 && name === '') {
      problems.required(at.child('name'));
    } else if (name !== '') {
      for (const error of dns1123LabelErrors(name)) problems.invalid(at.child('name'), name, error);
      if (names.has(name)) problems.records.push({ path: at.child('name'), value: name, message: `Duplicate value: ${renderValue(name)}`, rule: API_SERVER_RULE });
      else names.add(name);
    }
    if (typeof port.port === 'number' && Number.isInteger(port.port)) {
      for (const error of portNumberErrors(port.port)) problems.invalid(at.child('port'), port.port, error);
    }
    // an unset or zero target port is defaulted to the port
    const target = port.targetPort;
    if (typeof target === 'number' && Number.isInteger(target) && target !== 0) {
      for (const error of portNumberErrors(target)) problems.invalid(at.child('targetPort'), target, error);
    } else if (typeof target === 'string' && target !== '') {
      for (const error of portNameErrors(target)) problems.invalid(at.child('targetPort'), target, error);
    }
    const appProtocol = stringAt(port, 'appProtocol');
    if (appProtocol !== undefined) for (const error of qualifiedNameErrors(appProtocol)) problems.invalid(at.child('appProtocol'), appProtocol, error);
  });
  checkLabels(spec.selector, path.child('selector'), problems);
}

/** What the API server checks of the objects of one kind, beyond their metadata. */
type SpecCheck = (spec: unknown, path: FieldPath, problems: ApiServerProblems) => void;

/** The object checks of one kind the library knows the name rule of. */
interface ApiServerKind {
  readonly nameRule: NameRule;
  readonly namespaced: boolean;
  readonly checkSpec?: SpecCheck;
}

const SPEC_CHECKS: Readonly<Record<string, SpecCheck>> = {
  'apps/v1/Deployment': checkDeploymentSpec,
  'v1/Service': checkServiceSpec,
};

const API_SERVER_KINDS = new KindTable<ApiServerKind>((apiVersion, kind) => {
  const nameRule = nameRuleOf(apiVersion, kind);
  if (!nameRule) return undefined;
  const key = `${apiVersion}/${kind}`;
  const checkSpec = Object.prototype.hasOwnProperty.call(SPEC_CHECKS, key) ? SPEC_CHECKS[key] : undefined;
  return { nameRule, namespaced: !CLUSTER_SCOPED.has(key), checkSpec };
});

const METADATA_PATH = FieldPath.of('metadata');
const SPEC_PATH = FieldPath.of('spec');

/**
 * The API server's object checks of one emitted object (see the module doc), as violation records
 * of rule `apiserver`; none for a kind the library has no name rule of. `explain` tells where a
 * broken name or label value comes from. Never throws on malformed input.
 */
export function apiServerRecords(obj: unknown, explain?: ValueExplainer): ViolationRecord[] {
  if (!isMap(obj)) return [];
  const kind = stringAt(obj, 'kind') ?? '';
  const checks = API_SERVER_KINDS.get(stringAt(obj, 'apiVersion') ?? '', kind);
  if (checks === undefined) return [];
  const problems = new ApiServerProblems(explain);
  const options: ObjectMetaOptions = { nameRule: checks.nameRule, objectKind: kind, checkName: true, namespaced: checks.namespaced };
  checkObjectMeta(obj.metadata, options, METADATA_PATH, problems);
  checks.checkSpec?.(obj.spec, SPEC_PATH, problems);
  return problems.records;
}

/**
 * The API server's `ValidateObjectMeta` of a custom resource written as input (a
 * DynamoGraphDeployment or DynamoComponentDeployment) beyond its name: `generateName`, namespace,
 * labels and annotations. (The name is checked with the schema, rule `schema`.)
 */
export function customResourceMetaRecords(doc: JsonMap): ViolationRecord[] {
  const problems = new ApiServerProblems();
  const options: ObjectMetaOptions = { nameRule: dns1123SubdomainErrors, objectKind: stringAt(doc, 'kind') ?? '', checkName: false, namespaced: true };
  checkObjectMeta(doc.metadata, options, FieldPath.of('metadata'), problems);
  return problems.records;
}
