/** The backend of non-worker components and of workers without a detected or declared framework: no changes. */
import { Backend } from './backend';

export const NOOP_BACKEND: Backend = {
  framework: 'noop',
  updateContainer: () => undefined,
  updatePodSpec: () => undefined,
};
