/**
 * The Istio VirtualService of a graph's frontend (operator setting `ingress.virtualServiceGateway`).
 * The operator writes it with the `networking.istio.io/v1beta1` client; its spec is the Istio
 * protobuf message in protobuf-JSON form.
 */
import { DcdContext } from './dcd-context';
import { frontendIngressHost } from './ingress';
import { kubeObject, KubeObject, normalizeKubeResourceName } from './kube-object';
import { FRONTEND_HTTP_PORT } from './workload-keys';
import { withCreateBookkeeping } from '../bookkeeping';

export const ISTIO_NETWORKING_API_VERSION = 'networking.istio.io/v1beta1';

/** The frontend VirtualService (when a gateway is configured), or undefined. */
export function renderVirtualService(ctx: DcdContext): KubeObject | undefined {
  const host = frontendIngressHost(ctx);
  const gateway = ctx.settings.virtualServiceGateway;
  if (host === undefined || !gateway) return undefined;
  const name = normalizeKubeResourceName(ctx.name);
  const spec = {
    hosts: [host],
    gateways: [gateway],
    http: [{
      match: [{ uri: { prefix: '/' } }],
      route: [{ destination: { host: name, port: { number: FRONTEND_HTTP_PORT } } }],
    }],
  };
  return withCreateBookkeeping(kubeObject(ISTIO_NETWORKING_API_VERSION, 'VirtualService', { name, namespace: ctx.namespace }, { spec }));
}
