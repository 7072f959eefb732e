/**
 * The PodCliqueSet of a graph on the Grove workload provider (render-multinode §4): one per graph,
 * a clique per role of every component (component order, then role order), a scaling group per
 * component that spans nodes, and the graph-level Grove settings.
 */
import { cliqueAnnotations, cliqueLabels, sortedMap } from './clique-metadata';
import { GroveComponent } from './component-view';
import { podCliqueSetName } from './pcs-name';
import { applyGroveOverrides } from './provider-override';
import { CliqueRole, cliqueRoles, usesScalingGroup } from './roles';
import { applyScheduler, groveScheduling, GroveScheduling, volcanoQueueAnnotation } from './schedulers';
import { componentTopologyConstraint, graphTopologyConstraint } from './topology';
import { lowerAscii } from '../../model/json';
import { DgdJson, JsonObject } from '../../model/v1beta1';
import { ANNOTATION_GROVE_UPDATE_STRATEGY, LABEL_GRAPH_NAME } from '../../model/well-known';
import { selectBackend } from '../backend/select';
import { RenderError } from '../errors';
import { formatGoDuration, parseGoDuration } from '../go-duration';
import { componentsRestarting } from '../graph/component-dcds';
import { readGoValue } from '../hash/go-value';
import { groveDeployer } from '../multinode/deployer';
import { nodeCountOf } from '../multinode/roles';
import { OperatorSettings } from '../operator-settings';
import { PodSpecJson } from '../pod/k8s-json';
import { renderPodSpec } from '../pod/pod-template';

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

/** The pod spec of one clique, as the operator's client writes it. */
function cliquePodSpec(gc: GroveComponent, role: CliqueRole): PodSpecJson {
  const podSpec = renderPodSpec(gc.pod, {
    multinodeRole: role.role === 'main' ? undefined : role.role,
    deployer: groveDeployer(gc.name),
  });
  try {
    return readGoValue(podSpec, 'PodSpec', { unknownFields: 'drop' }).value as PodSpecJson;
  } catch (e) {
    if (e instanceof RenderError) throw e;
    throw new RenderError(gc.pod.ref, 'podTemplate.spec', e instanceof Error ? e.message : String(e));
  }
}

/** Cliques whose pods start only after the named cliques: TensorRT-LLM leaders wait for their workers. */
function startsAfter(gc: GroveComponent, role: CliqueRole, roles: readonly CliqueRole[]): string[] | undefined {
  if (role.role !== 'leader' || nodeCountOf(gc.component) <= 1) return undefined;
  if (selectBackend(gc.pod.dcd.spec ?? {}, gc.pod.ref).framework !== 'trtllm') return undefined;
  return roles.filter(r => r.role === 'worker').map(r => r.cliqueName);
}

interface RenderedComponent {
  readonly cliques: JsonObject[];
  readonly scalingGroup?: JsonObject;
}

function renderComponent(
  dgd: DgdJson, gc: GroveComponent, settings: OperatorSettings, scheduling: GroveScheduling, restartAt: string | undefined,
): RenderedComponent {
  const component = gc.component;
  const roles = cliqueRoles(component, gc.pod.ref);
  const grouped = usesScalingGroup(component);
  const multinode = nodeCountOf(component) > 1;
  const labels = cliqueLabels(dgd, component, settings);
  const annotations = sortedMap(cliqueAnnotations(dgd, component, restartAt));
  const cliques = roles.map(role => {
    const podSpec = cliquePodSpec(gc, role);
    const ownLabels = { ...labels };
    applyScheduler(podSpec, ownLabels, scheduling);
    let minAvailable = grouped ? 1 : component.minAvailable ?? 1;
    // every pod of a multinode replica must be up for the collective to work
    if (multinode) minAvailable = role.replicas;
    const spec: JsonObject = { roleName: role.cliqueName, podSpec, replicas: role.replicas, minAvailable };
    const after = startsAfter(gc, role, roles);
    if (after?.length) spec.startsAfter = after;
    const clique: JsonObject = { name: role.cliqueName, labels: sortedMap(ownLabels) };
    if (Object.keys(annotations).length > 0) clique.annotations = { ...annotations };
    const topology = grouped ? undefined : componentTopologyConstraint(dgd, component);
    if (topology) clique.topologyConstraint = topology;
    clique.spec = spec;
    return clique;
  });
  if (!grouped) return { cliques };
  // the scaling group is named after the component, lower-cased
  const scalingGroup: JsonObject = { name: lowerAscii(gc.name), cliqueNames: roles.map(r => r.cliqueName) };
  if (component.replicas !== undefined) scalingGroup.replicas = component.replicas;
  scalingGroup.minAvailable = component.minAvailable ?? 1;
  const topology = componentTopologyConstraint(dgd, component);
  if (topology) scalingGroup.topologyConstraint = topology;
  return { cliques, scalingGroup };
}

/**
 * The PodCliqueSet of an admitted graph from its prepared components (see `groveComponents`), with
 * provider overrides applied. Bookkeeping annotations are added by the caller.
 */
export function renderPodCliqueSet(dgd: DgdJson, components: readonly GroveComponent[], settings: OperatorSettings): JsonObject {
  const scheduling = groveScheduling(dgd, settings);
  const restarting = componentsRestarting(dgd);
  const cliques: JsonObject[] = [];
  const scalingGroups: JsonObject[] = [];
  for (const gc of components) {
    const restartAt = restarting.has(gc.name) ? dgd.spec.restart!.id : undefined;
    const rendered = renderComponent(dgd, gc, settings, scheduling, restartAt);
    cliques.push(...rendered.cliques);
    if (rendered.scalingGroup) scalingGroups.push(rendered.scalingGroup);
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
