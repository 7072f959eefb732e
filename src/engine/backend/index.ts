/** Backend frameworks and their rendering hooks. */
export type { Backend, BackendContainerInput, BackendFrameworkName } from './backend';
export { backendByName, selectBackend } from './select';
export { NOOP_BACKEND } from './noop';
export { SGLANG_BACKEND } from './sglang';
export { TRTLLM_BACKEND } from './trtllm';
export { VLLM_BACKEND } from './vllm';
