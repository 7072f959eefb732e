/**
 * The common pod props of a component (image, command, env, GPUs, resources, volumes, ...) and how
 * they become the component's plain `podTemplate`, merged over the typed `podTemplate` escape hatch.
 */
import type * as kplus from 'cdk8s-plus-34';

/** A volume mounted into the `main` container. */
export interface ComponentVolumeMount {
  /**
   * The volume (`kplus.Volume.fromSecret(...)`, `Volume.fromEmptyDir(...)`, ...; a volume in
   * Kubernetes shape is taken too), added to the pod's volumes once: another volume of the same
   * name is an error.
   */
  readonly volume: kplus.Volume;
  /** Where the volume is mounted in the container. */
  readonly path: string;
  /**
   * Mount read-only.
   * @default false
   */
  readonly readOnly?: boolean;
  /**
   * Path within the volume to mount instead of its root.
   * @default - the volume's root
   */
  readonly subPath?: string;
}

/** Props describing the `main` container and pod of a component in the common case. */
export interface PodOptions {
  /**
   * Image of the `main` container.
   * @default - the image of the `main` container in `podTemplate`, if any
   */
  readonly image?: string;
  /**
   * Entrypoint of the `main` container.
   * @default - the operator's default command for the component type
   */
  readonly command?: string[];
  /**
   * Arguments of the `main` container.
   * @default - the operator's default arguments for the component type
   */
  readonly args?: string[];
  /**
   * Working directory of the `main` container.
   * @default - the image's working directory
   */
  readonly workingDir?: string;
  /**
   * Environment variables of the `main` container (values, secret keys, config map keys, field refs).
   * They replace entries of the same name from `podTemplate`. A value in Kubernetes shape
   * (`{ value }` or `{ valueFrom }`) is taken too.
   * @default - none
   */
  readonly env?: { [name: string]: kplus.EnvValue };
  /**
   * Whole secrets or config maps exposed as environment variables (`kplus.Env.fromSecret(...)`,
   * `kplus.Env.fromConfigMap(...)`; an EnvFromSource in Kubernetes shape is taken too). An entry
   * that names neither a secret nor a config map is an error.
   * @default - none
   */
  readonly envFrom?: kplus.EnvFrom[];
  /**
   * Number of GPUs (`nvidia.com/gpu` limit) of the `main` container.
   * @default - no GPU limit besides what `resources` or `podTemplate` set
   */
  readonly gpus?: number;
  /**
   * CPU, memory and ephemeral storage of the `main` container (memory and storage in whole `Mi`,
   * else `Ki`). ResourceRequirements in Kubernetes shape (`{ limits, requests }`) are taken too;
   * each resource named replaces the one `podTemplate` sets.
   * @default - none besides what `podTemplate` sets
   */
  readonly resources?: kplus.ContainerResources;
  /**
   * Volumes mounted into the `main` container.
   * @default - none
   */
  readonly volumeMounts?: ComponentVolumeMount[];
  /**
   * The full pod template, for everything else (sidecars, tolerations, node selectors, probes...).
   * The high-level props above are applied on top of its `main` container. Typed
   * (`kplus.k8s.PodTemplateSpec`, with `k8s.Quantity` and `k8s.IntOrString`) or plain JSON in
   * Kubernetes shape (from `yaml.parse`, a manifest, a map in another language), kept exactly as
   * the same template written in YAML; an unknown field or a value of the wrong kind is an error
   * naming its path.
   * @default - an empty template
   */
  readonly podTemplate?: kplus.k8s.PodTemplateSpec;
}
