import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import { BackendFramework, DynamoGraph, OutputMode } from '../src';
import { matchScenario } from './support/conformance/matcher';
import { scenarioInput } from './support/conformance/scenario';
import { CONFORMANCE_DIR, describeNeeding } from './support/shared';
import { parseYamlDocuments } from '../src/import';
import { renderDocuments } from '../src/pipeline/check-and-render';

function dgd(spec: any, metadata: any = { name: 'llm', namespace: 'team-a' }): any {
  return { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata, spec };
}

const decodeComponent = {
  name: 'decode',
  type: 'decode',
  replicas: 2,
  podTemplate: { spec: { containers: [{ name: 'main', image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0' }] } },
};

function components(input: any, operator: any = {}): any[] {
  return renderDocuments([input], { output: 'components', operator, checkAdmission: false }) as any[];
}

describe('graph → DCDs (operator graph controller)', () => {
  test('docs/design/render-core.md §4.3 names: non-workers <dgd>-<comp-lc>, workers <dgd>-<comp-lc>-<hash>', () => {
    const out = components(dgd({ backendFramework: 'vllm', components: [{ name: 'Frontend', type: 'frontend' }, decodeComponent] }));
    expect(out[0].metadata.name).toBe('llm-frontend');
    expect(out[1].metadata.name).toMatch(/^llm-decode-[0-9a-f]{8}$/);
    const hash = out[1].metadata.name.slice(-8);
    expect(out[1].metadata.labels['nvidia.com/dynamo-worker-hash']).toBe(hash);
    expect(out[1].spec.podTemplate.metadata.labels['nvidia.com/dynamo-worker-hash']).toBe(hash);
  });

  test('docs/design/render-core.md §4.4 DCD labels: pod-template labels as written, component, Dynamo namespace, graph name', () => {
    const out = components(dgd({
      labels: { fromGraph: 'x' },
      components: [{ name: 'Frontend', type: 'frontend', podTemplate: { metadata: { labels: { team: 'a' } } } }],
    }, { name: 'llm.v2', namespace: 'team-a' }));
    expect(out[0].metadata.labels).toEqual({
      'team': 'a',
      'nvidia.com/dynamo-component': 'Frontend',
      'nvidia.com/dynamo-namespace': 'team-a-llm-v2',
      'nvidia.com/dynamo-graph-deployment-name': 'llm.v2',
    });
    expect(out[0].spec.podTemplate.metadata.labels).toEqual({ team: 'a', fromGraph: 'x' });
  });

  test('docs/design/render-core.md §3 globalDynamoNamespace gives the namespace "dynamo"', () => {
    const out = components(dgd({ components: [{ name: 'f', type: 'frontend', globalDynamoNamespace: true }] }));
    expect(out[0].metadata.labels['nvidia.com/dynamo-namespace']).toBe('dynamo');
  });

  test('docs/design/render-core.md §2 §4.5 admission: replicas default 1, origin version stamped and propagated to pod annotations', () => {
    const out = components(dgd({ components: [{ name: 'f', type: 'frontend' }] }), { version: '1.4.2' });
    expect(out[0].spec.replicas).toBe(1);
    expect(out[0].spec.podTemplate.metadata.annotations).toEqual({ 'nvidia.com/dynamo-operator-origin-version': '1.4.2' });
  });

  test('docs/design/render-core.md §4.5 step 3 graph env merges under main env (component wins), sorted; a main container is prepended when missing', () => {
    const out = components(dgd({
      env: [{ name: 'Z', value: 'graph' }, { name: 'A', value: 'graph' }],
      components: [
        { name: 'w', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: 'i:1.4.0', env: [{ name: 'Z', value: 'mine' }] }] } } },
        { name: 'f', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'side', image: 's' }] } } },
      ],
    }));
    expect(out[0].spec.podTemplate.spec.containers[0].env).toEqual([{ name: 'A', value: 'graph' }, { name: 'Z', value: 'mine' }]);
    expect(out[1].spec.podTemplate.spec.containers).toEqual([
      { name: 'main', env: [{ name: 'A', value: 'graph' }, { name: 'Z', value: 'graph' }] },
      { name: 'side', image: 's' },
    ]);
  });

  test('docs/design/render-core.md §4.5 steps 5-6 graph metadata annotations: only the five propagated keys; spec annotations as low priority defaults', () => {
    const out = components(dgd({
      annotations: { 'x': 'graph', 'nvidia.com/enable-metrics': 'spec' },
      components: [{ name: 'f', type: 'frontend', podTemplate: { metadata: { annotations: { x: 'mine' } } } }],
    }, { name: 'llm', namespace: 'a', annotations: { 'nvidia.com/enable-metrics': 'false', 'other': 'no' } }));
    expect(out[0].spec.podTemplate.metadata.annotations).toEqual({
      'x': 'mine',
      'nvidia.com/enable-metrics': 'false',
      'nvidia.com/dynamo-operator-origin-version': '1.5.0',
    });
    // the graph's annotations stay off the DCD: it carries the v1alpha1 round trip's record and the bookkeeping
    expect(Object.keys(out[0].metadata.annotations)).toEqual(['nvidia.com/dcd-spec', 'nvidia.com/last-applied-hash', 'nvidia.com/last-applied-generation']);
  });

  test('docs/design/render-core.md §13 bookkeeping annotations: sha256 of the spec and generation 1', () => {
    const [dcd] = components(dgd({ components: [{ name: 'f', type: 'frontend' }] }));
    expect(dcd.metadata.annotations['nvidia.com/last-applied-generation']).toBe('1');
    expect(dcd.metadata.annotations['nvidia.com/last-applied-hash']).toMatch(/^[0-9a-f]{64}$/);
    const [other] = components(dgd({ components: [{ name: 'f', type: 'frontend', replicas: 3 }] }));
    expect(other.metadata.annotations['nvidia.com/last-applied-hash']).not.toBe(dcd.metadata.annotations['nvidia.com/last-applied-hash']);
  });

  test('docs/design/render-core.md §4.5 steps 1-2 EPP: istio injection off; workers get the component-class label when the graph has an EPP', () => {
    const out = components(dgd({ components: [{ name: 'epp', type: 'epp' }, { name: 'w', type: 'worker' }] }));
    expect(out[0].spec.podTemplate.metadata.annotations['sidecar.istio.io/inject']).toBe('false');
    expect(out[1].metadata.labels['nvidia.com/dynamo-component-class']).toBe('worker');
    expect(out[1].spec.podTemplate.metadata.labels['nvidia.com/dynamo-component-class']).toBe('worker');
  });

  test('docs/design/render-core.md §4.5 step 8 planner runs as planner-serviceaccount', () => {
    const out = components(dgd({ components: [{ name: 'p', type: 'planner', podTemplate: { spec: { serviceAccountName: 'mine' } } }] }));
    expect(out[0].spec.podTemplate.spec.serviceAccountName).toBe('planner-serviceaccount');
  });

  test('docs/design/render-core.md §4.2 backend framework: from the graph, else detected from worker commands', () => {
    expect(components(dgd({ backendFramework: 'sglang', components: [{ name: 'f', type: 'frontend' }] }))[0].spec.backendFramework).toBe('sglang');
    const detected = components(dgd({
      components: [
        { name: 'f', type: 'frontend' },
        { name: 'w', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', command: ['python3', '-m', 'dynamo.trtllm'] }] } } },
      ],
    }));
    expect(detected.map(d => d.spec.backendFramework)).toEqual(['trtllm', 'trtllm']);
  });

  test('docs/design/render-core.md §4.2 backend framework: conflicting workers are an error', () => {
    expect(() => components(dgd({
      components: [
        { name: 'a', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', command: ['python3', '-m', 'dynamo.vllm'] }] } } },
        { name: 'b', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', command: ['python3', '-m', 'dynamo.sglang'] }] } } },
      ],
    }))).toThrow(/differs from vllm/);
  });

  test('docs/design/render-core.md §12.1 kv transfer policy: worker env, mount, downward-API volume and DCD topology annotation', () => {
    const out = components(dgd({
      experimental: { kvTransferPolicy: { domain: 'zone', labelKey: 'topology.kubernetes.io/zone', enforcement: 'preferred', preferredWeight: 0.5 } },
      components: [{ name: 'w', type: 'prefill', podTemplate: { spec: { containers: [{ name: 'main', image: 'i:1.4.0' }] } } }],
    }));
    const main = out[0].spec.podTemplate.spec.containers[0];
    expect(main.env.map((e: any) => `${e.name}=${e.value}`)).toEqual([
      'DYN_KV_TRANSFER_DOMAIN=zone', 'DYN_KV_TRANSFER_ENFORCEMENT=preferred', 'DYN_KV_TRANSFER_PREFERRED_WEIGHT=0.5',
      'DYN_TOPOLOGY_ENABLED=true', 'DYN_TOPOLOGY_MOUNT_PATH=/etc/dynamo/topology',
    ]);
    expect(main.volumeMounts).toEqual([{ name: 'topology-labels', mountPath: '/etc/dynamo/topology', readOnly: true }]);
    expect(out[0].spec.podTemplate.spec.volumes).toEqual([{
      name: 'topology-labels',
      downwardAPI: { items: [{ path: 'zone', fieldRef: { fieldPath: "metadata.labels['topology.kubernetes.io/zone']" } }] },
    }]);
    expect(out[0].metadata.annotations['nvidia.com/topology-label-key']).toBe('topology.kubernetes.io/zone');
  });

  test('docs/design/render-core.md §12.4 DYN_DEPLOYMENT_CONFIG: the frontend entry gets port 8000, re-serialized with sorted keys; ServiceArgs.resources set requests and limits', () => {
    const config = JSON.stringify({ Frontend: { b: 1, a: '<x>' }, w: { ServiceArgs: { workers: 4, resources: { cpu: '2', gpu: '1', custom: { 'example.com/fpga': '1' } } } } });
    const env = [{ name: 'DYN_DEPLOYMENT_CONFIG', value: config }];
    const out = components(dgd({
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', env }] } } },
        { name: 'w', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: 'i:1.4.0', env }] } } },
      ],
    }));
    const frontendEnv = out[0].spec.podTemplate.spec.containers[0].env[0].value;
    expect(frontendEnv).toBe('{"Frontend":{"a":"\\u003cx\\u003e","b":1,"port":8000},"w":{"ServiceArgs":{"resources":{"cpu":"2","custom":{"example.com/fpga":"1"},"gpu":"1"},"workers":4}}}');
    const worker = out[1].spec;
    expect(worker.replicas).toBe(1); // admission defaulted replicas before, so ServiceArgs.workers does not apply
    const quantities = { 'cpu': '2', 'nvidia.com/gpu': '1', 'example.com/fpga': '1' };
    expect(worker.podTemplate.spec.containers[0].resources).toEqual({ requests: quantities, limits: quantities });
    expect(worker.podTemplate.spec.containers[0].env[0].value).toBe(config);
  });

  test('docs/design/render-core.md §4.6 worker hash changes with the worker spec and namespace, not with replicas', () => {
    const hashOf = (spec: any, ns = 'team-a') => components(dgd(spec, { name: 'llm', namespace: ns }))[0].metadata.name;
    const base = hashOf({ components: [decodeComponent] });
    expect(hashOf({ components: [{ ...decodeComponent, replicas: 7 }] })).toBe(base);
    expect(hashOf({ components: [decodeComponent] }, 'team-b')).not.toBe(base);
    expect(hashOf({ components: [{ ...decodeComponent, sharedMemorySize: '1Gi' }] })).not.toBe(base);
  });

  test('docs/design/render-core.md §2 the Grove provider creates no DCDs: a clear error', () => {
    expect(() => components(dgd({ components: [{ name: 'f', type: 'frontend' }] }), { groveAvailable: true }))
      .toThrow('DynamoGraphDeployment/llm: metadata.annotations["nvidia.com/workload-provider"]: the graph takes the Grove workload provider');
  });

  test('docs/design/render-core.md §2 multinode without LeaderWorkerSet is an error', () => {
    expect(() => components(dgd({ components: [{ ...decodeComponent, multinode: { nodeCount: 2 } }] }), { lwsAvailable: false }))
      .toThrow(/spec.components\[0\].multinode: no multinode orchestrator available/);
  });

  test('the constructs synthesize the same DCDs as the engine', () => {
    const app = Testing.app();
    const c = new Chart(app, 'test', { namespace: 'team-a' });
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'llm' }, backendFramework: BackendFramework.VLLM, output: OutputMode.COMPONENTS });
    graph.addFrontend('Frontend', { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0' });
    graph.addDecodeWorker('decode', { replicas: 2, image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0' });
    const fromEngine = components(graph.toJson());
    expect(c.toJson()).toEqual(fromEngine);
    // each DCD is the child Components/<component id> of the graph; the components are not constructs
    expect(graph.node.findChild('Components').node.children.map(o => o.node.id)).toEqual(['Frontend', 'decode']);
    expect(graph.node.findAll().length).toBe(4);
  });
});

const describeGolden = describeNeeding('conformance');
describeGolden('operator golden dgd/components', () => {
  test('the DynamoComponentDeployments match', () => {
    const dir = path.join(CONFORMANCE_DIR!, 'dgd', 'components');
    const input = parseYamlDocuments(fs.readFileSync(path.join(dir, 'input.yaml'), 'utf8'));
    const expected = (parseYamlDocuments(fs.readFileSync(path.join(dir, 'output.yaml'), 'utf8'), 'output.yaml', { readAs: 'yaml-1.2' }) as any[])
      .filter(d => d.kind === 'DynamoComponentDeployment');
    // the goldens' operator (1.5.0), which stamped a 1.4 build version (see CONFORMANCE_ORIGIN_VERSION)
    const rendered = renderDocuments(scenarioInput(input), {
      output: 'components', namespace: 'clusterenv-conformance', operator: { version: '1.5.0', groveAvailable: true, lwsAvailable: true },
    });
    const result = matchScenario(expected, rendered);
    expect(result.differences).toEqual([]);
    expect(result.matched).toBe(true);
  });
});

describe('constructs in components output', () => {
  test('a change after a first synthesis is rendered (no stale cache)', () => {
    const c = new Chart(Testing.app(), 'test', { namespace: 'team-a' });
    const graph = new DynamoGraph(c, 'Graph', { metadata: { name: 'llm' }, output: OutputMode.COMPONENTS });
    const worker = graph.addWorker('w', { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0' });
    const before = c.toJson()[0];
    worker.addEnv('X', kplus.EnvValue.fromValue('1'));
    const after = c.toJson()[0];
    expect(after.spec.podTemplate.spec.containers[0].env).toEqual([{ name: 'X', value: '1' }]);
    expect(after.metadata.name).not.toBe(before.metadata.name);
  });
});
