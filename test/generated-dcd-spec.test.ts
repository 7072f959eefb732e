/**
 * The `nvidia.com/dcd-spec` annotation the operator's graph controller writes on every DCD it
 * generates (the v1alpha1 round trip of the component, src/import/v1alpha1/generated-dcd.ts),
 * rendered through the CLI. The expected values are what the operator produced for the same
 * inputs (test/fixtures/dcd-spec/oracle-dcd-spec.json, from the offline operator run).
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCliOn } from './support/cli-in-process';

const FIXTURES = path.join(__dirname, 'fixtures', 'dcd-spec');
const ANNOTATION = 'nvidia.com/dcd-spec';

interface OracleDcd {
  readonly dcd: string;
  readonly annotation: string;
}
const ORACLE: Record<string, Record<string, OracleDcd>> = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'oracle-dcd-spec.json'), 'utf8')).inputs;

function fixture(name: string): string {
  return fs.readFileSync(path.join(FIXTURES, name), 'utf8');
}

const operatorConfig = (version: string) => `apiVersion: operator.config.dynamo.nvidia.com/v1alpha1
kind: OperatorConfiguration
operatorVersion: ${version}
discovery:
  backend: kubernetes
`;

/** The DCDs `render --output components` writes for `text`, at operator `version`. */
function renderDcds(text: string, version = '1.5.0', extra: readonly string[] = []): any[] {
  const run = runCliOn({ 'graph.yaml': text, 'op.yaml': operatorConfig(version) },
    ['render', '--output', 'components', '--namespace', 'dynamo', '--operator-config', 'op.yaml', ...extra, 'graph.yaml']);
  if (run.code !== 0) throw new Error(`render failed (${run.code}): ${run.stderr}`);
  return parseAllDocuments(run.stdout).map(d => d.toJSON()).filter(d => d?.kind === 'DynamoComponentDeployment');
}

/** component name → [DCD name, its dcd-spec annotation] */
function byComponent(dcds: readonly any[]): Record<string, [string, string | undefined]> {
  const out: Record<string, [string, string | undefined]> = {};
  for (const dcd of dcds) out[dcd.spec.name] = [dcd.metadata.name, dcd.metadata.annotations?.[ANNOTATION]];
  return out;
}

function oracleByComponent(file: string): Record<string, [string, string | undefined]> {
  const out: Record<string, [string, string | undefined]> = {};
  for (const [component, d] of Object.entries(ORACLE[file])) out[component] = [d.dcd, d.annotation];
  return out;
}

describe('nvidia.com/dcd-spec on the DCDs of a graph, as the operator writes it', () => {
  test.each([
    ['pod-fields.yaml', 'GPU, cpu, memory and custom resources, env with valueFrom, envFrom, volume mounts, probes, a compilation cache, shared memory 0, pod labels'],
    ['multinode.yaml', 'a frontend and a multinode worker with GPUs and env'],
    ['legacy-converted.yaml', 'a graph converted from v1alpha1 (dgd-spec: labels, annotations, serviceName, subComponentType, dynamoNamespace, origins of env and resources, cache mounts, a disabled scaling adapter)'],
    ['legacy-sidecar-converted.yaml', 'a graph converted from v1alpha1 (dgd-spec: disabled shared memory with a size, a frontend sidecar, main-container origins)'],
    ['legacy-labels-converted.yaml', 'a graph converted from v1alpha1 whose worker has v1alpha1 labels and annotations (they enter the worker hash)'],
  ])('%s: %s', (file) => {
    expect(byComponent(renderDcds(fixture(file)))).toEqual(oracleByComponent(file));
  });

  test('a component with nothing in its pod template records only the empty service name', () => {
    const frontend = ORACLE['multinode.yaml'].Frontend.annotation;
    expect(frontend).toBe('{"version":1,"spec":{},"rawJSON":[{"path":"serviceName","nil":true}]}');
    expect(byComponent(renderDcds(fixture('multinode.yaml'))).Frontend[1]).toBe(frontend);
  });

  test('a service whose v1alpha1 serviceName differs from its key records no empty service name', () => {
    const [, annotation] = byComponent(renderDcds(fixture('legacy-converted.yaml'))).Frontend;
    expect(JSON.parse(annotation!)).toEqual({ version: 1, spec: { annotations: { note: 'kept' }, labels: { tier: 'edge' } } });
  });

  test.each([
    ['legacy-v1alpha1.yaml', 'legacy-converted.yaml'],
    ['legacy-sidecar-v1alpha1.yaml', 'legacy-sidecar-converted.yaml'],
    ['legacy-labels-v1alpha1.yaml', 'legacy-labels-converted.yaml'],
  ])('the v1alpha1 graph %s renders the annotations of its conversion', (alpha, converted) => {
    expect(byComponent(renderDcds(fixture(alpha)))).toEqual(oracleByComponent(converted));
  });

  test('operator 1.4.0 writes the same annotation (the same conversion code at the 1.4.0 cut)', () => {
    const annotations = (dcds: any[]) => Object.fromEntries(Object.entries(byComponent(dcds)).map(([k, [, a]]) => [k, a]));
    const expected = Object.fromEntries(Object.entries(ORACLE['pod-fields.yaml']).map(([k, d]) => [k, d.annotation]));
    expect(annotations(renderDcds(fixture('pod-fields.yaml'), '1.4.0'))).toEqual(expected);
  });

  test('with Grove available, a graph that opts out of Grove gets the DCDs and their annotations alike', () => {
    const optedOut = fixture('multinode.yaml').replace('  name: mn\n', '  name: mn\n  annotations:\n    nvidia.com/enable-grove: "false"\n');
    expect(optedOut).toContain('enable-grove');
    expect(byComponent(renderDcds(optedOut, '1.5.0', ['--grove']))).toEqual(oracleByComponent('multinode.yaml'));
  });
});

const DEPLOYMENTS: Record<string, Record<string, unknown>> = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'oracle-dcd-spec.json'), 'utf8')).deployments;

describe('what the component controller reads back from nvidia.com/dcd-spec', () => {
  test.each(Object.keys(DEPLOYMENTS))('%s: v1alpha1 labels, annotations, subComponentType and dynamoNamespace reach the Deployments', (file) => {
    // legacy-dcd-converted.yaml is a standalone DCD converted from v1alpha1: its annotation is read back the same way
    const run = runCliOn({ 'graph.yaml': fixture(file), 'op.yaml': operatorConfig('1.5.0') },
      ['render', '--output', 'workloads', '--namespace', 'dynamo', '--operator-config', 'op.yaml', 'graph.yaml']);
    expect(run.code).toBe(0);
    const deployments: Record<string, unknown> = {};
    for (const d of parseAllDocuments(run.stdout).map(doc => doc.toJSON())) {
      if (d?.kind !== 'Deployment') continue;
      const template = d.spec.template.metadata;
      deployments[d.metadata.name] = { labels: d.metadata.labels, podLabels: template.labels, podAnnotations: template.annotations ?? null };
    }
    expect(deployments).toEqual(DEPLOYMENTS[file]);
  });
});
