/**
 * Admission of the objects of `workloads` output (what the API server would reject when the
 * operator creates them) in every entry point, and the typed-error guarantee of `renderDocuments`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { ComponentDeployment, DynamoGraph, DynamoValidationPlugin, IValidationContext, OutputMode, ValidationViolation } from '../src';
import { CliRun, runCliOn } from './support/cli-in-process';
import { checkEmittedObject, checkEmittedObjects } from '../src/admission';
import * as engineRender from '../src/engine/render';
import { formatViolation, RenderError } from '../src/model';
import { OUTPUT_MODES, OutputMode as EngineOutput, renderDocuments } from '../src/pipeline/check-and-render';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

/** A graph whose decode container carries `extra`. */
function graph(extra: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm' },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        { name: 'decode', type: 'decode', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, ...extra }] } } },
      ],
    },
  };
}

/**
 * Admission checks the graph's pod templates completely (row 89), so no admissible graph is known
 * to render an object the cluster would reject. The emitted-object path is tested with a stub
 * renderer instead: the real objects, with an unknown field added to the decode DCD's container.
 */
function withBrokenDcd(objects: unknown[]): unknown[] {
  return objects.map((o: any) => {
    if (o.kind !== 'DynamoComponentDeployment' || !o.metadata.name.startsWith('llm-decode')) return o;
    const copy = JSON.parse(JSON.stringify(o));
    copy.spec.podTemplate.spec.containers[0].bogusField = 1;
    return copy;
  });
}

afterEach(() => { jest.restoreAllMocks(); });

/** Stubs the graph workloads renderer of the constructs to emit `withBrokenDcd` of its objects. */
function stubBrokenGraphWorkloads(): jest.SpyInstance {
  const real = engineRender.renderGraphWorkloads;
  return jest.spyOn(engineRender, 'renderGraphWorkloads').mockImplementation((...args) => withBrokenDcd(real(...args)));
}

const BAD_SERVICE = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'other' }, spec: { ports: [{ port: 'eighty' }] } };

function podCliqueSet(topologyConstraint: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'grove.io/v1alpha1',
    kind: 'PodCliqueSet',
    metadata: { name: 'llm', namespace: 'ns' },
    spec: { replicas: 1, template: { topologyConstraint, cliques: [] } },
  };
}

function snapshotJob(targetContainers: string[], podSnapshotMetadata: Record<string, unknown>): Record<string, unknown> {
  return {
    apiVersion: 'nvidia.com/v1alpha1',
    kind: 'SnapshotJob',
    metadata: { name: 'checkpoint-abc', namespace: 'ns' },
    spec: {
      activeDeadlineSeconds: 3600,
      podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } },
      podSnapshotTemplate: { metadata: podSnapshotMetadata, targetContainers },
    },
  };
}

describe('emitted-object admission: schema and CRD CEL rules of each emitted object', () => {
  test('a PodCliqueSet with the deprecated packDomain breaks its CRD CEL rule, reported with the object, path, message and rule', () => {
    const violations = checkEmittedObject(podCliqueSet({ packDomain: 'rack' }));
    expect(violations).toHaveLength(1);
    expect(violations[0]).toMatchObject({
      kind: 'PodCliqueSet',
      name: 'llm',
      path: 'spec.template.topologyConstraint.packDomain',
      message: 'Forbidden: packDomain is deprecated and cannot be used on new workloads; use pack.required',
      rule: 'cel',
    });
    expect(violations[0].expression).toContain('!has(self.spec.template.topologyConstraint.packDomain)');
    expect(formatViolation(violations[0])).toMatch(/^PodCliqueSet\/llm: spec\.template\.topologyConstraint\.packDomain: Forbidden: .* \(rule cel: oldSelf\.hasValue\(\) \|\| /);
  });

  test('a PodCliqueSet packing by pack.required passes', () => {
    expect(checkEmittedObject(podCliqueSet({ pack: { required: 'rack' } }))).toEqual([]);
  });

  test('a SnapshotJob targeting a container its pod template lacks breaks the SnapshotJob CEL rule', () => {
    const violations = checkEmittedObject(snapshotJob(['ghost'], {}));
    expect(violations.map(v => [v.path, v.message, v.rule])).toEqual([
      ['spec', 'Invalid value: "object": targetContainers must name containers present in podTemplate', 'cel'],
    ]);
  });

  test('docs/design/render-experimental.md §3.2.2 SnapshotJob podSnapshotTemplate.metadata (newer than the CRD snapshot) takes labels and annotations only', () => {
    expect(checkEmittedObject(snapshotJob(['main'], { labels: { a: 'b' }, annotations: { c: 'd' } }))).toEqual([]);
    expect(checkEmittedObject(snapshotJob(['main'], { labels: { a: 1 }, finalizers: ['x'] })).map(v => v.path)).toEqual([
      'spec.podSnapshotTemplate.metadata.labels', 'spec.podSnapshotTemplate.metadata.finalizers',
    ]);
  });

  test('a core kind breaking the Kubernetes schema is reported structurally (no double report of the CEL pass)', () => {
    const violations = checkEmittedObjects([BAD_SERVICE]);
    expect(violations.map(v => `${v.kind}/${v.name} ${v.path} ${v.rule}`)).toEqual(['Service/other spec.ports[0].port schema']);
  });

  test('an emitted DCD is checked against the Dynamo CRD CEL rules, reported under their rows', () => {
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'llm-worker', namespace: 'ns' },
      spec: { type: 'worker', eppConfig: { configMapRef: { name: 'x', key: 'k' } }, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
    };
    expect(checkEmittedObject(dcd).map(v => v.rule)).toEqual(['52']);
  });

  test('objects of unknown kinds and non-objects are not checked', () => {
    expect(checkEmittedObjects([{ apiVersion: 'example.com/v1', kind: 'Widget', spec: { ports: [{ port: -5 }] } }, 'text', null])).toEqual([]);
  });

  test('the workloads of an admissible graph pass, with and without Grove', () => {
    for (const groveAvailable of [false, true]) {
      const objects = renderDocuments([graph()], { output: 'workloads', operator: { groveAvailable } });
      expect(objects.length).toBeGreaterThan(3);
      expect(checkEmittedObjects(objects)).toEqual([]);
    }
  });
});

describe('emitted-object admission in the constructs (WORKLOADS output)', () => {
  test('an emitted object the cluster would reject fails synth, prefixed with the construct path of the object (stub renderer)', () => {
    const stub = stubBrokenGraphWorkloads();
    const chart = new Chart(Testing.app(), 'test');
    DynamoGraph.fromObject(chart, 'Graph', graph(), { output: OutputMode.WORKLOADS });
    expect(() => Testing.synth(chart)).toThrow(
      /test\/Graph\/Workloads\/DynamoComponentDeployment\.llm-decode-[0-9a-f]+: DynamoComponentDeployment\/llm-decode-[0-9a-f]+: spec\.podTemplate\.spec\.containers\[0\]\.bogusField: unknown field/,
    );
    expect(stub).toHaveBeenCalled();
  });

  test('row 89: a main container env: "A=1" is refused when the graph is imported, naming the field and rule', () => {
    const chart = new Chart(Testing.app(), 'test');
    expect(() => DynamoGraph.fromObject(chart, 'Graph', graph({ env: 'A=1' }), { output: OutputMode.WORKLOADS })).toThrow(
      /cannot import:\n {2}DynamoGraphDeployment\/llm: spec\.components\[1\]\.podTemplate\.spec\.containers\[0\]\.env \(component "decode"\): Invalid value: "A=1": must be of type array \(rule 89\)/,
    );
  });

  test('a render crash is a synth error naming the construct, not an exception of another type (stub renderer)', () => {
    jest.spyOn(engineRender, 'renderGraphWorkloads').mockImplementation(() => { throw new TypeError('env.map is not a function'); });
    const chart = new Chart(Testing.app(), 'test');
    DynamoGraph.fromObject(chart, 'Graph', graph(), { output: OutputMode.WORKLOADS });
    let thrown: unknown;
    try {
      Testing.synth(chart);
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as Error).message).toMatch(/Validation failed[\s\S]*test\/Graph(\/[^:]*)?: .*env\.map is not a function/);
  });

  test('the same graph in GRAPH output is not rendered, so nothing is checked beyond the graph', () => {
    const stub = stubBrokenGraphWorkloads();
    const chart = new Chart(Testing.app(), 'test');
    DynamoGraph.fromObject(chart, 'Graph', graph());
    expect(Testing.synth(chart)).toHaveLength(1);
    expect(stub).not.toHaveBeenCalled();
  });

  test('an admissible standalone DCD in WORKLOADS output synthesizes its workloads', () => {
    const chart = new Chart(Testing.app(), 'test');
    new ComponentDeployment(chart, 'Dcd', { metadata: { name: 'solo' }, image: IMAGE, output: OutputMode.WORKLOADS });
    expect(Testing.synth(chart).map(m => m.kind)).toContain('Deployment');
  });
});

describe('emitted-object admission in the CLI (render --output workloads)', () => {
  function run(files: Record<string, string>, ...argv: string[]): CliRun {
    return runCliOn(files, argv);
  }

  const files = {
    'bad.json': JSON.stringify(graph()),
    'service.json': JSON.stringify(BAD_SERVICE),
    'good.json': JSON.stringify(graph()),
  };

  test('a rejected emitted object is reported like a render error: exit 1, nothing on stdout, one line naming file, object, field and rule (stub renderer)', () => {
    stubBrokenGraphWorkloads();
    const r = run(files, 'render', '--output', 'workloads', 'bad.json');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^bad\.json: DynamoComponentDeployment\/llm-decode-[0-9a-f]+: spec\.podTemplate\.spec\.containers\[0\]\.bogusField: unknown field .* \(rule schema\)\n$/);
  });

  test('objects passed through into workloads output are checked too', () => {
    const r = run(files, 'render', '--output', 'workloads', 'service.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('service.json: Service/other: spec.ports[0].port:');
  });

  test('validate checks the other objects of a known kind, as a create; unknown kinds are named as not checked', () => {
    const r = run({ ...files, 'widget.json': JSON.stringify({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { ports: 'x' } }) },
      'validate', 'service.json', 'widget.json');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('widget.json:1:1: example.com/v1 Widget/(no name): not checked (no schema for this kind)\n'
      + 'service.json:1:83: Service/other: spec.ports[0].port: Invalid value: "eighty": must be of type integer (rule schema)\n');
  });

  test('other outputs do not check emitted objects; an admissible graph renders with exit 0', () => {
    expect(run(files, 'render', '--output', 'graph', 'service.json').code).toBe(0);
    const good = run(files, 'render', '--output', 'workloads', 'good.json');
    expect(good.stderr).toBe('rendered 1 object in 1 file: 11 objects (workloads output)\n');
    expect(good.code).toBe(0);
  });
});

describe('emitted-object admission in the cdk8s validation plugin', () => {
  class FakeContext implements IValidationContext {
    public readonly violations: ValidationViolation[] = [];
    public status?: string;
    public metadata?: { [key: string]: string };
    public readonly report = {
      addViolation: (v: ValidationViolation) => { this.violations.push(v); },
      submit: (status: string, metadata?: { [key: string]: string }) => {
        this.status = status;
        this.metadata = metadata;
      },
    };
    public readonly logger = { log: () => undefined };
    constructor(public readonly manifests: string[]) {}
  }

  let tmp: string;
  beforeEach(() => { tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'emitted-plugin-')); });
  afterEach(() => { fs.rmSync(tmp, { recursive: true, force: true }); });

  function manifest(objects: unknown[]): string {
    const file = path.join(tmp, 'app.k8s.yaml');
    fs.writeFileSync(file, objects.map(o => JSON.stringify(o)).join('\n---\n'));
    return file;
  }

  test('a core object and a PodCliqueSet the cluster would reject are reported; unknown kinds are skipped', async () => {
    const file = manifest([BAD_SERVICE, podCliqueSet({ packDomain: 'rack' }), { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } }]);
    const ctx = new FakeContext([file]);
    await new DynamoValidationPlugin().validate(ctx);
    expect(ctx.status).toBe('failure');
    expect(ctx.violations.map(v => v.ruleName)).toEqual(['dynamo-admission/rule-schema', 'dynamo-admission/rule-cel']);
    expect(ctx.violations[0].recommendation).toMatch(/^Service\/other: spec\.ports\[0\]\.port: /);
    expect(ctx.violations[0].fix).toContain('the schema of Service');
    expect(ctx.violations[1].violatingResources).toEqual([{ resourceName: 'llm', locations: ['spec.template.topologyConstraint.packDomain'], manifestPath: file }]);
    expect(ctx.violations[1].fix).toContain('Rule cel (CRD validation rule of a rendered resource: `oldSelf.hasValue() ||');
    expect(ctx.violations[1].fix).toContain('node_modules/cdk8s-dynamo/docs/admission-rules.md#rule-cel');
    expect(ctx.metadata).toMatchObject({ 'Dynamo objects': '0', 'Other objects checked': '2', 'Violations': '2' });
  });

  test('the synthesized workloads of an admissible graph pass', async () => {
    const file = manifest(renderDocuments([graph()], { output: 'workloads' }));
    const ctx = new FakeContext([file]);
    await new DynamoValidationPlugin().validate(ctx);
    expect(ctx.violations).toEqual([]);
    expect(ctx.status).toBe('success');
    expect(Number(ctx.metadata!['Other objects checked'])).toBeGreaterThan(3);
  });
});

describe('renderDocuments throws nothing but RenderError (fuzzing: malformed documents)', () => {
  const malformed: Array<[string, (g: any) => void]> = [
    ['replicas: "2"', g => { g.spec.components[1].replicas = '2'; }],
    ['components as a map', g => { g.spec.components = { a: g.spec.components[1] }; }],
    ['podTemplate: "main"', g => { g.spec.components[1].podTemplate = 'main'; }],
    ['sharedMemorySize: "lots"', g => { g.spec.components[1].sharedMemorySize = 'lots'; }],
  ];
  const outputs: EngineOutput[] = ['components', 'workloads'];

  function renderError(doc: unknown, output: EngineOutput): RenderError {
    try {
      renderDocuments([doc], { output });
    } catch (e) {
      if (e instanceof RenderError) return e;
      throw new Error(`expected a RenderError, got ${String(e)}`);
    }
    throw new Error('expected a RenderError, got a rendering');
  }

  test.each(malformed.flatMap(([name, mutate]) => outputs.map(output => [name, output, mutate] as const)))(
    '%s in %s output: one RenderError naming the object and listing every violation with its rule', (_name, output, mutate) => {
      const doc = graph();
      mutate(doc);
      const error = renderError(doc, output);
      expect(error.objectRef).toBe('DynamoGraphDeployment/llm');
      expect(error.message).toMatch(/^DynamoGraphDeployment\/llm: spec\.components.*: the operator would reject this object on create \(\d+ violations?\): spec\.components.*\(rule [0-9a-z]+\)/);
    });

  test('row 89: a main container env: "A=1" is refused by admission, one RenderError naming the field and rule', () => {
    const doc = graph({ env: 'A=1' });
    const error = renderError(doc, 'workloads');
    expect(error.objectRef).toBe('DynamoGraphDeployment/llm');
    expect(error.message).toBe('DynamoGraphDeployment/llm: spec.components[1].podTemplate.spec.containers[0].env: the operator would reject this object on create (1 violation): '
      + 'spec.components[1].podTemplate.spec.containers[0].env: Invalid value: "A=1": must be of type array (rule 89)');
  });

  test('graph output passes Dynamo documents through unchecked', () => {
    const doc = graph();
    doc.spec.components[1].replicas = '2';
    expect(OUTPUT_MODES).toContain('graph');
    expect(renderDocuments([doc], { output: 'graph' })).toEqual([doc]);
  });

  test('checkAdmission: false renders a document the operator would refuse (engine tests only)', () => {
    const doc = graph();
    doc.spec.components[1].replicas = 0;
    doc.spec.components[1].podTemplate.spec.containers[0].image = '';
    expect(() => renderDocuments([doc], { output: 'components' })).toThrow(RenderError);
    expect(renderDocuments([doc], { output: 'components', checkAdmission: false }).length).toBe(2);
  });
});
