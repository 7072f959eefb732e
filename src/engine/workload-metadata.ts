/**
 * Labels and annotations the operator derives from a DCD for its workloads (Deployment, Service,
 * pods) — "workload labels" and "workload annotations".
 */
import { createHash } from 'crypto';
import { computeDynamoNamespace } from './dynamo-namespace';
import { dcdAlphaView } from '../import/v1alpha1/dcd-alpha-view';
import { assignOwn, shallowCopy } from '../model/json-copy';
import { DcdJson } from '../model/v1beta1';
import {
  ANNOTATION_BASE_MODEL, ANNOTATION_ORIGIN_VERSION, ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY, ANNOTATION_TOPOLOGY_LABEL_KEY,
  LABEL_BASE_MODEL_HASH, LABEL_COMPONENT, LABEL_COMPONENT_CLASS, LABEL_DYNAMO_NAMESPACE, LABEL_GRAPH_NAME,
  LABEL_SUB_COMPONENT_TYPE, LABEL_WORKER_HASH,
} from '../model/well-known';

/** Labels whose non-empty value on the DCD itself wins over every derived value. */
const DCD_AUTHORITATIVE_LABELS = [LABEL_COMPONENT, LABEL_DYNAMO_NAMESPACE, LABEL_GRAPH_NAME, LABEL_WORKER_HASH, LABEL_COMPONENT_CLASS];

/** The component name: `spec.name`, else the component label, else the DCD name. */
export function dcdComponentName(dcd: DcdJson): string {
  return dcd.spec?.name || dcd.metadata.labels?.[LABEL_COMPONENT] || dcd.metadata.name || '';
}

/** Name of the owning graph, when known (owner reference or graph label). */
export function dcdParentGraphName(dcd: DcdJson): string | undefined {
  const owner = (dcd.metadata.ownerReferences as any[] | undefined)?.find(o => o?.kind === 'DynamoGraphDeployment');
  return owner?.name || dcd.metadata.labels?.[LABEL_GRAPH_NAME] || undefined;
}

/** The Dynamo namespace of a DCD's pods and Services (a v1alpha1 dynamoNamespace kept in `nvidia.com/dcd-spec` first). */
export function dcdDynamoNamespace(dcd: DcdJson): string {
  const preserved = dcdAlphaView(dcd)?.dynamoNamespace;
  if (preserved !== undefined) return preserved;
  const fromLabel = dcd.metadata.labels?.[LABEL_DYNAMO_NAMESPACE];
  if (fromLabel) return fromLabel;
  const parent = dcdParentGraphName(dcd) ?? dcd.metadata.name ?? '';
  return computeDynamoNamespace(dcd.spec?.globalDynamoNamespace, dcd.metadata.namespace ?? '', parent);
}

export function baseModelHash(modelName: string): string {
  return createHash('sha256').update(modelName, 'utf8').digest('hex').slice(0, 8);
}

/**
 * Workload labels of a DCD (the base of Deployment, Service and pod labels): its own labels, the
 * v1alpha1 labels kept in `nvidia.com/dcd-spec`, its pod template's labels, then the derived ones.
 */
export function workloadLabels(dcd: DcdJson): Record<string, string> {
  const own = dcd.metadata.labels ?? {};
  const alpha = dcdAlphaView(dcd);
  // `{ ...own, ...alphaLabels, ...podLabels }` built by assignment: keys are added to it below (see `shallowCopy`)
  const labels: Record<string, string> = assignOwn(shallowCopy(own), alpha?.labels ?? {});
  assignOwn(labels, dcd.spec?.podTemplate?.metadata?.labels ?? {});
  const model = dcd.spec?.modelRef?.name;
  if (model) labels[LABEL_BASE_MODEL_HASH] = baseModelHash(model);
  if (alpha?.subComponentType) labels[LABEL_SUB_COMPONENT_TYPE] = alpha.subComponentType;
  labels[LABEL_COMPONENT] = dcdComponentName(dcd);
  const dynamoNamespace = dcdDynamoNamespace(dcd);
  if (dynamoNamespace) labels[LABEL_DYNAMO_NAMESPACE] = dynamoNamespace;
  for (const key of DCD_AUTHORITATIVE_LABELS) {
    if (own[key]) labels[key] = own[key];
  }
  return labels;
}

/**
 * Workload annotations of a DCD (Deployment, Service and pod annotations before bookkeeping): the
 * v1alpha1 annotations kept in `nvidia.com/dcd-spec`, its pod template's annotations, then the
 * derived ones.
 */
export function workloadAnnotations(dcd: DcdJson): Record<string, string> {
  const annotations: Record<string, string> = shallowCopy(dcdAlphaView(dcd)?.annotations);
  assignOwn(annotations, dcd.spec?.podTemplate?.metadata?.annotations ?? {});
  const model = dcd.spec?.modelRef?.name;
  if (model) annotations[ANNOTATION_BASE_MODEL] = model;
  delete annotations[ANNOTATION_ORIGIN_VERSION];
  for (const key of [ANNOTATION_TOPOLOGY_LABEL_KEY, ANNOTATION_TOPOLOGY_CLUSTER_TOPOLOGY]) {
    delete annotations[key];
    const own = dcd.metadata.annotations?.[key];
    if (own) annotations[key] = own;
  }
  return annotations;
}
