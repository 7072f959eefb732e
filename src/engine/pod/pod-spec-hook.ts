/**
 * The types the pod-spec pipeline (workload-pod-template.ts) shares with the rewrites it runs at its end
 * (the experimental hooks): which pod of a workload is rendered, and the shape of a rewrite.
 */
import { PodSpecJson } from './k8s-json';
import { MultinodeDeployer } from '../multinode/deployer';
import { MultinodeLaunchRole } from '../multinode/roles';
import { DcdContext } from '../workloads/dcd-context';

/** Which pod of a DCD's workload is rendered. */
export interface PodTemplateOptions {
  /**
   * The LeaderWorkerSet role (docs/design/render-multinode.md §3.4): the backend's multinode rewrites run for it
   * (LWS addressing), the template gets label `role: <role>` and loses `nvidia.com/selector`.
   * `main`: the single pod of the Deployment the component controller renders for a multinode DCD
   * when LeaderWorkerSet is unavailable — the rewrites run for role `main`, the labels stay those
   * of a Deployment pod. Absent: the single pod of a Deployment.
   */
  readonly multinodeRole?: MultinodeLaunchRole;
  /**
   * How the pods of a multinode replica address each other.
   * @default LeaderWorkerSet addressing
   */
  readonly deployer?: MultinodeDeployer;
}

/** A rewrite of the finished pod spec (before labels and annotations are attached). */
export interface PodSpecHook {
  /** What the hook renders, for error messages and tracing. */
  readonly name: string;
  /** Rewrites `podSpec` in place; `options` says which pod of the workload it is. */
  apply(podSpec: PodSpecJson, ctx: DcdContext, options: PodTemplateOptions): void;
}
