/**
 * Names and label values the operator derives from a graph's names, and where they come from
 * (docs/design/render-core.md §4.3, §5.9, §7.1, §8.1):
 *
 * - DCD, Deployment and LeaderWorkerSet `<graph>-<component lower-cased>[-<worker hash>]`; the same
 *   as the value of label `nvidia.com/selector` of the component's pods;
 * - component Service: that name lower-cased with `.` replaced by `-` (on the Grove pathway
 *   `<graph>-<component lower-cased>`, without the worker hash);
 * - label `nvidia.com/dynamo-graph-deployment-name: <graph>`, `nvidia.com/dynamo-namespace:
 *   <namespace>-<graph with '.' replaced by '-'>`;
 * - `<graph>-k8s-service-discovery[-role|-binding]`, `<graph>-epp-config`, `<graph>-pool`.
 *
 * Two uses: `emittedValueExplainer` tells, for a name or label value of an emitted object the API
 * server would reject, which input names it is made of (appended to the API server's message);
 * `graphWorkloadRecords` / `componentWorkloadRecords` reject the input early, at the input field,
 * where the operator would create an object the API server rejects: a derived name or label value
 * that is too long or a Service name that does not start with a letter, and the pod template
 * metadata, ports and quantities the operator copies into the workloads it creates.
 *
 * Internal module.
 */
import { componentEntries, componentType, gpuMemoryService, isWorkerClass } from './component-shape';
import { byteLength, DNS1035_LABEL_FORMAT_ERROR, DNS_LABEL_MAX_LENGTH, LABEL_MAX_LENGTH } from './dns-names';
import { FieldPath } from './field-path';
import { isGpuResourceName } from './main-container';
import {
  ApiServerProblems, checkAnnotations, checkEnv, checkLabels, checkPodTemplateSpec, PodTemplateCheckOptions, ValueExplainer, ValueSite,
} from './object-meta';
import { ViolationRecord } from './violation';
import { EPP_CONFIG_MAP_SUFFIX, INFERENCE_POOL_SUFFIX } from '../model/epp-names';
import { isMap, JsonMap, mapAt, stringAt } from '../model/json';
import {
  ANNOTATION_DISCOVERY_BACKEND, LABEL_COMPONENT, LABEL_DYNAMO_NAMESPACE, LABEL_GRAPH_NAME, LABEL_SELECTOR, LABEL_WORKER_HASH,
} from '../model/well-known';

/** Length of the worker hash the operator appends to worker-class DCD names. */
const WORKER_HASH_LENGTH = 8;

/** A Dynamo name as a Kubernetes resource name: lower-cased, `.` replaced by `-` (Service names). */
function normalized(name: string): string {
  return name.toLowerCase().split('.').join('-');
}

/** Suffixes of the graph's shared resources the operator appends to the graph name. */
const GRAPH_SUFFIXES = ['-k8s-service-discovery-binding', '-k8s-service-discovery-role', '-k8s-service-discovery', EPP_CONFIG_MAP_SUFFIX, INFERENCE_POOL_SUFFIX];

/** What a derived value is made of. */
interface Derivation {
  /** The graph-name part of the value ('' when the graph has no name). */
  readonly graph: string;
  /** `graph name (40) + "-" + component name (25)` */
  readonly parts: string;
  /** The input fields to change. */
  readonly inputs: string;
}

/** What an emitted object says about the graph it was rendered from. */
interface GraphTraces {
  readonly graph?: string;
  readonly component?: string;
  readonly hash?: string;
  readonly namespace?: string;
}

function tracesOf(obj: JsonMap): GraphTraces {
  const metadata = mapAt(obj, 'metadata');
  const spec = mapAt(obj, 'spec');
  const selector = mapAt(spec, 'selector');
  const sources = [
    mapAt(metadata, 'labels'),
    mapAt(mapAt(mapAt(spec, 'template'), 'metadata'), 'labels'),
    // a Service selects by component name; a Deployment's selector is a LabelSelector
    selector && !isMap(selector.matchLabels) ? selector : undefined,
  ];
  const pick = (key: string): string | undefined => sources.map((labels) => stringAt(labels, key)).find((v) => v !== undefined);
  return { graph: pick(LABEL_GRAPH_NAME), component: pick(LABEL_COMPONENT), hash: pick(LABEL_WORKER_HASH), namespace: stringAt(metadata, 'namespace') };
}

const GRAPH_NAME_FIELD = "the DynamoGraphDeployment's metadata.name";

/** Which input names `value` is made of, if it is one of the derived names above. */
function derivationOf(value: string, site: ValueSite, traces: GraphTraces): Derivation | undefined {
  const { graph, component, hash, namespace } = traces;
  const graphMatches = (part: string): boolean => graph === undefined || part === graph || part === normalized(graph);
  if (component !== undefined && component !== '') {
    for (const withHash of hash !== undefined && hash !== '' ? [true, false] : [false]) {
      const suffix = `-${component.toLowerCase()}${withHash ? `-${hash}` : ''}`;
      const at = value.endsWith(suffix) ? value.length - suffix.length : value.endsWith(normalized(suffix)) ? value.length - suffix.length : -1;
      if (at < 0 || !graphMatches(value.slice(0, at))) continue;
      const part = graph ?? value.slice(0, at);
      const hashPart = withHash ? ` + "-" + worker hash (${byteLength(hash!)})` : '';
      return {
        graph: part,
        parts: `graph name (${byteLength(part)}) + "-" + component name (${byteLength(component)})${hashPart}`,
        inputs: `${GRAPH_NAME_FIELD} or spec.components[].name ${JSON.stringify(component)}`,
      };
    }
  }
  if (graph !== undefined && value === graph) return { graph, parts: `graph name (${byteLength(graph)})`, inputs: GRAPH_NAME_FIELD };
  const dynamoNamespace = site.kind === 'label' && site.key === LABEL_DYNAMO_NAMESPACE && namespace !== undefined && value.startsWith(`${namespace}-`);
  if (dynamoNamespace && graphMatches(value.slice(namespace.length + 1))) {
    const part = value.slice(namespace.length + 1);
    return {
      graph: part,
      parts: `namespace (${byteLength(namespace)}) + "-" + graph name (${byteLength(part)})`,
      inputs: "the DynamoGraphDeployment's metadata.namespace or metadata.name",
    };
  }
  for (const suffix of GRAPH_SUFFIXES) {
    if (!value.endsWith(suffix) || !graphMatches(value.slice(0, value.length - suffix.length))) continue;
    const part = value.slice(0, value.length - suffix.length);
    return { graph: part, parts: `graph name (${byteLength(part)}) + ${JSON.stringify(suffix)}`, inputs: GRAPH_NAME_FIELD };
  }
  return undefined;
}

/** `Service names allow 63`, `label values allow 63`. */
function limitText(site: ValueSite): string {
  return site.kind === 'label' ? `label values allow ${LABEL_MAX_LENGTH}` : `${site.objectKind} names allow ${site.max}`;
}

const EMPTY_GRAPH_NAME = 'the graph has no metadata.name: a DynamoGraphDeployment with only metadata.generateName is named by the API server on ' +
  'create, and the objects the operator names after it cannot be rendered before; set metadata.name';

/**
 * Explains the names and label values of an emitted object that are derived from the graph's
 * names (see the module doc): the length of each part and the input fields to change, an empty
 * graph name, or a Service name that starts with a digit because the graph name does.
 */
export function emittedValueExplainer(obj: JsonMap): ValueExplainer {
  let traces: GraphTraces | undefined;
  return (value, site, lengthError) => {
    traces ??= tracesOf(obj);
    const derivation = derivationOf(value, site, traces);
    if (derivation === undefined) return undefined;
    if (derivation.graph === '') return EMPTY_GRAPH_NAME;
    if (lengthError) return `${derivation.parts} is ${byteLength(value)} characters; ${limitText(site)} (shorten ${derivation.inputs})`;
    if (site.kind === 'name' && site.objectKind === 'Service' && /^[0-9]/.test(value)) {
      const graph = traces.graph === undefined ? 'the graph name' : `the graph name ${JSON.stringify(traces.graph)}`;
      return `the Service name starts with ${graph}, which starts with a digit: a valid DNS-1123 subdomain for the DynamoGraphDeployment ` +
        'itself, but a Service name must start with a letter (rename the DynamoGraphDeployment)';
    }
    return undefined;
  };
}

// -------------------------------------------------------------------------------------------------
// Input checks
// -------------------------------------------------------------------------------------------------

/** Each annotation value of a component pod template: the CRD schema's limit (row 92). */
const POD_TEMPLATE_ANNOTATION_VALUE_LIMIT = 262144;

/**
 * What the operator changes of a component's pod template before creating its workloads: with the
 * GPU memory service its GPU resources become resource claims (so they are not checked as
 * quantities of the containers; rows 115 and 124 check them).
 */
function inputTemplateOptions(component: JsonMap): PodTemplateCheckOptions {
  const gms = gpuMemoryService(component) !== undefined;
  return { annotationValueLimit: POD_TEMPLATE_ANNOTATION_VALUE_LIMIT, skipResource: gms ? isGpuResourceName : undefined, partial: true };
}

/** Whether the component surely gets a component Service: a frontend, or Kubernetes discovery asked for by annotation. */
function surelyHasService(component: JsonMap, discoveryAnnotations: unknown): boolean {
  return componentType(component) === 'frontend' || stringAt(discoveryAnnotations, ANNOTATION_DISCOVERY_BACKEND) === 'kubernetes';
}

/**
 * Where the operator would create objects the API server rejects because of a graph's names, its
 * `spec.labels` / `spec.annotations` or its components' pod templates (see the module doc), as
 * records at the input fields, of rule `apiserver`. `doc`: the admitted graph.
 */
export function graphWorkloadRecords(doc: JsonMap, grovePathway: boolean): ViolationRecord[] {
  const problems = new ApiServerProblems();
  const spec = mapAt(doc, 'spec');
  const specPath = FieldPath.of('spec');
  // DGD spec.labels / spec.annotations reach the pods, Deployments and Services (docs/design/render-core.md §4.5 step 6)
  checkLabels(spec?.labels, specPath.child('labels'), problems);
  checkAnnotations(spec?.annotations, specPath.child('annotations'), problems);
  // DGD spec.env reaches the main container of every component
  checkEnv(spec?.env, specPath.child('env'), problems);
  for (const { component, index } of componentEntries(spec)) {
    checkPodTemplateSpec(component.podTemplate, specPath.child('components').index(index).child('podTemplate'), problems, inputTemplateOptions(component));
  }
  checkGraphNames(doc, grovePathway, problems);
  return problems.records;
}

function checkGraphNames(doc: JsonMap, grovePathway: boolean, problems: ApiServerProblems): void {
  const metadata = mapAt(doc, 'metadata');
  const graph = stringAt(metadata, 'name') ?? '';
  // no name yet (generateName): the API server names the graph; a malformed name is reported by the name check
  if (graph === '' || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(graph)) return;
  const namePath = FieldPath.of('metadata', 'name');
  if (byteLength(graph) > LABEL_MAX_LENGTH) {
    problems.invalid(namePath, graph, `graph name (${byteLength(graph)}) is ${byteLength(graph)} characters; the operator writes it as label ` +
      `${JSON.stringify(LABEL_GRAPH_NAME)} on the objects it creates, and label values allow ${LABEL_MAX_LENGTH}`);
  }
  const graphAnnotations = mapAt(metadata, 'annotations');
  let digitReported = false;
  for (const { component, index } of componentEntries(mapAt(doc, 'spec'))) {
    const name = stringAt(component, 'name') ?? '';
    // a name the schema rejects (row 41) is reported there
    if (!/^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$/.test(name) || name.length > DNS_LABEL_MAX_LENGTH) continue;
    const worker = !grovePathway && isWorkerClass(componentType(component));
    const podAnnotations = mapAt(mapAt(component.podTemplate, 'metadata'), 'annotations');
    const hasService = surelyHasService(component, grovePathway ? graphAnnotations : podAnnotations);
    const length = byteLength(graph) + 1 + byteLength(name) + (worker ? 1 + WORKER_HASH_LENGTH : 0);
    // on the component pathway every workload labels its pods nvidia.com/selector: <DCD name>
    if (length > DNS_LABEL_MAX_LENGTH && (!grovePathway || hasService)) {
      const parts = `graph name (${byteLength(graph)}) + "-" + component name (${byteLength(name)})${worker ? ` + "-" + worker hash (${WORKER_HASH_LENGTH})` : ''}`;
      const use = grovePathway
        ? `the operator names the component's Service after it, and Service names allow ${DNS_LABEL_MAX_LENGTH}`
        : `the operator writes it as label ${JSON.stringify(LABEL_SELECTOR)} on the component's pods and names the component's Service after it, ` +
          `and label values and Service names allow ${DNS_LABEL_MAX_LENGTH}`;
      problems.invalid(FieldPath.of('spec', 'components').index(index).child('name'), name, `${parts} is ${length} characters; ${use}`);
    }
    if (!digitReported && hasService && /^[0-9]/.test(graph)) {
      digitReported = true;
      const service = normalized(`${graph}-${name}`) + (worker ? '-<worker hash>' : '');
      problems.invalid(namePath, graph, `the operator names the Service of component ${JSON.stringify(name)} ${JSON.stringify(service)} after the graph, ` +
        `and ${DNS1035_LABEL_FORMAT_ERROR}; the graph name is a valid DNS-1123 subdomain for the DynamoGraphDeployment itself, ` +
        'but a Service name must start with a letter');
    }
  }
}

/**
 * As `graphWorkloadRecords`, for a standalone DynamoComponentDeployment: its pod template, the
 * `nvidia.com/selector` label value and the Service name the operator derives from its name.
 */
export function componentWorkloadRecords(doc: JsonMap): ViolationRecord[] {
  const problems = new ApiServerProblems();
  const spec = mapAt(doc, 'spec');
  checkPodTemplateSpec(spec?.podTemplate, FieldPath.of('spec', 'podTemplate'), problems, inputTemplateOptions(spec ?? {}));
  const name = stringAt(mapAt(doc, 'metadata'), 'name') ?? '';
  if (name === '' || !/^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$/.test(name) || spec === undefined) return problems.records;
  const namePath = FieldPath.of('metadata', 'name');
  const hasService = surelyHasService(spec, mapAt(mapAt(spec.podTemplate, 'metadata'), 'annotations'));
  // a spec.name defaulted from a long metadata.name is reported under row 41
  if (byteLength(name) > DNS_LABEL_MAX_LENGTH && stringAt(spec, 'name') !== name) {
    problems.invalid(namePath, name, `DynamoComponentDeployment name (${byteLength(name)}) is ${byteLength(name)} characters; the operator writes it as ` +
      `label ${JSON.stringify(LABEL_SELECTOR)} on the component's pods and names the component's Service after it, and label values and ` +
      `Service names allow ${DNS_LABEL_MAX_LENGTH}`);
  }
  if (hasService && /^[0-9]/.test(name)) {
    problems.invalid(namePath, name, `the operator names the component's Service ${JSON.stringify(normalized(name))} after the ` +
      `DynamoComponentDeployment, and ${DNS1035_LABEL_FORMAT_ERROR}; the name is a valid DNS-1123 subdomain for the ` +
      'DynamoComponentDeployment itself, but a Service name must start with a letter');
  }
  return problems.records;
}
