/**
 * The pod-spec rewrites of the experimental component features, in the order the operator applies
 * them at the end of the pod-spec pipeline. Components using a feature that is not rendered yet
 * are refused before rendering (see `assertNoExperimentalFeatures` in the engine entry).
 */
import type { PodSpecHook } from '../pod/pod-template';

export const EXPERIMENTAL_HOOKS: readonly PodSpecHook[] = [];
