/** The Dynamo operator installation a graph is rendered for. */
import * as fs from 'fs';
import { deriveOperatorSettingsFromHelmValues, parseHelmValues } from '../import/helm-values';
import { parseOperatorConfiguration } from '../import/operator-config';
import { OperatorSettings } from '../model/operator-settings';
import { RegistrySecret } from '../model/registry-secret';

/**
 * Settings of the Dynamo operator that change what it renders or admits. Each prop mirrors one field
 * of the operator's configuration file (`OperatorConfiguration`, kept by the Helm chart in the
 * ConfigMap `<release>-dynamo-operator-config`); the defaults are what a default install of the
 * platform chart writes there (`helm install dynamo-platform ... --namespace dynamo-system`, chart
 * values unchanged: cluster-wide, no bundled NATS or etcd, Grove, KAI and Volcano off).
 */
export interface OperatorOptions {
  /**
   * Operator version to render for; stamped on new graphs as `nvidia.com/dynamo-operator-origin-version`
   * and deciding version-dependent rendering and admission rules: `1.4.x` renders the 1.4.0 release,
   * `1.5.x` the operator of August 2026 (charts 1.5.0), `1.6.0` and later adds behaviours known only
   * from newer upstream sources (unverified); versions before 1.4.0 are refused. Not part of
   * `OperatorConfiguration` (`operatorVersion` in a configuration file read by
   * `OperatorConfiguration.fromFile`).
   * @default "1.5.0"
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
   * Whether DRA (`resource.k8s.io/v1`, Kubernetes 1.34+) is available to the operator: `dra.enabled`
   * (unset there means auto-detection of the API). Without it the operator fails every reconcile of a
   * graph with a GPU memory service or inter-pod failover. Not a Helm value.
   * @default true
   */
  readonly draAvailable?: boolean;
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
   * `orchestrators.grove.terminationDelay`, a Go duration such as `15m` or `1h30m`. Helm:
   * `dynamo.groveTerminationDelay` (`4h` in the platform chart); the operator's own fallback, when
   * its configuration leaves the delay out or zero, is `15m`. A zero delay here leaves PodCliqueSets
   * without `terminationDelay`; a negative one is refused (the operator does not start with it).
   * @default "4h"
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
   * Helm: `natsAddr`, or, when `global.nats.install` is on (off by default),
   * `nats://<release>-nats.<release namespace>.svc.cluster.local:4222`.
   * @default "" (not injected)
   */
  readonly natsAddress?: string;
  /**
   * etcd address given to every component as `ETCD_ENDPOINTS`: `infrastructure.etcdAddress`.
   * Helm: `etcdAddr`, or, when `global.etcd.install` is on (off by default),
   * `<release>-etcd.<release namespace>.svc.cluster.local:2379`.
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
   * `serviceMesh.provider` (empty when `serviceMesh.enabled` is false). Helm:
   * `dynamo.serviceMesh.provider` unless `dynamo.serviceMesh.enabled` is false (the chart default).
   * @default "" (none)
   */
  readonly serviceMeshProvider?: string;
  /**
   * TLS mode of the EPP DestinationRule: `serviceMesh.istio.tlsMode`.
   * Helm: `dynamo.serviceMesh.istio.tlsMode`. With the Istio mesh on, a mode other than `DISABLE`,
   * `SIMPLE`, `ISTIO_MUTUAL` or `MUTUAL`, or `MUTUAL` without `istioClientCertificate` and
   * `istioPrivateKey`, is refused (the operator does not start with it).
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
   * The MPI SSH key Secret: `mpi.sshSecretName`. Helm: `dynamo.mpiRun.secretName`. The operator
   * copies it into the namespace of every graph with a multinode component (any backend);
   * TensorRT-LLM multinode pods mount it. An empty name is refused.
   * @default "mpi-run-ssh-secret"
   */
  readonly mpiSshSecretName?: string;
  /**
   * The namespace the operator keeps the MPI SSH key Secret in (and generates it in when missing):
   * `mpi.sshSecretNamespace`. Helm: the release namespace. No rendered object names it (the
   * `cdk8s-dynamo render` command says where the Secret is copied from); an empty namespace is refused.
   * @default "dynamo-system"
   */
  readonly mpiSshSecretNamespace?: string;
  /**
   * Whether checkpoint/restore is enabled: `checkpoint.enabled`. Helm: `checkpoint.enabled`.
   * @default false
   */
  readonly checkpointEnabled?: boolean;
  /**
   * `checkpoint.storage.type`: `pvc` for checkpoint storage in a PersistentVolumeClaim of the workload
   * namespace (an empty type with a PVC option set reads as `pvc`); empty (or `s3` / `oci` without PVC
   * options) leaves the operator to discover the snapshot agent's storage. Helm: `checkpoint.storage.type`.
   * @default ""
   */
  readonly checkpointStorageType?: string;
  /**
   * `checkpoint.storage.pvc.pvcName`: the checkpoint PVC of the workload namespace. Helm: the same path.
   * @default ""
   */
  readonly checkpointStoragePvcName?: string;
  /**
   * `checkpoint.storage.pvc.basePath`: the absolute path checkpoint and restore pods mount the PVC at.
   * Helm: the same path.
   * @default ""
   */
  readonly checkpointStorageBasePath?: string;
  /**
   * `checkpoint.storage.pvc.create`: the operator creates the PVC (rendered with the graph) when the
   * namespace lacks it; otherwise it must already exist. Helm: the same path.
   * @default false
   */
  readonly checkpointStoragePvcCreate?: boolean;
  /**
   * `checkpoint.storage.pvc.size`: the storage request of a created PVC. Helm: the same path.
   * @default ""
   */
  readonly checkpointStoragePvcSize?: string;
  /**
   * `checkpoint.storage.pvc.storageClassName` of a created PVC (empty: the cluster's default class).
   * Helm: the same path.
   * @default ""
   */
  readonly checkpointStorageClassName?: string;
  /**
   * `checkpoint.storage.pvc.accessMode` of a created PVC: `ReadWriteMany` (empty) or `ReadWriteOnce`.
   * Helm: the same path.
   * @default ""
   */
  readonly checkpointStorageAccessMode?: string;
  /**
   * The docker registry Secrets the operator would find in the workload namespace. Not part of
   * `OperatorConfiguration` (`registrySecrets` in a configuration file read by
   * `OperatorConfiguration.fromFile`).
   * @default - none
   */
  readonly registrySecrets?: RegistrySecret[];
}

/** The Helm release of the platform chart whose values `OperatorConfiguration.fromHelmValues` reads. */
export interface HelmValuesOptions {
  /**
   * The release name (`helm install NAME`): the base of the operator's ClusterRole names and of the
   * bundled NATS and etcd addresses.
   * @default "dynamo-platform"
   */
  readonly releaseName?: string;
  /**
   * The release namespace (`helm install --namespace NS`): part of the bundled NATS and etcd
   * addresses, and the restricted namespace when `namespaceRestriction.targetNamespace` is unset.
   * @default "dynamo-system"
   */
  readonly namespace?: string;
}

/** Reads operator options from the operator's configuration file, or from the Helm values it was installed with. */
export class OperatorConfiguration {
  /**
   * Options from an operator configuration file (YAML or JSON): the `OperatorConfiguration` document
   * or the Helm chart's ConfigMap holding it under `config.yaml`, plus this library's own top-level
   * fields `operatorVersion` and `registrySecrets: [{ name, registries }]`. Fields that do not change
   * rendering are ignored; absent fields keep their defaults. Throws on a field of the wrong type,
   * naming the file, the field path and the value.
   */
  public static fromFile(path: string): OperatorOptions {
    return OperatorConfiguration.fromYaml(readText(path), path);
  }

  /**
   * Options from a values file of the platform chart (`dynamo-platform`), as `-f` gives it to
   * `helm install` (see `fromHelmValues`).
   * @param path the values file (YAML or JSON)
   * @param options the release name and namespace
   */
  public static fromHelmValuesFile(path: string, options: HelmValuesOptions = {}): OperatorOptions {
    return OperatorConfiguration.fromHelmValues(readText(path), options, path);
  }

  /**
   * Options from the values of a platform chart (`dynamo-platform`) release: the values are merged
   * over the chart's defaults as Helm merges them, and the operator configuration is derived from them
   * as the chart's template derives it (the bundled NATS/etcd addresses from the release name and
   * namespace, the Grove/KAI/Volcano toggles, the Grove termination delay, the discovery backend,
   * ingress, service mesh, namespace restriction, ...). An empty text is a default install. Options the
   * chart leaves to the operator's detection of cluster APIs (`lwsAvailable`, and Grove, KAI or
   * Volcano when their values are unset) are not set, nor are `version` and `registrySecrets`.
   * Throws on values the chart refuses to install or that give a configuration the operator refuses,
   * naming the source and the values path.
   * @param text the values, YAML or JSON
   * @param options the release name and namespace
   * @param source name of the text in error messages
   */
  public static fromHelmValues(text: string, options: HelmValuesOptions = {}, source: string = 'Helm values'): OperatorOptions {
    const values = parseHelmValues(text, source);
    return optionsOf(deriveOperatorSettingsFromHelmValues(values, { releaseName: options.releaseName, namespace: options.namespace }, source));
  }

  /**
   * Options from the text of an operator configuration document (see `fromFile`).
   * @param text YAML or JSON text
   * @param source name of the text in error messages
   */
  public static fromYaml(text: string, source: string = 'operator configuration'): OperatorOptions {
    return optionsOf(parseOperatorConfiguration(text, source));
  }

  private constructor() {}
}

function readText(path: string): string {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (e) {
    throw new Error(`${path}: cannot read file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

/** Operator settings as the construct's operator options (lists copied). */
function optionsOf(settings: Partial<OperatorSettings>): OperatorOptions {
  const { registrySecrets, ...rest } = settings;
  const options: OperatorOptions = { ...rest };
  if (registrySecrets === undefined) return options;
  return { ...options, registrySecrets: registrySecrets.map(s => ({ name: s.name, registries: [...s.registries] })) };
}
