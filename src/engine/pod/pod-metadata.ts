/**
 * Labels and annotations of a DCD's pod template (docs/design/render-core.md §5.9 "Pod template labels", §12.3):
 * the workload labels plus the metrics, graph, component, Dynamo-namespace, worker-hash, selector
 * and discovery labels; the workload annotations.
 */
import { shallowCopy } from '../../model/json-copy';
import {
  ANNOTATION_ENABLE_METRICS, LABEL_COMPONENT, LABEL_COMPONENT_TYPE, LABEL_DISCOVERY_BACKEND, LABEL_DISCOVERY_ENABLED, LABEL_DYNAMO_NAMESPACE,
  LABEL_GRAPH_NAME, LABEL_METRICS_ENABLED, LABEL_SELECTOR, LABEL_WORKER_HASH,
} from '../../model/well-known';
import { DISCOVERY_BACKEND_KUBERNETES } from '../discovery';
import { workloadAnnotations, workloadLabels } from '../workload-metadata';
import { DcdContext } from '../workloads/dcd-context';


/** Labels of the pod template. */
export function podTemplateLabels(ctx: DcdContext, annotations: Readonly<Record<string, string>>): Record<string, string> {
  // a copy made by assignment: keys are added below (see shallowCopy)
  const labels = shallowCopy(workloadLabels(ctx.dcd));
  const own = ctx.dcd.metadata.labels ?? {};
  if (annotations[ANNOTATION_ENABLE_METRICS] !== 'false') labels[LABEL_METRICS_ENABLED] = 'true';
  const graphName = own[LABEL_GRAPH_NAME] || ctx.ownerGraphName;
  if (graphName) labels[LABEL_GRAPH_NAME] = graphName;
  if (ctx.workloadType) labels[LABEL_COMPONENT_TYPE] = ctx.workloadType;
  labels[LABEL_COMPONENT] = ctx.componentName;
  labels[LABEL_DYNAMO_NAMESPACE] = ctx.dynamoNamespace;
  if (own[LABEL_WORKER_HASH]) labels[LABEL_WORKER_HASH] = own[LABEL_WORKER_HASH];
  labels[LABEL_SELECTOR] = ctx.name;
  if (ctx.discovery.kubernetes) {
    labels[LABEL_DISCOVERY_BACKEND] = DISCOVERY_BACKEND_KUBERNETES;
    labels[LABEL_DISCOVERY_ENABLED] = 'true';
  }
  return labels;
}

/** Annotations of the pod template (the workload annotations). */
export function podTemplateAnnotations(ctx: DcdContext): Record<string, string> {
  return workloadAnnotations(ctx.dcd);
}
