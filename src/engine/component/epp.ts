/**
 * EPP (Endpoint Picker Plugin) defaults (docs/design/render-core.md §5.3, §6.2, §10.1, §17).
 *
 * Three flavours:
 * - operators 1.4.0 and 1.5.0 (no runtime-gated rendering, `OPERATOR_GATES.runtimeGatedDefaults`):
 *   the Go EPP, which needs `eppConfig`; config mounted at `/etc/epp`, an emptyDir HuggingFace
 *   cache at `/home/nonroot/.cache`;
 * - newer operators with `eppConfig`: the legacy Go EPP, config mount only;
 * - newer operators without `eppConfig`: the native Rust EPP, which runs its image entrypoint
 *   without args, `HOME=/home/dynamo` and a cache at `/home/dynamo/.cache`.
 * Which runtime version may use which flavour is an admission rule, not a rendering one.
 */
import { commonContainer, commonPodSpec } from './common';
import { ComponentContext } from './defaults-context';
import { ComponentDefaults } from './type-defaults';
import {
  EPP_CONFIG_FILE, EPP_GRPC_HEALTH_PORT, EPP_GRPC_HEALTH_PORT_NAME, EPP_GRPC_PORT, EPP_GRPC_PORT_NAME, EPP_METRICS_PORT, EPP_METRICS_PORT_NAME,
  EPP_SERVICE_ACCOUNT, eppConfigMapName, INFERENCE_POOL_GROUP, inferencePoolName,
} from '../../model/epp-names';
import { OPERATOR_GATES } from '../../model/operator-version';
import { NATIVE_RUST_EPP_VERSION, RuntimeVersion } from '../../model/runtime-version';
import { formatVersion, versionAtLeast } from '../component-runtime-version';
import { ContainerJson, PodSpecJson, tcpPort, valueEnv, VolumeJson, VolumeMountJson } from '../pod/k8s-json';

export const EPP_TERMINATION_GRACE_PERIOD_SECONDS = 130;
export const EPP_CONFIG_VOLUME = 'epp-config';
export const EPP_CONFIG_MOUNT_PATH = '/etc/epp';
export const HF_CACHE_VOLUME = 'hf-cache';
/** The gRPC health service the EPP probes ask for. */
const HEALTH_SERVICE = 'inference-extension';

/** Message of the snapshot operator for an EPP without configuration. */
export const EPP_CONFIGURATION_REQUIRED = 'EPP configuration is required: either eppConfig.configMapRef or eppConfig.config must be specified';

/**
 * The refusal of an EPP without configuration by the operators without the native EPP; for a
 * native-EPP image (runtime 1.5.0 or later) it also says which operator renders it.
 */
export function eppConfigurationRequired(runtimeVersion: RuntimeVersion | undefined): string {
  if (!versionAtLeast(runtimeVersion, NATIVE_RUST_EPP_VERSION)) return EPP_CONFIGURATION_REQUIRED;
  return `${EPP_CONFIGURATION_REQUIRED} (runtime ${formatVersion(runtimeVersion!)} is a native Rust EPP, `
    + `which only operators ${OPERATOR_GATES.runtimeGatedDefaults.since} and later render (unverified): set the operator version)`;
}

export type EppFlavour = 'snapshot' | 'legacy' | 'native';

export function eppFlavour(context: ComponentContext): EppFlavour {
  if (!context.runtimeGatesAvailable) return 'snapshot';
  return context.eppConfig ? 'legacy' : 'native';
}

/** The ConfigMap holding the EPP configuration: the referenced one, else `<parent>-epp-config`. */
function eppConfigMapOf(context: ComponentContext): string {
  const ref = context.eppConfig?.configMapRef;
  return typeof ref?.name === 'string' && ref.name ? ref.name : eppConfigMapName(context.parentName);
}

function eppConfigKey(context: ComponentContext): string {
  const key = context.eppConfig?.configMapRef?.key;
  return typeof key === 'string' && key ? key : EPP_CONFIG_FILE;
}

function hfCacheMountPath(flavour: EppFlavour): string {
  return flavour === 'native' ? '/home/dynamo/.cache' : '/home/nonroot/.cache';
}

function grpcProbe(timings: Record<string, number>): Record<string, unknown> {
  return { grpc: { port: EPP_GRPC_HEALTH_PORT, service: HEALTH_SERVICE }, ...timings };
}

export function eppContainer(context: ComponentContext): ContainerJson {
  const flavour = eppFlavour(context);
  const container = commonContainer(context);
  container.command = [];
  container.ports = [
    tcpPort(EPP_GRPC_PORT_NAME, EPP_GRPC_PORT),
    tcpPort(EPP_GRPC_HEALTH_PORT_NAME, EPP_GRPC_HEALTH_PORT),
    tcpPort(EPP_METRICS_PORT_NAME, EPP_METRICS_PORT),
  ];
  container.livenessProbe = grpcProbe({ initialDelaySeconds: 5, periodSeconds: 10 });
  container.readinessProbe = grpcProbe({ initialDelaySeconds: 5, periodSeconds: 10 });
  // ten seconds times 180: the EPP waits for workers to register for up to half an hour
  container.startupProbe = grpcProbe({ periodSeconds: 10, failureThreshold: 180 });
  container.env!.push(
    valueEnv('USE_STREAMING', 'true'),
    valueEnv('RUST_LOG', 'info'),
    valueEnv('DYN_ENFORCE_DISAGG', 'false'),
    valueEnv('DYN_NAMESPACE_PREFIX', context.dynamoNamespace),
  );
  const mounts: VolumeMountJson[] = [];
  if (flavour === 'native') {
    container.env!.push(valueEnv('HOME', '/home/dynamo'));
  } else {
    container.args = [
      '--pool-name', inferencePoolName(context.parentName),
      '--pool-namespace', context.parentNamespace,
      '--pool-group', INFERENCE_POOL_GROUP,
      '-v', '4',
      '--zap-encoder', 'json',
      '--grpc-port', String(EPP_GRPC_PORT),
      '--grpc-health-port', String(EPP_GRPC_HEALTH_PORT),
      '--config-file', `${EPP_CONFIG_MOUNT_PATH}/${EPP_CONFIG_FILE}`,
    ];
    mounts.push({ name: EPP_CONFIG_VOLUME, mountPath: EPP_CONFIG_MOUNT_PATH, readOnly: true });
  }
  if (flavour !== 'legacy') mounts.push({ name: HF_CACHE_VOLUME, mountPath: hfCacheMountPath(flavour) });
  container.volumeMounts = mounts;
  return container;
}

export function eppPodSpec(context: ComponentContext): Omit<PodSpecJson, 'containers'> {
  const flavour = eppFlavour(context);
  const volumes: VolumeJson[] = [];
  if (flavour !== 'native') {
    volumes.push({
      name: EPP_CONFIG_VOLUME,
      configMap: { name: eppConfigMapOf(context), items: [{ key: eppConfigKey(context), path: EPP_CONFIG_FILE }] },
    });
  }
  if (flavour !== 'legacy') volumes.push({ name: HF_CACHE_VOLUME, emptyDir: {} });
  return {
    ...commonPodSpec(),
    serviceAccountName: EPP_SERVICE_ACCOUNT,
    terminationGracePeriodSeconds: EPP_TERMINATION_GRACE_PERIOD_SECONDS,
    volumes,
  };
}

export const EPP_DEFAULTS: ComponentDefaults = {
  baseContainer: eppContainer,
  basePodSpec: eppPodSpec,
  problem: (context) => eppFlavour(context) === 'snapshot' && !context.eppConfig
    ? { field: 'spec.eppConfig', message: eppConfigurationRequired(context.runtimeVersion) }
    : undefined,
};
