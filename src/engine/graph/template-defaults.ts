/**
 * What the operator applies to a graph component before it renders a pod from it outside the
 * DCD path (Grove cliques, checkpoint capture pods): the graph's env under the `main` container's,
 * the KV transfer policy on worker-class components, the graph's spec labels and annotations and
 * the propagated graph annotations (the component's own values win); and the pod-rendering
 * context of such a component, a DCD owned by the graph.
 */
import { applyKvTransferPolicy } from './kv-transfer-policy';
import { compareStrings, isMap, lowerAscii } from '../../model/json';
import { copyJson, shallowCopy } from '../../model/json-copy';
import { OperatorSettings } from '../../model/operator-settings';
import { RenderError } from '../../model/render-error';
import { API_VERSION, ComponentSpecJson, DCD_KIND, DcdJson, DgdJson, isWorkerType, JsonObject } from '../../model/v1beta1';
import { MAIN_CONTAINER, PROPAGATED_GRAPH_ANNOTATIONS } from '../../model/well-known';
import { ClusterObjects } from '../multinode/dra-objects';
import { DcdContext, dcdContext } from '../workloads/dcd-context';

/** Sets each key of `source` (only `keys`, when given) on `target` unless `target` has it. */
export function addMissing(target: Record<string, string>, source: Readonly<Record<string, string>> | undefined, keys?: readonly string[]): void {
  for (const [key, value] of Object.entries(source ?? {})) {
    if (keys && !keys.includes(key)) continue;
    if (!Object.prototype.hasOwnProperty.call(target, key)) target[key] = value;
  }
}

/** Merges the graph's env under the `main` container's env (the container's entries win), sorted by name. */
export function mergeGraphEnv(podTemplate: JsonObject, graphEnv: JsonObject[]): void {
  podTemplate.spec = podTemplate.spec ?? {};
  const containers: JsonObject[] = podTemplate.spec.containers ?? [];
  let main = containers.find(c => c?.name === MAIN_CONTAINER);
  if (!main) {
    main = { name: MAIN_CONTAINER };
    podTemplate.spec.containers = [main, ...containers];
  }
  const byName = new Map<string, JsonObject>();
  for (const e of graphEnv) byName.set(e.name, e);
  for (const e of main.env ?? []) byName.set(e.name, e);
  main.env = [...byName.values()].sort((a, b) => compareStrings(a.name, b.name));
}

/** The pod template of a component copy, with label and annotation maps of its own. */
export function ownPodTemplate(component: ComponentSpecJson): { labels: Record<string, string>; annotations: Record<string, string> } {
  const podTemplate: JsonObject = isMap(component.podTemplate) ? component.podTemplate : {};
  const metadata: JsonObject = isMap(podTemplate.metadata) ? podTemplate.metadata : {};
  metadata.labels = shallowCopy(isMap(metadata.labels) ? metadata.labels : {});
  metadata.annotations = shallowCopy(isMap(metadata.annotations) ? metadata.annotations : {});
  podTemplate.metadata = metadata;
  component.podTemplate = podTemplate as ComponentSpecJson['podTemplate'];
  return { labels: metadata.labels, annotations: metadata.annotations };
}

/**
 * A copy of `source` with the graph's template defaults. `pod` describes the pod in the error for a
 * KV transfer policy naming a ClusterTopologyBinding, whose levels (the topology volume) only the
 * cluster knows; `alternative` adds what else the user can do.
 */
export function withGraphTemplateDefaults(dgd: DgdJson, source: ComponentSpecJson, pod: string, alternative = ''): ComponentSpecJson {
  const component = copyJson(source);
  const { labels, annotations } = ownPodTemplate(component);
  const podTemplate: JsonObject = component.podTemplate!;
  if (dgd.spec.env?.length) mergeGraphEnv(podTemplate, dgd.spec.env);
  const policy = dgd.spec.experimental?.kvTransferPolicy;
  if (isWorkerType(component.type) && policy && (policy.labelKey || policy.clusterTopologyName)) {
    if (policy.clusterTopologyName) {
      throw new RenderError(`DynamoGraphDeployment/${dgd.metadata.name ?? ''}`, 'spec.experimental.kvTransferPolicy.clusterTopologyName',
        `the topology volume of ${pod} is built from the levels of ClusterTopologyBinding `
        + `${JSON.stringify(policy.clusterTopologyName)}, which only the cluster knows; use labelKey${alternative}`);
    }
    applyKvTransferPolicy(podTemplate, policy);
  }
  addMissing(annotations, dgd.spec.annotations);
  addMissing(labels, dgd.spec.labels);
  addMissing(annotations, dgd.metadata.annotations, PROPAGATED_GRAPH_ANNOTATIONS);
  return component;
}

/**
 * The pod-rendering context of component `index` of the graph: `spec` wrapped as a DCD named
 * `<graph>-<component lower-cased>` owned by the graph, its backend framework detected with only the
 * graph's value as the explicit one; errors name the graph and the component. `cluster` holds the
 * cluster objects given with the input.
 */
export function graphComponentPodContext(
  dgd: DgdJson, index: number, componentName: string, spec: ComponentSpecJson, settings: OperatorSettings, cluster?: ClusterObjects,
): DcdContext {
  const graphName = dgd.metadata.name ?? '';
  const dcdSpec: DcdJson['spec'] = {};
  if (dgd.spec.backendFramework) dcdSpec.backendFramework = dgd.spec.backendFramework;
  Object.assign(dcdSpec, spec);
  const dcd: DcdJson = {
    apiVersion: API_VERSION,
    kind: DCD_KIND,
    metadata: { name: `${graphName}-${lowerAscii(componentName)}`, namespace: dgd.metadata.namespace ?? '' },
    spec: dcdSpec,
  };
  return { ...dcdContext(dcd, settings, graphName, cluster), ref: `DynamoGraphDeployment/${graphName} spec.components[${index}]` };
}
