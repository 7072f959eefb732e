/**
 * How the pods of one multinode replica find each other (docs/design/render-multinode.md §2.2), per workload
 * provider: LeaderWorkerSet and Grove inject their own env vars into the pods, and the operator
 * refers to them through kubelet `$(VAR)` expansion or shell arithmetic.
 */
import { MultinodeLaunchRole, ROLE_NAME_SUFFIX } from './roles';
import { lowerAscii } from '../../model/json';

/** Workload providers that run multinode components. */
export type MultinodeProvider = 'lws' | 'grove';

/** A node rank as it is written into a command line. */
export interface NodeRank {
  /** The rank expression: literal `0` for the leader, provider-specific for workers. */
  readonly value: string;
  /** Whether the expression only works inside a shell (then the command is wrapped in `sh -c`). */
  readonly needsShell: boolean;
}

/** The provider-specific addressing values of a multinode component. */
export interface MultinodeDeployer {
  readonly provider: MultinodeProvider;
  /** Host name of the leader pod of the same replica. */
  readonly leaderHostname: string;
  /** Rank expression of a worker pod (the leader is always `0`). */
  readonly workerRank: string;
  /** Whether `workerRank` needs a shell. */
  readonly workerRankNeedsShell: boolean;
  /** Whether the leader must wait for the workers' DNS names before launching `mpirun`. */
  readonly needsDnsWait: boolean;
  /** Host names of all `nodeCount` pods of a replica, leader first. */
  hostNames(nodeCount: number): string[];
}

/** Node rank of a pod of the given role (`main` reads the worker expression, as a worker does). */
export function nodeRank(deployer: MultinodeDeployer, role: MultinodeLaunchRole): NodeRank {
  return role === 'leader' ? { value: '0', needsShell: false } : { value: deployer.workerRank, needsShell: deployer.workerRankNeedsShell };
}

/** LeaderWorkerSet: the leader address and worker index come from LWS env vars. */
export const LWS_DEPLOYER: MultinodeDeployer = {
  provider: 'lws',
  leaderHostname: '$(LWS_LEADER_ADDRESS)',
  workerRank: '$(LWS_WORKER_INDEX)',
  workerRankNeedsShell: false,
  needsDnsWait: true,
  hostNames(nodeCount: number): string[] {
    const names = ['$(LWS_LEADER_ADDRESS)'];
    // worker i's name is the leader's with "-<i>" added to its first DNS label
    for (let i = 1; i < nodeCount; i++) names.push(`$(echo "$LWS_LEADER_ADDRESS" | sed 's/\\./-${i}\\./')`);
    return names;
  },
};

/**
 * Grove: pods are addressed through the PodCliqueScalingGroup's headless service;
 * `componentName` is the component name as written (lower-cased here).
 */
export function groveDeployer(componentName: string): MultinodeDeployer {
  const prefix = `$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-${lowerAscii(componentName)}`;
  const host = (clique: string, index: number): string => `${prefix}-${clique}-${index}.$(GROVE_HEADLESS_SERVICE)`;
  return {
    provider: 'grove',
    leaderHostname: host(ROLE_NAME_SUFFIX.leader, 0),
    workerRank: '$((GROVE_PCLQ_POD_INDEX + 1))',
    workerRankNeedsShell: true,
    needsDnsWait: false,
    hostNames(nodeCount: number): string[] {
      const names = [host(ROLE_NAME_SUFFIX.leader, 0)];
      for (let i = 0; i < nodeCount - 1; i++) names.push(host(ROLE_NAME_SUFFIX.worker, i));
      return names;
    },
  };
}

/**
 * Grove with the inter-pod GPU memory service (docs/design/render-multinode.md §2.2, last column): every rank has
 * its own clique, so the pod index selects the replica and the rank is the literal `rank`.
 */
export function groveGmsDeployer(componentName: string, rank: number): MultinodeDeployer {
  const prefix = `$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-${lowerAscii(componentName)}`;
  const suffix = '$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)';
  const leader = `${prefix}-${ROLE_NAME_SUFFIX.leader}-${suffix}`;
  return {
    provider: 'grove',
    leaderHostname: leader,
    workerRank: String(rank),
    workerRankNeedsShell: false,
    needsDnsWait: false,
    hostNames(nodeCount: number): string[] {
      const names = [leader];
      for (let i = 1; i < nodeCount; i++) names.push(`${prefix}-${ROLE_NAME_SUFFIX.worker}-${i}-${suffix}`);
      return names;
    },
  };
}

/** The deployer of a provider for a component. */
export function deployerFor(provider: MultinodeProvider, componentName: string): MultinodeDeployer {
  return provider === 'lws' ? LWS_DEPLOYER : groveDeployer(componentName);
}
