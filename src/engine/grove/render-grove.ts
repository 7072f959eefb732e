/**
 * Every object the operator creates for a new graph on the Grove workload provider: the graph's
 * shared resources, the PodCliqueSet, the Services and frontend routes next to it, and scaling
 * adapters.
 */
import { groveComponents } from './component-view';
import { renderPodCliqueSet } from './pod-cliqueset';
import { renderGroveStableResources } from './stable-resources';
import { DgdJson } from '../../model/v1beta1';
import { withCreateBookkeeping } from '../bookkeeping';
import { ComponentCheckpoint } from '../experimental/checkpoint';
import { renderGmsResourceClaimTemplates } from '../experimental/resource-claim-templates';
import { graphWorkerHash } from '../graph/worker-hash';
import { OperatorSettings } from '../operator-settings';
import { renderDiscoveryRbac } from '../workloads/discovery-rbac';
import { renderEppResources } from '../workloads/epp-resources';
import { renderClusterWideRbac } from '../workloads/planner-epp-rbac';
import { renderScalingAdapters } from '../workloads/scaling-adapter';
import { renderWaitLeaderConfigMap } from '../workloads/wait-leader-config-map';

/**
 * The objects of an admitted graph that takes the Grove provider, in the order the operator creates
 * them; `checkpoints` are its resolved checkpoints (capture objects, replica gate, restore annotations).
 */
export function renderGroveGraphWorkloads(
  dgd: DgdJson, settings: OperatorSettings, checkpoints: readonly ComponentCheckpoint[] = [],
): unknown[] {
  const out: unknown[] = [
    ...renderClusterWideRbac(dgd, settings),
    ...renderDiscoveryRbac(dgd, settings),
    ...renderGmsResourceClaimTemplates(dgd),
    ...checkpoints.flatMap(c => c.objects),
    ...renderEppResources(dgd, settings),
  ];
  const waitLeader = renderWaitLeaderConfigMap(dgd);
  if (waitLeader) out.push(waitLeader);
  const workerHash = graphWorkerHash(dgd);
  const components = groveComponents(dgd, settings, workerHash);
  const podCliqueSet = renderPodCliqueSet(dgd, components, settings, checkpoints) as { metadata: { annotations?: Record<string, string> } };
  out.push(withCreateBookkeeping(podCliqueSet));
  out.push(...renderGroveStableResources(dgd, settings, { workerHash }));
  out.push(...renderScalingAdapters(dgd));
  return out;
}
