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
 * - pod templates (Deployment) and pod specs (core `ValidatePodSpec`): labels, annotations; volume
 *   types and names; container names (DNS-1123 labels, unique) and images, probes and lifecycle
 *   hooks (one handler each), container ports (1-65535, IANA_SVC_NAME names),
 *   env var names (printable ASCII but `=`, the rule of Kubernetes v1.34 and later), `valueFrom`
 *   and `envFrom` sources, the ConfigMap / Secret names and keys they read, volume mounts (a volume
 *   of the pod, unique mount paths), resource quantities (not negative, whole for extended
 *   resources, requests equal to limits for resources that cannot be overcommitted, finite);
 * - Deployment: replicas not negative, a non-empty selector that matches the template labels, restart
 *   policy `Always`; Service: port numbers, port names, target ports, selector labels;
 * - Secret (`ValidateSecret`) and ConfigMap (`ValidateConfigMap`): keys, total size, the keys a
 *   Secret of a known type needs.
 *
 * The field paths are those of the JSON object (`spec.template.metadata.labels`, a Secret's
 * `stringData[key]`), where the API server names the fields of its internal types
 * (`spec.template.labels`, `data[key]`). The API server does not look into a custom resource's
 * embedded pod templates; the pod templates of a LeaderWorkerSet and the pod specs of a
 * PodCliqueSet get the pod checks all the same, because their controllers create pods from them
 * (with the API server's checks). Other custom resources get the metadata checks only.
 *
 * Internal module.
 */
import {
  configMapKeyErrors, dns1035LabelErrors, dns1123LabelErrors, dns1123SubdomainErrors, envVarNameErrors, labelValueErrors, maskTrailingDash,
  pathSegmentNameErrors, portNameErrors, portNumberErrors, qualifiedNameErrors, byteLength,
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

/** The resource names the API server knows (core helper `standardResources`; huge pages apart). */
const STANDARD_RESOURCES = new Set([
  'cpu', 'memory', 'ephemeral-storage', 'requests.cpu', 'requests.memory', 'requests.ephemeral-storage', 'limits.cpu', 'limits.memory',
  'limits.ephemeral-storage', 'pods', 'resourcequotas', 'services', 'replicationcontrollers', 'secrets', 'configmaps', 'persistentvolumeclaims',
  'storage', 'requests.storage', 'services.nodeports', 'services.loadbalancers',
]);

/** Those a container can ask for. */
const CONTAINER_RESOURCES = new Set(['cpu', 'memory', 'ephemeral-storage']);

/**
 * core `validateContainerResourceName`: a qualified name; without a domain, a resource the API
 * server knows and a container can ask for (`cpu`, `memory`, `ephemeral-storage`, `hugepages-*`:
 * `gpu` is not one, `nvidia.com/gpu` is); with a domain other than `kubernetes.io`, an extended
 * resource name.
 */
function containerResourceNameErrors(name: string): string[] {
  const errors = [...qualifiedNameErrors(name)];
  const domainless = !name.includes('/');
  if (errors.length === 0 && domainless && !STANDARD_RESOURCES.has(name) && !name.startsWith('hugepages-') && !name.startsWith('requests.hugepages-')) {
    errors.push('must be a standard resource type or fully qualified');
  }
  if (domainless) {
    if (!CONTAINER_RESOURCES.has(name) && !name.startsWith('hugepages-')) errors.push('must be a standard resource for containers');
  } else if (!isNativeResource(name) && !isExtendedResource(name)) {
    errors.push("doesn't follow extended resource name standard");
  }
  return errors;
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
      for (const error of containerResourceNameErrors(resource)) problems.invalid(at, resource, error);
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
  /**
   * Whether the pod spec is not yet the one the pods get: the operator adds volumes (and mounts) to a
   * component's pod template and may fill in images, so its volume mounts are not matched against
   * its volumes and its containers may have no image.
   */
  readonly partial?: boolean;
}

/** The checks of core `ValidatePodTemplateSpec` this module makes: labels, annotations and the pod spec (`checkPodSpec`). */
export function checkPodTemplateSpec(template: unknown, path: FieldPath, problems: ApiServerProblems, options: PodTemplateCheckOptions = {}): void {
  if (!isMap(template)) return;
  const metadata = mapAt(template, 'metadata');
  checkLabels(metadata?.labels, path.child('metadata', 'labels'), problems);
  checkAnnotations(metadata?.annotations, path.child('metadata', 'annotations'), problems, options.annotationValueLimit);
  checkPodSpec(template.spec, path.child('spec'), problems, options);
}

/**
 * The checks of core `ValidatePodSpec` this module makes: volumes (one type, a valid name, given
 * once); containers and init containers: names (unique across both lists), ports, env, envFrom,
 * resources and, unless `options.partial`, images, volume mounts, probes and lifecycle hooks.
 */
export function checkPodSpec(spec: unknown, path: FieldPath, problems: ApiServerProblems, options: PodTemplateCheckOptions = {}): void {
  if (!isMap(spec)) return;
  const volumes = checkVolumes(spec.volumes, path.child('volumes'), problems);
  const names = new Map<string, string>();
  // regular containers first: an init container named as a regular container is the duplicate
  for (const listName of ['containers', 'initContainers']) {
    (listAt(spec, listName) ?? []).forEach((container, i) => {
      if (!isMap(container)) return;
      const at = path.child(listName).index(i);
      checkContainerName(container, at.child('name'), { names, listName, partial: options.partial === true }, problems);
      // the operator fills in images of a component's pod template (row 46 checks the main container's)
      if (!options.partial && (container.image ?? '') === '') problems.required(at.child('image'));
      checkContainerPorts(container.ports, at.child('ports'), problems);
      checkEnv(container.env, at.child('env'), problems);
      checkEnvFrom(container.envFrom, at.child('envFrom'), problems);
      if (!options.partial) checkVolumeMounts(container.volumeMounts, volumes, at.child('volumeMounts'), problems);
      checkResources(container.resources, at.child('resources'), problems, options.skipResource);
      // the operator replaces, merges and removes the probes of a component's pod template
      if (!options.partial) checkProbesAndLifecycle(container, at, listName === 'initContainers', problems);
    });
  }
}

/** `Duplicate value: <value>` */
function duplicate(path: FieldPath, value: string, problems: ApiServerProblems): void {
  problems.records.push({ path, value, message: `Duplicate value: ${renderValue(value)}`, rule: API_SERVER_RULE });
}

/** The sources of a volume, in the order the API server looks at them (the first one found is the volume's). */
const VOLUME_SOURCES = [
  'emptyDir', 'hostPath', 'gitRepo', 'gcePersistentDisk', 'awsElasticBlockStore', 'secret', 'nfs', 'iscsi', 'glusterfs', 'flocker',
  'persistentVolumeClaim', 'rbd', 'cinder', 'cephfs', 'quobyte', 'downwardAPI', 'fc', 'flexVolume', 'configMap', 'azureFile',
  'vsphereVolume', 'photonPersistentDisk', 'portworxVolume', 'azureDisk', 'storageos', 'projected', 'scaleIO', 'csi', 'ephemeral', 'image',
];

/** The name field a volume source of a ConfigMap, Secret or claim must set. */
const VOLUME_SOURCE_NAMES: Readonly<Record<string, string>> = { secret: 'secretName', configMap: 'name', persistentVolumeClaim: 'claimName' };

/**
 * core `validateVolumeSource` (the parts this module makes): exactly one source; the object a
 * Secret, ConfigMap or claim source names. Returns the number of problems found.
 */
function checkVolumeSource(volume: JsonMap, path: FieldPath, problems: ApiServerProblems): number {
  const before = problems.records.length;
  const sources = VOLUME_SOURCES.filter((source) => isMap(volume[source]));
  if (sources.length === 0) problems.required(path, 'must specify a volume type');
  for (const extra of sources.slice(1)) problems.forbidden(path.child(extra), 'may not specify more than 1 volume type');
  const first = sources[0];
  if (first !== undefined && Object.prototype.hasOwnProperty.call(VOLUME_SOURCE_NAMES, first)) {
    const field = VOLUME_SOURCE_NAMES[first];
    if ((mapAt(volume, first)?.[field] ?? '') === '') problems.required(path.child(first, field));
  }
  return problems.records.length - before;
}

/**
 * core `ValidateVolumes`: each volume with one source (`checkVolumeSource`), its name a DNS-1123
 * label, given once. Returns the names of the volumes that passed (the only ones a mount can name).
 */
function checkVolumes(volumes: unknown, path: FieldPath, problems: ApiServerProblems): Set<string> {
  const names = new Set<string>();
  (Array.isArray(volumes) ? volumes : []).forEach((volume, i) => {
    if (!isMap(volume)) return;
    const name = volume.name;
    if (typeof name !== 'string') return; // the schema check's
    const at = path.index(i).child('name');
    let found = checkVolumeSource(volume, path.index(i), problems);
    const errors = name === '' ? [] : dns1123LabelErrors(name);
    if (name === '') problems.required(at);
    for (const error of errors) problems.invalid(at, name, error);
    found += errors.length + (name === '' ? 1 : 0);
    if (names.has(name)) duplicate(at, name, problems);
    else if (found === 0) names.add(name);
  });
  return names;
}

/** The container names seen so far in a pod spec (with the list of each), and whether the schema reports a name given twice in one list. */
interface ContainerNames {
  readonly names: Map<string, string>;
  readonly listName: string;
  readonly partial: boolean;
}

/**
 * core `validateContainerCommon` and the uniqueness of names: a DNS-1123 label, unique across the
 * pod's containers and init containers (in a component's pod template the CRD schema reports a
 * name given twice in one list, row 89; a name in both lists is reported here).
 */
function checkContainerName(container: JsonMap, path: FieldPath, seen: ContainerNames, problems: ApiServerProblems): void {
  const name = container.name;
  if (typeof name !== 'string') return; // the schema check's
  if (name === '') problems.required(path);
  else for (const error of dns1123LabelErrors(name)) problems.invalid(path, name, error);
  const first = seen.names.get(name);
  if (first === undefined) {
    if (name !== '') seen.names.set(name, seen.listName);
  } else if (!seen.partial || first !== seen.listName) {
    duplicate(path, name, problems);
  }
}

/** The sources an `env[].valueFrom` may name (exactly one of them). */
const ENV_VALUE_SOURCES = ['fieldRef', 'resourceFieldRef', 'configMapKeyRef', 'secretKeyRef', 'fileKeyRef'];

/**
 * core `ValidateEnv`: each name set and printable ASCII without `=` (the relaxed rule of Kubernetes
 * v1.34 and later); a `valueFrom` with one source, not beside a `value`; the ConfigMap or Secret
 * key it reads (`validateConfigMapKeySelector`, `validateSecretKeySelector`).
 */
export function checkEnv(env: unknown, path: FieldPath, problems: ApiServerProblems): void {
  (Array.isArray(env) ? env : []).forEach((entry, i) => {
    if (!isMap(entry)) return;
    const at = path.index(i);
    const name = entry.name;
    if (name === '') problems.required(at.child('name'));
    else if (typeof name === 'string') for (const error of envVarNameErrors(name)) problems.invalid(at.child('name'), name, error);
    const valueFrom = mapAt(entry, 'valueFrom');
    if (!valueFrom) return;
    const from = at.child('valueFrom');
    checkFieldRef(valueFrom.fieldRef, from.child('fieldRef'), problems);
    checkResourceFieldRef(valueFrom.resourceFieldRef, from.child('resourceFieldRef'), problems);
    for (const source of ['configMapKeyRef', 'secretKeyRef']) checkKeySelector(valueFrom[source], from.child(source), problems);
    const sources = ENV_VALUE_SOURCES.filter((source) => isMap(valueFrom[source])).length;
    const value = stringAt(entry, 'value') ?? '';
    // (no source at all is left to the schema's reader: its message names the sources of the version)
    if (sources > 0 && value !== '') problems.invalid(from, '', 'may not be specified when `value` is not empty');
    else if (sources > 1) problems.invalid(from, '', 'may not have more than one field specified at a time');
  });
}

/** The pod fields the API server can read (core pods `ConvertDownwardAPIFieldLabel`, Kubernetes v1 pods). */
const DOWNWARD_API_FIELDS = new Set([
  'metadata.annotations', 'metadata.labels', 'metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.restartPolicy',
  'spec.serviceAccountName', 'spec.schedulerName', 'status.phase', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs',
]);

/** Of those, the ones an env var can take (sorted, as the API server lists them); `spec.host` is read as `spec.nodeName`. */
const ENV_FIELD_PATHS = ['metadata.name', 'metadata.namespace', 'metadata.uid', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP',
  'status.hostIPs', 'status.podIP', 'status.podIPs'];

/** `path['key']` split into the path and the key, or undefined (apimachinery-style `SplitMaybeSubscriptedPath`). */
function subscripted(fieldPath: string): { path: string; key: string } | undefined {
  if (!fieldPath.endsWith("']")) return undefined;
  const inner = fieldPath.slice(0, -2);
  const at = inner.indexOf("['");
  if (at <= 0) return undefined;
  return { path: inner.slice(0, at), key: inner.slice(at + 2) };
}

/**
 * core `validateObjectFieldSelector` of an env var's `fieldRef`: a pod field the API server can
 * read (`apiVersion` defaults to `v1`), one an env var can take, or a label or annotation by a
 * valid key (`metadata.labels['app']`).
 */
function checkFieldRef(fieldRef: unknown, path: FieldPath, problems: ApiServerProblems): void {
  if (!isMap(fieldRef)) return;
  const apiVersion = stringAt(fieldRef, 'apiVersion') || 'v1';
  const fieldPath = fieldRef.fieldPath;
  if (fieldPath === '') problems.required(path.child('fieldPath'));
  if (typeof fieldPath !== 'string' || fieldPath === '') return; // a missing one is the schema check's
  const at = path.child('fieldPath');
  const sub = subscripted(fieldPath);
  let error: string | undefined;
  if (apiVersion !== 'v1') error = `unsupported pod version: ${apiVersion}`;
  else if (sub && sub.path !== 'metadata.annotations' && sub.path !== 'metadata.labels') error = `field label does not support subscript: ${fieldPath}`;
  else if (!sub && !DOWNWARD_API_FIELDS.has(fieldPath) && fieldPath !== 'spec.host') error = `field label not supported: ${fieldPath}`;
  if (error !== undefined) {
    problems.invalid(at, fieldPath, `error converting fieldPath: ${error}`);
  } else if (sub) {
    const key = sub.path === 'metadata.annotations' ? sub.key.toLowerCase() : sub.key;
    for (const message of qualifiedNameErrors(key)) problems.invalid(path, key, message);
  } else {
    const field = fieldPath === 'spec.host' ? 'spec.nodeName' : fieldPath;
    if (!ENV_FIELD_PATHS.includes(field)) problems.notSupported(at, field, ENV_FIELD_PATHS);
  }
}

/** The container resources an env var can read (sorted, as the API server lists them), and the prefixes of huge pages. */
const ENV_RESOURCE_FIELDS = ['limits.cpu', 'limits.ephemeral-storage', 'limits.memory', 'requests.cpu', 'requests.ephemeral-storage', 'requests.memory'];
const ENV_RESOURCE_PREFIXES = ['limits.hugepages-', 'requests.hugepages-'];

/** core `validateContainerResourceFieldSelector` of an env var's `resourceFieldRef` (the divisor is not checked). */
function checkResourceFieldRef(ref: unknown, path: FieldPath, problems: ApiServerProblems): void {
  if (!isMap(ref)) return;
  const resource = ref.resource;
  if (typeof resource !== 'string') return; // a missing one is the schema check's
  const at = path.child('resource');
  const known = ENV_RESOURCE_FIELDS.includes(resource) || ENV_RESOURCE_PREFIXES.some((prefix) => resource.startsWith(prefix));
  if (resource === '') problems.required(at);
  else if (!known) problems.notSupported(at, resource, ENV_RESOURCE_FIELDS);
}

/** A `configMapKeyRef` / `secretKeyRef`: the object's name a DNS-1123 subdomain (also when empty), the key set and a valid config key. */
function checkKeySelector(selector: unknown, path: FieldPath, problems: ApiServerProblems): void {
  if (!isMap(selector)) return;
  const name = selector.name ?? '';
  if (typeof name === 'string') for (const error of dns1123SubdomainErrors(name)) problems.invalid(path.child('name'), name, error);
  const key = selector.key;
  if (key === '') problems.required(path.child('key'));
  else if (typeof key === 'string') for (const error of configMapKeyErrors(key)) problems.invalid(path.child('key'), key, error);
}

/**
 * core `ValidateEnvFrom`: a prefix of printable ASCII without `=`; exactly one of `configMapRef` and
 * `secretRef`, naming its object (a DNS-1123 subdomain, which may end in `-`).
 */
function checkEnvFrom(envFrom: unknown, path: FieldPath, problems: ApiServerProblems): void {
  (Array.isArray(envFrom) ? envFrom : []).forEach((entry, i) => {
    if (!isMap(entry)) return;
    const at = path.index(i);
    const prefix = stringAt(entry, 'prefix') ?? '';
    if (prefix !== '') for (const error of envVarNameErrors(prefix)) problems.invalid(at.child('prefix'), prefix, error);
    let sources = 0;
    for (const source of ['configMapRef', 'secretRef']) {
      const ref = entry[source];
      if (!isMap(ref)) continue;
      sources++;
      const name = ref.name ?? '';
      if (typeof name !== 'string') continue; // the schema check's
      if (name === '') problems.required(at.child(source, 'name'));
      else for (const error of dns1123SubdomainErrors(maskTrailingDash(name))) problems.invalid(at.child(source, 'name'), name, error);
    }
    // the API server reports these at the list (envFrom); the entry is named here
    if (sources === 0) problems.invalid(at, '', 'must specify one of: `configMapRef` or `secretRef`');
    else if (sources > 1) problems.invalid(at, '', 'may not have more than one field specified at a time');
  });
}

/** The handlers of a probe, and of a lifecycle hook, in the order the API server looks at them. */
const PROBE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'grpc'];
const LIFECYCLE_HANDLERS = ['exec', 'httpGet', 'tcpSocket', 'sleep'];

/** A port given as a number (1-65535) or as a name (IANA_SVC_NAME), as a probe's `httpGet` / `tcpSocket` takes it. */
function checkPortNumberOrName(port: unknown, path: FieldPath, problems: ApiServerProblems): void {
  if (typeof port === 'number' && Number.isInteger(port)) for (const error of portNumberErrors(port)) problems.invalid(path, port, error);
  else if (typeof port === 'string') for (const error of portNameErrors(port)) problems.invalid(path, port, error);
}

/** core `validateHandler`: exactly one handler; an exec handler's command; the port of the others. */
function checkHandler(handler: JsonMap, kinds: readonly string[], path: FieldPath, problems: ApiServerProblems): void {
  const found = kinds.filter((kind) => isMap(handler[kind]));
  if (found.length === 0) problems.required(path, 'must specify a handler type');
  for (const extra of found.slice(1)) problems.forbidden(path.child(extra), 'may not specify more than 1 handler type');
  const first = found[0];
  const action = first === undefined ? undefined : mapAt(handler, first);
  if (first === 'exec' && (listAt(action, 'command') ?? []).length === 0) problems.required(path.child('exec', 'command'));
  if (first === 'httpGet' || first === 'tcpSocket' || first === 'grpc') checkPortNumberOrName(action?.port, path.child(first, 'port'), problems);
}

const PROBE_COUNTS = ['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'];

/** core `validateProbe` and the rules of each kind of probe (a success threshold of 1 but for readiness; no grace period on readiness). */
function checkProbe(probe: JsonMap, kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe', path: FieldPath, problems: ApiServerProblems): void {
  checkHandler(probe, PROBE_HANDLERS, path, problems);
  for (const field of PROBE_COUNTS) {
    const value = probe[field];
    if (typeof value === 'number' && value < 0) problems.invalid(path.child(field), value, 'must be greater than or equal to 0');
  }
  const grace = probe.terminationGracePeriodSeconds;
  if (typeof grace === 'number' && grace <= 0) problems.invalid(path.child('terminationGracePeriodSeconds'), grace, 'must be greater than 0');
  // a success threshold of 0 is defaulted to 1
  const success = probe.successThreshold;
  if (kind !== 'readinessProbe' && typeof success === 'number' && success !== 0 && success !== 1) problems.invalid(path.child('successThreshold'), success, 'must be 1');
  if (kind === 'readinessProbe' && typeof grace === 'number') problems.invalid(path.child('terminationGracePeriodSeconds'), grace, 'must not be set for readinessProbes');
}

/**
 * core `validateContainers` / `validateInitContainers`: the lifecycle hooks and probes of a
 * container (an init container has them only when it restarts `Always`, a sidecar); the restart
 * policy of a container (init containers only, and only `Always`).
 */
function checkProbesAndLifecycle(container: JsonMap, path: FieldPath, init: boolean, problems: ApiServerProblems): void {
  const restartPolicy = stringAt(container, 'restartPolicy');
  if (restartPolicy !== undefined) {
    if (!init) problems.forbidden(path.child('restartPolicy'), 'may not be set for non-init containers');
    else if (restartPolicy !== 'Always') problems.notSupported(path.child('restartPolicy'), restartPolicy, ['Always']);
  }
  const hooksAllowed = !init || restartPolicy === 'Always';
  const lifecycle = mapAt(container, 'lifecycle');
  if (lifecycle && !hooksAllowed) {
    problems.forbidden(path.child('lifecycle'), 'may not be set for init containers without restartPolicy=Always');
  } else if (lifecycle) {
    for (const hook of ['postStart', 'preStop']) {
      const handler = mapAt(lifecycle, hook);
      if (handler) checkHandler(handler, LIFECYCLE_HANDLERS, path.child('lifecycle', hook), problems);
    }
  }
  for (const kind of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
    const probe = mapAt(container, kind);
    if (!probe) continue;
    if (!hooksAllowed) problems.forbidden(path.child(kind), 'may not be set for init containers without restartPolicy=Always');
    else checkProbe(probe, kind, path.child(kind), problems);
  }
}

/** core `ValidateVolumeMounts`: a mount names a volume of the pod (one that passed its checks); mount paths are set and unique in a container. */
function checkVolumeMounts(mounts: unknown, volumes: ReadonlySet<string>, path: FieldPath, problems: ApiServerProblems): void {
  const mountPaths = new Set<string>();
  (Array.isArray(mounts) ? mounts : []).forEach((mount, i) => {
    if (!isMap(mount)) return;
    const at = path.index(i);
    const name = stringAt(mount, 'name');
    if (name !== undefined) {
      if (name === '') problems.required(at.child('name'));
      if (!volumes.has(name)) problems.records.push({ path: at.child('name'), value: name, message: `Not found: ${renderValue(name)}`, rule: API_SERVER_RULE });
    }
    const mountPath = stringAt(mount, 'mountPath');
    if (mountPath === undefined) return;
    if (mountPath === '') problems.required(at.child('mountPath'));
    if (mountPaths.has(mountPath)) problems.invalid(at.child('mountPath'), mountPath, 'must be unique');
    mountPaths.add(mountPath);
  });
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

/**
 * The pod templates a LeaderWorkerSet holds. The API server does not look into a custom resource,
 * but the pods its controller creates from them get the pod checks.
 */
function checkLeaderWorkerSetSpec(spec: unknown, path: FieldPath, problems: ApiServerProblems): void {
  const templates = mapAt(spec, 'leaderWorkerTemplate');
  const at = path.child('leaderWorkerTemplate');
  for (const name of ['leaderTemplate', 'workerTemplate']) checkPodTemplateSpec(templates?.[name], at.child(name), problems);
}

/** The pod specs of a Grove PodCliqueSet's cliques (checked as a LeaderWorkerSet's templates are). */
function checkPodCliqueSetSpec(spec: unknown, path: FieldPath, problems: ApiServerProblems): void {
  const at = path.child('template', 'cliques');
  (listAt(mapAt(spec, 'template'), 'cliques') ?? []).forEach((clique, i) => {
    checkPodSpec(mapAt(mapAt(clique, 'spec'), 'podSpec'), at.index(i).child('spec', 'podSpec'), problems);
  });
}

/** The API server's limit on the data of a ConfigMap or Secret (core `MaxSecretSize`, 1 MiB). */
export const MAX_DATA_SIZE = 1024 * 1024;

/** The size of a `binaryData` / Secret `data` value as the API server counts it: its bytes once decoded from base64. */
function decodedSize(value: unknown): number {
  return typeof value === 'string' ? Buffer.from(value, 'base64').length : 0;
}

/** The keys a Secret of a type must hold (core `ValidateSecret`): all of them, or (basic-auth) one at least. */
const SECRET_TYPE_KEYS: Readonly<Record<string, { readonly keys: readonly string[]; readonly any?: boolean }>> = {
  'kubernetes.io/dockercfg': { keys: ['.dockercfg'] },
  'kubernetes.io/dockerconfigjson': { keys: ['.dockerconfigjson'] },
  'kubernetes.io/basic-auth': { keys: ['username', 'password'], any: true },
  'kubernetes.io/ssh-auth': { keys: ['ssh-privatekey'] },
  'kubernetes.io/tls': { keys: ['tls.crt', 'tls.key'] },
};

/**
 * core `ValidateSecret`: the keys of `data` and `stringData` (which the API server merges into
 * `data`, a `stringData` value replacing the `data` value of its key) valid config keys; at most
 * 1 MiB of data in all; the keys and the annotation a Secret of a known type needs. No message
 * holds a value of the Secret.
 */
function checkSecret(obj: JsonMap, problems: ApiServerProblems): void {
  const sizes = new Map<string, number>();
  for (const [field, size] of [['data', decodedSize], ['stringData', (v: unknown) => (typeof v === 'string' ? byteLength(v) : 0)]] as const) {
    for (const [key, value] of Object.entries(mapAt(obj, field) ?? {})) {
      for (const error of configMapKeyErrors(key)) problems.invalid(FieldPath.of(field).key(key), key, error);
      sizes.set(key, size(value));
    }
  }
  let total = 0;
  for (const size of sizes.values()) total += size;
  if (total > MAX_DATA_SIZE) problems.tooLong(FieldPath.of('data'), MAX_DATA_SIZE);
  const type = stringAt(obj, 'type') ?? '';
  if (type === 'kubernetes.io/service-account-token') {
    const annotation = 'kubernetes.io/service-account.name';
    if ((stringAt(mapAt(mapAt(obj, 'metadata'), 'annotations'), annotation) ?? '') === '') problems.required(FieldPath.of('metadata', 'annotations').key(annotation));
    return;
  }
  const needed = Object.prototype.hasOwnProperty.call(SECRET_TYPE_KEYS, type) ? SECRET_TYPE_KEYS[type] : undefined;
  if (needed === undefined) return;
  // an ssh-auth key must also hold something
  const present = (key: string): boolean => sizes.has(key) && (type !== 'kubernetes.io/ssh-auth' || sizes.get(key)! > 0);
  if (needed.any && needed.keys.some(present)) return;
  for (const key of needed.keys) if (!present(key)) problems.required(FieldPath.of('data').key(key));
}

/**
 * core `ValidateConfigMap`: the keys of `data` and `binaryData` valid config keys, no key in both;
 * at most 1 MiB of data in all (reported for the whole object, as the API server does).
 */
function checkConfigMap(obj: JsonMap, problems: ApiServerProblems): void {
  const binary = mapAt(obj, 'binaryData') ?? {};
  let total = 0;
  for (const [key, value] of Object.entries(mapAt(obj, 'data') ?? {})) {
    const at = FieldPath.of('data').key(key);
    for (const error of configMapKeyErrors(key)) problems.invalid(at, key, error);
    if (Object.prototype.hasOwnProperty.call(binary, key)) problems.invalid(at, key, 'duplicate of key present in binaryData');
    total += typeof value === 'string' ? byteLength(value) : 0;
  }
  for (const [key, value] of Object.entries(binary)) {
    for (const error of configMapKeyErrors(key)) problems.invalid(FieldPath.of('binaryData').key(key), key, error);
    total += decodedSize(value);
  }
  if (total > MAX_DATA_SIZE) problems.tooLong(FieldPath.root(), MAX_DATA_SIZE);
}

/** What the API server checks of the objects of one kind, beyond their metadata: their spec, or the object itself. */
type SpecCheck = (spec: unknown, path: FieldPath, problems: ApiServerProblems) => void;
type ObjectCheck = (obj: JsonMap, problems: ApiServerProblems) => void;

/** The object checks of one kind the library knows the name rule of. */
interface ApiServerKind {
  readonly nameRule: NameRule;
  readonly namespaced: boolean;
  readonly checkSpec?: SpecCheck;
  readonly checkObject?: ObjectCheck;
}

const SPEC_CHECKS: Readonly<Record<string, SpecCheck>> = {
  'apps/v1/Deployment': checkDeploymentSpec,
  'v1/Service': checkServiceSpec,
  'leaderworkerset.x-k8s.io/v1/LeaderWorkerSet': checkLeaderWorkerSetSpec,
  'grove.io/v1alpha1/PodCliqueSet': checkPodCliqueSetSpec,
};

const OBJECT_CHECKS: Readonly<Record<string, ObjectCheck>> = {
  'v1/Secret': checkSecret,
  'v1/ConfigMap': checkConfigMap,
};

function own<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;
}

const API_SERVER_KINDS = new KindTable<ApiServerKind>((apiVersion, kind) => {
  const nameRule = nameRuleOf(apiVersion, kind);
  if (!nameRule) return undefined;
  const key = `${apiVersion}/${kind}`;
  return { nameRule, namespaced: !CLUSTER_SCOPED.has(key), checkSpec: own(SPEC_CHECKS, key), checkObject: own(OBJECT_CHECKS, key) };
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
  checks.checkObject?.(obj, problems);
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
