/**
 * What a backend's multinode rewrite of one pod needs to know (docs/design/render-multinode.md §6): the pod's
 * role, the node count, how pods address each other, the GPUs per node and the component's pod
 * template annotations.
 */
import { MultinodeDeployer } from '../../multinode/deployer';
import { MultinodeLaunchRole } from '../../multinode/roles';

/** Inputs of a multinode container rewrite. */
export interface MultinodeContainerContext {
  /** Which pod of the replica is rendered (`main`: the single pod of the Deployment fallback). */
  readonly role: MultinodeLaunchRole;
  /** `multinode.nodeCount` (> 1). */
  readonly nodeCount: number;
  /** Provider-specific addressing (LWS or Grove). */
  readonly deployer: MultinodeDeployer;
  /**
   * GPUs of the main container per node (docs/design/render-multinode.md §2.3), asked for only by the rewrites
   * that need it, so a count that cannot be resolved fails only there.
   */
  readonly gpusPerNode: () => number;
  /** Annotations of the component's pod template (vLLM reads its executor-backend choice there). */
  readonly podAnnotations: Readonly<Record<string, string>>;
  /** `OperatorSettings.version` (how vLLM flags are read); the default version when absent. */
  readonly operatorVersion?: string;
}

/** Inputs of a multinode pod-spec rewrite. */
export interface MultinodePodContext {
  readonly role: MultinodeLaunchRole;
  readonly nodeCount: number;
  readonly deployer: MultinodeDeployer;
  /** DGD name, or the DCD name for a standalone DCD (names the wait-for-leader ConfigMap). */
  readonly parentName: string;
  /** `OperatorSettings.version` (how vLLM flags are read); the default version when absent. */
  readonly operatorVersion?: string;
}

/** The container without liveness, readiness and startup probes (a copy). */
export function withoutProbes<T extends { livenessProbe?: unknown; readinessProbe?: unknown; startupProbe?: unknown }>(container: T): T {
  const copy = { ...container };
  delete copy.livenessProbe;
  delete copy.readinessProbe;
  delete copy.startupProbe;
  return copy;
}
