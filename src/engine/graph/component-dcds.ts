/**
 * DGD → DCDs: the DynamoComponentDeployments the operator's graph controller creates, one per
 * component, on the component (non-Grove) workload provider.
 */
import { backendFrameworkForGeneratedDcds } from './backend-framework';
import { applyDeploymentConfigEnv } from './deployment-config-env';
import { applyKvTransferPolicy } from './kv-transfer-policy';
import { addMissing, mergeGraphEnv } from './template-defaults';
import { generatedDcdAnnotations } from '../../import/v1alpha1/generated-dcd';
import { compareStrings, isMap } from '../../model/json';
import { copyJson, shallowCopy } from '../../model/json-copy';
import { ComponentSpecJson, DCD_KIND, DcdJson, DcdSpecJson, DgdJson, API_VERSION, isWorkerType, JsonObject } from '../../model/v1beta1';
import {
  ANNOTATION_ISTIO_INJECT, ANNOTATION_RESTART_AT, ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY, ANNOTATION_TOPOLOGY_LABEL_KEY,
  LABEL_COMPONENT, LABEL_COMPONENT_CLASS, LABEL_DYNAMO_NAMESPACE, LABEL_GRAPH_NAME, LABEL_WORKER_HASH,
  PLANNER_SERVICE_ACCOUNT, PROPAGATED_GRAPH_ANNOTATIONS,
} from '../../model/well-known';
import { computeDynamoNamespace } from '../dynamo-namespace';
import { EPP_CONFIG_API_VERSION, EPP_CONFIG_KIND } from '../workloads/epp-config-yaml';

/** Name of the DCD for a component: `<graph>-<component lower-cased>[-<worker hash>]`. */
export function dcdName(graphName: string, component: ComponentSpecJson, workerHash: string): string {
  const base = `${graphName}-${(component.name ?? '').toLowerCase()}`;
  return isWorkerType(component.type) ? `${base}-${workerHash}` : base;
}

/**
 * Gives a DCD that `generateComponentDcds` made with the worker hash `previous` the worker hash
 * `workerHash` instead, everywhere that function puts it: a worker DCD's name suffix, its label
 * and its pod template's label (other DCDs carry no hash).
 */
export function replaceWorkerHash(dcd: DcdJson, previous: string, workerHash: string): void {
  if (!isWorkerType(dcd.spec.type)) return;
  const name = dcd.metadata.name ?? '';
  if (!name.endsWith(`-${previous}`)) throw new Error(`DCD ${name} does not end with the worker hash ${previous}`);
  dcd.metadata.name = name.slice(0, name.length - previous.length) + workerHash;
  dcd.metadata.labels![LABEL_WORKER_HASH] = workerHash;
  dcd.spec.podTemplate!.metadata.labels[LABEL_WORKER_HASH] = workerHash;
}

/** Which components have `nvidia.com/restartAt` set when the graph's restart begins. */
export function componentsRestarting(dgd: DgdJson): Set<string> {
  const restart = dgd.spec.restart;
  const names = (dgd.spec.components ?? []).map(c => c.name ?? '');
  if (!restart?.id) return new Set();
  if (restart.strategy?.type === 'Parallel') return new Set(names);
  const order = restart.strategy?.order?.length ? restart.strategy.order : [...names].sort(compareStrings);
  return new Set(order.slice(0, 1));
}

/** Removes empty label/annotation maps and an empty metadata object from a pod template. */
function pruneEmptyMetadata(podTemplate: JsonObject): void {
  const meta = podTemplate.metadata;
  if (!isMap(meta)) return;
  for (const key of ['labels', 'annotations']) {
    if (isMap(meta[key]) && Object.keys(meta[key]).length === 0) delete meta[key];
  }
}

/**
 * The operator writes the EPP configuration file (see workloads/epp-config-yaml.ts) before it
 * creates the DCDs, and sets the type metadata on the graph's own copy of the inline configuration
 * while doing so (deploy/operator/internal/dynamo/epp/config.go): the first EPP component's DCD
 * carries `apiVersion`/`kind` in `eppConfig.config`, replacing any the user wrote. Not when a
 * `configMapRef` names the file (the operator writes none).
 */
function stampEppConfigType(spec: DcdSpecJson): void {
  const eppConfig = spec.eppConfig;
  if (!isMap(eppConfig) || eppConfig.configMapRef || !isMap(eppConfig.config)) return;
  eppConfig.config = { ...eppConfig.config, apiVersion: EPP_CONFIG_API_VERSION, kind: EPP_CONFIG_KIND };
}

/**
 * Generates the DCDs of an admitted graph (see `admitNewGraph`) with the given worker hash.
 * `namespace` is the graph's namespace.
 */
export function generateComponentDcds(dgd: DgdJson, workerHash: string, options: { restart?: boolean } = {}): DcdJson[] {
  const graphName = dgd.metadata.name ?? '';
  const namespace = dgd.metadata.namespace ?? '';
  const framework = backendFrameworkForGeneratedDcds(dgd);
  const components = dgd.spec.components ?? [];
  const hasEpp = components.some(c => c.type === 'epp');
  const firstEpp = components.findIndex(c => c.type === 'epp');
  const restarting = options.restart === false ? new Set<string>() : componentsRestarting(dgd);
  const kvPolicy = dgd.spec.experimental?.kvTransferPolicy;
  const kvTopologyActive = !!(kvPolicy && (kvPolicy.labelKey || kvPolicy.clusterTopologyName));

  return components.map((component, index) => {
    const worker = isWorkerType(component.type);
    const name = component.name ?? '';
    const spec: DcdSpecJson = {};
    if (framework !== undefined) spec.backendFramework = framework as DcdSpecJson['backendFramework'];
    Object.assign(spec, copyJson(component));
    const podTemplate: JsonObject = spec.podTemplate ?? {};
    podTemplate.metadata = podTemplate.metadata ?? {};
    const podLabels: Record<string, string> = shallowCopy(podTemplate.metadata.labels);
    const podAnnotations: Record<string, string> = shallowCopy(podTemplate.metadata.annotations);

    // metadata.labels start from the labels the user wrote on the component's pod template
    const labels: Record<string, string> = shallowCopy(component.podTemplate?.metadata?.labels);
    labels[LABEL_COMPONENT] = name;
    labels[LABEL_DYNAMO_NAMESPACE] = computeDynamoNamespace(component.globalDynamoNamespace, namespace, graphName);
    labels[LABEL_GRAPH_NAME] = graphName;
    const dcdNameValue = dcdName(graphName, component, workerHash);
    // the v1alpha1 round trip's preservation annotation (nvidia.com/dcd-spec), as the operator copies it
    const annotations: Record<string, string> = generatedDcdAnnotations(dgd.metadata, component, {
      name: dcdNameValue, namespace, backendFramework: framework,
    });

    if (worker) {
      labels[LABEL_WORKER_HASH] = workerHash;
      podLabels[LABEL_WORKER_HASH] = workerHash;
      if (hasEpp) {
        labels[LABEL_COMPONENT_CLASS] = 'worker';
        podLabels[LABEL_COMPONENT_CLASS] = 'worker';
      }
    }
    if (component.type === 'epp' && podAnnotations[ANNOTATION_ISTIO_INJECT] === undefined) {
      podAnnotations[ANNOTATION_ISTIO_INJECT] = 'false';
    }
    podTemplate.metadata.labels = podLabels;
    podTemplate.metadata.annotations = podAnnotations;
    if (dgd.spec.env?.length) mergeGraphEnv(podTemplate, dgd.spec.env);
    if (worker && kvTopologyActive) {
      applyKvTransferPolicy(podTemplate, kvPolicy!);
      if (kvPolicy!.labelKey) annotations[ANNOTATION_TOPOLOGY_LABEL_KEY] = kvPolicy!.labelKey;
      if (kvPolicy!.clusterTopologyName) annotations[ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY] = kvPolicy!.clusterTopologyName;
    }
    addMissing(podAnnotations, dgd.metadata.annotations, PROPAGATED_GRAPH_ANNOTATIONS);
    addMissing(podAnnotations, dgd.spec.annotations);
    addMissing(podLabels, dgd.spec.labels);
    if (restarting.has(name)) podAnnotations[ANNOTATION_RESTART_AT] = dgd.spec.restart!.id;
    if (component.type === 'planner') {
      podTemplate.spec = podTemplate.spec ?? {};
      podTemplate.spec.serviceAccountName = PLANNER_SERVICE_ACCOUNT;
    }
    pruneEmptyMetadata(podTemplate);
    spec.podTemplate = podTemplate;
    if (index === firstEpp) stampEppConfigType(spec);
    applyDeploymentConfigEnv(spec, name);

    const dcd: DcdJson = {
      apiVersion: API_VERSION,
      kind: DCD_KIND,
      metadata: { name: dcdNameValue, namespace, labels },
      spec,
    };
    if (Object.keys(annotations).length > 0) dcd.metadata.annotations = annotations;
    if (!namespace) delete dcd.metadata.namespace;
    return dcd;
  });
}
