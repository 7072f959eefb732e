/**
 * What a graph occupies once the operator runs it: the public shape of `DynamoGraph.footprint()`
 * and of `cdk8s-dynamo explain` (computed in `footprint.ts`).
 */

/** A DRA ResourceClaimTemplate the operator creates for a component, and the claims made from it. */
export interface DraClaimFootprint {
  /** Name of the ResourceClaimTemplate. */
  readonly templateName: string;
  /**
   * Who creates the template: `DynamoGraphDeployment` (the graph controller, among the graph's
   * shared resources) or `PodCliqueSet` (Grove, from the PodCliqueSet's `resourceClaimTemplates`).
   */
  readonly createdBy: string;
  /** The DRA DeviceClass the template's request asks devices of. */
  readonly deviceClassName: string;
  /** GPUs (devices) one claim made from the template holds. */
  readonly gpusPerClaim: number;
  /**
   * ResourceClaims made from the template when every replica runs: one per pod that names it, or
   * one per scaling-group replica when Grove shares it among a node rank's pods. 0: no pod uses it.
   */
  readonly claims: number;
}

/** One component of a graph as the operator runs it. */
export interface ComponentFootprint {
  /** The component name as written. */
  readonly name: string;
  /**
   * The component type (`componentType`): frontend, worker, prefill, decode, planner or epp.
   * @default - the component sets no type
   */
  readonly type?: string;
  /**
   * Replicas as stored: what the component sets, else the 1 the operator's defaulting webhook writes.
   */
  readonly replicas: number;
  /** Whether `replicas` was absent and the operator's default of 1 applies. */
  readonly replicasDefaulted: boolean;
  /**
   * Whether the component has a scaling adapter: its replicas are then what an autoscaler or the
   * planner sets on the DynamoGraphDeploymentScalingAdapter (seeded with `replicas`).
   */
  readonly scalingAdapter: boolean;
  /** Nodes one replica spans: `multinode.nodeCount`, else 1. */
  readonly nodesPerReplica: number;
  /**
   * Pods of one replica: a pod per node; with the inter-pod GPU memory service, per node rank a
   * weight-server pod and the engine pods (primary and failover shadows).
   */
  readonly podsPerReplica: number;
  /**
   * GPUs of one pod: the GPU resource of the `main` container as the operator renders it (a
   * multinode leader and its workers alike); with the GPU memory service, the GPUs of the DRA claim
   * that replaces it (for the inter-pod layout, the GPUs one node rank's pods share).
   */
  readonly gpusPerPod: number;
  /** GPUs of the component: replicas × nodes per replica × GPUs per pod. */
  readonly totalGpus: number;
  /**
   * The workload that runs the pods: Deployment, LeaderWorkerSet, PodClique (Grove) or
   * PodCliqueScalingGroup (Grove).
   */
  readonly workload: string;
  /** The DRA ResourceClaimTemplates the operator creates for the component (GPU memory service). */
  readonly draClaims: DraClaimFootprint[];
  /** What else a reader of the numbers should know, one sentence each. */
  readonly notes: string[];
}

/** What a graph occupies once the operator runs it. */
export interface GraphFootprint {
  /** Name of the DynamoGraphDeployment. */
  readonly name: string;
  /** Namespace the graph runs in (`default` when it names none). */
  readonly namespace: string;
  /** The workload provider the operator chooses for the graph: `grove` or `component`. */
  readonly workloadProvider: string;
  /** The components, in the graph's order. */
  readonly components: ComponentFootprint[];
  /** GPUs of the whole graph: the sum of the components' total GPUs. */
  readonly totalGpus: number;
}
