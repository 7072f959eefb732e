/**
 * The Dynamo operator settings that change what the operator renders or admits.
 *
 * Plain data, resolved once per render. Each setting names the field of the operator's
 * configuration file (`OperatorConfiguration`) it mirrors; the defaults are what a default install
 * of the platform chart (`helm install dynamo-platform ... --namespace dynamo-system`, chart values
 * unchanged) writes there, or, for a field it leaves out, the operator's own fallback.
 */

import { operatorVersionProblem } from './operator-version';
import { RegistrySecret } from './registry-secret';
import { RenderError } from './render-error';

export interface OperatorSettings {
  /** Operator build version; stamped on new graphs as `nvidia.com/dynamo-operator-origin-version`. */
  readonly version: string;
  /** Whether the Grove API is available and enabled (`orchestrators.grove.enabled` / detection). */
  readonly groveAvailable: boolean;
  /** Whether LeaderWorkerSet (and Volcano) are available (`orchestrators.lws.enabled` / detection). */
  readonly lwsAvailable: boolean;
  /**
   * Whether DRA (`resource.k8s.io/v1`) is available to the operator (`dra.enabled` / detection). Without
   * it the operator fails every reconcile of a graph with a GPU memory service or inter-pod failover.
   */
  readonly draAvailable: boolean;
  /**
   * Whether the KAI scheduler integration is on (`orchestrators.kaiScheduler.enabled` / detection):
   * Grove cliques then run on `kai-scheduler` in the graph's queue.
   */
  readonly kaiSchedulerAvailable: boolean;
  /** Whether the Volcano scheduler integration is on (`orchestrators.volcanoScheduler.enabled`): Grove cliques run on `volcano`. */
  readonly volcanoSchedulerAvailable: boolean;
  /**
   * `orchestrators.grove.terminationDelay` as a Go duration (e.g. `4h`, written back as `4h0m0s`);
   * PodCliqueSets get it as `spec.template.terminationDelay` when it is above zero. The platform
   * chart writes its `dynamo.groveTerminationDelay` (`4h`); the operator's fallback is `15m`.
   */
  readonly groveTerminationDelay: string;
  /** `discovery.backend`: `kubernetes` (default) or `etcd`. */
  readonly discoveryBackend: string;
  /** `namespace.restricted`: the only namespace the operator manages; empty = cluster-wide. */
  readonly restrictedNamespace: string;
  /** `rbac.plannerClusterRoleName`: ClusterRole bound to `planner-serviceaccount` (cluster-wide mode). */
  readonly plannerClusterRoleName: string;
  /** `rbac.eppClusterRoleName`: ClusterRole bound to `epp-serviceaccount` (cluster-wide mode). */
  readonly eppClusterRoleName: string;
  /** `infrastructure.natsAddress` → `NATS_SERVER`. */
  readonly natsAddress: string;
  /** `infrastructure.etcdAddress` → `ETCD_ENDPOINTS`. */
  readonly etcdAddress: string;
  /** `infrastructure.modelExpressURL` → `MODEL_EXPRESS_URL`. */
  readonly modelExpressUrl: string;
  /** `infrastructure.prometheusEndpoint` → `PROMETHEUS_ENDPOINT`. */
  readonly prometheusEndpoint: string;
  /** `ingress.controllerClassName`: frontends get an Ingress of this class. */
  readonly ingressControllerClassName: string;
  /** `ingress.controllerTLSSecretName`: TLS secret of frontend Ingresses. */
  readonly ingressControllerTlsSecretName: string;
  /** `ingress.hostSuffix`: frontend host is `<graph>.<suffix>` (`local` when empty). */
  readonly ingressHostSuffix: string;
  /** `ingress.virtualServiceGateway`: frontends get an Istio VirtualService on this gateway. */
  readonly virtualServiceGateway: string;
  /** `serviceMesh.provider`: `istio` or empty. */
  readonly serviceMeshProvider: string;
  /** `serviceMesh.istio.tlsMode` of the EPP DestinationRule (`SIMPLE` when empty). */
  readonly istioTlsMode: string;
  /** `serviceMesh.istio.insecureSkipVerify` of the EPP DestinationRule. */
  readonly istioInsecureSkipVerify: boolean;
  /** `serviceMesh.istio.clientCertificate` (MUTUAL mode). */
  readonly istioClientCertificate: string;
  /** `serviceMesh.istio.privateKey` (MUTUAL mode). */
  readonly istioPrivateKey: string;
  /** `serviceMesh.istio.caCertificates` (MUTUAL mode). */
  readonly istioCaCertificates: string;
  /**
   * `mpi.sshSecretName`: the MPI SSH key Secret. For every graph with a multinode component (any
   * backend) the operator copies it from `mpiSshSecretNamespace` into the graph's namespace;
   * TensorRT-LLM multinode pods mount it.
   */
  readonly mpiSshSecretName: string;
  /** `mpi.sshSecretNamespace`: where the operator keeps (and, when missing, generates) that Secret. */
  readonly mpiSshSecretNamespace: string;
  /** `checkpoint.enabled`. */
  readonly checkpointEnabled: boolean;
  /**
   * `checkpoint.storage.type`: `pvc` (or empty, read as `pvc` when a PVC field is set) for checkpoint
   * storage in a namespace-local PersistentVolumeClaim; `s3` and `oci` without PVC fields are ignored
   * (the operator then discovers the snapshot agent's storage). Any other value fails the reconcile of a
   * graph with a checkpoint.
   */
  readonly checkpointStorageType: string;
  /** `checkpoint.storage.pvc.pvcName`: the checkpoint PVC in the workload namespace. */
  readonly checkpointStoragePvcName: string;
  /** `checkpoint.storage.pvc.basePath`: an absolute path, where checkpoint and restore pods mount the PVC. */
  readonly checkpointStorageBasePath: string;
  /**
   * `checkpoint.storage.pvc.create`: the operator creates the PVC in a namespace that lacks it (when
   * false, a graph with a checkpoint fails to reconcile until the PVC exists).
   */
  readonly checkpointStoragePvcCreate: boolean;
  /** `checkpoint.storage.pvc.size`: the storage request of a created PVC (a quantity above zero). */
  readonly checkpointStoragePvcSize: string;
  /** `checkpoint.storage.pvc.storageClassName` of a created PVC (empty: the cluster's default class). */
  readonly checkpointStorageClassName: string;
  /** `checkpoint.storage.pvc.accessMode` of a created PVC: `ReadWriteMany` (when empty) or `ReadWriteOnce`. */
  readonly checkpointStorageAccessMode: string;
  /**
   * The docker registry secrets in the workload namespace. The operator discovers them in the
   * cluster and adds those matching a container's registry to `imagePullSecrets`.
   */
  readonly registrySecrets: readonly RegistrySecret[];
}

/**
 * The operator version this library renders for unless told otherwise: 1.5.0, the main branch of
 * 2026-08-21 the operator goldens were recorded at (see `operator-version.ts`).
 */
export const DEFAULT_OPERATOR_VERSION = '1.5.0';

/**
 * The settings of a default platform install (release `dynamo-platform`, namespace `dynamo-system`,
 * chart 1.4.0 or 1.5.0 with its values unchanged): Grove, KAI and Volcano written as off, no NATS or
 * etcd installed (so no addresses), the chart's Grove termination delay `4h`, cluster-wide with the
 * release's planner/EPP ClusterRoles, the chart's MPI SSH secret name in the release namespace. `lwsAvailable` and
 * `draAvailable` are not written by the chart (the operator detects LeaderWorkerSet, Volcano and `resource.k8s.io/v1`);
 * they are assumed available.
 */
export const DEFAULT_OPERATOR_SETTINGS: OperatorSettings = {
  version: DEFAULT_OPERATOR_VERSION,
  groveAvailable: false,
  lwsAvailable: true,
  draAvailable: true,
  kaiSchedulerAvailable: false,
  volcanoSchedulerAvailable: false,
  groveTerminationDelay: '4h',
  discoveryBackend: 'kubernetes',
  restrictedNamespace: '',
  plannerClusterRoleName: 'dynamo-platform-dynamo-operator-planner',
  eppClusterRoleName: 'dynamo-platform-dynamo-operator-epp',
  natsAddress: '',
  etcdAddress: '',
  modelExpressUrl: '',
  prometheusEndpoint: '',
  ingressControllerClassName: '',
  ingressControllerTlsSecretName: '',
  ingressHostSuffix: '',
  virtualServiceGateway: '',
  serviceMeshProvider: '',
  istioTlsMode: 'SIMPLE',
  istioInsecureSkipVerify: true,
  istioClientCertificate: '',
  istioPrivateKey: '',
  istioCaCertificates: '',
  mpiSshSecretName: 'mpi-run-ssh-secret',
  mpiSshSecretNamespace: 'dynamo-system',
  checkpointEnabled: false,
  checkpointStorageType: '',
  checkpointStoragePvcName: '',
  checkpointStorageBasePath: '',
  checkpointStoragePvcCreate: false,
  checkpointStoragePvcSize: '',
  checkpointStorageClassName: '',
  checkpointStorageAccessMode: '',
  registrySecrets: [],
};

/**
 * The operator settings of `partial`: each field given (not undefined) over the settings of a
 * default platform install. The one resolution of operator settings: the constructs, the cdk8s
 * plugin, the command line and the pipeline all resolve theirs here.
 */
export function resolveOperatorSettings(partial?: Partial<OperatorSettings>): OperatorSettings {
  const out: { [k: string]: any } = { ...DEFAULT_OPERATOR_SETTINGS };
  for (const [key, value] of Object.entries(partial ?? {})) {
    if (value !== undefined) out[key] = value;
  }
  return out as OperatorSettings;
}

/** Whether the operator runs cluster-wide (and so creates planner/EPP accounts per namespace). */
export function isClusterWide(settings: OperatorSettings): boolean {
  return settings.restrictedNamespace === '';
}

/** Whether the `istio` gate is on (mesh provider istio; the DestinationRule API is assumed present). */
export function istioEnabled(settings: OperatorSettings): boolean {
  return settings.serviceMeshProvider === 'istio';
}

/** The resolved settings; an operator version this library does not render for is a RenderError. */
export function supportedOperatorSettings(partial: Partial<OperatorSettings> | undefined): OperatorSettings {
  const settings = resolveOperatorSettings(partial);
  const problem = operatorVersionProblem(settings.version);
  if (problem !== undefined) throw new RenderError('operator settings', 'version', problem);
  return settings;
}
