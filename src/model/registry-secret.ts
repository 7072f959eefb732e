/** The docker registry Secrets declared to the operator settings (public type, used by the engine too). */

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
