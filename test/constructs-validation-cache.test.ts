/**
 * cdk8s validates the whole app for every chart it synthesizes (`chart.toJson()` →
 * `App._synthChart`), so each graph and component deployment keeps its validation until its
 * document changes: an app of N graphs in N charts validates N documents, not N × (N + 1).
 */
import { App, Chart, Testing } from 'cdk8s';
import { EnvValue } from 'cdk8s-plus-34';
import { ComponentDeployment, ComponentType, DynamoGraph, OutputMode } from '../src';
import * as validate from '../src/admission/validate';
import { ValidationCache } from '../src/constructs/validation';
import { DEFAULT_OPERATOR_SETTINGS } from '../src/engine/operator-settings';
import { copyJson } from '../src/model/json-copy';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const N = 4;

function graphsInCharts(app: App, output: OutputMode = OutputMode.GRAPH): DynamoGraph[] {
  return Array.from({ length: N }, (_, i) => {
    const graph = new DynamoGraph(new Chart(app, `chart${i}`), 'Graph', { metadata: { name: `llm${i}` }, output });
    graph.addFrontend('Frontend', { image: IMAGE });
    graph.addWorker('Worker', { image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], gpus: 1 });
    return graph;
  });
}

let validateDocument: jest.SpyInstance;
beforeEach(() => {
  validateDocument = jest.spyOn(validate, 'validateDocument');
});
afterEach(() => validateDocument.mockRestore());

describe('validation of a construct is kept until its document changes', () => {
  test.each([OutputMode.GRAPH, OutputMode.COMPONENTS, OutputMode.WORKLOADS])('N graphs in N charts, %s output: synthYaml validates each graph once', output => {
    const app = Testing.app();
    graphsInCharts(app, output);
    app.synthYaml();
    expect(validateDocument).toHaveBeenCalledTimes(N);
    // a second synthesis of the unchanged app validates nothing again
    app.synthYaml();
    expect(validateDocument).toHaveBeenCalledTimes(N);
  });

  test('N graphs in N charts: App.synth() and chart.toJson() of every chart validate each graph once', () => {
    const app = Testing.app();
    graphsInCharts(app);
    app.synth();
    for (const chart of app.charts) chart.toJson();
    expect(validateDocument).toHaveBeenCalledTimes(N);
  });

  test('N component deployments in N charts validate each deployment once', () => {
    const app = Testing.app();
    for (let i = 0; i < N; i++) {
      new ComponentDeployment(new Chart(app, `chart${i}`), 'Dcd', { metadata: { name: `worker${i}` }, type: ComponentType.WORKER, image: IMAGE });
    }
    app.synthYaml();
    expect(validateDocument).toHaveBeenCalledTimes(N);
  });

  test('a change after a synthesis is validated again, and only the changed graph is', () => {
    const app = Testing.app();
    const graphs = graphsInCharts(app);
    app.synthYaml();
    graphs[1].components[0].addEnv('LOG_LEVEL', EnvValue.fromValue('debug'));
    app.synthYaml();
    expect(validateDocument).toHaveBeenCalledTimes(N + 1);
    expect(validateDocument.mock.calls[N][0].metadata.name).toBe('llm1');
  });

  test('a change that breaks a rule after a valid synthesis is reported', () => {
    const chart = new Chart(Testing.app(), 'test');
    const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' } });
    graph.addFrontend('Frontend', { image: IMAGE });
    expect(Testing.synth(chart)).toHaveLength(1);
    graph.addComponent('Worker', { type: ComponentType.WORKER, image: IMAGE, name: 'frontend' });
    expect(() => Testing.synth(chart)).toThrow(
      'test/Graph: DynamoGraphDeployment/llm: spec.components: Invalid value: "array": component names must be unique case-insensitively (rule 16)');
  });

  test('a change the construct is not told of is still seen (the key is the document itself)', () => {
    const chart = new Chart(Testing.app(), 'test');
    const deployment = new ComponentDeployment(chart, 'Dcd', { metadata: { name: 'worker' }, type: ComponentType.WORKER, image: IMAGE });
    Testing.synth(chart);
    // the document's metadata object, changed behind the construct's back
    (deployment as unknown as { metadata: { labels?: { [key: string]: string } } }).metadata.labels = { 'bad label': 'x' };
    expect(() => Testing.synth(chart)).toThrow(/test\/Dcd: DynamoComponentDeployment\/worker: metadata\.labels/);
    expect(validateDocument).toHaveBeenCalledTimes(2);
  });
  test('a graph\'s spec or component changed behind its back is validated again', () => {
    const chart = new Chart(Testing.app(), 'test');
    const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' } });
    const frontend = graph.addFrontend('Frontend', { image: IMAGE });
    Testing.synth(chart);
    (frontend as unknown as { spec: { replicas?: number } }).spec.replicas = -1;
    expect(() => Testing.synth(chart)).toThrow(/test\/Graph: DynamoGraphDeployment\/llm: spec\.components\[0\]\.replicas/);
    (frontend as unknown as { spec: { replicas?: number } }).spec.replicas = 1;
    (graph as unknown as { spec: { labels?: { [key: string]: string } } }).spec.labels = { 'bad label': 'x' };
    expect(() => Testing.synth(chart)).toThrow(/test\/Graph: DynamoGraphDeployment\/llm: spec\.labels/);
    expect(validateDocument).toHaveBeenCalledTimes(3);
  });

  test('a change the construct is not told of is rendered again too, not only validated', () => {
    const chart = new Chart(Testing.app(), 'test');
    const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' }, output: OutputMode.WORKLOADS });
    const frontend = graph.addFrontend('Frontend', { image: IMAGE, replicas: 1 });
    const deployment = new ComponentDeployment(chart, 'Dcd', { metadata: { name: 'worker' }, type: ComponentType.WORKER, image: IMAGE, replicas: 1, output: OutputMode.WORKLOADS });
    const replicas = () => Testing.synth(chart).filter(o => o.kind === 'Deployment').map(o => `${o.metadata.name}=${o.spec.replicas}`);
    expect(replicas()).toEqual(['llm-frontend=1', 'worker=1']);
    (frontend as unknown as { spec: { replicas?: number } }).spec.replicas = 3;
    (deployment.component as unknown as { spec: { replicas?: number } }).spec.replicas = 2;
    expect(replicas()).toEqual(['llm-frontend=3', 'worker=2']);
  });

  test('the document of a subclass with its own toJson is the one validated', () => {
    class Relabelled extends DynamoGraph {
      public labels: { [key: string]: string } = {};
      public toJson(): any {
        const doc = super.toJson();
        doc.metadata.labels = { ...this.labels };
        return doc;
      }
    }
    const chart = new Chart(Testing.app(), 'test');
    const graph = new Relabelled(chart, 'Graph', { metadata: { name: 'llm' } });
    graph.addFrontend('Frontend', { image: IMAGE });
    Testing.synth(chart);
    graph.labels = { 'bad label': 'x' };
    expect(() => Testing.synth(chart)).toThrow(/test\/Graph: DynamoGraphDeployment\/llm: metadata\.labels/);
  });

  describe('the key: the document validated last, compared value by value, else by its text', () => {
    const frontend = { name: 'frontend', type: 'frontend', replicas: 1, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } };
    const document = (annotations: unknown) => ({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata: { name: 'llm', annotations }, spec: { components: [frontend] } });

    test('a view equal to the validated copy is not validated again; a changed leaf is', () => {
      const changed = jest.fn();
      const cache = new ValidationCache(new Chart(Testing.app(), 'test'), DEFAULT_OPERATOR_SETTINGS, changed);
      const view = document({ a: 'x' });
      expect(cache.violations(view, () => copyJson(view))).toEqual([]);
      expect(cache.violations(view, () => copyJson(view))).toEqual([]);
      expect(validateDocument).toHaveBeenCalledTimes(1);
      (view.metadata.annotations as { a: string }).a = 'y';
      cache.violations(view, () => copyJson(view));
      expect(validateDocument).toHaveBeenCalledTimes(2);
      expect(validateDocument.mock.calls[1][0].metadata.annotations).toEqual({ a: 'y' });
      expect(changed).toHaveBeenCalledTimes(2);
    });

    test('a document the record can tell is kept by the record alone: a change its JSON text does not show is validated again', () => {
      const cache = new ValidationCache(new Chart(Testing.app(), 'test'), DEFAULT_OPERATOR_SETTINGS, () => {});
      const view: any = document({ a: 'x' });
      cache.violations(view, () => copyJson(view));
      view.metadata.annotations.b = undefined;
      cache.violations(view, () => copyJson(view));
      expect(validateDocument).toHaveBeenCalledTimes(2);
      cache.violations(view, () => copyJson(view));
      expect(validateDocument).toHaveBeenCalledTimes(2);
    });

    test('a view the comparison cannot tell (a reference cycle) is kept by its text: unchanged, not validated again; changed, validated', () => {
      const cache = new ValidationCache(new Chart(Testing.app(), 'test'), DEFAULT_OPERATOR_SETTINGS, () => {});
      // a cycle JSON cannot write: the text is the copy's, which cuts it
      const cyclic: { self?: unknown; v: string } = { v: 'x' };
      cyclic.self = cyclic;
      const view = document(cyclic);
      cache.violations(view, () => copyJson(view));
      cache.violations(view, () => copyJson(view));
      expect(validateDocument).toHaveBeenCalledTimes(1);
      cyclic.v = 'y';
      cache.violations(view, () => copyJson(view));
      expect(validateDocument).toHaveBeenCalledTimes(2);
    });
  });
});
