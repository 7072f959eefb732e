/**
 * Objects compared with what the Dynamo operator itself creates for the same graph: every expected
 * value below is copied from the operator's code run offline on the fixture (operator 1.5.0,
 * test/fixtures/oracle/README.md), not computed by this library.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { runCliOn } from './support/cli-in-process';

const FIXTURES = path.join(__dirname, 'fixtures', 'oracle');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

/** `render --output workloads` on a fixture, as the operator was run: namespace dynamo, LWS, no Grove. */
function renderWorkloads(name: string): any[] {
  const files = { 'operator.yaml': fixture('operator-config.yaml'), [name]: fixture(name) };
  const run = runCliOn(files, ['render', '--output', 'workloads', '--namespace', 'dynamo', '--operator-config', 'operator.yaml', '--no-grove', '--lws', name]);
  expect(run.code).toBe(0);
  return parseAllDocuments(run.stdout).map(d => d.toJS()).filter(o => o);
}

function object(objects: any[], kind: string, name: string): any {
  const found = objects.filter(o => o.kind === kind && o.metadata.name === name);
  expect(found).toHaveLength(1);
  return found[0];
}

const hashOf = (o: any) => o.metadata.annotations['nvidia.com/last-applied-hash'];
const mainOf = (podTemplate: any) => podTemplate.spec.containers.find((c: any) => c.name === 'main');

describe('the DCDs of a graph hold what the operator sends: its Go types drop empty values', () => {
  const objects = renderWorkloads('empty-values-graph.yaml');
  const frontend = object(objects, 'DynamoComponentDeployment', 'empties-frontend');
  const decode = object(objects, 'DynamoComponentDeployment', 'empties-decode-325b9487');

  test('args: [], resources: {} and env value "" are gone; a set value stays', () => {
    expect(mainOf(frontend.spec.podTemplate)).toEqual({
      name: 'main',
      image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.0',
      env: [{ name: 'EMPTY' }, { name: 'FULL', value: 'x' }, { name: 'GRAPH_EMPTY' }],
    });
    // and an empty pod-template labels map
    expect(frontend.spec.podTemplate.metadata).toEqual({ annotations: { 'nvidia.com/dynamo-operator-origin-version': '1.5.0' } });
  });

  test('volumeMounts: [] is gone from a multinode worker', () => {
    expect(mainOf(decode.spec.podTemplate)).toEqual({
      name: 'main',
      image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.1.0',
      command: ['python3', '-m', 'dynamo.vllm'],
      args: ['--model', 'Qwen/Qwen3-0.6B', '--tensor-parallel-size', '16'],
      resources: { limits: { 'nvidia.com/gpu': '8' } },
      env: [{ name: 'EMPTY' }, { name: 'GRAPH_EMPTY' }],
    });
  });

  test('the bookkeeping hashes are the operator\'s', () => {
    expect(hashOf(frontend)).toBe('21cec2b3de37acc3f855cff6c1676b9a25f5480839ba75c3f0b965474562070f');
    expect(hashOf(decode)).toBe('604132b74faad0da1f93f673e0dcd8d1e933b9f81394810918185ba629ab6887');
    expect(hashOf(object(objects, 'Deployment', 'empties-frontend'))).toBe('8d7e5c6ed3b6cc924a84edab93e2066803e96253460b8cd685e71f8723a15de0');
  });

  test('the LeaderWorkerSet hash is taken over the typed spec the operator sends', () => {
    const lws = object(objects, 'LeaderWorkerSet', 'empties-decode-325b9487-0');
    expect(hashOf(lws)).toBe('ea70b73b28e3f11f67c977f8040cb491a9e27788259d03cb53b739f0ccb19c07');
    // what is stored: the LeaderWorkerSet webhook's defaults over the operator's `rolloutStrategy: {type: ""}`
    expect(lws.spec.rolloutStrategy).toEqual({ type: 'RollingUpdate', rollingUpdateConfiguration: { maxUnavailable: 1, maxSurge: 0, partition: 0 } });
  });
});

describe('the EPP DCD: the operator stamps the inline configuration\'s type before it creates the DCDs', () => {
  const objects = renderWorkloads('epp-graph.yaml');
  const epp = object(objects, 'DynamoComponentDeployment', 'qwen-epp-epp');

  test('eppConfig.config carries apiVersion and kind; a plugin without a name gets name: ""', () => {
    // the operator's object also has `parameters: null` on plugins without parameters, which the
    // API server drops (no Dynamo CRD field is nullable)
    expect(epp.spec.eppConfig.config).toEqual({
      apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
      kind: 'EndpointPickerConfig',
      plugins: [
        { name: '', type: 'disagg-profile-handler' },
        {
          name: 'decode-filter',
          parameters: { allowsNoLabel: true, label: 'nvidia.com/dynamo-component-type', validValues: ['decode'] },
          type: 'label-filter',
        },
        { name: 'picker', type: 'max-score-picker' },
        { name: 'dyn-decode', type: 'dyn-decode-scorer' },
      ],
      schedulingProfiles: [{
        name: 'decode',
        plugins: [{ pluginRef: 'decode-filter', weight: 1 }, { pluginRef: 'dyn-decode', weight: 1 }, { pluginRef: 'picker', weight: 1 }],
      }],
    });
    expect(hashOf(epp)).toBe('ec02344ba3208ba707b1846b8f7a22f2cbc6cace84c6f16f5699592e7eaac253');
  });

  test('the worker DCD is unchanged by it', () => {
    expect(hashOf(object(objects, 'DynamoComponentDeployment', 'qwen-epp-vllmdecodeworker-5f8a9959')))
      .toBe('57534cad58c105d458deaa86c0366ef22a136c7e22c65ad93471566906f07c63');
  });

  test('with a configMapRef the operator writes no file and stamps nothing', () => {
    const graph = fixture('epp-graph.yaml').replace(/    eppConfig:\n      config:\n[\s\S]*?(?=    podTemplate:)/, '    eppConfig:\n      configMapRef:\n        name: my-epp-config\n        key: epp-config.yaml\n');
    expect(graph).toContain('configMapRef');
    const files = { 'operator.yaml': fixture('operator-config.yaml'), 'g.yaml': graph };
    const run = runCliOn(files, ['render', '--quiet', '--output', 'components', '--namespace', 'dynamo', '--operator-config', 'operator.yaml', '--no-grove', 'g.yaml']);
    expect(run.stderr).toBe('');
    const dcd = parseAllDocuments(run.stdout).map(d => d.toJS()).find(o => o?.metadata?.name === 'qwen-epp-epp');
    expect(dcd.spec.eppConfig).toEqual({ configMapRef: { name: 'my-epp-config', key: 'epp-config.yaml' } });
    expect(hashOf(dcd)).toBe('1fafe83f2d9e996e7430054d9851ed51a722683444f335106f13ca83599c904d');
  });
});
