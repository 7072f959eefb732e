/**
 * SGLang across several nodes (docs/design/render-multinode.md §6.2): every pod gets the distributed-init
 * address on the leader, the node count and its node rank (the worker expression for any pod but
 * the leader, `main` included); workers lose their probes. The GPU count is not used and nothing
 * else changes.
 */
import { withoutProbes } from './multinode-context';
import { MultinodeDeployer, nodeRank } from '../../multinode/deployer';
import { injectFlags } from '../../multinode/flag-injection';
import { MultinodeLaunchRole } from '../../multinode/roles';
import { ContainerJson } from '../../pod/k8s-json';

/** Port of SGLang's distributed initialisation on the leader. */
export const SGLANG_DIST_INIT_PORT = 29500;

/** The flags of one pod, and whether they need a shell (a Grove worker's rank arithmetic). */
export function sglangMultinodeFlags(role: MultinodeLaunchRole, nodeCount: number,
  deployer: MultinodeDeployer): { flags: string; needsShell: boolean } {
  const rank = nodeRank(deployer, role);
  return {
    flags: `--dist-init-addr ${deployer.leaderHostname}:${SGLANG_DIST_INIT_PORT} --nnodes ${nodeCount} --node-rank ${rank.value}`,
    needsShell: rank.needsShell,
  };
}

/** Inputs of the SGLang rewrite (a subset of the shared multinode context). */
export interface SglangMultinodeContext {
  readonly role: MultinodeLaunchRole;
  readonly nodeCount: number;
  readonly deployer: MultinodeDeployer;
}

/** The multinode rewrite of the `main` container; a single-node context (`nodeCount <= 1`) changes nothing. */
export function sglangMultinodeContainer(container: ContainerJson, ctx: SglangMultinodeContext): ContainerJson {
  if (ctx.nodeCount <= 1) return container;
  const { flags, needsShell } = sglangMultinodeFlags(ctx.role, ctx.nodeCount, ctx.deployer);
  const out = injectFlags(container, { flags, needsShell, framework: 'sglang' });
  return ctx.role === 'worker' ? withoutProbes(out) : out;
}
