/**
 * docs/design/render-multinode.md §1 (which workload object, admission defaults), §3.1–§3.5 (the component path:
 * DGD → DCDs → LeaderWorkerSet) and §7 (worker hash, worker DCD names, what a change renames),
 * pinned end to end through the render engine.
 *
 * The worker-hash expectations are computed here with node's SHA-256 over the pre-image bytes the
 * digest gives (§7.1 "Pre-image for golden dgd/grove"), so they do not depend on the engine's own
 * Go JSON encoder.
 */
import { createHash } from 'node:crypto';
import {
  DgdJson, OperatorSettings, render, RenderError, renderUnchecked, settings as operatorSettings, storedComponent, storedGraph,
} from './support/facade';
// the worker hash is unit-tested on its pre-image (also for graphs without a worker, which render no hash)
import { graphWorkerHash } from '../src/engine';

const NS = 'clusterenv-x7k2p';
const VER = '1.4.2';
const WORKER_IMAGE = 'registry.example/dynamo-worker:1.4.0-test';
const FRONTEND_IMAGE = 'registry.example/dynamo-frontend:1.4.0-test';
const PROVIDER = 'nvidia.com/workload-provider';
const ENABLE_GROVE = 'nvidia.com/enable-grove';
const ORIGIN = 'nvidia.com/dynamo-operator-origin-version';
const HASH_LABEL = 'nvidia.com/dynamo-worker-hash';

/**
 * The worker-hash pre-image of golden dgd/grove exactly as docs/design/render-multinode.md §7.1 prints it, with
 * `<NS>` (test namespace) and `<VER>` (origin version) still to fill in.
 */
const GOLDEN_PRE_IMAGE = '{"decode":{"labels":{"nvidia.com/dynamo-component":"decode","nvidia.com/dynamo-graph-deployment-name":"grove-manifest","nvidia.com/dynamo-namespace":"<NS>-grove-manifest","nvidia.com/dynamo-sub-component-type":"decode","nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"spec":{"backendFramework":"vllm","name":"decode","type":"decode","podTemplate":{"metadata":{"labels":{"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"annotations":{"nvidia.com/dynamo-operator-origin-version":"<VER>"}},"spec":{"containers":[{"name":"main","image":"registry.example/dynamo-worker:1.4.0-test","resources":{}}]}},"multinode":{"nodeCount":2}}}}';

/** First 8 hex characters of SHA-256 over the UTF-8 bytes of `preImage`. */
function sha8(preImage: string): string {
  return createHash('sha256').update(Buffer.from(preImage, 'utf8')).digest('hex').slice(0, 8);
}

/** The golden pre-image filled in, with optional edits (plain string replacements of the digest's bytes). */
function goldenPreImage(ns = NS, ver = VER, edits: Array<[string, string]> = []): string {
  let text = GOLDEN_PRE_IMAGE.replace('<NS>', ns).replace('<VER>', ver);
  for (const [from, to] of edits) {
    expect(text).toContain(from);
    text = text.split(from).join(to);
  }
  return text;
}

/** The input of golden dgd/grove (docs/design/render-multinode.md §9.5) in namespace `NS`. */
function groveGolden(): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'grove-manifest', namespace: NS },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: FRONTEND_IMAGE }] } } },
        { name: 'decode', type: 'decode', multinode: { nodeCount: 2 }, podTemplate: { spec: { containers: [{ name: 'main', image: WORKER_IMAGE }] } } },
      ],
    },
  };
}

/** The decode component of `groveGolden()` (mutable). */
const decodeOf = (doc: any): any => doc.spec.components[1];
const workerMainOf = (doc: any): any => decodeOf(doc).podTemplate.spec.containers[0];

/**
 * A graph `llm` in `prod` with a frontend and a multinode vLLM decode worker (TP 16 on 2×8 GPUs), the
 * input of docs/design/render-multinode.md §3.6.
 */
function llmGraph(decode: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: 'prod' },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: WORKER_IMAGE }] } } },
        {
          name: 'decode',
          type: 'decode',
          replicas: 1,
          multinode: { nodeCount: 2 },
          podTemplate: {
            spec: {
              containers: [{
                name: 'main',
                image: WORKER_IMAGE,
                command: ['python3', '-m', 'dynamo.vllm'],
                args: ['--model', 'm', '--tensor-parallel-size', '16'],
                resources: { limits: { 'nvidia.com/gpu': '8' } },
              }],
            },
          },
          ...decode,
        },
      ],
    },
  };
}

function admit(doc: any, operator: Partial<OperatorSettings> = {}): any {
  return storedGraph(doc as DgdJson, { version: VER, ...operator });
}

function hashOf(doc: any, operator: Partial<OperatorSettings> = {}): string {
  return graphWorkerHash(admit(doc, operator));
}

function components(doc: any, operator: Partial<OperatorSettings> = {}): any[] {
  return renderUnchecked(doc, { output: 'components', settings: { version: VER, ...operator } });
}

function workloads(doc: any, operator: Partial<OperatorSettings> = {}): any[] {
  return renderUnchecked(doc, { settings: { version: VER, ...operator } });
}

function only(objects: any[], kind: string): any {
  const found = objects.filter(o => o.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

function thrown(fn: () => unknown): RenderError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(RenderError);
    return e as RenderError;
  }
  throw new Error('expected a RenderError, nothing was thrown');
}

const leaderOf = (lws: any): any => lws.spec.leaderWorkerTemplate.leaderTemplate;
const workerOf = (lws: any): any => lws.spec.leaderWorkerTemplate.workerTemplate;
const mainOf = (template: any): any => template.spec.containers.find((c: any) => c.name === 'main');
const envValue = (container: any, name: string): unknown => container.env.find((e: any) => e.name === name)?.value;

describe('docs/design/render-multinode.md §1.1 feature gates (defaults of the operator settings)', () => {
  test('Grove off (the Helm chart renders orchestrators.grove.enabled: false), LeaderWorkerSet on (auto-detected)', () => {
    expect(operatorSettings().groveAvailable).toBe(false);
    expect(operatorSettings().lwsAvailable).toBe(true);
  });

  test('so with default settings a new multinode graph takes the component provider and a LeaderWorkerSet', () => {
    const objects = render(llmGraph());
    expect(objects.filter(o => o.kind === 'PodCliqueSet')).toEqual([]);
    expect(only(objects, 'LeaderWorkerSet').metadata.name).toMatch(/^llm-decode-[0-9a-f]{8}-0$/);
  });
});

describe('docs/design/render-multinode.md §1.2 workload provider annotation written at CREATE', () => {
  const providerOf = (doc: any, groveAvailable: boolean): string => admit(doc, { groveAvailable }).metadata.annotations[PROVIDER];
  const withEnableGrove = (value: string): any => {
    const doc = groveGolden();
    doc.metadata.annotations = { [ENABLE_GROVE]: value };
    return doc;
  };

  test('Grove gate on → grove; Grove gate off → component', () => {
    expect(providerOf(groveGolden(), true)).toBe('grove');
    expect(providerOf(groveGolden(), false)).toBe('component');
  });

  test.each(['false', 'FALSE', 'False', 'fAlSe'])('nvidia.com/enable-grove: %p (lower-cased "false") opts out of Grove', value => {
    expect(providerOf(withEnableGrove(value), true)).toBe('component');
  });

  test.each(['true', '', 'no', '0', ' false', 'false '])('nvidia.com/enable-grove: %p is not "false" once lower-cased: Grove stays', value => {
    expect(providerOf(withEnableGrove(value), true)).toBe('grove');
  });

  test('with the Grove gate off the opt-out annotation changes nothing: component', () => {
    expect(providerOf(withEnableGrove('true'), false)).toBe('component');
  });

  test('a workload-provider annotation already on a new graph is not trusted at CREATE: the webhook derives it again', () => {
    // docs/design/render-multinode.md §1.2: an existing value is kept only on operations other than CREATE
    // (upstream dynamographdeployment_handler.go: defaultWorkloadProvider ignores the
    // controller-owned annotation on create); the engine renders CREATE.
    const preset = (value: string): any => {
      const doc = groveGolden();
      doc.metadata.annotations = { [PROVIDER]: value };
      return doc;
    };
    expect(providerOf(preset('component'), true)).toBe('grove');
    expect(providerOf(preset('grove'), false)).toBe('component');
  });

  test('other graph annotations are kept next to the written provider', () => {
    const doc = groveGolden();
    doc.metadata.annotations = { 'example.com/team': 'a' };
    expect(admit(doc, { groveAvailable: false }).metadata.annotations).toEqual({
      'example.com/team': 'a',
      [PROVIDER]: 'component',
      [ORIGIN]: VER,
    });
  });

  test('grove → no DCDs: components output of a Grove graph is refused with the reason and the way out', () => {
    const error = thrown(() => components(groveGolden(), { groveAvailable: true }));
    expect(error.message).toBe('DynamoGraphDeployment/grove-manifest: metadata.annotations["nvidia.com/workload-provider"]: '
      + 'the graph takes the Grove workload provider, which creates no DynamoComponentDeployments; '
      + 'annotate it nvidia.com/enable-grove: "false" or render with Grove unavailable');
  });

  test('component → one DCD per component, in component order', () => {
    const doc = withEnableGrove('False');
    const dcds = components(doc, { groveAvailable: true });
    expect(dcds.map(o => o.kind)).toEqual(['DynamoComponentDeployment', 'DynamoComponentDeployment']);
    expect(dcds.map(o => o.spec.name)).toEqual(['frontend', 'decode']);
  });

  test('component provider, multinode component, LeaderWorkerSet gate off: "no multinode orchestrator available" before any DCD', () => {
    const error = thrown(() => components(llmGraph(), { lwsAvailable: false }));
    expect(error.objectRef).toBe('DynamoGraphDeployment/llm');
    expect(error.field).toBe('spec.components[1].multinode');
    expect(error.message).toBe('DynamoGraphDeployment/llm: spec.components[1].multinode: '
      + 'no multinode orchestrator available: the component provider needs LeaderWorkerSet for multinode components');
  });

  test('the error names the first multinode component', () => {
    const doc = llmGraph();
    doc.spec.components.unshift({ ...doc.spec.components[1], name: 'prefill', type: 'prefill', multinode: { nodeCount: 3 } });
    expect(thrown(() => components(doc, { lwsAvailable: false })).field).toBe('spec.components[0].multinode');
  });

  test('LeaderWorkerSet gate off does not matter to a graph without multinode components', () => {
    const doc = llmGraph();
    delete decodeOf(doc).multinode;
    const objects = workloads(doc, { lwsAvailable: false });
    expect(objects.filter(o => o.kind === 'LeaderWorkerSet')).toEqual([]);
    expect(objects.filter(o => o.kind === 'Deployment').map(o => o.metadata.name)).toEqual([
      'llm-frontend',
      expect.stringMatching(/^llm-decode-[0-9a-f]{8}$/),
    ]);
  });

  test('LeaderWorkerSet gate on: the multinode DCD gets a LeaderWorkerSet, the single-node one a Deployment', () => {
    const objects = workloads(llmGraph());
    expect(objects.filter(o => o.kind === 'Deployment').map(o => o.metadata.name)).toEqual(['llm-frontend']);
    expect(only(objects, 'LeaderWorkerSet').metadata.name).toMatch(/^llm-decode-[0-9a-f]{8}-0$/);
  });

  test('a Grove graph never reaches the LeaderWorkerSet guard (Grove renders multinode itself)', () => {
    const error = thrown(() => components(llmGraph(), { groveAvailable: true, lwsAvailable: false }));
    expect(error.field).toBe('metadata.annotations["nvidia.com/workload-provider"]');
  });
});

describe('docs/design/render-multinode.md §1.3 graph defaults at CREATE that matter to multinode', () => {
  test('replicas: 1 on every component without replicas, whatever the provider; given values are kept', () => {
    for (const groveAvailable of [true, false]) {
      const doc = llmGraph({ replicas: 0 });
      const admitted = admit(doc, { groveAvailable });
      expect(admitted.spec.components.map((c: any) => c.replicas)).toEqual([1, 0]);
    }
    const doc = llmGraph();
    delete decodeOf(doc).replicas;
    expect(admit(doc).spec.components.map((c: any) => c.replicas)).toEqual([1, 1]);
  });

  test('minAvailable: 1 only when the graph takes Grove; given values are kept', () => {
    const grove = admit(llmGraph({ minAvailable: 2 }), { groveAvailable: true });
    expect(grove.spec.components.map((c: any) => c.minAvailable)).toEqual([1, 2]);
    const component = admit(llmGraph(), { groveAvailable: false });
    expect(component.spec.components.map((c: any) => c.minAvailable)).toEqual([undefined, undefined]);
    const optedOut = llmGraph();
    optedOut.metadata.annotations = { [ENABLE_GROVE]: 'false' };
    expect(admit(optedOut, { groveAvailable: true }).spec.components.map((c: any) => c.minAvailable)).toEqual([undefined, undefined]);
  });

  test('origin version: the operator version is stamped on a new graph; an existing value is kept', () => {
    expect(admit(llmGraph(), { version: '1.4.7' }).metadata.annotations[ORIGIN]).toBe('1.4.7');
    const doc = llmGraph();
    doc.metadata.annotations = { [ORIGIN]: '0.9.0' };
    expect(admit(doc, { version: '1.4.7' }).metadata.annotations[ORIGIN]).toBe('0.9.0');
  });

  test('the stamped origin version reaches every generated DCD pod template (docs/design/render-multinode.md §3.1)', () => {
    const dcds = components(llmGraph(), { version: '1.4.7' });
    for (const dcd of dcds) expect(dcd.spec.podTemplate.metadata.annotations[ORIGIN]).toBe('1.4.7');
  });

  test('a standalone DCD is not stamped: only spec.name is defaulted from metadata.name', () => {
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'lws-manifest', namespace: NS },
      spec: {
        backendFramework: 'vllm',
        type: 'decode',
        multinode: { nodeCount: 2 },
        podTemplate: { spec: { containers: [{ name: 'main', image: WORKER_IMAGE, args: ['--model', 'm'] }] } },
      },
    };
    const admitted: any = storedComponent(dcd as any);
    expect(admitted.metadata.annotations).toBeUndefined();
    expect(admitted.spec.name).toBe('lws-manifest');
    expect(admitted.spec.replicas).toBeUndefined();
    const lws = only(workloads(dcd), 'LeaderWorkerSet');
    for (const template of [leaderOf(lws), workerOf(lws)]) {
      expect(template.metadata.annotations).toBeUndefined();
      expect(template.metadata.labels['nvidia.com/dynamo-component']).toBe('lws-manifest');
    }
  });

  test('CRD default: multinode.nodeCount 2 when multinode is given without it', () => {
    const doc = llmGraph({ multinode: {} });
    expect(decodeOf(admit(doc)).multinode).toEqual({ nodeCount: 2 });
    const [, decode] = components(doc);
    expect(decode.spec.multinode).toEqual({ nodeCount: 2 });
    expect(only(workloads(doc), 'LeaderWorkerSet').spec.leaderWorkerTemplate.size).toBe(2);
  });

  test('the defaulted nodeCount makes the component multinode: LeaderWorkerSet gate off refuses it', () => {
    expect(thrown(() => components(llmGraph({ multinode: {} }), { lwsAvailable: false })).message)
      .toContain('no multinode orchestrator available');
  });

  test('the input graph is not modified by admission', () => {
    const doc = llmGraph({ multinode: {} });
    const before = JSON.stringify(doc);
    admit(doc, { groveAvailable: true });
    components(doc);
    expect(JSON.stringify(doc)).toBe(before);
  });
});

describe('docs/design/render-multinode.md §1.4 multinode shape: one leader pod and nodeCount - 1 worker pods per group', () => {
  test.each([2, 3, 4])('nodeCount %i → LeaderWorkerSet group size = nodeCount (leader + workers), replicas count groups', nodeCount => {
    const lws = only(workloads(llmGraph({ multinode: { nodeCount }, replicas: 2 })), 'LeaderWorkerSet');
    expect(lws.spec.leaderWorkerTemplate.size).toBe(nodeCount);
    expect(lws.spec.replicas).toBe(2);
    expect(leaderOf(lws).metadata.labels.role).toBe('leader');
    expect(workerOf(lws).metadata.labels.role).toBe('worker');
  });
});

describe('docs/design/render-multinode.md §3.1 DCDs generated from a multinode graph (component provider)', () => {
  const doc = llmGraph({ replicas: 3 });
  decodeOf(doc).podTemplate.metadata = { labels: { team: 'a' }, annotations: { 'example.com/note': 'x' } };
  doc.metadata.annotations = {
    'nvidia.com/enable-metrics': 'false',
    'nvidia.com/vllm-distributed-executor-backend': 'mp',
    'nvidia.com/dynamo-discovery-backend': 'kubernetes',
    'example.com/not-propagated': 'y',
  };
  const [frontend, decode] = components(doc);
  const hash = hashOf(doc);

  test('names: <dgd>-<comp-lc> for non-workers, <dgd>-<comp-lc>-<hash> for workers; namespace of the graph', () => {
    expect(frontend.metadata.name).toBe('llm-frontend');
    expect(decode.metadata.name).toBe(`llm-decode-${hash}`);
    expect(frontend.metadata.namespace).toBe('prod');
    expect(decode.metadata.namespace).toBe('prod');
  });

  test('worker labels: pod-template labels, component, Dynamo namespace, graph name, worker hash', () => {
    expect(decode.metadata.labels).toEqual({
      'team': 'a',
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-namespace': 'prod-llm',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      [HASH_LABEL]: hash,
    });
    expect(frontend.metadata.labels[HASH_LABEL]).toBeUndefined();
  });

  test('spec: backendFramework, the worker-hash pod label, multinode and replicas copied unchanged', () => {
    expect(decode.spec.backendFramework).toBe('vllm');
    expect(decode.spec.podTemplate.metadata.labels).toEqual({ team: 'a', [HASH_LABEL]: hash });
    expect(decode.spec.multinode).toEqual({ nodeCount: 2 });
    expect(decode.spec.replicas).toBe(3);
  });

  test('graph annotations propagated to the pod template: the five known keys incl. the origin version, never others', () => {
    expect(decode.spec.podTemplate.metadata.annotations).toEqual({
      'example.com/note': 'x',
      'nvidia.com/enable-metrics': 'false',
      'nvidia.com/vllm-distributed-executor-backend': 'mp',
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      [ORIGIN]: VER,
    });
  });

  test('a pod-template annotation the component already sets is not overwritten by the graph', () => {
    const own = llmGraph();
    own.metadata.annotations = { 'nvidia.com/vllm-distributed-executor-backend': 'mp' };
    decodeOf(own).podTemplate.metadata = { annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'ray' } };
    expect(components(own)[1].spec.podTemplate.metadata.annotations['nvidia.com/vllm-distributed-executor-backend']).toBe('ray');
  });

  test('backendFramework detected from the worker command when the graph names none', () => {
    const detected = llmGraph();
    delete detected.spec.backendFramework;
    workerMainOf(detected).command = ['python3', '-m', 'dynamo.sglang'];
    expect(components(detected).map(d => d.spec.backendFramework)).toEqual(['sglang', 'sglang']);
  });

  test('worker DCDs of a graph with an epp component also get nvidia.com/dynamo-component-class: worker', () => {
    const withEpp = llmGraph();
    withEpp.spec.components.push({ name: 'epp', type: 'epp', eppConfig: { config: {} } });
    const dcds = components(withEpp);
    const worker = dcds.find(d => d.spec.name === 'decode');
    expect(worker.metadata.labels['nvidia.com/dynamo-component-class']).toBe('worker');
    expect(worker.spec.podTemplate.metadata.labels['nvidia.com/dynamo-component-class']).toBe('worker');
    expect(dcds.find(d => d.spec.name === 'Frontend').metadata.labels['nvidia.com/dynamo-component-class']).toBeUndefined();
  });

  test('the MPI SSH Secret is not rendered (intended difference, README: its key pair exists only in the cluster)', () => {
    const trtllm = llmGraph();
    trtllm.spec.backendFramework = 'trtllm';
    workerMainOf(trtllm).command = ['python3', '-m', 'dynamo.trtllm'];
    const objects = workloads(trtllm);
    expect(objects.filter(o => o.kind === 'Secret')).toEqual([]);
    expect(leaderOf(only(objects, 'LeaderWorkerSet')).spec.volumes[0]).toEqual(
      { name: 'mpi-run-ssh-secret', secret: { secretName: 'mpi-run-ssh-secret', defaultMode: 420 } });
  });
});

describe('docs/design/render-multinode.md §3.2 LeaderWorkerSet of a graph-owned worker DCD', () => {
  const objects = workloads(llmGraph({ replicas: 3, multinode: { nodeCount: 3 } }));
  const dcd = objects.find(o => o.kind === 'DynamoComponentDeployment' && o.spec.name === 'decode');
  const lws = only(objects, 'LeaderWorkerSet');
  const hash = dcd.metadata.labels[HASH_LABEL];

  test('metadata.name <dcd-name>-0 = <dgd>-<comp-lc>-<hash>-0, namespace of the DCD', () => {
    expect(lws.metadata.name).toBe(`${dcd.metadata.name}-0`);
    expect(lws.metadata.name).toBe(`llm-decode-${hash}-0`);
    expect(lws.metadata.namespace).toBe('prod');
  });

  test('metadata.labels = workload labels L0 of the DCD (the docs/design/render-multinode.md §3.6 set)', () => {
    expect(lws.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-namespace': 'prod-llm',
      'nvidia.com/dynamo-sub-component-type': 'decode',
      [HASH_LABEL]: hash,
    });
  });

  test('the operator sets no annotations of its own (only the create bookkeeping of this library)', () => {
    expect(Object.keys(lws.metadata.annotations).sort()).toEqual(['nvidia.com/last-applied-generation', 'nvidia.com/last-applied-hash']);
  });

  test('replicas = component replicas (groups), size = nodeCount, startupPolicy LeaderCreated', () => {
    expect(lws.spec.replicas).toBe(3);
    expect(lws.spec.leaderWorkerTemplate.size).toBe(3);
    expect(lws.spec.startupPolicy).toBe('LeaderCreated');
  });

  test('the graph\'s DCD comes right before its LeaderWorkerSet and component Service', () => {
    const at = objects.indexOf(dcd);
    expect(objects[at + 1]).toBe(lws);
    expect(objects[at + 2].kind).toBe('Service');
  });
});

describe('docs/design/render-multinode.md §3.2 LeaderWorkerSet pods need main command and args (graph-owned DCD)', () => {
  test('golden dgd/grove on the component path: the decode worker has no args → refused, naming the worker DCD', () => {
    const doc = groveGolden();
    doc.metadata.annotations = { [ENABLE_GROVE]: 'false' };
    const hash = sha8(goldenPreImage());
    const error = thrown(() => workloads(doc, { groveAvailable: true }));
    expect(error.message).toBe(`DynamoComponentDeployment/grove-manifest-decode-${hash}: spec.podTemplate.spec.containers[main].args: `
      + 'the leader pod of a LeaderWorkerSet needs main container args, got none');
  });

  test('with args the same graph renders LeaderWorkerSet grove-manifest-decode-<hash>-0 (the command defaults to /bin/sh -c)', () => {
    const doc = groveGolden();
    doc.metadata.annotations = { [ENABLE_GROVE]: 'false' };
    workerMainOf(doc).args = ['python3 -m dynamo.vllm --model m'];
    const expected = goldenPreImage(NS, VER, [[`"image":"${WORKER_IMAGE}","resources":{}`, `"image":"${WORKER_IMAGE}","args":["python3 -m dynamo.vllm --model m"],"resources":{}`]]);
    const lws = only(workloads(doc, { groveAvailable: true }), 'LeaderWorkerSet');
    expect(lws.metadata.name).toBe(`grove-manifest-decode-${sha8(expected)}-0`);
    expect(mainOf(leaderOf(lws)).command).toEqual(['/bin/sh', '-c']);
  });
});

describe('docs/design/render-multinode.md §3.3 no gang-scheduling objects on the LeaderWorkerSet path', () => {
  const doc = llmGraph({ replicas: 3 });
  doc.metadata.annotations = { 'nvidia.com/volcano-queue': 'q', 'nvidia.com/kai-scheduler-queue': 'k' };
  const schedulers = { kaiSchedulerAvailable: true, volcanoSchedulerAvailable: true } as Partial<OperatorSettings>;
  const objects = workloads(doc, schedulers);
  const lws = only(objects, 'LeaderWorkerSet');

  test('no Volcano PodGroup (or any scheduling.* object), even with the scheduler gates on and queue annotations', () => {
    expect(objects.filter(o => o.kind === 'PodGroup')).toEqual([]);
    expect(objects.filter(o => /^scheduling\./.test(String(o.apiVersion).split('/')[0]))).toEqual([]);
  });

  test('no schedulerName on leader or worker pods', () => {
    expect(leaderOf(lws).spec.schedulerName).toBeUndefined();
    expect(workerOf(lws).spec.schedulerName).toBeUndefined();
  });

  test('one LeaderWorkerSet <dcd>-0 for all replicas, without the legacy instance-id label (no <dcd>-<i> per replica)', () => {
    expect(lws.metadata.name).toMatch(/-0$/);
    expect(lws.spec.replicas).toBe(3);
    expect(lws.metadata.labels['instance-id']).toBeUndefined();
    expect(leaderOf(lws).metadata.labels['instance-id']).toBeUndefined();
  });
});

describe('docs/design/render-multinode.md §3.4 LWS pod templates of a graph-owned worker DCD (§3.6 labels)', () => {
  const lws = only(workloads(llmGraph()), 'LeaderWorkerSet');
  const hash = lws.metadata.labels[HASH_LABEL];
  const l0 = {
    'nvidia.com/dynamo-component': 'decode',
    'nvidia.com/dynamo-graph-deployment-name': 'llm',
    'nvidia.com/dynamo-namespace': 'prod-llm',
    'nvidia.com/dynamo-sub-component-type': 'decode',
    [HASH_LABEL]: hash,
  };
  const podLabels = (role: string) => ({
    ...l0,
    'nvidia.com/dynamo-component-type': 'decode',
    'nvidia.com/metrics-enabled': 'true',
    'nvidia.com/dynamo-discovery-backend': 'kubernetes',
    'nvidia.com/dynamo-discovery-enabled': 'true',
    role,
  });

  test('labels: L0 + component type + metrics + discovery + role', () => {
    expect(leaderOf(lws).metadata.labels).toEqual(podLabels('leader'));
    expect(workerOf(lws).metadata.labels).toEqual(podLabels('worker'));
  });

  test('annotations: the origin version the DCD pod template carries is removed (empty map → no field)', () => {
    expect(leaderOf(lws).metadata.annotations).toBeUndefined();
    expect(workerOf(lws).metadata.annotations).toBeUndefined();
  });

  test('other pod-template annotations pass through on both roles', () => {
    const doc = llmGraph();
    decodeOf(doc).podTemplate.metadata = { annotations: { 'example.com/a': 'b' } };
    const annotated = only(workloads(doc), 'LeaderWorkerSet');
    expect(leaderOf(annotated).metadata.annotations).toEqual({ 'example.com/a': 'b' });
    expect(workerOf(annotated).metadata.annotations).toEqual({ 'example.com/a': 'b' });
  });

  test('modelRef: base-model-hash label and base-model annotation on both roles', () => {
    const modelLws = only(workloads(llmGraph({ modelRef: { name: 'Qwen/Qwen3-0.6B' } })), 'LeaderWorkerSet');
    for (const template of [leaderOf(modelLws), workerOf(modelLws)]) {
      expect(template.metadata.labels['nvidia.com/dynamo-base-model-hash']).toBe(sha8('Qwen/Qwen3-0.6B'));
      expect(template.metadata.annotations).toEqual({ 'nvidia.com/dynamo-base-model': 'Qwen/Qwen3-0.6B' });
    }
    expect(modelLws.metadata.labels['nvidia.com/dynamo-base-model-hash']).toBe(sha8('Qwen/Qwen3-0.6B'));
  });

  test('graph annotation nvidia.com/enable-metrics: "false" reaches the pods and drops nvidia.com/metrics-enabled', () => {
    const doc = llmGraph();
    doc.metadata.annotations = { 'nvidia.com/enable-metrics': 'false' };
    const quiet = only(workloads(doc), 'LeaderWorkerSet');
    for (const template of [leaderOf(quiet), workerOf(quiet)]) {
      expect(template.metadata.labels['nvidia.com/metrics-enabled']).toBeUndefined();
      expect(template.metadata.annotations).toEqual({ 'nvidia.com/enable-metrics': 'false' });
    }
  });

  test('the hash label on the pod template → DYN_NAMESPACE_WORKER_SUFFIX on both roles; DYN_NAMESPACE unsuffixed', () => {
    for (const template of [leaderOf(lws), workerOf(lws)]) {
      expect(envValue(mainOf(template), 'DYN_NAMESPACE_WORKER_SUFFIX')).toBe(hash);
      expect(envValue(mainOf(template), 'DYN_NAMESPACE')).toBe('prod-llm');
      expect(envValue(mainOf(template), 'DYN_PARENT_DGD_K8S_NAME')).toBe('llm');
      expect(template.spec.serviceAccountName).toBe('llm-k8s-service-discovery');
    }
  });
});

describe('docs/design/render-multinode.md §3.5 topology, provider overrides and queue annotations do not change the LeaderWorkerSet', () => {
  /** The LWS with its hash-bearing parts neutralised (the worker hash and so the bookkeeping move with the spec). */
  function normalisedLws(doc: any): string {
    const lws = only(workloads(doc), 'LeaderWorkerSet');
    const hash = lws.metadata.labels[HASH_LABEL];
    delete lws.metadata.annotations;
    return JSON.stringify(lws).split(hash).join('<hash>');
  }
  const baseline = normalisedLws(llmGraph());

  test('graph annotations nvidia.com/grove-update-strategy, kai-scheduler-queue, volcano-queue: identical object', () => {
    const doc = llmGraph();
    doc.metadata.annotations = {
      'nvidia.com/grove-update-strategy': 'RollingUpdate',
      'nvidia.com/kai-scheduler-queue': 'team-a',
      'nvidia.com/volcano-queue': 'team-a',
    };
    expect(normalisedLws(doc)).toBe(baseline);
  });

  test('component providerOverride (Grove only): ignored on the LeaderWorkerSet path', () => {
    const override = { apiVersion: 'grove.io/v1alpha1', value: { spec: { priorityClassName: 'high' } } };
    expect(normalisedLws(llmGraph({ providerOverride: override }))).toBe(baseline);
  });

  test('component topologyConstraint: no affinity, spread constraint or node selector appears', () => {
    expect(normalisedLws(llmGraph({ topologyConstraint: { packDomain: 'rack' } }))).toBe(baseline);
  });
});

describe('docs/design/render-multinode.md §3.5 component Service of a multinode worker only with Kubernetes discovery', () => {
  test('discovery backend etcd: the LeaderWorkerSet gets no component Service, the frontend keeps its own', () => {
    const objects = workloads(llmGraph(), { discoveryBackend: 'etcd' });
    const lws = only(objects, 'LeaderWorkerSet');
    expect(objects.filter(o => o.kind === 'Service').map(o => o.metadata.name)).toEqual(['llm-frontend']);
    expect(leaderOf(lws).metadata.labels['nvidia.com/dynamo-discovery-backend']).toBeUndefined();
    expect(leaderOf(lws).metadata.labels['nvidia.com/dynamo-discovery-enabled']).toBeUndefined();
  });

  test('discovery backend kubernetes: the worker DCD gets its Service, named after the DCD, selecting the leader', () => {
    const objects = workloads(llmGraph());
    const dcd = objects.find(o => o.kind === 'DynamoComponentDeployment' && o.spec.name === 'decode');
    const service = objects.find(o => o.kind === 'Service' && o.metadata.name === dcd.metadata.name);
    expect(service.spec.selector.role).toBe('leader');
  });
});

describe('docs/design/render-multinode.md §7.1 worker hash', () => {
  test('no worker components → the map is {} → 44136fa3', () => {
    expect(sha8('{}')).toBe('44136fa3');
    const frontendOnly = groveGolden();
    frontendOnly.spec.components.pop();
    expect(hashOf(frontendOnly)).toBe('44136fa3');
    const empty = groveGolden();
    empty.spec.components = [];
    expect(hashOf(empty)).toBe('44136fa3');
  });

  test('golden dgd/grove: the hash is SHA-256 of the digest\'s pre-image with <NS> and <VER> filled in', () => {
    expect(hashOf(groveGolden(), { groveAvailable: true })).toBe(sha8(goldenPreImage()));
  });

  test('the same graph on the component provider has the same hash (provider annotation and minAvailable are not hashed)', () => {
    expect(hashOf(groveGolden(), { groveAvailable: false })).toBe(sha8(goldenPreImage()));
    const [, decode] = components(groveGolden());
    expect(decode.metadata.name).toBe(`grove-manifest-decode-${sha8(goldenPreImage())}`);
  });

  test('nodeCount is hashed (spec.multinode)', () => {
    const doc = groveGolden();
    decodeOf(doc).multinode.nodeCount = 3;
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [['"nodeCount":2', '"nodeCount":3']])));
    expect(hashOf(doc)).not.toBe(hashOf(groveGolden()));
  });

  test.each<[string, Record<string, unknown>]>([
    ['replicas', { replicas: 5 }],
    ['minAvailable', { minAvailable: 2 }],
    ['scalingAdapter', { scalingAdapter: {} }],
    ['runtimeVersionOverride below 1.5.0', { runtimeVersionOverride: '1.4.1' }],
    ['all four together', { replicas: 0, minAvailable: 3, scalingAdapter: {}, runtimeVersionOverride: '1.4.9' }],
  ])('%s: not hashed (set to nil / emptied before hashing)', (_, fields) => {
    const doc = groveGolden();
    Object.assign(decodeOf(doc), fields);
    expect(hashOf(doc, { groveAvailable: true })).toBe(sha8(goldenPreImage()));
    expect(hashOf(doc, { groveAvailable: false })).toBe(sha8(goldenPreImage()));
  });

  test('the origin-version annotation is hashed through spec.podTemplate.metadata.annotations', () => {
    expect(hashOf(groveGolden(), { version: '1.4.3' })).toBe(sha8(goldenPreImage(NS, '1.4.3')));
    expect(hashOf(groveGolden(), { version: '1.4.3' })).not.toBe(hashOf(groveGolden(), { version: VER }));
    const preset = groveGolden();
    preset.metadata.annotations = { [ORIGIN]: '0.8.1' };
    expect(hashOf(preset)).toBe(sha8(goldenPreImage(NS, '0.8.1')));
  });

  test('record annotations are the workload annotations (origin version removed), the pod template keeps both', () => {
    const doc = groveGolden();
    decodeOf(doc).podTemplate.metadata = { annotations: { 'x.example/a': 'b' } };
    const expected = goldenPreImage(NS, VER, [
      ['"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"spec":', '"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"annotations":{"x.example/a":"b"},"spec":'],
      [`"annotations":{"nvidia.com/dynamo-operator-origin-version":"${VER}"}`, `"annotations":{"nvidia.com/dynamo-operator-origin-version":"${VER}","x.example/a":"b"}`],
    ]);
    expect(hashOf(doc)).toBe(sha8(expected));
  });

  describe('runtimeVersion: only when ≥ 1.5.0, from the override, else from the image tag', () => {
    const withRuntime = (version: string, image = WORKER_IMAGE): string => goldenPreImage(NS, VER, [
      ['"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"spec":', `"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"runtimeVersion":"${version}","spec":`],
      [`"image":"${WORKER_IMAGE}"`, `"image":"${image}"`],
    ]);
    const withImage = (image: string): any => {
      const doc = groveGolden();
      workerMainOf(doc).image = image;
      return doc;
    };

    test('image tag 1.4.0-test (golden): below 1.5.0, no runtimeVersion', () => {
      expect(GOLDEN_PRE_IMAGE).not.toContain('runtimeVersion');
      expect(hashOf(groveGolden())).toBe(sha8(goldenPreImage()));
    });

    test.each<[string, string]>([
      ['registry.example/dynamo-worker:1.5.0', '1.5.0'],
      ['registry.example/dynamo-worker:v1.6.2-rc.1+build.7', '1.6.2'],
      ['registry.example:5000/dynamo-worker:2.0.1', '2.0.1'],
      [`registry.example/dynamo-worker:1.5.3@sha256:${'a'.repeat(64)}`, '1.5.3'],
    ])('image %s → runtimeVersion %s, placed between labels and spec', (image, version) => {
      expect(hashOf(withImage(image))).toBe(sha8(withRuntime(version, image)));
    });

    test.each([
      'registry.example/dynamo-worker:1.4.99',
      'registry.example/dynamo-worker:latest',
      'registry.example:5000/dynamo-worker',
      'registry.example/dynamo-worker:1.5',
    ])('image %s → no runtimeVersion (below 1.5.0 or unresolvable)', image => {
      expect(hashOf(withImage(image))).toBe(sha8(goldenPreImage(NS, VER, [[`"image":"${WORKER_IMAGE}"`, `"image":"${image}"`]])));
    });

    test('runtimeVersionOverride 1.5.0 over a 1.4.0 image → runtimeVersion 1.5.0; the override field itself is not hashed', () => {
      const doc = groveGolden();
      decodeOf(doc).runtimeVersionOverride = '1.5.0-rc.2';
      expect(hashOf(doc)).toBe(sha8(withRuntime('1.5.0')));
    });

    test('the override wins over the image: 1.4.9 over a 1.6.0 image → no runtimeVersion', () => {
      const doc = withImage('registry.example/dynamo-worker:1.6.0');
      decodeOf(doc).runtimeVersionOverride = '1.4.9';
      expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [[`"image":"${WORKER_IMAGE}"`, '"image":"registry.example/dynamo-worker:1.6.0"']])));
    });

    test('an unresolvable override → no runtimeVersion (resolution errors are omitted), even over a 1.6.0 image', () => {
      const doc = withImage('registry.example/dynamo-worker:1.6.0');
      decodeOf(doc).runtimeVersionOverride = 'latest';
      expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [[`"image":"${WORKER_IMAGE}"`, '"image":"registry.example/dynamo-worker:1.6.0"']])));
    });
  });

  test('the frontend (and any non-worker component) is not part of the hash', () => {
    const doc = groveGolden();
    doc.spec.components[0].podTemplate.spec.containers[0].image = 'registry.example/dynamo-frontend:9.9.9';
    doc.spec.components.push({ name: 'planner', type: 'planner', podTemplate: { spec: { containers: [{ name: 'main', image: 'p:1' }] } } });
    expect(hashOf(doc)).toBe(sha8(goldenPreImage()));
  });

  test('namespace and graph name are hashed (through nvidia.com/dynamo-namespace and the graph-name label)', () => {
    const otherNs = groveGolden();
    otherNs.metadata.namespace = 'team-b';
    expect(hashOf(otherNs)).toBe(sha8(goldenPreImage('team-b')));
    const otherName = groveGolden();
    otherName.metadata.name = 'grove-manifest2';
    expect(hashOf(otherName)).toBe(sha8(goldenPreImage(NS, VER, [['grove-manifest', 'grove-manifest2']])));
    expect(new Set([hashOf(groveGolden()), hashOf(otherNs), hashOf(otherName)]).size).toBe(3);
  });

  test('a "." in the graph name: same Dynamo namespace as with "-", but the graph-name label differs, so the hash does', () => {
    const dotted = groveGolden();
    dotted.metadata.name = 'grove.manifest';
    const expected = goldenPreImage(NS, VER, [['"nvidia.com/dynamo-graph-deployment-name":"grove-manifest"', '"nvidia.com/dynamo-graph-deployment-name":"grove.manifest"']]);
    expect(expected).toContain(`"nvidia.com/dynamo-namespace":"${NS}-grove-manifest"`);
    expect(hashOf(dotted)).toBe(sha8(expected));
    expect(components(dotted)[1].metadata.name).toBe(`grove.manifest-decode-${sha8(expected)}`);
  });

  test('rendering: a graph without namespace hashes as namespace "default", or as the namespace the render names', () => {
    const doc = groveGolden();
    delete doc.metadata.namespace;
    expect(components(doc)[1].metadata.name).toBe(`grove-manifest-decode-${sha8(goldenPreImage('default'))}`);
    const named = render(doc, { output: 'components', namespace: 'team-x', settings: { version: VER } });
    expect(named[1].metadata.name).toBe(`grove-manifest-decode-${sha8(goldenPreImage('team-x'))}`);
  });

  test('globalDynamoNamespace: the namespace label becomes "dynamo" and the flag is part of the spec', () => {
    const doc = groveGolden();
    decodeOf(doc).globalDynamoNamespace = true;
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [
      [`"nvidia.com/dynamo-namespace":"${NS}-grove-manifest"`, '"nvidia.com/dynamo-namespace":"dynamo"'],
      ['"type":"decode","podTemplate"', '"type":"decode","globalDynamoNamespace":true,"podTemplate"'],
    ])));
  });

  test('Go encoding of the spec: CRD default protocol TCP, \\u0026 escaping, canonical quantities, Go field order', () => {
    const doc = groveGolden();
    Object.assign(workerMainOf(doc), {
      args: ['a && b <c>'],
      ports: [{ name: 'p', containerPort: 8000 }],
      resources: { limits: { memory: '1024Mi' } },
    });
    decodeOf(doc).sharedMemorySize = '1024Mi';
    const expected = goldenPreImage(NS, VER, [
      [`"image":"${WORKER_IMAGE}","resources":{}`,
        `"image":"${WORKER_IMAGE}","args":["a \\u0026\\u0026 b \\u003cc\\u003e"],"ports":[{"name":"p","containerPort":8000,"protocol":"TCP"}],"resources":{"limits":{"memory":"1Gi"}}`],
      ['"multinode":{"nodeCount":2}', '"multinode":{"nodeCount":2},"sharedMemorySize":"1Gi"'],
    ]);
    expect(hashOf(doc)).toBe(sha8(expected));
  });

  test('a worker without pod template still gets one (hash label, origin version) and an empty pod spec: "containers":null', () => {
    const doc = groveGolden();
    delete decodeOf(doc).podTemplate;
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [[`"containers":[{"name":"main","image":"${WORKER_IMAGE}","resources":{}}]`, '"containers":null']])));
  });

  test('the graph env is merged into main before hashing', () => {
    const doc = groveGolden();
    doc.spec.env = [{ name: 'HF_HOME', value: '/models' }];
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [[`"image":"${WORKER_IMAGE}","resources":{}`, `"image":"${WORKER_IMAGE}","env":[{"name":"HF_HOME","value":"/models"}],"resources":{}`]])));
  });

  test('graph spec.labels / spec.annotations (low-priority pod-template defaults) are hashed in the record and in the spec', () => {
    const doc = groveGolden();
    doc.spec.labels = { zone: 'a' };
    doc.spec.annotations = { 'y.example/b': '2' };
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [
      ['"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"spec":', '"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder","zone":"a"},"annotations":{"y.example/b":"2"},"spec":'],
      ['"labels":{"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"annotations":{', '"labels":{"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder","zone":"a"},"annotations":{'],
      [`"nvidia.com/dynamo-operator-origin-version":"${VER}"}`, `"nvidia.com/dynamo-operator-origin-version":"${VER}","y.example/b":"2"}`],
    ])));
  });

  test('graph metadata annotations propagated to the pod template (docs/design/render-multinode.md §3.1) are hashed in the record and in the spec', () => {
    const doc = groveGolden();
    doc.metadata.annotations = { 'nvidia.com/enable-metrics': 'false', 'example.com/not-propagated': 'x' };
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [
      ['"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"spec":', '"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"annotations":{"nvidia.com/enable-metrics":"false"},"spec":'],
      [`"nvidia.com/dynamo-operator-origin-version":"${VER}"}`, `"nvidia.com/dynamo-operator-origin-version":"${VER}","nvidia.com/enable-metrics":"false"}`],
    ])));
  });

  test('modelRef: base-model-hash label and base-model annotation in the record, modelRef kept in the spec', () => {
    const doc = groveGolden();
    decodeOf(doc).modelRef = { name: 'Qwen/Qwen3-0.6B' };
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [
      ['"labels":{"nvidia.com/dynamo-component":"decode"', `"labels":{"nvidia.com/dynamo-base-model-hash":"${sha8('Qwen/Qwen3-0.6B')}","nvidia.com/dynamo-component":"decode"`],
      ['"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"spec":', '"nvidia.com/dynamo-worker-hash":"worker-hash-placeholder"},"annotations":{"nvidia.com/dynamo-base-model":"Qwen/Qwen3-0.6B"},"spec":'],
      ['"multinode":{"nodeCount":2}', '"multinode":{"nodeCount":2},"modelRef":{"name":"Qwen/Qwen3-0.6B"}'],
    ])));
  });

  test('no backendFramework on the graph and none detected: the field is omitted from the spec', () => {
    const doc = groveGolden();
    delete doc.spec.backendFramework;
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [['"spec":{"backendFramework":"vllm","name":"decode"', '"spec":{"name":"decode"']])));
  });

  test('an epp component adds nvidia.com/dynamo-component-class: worker to the workers, so it changes their hash', () => {
    const doc = groveGolden();
    doc.spec.components.push({ name: 'epp', type: 'epp', eppConfig: { config: {} } });
    expect(hashOf(doc)).toBe(sha8(goldenPreImage(NS, VER, [
      ['"nvidia.com/dynamo-component":"decode",', '"nvidia.com/dynamo-component":"decode","nvidia.com/dynamo-component-class":"worker",'],
      ['"labels":{"nvidia.com/dynamo-worker-hash"', '"labels":{"nvidia.com/dynamo-component-class":"worker","nvidia.com/dynamo-worker-hash"'],
    ])));
  });

  test('restart state is not hashed (the DCDs are generated without it): a restart keeps the worker names', () => {
    const doc = groveGolden();
    doc.spec.restart = { id: 'restart-1' };
    expect(hashOf(doc)).toBe(sha8(goldenPreImage()));
    expect(components(doc)[1].metadata.name).toBe(`grove-manifest-decode-${sha8(goldenPreImage())}`);
  });

  test('several workers: records keyed by component name in byte order, independent of component order', () => {
    const doc = groveGolden();
    doc.spec.components.push({ ...decodeOf(doc), name: 'Prefill', type: 'prefill' });
    const swapped = groveGolden();
    swapped.spec.components = [{ ...decodeOf(doc), name: 'Prefill', type: 'prefill' }, ...swapped.spec.components];
    expect(hashOf(doc)).toBe(hashOf(swapped));
    const decodeRecord = goldenPreImage().slice('{"decode":'.length, -1);
    const prefillRecord = decodeRecord
      .split('"nvidia.com/dynamo-component":"decode"').join('"nvidia.com/dynamo-component":"Prefill"')
      .split('"nvidia.com/dynamo-sub-component-type":"decode"').join('"nvidia.com/dynamo-sub-component-type":"prefill"')
      .split('"name":"decode","type":"decode"').join('"name":"Prefill","type":"prefill"');
    // "Prefill" < "decode" byte-wise (upper case first)
    expect(hashOf(doc)).toBe(sha8(`{"Prefill":${prefillRecord},"decode":${decodeRecord}}`));
  });
});

describe('docs/design/render-multinode.md §7.2 worker DCD names and the hash label', () => {
  const doc = llmGraph();
  doc.spec.components.push(
    { name: 'Prefill', type: 'prefill', replicas: 1, podTemplate: { spec: { containers: [{ name: 'main', image: WORKER_IMAGE }] } } },
    { name: 'Planner', type: 'planner', podTemplate: { spec: { containers: [{ name: 'main', image: WORKER_IMAGE }] } } },
    { name: 'Agg', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: WORKER_IMAGE }] } } },
  );
  const dcds = components(doc);
  const hash = hashOf(doc);

  test('one hash for the whole graph: <dgd>-<comp-lc>-<hash> for worker, prefill and decode; no hash otherwise', () => {
    expect(hash).toMatch(/^[0-9a-f]{8}$/);
    expect(dcds.map(d => d.metadata.name)).toEqual([
      'llm-frontend',
      `llm-decode-${hash}`,
      `llm-prefill-${hash}`,
      'llm-planner',
      `llm-agg-${hash}`,
    ]);
  });

  test('worker DCDs carry the hash as label on the DCD and on its pod template; others carry none', () => {
    for (const dcd of dcds) {
      const worker = ['worker', 'prefill', 'decode'].includes(dcd.spec.type);
      expect(dcd.metadata.labels[HASH_LABEL]).toBe(worker ? hash : undefined);
      expect(dcd.spec.podTemplate.metadata?.labels?.[HASH_LABEL]).toBe(worker ? hash : undefined);
    }
  });

  test('the LeaderWorkerSet of the multinode worker is <dgd>-<comp-lc>-<hash>-0; single-node workers get Deployments <dcd>', () => {
    const objects = workloads(doc);
    expect(only(objects, 'LeaderWorkerSet').metadata.name).toBe(`llm-decode-${hash}-0`);
    expect(objects.filter(o => o.kind === 'Deployment').map(o => o.metadata.name)).toEqual(['llm-frontend', `llm-prefill-${hash}`, 'llm-planner', `llm-agg-${hash}`]);
  });
});

describe('docs/design/render-multinode.md §7.5 multinode on the component path: a worker-spec change renames, a replicas change does not', () => {
  function names(doc: any): { dcd: string; lws: string; frontend: string; replicas: number; lwsReplicas: number } {
    const objects = workloads(doc);
    const dcd = objects.find(o => o.kind === 'DynamoComponentDeployment' && o.spec.name === 'decode');
    const lws = only(objects, 'LeaderWorkerSet');
    const frontend = objects.find(o => o.kind === 'DynamoComponentDeployment' && o.spec.name === 'Frontend');
    return {
      dcd: dcd.metadata.name,
      lws: lws.metadata.name,
      frontend: frontend.metadata.name,
      replicas: dcd.spec.replicas,
      lwsReplicas: lws.spec.replicas,
    };
  }
  const before = names(llmGraph());

  test('worker args change → new hash → new DCD <dgd>-<comp-lc>-<newHash> and new LeaderWorkerSet <…>-0', () => {
    const doc = llmGraph();
    workerMainOf(doc).args = ['--model', 'other', '--tensor-parallel-size', '16'];
    const after = names(doc);
    expect(after.dcd).not.toBe(before.dcd);
    expect(after.dcd).toBe(`llm-decode-${hashOf(doc)}`);
    expect(after.lws).toBe(`${after.dcd}-0`);
    expect(after.frontend).toBe(before.frontend);
  });

  test('nodeCount change → new names', () => {
    const after = names(llmGraph({ multinode: { nodeCount: 4 } }));
    expect(after.dcd).not.toBe(before.dcd);
    expect(after.lws).toBe(`${after.dcd}-0`);
  });

  test('replicas change → same names; the DCD and the LeaderWorkerSet take the plain component replicas (no rollout targets)', () => {
    const after = names(llmGraph({ replicas: 4 }));
    expect(after.dcd).toBe(before.dcd);
    expect(after.lws).toBe(before.lws);
    expect(after.replicas).toBe(4);
    expect(after.lwsReplicas).toBe(4);
  });

  test('a frontend change leaves the worker names alone', () => {
    const doc = llmGraph();
    doc.spec.components[0].podTemplate.spec.containers[0].image = 'registry.example/dynamo-frontend:2.0.0';
    expect(names(doc)).toEqual(before);
  });
});

describe('docs/design/render-multinode.md §10.2 a roles list restating the implicit shape is not part of the worker hash', () => {
  const withRoles = (roles: unknown[]): any => {
    const doc = groveGolden();
    decodeOf(doc).roles = roles;
    return doc;
  };

  test('leader and worker with absent or default replicas hash like no roles list (golden pre-image)', () => {
    const expected = sha8(goldenPreImage());
    expect(hashOf(withRoles([{ name: 'leader' }, { name: 'worker' }]), { groveAvailable: true })).toBe(hashOf(groveGolden(), { groveAvailable: true }));
    expect(hashOf(withRoles([{ name: 'worker', replicas: 1 }, { name: 'leader', replicas: 1 }]), { groveAvailable: true }))
      .toBe(hashOf(groveGolden(), { groveAvailable: true }));
    expect(hashOf(groveGolden(), { groveAvailable: true, version: VER })).toBe(expected);
  });

  test('a role provider override makes the list part of the hash', () => {
    const override = { apiVersion: 'grove.io/v1alpha1', value: { topologyConstraint: { pack: { required: 'rack' } } } };
    const doc = withRoles([{ name: 'leader', providerOverride: override }, { name: 'worker' }]);
    // provider overrides exist from operator 1.5.0 on (an older operator's API server prunes them)
    expect(hashOf(doc, { groveAvailable: true, version: '1.5.0' })).not.toBe(hashOf(groveGolden(), { groveAvailable: true, version: '1.5.0' }));
    expect(hashOf(doc, { groveAvailable: true, version: '1.4.2' })).toBe(hashOf(groveGolden(), { groveAvailable: true, version: '1.4.2' }));
  });
});
