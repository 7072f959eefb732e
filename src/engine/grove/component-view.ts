/**
 * A graph component as the Grove renderer sees it (render-multinode §4.3): a copy of the component
 * with the graph's propagated annotations, its Dynamo namespace label, the discovery-backend
 * annotation and, on worker-class components, the worker-hash label. The pod spec is rendered from
 * a further copy that also carries the graph's env, KV transfer policy and spec labels/annotations,
 * through the same pod-spec pipeline as a DCD (wrapped as one, owned by the graph).
 */
import { isMap, lowerAscii } from '../../model/json';
import { copyJson, shallowCopy } from '../../model/json-copy';
import { API_VERSION, ComponentSpecJson, DCD_KIND, DcdJson, DgdJson, isWorkerType, JsonObject } from '../../model/v1beta1';
import {
  ANNOTATION_DISCOVERY_BACKEND, LABEL_DYNAMO_NAMESPACE, LABEL_WORKER_HASH, PROPAGATED_GRAPH_ANNOTATIONS,
} from '../../model/well-known';
import { discoveryBackend } from '../discovery';
import { computeDynamoNamespace } from '../dynamo-namespace';
import { RenderError } from '../errors';
import { mergeGraphEnv } from '../graph/component-dcds';
import { applyKvTransferPolicy } from '../graph/kv-transfer-policy';
import { OperatorSettings } from '../operator-settings';
import { DcdContext, dcdContext } from '../workloads/dcd-context';

/** One component of a graph on the Grove path. */
export interface GroveComponent {
  /** Position in `spec.components`. */
  readonly index: number;
  /** The component name as written. */
  readonly name: string;
  /** The prepared component: what clique labels and annotations are read from. */
  readonly component: ComponentSpecJson;
  /** The context the pod-spec pipeline renders the component's pods in. */
  readonly pod: DcdContext;
}

/** Sets `key` on `target` unless it is already there (the component's own value wins). */
function addMissing(target: Record<string, string>, source: Readonly<Record<string, string>> | undefined, keys?: readonly string[]): void {
  for (const [key, value] of Object.entries(source ?? {})) {
    if (keys && !keys.includes(key)) continue;
    if (!Object.prototype.hasOwnProperty.call(target, key)) target[key] = value;
  }
}

/** The pod template of a component copy with label and annotation maps of its own. */
function ownPodTemplate(component: ComponentSpecJson): { labels: Record<string, string>; annotations: Record<string, string> } {
  const podTemplate: JsonObject = isMap(component.podTemplate) ? component.podTemplate : {};
  const metadata: JsonObject = isMap(podTemplate.metadata) ? podTemplate.metadata : {};
  metadata.labels = shallowCopy(isMap(metadata.labels) ? metadata.labels : {});
  metadata.annotations = shallowCopy(isMap(metadata.annotations) ? metadata.annotations : {});
  podTemplate.metadata = metadata;
  component.podTemplate = podTemplate as ComponentSpecJson['podTemplate'];
  return { labels: metadata.labels, annotations: metadata.annotations };
}

/**
 * The component prepared for clique rendering. `workerHash` tags worker-class components (the
 * operator renders every new graph with it).
 */
function prepareComponent(dgd: DgdJson, source: ComponentSpecJson, settings: OperatorSettings, workerHash: string): ComponentSpecJson {
  const component = copyJson(source);
  const { labels, annotations } = ownPodTemplate(component);
  addMissing(annotations, dgd.metadata.annotations, PROPAGATED_GRAPH_ANNOTATIONS);
  labels[LABEL_DYNAMO_NAMESPACE] = computeDynamoNamespace(component.globalDynamoNamespace, dgd.metadata.namespace ?? '', dgd.metadata.name ?? '');
  if (isWorkerType(component.type)) labels[LABEL_WORKER_HASH] = workerHash;
  // the graph's discovery backend, when it names one, replaces whatever the component says
  const backend = discoveryBackend(settings, dgd.metadata.annotations);
  if (backend !== '') annotations[ANNOTATION_DISCOVERY_BACKEND] = backend;
  return component;
}

/** The prepared component with the graph's template defaults, as the pod-spec pipeline reads it. */
function withGraphTemplateDefaults(dgd: DgdJson, prepared: ComponentSpecJson, objectRef: string, at: string): ComponentSpecJson {
  const component = copyJson(prepared);
  const podTemplate: JsonObject = component.podTemplate!;
  if (dgd.spec.env?.length) mergeGraphEnv(podTemplate, dgd.spec.env);
  const policy = dgd.spec.experimental?.kvTransferPolicy;
  if (isWorkerType(component.type) && policy && (policy.labelKey || policy.clusterTopologyName)) {
    if (policy.clusterTopologyName) {
      // the topology volume lists the ClusterTopologyBinding's levels, which live in the cluster
      throw new RenderError(objectRef, 'spec.experimental.kvTransferPolicy.clusterTopologyName',
        `on the Grove path the topology volume of ${at} is built from the levels of ClusterTopologyBinding `
        + `${JSON.stringify(policy.clusterTopologyName)}, which only the cluster knows; use labelKey, or render with Grove unavailable`);
    }
    applyKvTransferPolicy(podTemplate, policy);
  }
  const { labels, annotations } = ownPodTemplate(component);
  addMissing(annotations, dgd.spec.annotations);
  addMissing(labels, dgd.spec.labels);
  addMissing(annotations, dgd.metadata.annotations, PROPAGATED_GRAPH_ANNOTATIONS);
  return component;
}

/** The components of an admitted graph on the Grove path, in order. */
export function groveComponents(dgd: DgdJson, settings: OperatorSettings, workerHash: string): GroveComponent[] {
  const graphName = dgd.metadata.name ?? '';
  const namespace = dgd.metadata.namespace ?? '';
  const objectRef = `DynamoGraphDeployment/${graphName}`;
  return (dgd.spec.components ?? []).map((source, index) => {
    const at = `spec.components[${index}]`;
    const component = prepareComponent(dgd, source, settings, workerHash);
    const podSource = withGraphTemplateDefaults(dgd, component, objectRef, at);
    // the framework is detected per component, with only the graph's value as the explicit one
    const spec: DcdJson['spec'] = {};
    if (dgd.spec.backendFramework) spec.backendFramework = dgd.spec.backendFramework;
    Object.assign(spec, podSource);
    const dcd: DcdJson = {
      apiVersion: API_VERSION,
      kind: DCD_KIND,
      metadata: { name: `${graphName}-${lowerAscii(source.name ?? '')}`, namespace },
      spec,
    };
    const pod: DcdContext = { ...dcdContext(dcd, settings, graphName), ref: `${objectRef} ${at}` };
    return { index, name: source.name ?? '', component, pod };
  });
}
