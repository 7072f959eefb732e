/**
 * GPUs per node through DRA claims, end to end (docs/design/render-multinode.md §2.3): the ResourceClaimTemplate
 * and DeviceClass the operator reads from the cluster come from the input documents.
 */
import { parseAllDocuments } from 'yaml';
import { runCliOn } from './support/cli-in-process';
import { render as renderChecked } from './support/facade';

const IMAGE = 'registry.example/dynamo-worker:1.4.0';

const deviceClass = {
  apiVersion: 'resource.k8s.io/v1',
  kind: 'DeviceClass',
  metadata: { name: 'gpu.nvidia.com' },
  spec: { selectors: [{ cel: { expression: "device.driver == 'gpu.nvidia.com'" } }] },
};

function claimTemplate(count: number, namespace?: string): any {
  return {
    apiVersion: 'resource.k8s.io/v1',
    kind: 'ResourceClaimTemplate',
    metadata: { name: 'gpus-4', ...(namespace ? { namespace } : {}) },
    spec: { spec: { devices: { requests: [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', count } }] } } },
  };
}

/** The main container and pod spec of a worker that asks for its GPUs through the claim `gpus`. */
const claimingPod = (framework: string) => ({
  spec: {
    containers: [{
      name: 'main',
      image: IMAGE,
      command: ['python3', '-m', `dynamo.${framework}`],
      args: ['--model', 'm', '--tensor-parallel-size', '8'],
      resources: { claims: [{ name: 'gpus' }] },
    }],
    resourceClaims: [{ name: 'gpus', resourceClaimTemplateName: 'gpus-4' }],
  },
});

function graph(framework: string, annotations: Record<string, string> = {}): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: 'prod', annotations },
    spec: {
      backendFramework: framework,
      components: [{ name: 'decode', type: 'decode', replicas: 1, multinode: { nodeCount: 2 }, podTemplate: claimingPod(framework) }],
    },
  };
}

function standaloneDcd(framework: string): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'decode', namespace: 'prod' },
    spec: { backendFramework: framework, name: 'decode', type: 'decode', replicas: 1, multinode: { nodeCount: 2 }, podTemplate: claimingPod(framework) },
  };
}

const render = (docs: unknown[], operator = {}): any[] => renderChecked(docs, { settings: operator });
const lwsOf = (objects: any[]) => objects.find(o => o.kind === 'LeaderWorkerSet');
const leaderMain = (objects: any[]) => lwsOf(objects).spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0];

describe('docs/design/render-multinode.md §2.3 GPU count through DRA objects of the input', () => {
  test('TensorRT-LLM on LeaderWorkerSet: mpirun over 2 nodes × 4 claimed GPUs', () => {
    const objects = render([graph('trtllm'), claimTemplate(4, 'prod'), deviceClass]);
    expect(leaderMain(objects).args[0]).toContain('--oversubscribe -n 8 -H ');
  });

  test('the ResourceClaimTemplate is written out (an object of the app), the DeviceClass is not (cluster state)', () => {
    const rct = claimTemplate(4, 'prod');
    const objects = render([graph('trtllm'), rct, deviceClass]);
    expect(objects.filter(o => o.kind === 'ResourceClaimTemplate')).toEqual([rct]);
    expect(objects.filter(o => o.kind === 'DeviceClass')).toEqual([]);
    const graphOutput = renderChecked([graph('trtllm'), rct, deviceClass], { output: 'graph' });
    expect(graphOutput.map(o => o.kind)).toEqual(['DynamoGraphDeployment', 'ResourceClaimTemplate', 'DeviceClass']);
    const components = renderChecked([graph('trtllm'), rct, deviceClass], { output: 'components' });
    expect(components.map(o => o.kind)).toEqual(['DynamoComponentDeployment', 'ResourceClaimTemplate']);
  });

  test('a ResourceClaimTemplate without a namespace is in the namespace the input is rendered for', () => {
    const objects = renderChecked([{ ...graph('trtllm'), metadata: { name: 'llm' } }, claimTemplate(2), deviceClass], { namespace: 'prod' });
    expect(leaderMain(objects).args[0]).toContain('--oversubscribe -n 4 -H ');
    expect(objects.find(o => o.kind === 'ResourceClaimTemplate').metadata.namespace).toBe('prod');
    // without --namespace the graph and the template are both in `default`
    expect(leaderMain(render([{ ...graph('trtllm'), metadata: { name: 'llm' } }, claimTemplate(2), deviceClass])).args[0]).toContain('-n 4 -H ');
    // a template of another namespace is not the graph's
    expect(() => render([graph('trtllm'), claimTemplate(2), deviceClass]))
      .toThrow(/from the ResourceClaimTemplate prod\/gpus-4 .*add them to the input \(resource\.k8s\.io\/v1 ResourceClaimTemplate in namespace prod, and DeviceClass\)/);
  });

  test('a standalone DCD reads them too', () => {
    expect(leaderMain(render([standaloneDcd('trtllm'), claimTemplate(4, 'prod'), deviceClass])).args[0]).toContain('-n 8 -H ');
  });

  test('Grove: the leader clique of the TensorRT-LLM component runs mpirun over 8 slots', () => {
    const objects = render([graph('trtllm'), claimTemplate(4, 'prod'), deviceClass], { groveAvailable: true });
    const pcs = objects.find(o => o.kind === 'PodCliqueSet');
    const leaderClique = pcs.spec.template.cliques.find((c: any) => c.name === 'decode-ldr');
    expect(leaderClique.spec.podSpec.containers[0].args[0]).toContain('--oversubscribe -n 8 -H ');
  });

  test('vLLM chooses its launch from the count: TP 8 over 4 claimed GPUs per node spans nodes (mp flags), over 8 it does not', () => {
    const spanning = leaderMain(render([graph('vllm'), claimTemplate(4, 'prod'), deviceClass]));
    expect(spanning.args).toEqual(['--model', 'm', '--tensor-parallel-size', '8',
      '--distributed-executor-backend', 'mp', '--nnodes', '2', '--master-addr', '$(LWS_LEADER_ADDRESS)', '--master-port', '29500', '--node-rank', '0']);
    const fitting = leaderMain(render([graph('vllm'), claimTemplate(8, 'prod'), deviceClass]));
    expect(fitting.command).toEqual(['python3', '-m', 'dynamo.vllm']);
    expect(fitting.args).toEqual(['--model', 'm', '--tensor-parallel-size', '8']);
  });

  test('missing DeviceClass or template: refused, naming what to add', () => {
    expect(() => render([graph('trtllm'), claimTemplate(4, 'prod')]))
      .toThrow('the operator reads DeviceClass "gpu.nvidia.com" from the cluster to tell whether the request asks for GPUs; '
        + 'add it to the input (resource.k8s.io/v1 DeviceClass, e.g. kubectl get deviceclass gpu.nvidia.com -o yaml)');
    expect(() => render([graph('trtllm'), deviceClass]))
      .toThrow(/^DynamoComponentDeployment\/llm-decode-[0-9a-f]{8}: spec\.podTemplate\.spec\.containers\[0\]\.resources\.claims\[0\]: the operator counts the GPUs of a multinode container/);
    expect(() => render([standaloneDcd('trtllm'), deviceClass]))
      .toThrow('DynamoComponentDeployment/decode: spec.podTemplate.spec.containers[0].resources.claims[0]: the operator counts the GPUs of a multinode container');
  });
});

describe('the CLI reads the DRA objects of the file', () => {
  test('render --output workloads of a file with the graph, its ResourceClaimTemplate and the DeviceClass', () => {
    const file = [graph('trtllm'), claimTemplate(4, 'prod'), deviceClass].map(d => JSON.stringify(d)).join('\n---\n');
    const { code, stdout, stderr } = runCliOn({ 'in.yaml': file }, ['render', '--output', 'workloads', 'in.yaml']);
    expect(stderr).not.toMatch(/claims|DeviceClass "gpu\.nvidia\.com"/);
    expect(code).toBe(0);
    const docs = parseAllDocuments(stdout).map(d => d.toJS());
    expect(docs.filter((d: any) => d.kind === 'DeviceClass')).toEqual([]);
    expect(docs.filter((d: any) => d.kind === 'ResourceClaimTemplate').map((d: any) => d.metadata.name)).toEqual(['gpus-4']);
    expect(leaderMain(docs).args[0]).toContain('--oversubscribe -n 8 -H ');
  });
});
