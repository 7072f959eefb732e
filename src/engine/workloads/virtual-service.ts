/**
 * The Istio VirtualService of a graph's frontend (operator setting `ingress.virtualServiceGateway`),
 * or of a service converted from v1alpha1 whose kept `ingress` block asks for one.
 * The operator writes it with the `networking.istio.io/v1beta1` client; its spec is the Istio
 * protobuf message in protobuf-JSON form.
 */
import { DcdContext } from './dcd-context';
import { dcdRoute, FrontendRoute } from './ingress';
import { kubeObject, KubeObject, normalizeKubeResourceName } from './kube-object';
import { FRONTEND_HTTP_PORT } from './workload-keys';
import { withCreateBookkeeping } from '../bookkeeping';

export const ISTIO_NETWORKING_API_VERSION = 'networking.istio.io/v1beta1';

/**
 * The VirtualService of `route`, when a gateway is configured in the operator settings and the
 * route is enabled for a VirtualService on a gateway; undefined otherwise.
 */
export function renderVirtualService(ctx: DcdContext, route: FrontendRoute | undefined = dcdRoute(ctx)): KubeObject | undefined {
  if (!ctx.settings.virtualServiceGateway) return undefined;
  if (!route?.enabled || !route.useVirtualService || route.virtualServiceGateway === undefined) return undefined;
  const host = route.host;
  const gateway = route.virtualServiceGateway;
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
