import { Chart, Size, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import { Construct } from 'constructs';
import {
  BackendFramework, CheckpointConfig, CheckpointStartupPolicy, ComponentDeployment, ComponentType, DynamoGraph, EppConfig,
  Failover, GpuMemoryService, GpuSharingMode, MultinodeRoleName, OutputMode, RestartStrategyType,
} from '../src';

function chart(namespace?: string): Chart {
  return new Chart(Testing.app(), 'test', { namespace });
}

describe('DynamoGraph in graph output', () => {
  test('synthesizes one DynamoGraphDeployment with the components in order', () => {
    const c = chart('team-a');
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'llm' }, backendFramework: BackendFramework.VLLM });
    graph.addFrontend('Frontend', { image: 'img:1.4.0' });
    graph.addDecodeWorker('decode', { image: 'img:1.4.0', gpus: 2, replicas: 3 });
    const [dgd] = c.toJson();
    expect(dgd.apiVersion).toBe('nvidia.com/v1beta1');
    expect(dgd.kind).toBe('DynamoGraphDeployment');
    expect(dgd.metadata).toEqual({ name: 'llm', namespace: 'team-a' });
    expect(dgd.spec.backendFramework).toBe('vllm');
    expect(dgd.spec.components.map((x: any) => [x.name, x.type])).toEqual([['Frontend', 'frontend'], ['decode', 'decode']]);
    expect(dgd.spec.components[1].replicas).toBe(3);
    expect(dgd.spec.components[1].podTemplate.spec.containers).toEqual([
      { name: 'main', image: 'img:1.4.0', resources: { limits: { 'nvidia.com/gpu': '2' } } },
    ]);
  });

  test('the DGD is the child "Resource"', () => {
    const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
    expect(graph.node.tryFindChild('Resource')).toBeDefined();
  });

  test('high-level pod props combine with the typed pod template escape hatch', () => {
    const c = chart();
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
    const secret = kplus.Secret.fromSecretName(c, 'Hf', 'hf-token');
    graph.addWorker('worker', {
      image: 'img:1.4.0',
      command: ['python3', '-m', 'dynamo.vllm'],
      args: ['--model', 'Qwen/Qwen3-0.6B'],
      workingDir: '/workspace',
      env: {
        A: kplus.EnvValue.fromValue('1'),
        TOKEN: kplus.EnvValue.fromSecretValue({ secret, key: 'token' }),
      },
      envFrom: [kplus.Env.fromSecret(secret)],
      resources: { cpu: { request: kplus.Cpu.units(2) }, memory: { limit: Size.gibibytes(4) } },
      volumeMounts: [{ volume: kplus.Volume.fromEmptyDir(c, 'Cache', 'cache'), path: '/cache', readOnly: true }],
      podTemplate: {
        spec: {
          tolerations: [{ key: 'gpu', operator: 'Exists' }],
          containers: [
            { name: 'main', env: [{ name: 'A', value: 'old' }, { name: 'B', value: '2' }] },
            { name: 'sidecar', image: 'busybox' },
          ],
        },
      },
    });
    const component = c.toJson()[0].spec.components[0];
    expect(component.podTemplate.spec.tolerations).toEqual([{ key: 'gpu', operator: 'Exists' }]);
    const [main, sidecar] = component.podTemplate.spec.containers;
    expect(sidecar).toEqual({ name: 'sidecar', image: 'busybox' });
    expect(main.env).toEqual([
      { name: 'A', value: '1' },
      { name: 'B', value: '2' },
      { name: 'TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token', key: 'token' } } },
    ]);
    expect(main.envFrom).toEqual([{ secretRef: { name: 'hf-token' } }]);
    expect(main.resources).toEqual({ limits: { memory: '4096Mi' }, requests: { cpu: '2' } });
    expect(main.volumeMounts).toEqual([{ name: 'cache', mountPath: '/cache', readOnly: true }]);
    expect(component.podTemplate.spec.volumes).toEqual([{ name: 'cache', emptyDir: {} }]);
    expect(main.workingDir).toBe('/workspace');
  });

  test('every graph-level setting reaches the spec', () => {
    const c = chart();
    const graph = new DynamoGraph(c, 'Graph', {
      metadata: { name: 'g' },
      env: { HF_HOME: kplus.EnvValue.fromValue('/models') },
      annotations: { a: '1' },
      labels: { l: '2' },
      priorityClassName: 'high',
      topologyConstraint: { clusterTopologyName: 'ct', packDomain: 'rack' },
      restart: { id: 'r1', strategy: RestartStrategyType.SEQUENTIAL, order: ['x'] },
      kvTransferPolicy: { domain: 'zone', labelKey: 'topology.kubernetes.io/zone' },
      providerOverride: { apiVersion: 'grove.io/v1alpha1', value: { spec: {} } },
    });
    const spec = graph.toJson().spec;
    expect(spec).toEqual({
      env: [{ name: 'HF_HOME', value: '/models' }],
      annotations: { a: '1' },
      labels: { l: '2' },
      priorityClassName: 'high',
      topologyConstraint: { clusterTopologyName: 'ct', packDomain: 'rack' },
      restart: { id: 'r1', strategy: { type: 'Sequential', order: ['x'] } },
      experimental: { kvTransferPolicy: { domain: 'zone', labelKey: 'topology.kubernetes.io/zone' } },
      providerOverride: { apiVersion: 'grove.io/v1alpha1', value: { spec: {} } },
    });
  });

  test('every component-level setting reaches the component spec', () => {
    const c = chart();
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
    graph.addEpp('epp', {
      image: 'epp:1.4.0',
      eppConfig: EppConfig.fromConfig({ plugins: [], schedulingProfiles: [] }),
      sharedMemorySize: kplus.k8s.Quantity.fromString('0'),
      globalDynamoNamespace: true,
      modelRef: { name: 'Qwen/Qwen3-0.6B', revision: 'main' },
      scalingAdapter: true,
      frontendSidecar: 'fe',
      compilationCache: { pvcName: 'cache', mountPath: '/cache' },
      topologyConstraint: { packDomain: 'rack' },
      runtimeVersionOverride: '1.4.0',
      minAvailable: 1,
      providerOverride: { apiVersion: 'grove.io/v1alpha1', target: 'epp', value: {} },
      experimental: {
        gpuMemoryService: new GpuMemoryService({ mode: GpuSharingMode.INTRA_POD, deviceClassName: 'gpu.nvidia.com', extraClientContainers: ['a'] }),
        failover: new Failover({ mode: GpuSharingMode.INTRA_POD, numShadows: 1 }),
        checkpoint: CheckpointConfig.automatic({ startupPolicy: CheckpointStartupPolicy.WAIT_FOR_CHECKPOINT, jobGmsClientContainers: ['saver'] }),
        grove: { forceScalingGroup: true },
      },
    });
    const spec = graph.toJson().spec.components[0];
    expect(spec).toMatchObject({
      name: 'epp',
      type: 'epp',
      eppConfig: { config: { plugins: [], schedulingProfiles: [] } },
      sharedMemorySize: '0',
      globalDynamoNamespace: true,
      modelRef: { name: 'Qwen/Qwen3-0.6B', revision: 'main' },
      scalingAdapter: {},
      frontendSidecar: 'fe',
      compilationCache: { pvcName: 'cache', mountPath: '/cache' },
      topologyConstraint: { packDomain: 'rack' },
      runtimeVersionOverride: '1.4.0',
      minAvailable: 1,
      providerOverride: { apiVersion: 'grove.io/v1alpha1', target: 'epp', value: {} },
      experimental: {
        gpuMemoryService: { mode: 'IntraPod', deviceClassName: 'gpu.nvidia.com', extraClientContainers: ['a'] },
        failover: { mode: 'IntraPod', numShadows: 1 },
        checkpoint: { enabled: true, startupPolicy: 'WaitForCheckpoint', job: { gmsClientContainers: ['saver'] } },
        grove: { forceScalingGroup: true },
      },
    });
  });

  test('intra-pod failover through the constructs sets container discovery on the graph (rule 6)', () => {
    const c = chart();
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g', annotations: { team: 'a' } }, backendFramework: BackendFramework.VLLM });
    graph.addFrontend('fe', { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0' });
    graph.addWorker('w', {
      image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
      gpus: 1,
      experimental: { gpuMemoryService: new GpuMemoryService(), failover: new Failover() },
    });
    expect(graph.toJson().metadata.annotations).toEqual({ 'team': 'a', 'nvidia.com/dynamo-kube-discovery-mode': 'container' });
    const [dgd] = Testing.synth(c);
    expect(dgd.metadata.annotations).toEqual({ 'team': 'a', 'nvidia.com/dynamo-kube-discovery-mode': 'container' });
  });

  test('inter-pod failover needs no container discovery, and a mode the user sets is kept (and checked)', () => {
    const c = chart();
    const interPod = new DynamoGraph(c, 'InterPod', { metadata: { name: 'inter' } });
    interPod.addWorker('w', { experimental: { failover: new Failover({ mode: GpuSharingMode.INTER_POD }) } });
    expect(interPod.toJson().metadata.annotations).toBeUndefined();
    const own = new DynamoGraph(c, 'Own', { metadata: { name: 'own', annotations: { 'nvidia.com/dynamo-kube-discovery-mode': 'pod' } } });
    own.addWorker('w', { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0', experimental: { failover: new Failover() } });
    expect(own.toJson().metadata.annotations).toEqual({ 'nvidia.com/dynamo-kube-discovery-mode': 'pod' });
    expect(() => Testing.synth(c)).toThrow(/metadata\.annotations\[nvidia\.com\/dynamo-kube-discovery-mode\]: Invalid value: "pod": must be "container" when intra-pod failover is configured \(rule 6\)/);
  });

  test('EppConfig from a config map and checkpoint restore', () => {
    const c = chart();
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
    graph.addEpp('epp', { eppConfig: EppConfig.fromConfigMap(kplus.ConfigMap.fromConfigMapName(c, 'Cm', 'epp'), 'config.yaml') });
    graph.addWorker('w', { experimental: { checkpoint: CheckpointConfig.restore('snap') } });
    const [epp, w] = graph.toJson().spec.components;
    expect(epp.eppConfig).toEqual({ configMapRef: { key: 'config.yaml', name: 'epp' } });
    expect(w.experimental).toEqual({ checkpoint: { enabled: true, checkpointRef: 'snap' } });
  });

  test('multinode workers carry nodeCount and roles', () => {
    const c = chart();
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
    graph.addMultinodeWorker('prefill', {
      type: ComponentType.PREFILL,
      multinode: { nodeCount: 4, roles: [{ name: MultinodeRoleName.LEADER }, { name: MultinodeRoleName.WORKER, replicas: 3 }] },
    });
    expect(graph.toJson().spec.components[0]).toEqual({
      name: 'prefill', type: 'prefill', multinode: { nodeCount: 4 }, roles: [{ name: 'leader' }, { name: 'worker', replicas: 3 }],
    });
  });

  describe('a multinode worker without type', () => {
    test('is an aggregated worker in a graph without prefill or decode workers', () => {
      const c = chart();
      const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
      graph.addFrontend('Frontend', { image: 'i:1.4.0' });
      const worker = graph.addMultinodeWorker('big', { multinode: { nodeCount: 2 }, image: 'i:1.4.0' });
      expect(worker.type).toBe(ComponentType.WORKER);
      expect(graph.toJson().spec.components[1]).toEqual({
        name: 'big', type: 'worker', multinode: { nodeCount: 2 }, podTemplate: { spec: { containers: [{ name: 'main', image: 'i:1.4.0' }] } },
      });
      expect(() => Testing.synth(c)).not.toThrow();
    });

    test('is refused in a graph with prefill or decode workers, naming them and the choices; the graph is unchanged', () => {
      const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
      graph.addPrefillWorker('prefill', { image: 'i:1.4.0' });
      graph.addDecodeWorker('decode', { image: 'i:1.4.0' });
      expect(() => graph.addMultinodeWorker('big', { multinode: { nodeCount: 2 }, image: 'i:1.4.0' })).toThrow(
        'test/Graph/big: type: Required value: the graph has prefill or decode workers (prefill (prefill), decode (decode)), '
        + 'so a multinode worker needs its role: set type to ComponentType.PREFILL or ComponentType.DECODE, '
        + 'or to ComponentType.WORKER for an aggregated worker beside them');
      expect(graph.components.map(x => x.name)).toEqual(['prefill', 'decode']);
      expect(graph.node.tryFindChild('big')).toBeUndefined();
    });

    test('fails synthesis when a prefill or decode worker is added after it', () => {
      const c = chart();
      const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
      graph.addMultinodeWorker('big', { multinode: { nodeCount: 2 }, image: 'i:1.4.0' });
      graph.addPrefillWorker('prefill', { image: 'i:1.4.0' });
      expect(() => Testing.synth(c)).toThrow(/test\/Graph\/big: type: Required value: the graph has prefill or decode workers \(prefill \(prefill\)\)/);
    });

    test('an explicit type is kept in a disaggregated graph, whatever the order', () => {
      const c = chart();
      const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
      graph.addMultinodeWorker('agg', { type: ComponentType.WORKER, multinode: { nodeCount: 2 }, image: 'i:1.4.0' });
      graph.addPrefillWorker('prefill', { image: 'i:1.4.0' });
      graph.addMultinodeWorker('decode', { type: ComponentType.DECODE, multinode: { nodeCount: 2 }, image: 'i:1.4.0' });
      expect(graph.components.map(x => x.type)).toEqual(['worker', 'prefill', 'decode']);
      expect(() => Testing.synth(c)).not.toThrow();
    });
  });

  test('addEnv and addSidecar change the component after creation', () => {
    const c = chart();
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' } });
    const worker = graph.addWorker('w', { image: 'i:1.4.0' });
    worker.addEnv('X', kplus.EnvValue.fromValue('y'));
    worker.addSidecar({ name: 'log', image: 'busybox' });
    graph.addEnv('G', kplus.EnvValue.fromValue('1'));
    const spec = c.toJson()[0].spec;
    expect(spec.env).toEqual([{ name: 'G', value: '1' }]);
    expect(spec.components[0].podTemplate.spec.containers).toEqual([
      { name: 'main', image: 'i:1.4.0', env: [{ name: 'X', value: 'y' }] },
      { name: 'log', image: 'busybox' },
    ]);
  });

  test('synthesis is byte-identical across runs', () => {
    const build = () => {
      const app = Testing.app();
      const c = new Chart(app, 'test');
      const graph = new DynamoGraph(c, 'Graph', { output: OutputMode.COMPONENTS, backendFramework: BackendFramework.VLLM });
      graph.addFrontend('Frontend', { image: 'i:1.4.0' });
      graph.addWorker('w', { image: 'i:1.4.0', gpus: 1 });
      return app.synthYaml();
    };
    expect(build()).toBe(build());
  });
});

describe('eager checks name the construct, field, value and rule', () => {
  test.each([
    [{ name: 'bad_name' }, 'test/Graph/x: name: Invalid value: "bad_name": must be 1-63 characters matching'],
    [{ replicas: -1 }, 'test/Graph/x: replicas: Invalid value: -1: must be an integer greater than or equal to 0'],
    [{ minAvailable: 0 }, 'test/Graph/x: minAvailable: Invalid value: 0: must be an integer greater than or equal to 1'],
    [{ gpus: 1.5 }, 'test/Graph/x: gpus: Invalid value: 1.5: must be an integer greater than or equal to 0'],
  ])('%j', (props, message) => {
    const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
    expect(() => graph.addComponent('x', props as any)).toThrow(message);
  });

  test('multinode nodeCount below 2', () => {
    const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
    expect(() => graph.addMultinodeWorker('x', { multinode: { nodeCount: 1 } }))
      .toThrow('test/Graph/x: multinode.nodeCount: Invalid value: 1: must be an integer greater than or equal to 2');
  });
});

describe('components are parts of their graph, not constructs', () => {
  test('the construct tree holds the graph and what it synthesizes, not its components', () => {
    const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
    const frontend = graph.addFrontend('Frontend', { image: 'img:1.4.0' });
    graph.addWorker('worker', { image: 'img:1.4.0' });
    expect(graph.node.findAll().map(c => c.node.path)).toEqual(['test/Graph', 'test/Graph/Resource']);
    expect(frontend).not.toBeInstanceOf(Construct);
    expect(graph.components.map(c => c.name)).toEqual(['Frontend', 'worker']);
  });

  test('an id is unique in its graph: a second one throws and leaves the graph as it was', () => {
    const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
    graph.addFrontend('Frontend', { image: 'img:1.4.0' });
    expect(() => graph.addComponent('Frontend', { name: 'other', image: 'img:1.4.0' }))
      .toThrow('test/Graph: component id: Duplicate value: "Frontend": the graph already has a component of this id');
    expect(graph.components.map(c => c.name)).toEqual(['Frontend']);
    expect(graph.toJson().spec.components).toHaveLength(1);
  });

  test.each([[''], ['a/b']])('id %j is refused', id => {
    const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
    expect(() => graph.addComponent(id, { name: 'x' }))
      .toThrow(`test/Graph: component id: Invalid value: ${JSON.stringify(id)}: must be a non-empty string without "/"`);
    expect(graph.components).toEqual([]);
  });

  test('a refused component is not added (its props are checked before it joins the graph)', () => {
    const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
    expect(() => graph.addComponent('x', { replicas: -1 })).toThrow(/replicas/);
    expect(graph.components).toEqual([]);
    graph.addComponent('x', { replicas: 1 });
    expect(graph.components.map(c => c.name)).toEqual(['x']);
  });

  test('a problem found at synthesis names the component by its path (the graph\'s and its id)', () => {
    const c = chart();
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'g' }, backendFramework: BackendFramework.VLLM });
    graph.addFrontend('Frontend', { image: 'img:1.4.0' });
    graph.addMultinodeWorker('untyped', { image: 'img:1.4.0', multinode: { nodeCount: 2 } });
    graph.addDecodeWorker('decode', { image: 'img:1.4.0' });
    expect(() => Testing.synth(c)).toThrow(/\[test\/Graph\] test\/Graph\/untyped: type: Required value: the graph has prefill or decode workers \(decode \(decode\)\)/);
  });
});

describe('ComponentDeployment', () => {
  test('synthesizes a standalone DCD with backendFramework inlined', () => {
    const c = chart('ns');
    new ComponentDeployment(c, 'Worker', {
      metadata: { name: 'my-worker' },
      backendFramework: BackendFramework.VLLM,
      type: ComponentType.WORKER,
      replicas: 1,
      image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
    });
    expect(c.toJson()).toEqual([{
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'my-worker', namespace: 'ns' },
      spec: {
        backendFramework: 'vllm',
        type: 'worker',
        replicas: 1,
        podTemplate: { spec: { containers: [{ name: 'main', image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0' }] } },
      },
    }]);
  });
});

describe('import', () => {
  const graphDoc = (spec: any) => ({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata: { name: 'g' }, spec });

  test('an unknown field is an error, not silent loss', () => {
    expect(() => DynamoGraph.fromObject(chart(), 'G', graphDoc({ components: [{ name: 'w', replica: 2 }] })))
      .toThrow(/DynamoGraphDeployment\/g: cannot import:\n.*spec\.components\[0\]\.replica \(component "w"\): .*unknown field/);
  });

  test('a value of the wrong type is an error', () => {
    expect(() => DynamoGraph.fromObject(chart(), 'G', graphDoc({ components: [{ name: 'w', replicas: 'two' }] })))
      .toThrow(/spec\.components\[0\]\.replicas/);
  });

  test('another kind is an error', () => {
    expect(() => DynamoGraph.fromObject(chart(), 'G', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' } }))
      .toThrow('ConfigMap/c: expected apiVersion nvidia.com/v1beta1 and kind DynamoGraphDeployment, got v1 ConfigMap');
  });

  test('fromYaml picks the graph among other documents and keeps it as written', () => {
    const c = chart();
    const graph = DynamoGraph.fromYaml(c, 'G', [
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}',
      'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: g}\nspec:\n  components:\n  - {name: f, type: frontend}',
    ].join('\n---\n'));
    expect(graph.toJson().spec).toEqual({ components: [{ name: 'f', type: 'frontend' }] });
    expect(graph.components.map(x => x.name)).toEqual(['f']);
  });

  test('server-managed metadata cannot be imported', () => {
    expect(() => DynamoGraph.fromObject(chart(), 'G', { ...graphDoc({}), metadata: { name: 'g', uid: 'x' } }))
      .toThrow('DynamoGraphDeployment/g: metadata: cannot import server-managed or unknown fields: uid');
  });

  test('ComponentDeployment.fromYaml keeps a DCD as written', () => {
    const dcd = ComponentDeployment.fromYaml(chart(), 'D',
      'apiVersion: nvidia.com/v1beta1\nkind: DynamoComponentDeployment\nmetadata: {name: d}\nspec: {backendFramework: vllm, type: worker}');
    expect(dcd.toJson()).toEqual({
      apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'd' }, spec: { backendFramework: 'vllm', type: 'worker' },
    });
  });
});
