/**
 * The multinode rewrites of the three backends behind one entry point per hook (docs/design/render-multinode.md
 * §6): the container hook (pod pipeline step 4) and the pod-spec hook (step 8). A worker whose
 * framework resolves to `noop` gets no multinode changes and keeps its probes (§2.4).
 */
import { ContainerJson, PodSpecJson } from '../../pod/k8s-json';
import { BackendFrameworkName } from '../backend';
import { MultinodeContainerContext, MultinodePodContext } from './multinode-context';
import { sglangMultinodeContainer } from './sglang-multinode';
import { trtllmMultinodeContainer, trtllmMultinodePodSpec } from './trtllm-multinode';
import { vllmMultinodeContainer, vllmMultinodePodSpec } from './vllm-multinode';

export type { MultinodeContainerContext, MultinodePodContext } from './multinode-context';

/** What every backend's multinode hooks may need; `sshSecretName` is read by TensorRT-LLM only. */
export interface MultinodeBackendContext extends MultinodeContainerContext {
  /** `OperatorSettings.mpiSshSecretName`. */
  readonly sshSecretName: string;
}

/** The `main` container after the framework's multinode rewrite; single-node contexts are unchanged. */
export function applyMultinodeContainer(framework: BackendFrameworkName, container: ContainerJson, ctx: MultinodeBackendContext): ContainerJson {
  if (ctx.nodeCount <= 1) return container;
  switch (framework) {
    case 'vllm': return vllmMultinodeContainer(container, ctx);
    case 'sglang': return sglangMultinodeContainer(container, ctx);
    case 'trtllm': return trtllmMultinodeContainer(container, ctx);
    case 'noop': return container;
  }
}

/** The pod spec after the framework's multinode pod rewrite (vLLM wait-for-leader, TRT-LLM SSH volume). */
export function applyMultinodePodSpec(framework: BackendFrameworkName, podSpec: PodSpecJson,
  ctx: MultinodePodContext & { readonly sshSecretName: string }): PodSpecJson {
  if (ctx.nodeCount <= 1) return podSpec;
  switch (framework) {
    case 'vllm': return vllmMultinodePodSpec(podSpec, ctx);
    case 'trtllm': return trtllmMultinodePodSpec(podSpec, ctx);
    case 'sglang':
    case 'noop':
      return podSpec;
  }
}
