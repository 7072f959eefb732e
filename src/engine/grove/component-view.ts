/**
 * A graph component as the Grove renderer sees it (docs/design/render-multinode.md §4.3): a copy of the component
 * with the graph's propagated annotations, its Dynamo namespace label, the discovery-backend
 * annotation and, on worker-class components, the worker-hash label. The pod spec is rendered from
 * a further copy that also carries the graph's env, KV transfer policy and spec labels/annotations,
 * through the same pod-spec pipeline as a DCD (wrapped as one, owned by the graph).
 */
import { copyJson } from '../../model/json-copy';
import { OperatorSettings } from '../../model/operator-settings';
import { operatorHas } from '../../model/operator-version';
import { ComponentSpecJson, DgdJson, isWorkerType } from '../../model/v1beta1';
import { ANNOTATION_DISCOVERY_BACKEND, LABEL_DYNAMO_NAMESPACE, LABEL_WORKER_HASH, PROPAGATED_GRAPH_ANNOTATIONS } from '../../model/well-known';
import { discoveryBackend } from '../discovery';
import { computeDynamoNamespace } from '../dynamo-namespace';
import { addMissing, graphComponentPodContext, ownPodTemplate, withGraphTemplateDefaults } from '../graph/template-defaults';
import { ClusterObjects } from '../multinode/dra-objects';
import { DcdContext } from '../workloads/dcd-context';

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

/**
 * The component prepared for clique rendering. `workerHash` tags worker-class components: the
 * operators with `OPERATOR_GATES.groveWorkerHashSuffix` render every new graph with it (older ones
 * leave Grove workers untagged, so their pods get no Dynamo namespace suffix).
 */
function prepareComponent(dgd: DgdJson, source: ComponentSpecJson, settings: OperatorSettings, workerHash: string): ComponentSpecJson {
  const component = copyJson(source);
  const { labels, annotations } = ownPodTemplate(component);
  addMissing(annotations, dgd.metadata.annotations, PROPAGATED_GRAPH_ANNOTATIONS);
  labels[LABEL_DYNAMO_NAMESPACE] = computeDynamoNamespace(component.globalDynamoNamespace, dgd.metadata.namespace ?? '', dgd.metadata.name ?? '');
  if (isWorkerType(component.type) && operatorHas(settings.version, 'groveWorkerHashSuffix')) labels[LABEL_WORKER_HASH] = workerHash;
  // the graph's discovery backend, when it names one, replaces whatever the component says
  const backend = discoveryBackend(settings, dgd.metadata.annotations);
  if (backend !== '') annotations[ANNOTATION_DISCOVERY_BACKEND] = backend;
  return component;
}

/** The components of an admitted graph on the Grove path, in order. */
export function groveComponents(dgd: DgdJson, settings: OperatorSettings, workerHash: string, cluster?: ClusterObjects): GroveComponent[] {
  return (dgd.spec.components ?? []).map((source, index) => {
    const component = prepareComponent(dgd, source, settings, workerHash);
    const podSource = withGraphTemplateDefaults(dgd, component, `spec.components[${index}] on the Grove path`, ', or render with Grove unavailable');
    const pod = graphComponentPodContext(dgd, index, source.name ?? '', podSource, settings, cluster);
    return { index, name: source.name ?? '', component, pod };
  });
}
