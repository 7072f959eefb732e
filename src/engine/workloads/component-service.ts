/**
 * The component Service of a DCD: one port by component type, selecting the component's pods by
 * type, Dynamo namespace and component name (so every worker generation is selected).
 */
import { DcdContext } from './dcd-context';
import { KubeObject, kubeObjectWithGoSpec, normalizeKubeResourceName } from './kube-object';
import { FRONTEND_HTTP_PORT, SYSTEM_PORT } from './workload-keys';
import { EPP_GRPC_PORT, EPP_GRPC_PORT_NAME } from '../../model/epp-names';
import { shallowCopy } from '../../model/json-copy';
import { JsonObject } from '../../model/v1beta1';
import {
  LABEL_COMPONENT, LABEL_COMPONENT_TYPE, LABEL_DISCOVERY_BACKEND, LABEL_DISCOVERY_ENABLED, LABEL_DYNAMO_NAMESPACE,
} from '../../model/well-known';
import { DISCOVERY_BACKEND_KUBERNETES } from '../discovery';
import { isMultinode, LABEL_ROLE } from '../multinode/roles';
import { workloadAnnotations, workloadLabels } from '../workload-metadata';

/** The one port of a component Service, by workload type. */
export function componentServicePort(workloadType: string): JsonObject {
  switch (workloadType) {
    case 'frontend':
      return { name: 'http', protocol: 'TCP', port: FRONTEND_HTTP_PORT, targetPort: 'http' };
    case 'epp':
      return { name: EPP_GRPC_PORT_NAME, protocol: 'TCP', appProtocol: 'http2', port: EPP_GRPC_PORT, targetPort: EPP_GRPC_PORT };
    default:
      return { name: 'system', protocol: 'TCP', port: SYSTEM_PORT, targetPort: 'system' };
  }
}

/** Whether the DCD gets a component Service: Kubernetes discovery is on for it, or it is a frontend. */
export function hasComponentService(ctx: DcdContext): boolean {
  return ctx.discovery.kubernetes || ctx.workloadType === 'frontend';
}

/** The component Service of a DCD, or undefined when the operator creates none. */
export function renderComponentService(ctx: DcdContext): KubeObject | undefined {
  if (!hasComponentService(ctx)) return undefined;
  // a copy made by assignment: keys are added below (see shallowCopy)
  const labels = shallowCopy(workloadLabels(ctx.dcd));
  if (ctx.discovery.kubernetes) {
    labels[LABEL_DISCOVERY_BACKEND] = DISCOVERY_BACKEND_KUBERNETES;
    labels[LABEL_DISCOVERY_ENABLED] = 'true';
  }
  const selector: Record<string, string> = {
    [LABEL_COMPONENT_TYPE]: ctx.workloadType,
    [LABEL_DYNAMO_NAMESPACE]: ctx.dynamoNamespace,
    [LABEL_COMPONENT]: ctx.componentName,
  };
  // a multinode component is served by its leaders (docs/design/render-multinode.md §3.5)
  if (isMultinode(ctx.dcd.spec ?? {})) selector[LABEL_ROLE] = 'leader';
  const spec = { ports: [componentServicePort(ctx.workloadType)], selector };
  return kubeObjectWithGoSpec('v1', 'Service',
    { name: normalizeKubeResourceName(ctx.name), namespace: ctx.namespace, labels, annotations: workloadAnnotations(ctx.dcd) },
    spec, 'ServiceSpec');
}
