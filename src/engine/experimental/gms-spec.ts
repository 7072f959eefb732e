/**
 * How the operator reads `experimental.gpuMemoryService` and `experimental.failover` of a component
 * (docs/design/render-experimental.md §1, §2): the modes, the shadow count, the device class and the GPU count
 * the GPU memory service shares.
 */
import { isMap } from '../../model/json';
import { ComponentSpecJson, FailoverJson, GpuMemoryServiceJson } from '../../model/v1beta1';
import { MAIN_CONTAINER } from '../../model/well-known';
import { scalarGpuCount } from '../multinode/gpu-count';

export const MODE_INTRA_POD = 'IntraPod';
export const MODE_INTER_POD = 'InterPod';
/** DRA device class asked for when `deviceClassName` is empty (the NVIDIA GPU DRA driver's class). */
export const DEFAULT_DEVICE_CLASS_NAME = 'gpu.nvidia.com';

/** `experimental.gpuMemoryService`, when set. */
export function gpuMemoryServiceOf(spec: ComponentSpecJson): GpuMemoryServiceJson | undefined {
  const gms = spec.experimental?.gpuMemoryService;
  return isMap(gms) ? gms : undefined;
}

/** `experimental.failover`, when set (the v1beta1 field is presence-only: set means enabled). */
export function failoverOf(spec: ComponentSpecJson): FailoverJson | undefined {
  const failover = spec.experimental?.failover;
  return isMap(failover) ? failover : undefined;
}

/** Whether the component uses the inter-pod layout: `gpuMemoryService.mode` is exactly `InterPod`. */
export function isInterPodGms(spec: ComponentSpecJson): boolean {
  return gpuMemoryServiceOf(spec)?.mode === MODE_INTER_POD;
}

/** Whether the GPU memory service runs inside each pod: set, with mode empty or `IntraPod`. */
export function isIntraPodGms(spec: ComponentSpecJson): boolean {
  return gpuMemoryServiceOf(spec) !== undefined && !isInterPodGms(spec);
}

/** Whether failover clones the engine inside one pod: set, with mode empty or `IntraPod`. */
export function isIntraPodFailover(spec: ComponentSpecJson): boolean {
  const mode = failoverOf(spec)?.mode;
  return failoverOf(spec) !== undefined && (mode === undefined || (mode as string) === '' || mode === MODE_INTRA_POD);
}

/** Whether failover runs shadow engine pods: `failover.mode` is exactly `InterPod`. */
export function isInterPodFailover(spec: ComponentSpecJson): boolean {
  return failoverOf(spec)?.mode === MODE_INTER_POD;
}

/** Shadow engines per rank: `failover.numShadows` (at least 1) with inter-pod failover, else 0. */
export function shadowCount(spec: ComponentSpecJson): number {
  if (!isInterPodFailover(spec)) return 0;
  const shadows = failoverOf(spec)?.numShadows;
  return typeof shadows === 'number' && shadows >= 1 ? shadows : 1;
}

/** Engine pods per rank of an inter-pod component: the primary plus its shadows. */
export function enginePodsPerRank(spec: ComponentSpecJson): number {
  return shadowCount(spec) + 1;
}

/** The DRA device class of the GPU request: `deviceClassName`, else `gpu.nvidia.com`. */
export function deviceClassNameOf(spec: ComponentSpecJson): string {
  const name = gpuMemoryServiceOf(spec)?.deviceClassName;
  return typeof name === 'string' && name !== '' ? name : DEFAULT_DEVICE_CLASS_NAME;
}

/**
 * GPUs of the component's `main` container as written (scalar resources only, limits before
 * requests; no DRA resolution): the count the shared GPU claims ask for. 0 without a main container.
 * `at` is the path of the component in `objectRef`, for errors.
 */
export function mainContainerGpus(spec: ComponentSpecJson, objectRef: string, at = 'spec'): number {
  const podSpec = isMap(spec.podTemplate) && isMap(spec.podTemplate.spec) ? spec.podTemplate.spec : undefined;
  const containers = Array.isArray(podSpec?.containers) ? podSpec!.containers as unknown[] : [];
  const index = containers.findIndex(c => isMap(c) && c.name === MAIN_CONTAINER);
  if (index < 0) return 0;
  const main = containers[index] as Record<string, unknown>;
  return scalarGpuCount(main.resources, objectRef, `${at}.podTemplate.spec.containers[${index}].resources`);
}
