/**
 * Empty values on the objects the operator creates, run through the CLI in process (`render --output
 * workloads`); the expected values are the operator's, from the recorded oracle fixtures
 * (test/fixtures/oracle/renders-*.jsonl.gz) and from the oracle (operator 1.5.0) run on the
 * hand-written graph below.
 * - Annotations and labels whose value is empty (`key: ""`): the operator's overriding map merge
 *   copies every key of the graph's `spec.annotations`/`spec.labels` and of the pod template, an
 *   empty value included, and an empty value written later replaces a non-empty one.
 * - `null` members of an EPP DCD's `eppConfig.config` that the operator's Go types write and the API
 *   server drops when it stores the DCD.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { runCliOn } from './support/cli-in-process';
import { ORACLE_FIXTURES_DIR, ORACLE_SETTINGS_DIR, OracleMode, readOracleRecords, withOracleUids } from './support/oracle-renders';

/** The objects `render --output workloads` writes for `graph` with the operator configuration `config`, Grove on or off. */
function renderWorkloads(graph: string, config: string, grove: boolean): any[] {
  const run = runCliOn({ 'graph.yaml': graph, 'op.yaml': config },
    ['render', '--output', 'workloads', '--namespace', 'dynamo', '--operator-config', 'op.yaml', grove ? '--grove' : '--no-grove', 'graph.yaml']);
  if (run.code !== 0) throw new Error(`render failed (${run.code}): ${run.stderr}`);
  return parseAllDocuments(run.stdout).map(d => d.toJSON()).filter(Boolean);
}

/** The recorded run of `seed` at `version` in `mode`, and the CLI's inputs for it (the graph YAML, the operator configuration). */
function recordedRun(seed: number, version: string, mode: OracleMode) {
  const record = readOracleRecords(path.join(ORACLE_FIXTURES_DIR, `renders-${version}.jsonl.gz`)).find(r => r.seed === seed)!;
  const run = record.runs.find(r => r.mode === mode && r.version === version)!;
  expect(run.exit).toBe(0);
  const config = `${fs.readFileSync(path.join(ORACLE_SETTINGS_DIR, `${record.settings}.yaml`), 'utf8')}\noperatorVersion: "${version}"\n`;
  const input = withOracleUids(record.input).map(d => stringify(d)).join('---\n');
  return { run, config, input };
}

const cliqueMetadata = (pcs: any) => Object.fromEntries(
  pcs.spec.template.cliques.map((c: any) => [c.name, { labels: c.labels, annotations: c.annotations }]));

describe('empty annotation and label values', () => {
  test('recorded seed 20261214 (operator 1.5.0, Grove, settings checkpoint): a graph annotation `69v5uglska7p: ""` reaches every clique, as the operator writes it', () => {
    const { run, config, input } = recordedRun(20261214, '1.5.0', 'grove');
    const oracle = run.objects!.find(o => o.kind === 'PodCliqueSet');
    const ours = renderWorkloads(input, config, true).find(o => o.kind === 'PodCliqueSet');
    // the recorded input's graph-level annotation with an empty value
    expect(oracle.spec.template.cliques.map((c: any) => c.annotations['69v5uglska7p'])).toEqual(['', '']);
    expect(cliqueMetadata(ours)).toEqual(cliqueMetadata(oracle));
    expect(ours.metadata.annotations).toEqual(oracle.metadata.annotations);
  });

  // graph and pod-template metadata with empty values, some over non-empty ones
  const graph = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: emptymeta
spec:
  annotations:
    team.example.org/blank: ""
    team.example.org/cleared: "graph"
    team.example.org/kept: "graph"
  labels:
    example.com/blank: ""
    example.com/cleared: "graph"
  components:
  - name: Frontend
    type: frontend
    replicas: 1
    podTemplate:
      metadata:
        annotations:
          team.example.org/cleared: ""
          team.example.org/own: ""
        labels:
          example.com/cleared: ""
          example.com/own: ""
      spec:
        containers:
        - name: main
          image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.0
`;
  const config = 'apiVersion: operator.config.dynamo.nvidia.com/v1alpha1\nkind: OperatorConfiguration\noperatorVersion: "1.5.0"\ndiscovery:\n  backend: kubernetes\n';
  // what the oracle (operator 1.5.0) writes for the graph above, Grove and non-Grove alike
  const userAnnotations = { 'team.example.org/blank': '', 'team.example.org/cleared': '', 'team.example.org/kept': 'graph', 'team.example.org/own': '' };
  const userLabels = { 'example.com/blank': '', 'example.com/cleared': '', 'example.com/own': '' };
  const only = (map: Record<string, string>, prefix: string) => Object.fromEntries(Object.entries(map).filter(([k]) => k.startsWith(prefix)));

  test('Grove: the clique keeps every empty value, and an empty pod-template value replaces the graph\'s', () => {
    const pcs = renderWorkloads(graph, config, true).find(o => o.kind === 'PodCliqueSet');
    const clique = pcs.spec.template.cliques[0];
    expect(only(clique.annotations, 'team.example.org/')).toEqual(userAnnotations);
    expect(only(clique.labels, 'example.com/')).toEqual(userLabels);
    // the PodCliqueSet itself carries the graph's own spec metadata
    expect(only(pcs.metadata.annotations, 'team.example.org/')).toEqual({ 'team.example.org/blank': '', 'team.example.org/cleared': 'graph', 'team.example.org/kept': 'graph' });
    expect(only(pcs.metadata.labels, 'example.com/')).toEqual({ 'example.com/blank': '', 'example.com/cleared': 'graph' });
  });

  test('non-Grove: the pod template of the Deployment keeps the same empty values', () => {
    const deployment = renderWorkloads(graph, config, false).find(o => o.kind === 'Deployment');
    expect(only(deployment.spec.template.metadata.annotations, 'team.example.org/')).toEqual(userAnnotations);
    expect(only(deployment.spec.template.metadata.labels, 'example.com/')).toEqual(userLabels);
  });
});

describe('null members of an EPP DCD\'s eppConfig.config', () => {
  // The operator's Go type of the config (gateway-api-inference-extension apix/config/v1alpha1) has no
  // omitempty on a plugin's `parameters` nor on a scheduling plugin's `weight`, so it sends `null` for
  // them; the DCD CRD does not mark them nullable, so the API server drops them when it stores the DCD
  // (apiextensions-apiserver pkg/apiserver/schema/defaulting/prunenulls.go). The recordings hold the
  // objects as sent (the oracle's fake API server keeps nulls); the project renders the DCD as stored.
  test.each(['1.5.0', '1.4.0'])('recorded seed 20261212 (operator %s, non-Grove, settings etcd-nats): the DCD as stored', version => {
    const { run, config, input } = recordedRun(20261212, version, 'nogrove');
    const oracle = run.objects!.find(o => o.kind === 'DynamoComponentDeployment' && o.spec.eppConfig !== undefined);
    const sent = oracle.spec.eppConfig.config;
    expect(sent.plugins.map((p: any) => p.parameters)).toEqual([null, null]);
    expect(sent.schedulingProfiles[0].plugins.map((p: any) => p.weight)).toEqual([null]);
    // what the API server stores: the same config without those nulls
    const stored = JSON.parse(JSON.stringify(sent));
    for (const p of stored.plugins) delete p.parameters;
    for (const profile of stored.schedulingProfiles) for (const p of profile.plugins) delete p.weight;
    const ours = renderWorkloads(input, config, false).find(o => o.kind === 'DynamoComponentDeployment' && o.metadata.name === oracle.metadata.name);
    expect(ours.spec.eppConfig).toEqual({ ...oracle.spec.eppConfig, config: stored });
    expect(ours.spec.eppConfig.config.plugins[0]).toEqual({ type: 'single-profile-handler', name: '' });
  });
});

describe('resource lists a GPU memory service leaves empty', () => {
  // a worker whose only resources are GPUs, which the GPU memory service moves to a DRA claim: the
  // operator's Go type omits an empty `limits`/`requests` (omitempty), on the workload and on the
  // DynamoCheckpoint's capture pod template alike (found by `oracle:record --check`, seed 20270153;
  // the expected values are the oracle's, operator 1.5.0, settings checkpoint, on this graph)
  const graph = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: gmsckpt
spec:
  backendFramework: trtllm
  components:
  - name: worker
    type: worker
    replicas: 1
    podTemplate:
      spec:
        containers:
        - name: main
          image: nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.5.1
          command: [python3, -m, dynamo.trtllm]
          args: [--model-path, Qwen/Qwen3-0.6B]
          resources:
            requests:
              nvidia.com/gpu: "1"
            limits:
              nvidia.com/gpu: "1"
    experimental:
      gpuMemoryService:
        mode: IntraPod
      checkpoint:
        enabled: true
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata:
  name: gpu.nvidia.com
spec:
  selectors:
  - cel:
      expression: device.driver == 'gpu.nvidia.com'
`;
  const config = `${fs.readFileSync(path.join(ORACLE_SETTINGS_DIR, 'checkpoint.yaml'), 'utf8')}\noperatorVersion: "1.5.0"\n`;
  const mainResources = (containers: any[]) => containers.find(c => c.name === 'main').resources;
  const claimOnly = { claims: [{ name: 'intrapod-shared-gpu' }] };

  test.each([true, false])('Grove %s: no empty limits or requests on the workload nor on the DynamoCheckpoint', grove => {
    const objects = renderWorkloads(graph, config, grove);
    const workload = objects.find(o => o.kind === (grove ? 'PodCliqueSet' : 'Deployment'));
    const podSpec = grove ? workload.spec.template.cliques[0].spec.podSpec : workload.spec.template.spec;
    expect(mainResources(podSpec.containers)).toEqual(claimOnly);
    const checkpoints = objects.filter(o => o.kind === 'DynamoCheckpoint');
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const c of checkpoints) expect(mainResources(c.spec.job.podTemplateSpec.spec.containers)).toEqual(claimOnly);
  });
});
