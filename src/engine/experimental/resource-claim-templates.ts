/**
 * The graph-level DRA ResourceClaimTemplates of the GPU memory service (docs/design/render-experimental.md
 * §1.2.1): one per component with `experimental.gpuMemoryService` (whatever its mode) whose main
 * container asks for GPUs, created by the graph controller among its shared resources (after the
 * discovery RBAC, before the EPP resources).
 */
import { deviceClassNameOf, gpuMemoryServiceOf, mainContainerGpus } from './gms-spec';
import { intraPodClaimTemplateName } from './intra-pod-gms';
import { DgdJson, JsonObject } from '../../model/v1beta1';
import { withCreateBookkeeping } from '../bookkeeping';
import { kubeObject, KubeObject } from '../workloads/kube-object';

export const RESOURCE_API_VERSION = 'resource.k8s.io/v1';
export const RESOURCE_CLAIM_TEMPLATE_KIND = 'ResourceClaimTemplate';

/**
 * The `ResourceClaimTemplateSpec` asking for `count` devices of `deviceClassName` through one
 * request, as Go sends it (its object metadata is an empty struct, which Go still writes).
 */
export function gpuClaimTemplateSpec(requestName: string, deviceClassName: string, count: number): JsonObject {
  const exactly: JsonObject = { deviceClassName, allocationMode: 'ExactCount' };
  if (count !== 0) exactly.count = count;
  return { metadata: {}, spec: { devices: { requests: [{ name: requestName, exactly }] } } };
}

/**
 * The ResourceClaimTemplates the graph controller creates for an admitted graph, in component
 * order: `<graph>-<component lower-cased>-gpu`, request `gpus` for the main container's GPUs.
 * A component whose GPU count is 0 gets none (the controller deletes its template instead).
 */
export function renderGmsResourceClaimTemplates(dgd: DgdJson): KubeObject[] {
  const graphName = dgd.metadata.name ?? '';
  const out: KubeObject[] = [];
  (dgd.spec.components ?? []).forEach((component, i) => {
    if (!gpuMemoryServiceOf(component)) return;
    const gpus = mainContainerGpus(component, `DynamoGraphDeployment/${graphName}`, `spec.components[${i}]`);
    if (gpus <= 0) return;
    const meta = { name: intraPodClaimTemplateName(graphName, component.name ?? ''), namespace: dgd.metadata.namespace ?? '' };
    const spec = gpuClaimTemplateSpec('gpus', deviceClassNameOf(component), gpus);
    out.push(withCreateBookkeeping(kubeObject(RESOURCE_API_VERSION, RESOURCE_CLAIM_TEMPLATE_KIND, meta, { spec })));
  });
  return out;
}
