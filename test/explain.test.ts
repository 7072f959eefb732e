/**
 * `explain`: the footprint of a graph (replicas, nodes, pods, GPUs, DRA claims) as the operator
 * runs it, its Mermaid flowchart, and the construct methods that return the same as the command.
 */
import { Chart, Testing } from 'cdk8s';
import { DynamoGraph, GraphFootprint, OperatorOptions } from '../src';
import * as documents from './support/documents';
import { IMAGE } from './support/documents';
import { cli, writeDocuments } from './support/facade';

/** The operators the graphs are explained for: a default install (component provider), and one with Grove. */
const COMPONENT_PATH: OperatorOptions = {};
const GROVE: OperatorOptions = { groveAvailable: true };

/** The graph document as a construct (`DynamoGraph.fromObject`) for `operator`. */
const construct = (doc: any, operator: OperatorOptions): DynamoGraph => DynamoGraph.fromObject(new Chart(Testing.app(), 'test'), 'graph', doc, { operator });
/** The footprint of a graph document (`DynamoGraph.footprint()`). */
const graphFootprint = (doc: any, operator: OperatorOptions): GraphFootprint => construct(doc, operator).footprint();
/** The Mermaid flowchart of a graph document (`DynamoGraph.toMermaid()`). */
const graphMermaidText = (doc: any, operator: OperatorOptions): string => construct(doc, operator).toMermaid();
/** What `cdk8s-dynamo explain [FLAGS] graph.yaml` prints for a graph document. */
function explainText(doc: any, ...flags: string[]): string {
  const r = cli({ 'graph.yaml': writeDocuments([doc]) }, 'explain', ...flags, 'graph.yaml');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return r.stdout;
}

/** A component with a `main` container asking for `gpus` GPUs (none: no resources). */
function component(name: string, type: string, gpus = 0, extra: Record<string, unknown> = {}, main: Record<string, unknown> = {}): any {
  return documents.component(name, type, { gpus, main }, extra);
}

function graph(name: string, ...components: any[]): any {
  return documents.graphDocument(name, components);
}

const WORKER_ARGS = { command: ['python3', '-m', 'dynamo.vllm'] };

describe('footprint', () => {
  test('aggregated: an unset replicas is the operator\'s 1, GPUs from the main container\'s limit', () => {
    const fp = graphFootprint(graph('agg', component('Frontend', 'frontend'), component('worker', 'worker', 2, {}, WORKER_ARGS)), COMPONENT_PATH);
    expect(fp).toMatchObject({ name: 'agg', namespace: 'default', workloadProvider: 'component', totalGpus: 2 });
    expect(fp.components[1]).toEqual({
      name: 'worker',
      type: 'worker',
      replicas: 1,
      replicasDefaulted: true,
      scalingAdapter: false,
      nodesPerReplica: 1,
      podsPerReplica: 1,
      gpusPerPod: 2,
      totalGpus: 2,
      workload: 'Deployment',
      draClaims: [],
      notes: [],
    });
    expect(fp.components[0]).toMatchObject({ type: 'frontend', gpusPerPod: 0, totalGpus: 0 });
  });

  test('disaggregated: replicas × GPUs per component; a scaling adapter is said', () => {
    const fp = graphFootprint(graph('disagg',
      component('Frontend', 'frontend', 0, { replicas: 2 }),
      component('prefill', 'prefill', 1, { replicas: 3 }, WORKER_ARGS),
      component('decode', 'decode', 4, { replicas: 2, scalingAdapter: {} }, WORKER_ARGS)), COMPONENT_PATH);
    expect(fp.components.map(c => [c.name, c.replicas, c.replicasDefaulted, c.scalingAdapter, c.gpusPerPod, c.totalGpus])).toEqual([
      ['Frontend', 2, false, false, 0, 0], ['prefill', 3, false, false, 1, 3], ['decode', 2, false, true, 4, 8],
    ]);
    expect(fp.totalGpus).toBe(11);
  });

  test('GPUs a DYN_DEPLOYMENT_CONFIG gives a worker count, as in the DCD the graph controller generates', () => {
    const config = JSON.stringify({ decode: { ServiceArgs: { resources: { gpu: 2 } } } });
    const fp = graphFootprint(graph('cfg', component('decode', 'decode', 0, {}, { ...WORKER_ARGS, env: [{ name: 'DYN_DEPLOYMENT_CONFIG', value: config }] })), COMPONENT_PATH);
    expect(fp.components[0]).toMatchObject({ gpusPerPod: 2, totalGpus: 2 });
  });

  const multinode = graph('mn', component('Frontend', 'frontend'),
    component('decode', 'decode', 8, { replicas: 2, multinode: { nodeCount: 2 } }, WORKER_ARGS));

  test('multinode on LeaderWorkerSet: a leader and a worker pod per replica, each with the main container\'s GPUs', () => {
    const fp = graphFootprint(multinode, COMPONENT_PATH);
    expect(fp.components[1]).toMatchObject({ workload: 'LeaderWorkerSet', replicas: 2, nodesPerReplica: 2, podsPerReplica: 2, gpusPerPod: 8, totalGpus: 32 });
    expect(fp.totalGpus).toBe(32);
  });

  test('multinode on Grove: the same GPUs in a PodCliqueScalingGroup', () => {
    const fp = graphFootprint(multinode, GROVE);
    expect(fp.workloadProvider).toBe('grove');
    expect(fp.components[1]).toMatchObject({ workload: 'PodCliqueScalingGroup', nodesPerReplica: 2, podsPerReplica: 2, gpusPerPod: 8, totalGpus: 32 });
    expect(fp.components[0]).toMatchObject({ workload: 'PodClique', podsPerReplica: 1 });
  });

  test('intra-pod GPU memory service: one claim per pod from the graph\'s ResourceClaimTemplate', () => {
    const fp = graphFootprint(graph('gms', component('worker', 'worker', 2, { replicas: 3, experimental: { gpuMemoryService: {} } }, WORKER_ARGS)), COMPONENT_PATH);
    expect(fp.components[0]).toMatchObject({ gpusPerPod: 2, totalGpus: 6 });
    expect(fp.components[0].draClaims).toEqual([
      { templateName: 'gms-worker-gpu', createdBy: 'DynamoGraphDeployment', deviceClassName: 'gpu.nvidia.com', gpusPerClaim: 2, claims: 3 },
    ]);
  });

  test('inter-pod GPU memory service with failover on Grove: a claim per node rank and replica, shared by the weight server and engines', () => {
    const fp = graphFootprint(graph('ip', component('worker', 'worker', 4, {
      replicas: 2,
      multinode: { nodeCount: 2 },
      experimental: { gpuMemoryService: { mode: 'InterPod', deviceClassName: 'gpu.example.com' }, failover: { mode: 'InterPod', numShadows: 1 } },
    }, WORKER_ARGS)), GROVE);
    const worker = fp.components[0];
    // per rank: the weight server and 1 + 1 engines (the most shadows the operator admits, rule 121)
    expect(worker).toMatchObject({ workload: 'PodCliqueScalingGroup', nodesPerReplica: 2, podsPerReplica: 6, gpusPerPod: 4, totalGpus: 16 });
    expect(worker.draClaims.map(c => [c.templateName, c.createdBy, c.deviceClassName, c.gpusPerClaim, c.claims])).toEqual([
      ['ip-worker-gpu', 'DynamoGraphDeployment', 'gpu.example.com', 4, 0],
      ['worker-gpu-rank-0', 'PodCliqueSet', 'gpu.example.com', 4, 2],
      ['worker-gpu-rank-1', 'PodCliqueSet', 'gpu.example.com', 4, 2],
    ]);
  });

  test('planner and endpoint picker: typed components without GPUs', () => {
    const fp = graphFootprint(graph('pe', component('Planner', 'planner'), component('Epp', 'epp', 0, { eppConfig: { configMapRef: { name: 'cfg', key: 'epp.yaml' } } })), COMPONENT_PATH);
    expect(fp.components.map(c => [c.type, c.replicas, c.totalGpus])).toEqual([['planner', 1, 0], ['epp', 1, 0]]);
  });

  test('the table: one row per component, the total, marks for defaulted replicas and scaling adapters', () => {
    const text = explainText(graph('t', component('Frontend', 'frontend'),
      component('decode', 'decode', 4, { replicas: 2, scalingAdapter: {} }, WORKER_ARGS)));
    expect(text.split('\n')).toEqual([
      'DynamoGraphDeployment default/t (workload provider: component)',
      'COMPONENT  TYPE      REPLICAS  NODES  PODS  GPUS/POD  GPUS  DRA CLAIMS',
      'Frontend   frontend  1*        1      1     0         0     -',
      'decode     decode    2+        1      2     4         8     -',
      'total                                                 8',
      '* replicas not set: the operator\'s default',
      '+ scaling adapter: an autoscaler or the planner sets the replicas',
      '',
    ]);
  });
});

describe('mermaid', () => {
  const disagg = graph('my-graph',
    component('Frontend', 'frontend', 0, {}, { args: ['-m', 'dynamo.frontend', '--router-mode', 'kv'] }),
    component('Planner', 'planner'),
    component('prefill-1', 'prefill', 1, { replicas: 2 }, WORKER_ARGS),
    component('decode', 'decode', 2, { replicas: 2, multinode: { nodeCount: 2 } }, WORKER_ARGS),
    component('Epp', 'epp', 0, { eppConfig: { configMapRef: { name: 'cfg', key: 'epp.yaml' } } }));
  const text = graphMermaidText(disagg, COMPONENT_PATH);

  test('a flowchart LR with positional node ids and the replicas and GPUs in the labels', () => {
    const lines = text.split('\n');
    expect(lines[0]).toBe('flowchart LR');
    expect(lines).toContain('  c0["Frontend<br/>frontend · router: kv<br/>1 replica"]');
    expect(lines).toContain('  c2["prefill-1<br/>prefill worker<br/>2 replicas · 1 GPU/pod · 2 GPUs"]');
    expect(lines).toContain('  c3["decode<br/>decode worker<br/>2 replicas × 2 nodes · 2 GPU/pod · 8 GPUs"]');
  });

  test('traffic: clients → Gateway → EPP and the frontend; frontend → workers; prefill → decode; planner scales the workers', () => {
    const lines = text.split('\n');
    for (const edge of [
      '  clients --> gateway', '  gateway -. "endpoint pick" .-> c4', '  gateway -- "picked pod" --> c0',
      '  c0 --> c2', '  c0 --> c3', '  c2 -. "KV cache" .-> c3', '  c1 -. "scales" .-> c2', '  c1 -. "scales" .-> c3',
    ]) expect(lines).toContain(edge);
    expect(lines).not.toContain('  clients --> c0');
  });

  test('the shape of the whole text', () => {
    expect(text).toMatchSnapshot();
  });

  test('without an EPP clients reach the frontends; a worker\'s frontend sidecar is the Gateway\'s target with one', () => {
    expect(graphMermaidText(graph('g', component('Frontend', 'frontend'), component('w', 'worker', 1, {}, WORKER_ARGS)), COMPONENT_PATH))
      .toContain('  clients --> c0\n  c0 --> c1\n');
    const sidecar = component('w', 'decode', 1, { frontendSidecar: 'fe' }, WORKER_ARGS);
    sidecar.podTemplate.spec.containers.push({ name: 'fe', image: IMAGE, args: ['-m', 'dynamo.frontend', '--router-mode=direct'] });
    const gaie = graphMermaidText(graph('g', component('Epp', 'epp', 0, { eppConfig: { configMapRef: { name: 'cfg', key: 'epp.yaml' } } }), sidecar), COMPONENT_PATH);
    expect(gaie).toContain('decode worker + frontend sidecar (router: direct)');
    expect(gaie).toContain('  gateway -- "picked pod" --> c1\n');
  });

  test('router mode: the flag wins over DYN_ROUTER_MODE, which wins over the graph\'s DYN_ROUTER_MODE, then the default', () => {
    const routerOf = (main: Record<string, unknown>, graphEnv?: unknown[]): string => {
      const doc = graph('g', component('Frontend', 'frontend', 0, {}, main), component('w', 'worker', 1, {}, WORKER_ARGS));
      if (graphEnv) doc.spec.env = graphEnv;
      return /c0\["Frontend<br\/>frontend · router: ([^<]*)<br\/>/.exec(graphMermaidText(doc, COMPONENT_PATH))![1];
    };
    expect(routerOf({ args: ['python3 -m dynamo.frontend --router-mode kv'], env: [{ name: 'DYN_ROUTER_MODE', value: 'random' }] })).toBe('kv');
    expect(routerOf({ env: [{ name: 'DYN_ROUTER_MODE', value: 'random' }] })).toBe('random');
    expect(routerOf({}, [{ name: 'DYN_ROUTER_MODE', value: 'kv' }])).toBe('kv');
    expect(routerOf({ env: [{ name: 'DYN_ROUTER_MODE', value: 'random' }] }, [{ name: 'DYN_ROUTER_MODE', value: 'kv' }])).toBe('random');
    expect(routerOf({})).toBe('round-robin');
  });

  test('labels escape what Mermaid reads as markup', () => {
    const doc = graph('g', component('Frontend', 'frontend', 0, {}, { env: [{ name: 'DYN_ROUTER_MODE', value: 'a "b" <c> #d' }] }));
    expect(graphMermaidText(doc, COMPONENT_PATH)).toContain('router: a #quot;b#quot; #lt;c#gt; #35;d<br/>');
  });
});

describe('the construct methods equal the command', () => {
  const doc = graph('llm', component('Frontend', 'frontend'), component('Planner', 'planner'),
    component('prefill', 'prefill', 1, { replicas: 2 }, WORKER_ARGS), component('decode', 'decode', 4, {}, WORKER_ARGS));

  test('footprint() and toMermaid()', () => {
    const g = DynamoGraph.fromObject(new Chart(Testing.app(), 'test'), 'llm', doc);
    // the table the command prints is made of the construct's footprint
    const table = explainText(doc);
    const fp = g.footprint();
    expect(table.split('\n')[0]).toBe(`DynamoGraphDeployment ${fp.namespace}/${fp.name} (workload provider: ${fp.workloadProvider})`);
    for (const c of fp.components) {
      expect(table).toMatch(new RegExp(`\n${c.name} +${c.type} +${c.replicas}${c.replicasDefaulted ? '\\*' : ''}${c.scalingAdapter ? '\\+' : ''} +${c.nodesPerReplica} +${c.podsPerReplica * c.replicas} +${c.gpusPerPod} +${c.totalGpus} +-\n`));
    }
    expect(table).toMatch(new RegExp(`\ntotal +${fp.totalGpus}\n`));
    expect(g.toMermaid()).toBe(explainText(doc, '--mermaid'));
    expect(g.footprint().totalGpus).toBe(6);
  });

  test('with Grove as the graph\'s operator', () => {
    const g = DynamoGraph.fromObject(new Chart(Testing.app(), 'test'), 'llm', doc, { operator: { groveAvailable: true } });
    expect(g.footprint().workloadProvider).toBe('grove');
    expect(explainText(doc, '--grove')).toMatch(/^DynamoGraphDeployment default\/llm \(workload provider: grove\)\n/);
    expect(g.toMermaid()).toBe(explainText(doc, '--grove', '--mermaid'));
  });

  test('a graph the operator refuses throws its validation messages', () => {
    const g = new DynamoGraph(new Chart(Testing.app(), 'test'), 'bad');
    g.addWorker('w', { image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:my-tag' });
    expect(() => g.footprint()).toThrow(/rule 47/);
    expect(() => g.toMermaid()).toThrow(/rule 47/);
  });
});
