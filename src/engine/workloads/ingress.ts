/**
 * The Ingress of a graph's frontend, from the operator's `ingress.*` settings.
 */
import { DcdContext } from './dcd-context';
import { KubeObject, kubeObjectWithGoSpec, normalizeKubeResourceName } from './kube-object';
import { FRONTEND_HTTP_PORT } from './workload-keys';
import { dcdParentGraphName } from '../workload-metadata';

/** Host suffix of frontend hosts when `ingress.hostSuffix` is empty. */
export const DEFAULT_INGRESS_HOST_SUFFIX = 'local';

/**
 * The external host of a frontend DCD, `<graph>.<hostSuffix>`, when the operator derives an
 * ingress for it: a frontend that belongs to a graph (owner or graph label) while an ingress
 * class or a VirtualService gateway is configured. Undefined otherwise.
 */
export function frontendIngressHost(ctx: DcdContext): string | undefined {
  if (ctx.workloadType !== 'frontend') return undefined;
  const { ingressControllerClassName, virtualServiceGateway, ingressHostSuffix } = ctx.settings;
  if (!ingressControllerClassName && !virtualServiceGateway) return undefined;
  const graph = ctx.ownerGraphName ?? dcdParentGraphName(ctx.dcd);
  if (!graph) return undefined;
  return `${graph}.${ingressHostSuffix || DEFAULT_INGRESS_HOST_SUFFIX}`;
}

/** The frontend Ingress (when `ingress.controllerClassName` is set), or undefined. */
export function renderIngress(ctx: DcdContext): KubeObject | undefined {
  const host = frontendIngressHost(ctx);
  const className = ctx.settings.ingressControllerClassName;
  if (host === undefined || !className) return undefined;
  const name = normalizeKubeResourceName(ctx.name);
  const spec: Record<string, unknown> = {
    ingressClassName: className,
    rules: [{
      host,
      http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: FRONTEND_HTTP_PORT } } } }] },
    }],
  };
  const tlsSecret = ctx.settings.ingressControllerTlsSecretName;
  if (tlsSecret) spec.tls = [{ hosts: [host], secretName: tlsSecret }];
  return kubeObjectWithGoSpec('networking.k8s.io/v1', 'Ingress', { name, namespace: ctx.namespace }, spec, 'IngressSpec');
}
