/**
 * The footprint of a graph: per component its replicas, nodes, pods, GPUs and the DRA claims the
 * operator creates for it, read from the graph as admission stores it (`admitNewGraph`) with the
 * render engine's own helpers, so the numbers are the ones the rendered workloads run with. On the
 * component provider the components are read from the DynamoComponentDeployments the graph
 * controller generates (a `DYN_DEPLOYMENT_CONFIG` may set a worker's GPUs there); on Grove from the
 * stored components, which the Grove renderer reads.
 */
import { ComponentFootprint, DraClaimFootprint, GraphFootprint } from './footprint-types';
import { admitNewGraph } from '../admission/stored-object';
import { enginePodsPerRank, isInterPodFailover, isInterPodGms, isIntraPodFailover, isIntraPodGms, mainContainerGpus } from '../engine/experimental/gms-spec';
import { rankClaimTemplates } from '../engine/experimental/inter-pod-gms';
import { intraPodClaimTemplateName } from '../engine/experimental/intra-pod-gms';
import { renderGmsResourceClaimTemplates } from '../engine/experimental/resource-claim-templates';
import { generateComponentDcds } from '../engine/graph/component-dcds';
import { graphWorkerHash } from '../engine/graph/hashed-worker-dcds';
import { cliqueRoles, interPodNodeLimit, usesScalingGroup } from '../engine/grove/clique-roles';
import { draLookup, DraLookup } from '../engine/multinode/dra-objects';
import { gpusPerNode } from '../engine/multinode/gpu-count';
import { nodeCountOf } from '../engine/multinode/roles';
import { inputClusterState } from '../engine/render';
import { isMap } from '../model/json';
import { DEFAULT_NAMESPACE, withNamespace } from '../model/namespace';
import { OperatorSettings } from '../model/operator-settings';
import { RenderError } from '../model/render-error';
import { ComponentSpecJson, DgdJson, JsonObject } from '../model/v1beta1';
import { ANNOTATION_WORKLOAD_PROVIDER, PROVIDER_GROVE } from '../model/well-known';

/** A graph as the operator runs it: the stored object and the component specs its workloads are rendered from. */
export interface StoredGraph {
  /** The graph as admission stores it. */
  readonly stored: DgdJson;
  /** The graph as given (before defaulting). */
  readonly given: DgdJson;
  /** Whether the graph takes the Grove workload provider. */
  readonly grove: boolean;
  /** Per component, the spec its pods are rendered from (the generated DCD's spec off Grove). */
  readonly specs: readonly ComponentSpecJson[];
}

/**
 * The graph as the operator runs it, in `namespace` when it names none (default: `default`, as
 * for `render`).
 */
export function storedGraph(doc: DgdJson, settings: OperatorSettings, namespace?: string): StoredGraph {
  const given = withNamespace(doc, namespace ?? DEFAULT_NAMESPACE);
  const stored = admitNewGraph(given, settings);
  const grove = stored.metadata.annotations?.[ANNOTATION_WORKLOAD_PROVIDER] === PROVIDER_GROVE;
  const specs = grove ? stored.spec.components ?? [] : generateComponentDcds(stored, graphWorkerHash(stored)).map(dcd => dcd.spec);
  return { stored, given, grove, specs };
}

/**
 * The footprint of a graph under the given operator. `documents` are the documents given with it:
 * the DRA ResourceClaimTemplates, ResourceClaims and DeviceClasses that GPUs asked for through a
 * container's resource claims are counted from. The graph should be one admission accepts.
 */
export function graphFootprint(doc: DgdJson, settings: OperatorSettings, documents: readonly unknown[] = [], namespace?: string): GraphFootprint {
  const graph = storedGraph(doc, settings, namespace);
  const ns = graph.stored.metadata.namespace ?? DEFAULT_NAMESPACE;
  const dra = draLookup(inputClusterState(documents, ns), ns);
  const graphTemplates = renderGmsResourceClaimTemplates(graph.stored) as unknown as JsonObject[];
  const components = graph.specs.map((spec, index) => componentFootprint(graph, index, spec, settings, dra, graphTemplates));
  return {
    name: graph.stored.metadata.name ?? '',
    namespace: ns,
    workloadProvider: graph.grove ? 'grove' : 'component',
    components,
    totalGpus: components.reduce((sum, c) => sum + c.totalGpus, 0),
  };
}

function componentFootprint(
  graph: StoredGraph, index: number, spec: ComponentSpecJson, settings: OperatorSettings, dra: DraLookup, graphTemplates: readonly JsonObject[],
): ComponentFootprint {
  const name = spec.name ?? '';
  const ref = `DynamoGraphDeployment/${graph.stored.metadata.name ?? ''}`;
  const at = `spec.components[${index}]`;
  const notes: string[] = [];
  const givenComponent = graph.given.spec.components?.[index];
  const replicasDefaulted = givenComponent?.replicas === undefined || givenComponent.replicas === null;
  const replicas = typeof spec.replicas === 'number' ? spec.replicas : 1;
  const scalingAdapter = spec.scalingAdapter !== undefined && spec.scalingAdapter !== null;
  const nodes = nodeCountOf(spec);
  const interPod = isInterPodGms(spec);
  // nothing is counted per node for more nodes than the operator's PodCliqueSet could hold
  const tooManyNodes = interPodNodeLimit(graph.stored.metadata.name ?? '', index, spec);
  if (tooManyNodes) throw tooManyNodes;

  // pods of one replica, and the workload that runs them
  let podsPerReplica = nodes;
  let workload = nodes > 1 ? 'LeaderWorkerSet' : 'Deployment';
  if (graph.grove) {
    const grouped = usesScalingGroup(spec);
    workload = grouped ? 'PodCliqueScalingGroup' : 'PodClique';
    podsPerReplica = grouped ? cliqueRoles(spec, ref).reduce((sum, role) => sum + role.replicas, 0) : 1;
  } else if (nodes > 1 && !settings.lwsAvailable) {
    notes.push('spans several nodes but LeaderWorkerSet is not available: the operator cannot run it on the component provider');
  }

  // GPUs of a pod: the main container's, through the claim of the GPU memory service when it has one
  let gpusPerPod: number;
  const draClaims: DraClaimFootprint[] = [];
  const podClaims = listOf(podSpecOf(spec).resourceClaims).filter(isMap);
  // the graph controller's template of a GPU memory service component (whatever its mode)
  const graphTemplateName = intraPodClaimTemplateName(graph.stored.metadata.name ?? '', name);
  const graphTemplate = graphTemplates.find(t => claimName(t) === graphTemplateName);
  if (interPod) {
    // per node rank one Grove-managed claim per scaling-group replica, shared by the rank's pods
    const templates = rankClaimTemplates(spec, cliqueRoles(spec, ref), ref, at);
    gpusPerPod = templates.length > 0 ? claimGpus(templates[0].templateSpec) : 0;
    if (graphTemplate) draClaims.push(draClaim(graphTemplate, 'DynamoGraphDeployment', 0));
    for (const template of templates) {
      draClaims.push({
        templateName: String(template.name),
        createdBy: 'PodCliqueSet',
        deviceClassName: claimDeviceClass(template.templateSpec),
        gpusPerClaim: claimGpus(template.templateSpec),
        claims: replicas,
      });
    }
    const engines = enginePodsPerRank(spec);
    notes.push(`GPU memory service (InterPod): per node rank a weight-server pod and ${engines} engine pod${engines === 1 ? '' : 's'} `
      + `share one claim of ${gpusPerPod} GPU${gpusPerPod === 1 ? '' : 's'}`);
    if (isInterPodFailover(spec)) notes.push(`failover (InterPod): ${engines - 1} shadow engine pod${engines === 2 ? '' : 's'} per node rank`);
  } else if (isIntraPodGms(spec)) {
    gpusPerPod = mainContainerGpus(spec, ref, at);
    if (graphTemplate) {
      draClaims.push(draClaim(graphTemplate, 'DynamoGraphDeployment', replicas * podsPerReplica));
      notes.push(`GPU memory service (IntraPod): each pod's ${gpusPerPod} GPU${gpusPerPod === 1 ? '' : 's'} come from a claim of `
        + `${claimName(graphTemplate)}, shared by the engine and the gms-server sidecar`);
    }
    if (isIntraPodFailover(spec)) notes.push('failover (IntraPod): an active and a standby engine container share the pod\'s GPUs');
  } else {
    try {
      gpusPerPod = gpusPerNode(podSpecOf(spec), ref, dra);
    } catch (e) {
      if (!(e instanceof RenderError)) throw e;
      gpusPerPod = 0;
      notes.push(`GPUs through resource claims not counted: ${e.message}`);
    }
  }
  if (podClaims.length > 0 && !interPod && !isIntraPodGms(spec)) {
    notes.push(`pod resource claims of the template: ${podClaims.map(c => String(c.resourceClaimTemplateName ?? c.resourceClaimName ?? c.name)).join(', ')}`);
  }
  const footprint: ComponentFootprint = {
    name,
    replicas,
    replicasDefaulted,
    scalingAdapter,
    nodesPerReplica: nodes,
    podsPerReplica,
    gpusPerPod,
    totalGpus: replicas * nodes * gpusPerPod,
    workload,
    draClaims,
    notes,
  };
  return spec.type ? { ...footprint, type: spec.type } : footprint;
}

function draClaim(template: JsonObject, createdBy: string, claims: number): DraClaimFootprint {
  const spec = isMap(template.spec) ? template.spec : {};
  return { templateName: claimName(template), createdBy, deviceClassName: claimDeviceClass(spec), gpusPerClaim: claimGpus(spec), claims };
}

function claimName(template: JsonObject): string {
  return isMap(template.metadata) && typeof template.metadata.name === 'string' ? template.metadata.name : '';
}

/** The first device request of a ResourceClaimTemplateSpec (`spec.devices.requests[0].exactly`). */
function firstRequest(templateSpec: unknown): JsonObject {
  const spec = isMap(templateSpec) && isMap(templateSpec.spec) ? templateSpec.spec : {};
  const devices = isMap(spec.devices) ? spec.devices : {};
  const request = listOf(devices.requests)[0];
  return isMap(request) && isMap(request.exactly) ? request.exactly : {};
}

/** Devices of the claim: `count`, which DRA reads as 1 when absent (ExactCount). */
function claimGpus(templateSpec: unknown): number {
  const count = firstRequest(templateSpec).count;
  return typeof count === 'number' && count > 0 ? count : 1;
}

function claimDeviceClass(templateSpec: unknown): string {
  const name = firstRequest(templateSpec).deviceClassName;
  return typeof name === 'string' ? name : '';
}

function podSpecOf(spec: ComponentSpecJson): JsonObject {
  return isMap(spec.podTemplate) && isMap(spec.podTemplate.spec) ? spec.podTemplate.spec : {};
}

function listOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
