/**
 * Every object the operator creates for a new graph on the Grove workload provider: the graph's
 * shared resources, the PodCliqueSet, the Services and frontend routes next to it, and scaling
 * adapters.
 */
import { groveComponents } from './component-view';
import { renderPodCliqueSet } from './pod-cliqueset';
import { renderGroveStableResources } from './stable-resources';
import { OperatorSettings } from '../../model/operator-settings';
import { DgdJson } from '../../model/v1beta1';
import { withCreateBookkeeping } from '../bookkeeping';
import { ComponentCheckpoint } from '../experimental/checkpoint';
import { graphWorkerHash } from '../graph/hashed-worker-dcds';
import { ClusterObjects } from '../multinode/dra-objects';
import { renderScalingAdapters } from '../workloads/scaling-adapter';
import { renderSharedGraphResources } from '../workloads/shared-resources';

/**
 * The objects of an admitted graph that takes the Grove provider, in the order the operator creates
 * them; `checkpoints` are its resolved checkpoints (capture objects, replica gate, restore annotations);
 * `cluster` holds the cluster objects given with the input (the DRA objects behind GPU claims).
 */
export function renderGroveGraphWorkloads(
  dgd: DgdJson, settings: OperatorSettings, checkpoints: readonly ComponentCheckpoint[] = [], cluster?: ClusterObjects,
): unknown[] {
  const out = renderSharedGraphResources(dgd, settings, checkpoints, cluster);
  const workerHash = graphWorkerHash(dgd);
  const components = groveComponents(dgd, settings, workerHash, cluster);
  const podCliqueSet = renderPodCliqueSet(dgd, components, settings, checkpoints) as { metadata: { annotations?: Record<string, string> } };
  out.push(withCreateBookkeeping(podCliqueSet));
  out.push(...renderGroveStableResources(dgd, settings, { workerHash }));
  out.push(...renderScalingAdapters(dgd, checkpoints));
  return out;
}
