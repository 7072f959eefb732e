import { clique, COMPONENT_PATH, corpusGraph, describeCorpus, envOf, errorOf, GROVE_PATH, podSpecOf, render } from './support/experimental-fixtures';
import { component, IMAGE, graph as sharedGraph } from './support/graphs';

const CONTAINER_DISCOVERY = { annotations: { 'nvidia.com/dynamo-kube-discovery-mode': 'container' } };

function envNames(container: any): string[] {
  return (container.env ?? []).map((e: any) => e.name);
}

/** A worker with GPUs, the given experimental block and main-container fields. */
function worker(experimental: any, main: any = {}, extra: any = {}): any {
  return component('VllmWorker', 'worker', { replicas: 1, experimental, ...extra }, {
    command: ['python3', '-m', 'dynamo.vllm'],
    args: ['--model', 'Qwen/Qwen3-0.6B'],
    resources: { limits: { 'nvidia.com/gpu': '1' } },
    ...main,
  });
}

function graph(components: any[], backendFramework = 'vllm'): any {
  return sharedGraph(components, { backendFramework }, CONTAINER_DISCOVERY);
}

const INTRA = { gpuMemoryService: {}, failover: {} };

describeCorpus('docs/design/render-experimental.md §2.2 intra-pod failover: the engine is cloned into engine-0 and engine-1 (corpus agg_failover)', () => {
  const objects = render(corpusGraph('examples__backends__vllm__deploy__agg_failover.yaml'), COMPONENT_PATH);
  const pod = podSpecOf(objects, 'vllm-agg-failover-vllmworker');
  const [engine0, engine1] = pod.containers;

  test('main is replaced by the two engines', () => {
    expect(pod.containers.map((c: any) => c.name)).toEqual(['engine-0', 'engine-1']);
  });

  test('each engine has exactly its own system port', () => {
    expect(engine0.ports).toEqual([{ name: 'system-0', containerPort: 9090, protocol: 'TCP' }]);
    expect(engine1.ports).toEqual([{ name: 'system-1', containerPort: 9091, protocol: 'TCP' }]);
  });

  test('per-engine env replaces the system, health, container-name and forward-pass settings', () => {
    for (const [i, engine] of [engine0, engine1].entries()) {
      const env = envOf(engine);
      expect(env).toMatchObject({
        ENGINE_ID: String(i),
        CONTAINER_NAME: `engine-${i}`,
        FAILOVER_LOCK_PATH: '/gms-intrapod-control/failover.lock',
        DYN_SYSTEM_STARTING_HEALTH_STATUS: 'notready',
        DYN_SYSTEM_PORT: String(9090 + i),
        DYN_SYSTEM_ENABLED: 'true',
        DYN_FORWARDPASS_METRIC_PORT: String(20380 + i),
      });
      expect(env.DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS).toBeUndefined();
      expect(env.DYN_HEALTH_CHECK_ENABLED).toBeUndefined();
      for (const name of ['CONTAINER_NAME', 'DYN_SYSTEM_PORT', 'DYN_SYSTEM_ENABLED']) {
        expect(envNames(engine).filter(n => n === name)).toHaveLength(1);
      }
    }
  });

  test('the failover env follows the intra-pod GPU memory service wiring, in the operator order', () => {
    const names = envNames(engine1);
    expect(names.slice(names.indexOf('GMS_SOCKET_DIR'))).toEqual([
      'GMS_SOCKET_DIR', 'ENGINE_ID', 'CONTAINER_NAME', 'FAILOVER_LOCK_PATH', 'DYN_SYSTEM_STARTING_HEALTH_STATUS', 'DYN_SYSTEM_PORT',
      'DYN_SYSTEM_ENABLED', 'DYN_FORWARDPASS_METRIC_PORT', 'DYN_VLLM_GMS_SHADOW_MODE', 'VLLM_NIXL_SIDE_CHANNEL_PORT', 'DYN_VLLM_KV_EVENT_PORT',
    ]);
  });

  test('HTTP probes target the engine\'s named port', () => {
    for (const [i, engine] of [engine0, engine1].entries()) {
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
        expect(engine[probe].httpGet.port).toBe(`system-${i}`);
      }
    }
  });

  test('both engines inherit the shared GPU claim and the control mount; one gms-server sidecar serves them', () => {
    for (const engine of [engine0, engine1]) {
      expect(engine.resources.claims).toEqual([{ name: 'intrapod-shared-gpu' }]);
      expect(engine.volumeMounts).toContainEqual({ name: 'gms-intrapod-control', mountPath: '/gms-intrapod-control' });
    }
    expect(pod.initContainers.map((c: any) => c.name)).toEqual(['gms-server']);
  });
});

describeCorpus('docs/design/render-experimental.md §2.3 vLLM engine settings [S]', () => {
  test('shadow mode and staggered NIXL side-channel and KV-event ports (corpus agg_failover)', () => {
    const pod = podSpecOf(render(corpusGraph('examples__backends__vllm__deploy__agg_failover.yaml'), COMPONENT_PATH), 'vllm-agg-failover-vllmworker');
    for (const [i, engine] of pod.containers.entries()) {
      expect(envOf(engine)).toMatchObject({
        DYN_VLLM_GMS_SHADOW_MODE: 'true', VLLM_NIXL_SIDE_CHANNEL_PORT: String(5600 + i), DYN_VLLM_KV_EVENT_PORT: String(20080 + i),
      });
      expect(envOf(engine).NNODES).toBeUndefined();
    }
  });

  test('engine-1 gets --master-port 29600 appended when no master port is given', () => {
    const pod = podSpecOf(render(corpusGraph('examples__backends__vllm__deploy__agg_failover.yaml'), COMPONENT_PATH), 'vllm-agg-failover-vllmworker');
    expect(pod.containers[0].args).not.toContain('--master-port');
    expect(pod.containers[1].args.slice(-2)).toEqual(['--master-port', '29600']);
  });

  test('a --master-port arg pair is moved by 100 on engine-1', () => {
    const pod = podSpecOf(render(graph([worker(INTRA, { args: ['--model', 'm', '--master-port', '31000'] })]), COMPONENT_PATH), 'llm-vllmworker');
    expect(pod.containers[0].args).toEqual(['--model', 'm', '--master-port', '31000']);
    expect(pod.containers[1].args).toEqual(['--model', 'm', '--master-port', '31100']);
  });

  test('a --master-port inside a shell string is moved by 100 on engine-1', () => {
    const main = { command: ['/bin/sh', '-c'], args: ['python3 -m dynamo.vllm --model m --master-port 31000 --enforce-eager'] };
    const pod = podSpecOf(render(graph([worker(INTRA, main)]), COMPONENT_PATH), 'llm-vllmworker');
    expect(pod.containers[1].args).toEqual(['python3 -m dynamo.vllm --model m --master-port 31100 --enforce-eager']);
  });

  test('multinode engines (Grove leader and worker cliques) get NNODES', () => {
    const objects = render(graph([worker(INTRA, {}, { multinode: { nodeCount: 2 } })]), GROVE_PATH);
    for (const name of ['vllmworker-ldr', 'vllmworker-wkr']) {
      const pod = clique(objects, name).spec.podSpec;
      expect(pod.containers.map((c: any) => c.name)).toEqual(['engine-0', 'engine-1']);
      for (const engine of pod.containers) expect(envOf(engine).NNODES).toBe('2');
    }
  });
});

describe('docs/design/render-experimental.md §2.2 intra-pod failover across nodes on LeaderWorkerSet (digest silent)', () => {
  test('refused: the component controller requires a container named main in LeaderWorkerSet pods', () => {
    const error = errorOf(() => render(graph([worker(INTRA, {}, { multinode: { nodeCount: 2 } })]), { groveAvailable: false, lwsAvailable: true }));
    expect(error.message).toContain('needs a main container');
  });
});

describe('docs/design/render-experimental.md §2.2 other containers stay after the engines', () => {
  test('a user sidecar and the frontend sidecar follow engine-0 and engine-1, unchanged', () => {
    const w = worker(INTRA, {}, { frontendSidecar: 'fe' });
    w.podTemplate.spec.containers.push({ name: 'logger', image: 'logger:1' }, { name: 'fe', image: IMAGE });
    const pod = podSpecOf(render(graph([w]), COMPONENT_PATH), 'llm-vllmworker');
    expect(pod.containers.map((c: any) => c.name)).toEqual(['engine-0', 'engine-1', 'logger', 'fe']);
    expect(envOf(pod.containers[3]).ENGINE_ID).toBeUndefined();
    expect(pod.containers[2]).toEqual({ name: 'logger', image: 'logger:1', resources: {} });
  });
});

describeCorpus('docs/design/render-experimental.md §2.2 intra-pod failover on a Grove clique', () => {
  test('corpus agg_failover on the Grove path: the clique pod carries both engines', () => {
    const objects = render(corpusGraph('examples__backends__vllm__deploy__agg_failover.yaml'), GROVE_PATH);
    const pod = clique(objects, 'vllmworker').spec.podSpec;
    expect(pod.containers.map((c: any) => c.name)).toEqual(['engine-0', 'engine-1']);
    expect(pod.resourceClaims).toEqual([{ name: 'intrapod-shared-gpu', resourceClaimTemplateName: 'vllm-agg-failover-vllmworker-gpu' }]);
    expect(clique(objects, 'vllmworker').labels['nvidia.com/dynamo-failover-engine-group-member']).toBeUndefined();
  });
});

describe('docs/design/render-experimental.md §2.3 the snapshot controller supports failover for vLLM only', () => {
  test('SGLang is refused with the operator message', () => {
    const w = worker(INTRA, { command: ['python3', '-m', 'dynamo.sglang'], args: ['--model-path', 'm'] });
    const error = errorOf(() => render(graph([w], 'sglang'), COMPONENT_PATH));
    expect(error.field).toBe('spec.experimental.failover');
    expect(error.message).toContain('failover is currently supported only for vLLM (detected: sglang)');
  });

  test('TensorRT-LLM is refused on the Grove path too', () => {
    const w = worker(INTRA, { command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model-path', 'm'] });
    const error = errorOf(() => render(graph([w], 'trtllm'), GROVE_PATH));
    expect(error.message).toContain('failover is currently supported only for vLLM (detected: trtllm)');
  });
});

describeCorpus('docs/design/render-experimental.md §2.4 inter-pod failover (corpus gms-failover, single node)', () => {
  const objects = render(corpusGraph('examples__backends__vllm__deploy__gms-failover.yaml'), GROVE_PATH);
  const engines = clique(objects, 'agg');
  const server = clique(objects, 'agg-gms-0');

  test('engine clique replicas are 1 + numShadows, gang threshold 1', () => {
    expect(engines.spec.replicas).toBe(2);
    expect(engines.spec.minAvailable).toBe(1);
    expect(server.spec.replicas).toBe(1);
  });

  test('engine cliques are failover engine-group members; the weight server is not', () => {
    expect(engines.labels['nvidia.com/dynamo-failover-engine-group-member']).toBe('true');
    expect(server.labels['nvidia.com/dynamo-failover-engine-group-member']).toBeUndefined();
  });

  test('engine pods never restart in place; the weight server keeps the default', () => {
    expect(engines.spec.podSpec.restartPolicy).toBe('Never');
    expect(server.spec.podSpec.restartPolicy).toBe('Always');
  });

  test('vLLM shadow mode right after the sorted env block, on engines and (rendered through the same hook) the weight server', () => {
    const engineEnv = envNames(engines.spec.podSpec.containers[0]);
    expect(engineEnv.slice(engineEnv.indexOf('DYN_VLLM_GMS_SHADOW_MODE'))).toEqual([
      'DYN_VLLM_GMS_SHADOW_MODE', 'ENGINE_ID', 'GMS_SOCKET_DIR', 'FAILOVER_LOCK_PATH', 'DYN_SYSTEM_STARTING_HEALTH_STATUS',
    ]);
    const serverEnv = envNames(server.spec.podSpec.containers[0]);
    expect(serverEnv.slice(-2)).toEqual(['DYN_VLLM_GMS_SHADOW_MODE', 'GMS_SOCKET_DIR']);
    expect(engines.spec.podSpec.containers[0].args.slice(-2)).toEqual(['--load-format', 'gms']);
  });

  test('the engines are single-container pods (no intra-pod cloning)', () => {
    expect(engines.spec.podSpec.containers.map((c: any) => c.name)).toEqual(['main']);
    expect(engines.spec.podSpec.initContainers.map((c: any) => c.name)).toEqual(['fix-gms-perms']);
  });
});

describe('docs/design/render-experimental.md §2.4 shadow mode precedes what the vLLM hook appends later', () => {
  test('with a compilation cache, DYN_VLLM_GMS_SHADOW_MODE comes before VLLM_CACHE_ROOT', () => {
    const w = worker({ gpuMemoryService: { mode: 'InterPod' }, failover: { mode: 'InterPod', numShadows: 2 } }, {}, { compilationCache: { pvcName: 'cache' } });
    const objects = render(graph([w]), GROVE_PATH);
    const engines = clique(objects, 'vllmworker');
    expect(engines.spec.replicas).toBe(3);
    const names = envNames(engines.spec.podSpec.containers[0]);
    expect(names.slice(names.indexOf('DYN_VLLM_GMS_SHADOW_MODE'), names.indexOf('DYN_VLLM_GMS_SHADOW_MODE') + 3))
      .toEqual(['DYN_VLLM_GMS_SHADOW_MODE', 'VLLM_CACHE_ROOT', 'ENGINE_ID']);
  });
});

describeCorpus('docs/design/render-experimental.md §2.4 inter-pod failover across nodes (corpus dgd-gms-failover)', () => {
  const objects = render(corpusGraph('deploy__operator__samples__dgd-gms-failover.yaml'), GROVE_PATH);

  test('every rank\'s engines are replicated, grouped for failover, and keep a gang threshold of 1', () => {
    for (const name of ['agg-ldr', 'agg-wkr-1']) {
      const c = clique(objects, name);
      expect([c.spec.replicas, c.spec.minAvailable]).toEqual([2, 1]);
      expect(c.labels['nvidia.com/dynamo-failover-engine-group-member']).toBe('true');
      expect(c.spec.podSpec.restartPolicy).toBe('Never');
    }
  });

  test('shadow mode precedes the mp executor\'s NIXL side-channel host', () => {
    const names = envNames(clique(objects, 'agg-ldr').spec.podSpec.containers[0]);
    expect(names.indexOf('VLLM_NIXL_SIDE_CHANNEL_HOST')).toBe(names.indexOf('DYN_VLLM_GMS_SHADOW_MODE') + 1);
  });
});
