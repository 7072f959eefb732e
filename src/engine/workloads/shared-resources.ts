/**
 * The graph's shared resources, reconciled before its workloads on both workload providers
 * (`dgd_shared_resources_reconciler.go`): cluster-wide planner/EPP RBAC, the claims of the v1alpha1
 * top-level PVCs of a converted graph, discovery RBAC, the GPU
 * memory service ResourceClaimTemplates, the checkpoint storage PVC (`checkpoint.storage.pvc.create`),
 * automatic checkpoint captures, EPP
 * ConfigMap/InferencePool/DestinationRule, and the wait-for-leader ConfigMap of multinode graphs.
 */
import { renderDiscoveryRbac } from './discovery-rbac';
import { renderEppResources } from './epp-resources';
import { renderLegacyPvcs } from './legacy-pvcs';
import { renderClusterWideRbac } from './planner-epp-rbac';
import { renderWaitLeaderConfigMap } from './wait-leader-config-map';
import { OperatorSettings } from '../../model/operator-settings';
import { DgdJson } from '../../model/v1beta1';
import { ComponentCheckpoint } from '../experimental/checkpoint';
import { graphCheckpointStoragePvc } from '../experimental/checkpoint/storage';
import { renderGmsResourceClaimTemplates } from '../experimental/resource-claim-templates';
import { ClusterObjects } from '../multinode/dra-objects';

/** The shared resources of an admitted graph, in the operator's order (`cluster`: the input's cluster objects). */
export function renderSharedGraphResources(
  dgd: DgdJson, settings: OperatorSettings, checkpoints: readonly ComponentCheckpoint[], cluster?: ClusterObjects,
): unknown[] {
  const out: unknown[] = [
    ...renderClusterWideRbac(dgd, settings),
    ...renderLegacyPvcs(dgd),
    ...renderDiscoveryRbac(dgd, settings),
    ...renderGmsResourceClaimTemplates(dgd),
    ...graphCheckpointStoragePvc(dgd, settings, cluster),
    ...checkpoints.flatMap(c => c.objects),
    ...renderEppResources(dgd, settings),
  ];
  const waitLeader = renderWaitLeaderConfigMap(dgd);
  if (waitLeader) out.push(waitLeader);
  return out;
}
