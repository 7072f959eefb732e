/**
 * DynamoGraphDeploymentScalingAdapters: one per component with `scalingAdapter` set (even `{}`),
 * the `scale` target that autoscalers and the planner resize; its replicas are seeded from the
 * component. Created with create-or-patch, so they carry no bookkeeping annotations.
 *
 * The graph controller reconciles them only once no component waits for its checkpoint: while one
 * has `startupPolicy: WaitForCheckpoint` and no Ready checkpoint, the graph is Pending
 * (`WaitingForCheckpoint`) and it creates no adapter for any component (`dgd_component_program.go`,
 * `dgd_grove_program.go` of operators 1.4.0 and 1.5.0; taken as unchanged for newer ones). A new
 * graph's automatic checkpoint is never Ready offline, so such a graph renders without adapters.
 */
import { kubeObject, KubeObject } from './kube-object';
import { API_VERSION, DgdJson } from '../../model/v1beta1';
import { LABEL_COMPONENT, LABEL_GRAPH_NAME } from '../../model/well-known';
import { ComponentCheckpoint, gatedByCheckpoint } from '../experimental/checkpoint';

export const SCALING_ADAPTER_KIND = 'DynamoGraphDeploymentScalingAdapter';

/** `<graph>-<component lower-cased>`. */
export function scalingAdapterName(graphName: string, componentName: string): string {
  return `${graphName}-${componentName.toLowerCase()}`;
}

/** The scaling adapters of a graph, in component order; none while a component waits for its checkpoint (`checkpoints`). */
export function renderScalingAdapters(dgd: DgdJson, checkpoints: readonly ComponentCheckpoint[] = []): KubeObject[] {
  if (checkpoints.some(gatedByCheckpoint)) return [];
  const graphName = dgd.metadata.name ?? '';
  const namespace = dgd.metadata.namespace ?? '';
  return (dgd.spec.components ?? [])
    .filter(c => c.scalingAdapter !== undefined && c.scalingAdapter !== null)
    .map(c => {
      const componentName = c.name ?? '';
      return kubeObject(API_VERSION, SCALING_ADAPTER_KIND, {
        name: scalingAdapterName(graphName, componentName),
        namespace,
        labels: { [LABEL_GRAPH_NAME]: graphName, [LABEL_COMPONENT]: componentName },
      }, {
        spec: { replicas: c.replicas ?? 1, dgdRef: { name: graphName, componentName } },
      });
    });
}
