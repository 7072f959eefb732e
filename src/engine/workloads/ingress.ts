/**
 * The Ingress of a component: a graph's frontend gets one from the operator's `ingress.*`
 * settings; a service converted from v1alpha1 whose `ingress` block was kept in the preservation
 * annotation gets one from that block instead (`GetDCDPreservedAlphaIngressSpec` /
 * `GetDGDComponentPreservedIngressSpec` in ai-dynamo/dynamo's `deploy/operator/internal/dynamo/`).
 */
import { DcdContext } from './dcd-context';
import { KubeObject, kubeObjectWithGoSpec, normalizeKubeResourceName } from './kube-object';
import { FRONTEND_HTTP_PORT } from './workload-keys';
import { dcdAlphaView } from '../../import/v1alpha1/dcd-alpha-view';
import { OperatorSettings } from '../../model/operator-settings';
import { dcdParentGraphName } from '../workload-metadata';

/** Host suffix of frontend hosts when `ingress.hostSuffix` is empty. */
export const DEFAULT_INGRESS_HOST_SUFFIX = 'local';

/** How a component is exposed (the operator's `IngressSpec`, the host already put together). */
export interface FrontendRoute {
  readonly enabled: boolean;
  /** `<hostPrefix><host>.<hostSuffix>` (suffix `local` when there is none). */
  readonly host: string;
  readonly ingressClassName?: string;
  /** Present when the route has TLS (the secret name may be empty). */
  readonly tlsSecretName?: string;
  readonly useVirtualService: boolean;
  readonly virtualServiceGateway?: string;
}

function joinHost(host: string, prefix: string | undefined, suffix: string | undefined): string {
  return `${prefix ?? ''}${host}.${suffix ?? DEFAULT_INGRESS_HOST_SUFFIX}`;
}

/** The route of a graph's frontend from the operator settings alone (`GenerateDefaultIngressSpec`). */
export function defaultFrontendRoute(graphName: string, settings: OperatorSettings): FrontendRoute {
  const { ingressControllerClassName, virtualServiceGateway, ingressHostSuffix, ingressControllerTlsSecretName } = settings;
  return {
    enabled: !!ingressControllerClassName || !!virtualServiceGateway,
    host: joinHost(graphName, undefined, ingressHostSuffix || undefined),
    ...(ingressControllerClassName ? { ingressClassName: ingressControllerClassName } : {}),
    ...(ingressControllerTlsSecretName ? { tlsSecretName: ingressControllerTlsSecretName } : {}),
    useVirtualService: !!virtualServiceGateway,
    ...(virtualServiceGateway ? { virtualServiceGateway } : {}),
  };
}

/** The route of a v1alpha1 `ingress` block kept in a preservation annotation (a Go view of `IngressSpec`). */
export function preservedRoute(ingress: Record<string, any>): FrontendRoute {
  const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  const tls = ingress.tls;
  return {
    enabled: ingress.enabled === true,
    host: joinHost(str(ingress.host) ?? '', str(ingress.hostPrefix), str(ingress.hostSuffix)),
    ...(str(ingress.ingressControllerClassName) !== undefined ? { ingressClassName: ingress.ingressControllerClassName } : {}),
    ...(tls && typeof tls === 'object' ? { tlsSecretName: str(tls.secretName) ?? '' } : {}),
    useVirtualService: ingress.useVirtualService === true,
    ...(str(ingress.virtualServiceGateway) !== undefined ? { virtualServiceGateway: ingress.virtualServiceGateway } : {}),
  };
}

/**
 * The route of a DCD (`dcdIngressSpec` of the component controller): the ingress kept in its
 * `nvidia.com/dcd-spec` (any component type), else for a frontend that belongs to a graph (owner
 * or graph label) the route from the settings; undefined otherwise.
 */
export function dcdRoute(ctx: DcdContext): FrontendRoute | undefined {
  const kept = dcdAlphaView(ctx.dcd)?.ingress;
  if (kept) return preservedRoute(kept);
  if (ctx.workloadType !== 'frontend') return undefined;
  const graph = ctx.ownerGraphName ?? dcdParentGraphName(ctx.dcd);
  return graph ? defaultFrontendRoute(graph, ctx.settings) : undefined;
}

/** The Ingress of `route` (when it is enabled and names an ingress class), or undefined. */
export function renderIngress(ctx: DcdContext, route: FrontendRoute | undefined = dcdRoute(ctx)): KubeObject | undefined {
  if (!route?.enabled || route.ingressClassName === undefined) return undefined;
  const name = normalizeKubeResourceName(ctx.name);
  const spec: Record<string, unknown> = {
    ingressClassName: route.ingressClassName,
    rules: [{
      host: route.host,
      http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: FRONTEND_HTTP_PORT } } } }] },
    }],
  };
  if (route.tlsSecretName !== undefined) spec.tls = [{ hosts: [route.host], secretName: route.tlsSecretName }];
  return kubeObjectWithGoSpec('networking.k8s.io/v1', 'Ingress', { name, namespace: ctx.namespace }, spec, 'IngressSpec');
}
