/**
 * `checkAndRender`: the one pipeline the CLI, the plugin, the constructs and DynamoDocuments share.
 */
import * as defaulting from '../src/admission/defaulting';
import * as validate from '../src/admission/validate';
import * as dgdrAdmission from '../src/dgdr/admission';
import * as engineRender from '../src/engine/render';
import { RenderError, resolveOperatorSettings } from '../src/model';
import { checkAndRender, checkAndRenderDocument, formatProblem, renderDocuments } from '../src/pipeline/check-and-render';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const SETTINGS = resolveOperatorSettings({});

function graph(name: string, replicas: unknown = 1): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', replicas, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        { name: 'decode', type: 'decode', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
      ],
    },
  };
}

const BAD_SERVICE = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'other' }, spec: { ports: [{ port: 'eighty' }] } };

afterEach(() => { jest.restoreAllMocks(); });

describe('checking', () => {
  test('without an output the documents are only checked: a violation names its input and document, nothing is rendered', () => {
    const result = checkAndRender([{ documents: [graph('ok')] }, { documents: [BAD_SERVICE, graph('bad', -1)] }], { settings: SETTINGS });
    expect(result.outputs).toEqual([[], []]);
    expect(result.problems.map(p => [p.input, p.document, p.violation?.rule])).toEqual([[1, 1, expect.any(String)]]);
    expect(formatProblem(result.problems[0])).toMatch(/^DynamoGraphDeployment\/bad: spec\.components\[0\]\.replicas \(component "Frontend"\): /);
  });

  test('other objects of a known kind are checked only when asked', () => {
    expect(checkAndRender([{ documents: [BAD_SERVICE] }], { settings: SETTINGS }).problems).toEqual([]);
    const asked = checkAndRender([{ documents: [BAD_SERVICE] }], { settings: SETTINGS, checkOtherObjects: true }).problems;
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every(p => p.input === 0 && p.document === 0)).toBe(true);
    expect(formatProblem(asked[0])).toMatch(/^Service\/other: spec\.ports\[0\]\.port: /);
  });

  test('each Dynamo document is checked once, also when it is rendered', () => {
    const spy = jest.spyOn(validate, 'admitDocument');
    checkAndRender([{ documents: [graph('a'), graph('b')] }], { settings: SETTINGS, output: 'workloads' });
    expect(spy).toHaveBeenCalledTimes(2);
  });

  test('each Dynamo document is defaulted once: what admission stored is what is rendered', () => {
    const graphs = jest.spyOn(defaulting, 'defaultGraphDeployment');
    const components = jest.spyOn(defaulting, 'defaultComponentDeployment');
    const dcd = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'w' }, spec: graph('w').spec.components[1] };
    const once = checkAndRender([{ documents: [graph('a'), dcd] }], { settings: SETTINGS, output: 'workloads' });
    expect(once.problems).toEqual([]);
    expect([graphs.mock.calls.length, components.mock.calls.length]).toEqual([1, 1]);
    // the same objects as a rendering that defaults the documents itself (admission off)
    expect(checkAndRender([{ documents: [graph('a'), dcd] }], { settings: SETTINGS, output: 'workloads', admission: false }).outputs).toEqual(once.outputs);
  });

  test('a DynamoGraphDeploymentRequest is defaulted once too: the request admission stored is what is rendered', () => {
    // no image: the defaulting webhook sets the profiler image, so the stored request differs from the authored one
    const request = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeploymentRequest', metadata: { name: 'r' }, spec: { model: 'Qwen/Qwen3-0.6B', backend: 'vllm', hardware: { gpuSku: 'h100_sxm', vramMb: 81920, numGpusPerNode: 8, totalGpus: 8 } } };
    const admitted = jest.spyOn(dgdrAdmission, 'admitNewDgdr');
    const defaultedAgain = jest.spyOn(dgdrAdmission, 'storedDgdr');
    for (const output of ['graph', 'workloads'] as const) {
      const once = checkAndRender([{ documents: [request] }], { settings: SETTINGS, output });
      expect(once.problems).toEqual([]);
      expect([admitted.mock.calls.length, defaultedAgain.mock.calls.length]).toEqual([1, 0]);
      expect(checkAndRender([{ documents: [request] }], { settings: SETTINGS, output, admission: false }).outputs).toEqual(once.outputs);
      expect(defaultedAgain).toHaveBeenCalledTimes(1);
      admitted.mockClear();
      defaultedAgain.mockClear();
    }
  });

  test('checkAndRenderDocument: one document, the same call; the problems of rendered objects name the object', () => {
    const doc = graph('a');
    const outcome = checkAndRenderDocument(doc, { settings: SETTINGS, output: 'workloads' });
    expect(outcome.objects).toEqual(checkAndRender([{ documents: [doc] }], { settings: SETTINGS, output: 'workloads' }).outputs[0]);
    expect([outcome.violations, outcome.renderError, outcome.objectProblems]).toEqual([[], undefined, []]);
    const refused = checkAndRenderDocument(graph('b', -1), { settings: SETTINGS, output: 'workloads' });
    expect(refused.objects).toBeUndefined();
    expect(refused.violations[0]).toMatch(/^DynamoGraphDeployment\/b: spec\.components\[0\]\.replicas/);
    // the engine made to render Services the API server refuses (a port that is not a number)
    const real = engineRender.renderGraphWorkloads;
    jest.spyOn(engineRender, 'renderGraphWorkloads').mockImplementation((...args) => real(...args).map((o: any) => (o.kind === 'Service'
      ? { ...o, spec: { ...o.spec, ports: [{ port: 'eighty' }] } } : o)));
    const checked = checkAndRenderDocument(doc, { settings: SETTINGS, output: 'workloads' });
    expect(checked.objectProblems.length).toBeGreaterThan(0);
    expect(checked.objectProblems.every(p => (checked.objects![p.object] as any).kind === 'Service')).toBe(true);
    expect(checked.objectProblems[0].message).toBe('Service/a-frontend: spec.ports[0].port: Invalid value: "eighty": must be of type integer (rule schema)');
  });

  test('a document that matches several stored objects is one problem naming the old file', () => {
    const result = checkAndRender([{ documents: [graph('llm')] }], {
      settings: SETTINGS, update: { olds: [graph('llm'), graph('llm')], oldFile: 'old.yaml' },
    });
    expect(result.problems.map(formatProblem)).toEqual([expect.stringMatching(/matches 2 documents of old\.yaml; the old objects must be given once each$/)]);
  });

  test('a document that matches one stored object is checked as its update', () => {
    const spy = jest.spyOn(validate, 'validateDocument');
    const result = checkAndRender([{ documents: [graph('llm')] }], { settings: SETTINGS, update: { olds: [graph('llm')], oldFile: 'old.yaml' } });
    expect(result.problems).toEqual([]);
    expect(spy).not.toHaveBeenCalled();
  });

  test('the rules left unchecked for want of cluster state are listed only when asked', () => {
    const topology = graph('topo');
    topology.spec.topologyConstraint = { clusterTopologyName: 'missing', packDomain: 'rack' };
    const settings = resolveOperatorSettings({ groveAvailable: true });
    expect(checkAndRender([{ documents: [topology] }], { settings }).unchecked).toEqual([]);
    const listed = checkAndRender([{ documents: [topology] }], { settings, reportUnchecked: true }).unchecked;
    expect(listed.length).toBeGreaterThan(0);
    expect(listed[0]).toMatchObject({ input: 0, document: 0 });
    // listed from the graph admission defaulted: the graph is defaulted once, also then
    const defaulted = jest.spyOn(defaulting, 'defaultGraphDeployment');
    expect(checkAndRender([{ documents: [topology] }], { settings, reportUnchecked: true }).unchecked).toEqual(listed);
    expect(defaulted).toHaveBeenCalledTimes(1);
    // and an update lists what the graph leaves unchecked as new
    const update = { olds: [graph('topo')], oldFile: 'old.yaml' };
    expect(checkAndRender([{ documents: [topology] }], { settings, reportUnchecked: true, update }).unchecked).toEqual(listed);
  });

  test('an operator version the library does not render for is a RenderError', () => {
    expect(() => checkAndRender([], { settings: { ...SETTINGS, version: '1.3.0' } })).toThrow(RenderError);
  });
});

describe('rendering', () => {
  test('each input renders to its own objects, in input order', () => {
    const result = checkAndRender([{ documents: [graph('a')] }, { documents: [graph('b')] }], { settings: SETTINGS, output: 'components' });
    expect(result.problems).toEqual([]);
    expect(result.outputs.map(objects => objects.map((o: any) => o.metadata.name))).toEqual([
      [expect.stringMatching(/^a-frontend/), expect.stringMatching(/^a-decode/)],
      [expect.stringMatching(/^b-frontend/), expect.stringMatching(/^b-decode/)],
    ]);
  });

  test('one refused document keeps every input from being rendered', () => {
    const render = jest.spyOn(engineRender, 'renderGraphWorkloads');
    const result = checkAndRender([{ documents: [graph('a')] }, { documents: [graph('b', -1)] }], { settings: SETTINGS, output: 'workloads' });
    expect(result.outputs).toEqual([[], []]);
    expect(render).not.toHaveBeenCalled();
  });

  test('the engine renders the object as admission stores it (defaulted), not as written', () => {
    const render = jest.spyOn(engineRender, 'renderGraphComponents');
    checkAndRender([{ documents: [graph('a')] }], { settings: SETTINGS, output: 'components' });
    const stored = render.mock.calls[0][0];
    expect(stored.metadata.namespace).toBe('default');
    expect(stored.metadata.annotations?.['nvidia.com/workload-provider']).toBe('component');
    expect(stored.spec.components?.[1].replicas).toBe(1);
  });

  test('in workloads output the rendered objects are checked (an object passed through included), unless told otherwise', () => {
    const checked = checkAndRender([{ documents: [BAD_SERVICE] }], { settings: SETTINGS, output: 'workloads' });
    expect(checked.problems.length).toBeGreaterThan(0);
    expect(checked.problems[0].document).toBeUndefined();
    expect(checkAndRender([{ documents: [BAD_SERVICE] }], { settings: SETTINGS, output: 'workloads', checkRendered: false }).problems).toEqual([]);
    expect(checkAndRender([{ documents: [BAD_SERVICE] }], { settings: SETTINGS, output: 'graph' }).problems).toEqual([]);
  });

  test('a document that cannot be rendered is a problem of its input; the other inputs still render', () => {
    const unnamed = graph('x');
    unnamed.metadata = { generateName: 'x-' };
    const result = checkAndRender([{ documents: [unnamed] }, { documents: [graph('b')] }], { settings: SETTINGS, output: 'components' });
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0].input).toBe(0);
    expect(result.problems[0].renderError?.message).toMatch(/metadata\.name: Required value: .*generateName/);
    expect(result.outputs[1]).toHaveLength(2);
  });

  test('with admission off, a document the operator would refuse is rendered anyway', () => {
    const result = checkAndRender([{ documents: [graph('bad', -1)] }], { settings: SETTINGS, output: 'components', admission: false });
    expect(result.problems).toEqual([]);
    expect(result.outputs[0]).toHaveLength(2);
  });
});

describe('renderDocuments (the pipeline as one call that throws)', () => {
  test('a refused document is one RenderError naming the object and listing its violations', () => {
    expect(() => renderDocuments([graph('bad', -1)], { output: 'workloads' }))
      .toThrow(/^DynamoGraphDeployment\/bad: spec\.components\[0\]\.replicas: the operator would reject this object on create \(1 violation\): /);
  });

  test('graph output is not checked; the objects are returned', () => {
    expect(renderDocuments([graph('bad', -1)], { output: 'graph' })).toHaveLength(1);
  });

  test('an unexpected failure of the engine is an internal RenderError naming the document', () => {
    jest.spyOn(engineRender, 'renderGraphWorkloads').mockImplementation(() => { throw new TypeError('boom'); });
    expect(() => renderDocuments([graph('a')], { output: 'workloads' }))
      .toThrow(/^DynamoGraphDeployment\/a: \(the object\): internal error: rendering failed unexpectedly \(TypeError: boom\); please report it$/);
  });
});
