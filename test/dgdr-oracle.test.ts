/**
 * The DynamoGraphDeploymentRequest against the operator run offline (test/fixtures/oracle/dgdr:
 * each `input.yaml` with what the oracle built with tools/dgdr-reconciler.patch printed for it in
 * namespace clusterenv-conformance, operator 1.5.0, test/fixtures/oracle/operator-config.yaml: the
 * request as stored and what its reconciler created before profiling; `oracle.stderr` holds the
 * admission refusal of the rejected ones). Through the built command line (WORKLOADS and GRAPH
 * output, validate) and the construct.
 *
 * Expected differences: the output-copier script is this library's own text, so its args and the
 * Job's nvidia.com/last-applied-hash differ (docs/dynamographdeploymentrequest.md, "Differences from the operator").
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import * as YAML from 'yaml';
import { DGDR_SCHEMA_FILE, generateDgdrSchema } from '../scripts/import-dgdr-crd';
import { DynamoGraphDeploymentRequest, OptimizationType, OutputMode, SearchStrategy } from '../src';
import { admit, formatProblem, OperatorFields } from './support/facade';
import { GOLDEN_DEPLOYMENT_REQUEST } from './support/requests';

const DIR = path.join(__dirname, 'fixtures', 'oracle', 'dgdr');
const CLI = path.join(__dirname, '..', 'bin', 'cdk8s-dynamo');
const CONFIG = path.join(__dirname, 'fixtures', 'oracle', 'operator-config.yaml');
const NS = 'clusterenv-conformance';
const scenarios = fs.readdirSync(DIR).filter(d => fs.existsSync(path.join(DIR, d, 'input.yaml'))).sort();
const admitted = scenarios.filter(d => fs.existsSync(path.join(DIR, d, 'oracle.yaml')) && !d.startsWith('needs-'));
const rejected = scenarios.filter(d => d.startsWith('rejected-'));

function cli(...args: string[]) {
  return spawnSync('node', [CLI, ...args], { encoding: 'utf8' });
}

function objects(text: string): any[] {
  return YAML.parseAllDocuments(text).map(d => d.toJSON()).filter(o => o);
}

/** The object without what differs by intent (the sidecar script, the Job's hash), as plain JSON. */
function comparable(obj: any): any {
  const copy = JSON.parse(JSON.stringify(obj));
  if (copy.kind === 'Job') {
    delete copy.metadata.annotations['nvidia.com/last-applied-hash'];
    for (const c of copy.spec.template.spec.containers) if (c.name === 'output-copier') c.args = ['<script>'];
  }
  return copy;
}

/**
 * Where the oracle's stored request is not what an API server stores: its fake client keeps objects
 * in the Go type's unstructured form, which drops zero values and empty structs. An API server
 * stores the request as sent when the defaulting webhook changes nothing (controller-runtime's
 * CustomDefaulter answers without a patch then, see sigs.k8s.io/controller-runtime
 * `pkg/webhook/admission/defaulter_custom.go`): `mocker: {enabled: false}` stays. When the webhook
 * sets spec.image, its patch (to the Go type's JSON, removals dropped) also adds the empty structs
 * that JSON holds (`metadata: {}` of the Job template, `resources: {}` of a container), and they
 * stay. The profiler's `--config` is the same either way (the controller reads the Go type).
 */
const STORED_AS_SENT: Record<string, (stored: any) => void> = {
  'planner': stored => { stored.spec.features.mocker = { enabled: false }; },
  'model-cache': stored => {
    const template = stored.spec.overrides.profilingJob.template;
    template.metadata = {};
    template.spec.containers[0].resources = {};
  },
};

const key = (o: any) => `${o.apiVersion}/${o.kind}/${o.metadata.name}`;

beforeAll(() => {
  if (!fs.existsSync(path.join(__dirname, '..', 'lib', 'cli.js'))) execFileSync('npx', ['projen', 'compile']);
});

test('src/dgdr/crd-schema.ts is generated from the CRD kept in crds/', () => {
  expect(fs.readFileSync(DGDR_SCHEMA_FILE, 'utf8')).toBe(generateDgdrSchema());
});

test('the fixtures cover the three goldens, admitted variants and each webhook rule', () => {
  expect(admitted).toEqual(expect.arrayContaining(['golden-deployment', 'golden-grove', 'golden-lws', 'defaults', 'overrides', 'planner', 'model-cache']));
  expect(rejected).toHaveLength(3);
});

describe.each(admitted)('%s', (scenario) => {
  const input = path.join(DIR, scenario, 'input.yaml');
  const oracle = objects(fs.readFileSync(path.join(DIR, scenario, 'oracle.yaml'), 'utf8'));

  test('WORKLOADS output is what the operator creates before profiling', () => {
    const r = cli('render', '--quiet', '--output', 'workloads', '--namespace', NS, '--operator-config', CONFIG, input);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // other input documents (cluster state, e.g. the model cache PVC) pass through as they are
    const given = new Set(objects(fs.readFileSync(input, 'utf8')).map(o => `${o.apiVersion}/${o.kind}/${o.metadata.name}`));
    const ours = objects(r.stdout).filter(o => !given.has(key(o)));
    const expected = oracle.filter(o => o.kind !== 'DynamoGraphDeploymentRequest');
    expect(ours.map(key).sort()).toEqual(expected.map(key).sort());
    for (const o of expected) expect(comparable(ours.find(x => key(x) === key(o)))).toEqual(comparable(o));
    // the Job carries the create bookkeeping, and a script that writes the request's output ConfigMap
    const job = ours.find(o => o.kind === 'Job');
    expect(job.metadata.annotations['nvidia.com/last-applied-hash']).toMatch(/^[0-9a-f]{64}$/);
    const script = job.spec.template.spec.containers.find((c: any) => c.name === 'output-copier').args[0];
    expect(script).toContain(`name: dgdr-output-${job.metadata.labels.dgdr}`);
    expect(script).toContain('uid: 00000000-0000-0000-0000-000000000001');
  });

  test('GRAPH output is the request as stored after admission', () => {
    const r = cli('render', '--output', 'graph', '--namespace', NS, '--operator-config', CONFIG, input);
    expect(r.status).toBe(0);
    const expected = oracle.filter(o => o.kind === 'DynamoGraphDeploymentRequest');
    STORED_AS_SENT[scenario]?.(expected[0]);
    expect(objects(r.stdout).filter(o => o.kind === 'DynamoGraphDeploymentRequest')).toEqual(expected);
  });
});

/**
 * The oracle runs with GPU discovery off, as the operator's cluster tests do; a real operator has it
 * off only when namespace-restricted with `gpu.discoveryEnabled: false` (cluster-wide it always
 * discovers GPUs). The engine's settings do not carry that flag yet: the DGDR rules read it as a
 * field of the settings.
 */
const DISCOVERY_OFF = { restrictedNamespace: NS, gpuDiscoveryEnabled: false } as OperatorFields;

describe.each(rejected)('%s', (scenario) => {
  const file = path.join(DIR, scenario, 'input.yaml');
  // "... is invalid: <path>: <message>" of the oracle's refusal
  const expected = /is invalid: (.*)$/m.exec(fs.readFileSync(path.join(DIR, scenario, 'oracle.stderr'), 'utf8'))![1];

  test('admission refuses it with the operator\'s message (GPU discovery off, as the oracle)', () => {
    expect(admit(objects(fs.readFileSync(file, 'utf8')), DISCOVERY_OFF).map(formatProblem)).toEqual([expect.stringContaining(expected)]);
  });

  test('validate says the same where the rule does not depend on GPU discovery', () => {
    const r = cli('validate', '--operator-config', CONFIG, file);
    if (scenario === 'rejected-no-hardware') {
      // a default install discovers GPUs: the request is admitted
      expect(r.status).toBe(0);
    } else {
      expect(r.status).toBe(1);
      expect(r.stdout + r.stderr).toContain(expected);
    }
  });
});

test('an unnamed container of the Job override is refused when the defaulting webhook changes nothing', () => {
  // The CRD requires a container name (a list map keyed by name). When the request names its image,
  // the defaulting webhook answers without a patch and the API server validates the request as
  // sent; the oracle validates the Go type's JSON instead (where `name: ""` is always written) and
  // accepts it. Without an image (fixture model-cache) the webhook's patch adds `name: ""` and
  // the request is admitted on both sides.
  const doc = objects(fs.readFileSync(path.join(DIR, 'model-cache', 'input.yaml'), 'utf8'))[0];
  doc.spec.image = 'nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.5.0';
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dgdr-'));
  fs.writeFileSync(path.join(tmp, 'named-image.yaml'), YAML.stringify(doc));
  const r = cli('validate', path.join(tmp, 'named-image.yaml'));
  expect(r.status).toBe(1);
  expect(r.stdout + r.stderr).toContain('spec.overrides.profilingJob.template.spec.containers[0].name: Required value');
});

test('hardware left to GPU discovery: the operator creates no Job offline, and the render says what to set', () => {
  const dir = path.join(DIR, 'needs-discovery');
  expect(objects(fs.readFileSync(path.join(dir, 'oracle.yaml'), 'utf8')).map(o => o.kind)).toEqual(['DynamoGraphDeploymentRequest']);
  expect(fs.readFileSync(path.join(dir, 'oracle.stderr'), 'utf8')).toContain('JobCreationFailed: auto-discovery failed');
  const r = cli('render', '--output', 'workloads', '--namespace', NS, '--operator-config', CONFIG, path.join(dir, 'input.yaml'));
  expect(r.status).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toContain('DynamoGraphDeploymentRequest/needs-discovery: spec.hardware: Required value: the operator fills totalGpus from the cluster\'s GPU discovery');
  // admission accepts it (the webhook asks for one manual hardware field)
  expect(cli('validate', '--operator-config', CONFIG, path.join(dir, 'input.yaml')).status).toBe(0);
});

test('the construct synthesizes the golden request and its profiling workloads', () => {
  const golden = objects(fs.readFileSync(path.join(DIR, 'golden-deployment', 'oracle.yaml'), 'utf8'));
  const props = GOLDEN_DEPLOYMENT_REQUEST;

  const app = new App();
  const graph = new Chart(app, 'graph', { namespace: NS });
  new DynamoGraphDeploymentRequest(graph, 'request', props);
  const workloads = new Chart(app, 'workloads', { namespace: NS });
  new DynamoGraphDeploymentRequest(workloads, 'request', { ...props, output: OutputMode.WORKLOADS });
  expect(graph.toJson()).toEqual(golden.filter(o => o.kind === 'DynamoGraphDeploymentRequest'));
  const ours = workloads.toJson();
  const expected = golden.filter(o => o.kind !== 'DynamoGraphDeploymentRequest');
  expect(ours.map(key).sort()).toEqual(expected.map(key).sort());
  for (const o of expected) expect(comparable(ours.find((x: any) => key(x) === key(o)))).toEqual(comparable(o));
});

test('the construct refuses at synth what the operator\'s webhook refuses', () => {
  const app = new App();
  const chart = new Chart(app, 'c');
  new DynamoGraphDeploymentRequest(chart, 'request', {
    model: 'm', searchStrategy: SearchStrategy.THOROUGH, sla: { optimizationType: OptimizationType.LATENCY },
  });
  expect(() => app.synth()).toThrow(/spec\.searchStrategy: Invalid value: "thorough": is incompatible with spec\.backend "auto"; set spec\.backend to a specific backend \(sglang, trtllm, or vllm\) \(rule dgdr-search-strategy\)/);
});

test('the CRD schema refuses an unknown field and a bad enum value', () => {
  const file = path.join(DIR, 'golden-lws', 'input.yaml');
  const doc = YAML.parse(fs.readFileSync(file, 'utf8'));
  doc.spec.hardware.gpuSku = 'h100';
  doc.spec.workload.islx = 1;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dgdr-'));
  fs.writeFileSync(path.join(tmp, 'bad.yaml'), YAML.stringify(doc));
  const r = cli('validate', path.join(tmp, 'bad.yaml'));
  expect(r.status).toBe(1);
  expect(r.stdout + r.stderr).toContain('spec.hardware.gpuSku: Unsupported value: "h100"');
  expect(r.stdout + r.stderr).toContain('spec.workload.islx');
});
