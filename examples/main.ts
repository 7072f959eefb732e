/**
 * Example app: five Dynamo graphs authored in code; the last one synthesizes the Kubernetes objects
 * the operator would create for it (workloads output) instead of the custom resource.
 *
 *   cd examples && npx cdk8s synth --output dist
 */
import { App, Chart, ChartProps } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import { Construct } from 'constructs';
import {
  BackendFramework, ComponentOptions, ComponentType, DynamoGraph, Failover, GpuMemoryService, GpuSharingMode, MultinodeRoleName,
  OutputMode, SynthesisOptions,
} from '../src';

const VLLM_IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const SGLANG_IMAGE = 'nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0';
const PLANNER_IMAGE = 'nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.4.0';
const MODEL = 'Qwen/Qwen3-0.6B';

/** The Hugging Face token secret every worker reads, by reference only. */
function hfTokenSecret(scope: Construct): kplus.ISecret {
  return kplus.Secret.fromSecretName(scope, 'HfToken', 'hf-token-secret');
}

/** The frontend and GPU worker of vLLM aggregated serving. */
function addVllmAggregatedComponents(graph: DynamoGraph, scope: Construct): void {
  graph.addFrontend('Frontend', { image: VLLM_IMAGE });
  graph.addWorker('VllmWorker', {
    image: VLLM_IMAGE,
    command: ['python3', '-m', 'dynamo.vllm'],
    args: ['--model', MODEL],
    envFrom: [kplus.Env.fromSecret(hfTokenSecret(scope))],
    gpus: 1,
    workingDir: '/workspace/examples/backends/vllm',
  });
}

/** vLLM aggregated serving: one frontend, one GPU worker. */
export class VllmAggregated extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    const graph = new DynamoGraph(this, 'Graph', {
      metadata: { name: 'vllm-agg' },
      backendFramework: BackendFramework.VLLM,
    });
    addVllmAggregatedComponents(graph, this);
  }
}

/**
 * The same vLLM aggregated graph in workloads output: the DynamoComponentDeployments, Deployments,
 * Services, service accounts and RBAC objects the operator creates for it, for an operator installed
 * with `helm install dynamo-platform ... --namespace dynamo-system` (bundled NATS) and an `nvcr.io`
 * pull secret in the workload namespace.
 */
export class VllmAggregatedWorkloads extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, { namespace: 'llm', ...props });
    const graph = new DynamoGraph(this, 'Graph', {
      metadata: { name: 'vllm-agg' },
      backendFramework: BackendFramework.VLLM,
      output: OutputMode.WORKLOADS,
      operator: {
        natsAddress: 'nats://dynamo-platform-nats.dynamo-system.svc.cluster.local:4222',
        registrySecrets: [{ name: 'nvcr-imagepullsecret', registries: ['nvcr.io'] }],
      },
    });
    addVllmAggregatedComponents(graph, this);
  }
}

/** vLLM disaggregated serving: frontend, planner, prefill and decode workers. */
export class VllmDisaggregated extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    const graph = new DynamoGraph(this, 'Graph', {
      metadata: { name: 'vllm-disagg-planner' },
      backendFramework: BackendFramework.VLLM,
    });
    graph.addFrontend('Frontend', { image: VLLM_IMAGE });
    graph.addPlanner('Planner', {
      image: PLANNER_IMAGE,
      command: ['python3', '-m', 'dynamo.planner'],
      args: ['--config', JSON.stringify({ environment: 'kubernetes', backend: 'vllm', optimization_target: 'sla' })],
    });
    const kvTransfer = JSON.stringify({ kv_connector: 'NixlConnector', kv_role: 'kv_both' });
    const hfToken = kplus.Env.fromSecret(hfTokenSecret(this));
    const worker = (mode: string): ComponentOptions => ({
      image: VLLM_IMAGE,
      command: ['python3'],
      args: ['-m', 'dynamo.vllm', '--model', MODEL, '--disaggregation-mode', mode, '--kv-transfer-config', kvTransfer],
      envFrom: [hfToken],
      gpus: 1,
    });
    graph.addPrefillWorker('VllmPrefillWorker', worker('prefill'));
    graph.addDecodeWorker('VllmDecodeWorker', worker('decode'));
  }
}

/** SGLang disaggregated serving with prefill and decode each spanning two nodes. */
function sglangMultinodeGraph(scope: Construct, synthesis: SynthesisOptions = {}): DynamoGraph {
  const graph = new DynamoGraph(scope, 'Graph', {
    ...synthesis,
    metadata: { name: 'sglang-disagg-multinode' },
    backendFramework: BackendFramework.SGLANG,
    env: { HF_TOKEN: kplus.EnvValue.fromSecretValue({ secret: hfTokenSecret(scope), key: 'HF_TOKEN' }) },
  });
  graph.addFrontend('Frontend', { image: SGLANG_IMAGE });
  for (const [mode, type] of [['prefill', ComponentType.PREFILL], ['decode', ComponentType.DECODE]] as const) {
    graph.addMultinodeWorker(mode, {
      type,
      multinode: { nodeCount: 2, roles: [{ name: MultinodeRoleName.LEADER }, { name: MultinodeRoleName.WORKER }] },
      image: SGLANG_IMAGE,
      command: ['python3', '-m', 'dynamo.sglang'],
      args: ['--model-path', MODEL, '--tp-size', '16', '--disaggregation-mode', mode, '--disaggregation-transfer-backend', 'nixl'],
      gpus: 8,
    });
  }
  return graph;
}

/** The SGLang multinode graph as authored. */
export class SglangMultinode extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    sglangMultinodeGraph(this);
  }
}

/**
 * The SGLang multinode graph expanded for an operator with Grove: one PodCliqueSet (a leader and a
 * worker clique per multinode component in a scaling group), the Services and RBAC next to it.
 */
export class SglangMultinodeGroveWorkloads extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    sglangMultinodeGraph(this, { output: OutputMode.WORKLOADS, operator: { groveAvailable: true, restrictedNamespace: 'dynamo' } });
  }
}

/**
 * vLLM with the GPU memory service and intra-pod failover (a standby engine per GPU set). The graph
 * gets the container-level discovery annotation intra-pod failover needs from the failover prop.
 */
function vllmGmsFailoverGraph(scope: Construct, synthesis: SynthesisOptions = {}): DynamoGraph {
  const graph = new DynamoGraph(scope, 'Graph', {
    ...synthesis,
    metadata: { name: 'vllm-gms-failover' },
    backendFramework: BackendFramework.VLLM,
  });
  graph.addFrontend('Frontend', { image: VLLM_IMAGE });
  graph.addWorker('Worker', {
    image: VLLM_IMAGE,
    command: ['python3', '-m', 'dynamo.vllm'],
    args: ['--model', MODEL, '--gpu-memory-utilization', '0.85'],
    envFrom: [kplus.Env.fromSecret(hfTokenSecret(scope))],
    gpus: 1,
    experimental: {
      gpuMemoryService: new GpuMemoryService({ mode: GpuSharingMode.INTRA_POD }),
      failover: new Failover({ mode: GpuSharingMode.INTRA_POD }),
    },
  });
  return graph;
}

/** The GPU memory service + failover graph as authored. */
export class VllmGmsFailover extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    vllmGmsFailoverGraph(this);
  }
}

/**
 * The GPU memory service + failover graph expanded: the DRA ResourceClaimTemplate, the worker
 * Deployment whose pod claims the GPUs once and runs the GMS sidecar and two engines.
 */
export class VllmGmsFailoverWorkloads extends Chart {
  constructor(scope: Construct, id: string, props: ChartProps = {}) {
    super(scope, id, props);
    vllmGmsFailoverGraph(this, { output: OutputMode.WORKLOADS, operator: { restrictedNamespace: 'dynamo' } });
  }
}

const app = new App();
new VllmAggregated(app, 'vllm-agg');
new VllmDisaggregated(app, 'vllm-disagg');
new SglangMultinode(app, 'sglang-multinode');
new SglangMultinodeGroveWorkloads(app, 'sglang-multinode-grove-workloads');
new VllmGmsFailover(app, 'vllm-gms-failover');
new VllmGmsFailoverWorkloads(app, 'vllm-gms-failover-workloads');
new VllmAggregatedWorkloads(app, 'vllm-agg-workloads');
app.synth();
