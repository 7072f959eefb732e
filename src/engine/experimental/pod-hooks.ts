/**
 * The pod-spec rewrites of the experimental component features, in the order the operator applies
 * them at the end of the pod-spec pipeline: the probe cadence of a worker restoring from a Ready
 * DynamoCheckpoint (operators 1.4.0 and 1.5.0; the operator sets it on the main container before
 * the others), the intra-pod GPU memory service, then intra-pod failover (which clones the engine
 * the GPU memory service has wired). The inter-pod layout is built by the Grove renderer around
 * these (see `inter-pod-gms.ts`).
 */
import { CHECKPOINT_PROBE_CADENCE_HOOK } from './checkpoint/component-restore';
import { INTRA_POD_FAILOVER_HOOK } from './intra-pod-failover';
import { INTRA_POD_GMS_HOOK } from './intra-pod-gms';
import type { PodSpecHook } from '../pod/pod-spec-hook';

export const EXPERIMENTAL_HOOKS: readonly PodSpecHook[] = [CHECKPOINT_PROBE_CADENCE_HOOK, INTRA_POD_GMS_HOOK, INTRA_POD_FAILOVER_HOOK];
