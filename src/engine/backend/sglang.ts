/**
 * SGLang: nothing changes on a single-node pod. The compilation cache has no default mount path
 * (the operator only logs that SGLang does not use it).
 */
import { Backend } from './backend';

export const SGLANG_BACKEND: Backend = {
  framework: 'sglang',
  updateContainer: () => undefined,
  updatePodSpec: () => undefined,
};
