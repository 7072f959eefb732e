/**
 * Labels and annotations of a Grove clique (docs/design/render-multinode.md §4.3); Grove copies them onto the
 * clique's pods, so they play the part of the pod-template metadata of the component path. A graph
 * converted from v1alpha1 adds what its `nvidia.com/dgd-spec` keeps of the component's service
 * (labels and annotations between the graph's and the pod template's, and the subComponentType).
 */
import { dgdAlphaComponentView } from '../../import/v1alpha1/dgd-alpha-view';
import { compareStrings, lowerAscii } from '../../model/json';
import { assignOwn } from '../../model/json-copy';
import { OperatorSettings } from '../../model/operator-settings';
import { ComponentSpecJson, DgdJson, isWorkerType } from '../../model/v1beta1';
import {
  ANNOTATION_ENABLE_METRICS, ANNOTATION_RESTART_AT, ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY, ANNOTATION_TOPOLOGY_LABEL_KEY,
  LABEL_BASE_MODEL_HASH, LABEL_COMPONENT, LABEL_COMPONENT_CLASS, LABEL_COMPONENT_TYPE, LABEL_DISCOVERY_BACKEND,
  LABEL_DISCOVERY_ENABLED, LABEL_DYNAMO_NAMESPACE, LABEL_GRAPH_NAME, LABEL_METRICS_ENABLED, LABEL_SELECTOR,
  LABEL_SUB_COMPONENT_TYPE, LABEL_WORKER_HASH,
} from '../../model/well-known';
import { DISCOVERY_BACKEND_KUBERNETES, discoveryBackend } from '../discovery';
import { computeDynamoNamespace } from '../dynamo-namespace';
import { baseModelHash } from '../workload-metadata';

type StringMap = Record<string, string>;

/**
 * Copies `source` over `target` the way the operator's overriding map merge does: every key of the
 * source wins, an empty value (`""`) included, so an empty annotation or label is kept as written.
 */
function mergeOver(target: StringMap, source: Readonly<StringMap> | undefined): void {
  Object.assign(target, source ?? {});
}

/** The map with its keys in byte order (as the operator's client writes maps). */
export function sortedMap(map: Readonly<StringMap>): StringMap {
  const out: StringMap = {};
  for (const key of Object.keys(map).sort(compareStrings)) out[key] = map[key];
  return out;
}

/** `<graph>-<component lower-cased>`: the selector label value of every clique of a component. */
export function componentResourceName(dgd: DgdJson, componentName: string): string {
  return `${dgd.metadata.name ?? ''}-${lowerAscii(componentName)}`;
}

/** The labels no user label can replace. */
function systemLabels(dgd: DgdJson, component: ComponentSpecJson, hasEpp: boolean, subComponentType: string): StringMap {
  const name = component.name ?? '';
  const labels: StringMap = {
    [LABEL_SELECTOR]: componentResourceName(dgd, name),
    [LABEL_GRAPH_NAME]: dgd.metadata.name ?? '',
    [LABEL_COMPONENT]: name,
  };
  if (component.type) labels[LABEL_COMPONENT_TYPE] = component.type;
  if (hasEpp && isWorkerType(component.type)) labels[LABEL_COMPONENT_CLASS] = 'worker';
  if (subComponentType) labels[LABEL_SUB_COMPONENT_TYPE] = subComponentType;
  labels[LABEL_DYNAMO_NAMESPACE] = computeDynamoNamespace(component.globalDynamoNamespace, dgd.metadata.namespace ?? '', dgd.metadata.name ?? '');
  return labels;
}

/** The labels of every clique of a prepared component (see `groveComponents`). */
export function cliqueLabels(dgd: DgdJson, component: ComponentSpecJson, settings: OperatorSettings): StringMap {
  const hasEpp = (dgd.spec.components ?? []).some(c => c.type === 'epp');
  const alpha = dgdAlphaComponentView(dgd, component);
  const system = systemLabels(dgd, component, hasEpp, alpha.subComponentType);
  const labels: StringMap = { ...system };
  const model = component.modelRef?.name;
  if (model) labels[LABEL_BASE_MODEL_HASH] = baseModelHash(model);
  if (dgd.metadata.annotations?.[ANNOTATION_ENABLE_METRICS] !== 'false') labels[LABEL_METRICS_ENABLED] = 'true';
  mergeOver(labels, dgd.spec.labels);
  // the operator's merge of the kept labels lets an empty value replace a set one
  assignOwn(labels, alpha.labels);
  const templateLabels: StringMap = component.podTemplate?.metadata?.labels ?? {};
  mergeOver(labels, templateLabels);
  Object.assign(labels, system);
  if (templateLabels[LABEL_WORKER_HASH]) labels[LABEL_WORKER_HASH] = templateLabels[LABEL_WORKER_HASH];
  if (discoveryBackend(settings, dgd.metadata.annotations) === DISCOVERY_BACKEND_KUBERNETES) {
    labels[LABEL_DISCOVERY_BACKEND] = DISCOVERY_BACKEND_KUBERNETES;
    labels[LABEL_DISCOVERY_ENABLED] = 'true';
  }
  return labels;
}

/**
 * The annotations of every clique of a prepared component: the graph's spec annotations, then the
 * v1alpha1 annotations kept for the component in `nvidia.com/dgd-spec`, then the pod-template ones; topology-source keys only from the graph's KV transfer policy (worker-class),
 * and the restart time when a restart targets the component.
 */
export function cliqueAnnotations(dgd: DgdJson, component: ComponentSpecJson, restartAt: string | undefined): StringMap {
  const annotations: StringMap = {};
  mergeOver(annotations, dgd.spec.annotations);
  assignOwn(annotations, dgdAlphaComponentView(dgd, component).annotations);
  mergeOver(annotations, component.podTemplate?.metadata?.annotations);
  delete annotations[ANNOTATION_TOPOLOGY_LABEL_KEY];
  delete annotations[ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY];
  const policy = dgd.spec.experimental?.kvTransferPolicy;
  if (isWorkerType(component.type) && policy && (policy.labelKey || policy.clusterTopologyName)) {
    if (policy.labelKey) annotations[ANNOTATION_TOPOLOGY_LABEL_KEY] = policy.labelKey;
    if (policy.clusterTopologyName) annotations[ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY] = policy.clusterTopologyName;
  }
  if (restartAt !== undefined) annotations[ANNOTATION_RESTART_AT] = restartAt;
  return annotations;
}
