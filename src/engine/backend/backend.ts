/**
 * The contract of a backend framework's hooks (docs/design/render-core.md §5.8): how vLLM, SGLang, TensorRT-LLM
 * or no framework at all change a worker's container and pod.
 */
import { ContainerJson, PodSpecJson } from '../pod/k8s-json';

/** Backend frameworks the operator knows; `noop` serves non-worker components and undetected workers. */
export type BackendFrameworkName = 'vllm' | 'sglang' | 'trtllm' | 'noop';

/** What the container hook needs besides the container. */
export interface BackendContainerInput {
  /** Mount path of the compilation cache after defaulting, when the component has one. */
  readonly compilationCacheMountPath?: string;
  /**
   * Whether the pod is a leader or worker of a multinode component, whose multinode rewrite has
   * already run: single-pod launch rewrites (vLLM's elastic-EP Ray head) are skipped.
   */
  readonly multinode?: boolean;
}

export interface Backend {
  readonly framework: BackendFrameworkName;
  /** Where the compilation cache is mounted when `compilationCache.mountPath` is not given; none → required. */
  readonly defaultCompilationCacheMountPath?: string;
  /**
   * Single-node changes to the `main` container, applied after the standard env has been merged
   * (so anything appended to `env` lands after the sorted block).
   */
  updateContainer(container: ContainerJson, input: BackendContainerInput): void;
  /** Pod-level changes. Every backend only changes multinode pods, which this renderer does not produce. */
  updatePodSpec(podSpec: PodSpecJson): void;
}
