/**
 * How the constructs turn a workloads rendering into synthesized objects, independent of what the
 * renderers produce (see the stand-in below).
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import { ComponentDeployment, ComponentType, DynamoGraph, OutputMode } from '../src';
import * as engine from '../src/engine/render';

// the engine's workload rendering is replaced by a stand-in that returns, per DCD the graph generates
// (rendered by the real engine), the DCD, a Deployment and a Service of the same name
jest.mock('../src/engine/render', () => {
  const actual = jest.requireActual('../src/engine/render');
  const perDcd = (dcd: any): unknown[] => [
    dcd,
    { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: dcd.metadata.name, namespace: dcd.metadata.namespace } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: dcd.metadata.name, namespace: dcd.metadata.namespace } },
  ];
  return {
    ...actual,
    renderGraphWorkloads: jest.fn((dgd: any, settings: any, cluster: any) => [
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `${dgd.metadata.name}-k8s-service-discovery`, namespace: dgd.metadata.namespace, annotations: { nats: settings.natsAddress ?? '' } } },
      ...actual.renderGraphComponents(dgd, settings, cluster).flatMap(perDcd),
    ]),
    renderComponentWorkloads: jest.fn((dcd: any) => perDcd(dcd).slice(1)),
  };
});

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const renderGraph = engine.renderGraphWorkloads as jest.Mock;
const renderComponent = engine.renderComponentWorkloads as jest.Mock;

beforeEach(() => {
  renderGraph.mockClear();
  renderComponent.mockClear();
});

function workloadsGraph(operator = {}) {
  const chart = new Chart(Testing.app(), 'test', { namespace: 'team-a' });
  const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' }, output: OutputMode.WORKLOADS, operator });
  graph.addFrontend('Frontend', { image: IMAGE });
  return { chart, graph };
}

function workloadIds(scope: { node: any }): string[] {
  return scope.node.findChild('Workloads').node.children.map((c: any) => c.node.id);
}

describe('WORKLOADS output: rendered objects become children of Workloads', () => {
  test('one child per rendered object, id <Kind>.<name>, synthesized in render order', () => {
    const { chart, graph } = workloadsGraph();
    const manifests = Testing.synth(chart);
    expect(manifests.map(m => `${m.kind}/${m.metadata.name}`)).toEqual([
      'ServiceAccount/llm-k8s-service-discovery',
      'DynamoComponentDeployment/llm-frontend',
      'Deployment/llm-frontend',
      'Service/llm-frontend',
    ]);
    expect(workloadIds(graph)).toEqual([
      'ServiceAccount.llm-k8s-service-discovery',
      'DynamoComponentDeployment.llm-frontend',
      'Deployment.llm-frontend',
      'Service.llm-frontend',
    ]);
    expect(graph.node.tryFindChild('Resource')).toBeUndefined();
    expect(graph.node.tryFindChild('Components')).toBeUndefined();
  });

  test('the graph renders once for any number of syntheses without a change', () => {
    const { chart } = workloadsGraph();
    const first = Testing.synth(chart);
    expect(Testing.synth(chart)).toEqual(first);
    expect(renderGraph).toHaveBeenCalledTimes(1);
  });

  test('a synthesis after addComponent renders again and replaces the children', () => {
    const { chart, graph } = workloadsGraph();
    Testing.synth(chart);
    graph.addWorker('VllmWorker', { image: IMAGE });
    const names = Testing.synth(chart).map(m => `${m.kind}/${m.metadata.name}`);
    expect(renderGraph).toHaveBeenCalledTimes(2);
    expect(names).toHaveLength(7);
    expect(names.filter(n => /^Deployment\/llm-vllmworker-[0-9a-f]{8}$/.test(n))).toHaveLength(1);
    expect(workloadIds(graph)).toHaveLength(7);
  });

  test('objects that are no longer rendered are removed (the worker hash changes with the spec)', () => {
    const { chart, graph } = workloadsGraph();
    const worker = graph.addWorker('w', { image: IMAGE });
    const before = Testing.synth(chart).find(m => m.kind === 'Deployment' && m.metadata.name.startsWith('llm-w-')).metadata.name;
    worker.addEnv('X', kplus.EnvValue.fromValue('1'));
    const deployments = Testing.synth(chart).filter(m => m.kind === 'Deployment').map(m => m.metadata.name);
    expect(deployments).not.toContain(before);
    expect(deployments).toHaveLength(2);
    expect(workloadIds(graph)).not.toContain(`Deployment.${before}`);
  });

  test('App.synth writes the rendered objects (validation runs before the charts are collected)', () => {
    const app = Testing.app();
    const chart = new Chart(app, 'test', { namespace: 'team-a' });
    const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' }, output: OutputMode.WORKLOADS });
    graph.addFrontend('Frontend', { image: IMAGE });
    expect(app.synthYaml()).toContain('kind: Deployment');
  });

  test('the operator options reach the renderer as settings', () => {
    const { chart } = workloadsGraph({ natsAddress: 'nats://nats:4222' });
    expect(Testing.synth(chart)[0].metadata.annotations.nats).toBe('nats://nats:4222');
    expect(renderGraph.mock.calls[0][1]).toMatchObject({ natsAddress: 'nats://nats:4222', groveAvailable: false, version: '1.5.0' });
  });

  test('a graph with violations is not rendered; only the violations are reported', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'team-a' });
    const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' }, output: OutputMode.WORKLOADS });
    graph.addFrontend('Frontend', { image: IMAGE });
    graph.addComponent('Frontend2', { name: 'Frontend', type: ComponentType.FRONTEND, image: IMAGE });
    expect(() => Testing.synth(chart)).toThrow(/test\/Graph: DynamoGraphDeployment\/llm: spec\.components\[1\] \(component "Frontend"\): Duplicate value: .* \(rule 14\)/);
    expect(renderGraph).not.toHaveBeenCalled();
    expect(workloadIds(graph)).toEqual([]);
  });

  test('objects of the same kind and name get distinct ids', () => {
    renderGraph.mockImplementationOnce(() => [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x', namespace: 'other' } },
    ]);
    const { chart, graph } = workloadsGraph();
    Testing.synth(chart);
    expect(workloadIds(graph)).toEqual(['ConfigMap.x', 'ConfigMap.x.2']);
  });
});

describe('ComponentDeployment in WORKLOADS output', () => {
  test('synthesizes the rendered workloads of the DCD instead of the DCD', () => {
    const chart = new Chart(Testing.app(), 'test', { namespace: 'team-a' });
    const dcd = new ComponentDeployment(chart, 'Dcd', { metadata: { name: 'solo' }, image: IMAGE, output: OutputMode.WORKLOADS });
    expect(Testing.synth(chart).map(m => `${m.kind}/${m.metadata.name}`)).toEqual(['Deployment/solo', 'Service/solo']);
    expect(workloadIds(dcd)).toEqual(['Deployment.solo', 'Service.solo']);
    expect(renderComponent.mock.calls[0][0].metadata).toEqual({ name: 'solo', namespace: 'team-a' });
  });

  test('a change of its component renders again', () => {
    const chart = new Chart(Testing.app(), 'test');
    const dcd = new ComponentDeployment(chart, 'Dcd', { metadata: { name: 'solo' }, image: IMAGE, output: OutputMode.WORKLOADS });
    Testing.synth(chart);
    Testing.synth(chart);
    expect(renderComponent).toHaveBeenCalledTimes(1);
    dcd.component.addEnv('X', kplus.EnvValue.fromValue('1'));
    Testing.synth(chart);
    expect(renderComponent).toHaveBeenCalledTimes(2);
    expect(renderComponent.mock.calls[1][0].spec.podTemplate.spec.containers[0].env).toEqual([{ name: 'X', value: '1' }]);
  });
});
