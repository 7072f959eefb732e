/**
 * Opt-in preview features of a component (`experimental`): GPU memory service, failover,
 * checkpoint/restore and Grove options. Their API shape may change between v1beta1 releases.
 */
import type * as kplus from 'cdk8s-plus-34';
import { CheckpointDeletionPolicy, CheckpointMode, CheckpointStartupPolicy, BackendFramework, GpuSharingMode } from './enums';
import { plainJson } from './kubernetes-values';
import { podTemplateSpecJson } from './pod-template-json';
import { CHECKPOINT_CONFIG_PROPS, checkValueProps, FAILOVER_PROPS, GPU_MEMORY_SERVICE_PROPS } from './props-check';
import { JsonObject } from '../model/v1beta1';

/** A GMS client pod (inter-pod GMS; reserved, rejected by the operator for now). */
export interface GmsClientPod {
  /** Name of the client pod, 1–63 lower-case alphanumerics or `-`. */
  readonly name: string;
  /** Pod template of the client. */
  readonly podTemplate: kplus.k8s.PodTemplateSpec;
}

/** Props of the GPU memory service. */
export interface GpuMemoryServiceProps {
  /**
   * Deployment topology of the service.
   * @default GpuSharingMode.INTRA_POD
   */
  readonly mode?: GpuSharingMode;
  /**
   * DRA DeviceClass the GPUs are requested from.
   * @default "gpu.nvidia.com"
   */
  readonly deviceClassName?: string;
  /**
   * Further containers of the pod wired as GMS clients.
   * @default - none
   */
  readonly extraClientContainers?: string[];
  /**
   * Further GMS client pods (inter-pod; reserved for future use).
   * @default - none
   */
  readonly extraClientPods?: GmsClientPod[];
}

/** GPU memory service: GPUs shared through Dynamic Resource Allocation. */
export class GpuMemoryService {
  constructor(private readonly props: GpuMemoryServiceProps = {}) {
    checkValueProps('GpuMemoryService', 'GpuMemoryServiceProps', props, GPU_MEMORY_SERVICE_PROPS);
  }

  /** @internal */
  public _toJson(): JsonObject {
    const p = this.props;
    const out: JsonObject = {};
    if (p.mode !== undefined) out.mode = p.mode;
    if (p.deviceClassName !== undefined) out.deviceClassName = p.deviceClassName;
    if (p.extraClientContainers !== undefined) out.extraClientContainers = [...p.extraClientContainers];
    if (p.extraClientPods !== undefined) {
      out.extraClientPods = p.extraClientPods.map((c, i) => ({ name: c.name, podTemplate: podTemplateSpecJson(c.podTemplate, `experimental.gpuMemoryService.extraClientPods[${i}].podTemplate`) }));
    }
    return out;
  }
}

/** Props of active-passive GPU failover. */
export interface FailoverProps {
  /**
   * Deployment topology; must match the GPU memory service's mode.
   * @default GpuSharingMode.INTRA_POD
   */
  readonly mode?: GpuSharingMode;
  /**
   * Number of standby engines per rank (only 1 is supported).
   * @default 1
   */
  readonly numShadows?: number;
}

/** Active-passive failover: the `main` container cloned into an active and a standby engine. */
export class Failover {
  constructor(private readonly props: FailoverProps = {}) {
    checkValueProps('Failover', 'FailoverProps', props, FAILOVER_PROPS);
  }

  /** @internal Whether the failover runs both engines in one pod (the default mode). */
  public _isIntraPod(): boolean {
    return (this.props.mode ?? GpuSharingMode.INTRA_POD) === GpuSharingMode.INTRA_POD;
  }

  /** @internal */
  public _toJson(): JsonObject {
    const out: JsonObject = {};
    if (this.props.mode !== undefined) out.mode = this.props.mode;
    if (this.props.numShadows !== undefined) out.numShadows = this.props.numShadows;
    return out;
  }
}

/** Deprecated identity of a checkpoint (ignored by the operator). */
export interface CheckpointIdentity {
  /** Model identifier. */
  readonly model: string;
  /** Runtime framework. */
  readonly backendFramework: BackendFramework;
  /**
   * Dynamo platform version.
   * @default - none
   */
  readonly dynamoVersion?: string;
  /**
   * Tensor parallel size.
   * @default 1
   */
  readonly tensorParallelSize?: number;
  /**
   * Pipeline parallel size.
   * @default 1
   */
  readonly pipelineParallelSize?: number;
  /**
   * Data type, for example `bf16`.
   * @default - none
   */
  readonly dtype?: string;
  /**
   * Maximum sequence length.
   * @default - none
   */
  readonly maxModelLen?: number;
  /**
   * Further parameters.
   * @default - none
   */
  readonly extraParameters?: { [key: string]: string };
}

/** Props of checkpoint and restore. */
export interface CheckpointConfigProps {
  /**
   * Whether checkpointing is enabled.
   * @default true
   */
  readonly enabled?: boolean;
  /**
   * Name of an existing checkpoint to restore from: a DynamoCheckpoint for operators 1.4 and 1.5,
   * a Snapshot PodSnapshot for operators 1.6.0 and later; omit for an automatic checkpoint.
   * @default - an automatic checkpoint managed by the graph
   */
  readonly checkpointRef?: string;
  /**
   * When workers start relative to the automatic checkpoint.
   * @default CheckpointStartupPolicy.IMMEDIATE
   */
  readonly startupPolicy?: CheckpointStartupPolicy;
  /**
   * Fate of the automatic checkpoint when the graph is deleted.
   * @default CheckpointDeletionPolicy.DELETE
   */
  readonly deletionPolicy?: CheckpointDeletionPolicy;
  /**
   * The workload container to snapshot and restore.
   * @default "main"
   */
  readonly targetContainerName?: string;
  /**
   * Containers of the capture pod that get GMS client wiring.
   * @default - none
   */
  readonly jobGmsClientContainers?: string[];
  /**
   * Template merged into the capture pod.
   * @default - the workload container only
   */
  readonly jobPodTemplate?: kplus.k8s.PodTemplateSpec;
  /**
   * Deprecated: use `checkpointRef` or omit it.
   * @default - none
   */
  readonly mode?: CheckpointMode;
  /**
   * Deprecated: ignored by the operator.
   * @default - none
   */
  readonly identity?: CheckpointIdentity;
}

/** Container snapshotting and restore of a component. */
export class CheckpointConfig {
  /** A checkpoint the graph captures automatically. */
  public static automatic(props: CheckpointConfigProps = {}): CheckpointConfig {
    return new CheckpointConfig({ enabled: true, ...props });
  }

  /**
   * Restore from an existing checkpoint in the same namespace: a DynamoCheckpoint (operators 1.4,
   * 1.5) or a PodSnapshot (operators 1.6.0 and later).
   */
  public static restore(snapshotName: string, props: CheckpointConfigProps = {}): CheckpointConfig {
    return new CheckpointConfig({ enabled: true, ...props, checkpointRef: snapshotName });
  }

  constructor(private readonly props: CheckpointConfigProps = {}) {
    checkValueProps('CheckpointConfig', 'CheckpointConfigProps', props, CHECKPOINT_CONFIG_PROPS);
  }

  /** @internal */
  public _toJson(): JsonObject {
    const p = this.props;
    const out: JsonObject = { enabled: p.enabled ?? true };
    if (p.checkpointRef !== undefined) out.checkpointRef = p.checkpointRef;
    if (p.startupPolicy !== undefined) out.startupPolicy = p.startupPolicy;
    if (p.deletionPolicy !== undefined) out.deletionPolicy = p.deletionPolicy;
    if (p.targetContainerName !== undefined) out.targetContainerName = p.targetContainerName;
    if (p.jobGmsClientContainers !== undefined || p.jobPodTemplate !== undefined) {
      out.job = {};
      if (p.jobGmsClientContainers !== undefined) out.job.gmsClientContainers = [...p.jobGmsClientContainers];
      if (p.jobPodTemplate !== undefined) out.job.podTemplate = podTemplateSpecJson(p.jobPodTemplate, 'experimental.checkpoint.jobPodTemplate');
    }
    if (p.mode !== undefined) out.mode = p.mode;
    if (p.identity !== undefined) out.identity = plainJson(p.identity, 'experimental.checkpoint.identity');
    return out;
  }
}

/** Grove options of a component. */
export interface GroveOptions {
  /**
   * Always wrap the component in a PodCliqueScalingGroup.
   * @default false
   */
  readonly forceScalingGroup?: boolean;
}

/** Preview features of a component. */
export interface ExperimentalOptions {
  /**
   * GPU memory service.
   * @default - none
   */
  readonly gpuMemoryService?: GpuMemoryService;
  /**
   * Active-passive failover (needs `gpuMemoryService`).
   * @default - none
   */
  readonly failover?: Failover;
  /**
   * Checkpoint and restore.
   * @default - none
   */
  readonly checkpoint?: CheckpointConfig;
  /**
   * Grove options.
   * @default - none
   */
  readonly grove?: GroveOptions;
}
