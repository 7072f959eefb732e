/** Inference backend framework of a graph or component. */
export enum BackendFramework {
  /** vLLM. */
  VLLM = 'vllm',
  /** SGLang. */
  SGLANG = 'sglang',
  /** TensorRT-LLM. */
  TRTLLM = 'trtllm',
}

/** Role of a component within the graph. */
export enum ComponentType {
  /** OpenAI-compatible HTTP frontend. */
  FRONTEND = 'frontend',
  /** Aggregated worker. */
  WORKER = 'worker',
  /** Prefill worker of a disaggregated graph. */
  PREFILL = 'prefill',
  /** Decode worker of a disaggregated graph. */
  DECODE = 'decode',
  /** Planner (autoscaling brain). */
  PLANNER = 'planner',
  /** Endpoint picker for the Gateway API inference extension; at most one per graph. */
  EPP = 'epp',
}

/** What a graph or component deployment synthesizes. */
export enum OutputMode {
  /** The custom resource as authored: one DynamoGraphDeployment (or DynamoComponentDeployment). */
  GRAPH = 'graph',
  /** One DynamoComponentDeployment per component, exactly as the operator's graph controller creates them. */
  COMPONENTS = 'components',
  /**
   * Every Kubernetes object the operator creates for the graph (or component deployment): the
   * DynamoComponentDeployments and their Deployments, Services, service accounts, RBAC and other
   * workloads; rendered at synth-time validation.
   */
  WORKLOADS = 'workloads',
}

/** Topology of the GPU memory service and of failover engines. */
export enum GpuSharingMode {
  /** Server and clients in the same pod. */
  INTRA_POD = 'IntraPod',
  /** Server and clients in separate pods. */
  INTER_POD = 'InterPod',
}

/** When workers start relative to an automatic checkpoint. */
export enum CheckpointStartupPolicy {
  /** Start workers cold at once; later pods restore once the checkpoint is ready. */
  IMMEDIATE = 'Immediate',
  /** Keep worker replicas at zero until the checkpoint is ready. */
  WAIT_FOR_CHECKPOINT = 'WaitForCheckpoint',
}

/** What happens to an automatic checkpoint when its graph is deleted. */
export enum CheckpointDeletionPolicy {
  /** Delete the checkpoint and its artifact. */
  DELETE = 'Delete',
  /** Keep them. */
  RETAIN = 'Retain',
}

/** Deprecated checkpoint mode. */
export enum CheckpointMode {
  /** Automatic. */
  AUTO = 'Auto',
  /** Manual. */
  MANUAL = 'Manual',
}

/** How a graph restart proceeds. */
export enum RestartStrategyType {
  /** One component at a time. */
  SEQUENTIAL = 'Sequential',
  /** All components at once. */
  PARALLEL = 'Parallel',
}

/** How a prefill worker's topology constrains decode routing. */
export enum KvTransferEnforcement {
  /** Only decode workers in the same topology domain. */
  REQUIRED = 'required',
  /** All decode workers, biased toward the same domain. */
  PREFERRED = 'preferred',
}

/** Roles of a multinode component. */
export enum MultinodeRoleName {
  /** The leader node. */
  LEADER = 'leader',
  /** The worker nodes. */
  WORKER = 'worker',
}
