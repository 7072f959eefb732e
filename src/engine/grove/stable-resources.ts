/**
 * The "stable resources" the graph controller creates next to a graph's PodCliqueSet on the Grove
 * workload provider: model headless Services, then per component its Service, the elastic-EP
 * leader Service, and for a frontend its Ingress and Istio VirtualService.
 *
 * Unlike on the component path there is no DCD: the objects are built from the graph and the
 * Grove render copy of each component (the component as written plus the worker-hash label on
 * worker-class components), owned by the graph, named `<graph>-<component lower-cased>`.
 */
import { fnv1a32 } from './pcs-name';
import { dgdAlphaComponentView } from '../../import/v1alpha1/dgd-alpha-view';
import { OperatorSettings } from '../../model/operator-settings';
import { operatorHas } from '../../model/operator-version';
import { API_VERSION, ComponentSpecJson, DCD_KIND, DcdJson, DgdJson, isWorkerType, JsonObject } from '../../model/v1beta1';
import {
  LABEL_COMPONENT, LABEL_COMPONENT_TYPE, LABEL_DISCOVERY_BACKEND, LABEL_DISCOVERY_ENABLED,
  LABEL_DYNAMO_NAMESPACE, LABEL_WORKER_HASH, MAIN_CONTAINER,
} from '../../model/well-known';
import { isElasticEpRayLaunch, RAY_HEAD_PORT } from '../backend/vllm';
import { DISCOVERY_BACKEND_KUBERNETES, kubeDiscoveryEnabled } from '../discovery';
import { computeDynamoNamespace } from '../dynamo-namespace';
import { graphWorkerHash } from '../graph/hashed-worker-dcds';
import { isMultinode } from '../multinode/roles';
import { componentServicePort } from '../workloads/component-service';
import { DcdContext, dcdContext } from '../workloads/dcd-context';
import { defaultFrontendRoute, preservedRoute, renderIngress } from '../workloads/ingress';
import { KubeObject, kubeObjectWithGoSpec, normalizeKubeResourceName } from '../workloads/kube-object';
import { renderModelService } from '../workloads/model-service';
import { renderVirtualService } from '../workloads/virtual-service';
import { SYSTEM_PORT } from '../workloads/workload-keys';

/** Kubernetes' limit on a Service name (a DNS-1035 label). */
const MAX_SERVICE_NAME_LENGTH = 63;
/** Name of the Ray head (GCS) port of the elastic-EP leader Service. */
const RAY_GCS_PORT_NAME = 'ray-gcs';

/** `<graph>-<component lower-cased>`: the base name of every per-component stable resource. */
export function groveComponentResourceName(graphName: string, componentName: string): string {
  return `${graphName}-${componentName.toLowerCase()}`;
}

/**
 * The name of a single-pod elastic-EP leader's Service: the normalised `<base>-ray`; when longer
 * than 63 characters, its first 58 characters, `-` and 4 hex digits of its FNV-1a hash.
 */
export function elasticEpLeaderServiceName(baseName: string): string {
  const name = normalizeKubeResourceName(`${baseName}-ray`);
  if (name.length <= MAX_SERVICE_NAME_LENGTH) return name;
  // the low 16 bits of the unsigned hash
  const suffix = (fnv1a32(name) % 0x10000).toString(16).padStart(4, '0');
  return `${name.slice(0, MAX_SERVICE_NAME_LENGTH - suffix.length - 1)}-${suffix}`;
}

/** What every per-component stable resource of one component is built from. */
interface StableComponent {
  readonly component: ComponentSpecJson;
  /** `<graph>-<component lower-cased>`, not yet dot-normalised. */
  readonly baseName: string;
  readonly namespace: string;
  readonly type: string;
  readonly dynamoNamespace: string;
  /** Graph `spec.labels`, the v1alpha1 labels kept in `nvidia.com/dgd-spec`, then the render copy's pod-template labels. */
  readonly labels: Record<string, string>;
  /** Graph `spec.annotations`, the v1alpha1 annotations kept in `nvidia.com/dgd-spec`, then the component's pod-template annotations. */
  readonly annotations: Record<string, string>;
}

function podTemplateMeta(component: ComponentSpecJson, key: 'labels' | 'annotations'): Record<string, string> {
  const metadata: JsonObject | undefined = component.podTemplate?.metadata;
  return metadata?.[key] ?? {};
}

function stableComponent(dgd: DgdJson, component: ComponentSpecJson, workerHash: () => string | undefined): StableComponent {
  const graphName = dgd.metadata.name ?? '';
  const namespace = dgd.metadata.namespace ?? '';
  const alpha = dgdAlphaComponentView(dgd, component);
  const labels: Record<string, string> = { ...(dgd.spec.labels ?? {}), ...alpha.labels, ...podTemplateMeta(component, 'labels') };
  // the Grove render copy tags worker-class components with the graph's worker hash (operators
  // with `OPERATOR_GATES.groveWorkerHashSuffix`; `workerHash` gives undefined for the others)
  const hash = isWorkerType(component.type) ? workerHash() : undefined;
  if (hash !== undefined) labels[LABEL_WORKER_HASH] = hash;
  return {
    component,
    baseName: groveComponentResourceName(graphName, component.name ?? ''),
    namespace,
    type: component.type ?? '',
    dynamoNamespace: computeDynamoNamespace(component.globalDynamoNamespace, namespace, graphName),
    labels,
    annotations: { ...(dgd.spec.annotations ?? {}), ...alpha.annotations, ...podTemplateMeta(component, 'annotations') },
  };
}

/** Selects the component's pods (every role, every worker generation) by type, Dynamo namespace and name. */
function componentSelector(c: StableComponent): Record<string, string> {
  return {
    [LABEL_COMPONENT_TYPE]: c.type,
    [LABEL_DYNAMO_NAMESPACE]: c.dynamoNamespace,
    [LABEL_COMPONENT]: c.component.name ?? '',
  };
}

/**
 * The component Service: one port by component type; with Kubernetes discovery the two discovery
 * labels. Its selector has no role key, so a multinode component's Service selects leader and
 * worker pods alike.
 */
function renderGroveComponentService(c: StableComponent, kubeDiscovery: boolean): KubeObject {
  const labels = { ...c.labels };
  if (kubeDiscovery) {
    labels[LABEL_DISCOVERY_BACKEND] = DISCOVERY_BACKEND_KUBERNETES;
    labels[LABEL_DISCOVERY_ENABLED] = 'true';
  }
  const spec = { ports: [componentServicePort(c.type)], selector: componentSelector(c) };
  return kubeObjectWithGoSpec('v1', 'Service',
    { name: normalizeKubeResourceName(c.baseName), namespace: c.namespace, labels, annotations: c.annotations },
    spec, 'ServiceSpec');
}

/**
 * Whether the component is a single-pod elastic-EP leader: its `main` container launches elastic
 * EP on the Ray backend, it is single-node and has at most one replica.
 */
export function isSinglePodElasticEpLeader(component: ComponentSpecJson): boolean {
  const main = component.podTemplate?.spec?.containers?.find((container: JsonObject) => container?.name === MAIN_CONTAINER);
  if (!main || !isElasticEpRayLaunch(main)) return false;
  if (isMultinode(component)) return false;
  return component.replicas === undefined || component.replicas === null || component.replicas === 1;
}

/**
 * The headless Service followers reach a single-pod elastic-EP leader at: the component's labels
 * (no discovery labels) and selector, not-ready addresses published, Ray head and system ports.
 */
function renderElasticEpLeaderService(c: StableComponent): KubeObject {
  const spec = {
    ports: [
      { name: RAY_GCS_PORT_NAME, protocol: 'TCP', port: RAY_HEAD_PORT, targetPort: RAY_HEAD_PORT },
      { name: 'system', protocol: 'TCP', port: SYSTEM_PORT, targetPort: 'system' },
    ],
    selector: componentSelector(c),
    clusterIP: 'None',
    publishNotReadyAddresses: true,
  };
  return kubeObjectWithGoSpec('v1', 'Service',
    { name: elasticEpLeaderServiceName(c.baseName), namespace: c.namespace, labels: c.labels, annotations: c.annotations },
    spec, 'ServiceSpec');
}

/**
 * A DCD-shaped stand-in for one component, so the component-path builders of the model Service,
 * Ingress and VirtualService (which read name, namespace, type, component name, model and owner
 * graph from a DcdContext) build the Grove objects.
 */
function standInContext(dgd: DgdJson, component: ComponentSpecJson, settings: OperatorSettings): DcdContext {
  const graphName = dgd.metadata.name ?? '';
  const spec: DcdJson['spec'] = { name: component.name ?? '' };
  if (component.type !== undefined) spec.type = component.type;
  if (component.modelRef !== undefined) spec.modelRef = component.modelRef;
  const dcd: DcdJson = {
    apiVersion: API_VERSION,
    kind: DCD_KIND,
    metadata: { name: groveComponentResourceName(graphName, component.name ?? ''), namespace: dgd.metadata.namespace ?? '' },
    spec,
  };
  return dcdContext(dcd, settings, graphName);
}

/**
 * One headless Service per model named by a component (`modelRef.name`), with the graph's
 * `spec.annotations` under the base-model annotation. The operator walks the components as a Go
 * map (no fixed order); the Services do not depend on which component names the model, and we emit
 * them in component order.
 */
function renderGroveModelServices(dgd: DgdJson, settings: OperatorSettings): KubeObject[] {
  const seen = new Set<string>();
  const out: KubeObject[] = [];
  for (const component of dgd.spec.components ?? []) {
    const model = component.modelRef?.name;
    if (!model || seen.has(model)) continue;
    seen.add(model);
    const service = renderModelService(standInContext(dgd, component, settings));
    if (!service) continue;
    service.metadata.annotations = { ...(dgd.spec.annotations ?? {}), ...(service.metadata.annotations ?? {}) };
    out.push(service);
  }
  return out;
}

/**
 * The stable resources of an admitted graph (see `admitNewGraph`) on the Grove provider, in the
 * order the operator creates them after the PodCliqueSet: every model Service, then per component
 * its Service (Kubernetes discovery on for the graph, or a frontend), its elastic-EP leader
 * Service (single-pod elastic-EP leaders, operators with `OPERATOR_GATES.elasticEpLeaderService`),
 * and for a frontend its Ingress and VirtualService (from the operator's `ingress.*` settings, or
 * from the v1alpha1 `ingress` block `nvidia.com/dgd-spec` keeps for the frontend). Every object
 * carries the create bookkeeping annotations. `options.workerHash` is the graph's worker hash when
 * the caller already has it (computed with `graphWorkerHash` otherwise, only if a worker-class
 * component needs it).
 */
export function renderGroveStableResources(dgd: DgdJson, settings: OperatorSettings, options: { workerHash?: string } = {}): KubeObject[] {
  const out: KubeObject[] = renderGroveModelServices(dgd, settings);
  const kubeDiscovery = kubeDiscoveryEnabled(settings, dgd.metadata.annotations);
  let hash: string | undefined = options.workerHash;
  const tagsWorkers = operatorHas(settings.version, 'groveWorkerHashSuffix');
  const workerHash = () => (tagsWorkers ? (hash ??= graphWorkerHash(dgd)) : undefined);
  const leaderServices = operatorHas(settings.version, 'elasticEpLeaderService');
  for (const component of dgd.spec.components ?? []) {
    const c = stableComponent(dgd, component, workerHash);
    if (kubeDiscovery || c.type === 'frontend') out.push(renderGroveComponentService(c, kubeDiscovery));
    if (leaderServices && isSinglePodElasticEpLeader(component)) out.push(renderElasticEpLeaderService(c));
    if (c.type !== 'frontend') continue;
    const ctx = standInContext(dgd, component, settings);
    const kept = dgdAlphaComponentView(dgd, component).ingress;
    const route = kept ? preservedRoute(kept) : defaultFrontendRoute(dgd.metadata.name ?? '', settings);
    for (const frontendObject of [renderIngress(ctx, route), renderVirtualService(ctx, route)]) {
      if (frontendObject) out.push(frontendObject);
    }
  }
  return out;
}
