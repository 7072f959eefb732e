/**
 * What the component-type defaults are computed from: the operator's "component context" of one
 * component (type, Dynamo namespace, parent graph, discovery, worker hash, runtime version).
 */
import { RuntimeVersion } from '../../model/runtime-version';
import { EppConfigJson } from '../../model/v1beta1';
import { DiscoveryContext } from '../discovery';

export interface ComponentContext {
  /** Component type (`frontend`, `worker`, ..., or `''` when untyped): `DYN_COMPONENT` and the defaults chosen. */
  readonly componentType: string;
  /** Dynamo namespace of the env (`DYN_NAMESPACE`, `DYN_NAMESPACE_PREFIX`). */
  readonly dynamoNamespace: string;
  /** Owner graph name, or the DCD's own name when standalone. */
  readonly parentName: string;
  /** The DCD's Kubernetes namespace. */
  readonly parentNamespace: string;
  /** Discovery backend and mode from the pod-template annotations and the operator setting. */
  readonly discovery: DiscoveryContext;
  /** The component's `eppConfig` (EPP only). */
  readonly eppConfig?: EppConfigJson;
  /** Worker hash for `DYN_NAMESPACE_WORKER_SUFFIX` (worker-class only). */
  readonly workerHashSuffix?: string;
  /** Runtime version of the component (override, else main image tag), when it resolves. */
  readonly runtimeVersion?: RuntimeVersion;
  /** Whether the operator being emulated has the runtime-gated rendering of 1.5.0 and later (docs/design/render-core.md §17). */
  readonly runtimeGatesAvailable: boolean;
}
