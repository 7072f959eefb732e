/**
 * Service discovery: which backend a graph or component registers with, decided by the
 * `nvidia.com/dynamo-discovery-backend` annotation when present, else the operator's
 * `discovery.backend`.
 */
import { OperatorSettings } from '../model/operator-settings';
import { ANNOTATION_DISCOVERY_BACKEND, ANNOTATION_KUBE_DISCOVERY_MODE } from '../model/well-known';

export const DISCOVERY_BACKEND_KUBERNETES = 'kubernetes';
export const DISCOVERY_BACKEND_ETCD = 'etcd';
export const KUBE_DISCOVERY_MODE_POD = 'pod';
export const KUBE_DISCOVERY_MODE_CONTAINER = 'container';

export interface DiscoveryContext {
  /** The effective backend (annotation, else operator setting), verbatim. */
  readonly backend: string;
  /** Kubernetes discovery: effective backend is exactly `kubernetes` (ServiceAccount, Service, labels). */
  readonly kubernetes: boolean;
  /** `pod` (default) or the annotation's value, verbatim. */
  readonly mode: string;
}

/** The effective discovery backend for an object with these annotations (an annotation present but empty counts). */
export function discoveryBackend(settings: OperatorSettings, annotations: Readonly<Record<string, string>> | undefined): string {
  if (annotations && Object.prototype.hasOwnProperty.call(annotations, ANNOTATION_DISCOVERY_BACKEND)) {
    return annotations[ANNOTATION_DISCOVERY_BACKEND];
  }
  return settings.discoveryBackend;
}

export function kubeDiscoveryEnabled(settings: OperatorSettings, annotations: Readonly<Record<string, string>> | undefined): boolean {
  return discoveryBackend(settings, annotations) === DISCOVERY_BACKEND_KUBERNETES;
}

export function discoveryContext(settings: OperatorSettings, annotations: Readonly<Record<string, string>> | undefined): DiscoveryContext {
  const backend = discoveryBackend(settings, annotations);
  const mode = annotations && Object.prototype.hasOwnProperty.call(annotations, ANNOTATION_KUBE_DISCOVERY_MODE)
    ? annotations[ANNOTATION_KUBE_DISCOVERY_MODE]
    : KUBE_DISCOVERY_MODE_POD;
  return { backend, kubernetes: backend === DISCOVERY_BACKEND_KUBERNETES, mode };
}

/** `<parent>-k8s-service-discovery`: the ServiceAccount a graph creates for Kubernetes discovery (a standalone DCD refers to its own). */
export function discoveryServiceAccountName(parentName: string): string {
  return `${parentName}-k8s-service-discovery`;
}
