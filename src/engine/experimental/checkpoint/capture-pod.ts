/**
 * The pod template of an automatic capture (docs/design/render-experimental.md §3.2.3): the component rendered
 * like a serving pod of the graph (graph env, labels, annotations, KV transfer policy, backend
 * defaults) but without its experimental features and frontend sidecar, reduced to the target
 * container, then overlaid with `checkpoint.job.podTemplate`.
 */
import { ComponentCheckpointConfig } from './component-config';
import { mergoMerge } from '../../../go/mergo';
import { readGoValue } from '../../../go/value';
import { isMap, JsonMap } from '../../../model/json';
import { copyJson } from '../../../model/json-copy';
import { OperatorSettings } from '../../../model/operator-settings';
import { RenderError } from '../../../model/render-error';
import { ComponentSpecJson, DgdJson, JsonObject } from '../../../model/v1beta1';
import { LABEL_COMPONENT, LABEL_GRAPH_NAME, LABEL_WORKER_HASH } from '../../../model/well-known';
import { selectBackend } from '../../backend/select';
import { discoveryServiceAccountName, kubeDiscoveryEnabled } from '../../discovery';
import { graphComponentPodContext, withGraphTemplateDefaults } from '../../graph/template-defaults';
import { mergeEnvs } from '../../pod/env';
import { ContainerJson, EnvVarJson, objectItems, PodSpecJson } from '../../pod/k8s-json';
import { renderPodSpec } from '../../pod/workload-pod-template';

/** The capture pod template of one component, before GPU memory service wiring. */
export interface CapturePodTemplate {
  /** `metadata` (labels, annotations) and `spec`, as the operator's Go client sends them. */
  readonly template: JsonObject;
  /** The backend framework the pod was rendered for (`vllm`, `sglang`, `trtllm`). */
  readonly backendFramework: string;
}

/** `DynamoGraphDeployment/<name>`. */
export function graphRef(dgd: DgdJson): string {
  return `DynamoGraphDeployment/${dgd.metadata.name ?? ''}`;
}

/**
 * The component copy the capture pod is rendered from: no `experimental`, no `frontendSidecar`, with
 * the graph's template defaults (env, KV transfer policy, spec labels and annotations, propagated
 * graph annotations). Unlike the Grove clique path, no worker-hash label and no Dynamo-namespace
 * label are added, so the capture pod has no `DYN_NAMESPACE_WORKER_SUFFIX`.
 */
function captureComponent(dgd: DgdJson, config: ComponentCheckpointConfig): ComponentSpecJson {
  const component = copyJson(config.component);
  delete component.experimental;
  delete component.frontendSidecar;
  return withGraphTemplateDefaults(dgd, component, `the capture pod of spec.components[${config.index}]`);
}

/** Replaces same-named items of `base` by those of `overrides` and appends new names (Go `mergeNamedSlice`). */
function mergeNamed(base: unknown, overrides: unknown): unknown[] | undefined {
  const result = objectItems<JsonMap>(base).map(v => copyJson(v));
  const items = objectItems<JsonMap>(overrides);
  if (items.length === 0) return Array.isArray(base) ? result : undefined;
  for (const item of items) {
    const at = result.findIndex(r => (r.name ?? '') === (item.name ?? ''));
    if (at >= 0) result[at] = copyJson(item);
    else result.push(copyJson(item));
  }
  return result;
}

/** The capture template while it is built (docs/design/render-experimental.md §3.2.3 step 5 overlays it). */
interface CaptureTemplateParts {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly spec: PodSpecJson;
}

/** `checkpoint.job.podTemplate` over the capture template (labels and annotations in place; the merged spec is returned). */
function overlayJobPodTemplate(template: CaptureTemplateParts, overlay: JsonObject): PodSpecJson {
  const metadata: JsonMap = isMap(overlay.metadata) ? overlay.metadata : {};
  if (isMap(metadata.labels)) Object.assign(template.labels, metadata.labels);
  if (isMap(metadata.annotations)) Object.assign(template.annotations, metadata.annotations);
  const spec: JsonMap = isMap(overlay.spec) ? copyJson(overlay.spec) : {};
  const containers = objectItems<JsonMap>(spec.containers);
  const initContainers = spec.initContainers;
  const volumes = spec.volumes;
  delete spec.containers;
  delete spec.initContainers;
  delete spec.volumes;
  const merged = mergoMerge(template.spec, spec) as PodSpecJson;
  const mergedVolumes = mergeNamed(merged.volumes, volumes);
  if (mergedVolumes !== undefined) merged.volumes = mergedVolumes as PodSpecJson['volumes'];
  const mergedInit = mergeNamed(merged.initContainers, initContainers);
  if (mergedInit !== undefined) merged.initContainers = mergedInit;
  for (const override of containers) {
    const name = typeof override.name === 'string' ? override.name : '';
    const at = name === '' ? -1 : merged.containers.findIndex(c => c.name === name);
    if (at < 0) {
      merged.containers.push(copyJson(override) as ContainerJson);
      continue;
    }
    const existing = merged.containers[at];
    const container = mergoMerge(existing, override) as ContainerJson;
    container.env = mergeEnvs(existing.env, objectItems<EnvVarJson>(override.env));
    if (container.env.length === 0) delete container.env;
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
      if (isMap(override[probe])) container[probe] = copyJson(override[probe]) as JsonObject;
    }
    merged.containers[at] = container;
  }
  return merged;
}

/**
 * The capture pod template of a checkpoint-enabled component (docs/design/render-experimental.md §3.2.3 steps 1–6 and the capture
 * labels): rendered with `settings`, `workerHash` labelled when non-empty. Errors name the graph.
 */
export function captureComponentPodTemplate(
  dgd: DgdJson, config: ComponentCheckpointConfig, settings: OperatorSettings, workerHash: string,
): CapturePodTemplate {
  const graphName = dgd.metadata.name ?? '';
  const at = `spec.components[${config.index}]`;
  const ctx = graphComponentPodContext(dgd, config.index, config.componentName, captureComponent(dgd, config), settings);
  const backend = selectBackend(ctx.dcd.spec ?? {}, ctx.ref);
  if (backend.framework === 'noop') {
    throw new RenderError(graphRef(dgd), `${at}.experimental.checkpoint`,
      `checkpoint backend framework for component ${config.componentName} could not be determined; `
      + 'set spec.backendFramework or use a recognizable worker command');
  }

  // 1.–2. the regular pod pipeline (single node), then only the target container
  const rendered = renderPodSpec(ctx);
  const target = rendered.containers.find(c => c.name === config.targetContainerName);
  if (!target) {
    throw new RenderError(graphRef(dgd), `${at}.experimental.checkpoint.targetContainerName`,
      `checkpoint target container ${JSON.stringify(config.targetContainerName)} not found`);
  }
  let podSpec: PodSpecJson = { ...rendered, containers: [target] };
  // 3. a Job pod never restarts in place
  podSpec.restartPolicy = 'Never';

  // 4. metadata from the component's own pod template, plus the component label
  const userMetadata: JsonMap = isMap(config.component.podTemplate?.metadata) ? config.component.podTemplate!.metadata : {};
  const labels: Record<string, string> = { ...(isMap(userMetadata.labels) ? userMetadata.labels as Record<string, string> : {}) };
  const annotations: Record<string, string> = { ...(isMap(userMetadata.annotations) ? userMetadata.annotations as Record<string, string> : {}) };
  labels[LABEL_COMPONENT] = config.componentName;

  // 5. checkpoint.job.podTemplate
  if (config.jobPodTemplate) podSpec = overlayJobPodTemplate({ labels, annotations, spec: podSpec }, config.jobPodTemplate);

  // 6. Kubernetes discovery service account; then the capture labels
  if (kubeDiscoveryEnabled(settings, dgd.metadata.annotations) && !podSpec.serviceAccountName) {
    podSpec.serviceAccountName = discoveryServiceAccountName(graphName);
  }
  labels[LABEL_GRAPH_NAME] = graphName;
  labels[LABEL_COMPONENT] = config.componentName;
  if (workerHash !== '') labels[LABEL_WORKER_HASH] = workerHash;

  const metadata: JsonObject = { labels };
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  let template: JsonObject;
  try {
    template = readGoValue({ metadata, spec: podSpec }, 'PodTemplateSpec', { unknownFields: 'drop' }).value as JsonObject;
  } catch (e) {
    if (e instanceof RenderError) throw e;
    throw new RenderError(graphRef(dgd), `${at}.experimental.checkpoint.job.podTemplate`, e instanceof Error ? e.message : String(e));
  }
  return { template, backendFramework: backend.framework };
}
