/**
 * TensorRT-LLM: nothing changes on a single-node pod (MPI/SSH wiring is multinode only). The
 * compilation cache has no default mount path.
 */
import { Backend } from './backend';

export const TRTLLM_BACKEND: Backend = {
  framework: 'trtllm',
  updateContainer: () => undefined,
  updatePodSpec: () => undefined,
};
