/**
 * A DynamoGraphDeploymentRequest (nvidia.com/v1beta1): intent instead of a graph. It names a model,
 * a backend, the hardware, the workload and an SLA; the operator runs a profiling Job that searches
 * for the graph and, with `autoApply`, deploys it. Synthesized as the request (GRAPH and COMPONENTS
 * output: the request as the API server stores it, defaults applied) or as what the operator
 * creates for it before profiling (WORKLOADS: the profiling Job, its ServiceAccount and
 * RoleBinding). With `plan`, it is synthesized as what the operator deploys after profiling instead:
 * the profiler is run locally as `cdk8s-dynamo plan` runs it (src/plan, docs/plan.md). Admission
 * (CRD schema, the operator's DGDR webhooks) is checked at synth time.
 */
import { ApiObjectMetadata } from 'cdk8s';
import { Construct } from 'constructs';
import { OutputMode } from './enums';
import { DynamoResource } from './resource';
import { SynthesisOptions } from './synthesis-options';
import { plannedOutput } from '../lazy-modules';
import { copyJson } from '../model/json-copy';
import { JsonObject } from '../model/v1beta1';
import type { DocumentOutcome, OutputMode as RenderedOutput } from '../pipeline/check-and-render';

/** Inference backend a request profiles and deploys. */
export enum RequestBackend {
  /** The profiler chooses. */
  AUTO = 'auto',
  /** SGLang. */
  SGLANG = 'sglang',
  /** TensorRT-LLM. */
  TRTLLM = 'trtllm',
  /** vLLM. */
  VLLM = 'vllm',
}

/** How deep the profiler searches. */
export enum SearchStrategy {
  /** A fast sweep, simulated with AIConfigurator (no GPUs). */
  RAPID = 'rapid',
  /** Explores more configurations on real GPUs (needs a specific backend). */
  THOROUGH = 'thorough',
}

/** The optimization target of the SLA search. */
export enum OptimizationType {
  /** Lowest latency. */
  LATENCY = 'latency',
  /** Highest throughput. */
  THROUGHPUT = 'throughput',
}

/** The GPU a request targets (the AIConfigurator system id). */
export enum GpuSku {
  /** NVIDIA GB200 (SXM). */
  GB200_SXM = 'gb200_sxm',
  /** NVIDIA GB10. */
  GB10 = 'gb10',
  /** NVIDIA B200 (SXM). */
  B200_SXM = 'b200_sxm',
  /** NVIDIA H200 (SXM). */
  H200_SXM = 'h200_sxm',
  /** NVIDIA H100 (SXM). */
  H100_SXM = 'h100_sxm',
  /** NVIDIA H100 (PCIe). */
  H100_PCIE = 'h100_pcie',
  /** NVIDIA A100 (SXM). */
  A100_SXM = 'a100_sxm',
  /** NVIDIA A100 (PCIe). */
  A100_PCIE = 'a100_pcie',
  /** NVIDIA A30. */
  A30 = 'a30',
  /** NVIDIA L40S. */
  L40S = 'l40s',
  /** NVIDIA L40. */
  L40 = 'l40',
  /** NVIDIA L4. */
  L4 = 'l4',
  /** NVIDIA V100 (SXM). */
  V100_SXM = 'v100_sxm',
  /** NVIDIA V100 (PCIe). */
  V100_PCIE = 'v100_pcie',
  /** NVIDIA T4. */
  T4 = 't4',
  /** AMD Instinct MI200. */
  MI200 = 'mi200',
  /** AMD Instinct MI300. */
  MI300 = 'mi300',
}

/** The hardware to profile for and deploy on. */
export interface RequestHardwareProps {
  /**
   * The GPU.
   * @default - discovered by the operator (only with GPU discovery on)
   */
  readonly gpuSku?: GpuSku;
  /**
   * VRAM per GPU, in MiB.
   * @default - discovered
   */
  readonly vramMb?: number;
  /**
   * The GPU budget for profiling and deployment.
   * @default - the GPUs discovered (capped at 32)
   */
  readonly totalGpus?: number;
  /**
   * GPUs per node.
   * @default - discovered
   */
  readonly numGpusPerNode?: number;
  /**
   * The GPU interconnect within a node (e.g. `nvlink`, `pcie`).
   * @default - discovered, or unknown
   */
  readonly interconnect?: string;
  /**
   * Whether RDMA networking is available.
   * @default - discovered, or unknown
   */
  readonly rdma?: boolean;
}

/** The expected workload. */
export interface RequestWorkloadProps {
  /**
   * Input sequence length, in tokens.
   * @default 4000
   */
  readonly isl?: number;
  /**
   * Output sequence length, in tokens.
   * @default 1000
   */
  readonly osl?: number;
  /**
   * Target concurrency (not with `requestRate`).
   * @default - the profiler's maximum-throughput selection
   */
  readonly concurrency?: number;
  /**
   * Target request rate, in requests per second (not with `concurrency`).
   * @default - the profiler's maximum-throughput selection
   */
  readonly requestRate?: number;
}

/** The service-level targets. */
export interface RequestSlaProps {
  /**
   * Time to first token, in milliseconds.
   * @default - the profiler's default (2000)
   */
  readonly ttft?: number;
  /**
   * Inter-token latency, in milliseconds.
   * @default - the profiler's default (30)
   */
  readonly itl?: number;
  /**
   * End-to-end request latency, in milliseconds (instead of ttft + itl).
   * @default - none
   */
  readonly e2eLatency?: number;
  /**
   * The optimization target.
   * @default - none
   */
  readonly optimizationType?: OptimizationType;
}

/** Pre-downloaded model weights on a PersistentVolumeClaim. */
export interface RequestModelCacheProps {
  /**
   * The claim holding the weights (in the request's namespace).
   * @default - none: weights are downloaded
   */
  readonly pvcName?: string;
  /**
   * Path of the model within the claim.
   * @default - none
   */
  readonly pvcModelPath?: string;
  /**
   * Where the claim is mounted.
   * @default "/opt/model-cache"
   */
  readonly pvcMountPath?: string;
}

/** Optional platform features of the generated graph. */
export interface RequestFeaturesProps {
  /**
   * Deploy simulated (mocker) workers instead of real inference workers.
   * @default - real workers
   */
  readonly mocker?: boolean;
  /**
   * The Planner configuration (passed through as is; its presence enables the Planner).
   * @default - no Planner
   */
  readonly planner?: { [key: string]: any };
}

/** Overrides of the profiling Job and of the generated graph. */
export interface RequestOverridesProps {
  /**
   * A batch/v1 JobSpec (plain JSON) merged into the profiling Job by the operator's allowlist.
   * @default - none
   */
  readonly profilingJob?: { [key: string]: any };
  /**
   * A partial DynamoGraphDeployment (plain JSON with apiVersion and kind) merged into the generated graph.
   * @default - none
   */
  readonly dgd?: { [key: string]: any };
}

/** Props of a DynamoGraphDeploymentRequest. */
export interface DynamoGraphDeploymentRequestProps extends SynthesisOptions {
  /**
   * Metadata of the request.
   * @default - a name generated from the construct path
   */
  readonly metadata?: ApiObjectMetadata;
  /** The model to deploy (a Hugging Face id or a private model name). */
  readonly model: string;
  /**
   * The backend.
   * @default RequestBackend.AUTO
   */
  readonly backend?: RequestBackend;
  /**
   * The profiler (planner) image.
   * @default - the operator's `dynamo-planner:<operator version>`
   */
  readonly image?: string;
  /**
   * The Dynamo runtime version of the generated components (needed when the image tag is no version).
   * @default - the image tag's version
   */
  readonly runtimeVersionOverride?: string;
  /**
   * How deep the profiler searches.
   * @default SearchStrategy.RAPID
   */
  readonly searchStrategy?: SearchStrategy;
  /**
   * The hardware (required unless the operator discovers GPUs).
   * @default - discovered by the operator
   */
  readonly hardware?: RequestHardwareProps;
  /**
   * The workload.
   * @default - none (the CRD's defaults apply when given)
   */
  readonly workload?: RequestWorkloadProps;
  /**
   * The SLA targets.
   * @default - the profiler's defaults
   */
  readonly sla?: RequestSlaProps;
  /**
   * Model weights on a PersistentVolumeClaim.
   * @default - downloaded
   */
  readonly modelCache?: RequestModelCacheProps;
  /**
   * Platform features of the generated graph.
   * @default - none
   */
  readonly features?: RequestFeaturesProps;
  /**
   * Overrides of the profiling Job and the generated graph.
   * @default - none
   */
  readonly overrides?: RequestOverridesProps;
  /**
   * Deploy the generated graph once profiling is done.
   * @default true
   */
  readonly autoApply?: boolean;
  /**
   * Synthesize what the operator deploys for the request instead of the request: at synthesis the
   * Dynamo profiler is run on the request locally, as `cdk8s-dynamo plan` runs it, and the
   * DynamoGraphDeployment it generates (with the ConfigMaps the operator creates beside it) is
   * synthesized in the output mode like any graph. Needs a Python environment with the profiler
   * (docs/plan.md); a request is profiled once per process.
   * @default false
   */
  readonly plan?: boolean;
  /**
   * The Python interpreter that runs the profiler when `plan` is set.
   * @default - $CDK8S_DYNAMO_PYTHON, else python3
   */
  readonly python?: string;
}

const API_VERSION = 'nvidia.com/v1beta1';
const KIND = 'DynamoGraphDeploymentRequest';

function defined(obj: { [key: string]: unknown }): JsonObject | undefined {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) if (v !== undefined) out[k] = v as any;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** A DynamoGraphDeploymentRequest. */
export class DynamoGraphDeploymentRequest extends DynamoResource {
  private readonly document: JsonObject;
  private readonly plan: boolean;
  private readonly python?: string;

  constructor(scope: Construct, id: string, props: DynamoGraphDeploymentRequestProps) {
    super(scope, id, props);
    const metadata = this._metadata;
    const spec: JsonObject = { model: props.model };
    const set = (key: string, value: unknown) => {
      if (value !== undefined) spec[key] = copyJson(value) as any;
    };
    set('backend', props.backend);
    set('image', props.image);
    set('runtimeVersionOverride', props.runtimeVersionOverride);
    set('modelCache', props.modelCache && defined({ ...props.modelCache }));
    set('hardware', props.hardware && (defined({ ...props.hardware }) ?? {}));
    set('workload', props.workload && (defined({ ...props.workload }) ?? {}));
    set('sla', props.sla && (defined({ ...props.sla }) ?? {}));
    set('overrides', props.overrides && (defined({ ...props.overrides }) ?? {}));
    set('features', props.features && (defined({
      planner: props.features.planner,
      mocker: props.features.mocker === undefined ? undefined : { enabled: props.features.mocker },
    }) ?? {}));
    set('searchStrategy', props.searchStrategy);
    set('autoApply', props.autoApply);
    this.document = { apiVersion: API_VERSION, kind: KIND, metadata, spec };
    this.plan = props.plan ?? false;
    this.python = props.python;
    if (this.plan) this._renderIntoChildren();
    else if (this.output !== OutputMode.WORKLOADS) this._resourceObject(KIND, () => (this._renderedObjects()[0] as any).spec);
  }

  /** The request as authored, as a plain object. */
  public toJson(): any {
    return copyJson(this.document);
  }

  /**
   * @internal The request is rendered in every output: in GRAPH and COMPONENTS output as the API
   * server stores it (defaults applied), in WORKLOADS output as what the operator creates for it.
   */
  protected _synthesisInput(): { readonly document: unknown; readonly render?: RenderedOutput } {
    return { document: this.toJson(), render: this.output === OutputMode.WORKLOADS ? 'workloads' : 'graph' };
  }

  /** @internal The request's document never changes once built (while `toJson` is the library's own). */
  protected _documentTracked(): boolean {
    return this.toJson === DynamoGraphDeploymentRequest.prototype.toJson;
  }

  /**
   * @internal With `plan`: the request admitted, then what the operator deploys for it after
   * profiling (src/plan), in the output mode; a request is profiled once per process.
   */
  protected _checkAndRender(document: unknown, render: RenderedOutput | undefined): DocumentOutcome {
    if (!this.plan) return super._checkAndRender(document, render);
    return plannedOutput().plannedOutcome(document, { settings: this._settings, output: RENDERED_OUTPUT[this.output], python: this.python });
  }
}

/** The pipeline's name of each output mode. */
const RENDERED_OUTPUT: { readonly [mode in OutputMode]: RenderedOutput } = {
  [OutputMode.GRAPH]: 'graph',
  [OutputMode.COMPONENTS]: 'components',
  [OutputMode.WORKLOADS]: 'workloads',
};
