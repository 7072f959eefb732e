/**
 * What the component path (Deployment, LeaderWorkerSet) cannot render of the experimental
 * features: the inter-pod GPU memory service exists only as Grove cliques of a graph (admission
 * forbids it without the Grove pathway, docs/design/render-experimental.md §1.4), so it is refused there rather
 * than rendered as a lone engine pod without its weight server.
 */
import { isInterPodGms } from './gms-spec';
import { RenderError } from '../../model/render-error';
import { ComponentSpecJson } from '../../model/v1beta1';

/**
 * Refuses components with `gpuMemoryService.mode: InterPod`. `base` is the path of the component
 * list (`spec.components`) or of the one component (`spec`, a standalone DCD).
 */
export function refuseInterPodGmsOnComponentPath(objectRef: string, components: readonly ComponentSpecJson[], base: string): void {
  components.forEach((component, i) => {
    if (!isInterPodGms(component)) return;
    const at = base === 'spec' ? 'spec' : `${base}[${i}]`;
    throw new RenderError(objectRef, `${at}.experimental.gpuMemoryService`,
      'mode "InterPod" (a GPU memory service weight-server pod and engine pods per node rank) requires the Grove pathway; '
      + 'the component path (Deployment or LeaderWorkerSet) cannot render it');
  });
}
