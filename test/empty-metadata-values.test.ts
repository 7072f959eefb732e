/**
 * Annotations and labels whose value is empty (`key: ""`) on the objects the operator creates: the
 * operator's overriding map merge copies every key of the graph's `spec.annotations`/`spec.labels`
 * and of the pod template, an empty value included, and an empty value written later replaces a
 * non-empty one. Run through the CLI in process (`render --output workloads`); the expected values
 * are the operator's, from the recorded oracle fixtures (test/fixtures/oracle/renders-1.5.0.jsonl.gz)
 * and from the oracle (operator 1.5.0) run on the hand-written graph below.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { runCliOn } from './support/cli-in-process';
import { ORACLE_FIXTURES_DIR, ORACLE_SETTINGS_DIR, readOracleRecords, withOracleUids } from './support/oracle-renders';

/** The objects `render --output workloads` writes for `graph` with the operator configuration `config`, Grove on or off. */
function renderWorkloads(graph: string, config: string, grove: boolean): any[] {
  const run = runCliOn({ 'graph.yaml': graph, 'op.yaml': config },
    ['render', '--output', 'workloads', '--namespace', 'dynamo', '--operator-config', 'op.yaml', grove ? '--grove' : '--no-grove', 'graph.yaml']);
  if (run.code !== 0) throw new Error(`render failed (${run.code}): ${run.stderr}`);
  return parseAllDocuments(run.stdout).map(d => d.toJSON()).filter(Boolean);
}

const cliqueMetadata = (pcs: any) => Object.fromEntries(
  pcs.spec.template.cliques.map((c: any) => [c.name, { labels: c.labels, annotations: c.annotations }]));

describe('empty annotation and label values', () => {
  test('recorded seed 20261214 (operator 1.5.0, Grove, settings checkpoint): a graph annotation `69v5uglska7p: ""` reaches every clique, as the operator writes it', () => {
    const record = readOracleRecords(path.join(ORACLE_FIXTURES_DIR, 'renders-1.5.0.jsonl.gz')).find(r => r.seed === 20261214)!;
    const run = record.runs.find(r => r.mode === 'grove' && r.version === '1.5.0')!;
    expect(run.exit).toBe(0);
    const config = `${fs.readFileSync(path.join(ORACLE_SETTINGS_DIR, `${record.settings}.yaml`), 'utf8')}\noperatorVersion: "1.5.0"\n`;
    const input = withOracleUids(record.input).map(d => stringify(d)).join('---\n');
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
