/**
 * The workloads of a graph or a standalone DCD on the component path (Deployment, or LeaderWorkerSet
 * for a multinode DCD), in the order the operator's controllers create them.
 */
import { renderComponentService } from './component-service';
import { DcdContext, dcdContext } from './dcd-context';
import { renderDeployment } from './deployment';
import { renderIngress } from './ingress';
import { KubeObject } from './kube-object';
import { renderLeaderWorkerSet } from './leader-worker-set';
import { renderModelService } from './model-service';
import { renderScalingAdapters } from './scaling-adapter';
import { renderSharedGraphResources } from './shared-resources';
import { renderVirtualService } from './virtual-service';
import { OperatorSettings } from '../../model/operator-settings';
import { DcdJson, DgdJson } from '../../model/v1beta1';
import { ComponentCheckpoint } from '../experimental/checkpoint';
import { refuseInterPodGmsOnComponentPath } from '../experimental/component-path';
import { ClusterObjects } from '../multinode/dra-objects';
import { isMultinode } from '../multinode/roles';
import { renderPodTemplate, takePodTemplateReading } from '../pod/workload-pod-template';

/**
 * Whether the DCD's workload is a LeaderWorkerSet: LeaderWorkerSet is available and the DCD spans
 * several nodes (docs/design/render-multinode.md §1.2); otherwise a Deployment.
 */
export function rendersLeaderWorkerSet(ctx: DcdContext): boolean {
  return ctx.settings.lwsAvailable && isMultinode(ctx.dcd.spec ?? {});
}

/**
 * The Deployment of a DCD. A multinode DCD gets one too when LeaderWorkerSet is unavailable (the
 * component controller's fallback; a graph with such a component is refused before): its one pod
 * per replica is rendered in role `main` for `nodeCount` nodes with LeaderWorkerSet addressing, so
 * it carries the backend's multinode rewrites of a pod that is neither leader nor worker, and the
 * component Service still selects `role: leader`, which no pod of the Deployment has.
 */
function renderDcdDeployment(ctx: DcdContext): KubeObject {
  const podTemplate = renderPodTemplate(ctx, isMultinode(ctx.dcd.spec ?? {}) ? { multinodeRole: 'main' } : {});
  return renderDeployment(ctx, podTemplate, takePodTemplateReading(podTemplate));
}

/**
 * What the component controller creates for one DCD: Deployment, component Service, model
 * Service (unless `skipModelService` says another DCD already created it), Ingress and
 * VirtualService — each only when the operator creates it.
 */
function dcdWorkloads(ctx: DcdContext, skipModelService: (name: string) => boolean): KubeObject[] {
  const out: KubeObject[] = [rendersLeaderWorkerSet(ctx) ? renderLeaderWorkerSet(ctx) : renderDcdDeployment(ctx)];
  const service = renderComponentService(ctx);
  if (service) out.push(service);
  const modelService = renderModelService(ctx);
  if (modelService && !skipModelService(modelService.metadata.name!)) out.push(modelService);
  for (const frontendObject of [renderIngress(ctx), renderVirtualService(ctx)]) {
    if (frontendObject) out.push(frontendObject);
  }
  return out;
}

/**
 * Every object the operator creates for an admitted graph on the component path, given the DCDs it
 * generates (with bookkeeping annotations, in component order): shared resources (cluster-wide
 * planner/EPP RBAC, discovery RBAC, GPU memory service ResourceClaimTemplates, automatic checkpoint
 * captures (capture ResourceClaimTemplate, SnapshotJob), EPP
 * ConfigMap/InferencePool/DestinationRule, the wait-leader ConfigMap when a component is
 * multinode), then per component the DCD and its workloads, then scaling adapters. A model Service shared by several
 * components comes once, after the first component that names the model. Components with the
 * inter-pod GPU memory service are refused (Grove only). `cluster` holds the cluster objects given
 * with the input (the DRA objects behind GPU claims).
 */
export function renderGraphWorkloads(
  dgd: DgdJson, dcds: readonly DcdJson[], settings: OperatorSettings, checkpoints: readonly ComponentCheckpoint[] = [],
  cluster?: ClusterObjects,
): unknown[] {
  refuseInterPodGmsOnComponentPath(`DynamoGraphDeployment/${dgd.metadata.name}`, dgd.spec.components ?? [], 'spec.components');
  const out = renderSharedGraphResources(dgd, settings, checkpoints, cluster);
  const modelServices = new Set<string>();
  const seen = (name: string) => {
    const known = modelServices.has(name);
    modelServices.add(name);
    return known;
  };
  for (const dcd of dcds) {
    out.push(dcd);
    out.push(...dcdWorkloads(dcdContext(dcd, settings, dgd.metadata.name, cluster), seen));
  }
  out.push(...renderScalingAdapters(dgd, checkpoints));
  return out;
}

/**
 * The workloads of one admitted DCD (Deployment, Services, Ingress/VirtualService).
 * `ownerGraphName` names the graph the DCD belongs to when it has no owner reference. A standalone
 * DCD gets no discovery ServiceAccount (only graphs create one), though its pods name it.
 */
export function renderComponentWorkloads(dcd: DcdJson, settings: OperatorSettings, ownerGraphName?: string, cluster?: ClusterObjects): unknown[] {
  return dcdWorkloads(dcdContext(dcd, settings, ownerGraphName, cluster), () => false);
}
