import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import {
  BackendFramework, ComponentDeployment, ComponentType, DynamoGraph, OperatorConfiguration, OperatorOptions, OutputMode,
} from '../src';
import { DEFAULT_OPERATOR_SETTINGS } from '../src/model';
import { renderDocuments } from '../src/pipeline/check-and-render';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function vllmAggregated(output: OutputMode, operator?: OperatorOptions) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'team-a' });
  const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' }, backendFramework: BackendFramework.VLLM, output, operator });
  graph.addFrontend('Frontend', { image: IMAGE });
  graph.addWorker('VllmWorker', { image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'Qwen/Qwen3-0.6B'], gpus: 1 });
  return { chart, graph };
}

const inventory = (manifests: any[]) => manifests.map(m => `${m.kind}/${m.metadata.name}`);

describe('DynamoGraph in WORKLOADS output (docs/design/render-core.md §14 object inventory)', () => {
  test('synthesizes the DCDs, Deployments, Services and RBAC objects the operator creates', () => {
    const { chart } = vllmAggregated(OutputMode.WORKLOADS);
    const names = inventory(Testing.synth(chart));
    expect(names).toEqual(expect.arrayContaining([
      'DynamoComponentDeployment/llm-frontend',
      'Deployment/llm-frontend',
      'Service/llm-frontend',
      'ServiceAccount/llm-k8s-service-discovery',
      'Role/llm-k8s-service-discovery-role',
      'RoleBinding/llm-k8s-service-discovery-binding',
      'ServiceAccount/planner-serviceaccount',
      'RoleBinding/planner-serviceaccount-binding',
    ]));
    expect(names.filter(n => /^Deployment\/llm-vllmworker-[0-9a-f]{8}$/.test(n))).toHaveLength(1);
    expect(names).not.toContain('DynamoGraphDeployment/llm');
  });

  test('synthesizes exactly what the engine renders for the same graph', () => {
    const { chart, graph } = vllmAggregated(OutputMode.WORKLOADS);
    expect(Testing.synth(chart)).toEqual(renderDocuments([graph.toJson()], { output: 'workloads' }));
  });

  test('a synthesis after addComponent reflects the new component', () => {
    const { chart, graph } = vllmAggregated(OutputMode.WORKLOADS);
    const before = inventory(Testing.synth(chart));
    graph.addPlanner('Planner', { image: IMAGE });
    const after = inventory(Testing.synth(chart));
    expect(before).not.toContain('Deployment/llm-planner');
    expect(after).toContain('Deployment/llm-planner');
    expect(after).toContain('DynamoComponentDeployment/llm-planner');
  });

  test('operator options reach the workloads (docs/design/render-core.md §8.2 ClusterRole, §6.3 NATS_SERVER)', () => {
    const { chart } = vllmAggregated(OutputMode.WORKLOADS, {
      plannerClusterRoleName: 'my-planner', natsAddress: 'nats://nats.dynamo-system:4222',
    });
    const manifests = Testing.synth(chart);
    const binding = manifests.find(m => m.kind === 'RoleBinding' && m.metadata.name === 'planner-serviceaccount-binding');
    expect(binding.roleRef.name).toBe('my-planner');
    const frontend = manifests.find(m => m.kind === 'Deployment' && m.metadata.name === 'llm-frontend');
    const main = frontend.spec.template.spec.containers.find((c: any) => c.name === 'main');
    expect(main.env).toEqual(expect.arrayContaining([{ name: 'NATS_SERVER', value: 'nats://nats.dynamo-system:4222' }]));
  });
});

describe('render errors surface as validation errors', () => {
  test('docs/design/render-multinode.md §1.2 a multinode component without LeaderWorkerSet: the error names the component construct and field', () => {
    const { chart } = vllmAggregated(OutputMode.WORKLOADS, { lwsAvailable: false });
    const graph = chart.node.findChild('Graph') as DynamoGraph;
    graph.addMultinodeWorker('BigDecode', { type: ComponentType.DECODE, multinode: { nodeCount: 2 }, image: IMAGE, args: ['--model', 'm'] });
    expect(() => Testing.synth(chart)).toThrow(
      '[test/Graph] test/Graph/BigDecode: DynamoGraphDeployment/llm: spec.components[2].multinode: '
      + 'no multinode orchestrator available');
  });

  test('docs/design/render-multinode.md §3.2 a multinode component without args: LeaderWorkerSet pods need them', () => {
    const { chart } = vllmAggregated(OutputMode.WORKLOADS);
    const graph = chart.node.findChild('Graph') as DynamoGraph;
    graph.addMultinodeWorker('BigDecode', { type: ComponentType.DECODE, multinode: { nodeCount: 2 }, image: IMAGE });
    expect(() => Testing.synth(chart)).toThrow(/spec\.podTemplate\.spec\.containers\[main\]\.args: the leader pod of a LeaderWorkerSet needs main container args, got none/);
  });

  test('docs/design/render-multinode.md §3.2 a multinode component in WORKLOADS output renders a LeaderWorkerSet', () => {
    const { chart } = vllmAggregated(OutputMode.WORKLOADS);
    const graph = chart.node.findChild('Graph') as DynamoGraph;
    graph.addMultinodeWorker('BigDecode', { type: ComponentType.DECODE, multinode: { nodeCount: 2 }, image: IMAGE, args: ['--model', 'm'] });
    const names = inventory(Testing.synth(chart));
    expect(names).toContain('ConfigMap/llm-wait-leader-script');
    expect(names.filter(n => n.startsWith('LeaderWorkerSet/llm-bigdecode-'))).toHaveLength(1);
    expect(names.filter(n => n.startsWith('Deployment/llm-bigdecode'))).toEqual([]);
  });

  test('Grove available: the graph takes the Grove provider and synthesizes a PodCliqueSet', () => {
    const { chart } = vllmAggregated(OutputMode.WORKLOADS, { groveAvailable: true });
    const names = inventory(Testing.synth(chart));
    expect(names).toContain('PodCliqueSet/llm');
    expect(names.filter(n => n.startsWith('Deployment/'))).toEqual([]);
  });

  test('a render refusal surfaces as a validation message naming the graph, not a stack', () => {
    const { chart } = vllmAggregated(OutputMode.WORKLOADS, { groveAvailable: true, kaiSchedulerAvailable: true, volcanoSchedulerAvailable: true });
    let message = '';
    try {
      Testing.synth(chart);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain('[test/Graph] test/Graph: DynamoGraphDeployment/llm: metadata.annotations: the KAI scheduler and Volcano scheduler integrations cannot both be enabled for Grove');
    expect(message).not.toMatch(/\n\s+at /);
  });

  test('COMPONENTS output reports render errors the same way', () => {
    const { chart } = vllmAggregated(OutputMode.COMPONENTS, { lwsAvailable: false });
    const graph = chart.node.findChild('Graph') as DynamoGraph;
    graph.addMultinodeWorker('BigDecode', { type: ComponentType.DECODE, multinode: { nodeCount: 2 }, image: IMAGE });
    expect(() => Testing.synth(chart)).toThrow(
      '[test/Graph] test/Graph/BigDecode: DynamoGraphDeployment/llm: spec.components[2].multinode: no multinode orchestrator available');
  });
});

describe('ComponentDeployment output', () => {
  test('WORKLOADS: the Deployment of the standalone DCD (docs/design/render-core.md §5.12)', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'team-a' });
    new ComponentDeployment(chart, 'Dcd', {
      metadata: { name: 'solo' },
      type: ComponentType.WORKER,
      backendFramework: BackendFramework.VLLM,
      image: IMAGE,
      output: OutputMode.WORKLOADS,
    });
    const names = inventory(Testing.synth(chart));
    expect(names).toContain('Deployment/solo');
    expect(names).not.toContain('DynamoComponentDeployment/solo');
  });

  test('WORKLOADS: a multinode DCD renders a LeaderWorkerSet named <dcd>-0', () => {
    const chart = new Chart(Testing.app(), 'test');
    new ComponentDeployment(chart, 'Dcd', {
      metadata: { name: 'solo' }, type: ComponentType.WORKER, image: IMAGE, args: ['--model', 'm'], multinode: { nodeCount: 2 }, output: OutputMode.WORKLOADS,
    });
    const names = inventory(Testing.synth(chart));
    expect(names).toContain('LeaderWorkerSet/solo-0');
    expect(names).not.toContain('Deployment/solo');
  });

  test('WORKLOADS: a multinode DCD without LeaderWorkerSet gets the component controller\'s fallback Deployment', () => {
    const chart = new Chart(Testing.app(), 'test');
    new ComponentDeployment(chart, 'Dcd', {
      metadata: { name: 'solo' },
      type: ComponentType.WORKER,
      image: IMAGE,
      args: ['--model', 'm'],
      multinode: { nodeCount: 2 },
      output: OutputMode.WORKLOADS,
      operator: { lwsAvailable: false },
    });
    const names = inventory(Testing.synth(chart));
    expect(names).toContain('Deployment/solo');
    expect(names).not.toContain('LeaderWorkerSet/solo-0');
  });

  test('GRAPH (default) and COMPONENTS: the DCD as authored', () => {
    for (const output of [undefined, OutputMode.COMPONENTS]) {
      const chart = new Chart(Testing.app(), 'test');
      new ComponentDeployment(chart, 'Dcd', { metadata: { name: 'solo' }, image: IMAGE, output });
      expect(inventory(Testing.synth(chart))).toEqual(['DynamoComponentDeployment/solo']);
    }
  });
});

describe('operator options: validation and rendering see the same operator', () => {
  const pinned = (operator?: OperatorOptions) => {
    const chart = new Chart(Testing.app(), 'test');
    const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'pinned' }, operator });
    graph.addFrontend('Frontend', {
      image: IMAGE,
      providerOverride: { apiVersion: 'grove.io/v1alpha1', value: { topologyConstraint: { packDomain: 'rack' } } },
    });
    return chart;
  };

  test('providerOverride needs the Grove provider (rule 82): refused without Grove, admitted with it', () => {
    expect(() => Testing.synth(pinned())).toThrow(/spec\.components\[0\]\.providerOverride \(component "Frontend"\): Forbidden: .*\(rule 82\)/);
    expect(Testing.synth(pinned({ groveAvailable: true }))).toHaveLength(1);
  });

  test('a discovery backend the operator does not support is refused at construction', () => {
    expect(() => new DynamoGraph(new Chart(Testing.app(), 'test'), 'Graph', { operator: { discoveryBackend: 'consul' } }))
      .toThrow('test/Graph: operator.discoveryBackend: Unsupported value: "consul": supported values: "kubernetes", "etcd"');
  });

  test('the version is stamped on new graphs (COMPONENTS output)', () => {
    const { chart } = vllmAggregated(OutputMode.COMPONENTS, { version: '1.4.2' });
    expect(Testing.synth(chart)[0].spec.podTemplate.metadata.annotations['nvidia.com/dynamo-operator-origin-version']).toBe('1.4.2');
  });
});

describe('OperatorConfiguration: options from the operator configuration file', () => {
  test('fromYaml maps OperatorConfiguration fields to options; other fields are ignored', () => {
    const options = OperatorConfiguration.fromYaml([
      'apiVersion: operator.config.dynamo.nvidia.com/v1alpha1',
      'kind: OperatorConfiguration',
      'operatorVersion: 1.4.2',
      'leaderElection: {enabled: true, id: dynamo.nvidia.com}',
      'orchestrators: {grove: {enabled: true}, lws: {enabled: false}}',
      'infrastructure: {natsAddress: "nats://n:4222"}',
      'registrySecrets: [{name: nvcr, registries: [nvcr.io]}]',
    ].join('\n'));
    expect(options).toEqual({
      version: '1.4.2',
      groveAvailable: true,
      // a whole OperatorConfiguration without terminationDelay: the operator's fallback
      groveTerminationDelay: '15m',
      lwsAvailable: false,
      natsAddress: 'nats://n:4222',
      registrySecrets: [{ name: 'nvcr', registries: ['nvcr.io'] }],
    });
  });

  test('fromFile reads a file; a wrong type names the file, field and value', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'operator-config-'));
    const good = path.join(dir, 'good.yaml');
    const bad = path.join(dir, 'bad.yaml');
    fs.writeFileSync(good, 'checkpoint:\n  enabled: true\n');
    fs.writeFileSync(bad, 'ingress:\n  hostSuffix: [a]\n');
    expect(OperatorConfiguration.fromFile(good)).toEqual({ checkpointEnabled: true });
    expect(() => OperatorConfiguration.fromFile(bad)).toThrow(`${bad}: ingress.hostSuffix: must be a string, got a list ["a"]`);
    expect(() => OperatorConfiguration.fromFile(path.join(dir, 'missing.yaml'))).toThrow(`${path.join(dir, 'missing.yaml')}: cannot read file: ENOENT`);
  });

  test('every operator setting is an option of the same name', () => {
    const everything = OperatorConfiguration.fromYaml([
      'operatorVersion: 1.4.0', 'registrySecrets: []', 'discovery: {backend: kubernetes}', 'namespace: {restricted: ""}',
      'orchestrators: {grove: {enabled: false, terminationDelay: 1h30m}, lws: {enabled: true}, kaiScheduler: {enabled: false}, volcanoScheduler: {enabled: false}}',
      'infrastructure: {natsAddress: "", etcdAddress: "", modelExpressURL: "", prometheusEndpoint: ""}',
      'ingress: {controllerClassName: "", controllerTLSSecretName: "", hostSuffix: "", virtualServiceGateway: ""}',
      'serviceMesh: {provider: "", istio: {tlsMode: SIMPLE, insecureSkipVerify: true, clientCertificate: "", privateKey: "", caCertificates: ""}}',
      'rbac: {plannerClusterRoleName: p, eppClusterRoleName: e}', 'mpi: {sshSecretName: s, sshSecretNamespace: ns}', 'dra: {enabled: true}',
      'checkpoint: {enabled: false, storage: {type: "", pvc: {pvcName: "", basePath: "", create: false, size: "", storageClassName: "", accessMode: ""}}}',
    ].join('\n'));
    expect(Object.keys(everything).sort()).toEqual(Object.keys(DEFAULT_OPERATOR_SETTINGS).sort());
  });
});
