import { clique, COMPONENT_PATH, corpusGraph, describeCorpus, envOf, errorOf, GROVE_PATH, podSpecOf, render } from './support/experimental-fixtures';
import { component, IMAGE, graph as sharedGraph } from './support/graphs';

const GMS_SCRIPT = [
  'rm -f /run/gms/shared/gms_*.sock',
  'rc=1',
  'cleanup() { kill -- -$$ 2>/dev/null; exit "$rc"; }',
  'trap cleanup SIGTERM SIGINT',
  'python3 -m gpu_memory_service.cli.server &',
  'echo "Started GMS server pid=$!"',
  'wait -n',
  'rc=$?',
  'echo "GMS server exited (code=$rc), shutting down"',
  'cleanup',
].join('\n');


function find(objects: any[], kind: string, name: string): any {
  const found = objects.find(o => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`${kind}/${name} not rendered; got ${objects.map(o => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}

/** A vLLM worker with GPUs and the given experimental block (and main-container extras). */
function worker(experimental: any, main: any = {}, extra: any = {}): any {
  return component('VllmWorker', 'worker', { replicas: 1, experimental, ...extra }, {
    command: ['python3', '-m', 'dynamo.vllm'],
    args: ['--model', 'Qwen/Qwen3-0.6B'],
    resources: { limits: { 'nvidia.com/gpu': '2' }, requests: { 'nvidia.com/gpu': '2', 'memory': '8Gi' } },
    ...main,
  });
}

function graph(components: any[], metadata: any = {}): any {
  return sharedGraph(components, {}, metadata);
}

describeCorpus('docs/design/render-experimental.md §1.2.1 graph-level ResourceClaimTemplate', () => {
  test('corpus agg_gms: <graph>-<component lower-cased>-gpu asks for the main container GPUs through request "gpus"', () => {
    const objects = render(corpusGraph('examples__backends__vllm__deploy__agg_gms.yaml'), COMPONENT_PATH);
    const rct = find(objects, 'ResourceClaimTemplate', 'vllm-agg-gms-vllmworker-gpu');
    expect(rct.apiVersion).toBe('resource.k8s.io/v1');
    expect(rct.metadata.namespace).toBe('ns');
    expect(rct.spec).toEqual({
      metadata: {},
      spec: { devices: { requests: [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 1 } }] } },
    });
    expect(rct.metadata.annotations['nvidia.com/last-applied-generation']).toBe('1');
    expect(rct.metadata.annotations['nvidia.com/last-applied-hash']).toMatch(/^[0-9a-f]{64}$/);
  });

  test('created among the shared resources: after the discovery RBAC, before the DCDs (component path)', () => {
    const objects = render(corpusGraph('examples__backends__vllm__deploy__agg_gms.yaml'), COMPONENT_PATH);
    const kinds = objects.map(o => o.kind);
    const rct = kinds.indexOf('ResourceClaimTemplate');
    expect(kinds.lastIndexOf('RoleBinding')).toBeLessThan(rct);
    expect(rct).toBeLessThan(kinds.indexOf('DynamoComponentDeployment'));
  });

  test('created before the PodCliqueSet on the Grove path, for inter-pod components as well', () => {
    const objects = render(corpusGraph('examples__backends__vllm__deploy__gms-failover.yaml'), GROVE_PATH);
    const kinds = objects.map(o => o.kind);
    expect(kinds.filter(k => k === 'ResourceClaimTemplate')).toHaveLength(1);
    expect(find(objects, 'ResourceClaimTemplate', 'llm-serving-mn-agg-gpu').spec.spec.devices.requests[0].exactly.count).toBe(1);
    expect(kinds.indexOf('ResourceClaimTemplate')).toBeLessThan(kinds.indexOf('PodCliqueSet'));
  });

  test('deviceClassName and the GPU count come from the component; components without the service get none', () => {
    const objects = render(graph([
      worker({ gpuMemoryService: { deviceClassName: 'gpu.example.com' } }),
      { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
    ]), COMPONENT_PATH);
    const rcts = objects.filter(o => o.kind === 'ResourceClaimTemplate');
    expect(rcts.map(o => o.metadata.name)).toEqual(['llm-vllmworker-gpu']);
    expect(rcts[0].spec.spec.devices.requests[0].exactly).toEqual({ deviceClassName: 'gpu.example.com', allocationMode: 'ExactCount', count: 2 });
  });
});

describeCorpus('docs/design/render-experimental.md §1.3 intra-pod GPU memory service on a Deployment', () => {
  const objects = render(corpusGraph('examples__backends__vllm__deploy__agg_gms.yaml'), COMPONENT_PATH);
  const pod = podSpecOf(objects, 'vllm-agg-gms-vllmworker');
  const main = pod.containers[0];

  test('step 2: pod claim intrapod-shared-gpu from the graph-level template', () => {
    expect(pod.resourceClaims).toEqual([{ name: 'intrapod-shared-gpu', resourceClaimTemplateName: 'vllm-agg-gms-vllmworker-gpu' }]);
  });

  test('step 3: GPU scalars leave the main container, which claims the shared GPUs', () => {
    expect(main.name).toBe('main');
    expect(main.resources).toEqual({ requests: { 'ephemeral-storage': '2Gi' }, claims: [{ name: 'intrapod-shared-gpu' }] });
  });

  test('step 4: the pod tolerates GPU nodes', () => {
    expect(pod.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
  });

  test('step 5: the main container mounts the control emptyDir and names it in GMS_SOCKET_DIR', () => {
    expect(pod.volumes).toContainEqual({ name: 'gms-intrapod-control', emptyDir: {} });
    expect(main.volumeMounts).toContainEqual({ name: 'gms-intrapod-control', mountPath: '/gms-intrapod-control' });
    expect(main.env[main.env.length - 1]).toEqual({ name: 'GMS_SOCKET_DIR', value: '/gms-intrapod-control' });
  });

  test('step 6: the gms-server native sidecar runs the server with the engine image', () => {
    expect(pod.initContainers).toEqual([{
      name: 'gms-server',
      image: main.image,
      command: ['python3', '-m', 'gpu_memory_service.cli.server'],
      env: [{ name: 'GMS_SOCKET_DIR', value: '/gms-intrapod-control' }],
      resources: { claims: [{ name: 'intrapod-shared-gpu' }] },
      restartPolicy: 'Always',
      volumeMounts: [{ name: 'gms-intrapod-control', mountPath: '/gms-intrapod-control' }],
    }]);
  });

  test('the operator does not add --load-format gms for intra-pod (the example passes it itself)', () => {
    expect(main.args).toEqual(['--model', 'Qwen/Qwen3-0.6B', '--load-format', 'gms']);
  });

  test('other components are untouched', () => {
    const frontend = podSpecOf(objects, 'vllm-agg-gms-frontend');
    expect(frontend.resourceClaims).toBeUndefined();
    expect(frontend.initContainers).toBeUndefined();
  });
});

describe('docs/design/render-experimental.md §1.3 step 4 an existing GPU toleration is kept', () => {
  test('a user toleration with key nvidia.com/gpu and effect NoSchedule is not doubled', () => {
    const toleration = { key: 'nvidia.com/gpu', operator: 'Equal', value: 'present', effect: 'NoSchedule' };
    const w = worker({ gpuMemoryService: {} });
    w.podTemplate.spec.tolerations = [toleration];
    const pod = podSpecOf(render(graph([w]), COMPONENT_PATH), 'llm-vllmworker');
    expect(pod.tolerations).toEqual([toleration]);
  });
});

describe('docs/design/render-experimental.md §1.3 step 7 extra client containers', () => {
  test('each named container is wired as a client; others are not', () => {
    const w = worker({ gpuMemoryService: { extraClientContainers: ['saver'] } });
    w.podTemplate.spec.containers.push(
      { name: 'saver', image: 'saver:1', resources: { limits: { 'nvidia.com/gpu': '1', 'cpu': '1' } } },
      { name: 'logger', image: 'logger:1' },
    );
    const pod = podSpecOf(render(graph([w]), COMPONENT_PATH), 'llm-vllmworker');
    const saver = pod.containers.find((c: any) => c.name === 'saver');
    const logger = pod.containers.find((c: any) => c.name === 'logger');
    expect(saver.env).toEqual([{ name: 'GMS_SOCKET_DIR', value: '/gms-intrapod-control' }]);
    expect(saver.volumeMounts).toEqual([{ name: 'gms-intrapod-control', mountPath: '/gms-intrapod-control' }]);
    expect(saver.resources).toEqual({ limits: { cpu: '1' }, claims: [{ name: 'intrapod-shared-gpu' }] });
    expect(logger.env).toBeUndefined();
    expect(pod.volumes.filter((v: any) => v.name === 'gms-intrapod-control')).toHaveLength(1);
  });
});

describe('docs/design/render-experimental.md §1.3 step 1 the rendered pod is re-checked for client containers', () => {
  test('a client name the pod lacks is a render error naming it', () => {
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'solo' },
      spec: { backendFramework: 'vllm', ...worker({ gpuMemoryService: { extraClientContainers: ['ghost'] } }) },
    };
    const error = errorOf(() => render(dcd, COMPONENT_PATH));
    expect(error.field).toBe('spec.experimental.gpuMemoryService.extraClientContainers');
    expect(error.message).toContain('gpuMemoryService.extraClientContainers references missing pod containers ["ghost"]');
  });
});

describe('docs/design/render-experimental.md §1.2.1 standalone DCD (digest gap: the snapshot names the template after the DCD)', () => {
  test('pods claim <dcd>-<component>-gpu and no ResourceClaimTemplate is rendered', () => {
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'solo' },
      spec: { backendFramework: 'vllm', ...worker({ gpuMemoryService: {} }) },
    };
    const objects = render(dcd, COMPONENT_PATH);
    expect(objects.some(o => o.kind === 'ResourceClaimTemplate')).toBe(false);
    expect(podSpecOf(objects, 'solo').resourceClaims).toEqual([{ name: 'intrapod-shared-gpu', resourceClaimTemplateName: 'solo-vllmworker-gpu' }]);
  });
});

describeCorpus('docs/design/render-experimental.md §1.3 intra-pod GPU memory service on every pod kind', () => {
  test('Grove clique (corpus SGLang agg_gms): the same wiring inside the clique pod spec', () => {
    const objects = render(corpusGraph('examples__backends__sglang__deploy__agg_gms.yaml'), GROVE_PATH);
    const pod = clique(objects, 'decode').spec.podSpec;
    expect(pod.resourceClaims).toEqual([{ name: 'intrapod-shared-gpu', resourceClaimTemplateName: 'sglang-agg-gms-decode-gpu' }]);
    expect(pod.initContainers.map((c: any) => c.name)).toEqual(['gms-server']);
    expect(pod.containers[0].resources.claims).toEqual([{ name: 'intrapod-shared-gpu' }]);
    expect(pod.containers[0].resources.limits).toBeUndefined();
    expect(find(objects, 'ResourceClaimTemplate', 'sglang-agg-gms-decode-gpu').spec.spec.devices.requests[0].exactly.count).toBe(1);
  });

  test('LeaderWorkerSet leader and worker templates both get the claim and the sidecar', () => {
    const w = worker({ gpuMemoryService: {} }, {}, { multinode: { nodeCount: 2 } });
    const objects = render(graph([w]), { groveAvailable: false, lwsAvailable: true });
    const lws = objects.find(o => o.kind === 'LeaderWorkerSet');
    for (const template of [lws.spec.leaderWorkerTemplate.leaderTemplate, lws.spec.leaderWorkerTemplate.workerTemplate]) {
      expect(template.spec.resourceClaims).toEqual([{ name: 'intrapod-shared-gpu', resourceClaimTemplateName: 'llm-vllmworker-gpu' }]);
      expect(template.spec.initContainers.map((c: any) => c.name)).toContain('gms-server');
    }
  });
});

describe('docs/design/render-experimental.md §1.4 inter-pod GPU memory service cliques (single node, no failover)', () => {
  const objects = render(graph([worker({ gpuMemoryService: { mode: 'InterPod' } }, {}, { replicas: 3 })]), GROVE_PATH);
  const pcs = objects.find(o => o.kind === 'PodCliqueSet');

  test('a weight-server clique <c>-gms-0 then the engine clique <c>, one engine pod without failover', () => {
    expect(pcs.spec.template.cliques.map((c: any) => [c.name, c.spec.replicas, c.spec.minAvailable])).toEqual([
      ['vllmworker-gms-0', 1, 1],
      ['vllmworker', 1, 1],
    ]);
  });

  test('the component is a scaling group with its replicas, sharing the rank claim per replica', () => {
    expect(pcs.spec.template.podCliqueScalingGroups).toEqual([{
      name: 'vllmworker',
      cliqueNames: ['vllmworker-gms-0', 'vllmworker'],
      replicas: 3,
      minAvailable: 1,
      resourceSharing: [{ name: 'vllmworker-gpu-rank-0', scope: 'PerReplica', filter: { childCliqueNames: ['vllmworker-gms-0', 'vllmworker'] } }],
    }]);
  });

  test('docs/design/render-experimental.md §1.2.2 one PodCliqueSet claim template per rank, request "gpu"', () => {
    expect(pcs.spec.template.resourceClaimTemplates).toEqual([{
      name: 'vllmworker-gpu-rank-0',
      templateSpec: { metadata: {}, spec: { devices: { requests: [{ name: 'gpu', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 2 } }] } } },
    }]);
    const keys = Object.keys(pcs.spec.template);
    expect(keys.indexOf('resourceClaimTemplates')).toBe(keys.indexOf('podCliqueScalingGroups') - 1);
  });

  test('engines start after their rank\'s weight server (explicit startup order)', () => {
    expect(clique(objects, 'vllmworker').spec.startsAfter).toEqual(['vllmworker-gms-0']);
    expect(clique(objects, 'vllmworker-gms-0').spec.startsAfter).toBeUndefined();
    expect(pcs.spec.template.cliqueStartupType).toBe('CliqueStartupTypeExplicit');
  });

  test('the weight-server clique has no discovery labels; the engine clique keeps them', () => {
    expect(clique(objects, 'vllmworker-gms-0').labels['nvidia.com/dynamo-discovery-enabled']).toBeUndefined();
    expect(clique(objects, 'vllmworker-gms-0').labels['nvidia.com/dynamo-discovery-backend']).toBeUndefined();
    expect(clique(objects, 'vllmworker').labels['nvidia.com/dynamo-discovery-enabled']).toBe('true');
    expect(clique(objects, 'vllmworker').labels['nvidia.com/dynamo-failover-engine-group-member']).toBeUndefined();
  });

  test('weight-server pod: the server script, a socket-count startup probe, no other probes', () => {
    const server = clique(objects, 'vllmworker-gms-0').spec.podSpec.containers[0];
    expect(server.command).toEqual(['bash', '-c']);
    expect(server.args).toEqual([GMS_SCRIPT]);
    expect(server.startupProbe).toEqual({
      exec: { command: ['sh', '-c', 'test $(ls /run/gms/shared/gms_*.sock 2>/dev/null | wc -l) -ge 4'] },
      timeoutSeconds: 2,
      periodSeconds: 2,
      failureThreshold: 150,
    });
    expect(server.livenessProbe).toBeUndefined();
    expect(server.readinessProbe).toBeUndefined();
    expect(server.env[server.env.length - 1]).toEqual({ name: 'GMS_SOCKET_DIR', value: '/run/gms/shared' });
    expect(envOf(server).DYN_VLLM_GMS_SHADOW_MODE).toBeUndefined();
  });

  test('both pods of the rank share the host directory, fixed up by fix-gms-perms, GPUs only through the claim', () => {
    for (const name of ['vllmworker-gms-0', 'vllmworker']) {
      const pod = clique(objects, name).spec.podSpec;
      const mount = { name: 'gms-shared', mountPath: '/run/gms/shared', subPathExpr: '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)/rank-0' };
      expect(pod.volumes[pod.volumes.length - 1]).toEqual({ name: 'gms-shared', hostPath: { path: '/run/gms', type: 'DirectoryOrCreate' } });
      expect(pod.containers[0].volumeMounts[pod.containers[0].volumeMounts.length - 1]).toEqual(mount);
      expect(pod.initContainers).toEqual([{
        name: 'fix-gms-perms',
        image: IMAGE,
        command: ['sh', '-c', 'chmod 1777 /run/gms/shared'],
        resources: {},
        volumeMounts: [mount],
        securityContext: { runAsUser: 0, runAsNonRoot: false },
      }]);
      expect(pod.tolerations).toEqual([{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }]);
      expect(pod.containers[0].resources).toEqual({ requests: { memory: '8Gi' } });
      expect(pod.resourceClaims).toBeUndefined();
      expect(pod.restartPolicy).toBe('Always');
    }
  });

  test('engine pod: engine env appended, endpoint health status dropped, --load-format gms injected', () => {
    const engine = clique(objects, 'vllmworker').spec.podSpec.containers[0];
    expect(engine.env.slice(-4)).toEqual([
      { name: 'ENGINE_ID', valueFrom: { fieldRef: { fieldPath: 'metadata.labels[\'grove.io/podclique-pod-index\']' } } },
      { name: 'GMS_SOCKET_DIR', value: '/run/gms/shared' },
      { name: 'FAILOVER_LOCK_PATH', value: '/run/gms/shared/failover.lock' },
      { name: 'DYN_SYSTEM_STARTING_HEALTH_STATUS', value: 'notready' },
    ]);
    expect(envOf(engine).DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS).toBeUndefined();
    expect(envOf(engine).DYN_VLLM_GMS_SHADOW_MODE).toBeUndefined();
    expect(engine.args).toEqual(['--model', 'Qwen/Qwen3-0.6B', '--load-format', 'gms']);
  });

  test('--load-format gms already in the args is not added twice', () => {
    const given = render(graph([worker({ gpuMemoryService: { mode: 'InterPod' } }, { args: ['--load-format=gms', '--model', 'm'] })]), GROVE_PATH);
    expect(clique(given, 'vllmworker').spec.podSpec.containers[0].args).toEqual(['--load-format=gms', '--model', 'm']);
  });
});

describeCorpus('docs/design/render-experimental.md §1.4 / docs/design/render-multinode.md §4.12 inter-pod GPU memory service across nodes (corpus dgd-gms-failover)', () => {
  const objects = render(corpusGraph('deploy__operator__samples__dgd-gms-failover.yaml'), GROVE_PATH);
  const pcs = objects.find(o => o.kind === 'PodCliqueSet');

  test('per rank a weight server then the engines: rank 0 leader, rank r worker <c>-wkr-<r>', () => {
    expect(pcs.spec.template.cliques.map((c: any) => c.name)).toEqual(['agg-gms-0', 'agg-ldr', 'agg-gms-1', 'agg-wkr-1', 'frontend']);
    expect(clique(objects, 'agg-ldr').spec.startsAfter).toEqual(['agg-gms-0']);
    expect(clique(objects, 'agg-wkr-1').spec.startsAfter).toEqual(['agg-gms-1']);
  });

  test('claim templates and resource sharing per rank', () => {
    expect(pcs.spec.template.resourceClaimTemplates.map((t: any) => t.name)).toEqual(['agg-gpu-rank-0', 'agg-gpu-rank-1']);
    expect(pcs.spec.template.podCliqueScalingGroups[0].resourceSharing.map((r: any) => [r.name, r.filter.childCliqueNames])).toEqual([
      ['agg-gpu-rank-0', ['agg-gms-0', 'agg-ldr']],
      ['agg-gpu-rank-1', ['agg-gms-1', 'agg-wkr-1']],
    ]);
  });

  test('engines address the leader engine of the same pod index and use their literal rank; mounts are per rank', () => {
    const leader = clique(objects, 'agg-ldr').spec.podSpec.containers[0];
    const rank1 = clique(objects, 'agg-wkr-1').spec.podSpec.containers[0];
    const host = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-agg-ldr-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)';
    expect(leader.args.slice(leader.args.indexOf('--load-format'))).toEqual([
      '--load-format', 'gms', '--distributed-executor-backend', 'mp', '--nnodes', '2', '--master-addr', host, '--master-port', '29500', '--node-rank', '0',
    ]);
    expect(rank1.args).toContain('--node-rank');
    expect(rank1.args[rank1.args.indexOf('--node-rank') + 1]).toBe('1');
    expect(rank1.volumeMounts.find((m: any) => m.name === 'gms-shared').subPathExpr).toBe('$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)/rank-1');
  });

  test('the weight-server pods render as single-node pods (no multinode flags)', () => {
    for (const name of ['agg-gms-0', 'agg-gms-1']) {
      expect(clique(objects, name).spec.podSpec.containers[0].args).toEqual([GMS_SCRIPT]);
    }
  });
});

describe('docs/design/render-multinode.md §4.2 PodCliqueSet name budget counts the inter-pod cliques', () => {
  test('the longest clique <c>-gms-<r> shortens the budget: a 34-character graph name is truncated to 33', () => {
    const name = 'a'.repeat(34);
    const w = worker({ gpuMemoryService: { mode: 'InterPod' } }, {}, { name: 'agg', multinode: { nodeCount: 2 } });
    const pcs = render(graph([w], { name }), GROVE_PATH).find(o => o.kind === 'PodCliqueSet');
    // budget 3 + len("agg-gms-0") = 12, so 45 - 12 = 33 characters (without the weight servers it would be 35)
    expect(pcs.metadata.name).toHaveLength(33);
    expect(pcs.metadata.name.startsWith(`${name.slice(0, 28)}-`)).toBe(true);
  });
});

describeCorpus('docs/design/render-experimental.md §1.4 inter-pod GPU memory service is Grove only', () => {
  test('a graph on the component path is refused at the component', () => {
    const error = errorOf(() => render(corpusGraph('examples__backends__vllm__deploy__gms-failover.yaml'), COMPONENT_PATH));
    expect(error.field).toBe('spec.components[0].experimental.gpuMemoryService');
    expect(error.message).toContain('requires the Grove pathway');
  });

  test('a standalone DCD is refused', () => {
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'solo' },
      spec: { backendFramework: 'vllm', ...worker({ gpuMemoryService: { mode: 'InterPod' } }) },
    };
    expect(errorOf(() => render(dcd, GROVE_PATH)).field).toBe('spec.experimental.gpuMemoryService');
  });
});

describe('docs/design/render-experimental.md §3 checkpoint with the GPU memory service needs the operator checkpoint gate', () => {
  test('with checkpoint disabled in the operator, the operator\'s error names the component', () => {
    const error = errorOf(() => render(graph([worker({ gpuMemoryService: {}, checkpoint: { enabled: true } })]), COMPONENT_PATH));
    expect(error.field).toBe('spec.components[0].experimental.checkpoint');
    expect(error.message).toBe('DynamoGraphDeployment/llm: spec.components[0].experimental.checkpoint: component VllmWorker: checkpoint functionality is disabled in the operator configuration');
  });
});
