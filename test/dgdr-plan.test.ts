/**
 * The construct option `plan` of DynamoGraphDeploymentRequest: synthesis runs the profiler on the
 * request as `cdk8s-dynamo plan` runs it (src/plan) and synthesizes what the operator deploys for it,
 * in the construct's output mode. Checked against the command itself on the operator's DGDR golden
 * `dgdr/deployment`, with its recorded profiler output replayed (test/fixtures/plan), and, when a
 * Python environment with the profiler is there, with the real profiler.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { DynamoGraphDeploymentRequest, DynamoGraphDeploymentRequestProps, OutputMode, RequestBackend, SearchStrategy } from '../src';
import { runCliOn } from './support/cli-in-process';
import { PLAN_FIXTURES_DIR, profilerPython, replayPython } from './support/conformance/dgdr';
import { GOLDEN_DEPLOYMENT_REQUEST } from './support/requests';
import { parseYamlDocuments } from '../src/import';

/** The request of the golden dgdr/deployment, as its harness applied it (its namespace, runtimeVersionOverride 1.4.0). */
const GOLDEN: DynamoGraphDeploymentRequestProps = {
  ...GOLDEN_DEPLOYMENT_REQUEST,
  metadata: { name: 'aic-deployment', namespace: 'clusterenv-conformance' },
  runtimeVersionOverride: '1.4.0',
};

const MODES: ReadonlyArray<[OutputMode, string]> = [[OutputMode.GRAPH, 'graph'], [OutputMode.COMPONENTS, 'components'], [OutputMode.WORKLOADS, 'workloads']];

function request(props: Partial<DynamoGraphDeploymentRequestProps>, id = 'Request'): { chart: Chart; construct: DynamoGraphDeploymentRequest } {
  const chart = new Chart(Testing.app(), 'test');
  return { chart, construct: new DynamoGraphDeploymentRequest(chart, id, { ...GOLDEN, ...props }) };
}

/** What `cdk8s-dynamo plan --output MODE` writes for the construct's request (as authored). */
function planned(construct: DynamoGraphDeploymentRequest, python: string, mode: string): unknown[] {
  const run = runCliOn({ 'request.yaml': JSON.stringify(construct.toJson()) }, ['plan', '--quiet', '--python', python, '--output', mode, 'request.yaml']);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return parseYamlDocuments(run.stdout);
}

/** An interpreter that counts its runs in `count` beside it, then runs `python`. */
function counting(python: string, dir: string): string {
  const file = path.join(dir, 'counting-python');
  fs.writeFileSync(file, `#!/bin/sh\necho run >> ${JSON.stringify(path.join(dir, 'count'))}\nexec ${JSON.stringify(python)} "$@"\n`);
  fs.chmodSync(file, 0o755);
  fs.writeFileSync(path.join(dir, 'dgd-apply-overrides'), '');
  return file;
}

const runs = (dir: string) => (fs.existsSync(path.join(dir, 'count')) ? fs.readFileSync(path.join(dir, 'count'), 'utf8').split('\n').filter(Boolean).length : 0);

describe('DynamoGraphDeploymentRequest with plan: true (the recorded profiler output of dgdr/deployment replayed)', () => {
  let dir: string;
  let replay: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dgdr-plan-'));
    // the replay fails the run unless the profiler is called with the recorded spec, variables and override tool
    replay = replayPython('dgdr/deployment', dir, { anyKeyOrder: true });
  });
  afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

  test.each(MODES)('%s output: exactly what cdk8s-dynamo plan writes for the request', (output, mode) => {
    const { chart, construct } = request({ output, plan: true, python: replay });
    const synthesized = Testing.synth(chart);
    expect(synthesized).toEqual(planned(construct, replay, mode));
    const kinds = synthesized.map((o: any) => `${o.kind}/${o.metadata.name}`);
    // the generated graph, named after the request, in its namespace; no request
    expect(kinds[0]).toBe('DynamoGraphDeployment/aic-deployment-dgd');
    expect(kinds).not.toContain('DynamoGraphDeploymentRequest/aic-deployment');
    expect(synthesized[0].metadata.namespace).toBe('clusterenv-conformance');
    if (output === OutputMode.GRAPH) expect(kinds).toEqual(['DynamoGraphDeployment/aic-deployment-dgd']);
    if (output !== OutputMode.GRAPH) expect(kinds).toContain('DynamoComponentDeployment/aic-deployment-dgd-frontend');
    if (output === OutputMode.WORKLOADS) expect(kinds).toContain('Deployment/aic-deployment-dgd-frontend');
  });

  test.each(MODES)('%s output: the ConfigMaps the profiler writes beside the graph are synthesized as plan writes them; other kinds are left out', (output, mode) => {
    // the recorded output with a ConfigMap (the planner's profile data) and a Secret added
    const python = path.join(dir, 'more-python');
    fs.writeFileSync(python, `#!${process.execPath}
const fs = require('fs'), path = require('path');
const out = process.argv[process.argv.indexOf('--output-dir') + 1];
const recorded = ${JSON.stringify(path.join(PLAN_FIXTURES_DIR, 'deployment', 'output'))};
fs.copyFileSync(path.join(recorded, 'profiler_status.yaml'), path.join(out, 'profiler_status.yaml'));
const extra = 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: planner-profile-data\\ndata:\\n  k: v\\n---\\napiVersion: v1\\nkind: Secret\\nmetadata:\\n  name: s\\n---\\n';
fs.writeFileSync(path.join(out, 'final_config.yaml'), extra + fs.readFileSync(path.join(recorded, 'final_config.yaml'), 'utf8'));
`);
    fs.chmodSync(python, 0o755);
    const { chart, construct } = request({ output, plan: true, python });
    const synthesized = Testing.synth(chart);
    const run = runCliOn({ 'request.yaml': JSON.stringify(construct.toJson()) }, ['plan', '--python', python, '--output', mode, 'request.yaml']);
    expect(run.code).toBe(0);
    // plan says what it leaves out; the construct leaves out the same
    expect(run.stderr).toContain('profiler output Secret/s: not created (the operator creates only the ConfigMaps of the profiler output)');
    expect(synthesized).toEqual(parseYamlDocuments(run.stdout));
    const configMap = synthesized.find((o: any) => o.kind === 'ConfigMap');
    expect(configMap.metadata).toEqual({
      name: 'planner-profile-data',
      namespace: 'clusterenv-conformance',
      labels: { 'dgdr.nvidia.com/name': 'aic-deployment', 'dgdr.nvidia.com/namespace': 'clusterenv-conformance', 'nvidia.com/managed-by': 'dynamo-operator' },
    });
    expect(synthesized.filter((o: any) => o.kind === 'Secret')).toEqual([]);
  });

  test('a generated graph the operator would refuse fails synthesis naming it, the field and the rule', () => {
    const python = path.join(dir, 'refused-python');
    fs.writeFileSync(python, `#!${process.execPath}
const fs = require('fs'), path = require('path');
const out = process.argv[process.argv.indexOf('--output-dir') + 1];
fs.writeFileSync(path.join(out, 'profiler_status.yaml'), 'status: success\\n');
fs.writeFileSync(path.join(out, 'final_config.yaml'), 'apiVersion: nvidia.com/v1beta1\\nkind: DynamoGraphDeployment\\nmetadata:\\n  name: g\\nspec:\\n  components:\\n  - name: w\\n    type: router\\n');
`);
    fs.chmodSync(python, 0o755);
    for (const output of [OutputMode.GRAPH, OutputMode.WORKLOADS]) {
      expect(() => Testing.synth(request({ output, plan: true, python }).chart)).toThrow(
        'test/Request: generated DynamoGraphDeployment/aic-deployment-dgd: spec.components[0].type (component "w"): Unsupported value: "router"');
    }
  });

  test('the interpreter defaults to $CDK8S_DYNAMO_PYTHON; a request is profiled once per process', () => {
    const python = counting(replay, dir);
    const saved = process.env.CDK8S_DYNAMO_PYTHON;
    process.env.CDK8S_DYNAMO_PYTHON = python;
    try {
      const first = Testing.synth(request({ plan: true }).chart);
      const again = Testing.synth(request({ plan: true, output: OutputMode.GRAPH }, 'Same').chart);
      expect(runs(dir)).toBe(1);
      expect(again).toEqual(first);
      // another request is profiled (and here refused by the replay, which holds the golden's run only)
      expect(() => Testing.synth(request({ plan: true, sla: { ttft: 1000, itl: 30 } }).chart))
        .toThrow(/test\/Request: DynamoGraphDeploymentRequest\/aic-deployment: the profiler stopped without a result: replay of dgdr\/deployment: the --config JSON at sla\.ttft differs from the recorded run: expected 2000, got 1000/);
      expect(runs(dir)).toBe(2);
    } finally {
      if (saved === undefined) delete process.env.CDK8S_DYNAMO_PYTHON;
      else process.env.CDK8S_DYNAMO_PYTHON = saved;
    }
  });

  test('without plan the request itself is synthesized and no profiler runs', () => {
    const python = counting(replay, dir);
    const [doc] = Testing.synth(request({ python }).chart);
    expect(doc.kind).toBe('DynamoGraphDeploymentRequest');
    expect(runs(dir)).toBe(0);
  });

  test('a request the API server would refuse is reported, and not profiled', () => {
    const python = counting(replay, dir);
    const { chart } = request({ plan: true, python, searchStrategy: SearchStrategy.THOROUGH, backend: RequestBackend.AUTO });
    expect(() => Testing.synth(chart)).toThrow(/spec\.searchStrategy: Invalid value: "thorough": is incompatible with spec\.backend "auto"/);
    expect(runs(dir)).toBe(0);
  });

  test('a missing interpreter fails synthesis saying what to install, with no stack trace', () => {
    const missing = path.join(dir, 'no-python');
    const { chart } = request({ plan: true, python: missing });
    let message = '';
    try {
      Testing.synth(chart);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toContain(`test/Request: DynamoGraphDeploymentRequest/aic-deployment: cannot run the profiler: ${missing}: not found `
      + '(create a Python environment with the Dynamo profiler as docs/plan.md describes and name its interpreter with the python prop or $CDK8S_DYNAMO_PYTHON)');
    expect(message).not.toMatch(/\n\s+at /);
  });

  test('a profiler failure names the profiler\'s error and its log', () => {
    const failing = path.join(dir, 'failing-python');
    fs.writeFileSync(failing, `#!${process.execPath}
const fs = require('fs'), path = require('path');
const out = process.argv[process.argv.indexOf('--output-dir') + 1];
fs.writeFileSync(path.join(out, 'profile_sla.log'), 'log');
fs.writeFileSync(path.join(out, 'profiler_status.yaml'), 'status: failed\\nerror: no GPUs\\n');
process.exit(1);
`);
    fs.chmodSync(failing, 0o755);
    const { chart } = request({ plan: true, python: failing });
    let message = '';
    try {
      Testing.synth(chart);
    } catch (e) {
      message = (e as Error).message;
    }
    const log = /test\/Request: DynamoGraphDeploymentRequest\/aic-deployment: profiling failed: no GPUs \(its log: (.*profile_sla\.log)\)/.exec(message);
    expect(log).not.toBeNull();
    // the profiler's folder is kept for its log
    expect(fs.readFileSync(log![1], 'utf8')).toBe('log');
    fs.rmSync(path.dirname(log![1]), { recursive: true, force: true });
  });
});

const { python: PYTHON, reason: NO_PYTHON } = profilerPython();
const describeReal = PYTHON ? describe : describe.skip;
if (!PYTHON) {
  // eslint-disable-next-line no-console
  console.log(`dgdr-plan.test.ts: plan with the real profiler is skipped: ${NO_PYTHON}`);
}

describeReal('DynamoGraphDeploymentRequest with plan: true and the real profiler (rapid search)', () => {
  test('dgdr/deployment in workloads output: what plan writes with the recorded profiler output', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dgdr-plan-real-'));
    try {
      const { chart, construct } = request({ output: OutputMode.WORKLOADS, plan: true, python: PYTHON });
      expect(Testing.synth(chart)).toEqual(planned(construct, replayPython('dgdr/deployment', dir, { anyKeyOrder: true }), 'workloads'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 15 * 60 * 1000);
});
