/**
 * The pod-spec rewrites of the experimental component features, in the order the operator applies
 * them at the end of the pod-spec pipeline: the intra-pod GPU memory service, then intra-pod
 * failover (which clones the engine the GPU memory service has wired). The inter-pod layout is
 * built by the Grove renderer around these (see `inter-pod-gms.ts`). Checkpointing is refused
 * before rendering (see `assertNoExperimentalFeatures` in the engine entry).
 */
import { INTRA_POD_FAILOVER_HOOK } from './intra-pod-failover';
import { INTRA_POD_GMS_HOOK } from './intra-pod-gms';
import type { PodSpecHook } from '../pod/pod-template';

export const EXPERIMENTAL_HOOKS: readonly PodSpecHook[] = [INTRA_POD_GMS_HOOK, INTRA_POD_FAILOVER_HOOK];
