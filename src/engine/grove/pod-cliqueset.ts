/**
 * The PodCliqueSet of a graph on the Grove workload provider (docs/design/render-multinode.md §4): one per graph,
 * a clique per role of every component (component order, then role order), a scaling group per
 * component that spans nodes (or uses the inter-pod GPU memory service, with its per-rank claim
 * templates), and the graph-level Grove settings.
 */
import { cliqueAnnotations, cliqueLabels, sortedMap } from './clique-metadata';
import { CliqueRole, cliqueRoles, interPodNodeLimit, interPodTooLarge, usesScalingGroup } from './clique-roles';
import { GroveComponent } from './component-view';
import { podCliqueSetName } from './pcs-name';
import { applyGroveOverrides } from './provider-override';
import { applyScheduler, groveScheduling, GroveScheduling, volcanoQueueAnnotation } from './schedulers';
import { componentTopologyConstraint, graphTopologyConstraint } from './topology';
import { formatGoDuration, parseGoDuration } from '../../go/duration';
import { readGoValue } from '../../go/value';
import { MAX_OBJECT_BYTES } from '../../import/document-kinds';
import { lowerAscii } from '../../model/json';
import { OperatorSettings } from '../../model/operator-settings';
import { RenderError } from '../../model/render-error';
import { DgdJson, JsonObject } from '../../model/v1beta1';
import {
  ANNOTATION_GROVE_UPDATE_STRATEGY, ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY, ANNOTATION_TOPOLOGY_LABEL_KEY, LABEL_DISCOVERY_BACKEND,
  LABEL_DISCOVERY_ENABLED, LABEL_GRAPH_NAME,
} from '../../model/well-known';
import { selectBackend } from '../backend/select';
import {
  applyCheckpointProbeCadence, applyCliqueRestoreMetadata, checkpointOf, ComponentCheckpoint, gatedByCheckpoint, usesDynamoCheckpoints,
} from '../experimental/checkpoint';
import { isInterPodFailover, isInterPodGms, mainContainerGpus } from '../experimental/gms-spec';
import {
  addVllmShadowModeEnv, LABEL_FAILOVER_ENGINE_GROUP_MEMBER, rankClaimTemplates, rankResourceSharing, toGmsEnginePod,
  toGmsWeightServerPod, withGmsLoadFormat,
} from '../experimental/inter-pod-gms';
import { componentsRestarting } from '../graph/component-dcds';
import { groveDeployer, groveGmsDeployer } from '../multinode/deployer';
import { nodeCountOf } from '../multinode/roles';
import { PodSpecJson } from '../pod/k8s-json';
import { renderPodSpec } from '../pod/workload-pod-template';

export const GROVE_API_VERSION = 'grove.io/v1alpha1';
export const POD_CLIQUE_SET_KIND = 'PodCliqueSet';
export const STARTUP_ANY_ORDER = 'CliqueStartupTypeAnyOrder';
export const STARTUP_EXPLICIT = 'CliqueStartupTypeExplicit';
/** The values `nvidia.com/grove-update-strategy` may take. */
export const GROVE_UPDATE_STRATEGIES: readonly string[] = ['RollingRecreate', 'OnDelete'];

/** The graph's `spec.updateStrategy`, from its annotation; undefined when the annotation is absent. */
function updateStrategy(dgd: DgdJson): JsonObject | undefined {
  const annotations = dgd.metadata.annotations ?? {};
  if (!Object.prototype.hasOwnProperty.call(annotations, ANNOTATION_GROVE_UPDATE_STRATEGY)) return undefined;
  const value = annotations[ANNOTATION_GROVE_UPDATE_STRATEGY];
  if (!GROVE_UPDATE_STRATEGIES.includes(value)) {
    throw new RenderError(`DynamoGraphDeployment/${dgd.metadata.name}`, `metadata.annotations["${ANNOTATION_GROVE_UPDATE_STRATEGY}"]`,
      `unsupported Grove update strategy ${JSON.stringify(value)}: supported values are "RollingRecreate" and "OnDelete"`);
  }
  return { type: value };
}

/**
 * The pod spec of one clique before it is read as Go. Components with the inter-pod GPU memory
 * service render a weight-server pod (the single-node pod, rewritten) or an engine pod (rank-aware
 * addressing across nodes) per rank (docs/design/render-experimental.md §1.4).
 */
function renderCliquePod(gc: GroveComponent, role: CliqueRole): PodSpecJson {
  const multinodeRole = role.role === 'main' || role.role === 'gms' ? undefined : role.role;
  if (!isInterPodGms(gc.component)) return renderPodSpec(gc.pod, { multinodeRole, deployer: groveDeployer(gc.name) });
  const ctx = withGmsLoadFormat(gc.pod);
  const deployer = nodeCountOf(gc.component) > 1 ? groveGmsDeployer(gc.name, role.rank) : groveDeployer(gc.name);
  const podSpec = renderPodSpec(ctx, { multinodeRole, deployer });
  addVllmShadowModeEnv(podSpec, ctx, multinodeRole !== undefined);
  if (role.role === 'gms') {
    toGmsWeightServerPod(podSpec, role.rank, mainContainerGpus(gc.component, gc.pod.ref, `spec.components[${gc.index}]`));
  } else {
    toGmsEnginePod(podSpec, role.rank, isInterPodFailover(gc.component));
  }
  return podSpec;
}

/** The pod spec of one clique, as the operator's client writes it. */
function cliquePodSpec(gc: GroveComponent, role: CliqueRole): PodSpecJson {
  const podSpec = renderCliquePod(gc, role);
  try {
    return readGoValue(podSpec, 'PodSpec', { unknownFields: 'drop' }).value as PodSpecJson;
  } catch (e) {
    if (e instanceof RenderError) throw e;
    throw new RenderError(gc.pod.ref, 'podTemplate.spec', e instanceof Error ? e.message : String(e));
  }
}

/**
 * Cliques whose pods start only after the named cliques (docs/design/render-multinode.md §4.5): inter-pod engines
 * wait for their rank's weight server, then TensorRT-LLM leaders wait for their workers.
 */
function startsAfter(gc: GroveComponent, role: CliqueRole, roles: readonly CliqueRole[]): string[] | undefined {
  const after: string[] = [];
  if (isInterPodGms(gc.component) && role.role !== 'gms') {
    const server = roles.find(r => r.role === 'gms' && r.rank === role.rank);
    if (server) after.push(server.cliqueName);
  }
  if (role.role === 'leader' && nodeCountOf(gc.component) > 1 && selectBackend(gc.pod.dcd.spec ?? {}, gc.pod.ref).framework === 'trtllm') {
    after.push(...roles.filter(r => r.role === 'worker').map(r => r.cliqueName));
  }
  return after.length > 0 ? after : undefined;
}

/** Clique labels for one role: weight servers are not discoverable, failover engines form a group. */
function roleLabels(labels: Readonly<Record<string, string>>, gc: GroveComponent, role: CliqueRole): Record<string, string> {
  const own = { ...labels };
  if (isInterPodFailover(gc.component) && role.role !== 'gms') own[LABEL_FAILOVER_ENGINE_GROUP_MEMBER] = 'true';
  if (role.role === 'gms') {
    delete own[LABEL_DISCOVERY_BACKEND];
    delete own[LABEL_DISCOVERY_ENABLED];
  }
  return own;
}

/** Clique annotations for one role: weight servers get no KV-transfer topology keys. */
function roleAnnotations(annotations: Readonly<Record<string, string>>, role: CliqueRole): Record<string, string> {
  const own = { ...annotations };
  if (role.role === 'gms') {
    delete own[ANNOTATION_TOPOLOGY_LABEL_KEY];
    delete own[ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY];
  }
  return own;
}

/** The PodCliqueSet would be over the API server's request size: the operator cannot create it. */
function podCliqueSetTooLarge(dgd: DgdJson, gc: GroveComponent): RenderError {
  return interPodTooLarge(dgd.metadata.name ?? '', gc.index, nodeCountOf(gc.component));
}

/** An inter-pod component with more nodes than a PodCliqueSet can hold is refused before its cliques are built. */
function checkInterPodRanks(dgd: DgdJson, gc: GroveComponent): void {
  const error = interPodNodeLimit(dgd.metadata.name ?? '', gc.index, gc.component);
  if (error) throw error;
}

interface RenderedComponent {
  readonly cliques: JsonObject[];
  readonly scalingGroup?: JsonObject;
  /** Grove claim templates of the inter-pod GPU memory service (one per rank). */
  readonly claimTemplates: JsonObject[];
}

function renderComponent(
  dgd: DgdJson, gc: GroveComponent, settings: OperatorSettings, scheduling: GroveScheduling, restartAt: string | undefined,
  checkpoint: ComponentCheckpoint | undefined,
): RenderedComponent {
  // a component waiting for its checkpoint is held at zero (its GPU memory service cliques are not)
  const gated = gatedByCheckpoint(checkpoint);
  const component = gc.component;
  const interPod = isInterPodGms(component);
  if (interPod) checkInterPodRanks(dgd, gc);
  const roles = cliqueRoles(component, gc.pod.ref);
  const grouped = usesScalingGroup(component);
  const multinode = nodeCountOf(component) > 1;
  const labels = cliqueLabels(dgd, component, settings);
  const annotations = sortedMap(cliqueAnnotations(dgd, component, restartAt));
  const dynamoCheckpoints = usesDynamoCheckpoints(settings);
  let cliqueText = 0;
  const cliques = roles.map(role => {
    const podSpec = cliquePodSpec(gc, role);
    // operators 1.4.0 and 1.5.0: engine pods restoring from a Ready checkpoint probe every second
    if (dynamoCheckpoints && settings.checkpointEnabled && role.role !== 'gms') applyCheckpointProbeCadence(podSpec, component.type, checkpoint);
    const ownLabels = roleLabels(labels, gc, role);
    applyScheduler(podSpec, ownLabels, scheduling);
    let minAvailable = grouped ? 1 : component.minAvailable ?? 1;
    // every pod of a multinode replica must be up for the collective to work (failover shadows need not)
    if (multinode && !isInterPodFailover(component)) minAvailable = role.replicas;
    const replicas = gated && role.role !== 'gms' ? 0 : role.replicas;
    const spec: JsonObject = { roleName: role.cliqueName, podSpec, replicas, minAvailable };
    const after = startsAfter(gc, role, roles);
    if (after?.length) spec.startsAfter = after;
    const ownAnnotations = roleAnnotations(annotations, role);
    if (role.role !== 'gms') {
      applyCliqueRestoreMetadata(ownLabels, ownAnnotations, checkpoint, { checkpointEnabled: settings.checkpointEnabled, dynamoCheckpoints });
    }
    const clique: JsonObject = { name: role.cliqueName, labels: sortedMap(ownLabels) };
    if (Object.keys(ownAnnotations).length > 0) clique.annotations = sortedMap(ownAnnotations);
    const topology = grouped ? undefined : componentTopologyConstraint(dgd, component);
    if (topology) clique.topologyConstraint = topology;
    clique.spec = spec;
    // two cliques per node: stop as soon as they alone are more than the API server takes
    if (interPod && (cliqueText += JSON.stringify(clique).length) > MAX_OBJECT_BYTES) throw podCliqueSetTooLarge(dgd, gc);
    return clique;
  });
  const claimTemplates = interPod ? rankClaimTemplates(component, roles, gc.pod.ref, `spec.components[${gc.index}]`) : [];
  if (!grouped) return { cliques, claimTemplates };
  // the scaling group is named after the component, lower-cased
  const scalingGroup: JsonObject = { name: lowerAscii(gc.name), cliqueNames: roles.map(r => r.cliqueName) };
  if (gated) scalingGroup.replicas = 0;
  else if (component.replicas !== undefined) scalingGroup.replicas = component.replicas;
  scalingGroup.minAvailable = component.minAvailable ?? 1;
  if (interPod) scalingGroup.resourceSharing = rankResourceSharing(gc.name, roles);
  const topology = componentTopologyConstraint(dgd, component);
  if (topology) scalingGroup.topologyConstraint = topology;
  return { cliques, scalingGroup, claimTemplates };
}

/**
 * The PodCliqueSet of an admitted graph from its prepared components (see `groveComponents`), with
 * provider overrides applied; `checkpoints` are the graph's resolved checkpoints (restore
 * annotations, the `WaitForCheckpoint` replica gate). Bookkeeping annotations are added by the caller.
 */
export function renderPodCliqueSet(
  dgd: DgdJson, components: readonly GroveComponent[], settings: OperatorSettings, checkpoints: readonly ComponentCheckpoint[] = [],
): JsonObject {
  const scheduling = groveScheduling(dgd, settings);
  const restarting = componentsRestarting(dgd);
  const cliques: JsonObject[] = [];
  const scalingGroups: JsonObject[] = [];
  const claimTemplates: JsonObject[] = [];
  for (const gc of components) {
    const restartAt = restarting.has(gc.name) ? dgd.spec.restart!.id : undefined;
    const rendered = renderComponent(dgd, gc, settings, scheduling, restartAt, checkpointOf(checkpoints, gc.name));
    cliques.push(...rendered.cliques);
    if (rendered.scalingGroup) scalingGroups.push(rendered.scalingGroup);
    claimTemplates.push(...rendered.claimTemplates);
  }

  const template: JsonObject = { cliques };
  const explicitOrder = cliques.some(c => c.spec.startsAfter !== undefined);
  template.cliqueStartupType = explicitOrder ? STARTUP_EXPLICIT : STARTUP_ANY_ORDER;
  if (dgd.spec.priorityClassName) template.priorityClassName = dgd.spec.priorityClassName;
  template.headlessServiceConfig = { publishNotReadyAddresses: true };
  const topology = graphTopologyConstraint(dgd);
  if (topology) template.topologyConstraint = topology;
  const delay = parseGoDuration(settings.groveTerminationDelay);
  if (delay === undefined) {
    throw new RenderError('OperatorConfiguration', 'orchestrators.grove.terminationDelay',
      `must be a duration such as "15m", got ${JSON.stringify(settings.groveTerminationDelay)}`);
  }
  if (delay > 0n) template.terminationDelay = formatGoDuration(delay);
  if (claimTemplates.length > 0) template.resourceClaimTemplates = claimTemplates;
  if (scalingGroups.length > 0) template.podCliqueScalingGroups = scalingGroups;
  applyGroveOverrides(dgd, template);

  const labels = sortedMap({ ...(dgd.spec.labels ?? {}), [LABEL_GRAPH_NAME]: dgd.metadata.name ?? '' });
  const annotations: Record<string, string> = { ...(dgd.spec.annotations ?? {}) };
  const volcanoQueue = volcanoQueueAnnotation(dgd, scheduling);
  if (volcanoQueue) annotations[volcanoQueue[0]] = volcanoQueue[1];
  const metadata: JsonObject = { name: podCliqueSetName(dgd.metadata.name ?? '', dgd.spec.components ?? []) };
  if (dgd.metadata.namespace) metadata.namespace = dgd.metadata.namespace;
  metadata.labels = labels;
  if (Object.keys(annotations).length > 0) metadata.annotations = sortedMap(annotations);

  const spec: JsonObject = { replicas: 1 };
  const strategy = updateStrategy(dgd);
  if (strategy) spec.updateStrategy = strategy;
  spec.template = template;
  return { apiVersion: GROVE_API_VERSION, kind: POD_CLIQUE_SET_KIND, metadata, spec };
}
