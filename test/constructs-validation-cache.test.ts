/**
 * cdk8s validates the whole app for every chart it synthesizes (`chart.toJson()` →
 * `App._synthChart`), so each Dynamo resource keeps the pipeline's outcome for its document (its
 * violations, what it renders, the problems of what it renders) until the document changes: an app
 * of N graphs in N charts checks and renders N documents, not N × (N + 1), and a pass over an
 * unchanged graph does not read its document. The key is a count of the changes, which every
 * mutation path bumps (checked below for each one, and a new method must be listed here).
 */
import { App, Chart, Testing } from 'cdk8s';
import { EnvValue } from 'cdk8s-plus-34';
import {
  Component, ComponentDeployment, ComponentType, DynamoGraph, EppConfig, DynamoGraphDeploymentRequest, DynamoResource, MultinodeWorker, OutputMode,
} from '../src';
import * as defaulting from '../src/admission/defaulting';
import * as validate from '../src/admission/validate';
import * as pipeline from '../src/pipeline/check-and-render';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const WORKER = { image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], gpus: 1 };
const N = 4;

function graphsInCharts(app: App, output: OutputMode = OutputMode.GRAPH): DynamoGraph[] {
  return Array.from({ length: N }, (_, i) => {
    const graph = new DynamoGraph(new Chart(app, `chart${i}`), 'Graph', { metadata: { name: `llm${i}` }, output });
    graph.addFrontend('Frontend', { image: IMAGE });
    graph.addWorker('Worker', WORKER);
    return graph;
  });
}

let admitDocument: jest.SpyInstance;
beforeEach(() => {
  admitDocument = jest.spyOn(validate, 'admitDocument');
});
afterEach(() => jest.restoreAllMocks());

describe('the outcome of a resource is kept until its document changes', () => {
  test.each([OutputMode.GRAPH, OutputMode.COMPONENTS, OutputMode.WORKLOADS])('N graphs in N charts, %s output: synthYaml checks each graph once', output => {
    const app = Testing.app();
    graphsInCharts(app, output);
    app.synthYaml();
    expect(admitDocument).toHaveBeenCalledTimes(N);
    // a second synthesis of the unchanged app checks nothing again
    app.synthYaml();
    expect(admitDocument).toHaveBeenCalledTimes(N);
  });

  test('N graphs in N charts: App.synth() and chart.toJson() of every chart check each graph once', () => {
    const app = Testing.app();
    graphsInCharts(app);
    app.synth();
    for (const chart of app.charts) chart.toJson();
    expect(admitDocument).toHaveBeenCalledTimes(N);
  });

  test('N component deployments in N charts check each deployment once', () => {
    const app = Testing.app();
    for (let i = 0; i < N; i++) {
      new ComponentDeployment(new Chart(app, `chart${i}`), 'Dcd', { metadata: { name: `worker${i}` }, type: ComponentType.WORKER, image: IMAGE });
    }
    app.synthYaml();
    expect(admitDocument).toHaveBeenCalledTimes(N);
  });

  test('an unchanged graph\'s document is built once over the N + 1 validation passes: N graphs in N charts, WORKLOADS output', () => {
    const app = Testing.app();
    graphsInCharts(app, OutputMode.WORKLOADS);
    const toJson = jest.spyOn(DynamoGraph.prototype, 'toJson');
    const componentSpec = jest.spyOn(Component.prototype, '_toSpecJson');
    app.synthYaml();
    expect(toJson).toHaveBeenCalledTimes(N);
    expect(componentSpec).toHaveBeenCalledTimes(2 * N);
  });

  test('a change after a synthesis is checked again, and only the changed graph is', () => {
    const app = Testing.app();
    const graphs = graphsInCharts(app);
    app.synthYaml();
    graphs[1].components[0].addEnv('LOG_LEVEL', EnvValue.fromValue('debug'));
    app.synthYaml();
    expect(admitDocument).toHaveBeenCalledTimes(N + 1);
    expect(admitDocument.mock.calls[N][0].metadata.name).toBe('llm1');
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

  describe('a subclass with its own toJson', () => {
    class Relabelled extends DynamoGraph {
      public labels: { [key: string]: string } = {};
      public toJson(): any {
        const doc = super.toJson();
        doc.metadata.labels = { ...this.labels };
        return doc;
      }
    }

    test('its document is the one checked, again whenever it changes', () => {
      const chart = new Chart(Testing.app(), 'test');
      const graph = new Relabelled(chart, 'Graph', { metadata: { name: 'llm' } });
      graph.addFrontend('Frontend', { image: IMAGE });
      Testing.synth(chart);
      graph.labels = { 'bad label': 'x' };
      expect(() => Testing.synth(chart)).toThrow(/test\/Graph: DynamoGraphDeployment\/llm: metadata\.labels/);
    });

    test('an unchanged document is not checked again', () => {
      const app = Testing.app();
      for (let i = 0; i < N; i++) new Relabelled(new Chart(app, `chart${i}`), 'Graph', { metadata: { name: `llm${i}` } }).addFrontend('Frontend', { image: IMAGE });
      app.synthYaml();
      expect(admitDocument).toHaveBeenCalledTimes(N);
    });
  });
});

describe('one pipeline call per document: admission, rendering and the checks of what it renders, the document defaulted once', () => {
  test.each([OutputMode.COMPONENTS, OutputMode.WORKLOADS])('a graph in %s output', output => {
    const call = jest.spyOn(pipeline, 'checkAndRenderDocument');
    const defaultGraph = jest.spyOn(defaulting, 'defaultGraphDeployment');
    const chart = new Chart(Testing.app(), 'test');
    const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' }, output });
    graph.addFrontend('Frontend', { image: IMAGE });
    graph.addWorker('Worker', WORKER);
    expect(Testing.synth(chart).length).toBeGreaterThanOrEqual(2);
    expect(call).toHaveBeenCalledTimes(1);
    expect(defaultGraph).toHaveBeenCalledTimes(1);
  });

  test('a component deployment in WORKLOADS output', () => {
    const call = jest.spyOn(pipeline, 'checkAndRenderDocument');
    const defaultComponent = jest.spyOn(defaulting, 'defaultComponentDeployment');
    const chart = new Chart(Testing.app(), 'test');
    new ComponentDeployment(chart, 'Dcd', { metadata: { name: 'worker' }, type: ComponentType.WORKER, ...WORKER, output: OutputMode.WORKLOADS });
    expect(Testing.synth(chart).length).toBeGreaterThan(1);
    expect(call).toHaveBeenCalledTimes(1);
    expect(defaultComponent).toHaveBeenCalledTimes(1);
  });

  test('what the API server would refuse of a rendered object is reported on the child that synthesizes it', () => {
    const chart = new Chart(Testing.app(), 'test');
    const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' }, output: OutputMode.WORKLOADS });
    graph.addFrontend('Frontend', { image: IMAGE });
    Testing.synth(chart);
    jest.spyOn(pipeline, 'checkAndRenderDocument').mockImplementation(() => ({
      violations: [],
      objects: [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'llm-frontend' } }],
      objectProblems: [{ object: 0, message: 'Service/llm-frontend: spec: Required value (rule structural)' }],
    }));
    graph.components[0].addEnv('A', EnvValue.fromValue('1'));
    expect(() => Testing.synth(chart)).toThrow('test/Graph/Workloads/Service.llm-frontend: Service/llm-frontend: spec: Required value (rule structural)');
  });
});

/**
 * Every way a resource's document changes after construction, with how to make the change. Each is
 * checked: after a synthesis, the change, then a synthesis again gives what an app built with the
 * change from the start gives (a path that did not bump the count would give the old objects).
 */
type Build = (chart: Chart, output: OutputMode) => DynamoResource;
interface Mutation {
  readonly build: Build;
  readonly change: (resource: any) => void;
}

const graph: Build = (chart, output) => {
  const g = new DynamoGraph(chart, 'Graph', { metadata: { name: 'llm' }, output });
  g.addFrontend('Frontend', { image: IMAGE });
  g.addWorker('Worker', WORKER);
  return g;
};
const deployment: Build = (chart, output) =>
  new ComponentDeployment(chart, 'Dcd', { metadata: { name: 'worker' }, type: ComponentType.WORKER, ...WORKER, output });
const worker = (g: DynamoGraph): Component => g.components.find(c => c.name === 'Worker')!;
const multinode = { nodeCount: 2 };
const MULTINODE = { ...WORKER, args: ['--model', 'Qwen/Qwen3-0.6B'], multinode };
const frontendSpec = { name: 'Frontend', type: 'frontend', replicas: 3, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } };

const MUTATIONS: { [method: string]: Mutation } = {
  'DynamoGraph.addComponent': { build: graph, change: g => g.addComponent('Extra', { type: ComponentType.WORKER, ...WORKER }) },
  'DynamoGraph.addFrontend': { build: graph, change: g => g.addFrontend('Frontend2', { image: IMAGE }) },
  'DynamoGraph.addWorker': { build: graph, change: g => g.addWorker('Worker2', WORKER) },
  'DynamoGraph.addPrefillWorker': { build: graph, change: g => g.addPrefillWorker('Prefill', WORKER) },
  'DynamoGraph.addDecodeWorker': { build: graph, change: g => g.addDecodeWorker('Decode', WORKER) },
  'DynamoGraph.addPlanner': { build: graph, change: g => g.addPlanner('Planner', { image: IMAGE }) },
  'DynamoGraph.addEpp': { build: graph, change: g => g.addEpp('Epp', { image: IMAGE, eppConfig: EppConfig.fromConfig({ plugins: [], schedulingProfiles: [] }) }) },
  'DynamoGraph.addMultinodeWorker': { build: graph, change: g => g.addMultinodeWorker('Multinode', MULTINODE) },
  'DynamoGraph.addEnv': { build: graph, change: g => g.addEnv('LOG_LEVEL', EnvValue.fromValue('debug')) },
  'DynamoGraph._setSpec': { build: graph, change: g => g._setSpec({ env: [{ name: 'FROM_IMPORT', value: '1' }] }) },
  'DynamoGraph._attachComponent': { build: graph, change: g => new Component(g, 'Attached', { type: ComponentType.WORKER, ...WORKER }) },
  'Component.addEnv': { build: graph, change: g => worker(g).addEnv('LOG_LEVEL', EnvValue.fromValue('debug')) },
  'Component.addSidecar': { build: graph, change: g => worker(g).addSidecar({ name: 'sidecar', image: 'busybox' }) },
  'Component._replaceSpec': { build: graph, change: g => g.components[0]._replaceSpec(frontendSpec) },
  'a multinode worker: Component.addEnv': {
    build: (chart, output) => {
      const g = graph(chart, output) as DynamoGraph;
      g.addMultinodeWorker('Multinode', MULTINODE);
      return g;
    },
    change: g => (g.components.find((c: Component) => c instanceof MultinodeWorker) as MultinodeWorker).addEnv('LOG_LEVEL', EnvValue.fromValue('debug')),
  },
  'ComponentDeployment._setSpec': { build: deployment, change: d => d._setSpec({ type: 'worker', replicas: 4, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } }) },
  'ComponentDeployment component.addEnv': { build: deployment, change: d => d.component.addEnv('LOG_LEVEL', EnvValue.fromValue('debug')) },
  'ComponentDeployment component.addSidecar': { build: deployment, change: d => d.component.addSidecar({ name: 'sidecar', image: 'busybox' }) },
};

/** The methods of the resource classes that read, never change, the document (any other method is a mutation above). */
const READERS: { [cls: string]: readonly string[] } = {
  DynamoGraph: ['toJson', 'footprint', 'toMermaid', 'components', 'admittedJson', 'useContainerDiscovery', '_checkProps', '_documentTracked', '_synthesisInput', '_pathOfField', '_checkComponentId'],
  Component: ['type', '_needsContainerDiscovery', '_toSpecJson', 'changed', 'podTemplate'],
  MultinodeWorker: [],
  ComponentDeployment: ['toJson', '_checkProps', '_documentTracked'],
  DynamoGraphDeploymentRequest: ['toJson', '_synthesisInput', '_documentTracked', '_checkAndRender'],
};

describe('every mutation path makes the resource check and render its document again', () => {
  test('every method of the resource classes is a reader or a mutation listed here', () => {
    const classes = { DynamoGraph, Component, MultinodeWorker, ComponentDeployment, DynamoGraphDeploymentRequest };
    for (const [name, cls] of Object.entries(classes)) {
      const methods = Object.getOwnPropertyNames(cls.prototype).filter(m => m !== 'constructor');
      const mutations = Object.keys(MUTATIONS).filter(key => key.startsWith(`${name}.`)).map(key => key.slice(name.length + 1));
      expect({ [name]: [...methods].sort() }).toEqual({ [name]: [...READERS[name], ...mutations].sort() });
    }
  });

  const synth = (mutation: Mutation, output: OutputMode, when: 'none' | 'after-synth' | 'before-synth') => {
    const chart = new Chart(Testing.app(), 'test');
    const resource = mutation.build(chart, output);
    if (when === 'after-synth') Testing.synth(chart);
    if (when !== 'none') mutation.change(resource);
    return Testing.synth(chart);
  };

  describe.each([OutputMode.COMPONENTS, OutputMode.WORKLOADS])('%s output', output => {
    test.each(Object.keys(MUTATIONS))('%s', key => {
      const mutation = MUTATIONS[key];
      if (output === OutputMode.COMPONENTS && key.startsWith('ComponentDeployment')) return; // a DCD gives itself in COMPONENTS output
      const expected = synth(mutation, output, 'before-synth');
      expect(expected).not.toEqual(synth(mutation, output, 'none'));
      expect(synth(mutation, output, 'after-synth')).toEqual(expected);
    });
  });

  test('a component deployment in GRAPH output: its change is validated again', () => {
    const chart = new Chart(Testing.app(), 'test');
    const d = deployment(chart, OutputMode.GRAPH) as ComponentDeployment;
    Testing.synth(chart);
    d._setSpec({ type: 'worker', replicas: -1 });
    expect(() => Testing.synth(chart)).toThrow(/test\/Dcd: DynamoComponentDeployment\/worker: spec\.replicas/);
  });
});
