/**
 * The DRA gate of the GPU memory service. The ResourceClaimTemplates a GPU memory service or inter-pod
 * failover shares its GPUs through are `resource.k8s.io/v1` objects; when that API is absent, or the
 * operator configuration turns it off (`dra.enabled: false`), the operator's graph controller fails
 * every reconcile of a graph with such a component, before it creates any DCD or workload
 * (deploy/operator/internal/controller/dgd_gms_resource_claims_reconciler.go; the same in 1.4 and 1.5).
 * Nothing else the operator renders depends on the gate.
 */
import { OperatorSettings } from '../../model/operator-settings';
import { RenderError } from '../../model/render-error';
import { ComponentSpecJson, DgdJson } from '../../model/v1beta1';

/** Whether the component needs DRA: a GPU memory service (any mode), or failover in mode InterPod. */
function needsDra(component: ComponentSpecJson): 'gpuMemoryService' | 'failover' | undefined {
  const experimental = (component as any)?.experimental;
  if (experimental?.gpuMemoryService != null) return 'gpuMemoryService';
  if (experimental?.failover?.mode === 'InterPod') return 'failover';
  return undefined;
}

/** Refuses a graph with a component that needs DRA when the settings say DRA is unavailable. */
export function refuseGmsWithoutDra(dgd: DgdJson, settings: OperatorSettings): void {
  if (settings.draAvailable) return;
  (dgd.spec?.components ?? []).forEach((component, i) => {
    const feature = needsDra(component);
    if (feature === undefined) return;
    const what = feature === 'gpuMemoryService' ? 'a GPU memory service' : 'inter-pod failover (mode "InterPod")';
    throw new RenderError(`DynamoGraphDeployment/${dgd.metadata.name}`, `spec.components[${i}].experimental.${feature}`,
      `Forbidden: ${what} shares GPUs through DRA ResourceClaimTemplates, but DRA is unavailable to the operator `
      + '(dra.enabled: false in its configuration, or no resource.k8s.io/v1 API: Kubernetes 1.34+), so the operator fails every reconcile of this graph; '
      + `enable DRA (set dra.enabled to true or leave it unset on a cluster that serves resource.k8s.io/v1) or remove experimental.${feature} from the component`);
  });
}
