/** The Dynamo operator installation a graph is rendered for. */
import * as fs from 'fs';
import { parseOperatorConfiguration } from '../engine/operator-config';

/**
 * A `kubernetes.io/dockerconfigjson` Secret in the workload namespace. The operator discovers such
 * Secrets in the cluster and adds those holding credentials for a container's registry to the pod's
 * `imagePullSecrets`; a synthesis cannot look into the cluster, so they are declared here.
 */
export interface RegistrySecret {
  /** Name of the Secret. */
  readonly name: string;
  /** Registry hosts its `.dockerconfigjson` `auths` hold credentials for, for example `nvcr.io`. */
  readonly registries: string[];
}

/**
 * Settings of the Dynamo operator that change what it renders or admits. Each prop mirrors one field
 * of the operator's configuration file (`OperatorConfiguration`, kept by the Helm chart in the
 * ConfigMap `<release>-dynamo-operator-config`); the defaults are those of the documented install
 * (`helm install dynamo-platform ...`, cluster-wide, chart defaults).
 */
export interface OperatorOptions {
  /**
   * Operator version to render for; stamped on new graphs as `nvidia.com/dynamo-operator-origin-version`
   * and deciding version-dependent admission rules. Not part of `OperatorConfiguration`
   * (`operatorVersion` in a configuration file read by `OperatorConfiguration.fromFile`).
   * @default "1.4.0"
   */
  readonly version?: string;
  /**
   * Whether Grove is installed and enabled: `orchestrators.grove.enabled` (unset there means
   * auto-detection of the `grove.io` API). New graphs then take the Grove provider unless annotated
   * `nvidia.com/enable-grove: "false"`. Helm: `global.grove.enabled` or `global.grove.install`.
   * @default false
   */
  readonly groveAvailable?: boolean;
  /**
   * Whether LeaderWorkerSet (with Volcano) is available, needed for multinode components without
   * Grove: `orchestrators.lws.enabled` (unset there means auto-detection of both APIs).
   * @default true
   */
  readonly lwsAvailable?: boolean;
  /**
   * Whether the KAI scheduler integration is on: `orchestrators.kaiScheduler.enabled` (unset there
   * means auto-detection of the `scheduling.run.ai` API). Grove cliques then run on
   * `kai-scheduler` in the queue named by the graph's `nvidia.com/kai-scheduler-queue` annotation
   * (`dynamo` by default), which must exist. Helm: `global.kai-scheduler.enabled` or `install`.
   * @default false
   */
  readonly kaiSchedulerAvailable?: boolean;
  /**
   * Whether the Volcano scheduler integration is on: `orchestrators.volcanoScheduler.enabled`.
   * Grove cliques then run on `volcano`; the graph's `nvidia.com/volcano-queue` annotation names
   * the queue. Cannot be combined with the KAI scheduler on Grove.
   * @default false
   */
  readonly volcanoSchedulerAvailable?: boolean;
  /**
   * How long Grove waits before tearing down a gang that fell below its minimum:
   * `orchestrators.grove.terminationDelay`, a Go duration such as `15m` or `1h30m`; `0s` leaves it
   * to Grove.
   * @default "15m"
   */
  readonly groveTerminationDelay?: string;
  /**
   * Service discovery backend, `kubernetes` or `etcd`: `discovery.backend`. Helm: `discoveryBackend`.
   * @default "kubernetes"
   */
  readonly discoveryBackend?: string;
  /**
   * The only namespace a namespace-restricted operator manages: `namespace.restricted`. Empty means
   * cluster-wide, where the operator creates the planner and EPP service accounts and role bindings
   * in every graph namespace. Helm: `namespaceRestriction.enabled` / `targetNamespace`.
   * @default "" (cluster-wide)
   */
  readonly restrictedNamespace?: string;
  /**
   * ClusterRole bound to `planner-serviceaccount` in cluster-wide mode: `rbac.plannerClusterRoleName`.
   * Helm: `<release fullname>-planner`.
   * @default "dynamo-platform-dynamo-operator-planner"
   */
  readonly plannerClusterRoleName?: string;
  /**
   * ClusterRole bound to `epp-serviceaccount` in cluster-wide mode: `rbac.eppClusterRoleName`.
   * Helm: `<release fullname>-epp`.
   * @default "dynamo-platform-dynamo-operator-epp"
   */
  readonly eppClusterRoleName?: string;
  /**
   * NATS server address given to every component as `NATS_SERVER`: `infrastructure.natsAddress`.
   * Helm: `natsAddr`, or the bundled NATS's address when `global.nats.install` is on.
   * @default "" (not injected)
   */
  readonly natsAddress?: string;
  /**
   * etcd address given to every component as `ETCD_ENDPOINTS`: `infrastructure.etcdAddress`.
   * Helm: `etcdAddr`, or the bundled etcd's address when `global.etcd.install` is on.
   * @default "" (not injected)
   */
  readonly etcdAddress?: string;
  /**
   * Model Express server URL given to every component as `MODEL_EXPRESS_URL`:
   * `infrastructure.modelExpressURL`. Helm: `modelExpressURL`.
   * @default "" (not injected)
   */
  readonly modelExpressUrl?: string;
  /**
   * Prometheus endpoint given to every component as `PROMETHEUS_ENDPOINT`:
   * `infrastructure.prometheusEndpoint`. Helm: `dynamo.metrics.prometheusEndpoint`.
   * @default "" (not injected)
   */
  readonly prometheusEndpoint?: string;
  /**
   * Ingress class of the Ingress every frontend gets: `ingress.controllerClassName`.
   * Helm: `dynamo.ingress.className` when `dynamo.ingress.enabled`.
   * @default "" (no Ingress)
   */
  readonly ingressControllerClassName?: string;
  /**
   * TLS Secret of frontend Ingresses: `ingress.controllerTLSSecretName`.
   * Helm: `dynamo.ingress.tlsSecretName` when `dynamo.ingress.enabled`.
   * @default "" (no TLS)
   */
  readonly ingressControllerTlsSecretName?: string;
  /**
   * Host suffix of frontend Ingresses and VirtualServices (`<graph>.<suffix>`): `ingress.hostSuffix`.
   * Helm: `dynamo.ingressHostSuffix`.
   * @default "" (the operator's fallback applies)
   */
  readonly ingressHostSuffix?: string;
  /**
   * Istio gateway of the VirtualService every frontend gets: `ingress.virtualServiceGateway`.
   * Helm: `dynamo.istio.gateway` when `dynamo.istio.enabled`.
   * @default "" (no VirtualService)
   */
  readonly virtualServiceGateway?: string;
  /**
   * Service mesh whose resources the operator generates for EPP components (`istio` or empty):
   * `serviceMesh.provider`. Helm: `dynamo.serviceMesh.provider` when `dynamo.serviceMesh.enabled`.
   * @default "" (none)
   */
  readonly serviceMeshProvider?: string;
  /**
   * TLS mode of the EPP DestinationRule: `serviceMesh.istio.tlsMode`.
   * Helm: `dynamo.serviceMesh.istio.tlsMode`.
   * @default "SIMPLE"
   */
  readonly istioTlsMode?: string;
  /**
   * Whether the EPP DestinationRule skips certificate verification:
   * `serviceMesh.istio.insecureSkipVerify`. Helm: `dynamo.serviceMesh.istio.insecureSkipVerify`.
   * @default true
   */
  readonly istioInsecureSkipVerify?: boolean;
  /**
   * Client certificate path of the EPP DestinationRule (tlsMode `MUTUAL`):
   * `serviceMesh.istio.clientCertificate`. Helm: `dynamo.serviceMesh.istio.clientCertificate`.
   * @default "" (none)
   */
  readonly istioClientCertificate?: string;
  /**
   * Client private key path of the EPP DestinationRule (tlsMode `MUTUAL`):
   * `serviceMesh.istio.privateKey`. Helm: `dynamo.serviceMesh.istio.privateKey`.
   * @default "" (none)
   */
  readonly istioPrivateKey?: string;
  /**
   * CA certificates path of the EPP DestinationRule (tlsMode `MUTUAL`):
   * `serviceMesh.istio.caCertificates`. Helm: `dynamo.serviceMesh.istio.caCertificates`.
   * @default "" (none)
   */
  readonly istioCaCertificates?: string;
  /**
   * SSH Secret of TensorRT-LLM multinode components: `mpi.sshSecretName`.
   * Helm: `dynamo.mpiRun.secretName`.
   * @default "mpi-run-ssh-secret"
   */
  readonly mpiSshSecretName?: string;
  /**
   * Whether checkpoint/restore is enabled: `checkpoint.enabled`. Helm: `checkpoint.enabled`.
   * @default false
   */
  readonly checkpointEnabled?: boolean;
  /**
   * The docker registry Secrets the operator would find in the workload namespace. Not part of
   * `OperatorConfiguration` (`registrySecrets` in a configuration file read by
   * `OperatorConfiguration.fromFile`).
   * @default - none
   */
  readonly registrySecrets?: RegistrySecret[];
}

/** Reads operator options from the operator's configuration file. */
export class OperatorConfiguration {
  /**
   * Options from an operator configuration file (YAML or JSON): the `OperatorConfiguration` document
   * or the Helm chart's ConfigMap holding it under `config.yaml`, plus this library's own top-level
   * fields `operatorVersion` and `registrySecrets: [{ name, registries }]`. Fields that do not change
   * rendering are ignored; absent fields keep their defaults. Throws on a field of the wrong type,
   * naming the file, the field path and the value.
   */
  public static fromFile(path: string): OperatorOptions {
    let text: string;
    try {
      text = fs.readFileSync(path, 'utf8');
    } catch (e) {
      throw new Error(`${path}: cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
    return OperatorConfiguration.fromYaml(text, path);
  }

  /**
   * Options from the text of an operator configuration document (see `fromFile`).
   * @param text YAML or JSON text
   * @param source name of the text in error messages
   */
  public static fromYaml(text: string, source: string = 'operator configuration'): OperatorOptions {
    const settings = parseOperatorConfiguration(text, source);
    const { registrySecrets, ...rest } = settings;
    const options: OperatorOptions = { ...rest };
    if (registrySecrets === undefined) return options;
    return { ...options, registrySecrets: registrySecrets.map(s => ({ name: s.name, registries: [...s.registries] })) };
  }

  private constructor() {}
}
