/**
 * `cdk8s-dynamo plan`: the profiler run as the operator's profiling Job runs it, and the objects the
 * operator creates from its output (src/plan, src/cli/plan-command.ts).
 *
 * The first tests use a stand-in interpreter that writes what the profiler writes; the last ones run
 * the real profiler on the operator's three DGDR goldens and match the result with the golden
 * contract, when a Python environment with the profiler is available (scripts/plan-env.sh; named by
 * $CDK8S_DYNAMO_PYTHON or found at .tmp/plan-venv) and are skipped, saying why, otherwise. Between
 * them, the goldens are planned with the profiler's recorded output (test/fixtures/plan): everything
 * after the profiler's search, checked without it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readYamlDocuments } from '../scripts/conformance';
import { binaryWorkdir, runBinary } from './support/cli-binary';
import { runCliOn } from './support/cli-in-process';
import { readDocuments as parseYamlDocuments, render } from './support/facade';
import { CONFORMANCE_DIR, describeNeeding, goldenScenario } from './support/shared';
import { generatedObjects, PlanRequest } from '../src/plan';
import { PLANNED_SCENARIOS, plannedScenarioInput, profilerPython, replayPython, withPlannedGraph } from './support/conformance/dgdr';
import { runScenario, ScenarioRenderer } from './support/conformance/scenario';

/** The pipeline's rendering, as the scenarios are rendered. */
const renderDocuments: ScenarioRenderer = (docs, options) =>
  render(docs, { output: options.output, settings: options.operator, namespace: options.namespace });

const ROOT = path.resolve(__dirname, '..');

const REQUEST: PlanRequest = {
  name: 'sla',
  namespace: 'team',
  spec: { model: 'Qwen/Qwen3-0.6B', backend: 'vllm', runtimeVersionOverride: '1.4.0' },
};

const GENERATED = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: vllm-disagg
  namespace: elsewhere
  labels:
    team: a
    nvidia.com/managed-by: someone
  annotations:
    nvidia.com/enable-grove: 'false'
  finalizers: [x]
spec:
  components:
  - name: Frontend
    type: frontend
    podTemplate: {spec: {containers: [{name: main, image: 'test.invalid/frontend:1.4.0'}]}}
  - name: decode
    type: decode
    runtimeVersionOverride: 1.3.0
    podTemplate: {spec: {containers: [{name: main, image: 'test.invalid/vllm:1.4.0'}]}}
`;

const CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: planner-profile-data
  namespace: elsewhere
data:
  k: v
`;

describe('generatedObjects: what the operator creates from the profiler output', () => {
  test('the graph is named <request>-dgd in the request namespace, with the managed labels and the generated annotations only', () => {
    const { objects, skipped } = generatedObjects(REQUEST, GENERATED, 'team');
    expect(skipped).toEqual([]);
    expect(objects).toEqual([{
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: {
        name: 'sla-dgd',
        namespace: 'team',
        labels: {
          'team': 'a',
          'dgdr.nvidia.com/name': 'sla',
          'dgdr.nvidia.com/namespace': 'team',
          'nvidia.com/managed-by': 'dynamo-operator',
        },
        annotations: { 'nvidia.com/enable-grove': 'false' },
      },
      spec: {
        components: [
          // the request's runtime version fills a component without one and replaces none
          { name: 'Frontend', type: 'frontend', runtimeVersionOverride: '1.4.0', podTemplate: { spec: { containers: [{ name: 'main', image: 'test.invalid/frontend:1.4.0' }] } } },
          { name: 'decode', type: 'decode', runtimeVersionOverride: '1.3.0', podTemplate: { spec: { containers: [{ name: 'main', image: 'test.invalid/vllm:1.4.0' }] } } },
        ],
      },
    }]);
  });

  test('spec.overrides.dgd.metadata.name names the graph', () => {
    const request = { ...REQUEST, spec: { ...REQUEST.spec, overrides: { dgd: { metadata: { name: 'chosen' } } } } };
    const [graph] = generatedObjects(request, GENERATED, 'team').objects as any[];
    expect(graph.metadata.name).toBe('chosen');
  });

  test('without spec.runtimeVersionOverride the components are left as generated', () => {
    const request = { ...REQUEST, spec: { model: 'm' } };
    const [graph] = generatedObjects(request, GENERATED, 'team').objects as any[];
    expect(graph.spec.components.map((c: any) => c.runtimeVersionOverride)).toEqual([undefined, '1.3.0']);
  });

  test('ConfigMaps are created in the request namespace with the managed labels; other kinds are not created; the last graph wins', () => {
    const text = `${CONFIG_MAP}---\n${GENERATED.replace('vllm-disagg', 'first')}---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n---\n${GENERATED}`;
    const { objects, skipped } = generatedObjects(REQUEST, text, 'team');
    expect(objects.map((o: any) => `${o.kind}/${o.metadata.name}`)).toEqual(['DynamoGraphDeployment/sla-dgd', 'ConfigMap/planner-profile-data']);
    expect((objects[1] as any).metadata).toEqual({
      name: 'planner-profile-data',
      namespace: 'team',
      labels: { 'dgdr.nvidia.com/name': 'sla', 'dgdr.nvidia.com/namespace': 'team', 'nvidia.com/managed-by': 'dynamo-operator' },
    });
    expect(skipped).toEqual([
      'DynamoGraphDeployment/first: not created (the operator creates the last DynamoGraphDeployment of the profiler output)',
      'Secret/s: not created (the operator creates only the ConfigMaps of the profiler output)',
    ]);
  });

  test('an output without a graph is an error', () => {
    expect(() => generatedObjects(REQUEST, CONFIG_MAP, 'team')).toThrow('no DynamoGraphDeployment found in the profiler output');
  });
});

/**
 * A stand-in interpreter: records its arguments and environment in `calls.json` beside it, then
 * writes into --output-dir what `mode` says (the profiler's success or failure files).
 */
function fakePython(dir: string, mode: 'success' | 'failed' | 'crash'): string {
  const file = path.join(dir, 'python');
  const finalConfig = JSON.stringify(GENERATED);
  fs.writeFileSync(file, `#!${process.execPath}
const fs = require('fs'), path = require('path');
const args = process.argv.slice(2);
fs.writeFileSync(path.join(${JSON.stringify(dir)}, 'calls.json'), JSON.stringify({ args,
  env: { DGDR_NAME: process.env.DGDR_NAME, DGDR_NAMESPACE: process.env.DGDR_NAMESPACE, TOOL: process.env.DYNAMO_DGD_APPLY_OVERRIDES_BIN } }));
const out = args[args.indexOf('--output-dir') + 1];
if (${JSON.stringify(mode)} === 'crash') { process.stderr.write('Traceback (most recent call last):\\n  File "x"\\nModuleNotFoundError: No module named \\'dynamo\\'\\n'); process.exit(1); }
if (${JSON.stringify(mode)} === 'failed') {
  fs.writeFileSync(path.join(out, 'profile_sla.log'), 'the log');
  fs.writeFileSync(path.join(out, 'profiler_status.yaml'), 'status: failed\\nmessage: \\'Profiler failed with exception: ValueError\\'\\nerror: no GPUs\\n');
  process.exit(1);
}
fs.writeFileSync(path.join(out, 'final_config.yaml'), ${finalConfig});
fs.writeFileSync(path.join(out, 'profiler_status.yaml'), 'status: success\\n');
`);
  fs.chmodSync(file, 0o755);
  fs.writeFileSync(path.join(dir, 'dgd-apply-overrides'), '');
  return file;
}

const REQUEST_YAML = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeploymentRequest
metadata:
  name: sla
spec:
  model: Qwen/Qwen3-0.6B
  backend: vllm
  image: nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.1.1
`;

describe('cdk8s-dynamo plan with a stand-in profiler', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-test-')); });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  test('runs python -m dynamo.profiler as the profiling Job does and writes the generated graph', () => {
    const python = fakePython(dir, 'success');
    const run = runCliOn({ 'req.yaml': REQUEST_YAML }, ['plan', '--python', python, '--namespace', 'team', 'req.yaml']);
    expect(run.stderr).toBe('planned 1 object in 1 file: 1 object (graph output)\n');
    expect(run.code).toBe(0);
    const calls = JSON.parse(fs.readFileSync(path.join(dir, 'calls.json'), 'utf8'));
    expect(calls.args.slice(0, 3)).toEqual(['-m', 'dynamo.profiler', '--config']);
    // the spec as JSON, then the output folder
    expect(JSON.parse(calls.args[3])).toEqual({ model: 'Qwen/Qwen3-0.6B', backend: 'vllm', image: 'nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.1.1' });
    expect(calls.args[4]).toBe('--output-dir');
    expect(calls.env).toEqual({ DGDR_NAME: 'sla', DGDR_NAMESPACE: 'team', TOOL: path.join(dir, 'dgd-apply-overrides') });
    // the profiler's folder is removed after a success
    expect(fs.existsSync(calls.args[5])).toBe(false);
    const [graph] = parseYamlDocuments(run.stdout) as any[];
    expect(graph.metadata).toMatchObject({ name: 'sla-dgd', namespace: 'team' });
    expect(graph.spec.components.map((c: any) => c.name)).toEqual(['Frontend', 'decode']);
  });

  test('--output workloads renders the generated graph as render does', () => {
    const python = fakePython(dir, 'success');
    const run = runCliOn({ 'req.yaml': REQUEST_YAML }, ['plan', '--python', python, '--output', 'workloads', '--no-grove', 'req.yaml']);
    expect(run.code).toBe(0);
    const kinds = (parseYamlDocuments(run.stdout) as any[]).map(o => `${o.kind}/${o.metadata.name}`);
    // the generated graph first, as stored (the defaulting webhook stamped it), then what the operator creates from it
    expect(kinds[0]).toBe('DynamoGraphDeployment/sla-dgd');
    expect((parseYamlDocuments(run.stdout) as any[])[0].metadata.annotations).toHaveProperty(['nvidia.com/dynamo-operator-origin-version']);
    expect(kinds).toContain('DynamoComponentDeployment/sla-dgd-frontend');
    expect(kinds.filter(k => k.startsWith('Deployment/sla-dgd-'))).toHaveLength(2);
  });

  test('a profiler failure is reported with the profiler\'s error and where its log is; nothing is written', () => {
    const python = fakePython(dir, 'failed');
    const run = runCliOn({ 'req.yaml': REQUEST_YAML }, ['plan', '--python', python, 'req.yaml']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^req\.yaml: document 1: DynamoGraphDeploymentRequest\/sla: profiling failed: no GPUs \(its log: .*profile_sla\.log\)\n$/);
    // the profiler's folder is kept for its log
    const log = /its log: (.*)\)/.exec(run.stderr)![1];
    expect(fs.existsSync(path.dirname(log))).toBe(true);
    fs.rmSync(path.dirname(log), { recursive: true, force: true });
  });

  test('an environment without the profiler is named, with how to create one, and no trace', () => {
    const run = runCliOn({ 'req.yaml': REQUEST_YAML }, ['plan', '--python', fakePython(dir, 'crash'), 'req.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("No module named 'dynamo' (create its environment with scripts/plan-env.sh and pass --python)");
    expect(run.stderr).not.toContain('Traceback');
    // nothing to look at: the profiler's folder is removed
    expect(fs.existsSync(JSON.parse(fs.readFileSync(path.join(dir, 'calls.json'), 'utf8')).args[5])).toBe(false);
    const missing = runCliOn({ 'req.yaml': REQUEST_YAML }, ['plan', '--python', path.join(dir, 'nope'), 'req.yaml']);
    expect(missing.stderr).toBe(`req.yaml: document 1: DynamoGraphDeploymentRequest/sla: cannot run the profiler: ${path.join(dir, 'nope')}: not found (create its environment with scripts/plan-env.sh and pass --python)\n`);
  });

  test('a request the API server would refuse is refused, with its file position, before any profiling', () => {
    const python = fakePython(dir, 'success');
    const thorough = 'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeploymentRequest\nmetadata:\n  name: r\nspec:\n'
      + '  model: m\n  searchStrategy: thorough\n  image: example.com/planner:1.5.0\n';
    const run = runCliOn({ 'r.yaml': thorough }, ['plan', '--python', python, 'r.yaml']);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toMatch(/^r\.yaml:7:3: .*spec\.searchStrategy: Invalid value: "thorough": is incompatible with spec\.backend "auto"/);
    expect(fs.existsSync(path.join(dir, 'calls.json'))).toBe(false);
  });

  test('a document that is not a v1beta1 request is refused before any profiling', () => {
    const python = fakePython(dir, 'success');
    const graph = 'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\nspec: {}\n';
    const run = runCliOn({ 'g.yaml': graph }, ['plan', '--python', python, 'g.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('g.yaml: document 1: kind: Invalid value: "DynamoGraphDeployment": plan reads a DynamoGraphDeploymentRequest\n');
    expect(fs.existsSync(path.join(dir, 'calls.json'))).toBe(false);
  });

  test('the installed binary plans with the stand-in profiler', () => {
    const cwd = binaryWorkdir('plan');
    try {
      fs.writeFileSync(path.join(cwd, 'req.yaml'), REQUEST_YAML);
      const run = runBinary(cwd, ['plan', '--quiet', '--python', fakePython(dir, 'success'), 'req.yaml']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect((parseYamlDocuments(run.stdout) as any[]).map(o => `${o.kind}/${o.metadata.name}`)).toEqual(['DynamoGraphDeployment/sla-dgd']);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });

  test('the help lists plan and says what it runs', () => {
    const programHelp = runCliOn({}, ['--help']);
    expect(programHelp.code).toBe(0);
    const helpText = (): string => programHelp.stdout;
    expect(helpText()).toContain('  cdk8s-dynamo plan [--python PATH] [--output graph|components|workloads] [--namespace NS] [--out DIR] [--quiet] [OPERATOR...] REQUEST\n');
    expect(helpText()).toMatch(/\n {2}plan {7}run the profiler on a DynamoGraphDeploymentRequest/);
    const run = runCliOn({}, ['plan', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('python -m dynamo.profiler --config SPEC-AS-JSON');
  });

  test('plan takes one REQUEST file', () => {
    const run = runCliOn({}, ['plan', 'a.yaml', 'b.yaml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('plan reads one REQUEST file; got 2');
  });
});

describeNeeding('conformance')('the operator\'s DGDR goldens, planned with the recorded profiler output (replayed)', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-replay-')); });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  test.each([...PLANNED_SCENARIOS])('%s: the generated graph, its components and workloads match output.yaml', id => {
    const { input, expected } = goldenScenario(id);
    // the stand-in fails the run unless plan calls it exactly as the recorded profiler run was called
    const planned = plannedScenarioInput(id, input, replayPython(id, dir));
    const outcome = runScenario(id, { input: planned, expected }, withPlannedGraph(renderDocuments));
    expect(outcome).toEqual({ kind: 'matched', mode: 'workloads', rendered: expect.any(Number) });
  });

  test('a change in the spec plan sends the profiler fails the replay, naming what differs', () => {
    const [request] = structuredClone(goldenScenario('dgdr/deployment').input) as any[];
    request.spec.workload.isl = 4096;
    expect(() => plannedScenarioInput('dgdr/deployment', [request], replayPython('dgdr/deployment', dir)))
      .toThrow(/^dgdr\/deployment\/input\.yaml: document 1: DynamoGraphDeploymentRequest\/aic-deployment: the profiler stopped without a result: replay of dgdr\/deployment: the --config JSON at workload\.isl differs from the recorded run: expected 4000, got 4096$/);
  });

  test('a change in the variables plan sets for the profiler fails the replay', () => {
    const [request] = structuredClone(goldenScenario('dgdr/grove').input) as any[];
    request.metadata.name = 'renamed';
    expect(() => plannedScenarioInput('dgdr/grove', [request], replayPython('dgdr/grove', dir)))
      .toThrow('replay of dgdr/grove: DGDR_NAME differs from the recorded run: expected "aic-profiler", got "renamed"');
  });
});

const GOLDEN_DIR = path.join(CONFORMANCE_DIR ?? path.join(ROOT, 'missing'), 'dgdr');
const { python: PYTHON, reason: NO_PYTHON } = profilerPython();
const describeGoldens = PYTHON && fs.existsSync(GOLDEN_DIR) ? describe : describe.skip;
if (!PYTHON) {
  // eslint-disable-next-line no-console
  console.log(`plan.test.ts: the DGDR goldens with the real profiler are skipped (their recorded runs are replayed): ${NO_PYTHON}`);
}

describeGoldens('the operator\'s DGDR goldens, planned with the real profiler (rapid search)', () => {
  test.each([...PLANNED_SCENARIOS])('%s: the generated graph, its components and workloads match output.yaml', id => {
    const dir = path.join(GOLDEN_DIR, id.split('/')[1]);
    // as the goldens' harness applied the request: in its namespace, with runtimeVersionOverride 1.4.0
    const planned = plannedScenarioInput(id, readYamlDocuments(path.join(dir, 'input.yaml')), PYTHON!);
    const outcome = runScenario(id, { input: planned, expected: readYamlDocuments(path.join(dir, 'output.yaml')) }, withPlannedGraph(renderDocuments));
    expect(outcome).toEqual({ kind: 'matched', mode: 'workloads', rendered: expect.any(Number) });
  }, 15 * 60 * 1000);
});
