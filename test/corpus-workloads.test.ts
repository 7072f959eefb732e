import {
  checkGraphs, CheckedGraph, DeferralReason, deferralReasons, GraphWorkloads, graphProblems, multinodeGaps, optsOutOfGrove, renderGraphWorkloads,
  WorkloadsPath, workloadsTotals,
} from './support/corpus-workloads';
import {
  isKubernetesApi, KUBERNETES_MODELS_DIR, kubernetesModelFile, kubernetesModelsVersion, validateKubernetesObjects,
} from './support/kubernetes-schema';
import { corpusFiles, describeNeeding } from './support/shared';

function deployment(extra: { ownerReferences?: unknown[]; containerPort?: unknown } = {}): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', ...(extra.ownerReferences ? { ownerReferences: extra.ownerReferences } : {}) },
    spec: {
      selector: { matchLabels: { app: 'd' } },
      template: {
        metadata: { labels: { app: 'd' } },
        spec: { containers: [{ name: 'main', image: 'i:1', ports: [{ name: 'http', containerPort: extra.containerPort ?? 8000 }] }] },
      },
    },
  };
}

describe('Kubernetes OpenAPI schema check (kubernetes-models)', () => {
  test('the installed kubernetes-models is 5.1.x (models of the Kubernetes v1.36.0 schema)', () => {
    expect(kubernetesModelsVersion()).toMatch(/^5\.1\./);
  });

  test('apiVersion+kind map to the model module <group>/<version>/<Kind> (v1/<Kind> for the core group)', () => {
    expect(kubernetesModelFile('apps/v1', 'Deployment')).toBe(`${KUBERNETES_MODELS_DIR}/apps/v1/Deployment.js`);
    expect(kubernetesModelFile('v1', 'Service')).toBe(`${KUBERNETES_MODELS_DIR}/v1/Service.js`);
    expect(kubernetesModelFile('rbac.authorization.k8s.io/v1', 'RoleBinding')).toBe(`${KUBERNETES_MODELS_DIR}/rbac.authorization.k8s.io/v1/RoleBinding.js`);
    expect(kubernetesModelFile('networking.k8s.io/v1', 'Ingress')).toBe(`${KUBERNETES_MODELS_DIR}/networking.k8s.io/v1/Ingress.js`);
    expect(kubernetesModelFile('apps/v1', 'NoSuchKind')).toBeUndefined();
    expect(kubernetesModelFile('apps/v1', '../v1/Pod')).toBeUndefined();
  });

  test('custom resource APIs are not Kubernetes APIs', () => {
    expect(['v1', 'apps/v1', 'rbac.authorization.k8s.io/v1', 'networking.k8s.io/v1', 'policy/v1'].map(isKubernetesApi)).toEqual([true, true, true, true, true]);
    expect(['nvidia.com/v1beta1', 'inference.networking.k8s.io/v1', 'inference.networking.x-k8s.io/v1alpha2', 'networking.istio.io/v1', undefined]
      .map(isKubernetesApi)).toEqual([false, false, false, false, false]);
  });

  test('valid, invalid, wrong kind and other APIs', () => {
    const checks = validateKubernetesObjects([
      deployment(),
      deployment({ containerPort: 'http' }),
      deployment({ ownerReferences: [{ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: 'g' }] }),
      { apiVersion: 'v1', kind: 'Container', name: 'main' },
      { apiVersion: 'apps/v1', kind: 'Deploymnet', metadata: { name: 'typo' } },
      { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'x' } },
      { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'sa' } },
    ]);
    expect(checks.map(c => c.status)).toEqual(['valid', 'invalid', 'invalid', 'no-model', 'no-model', 'not-kubernetes', 'valid']);
    expect(checks[1].errors).toEqual(['/spec/template/spec/containers/0/ports/0/containerPort: must be integer']);
    expect(checks[2].errors).toEqual(['/metadata/ownerReferences/0: must have required property uid']);
    expect(checks[6]).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', name: 'sa', status: 'valid', errors: [] });
  });

  test('no object of a Kubernetes API: no child process, nothing checked', () => {
    expect(validateKubernetesObjects([{ apiVersion: 'nvidia.com/v1beta1', kind: 'X' }]).map(c => c.status)).toEqual(['not-kubernetes']);
    expect(validateKubernetesObjects([])).toEqual([]);
  });
});

describe('corpus deferral reasons', () => {
  const graph = (component: any, annotations?: Record<string, string>) => ({
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'g', ...(annotations ? { annotations } : {}) },
    spec: { components: [component] },
  }) as any;
  const main = { podTemplate: { spec: { containers: [{ name: 'main', image: 'i:1.4.0' }] } } };

  test('LeaderWorkerSet path: experimental and features that need the Grove pathway; multinode renders (LeaderWorkerSet)', () => {
    expect(deferralReasons(graph({ name: 'w', type: 'worker', ...main }))).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', multinode: { nodeCount: 1 }, ...main }))).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', multinode: { nodeCount: 2 }, ...main }))).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', experimental: { gpuMemoryService: {} }, ...main }))).toEqual([]);
    // an experimental feature the engine does not know is a later stage
    expect(deferralReasons(graph({ name: 'w', type: 'worker', experimental: { futureFeature: {} }, ...main }))).toEqual(['experimental']);
    // experimental.grove is no later stage, but admission without Grove forbids it
    expect(deferralReasons(graph({ name: 'w', type: 'worker', experimental: { grove: { forceScalingGroup: true } }, ...main }))).toEqual(['grove-only']);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', minAvailable: 1, ...main }))).toEqual(['grove-only']);
  });

  test('Grove path: experimental.grove and Grove-only fields render; other experimental features do not, nor Grove-only fields of opted-out graphs', () => {
    expect(deferralReasons(graph({ name: 'w', type: 'worker', multinode: { nodeCount: 2 }, ...main }), 'grove')).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', minAvailable: 1, ...main }), 'grove')).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', experimental: { grove: { forceScalingGroup: true } }, ...main }), 'grove')).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', experimental: { gpuMemoryService: { mode: 'InterPod' } }, ...main }), 'grove')).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', experimental: { futureFeature: {} }, ...main }), 'grove')).toEqual(['experimental']);
    // docs/design/render-core.md §2: nvidia.com/enable-grove "false" (any case) takes the component provider
    const optedOut = graph({ name: 'w', type: 'worker', experimental: { grove: { forceScalingGroup: true } }, ...main }, { 'nvidia.com/enable-grove': 'False' });
    expect(optsOutOfGrove(optedOut)).toBe(true);
    expect(deferralReasons(optedOut, 'grove')).toEqual(['grove-only']);
    expect(optsOutOfGrove(graph({ name: 'w', type: 'worker', ...main }, { 'nvidia.com/enable-grove': 'true' }))).toBe(false);
  });

  test('a multinode graph that renders on one path only is a gap; deferred graphs and single-node graphs are not', () => {
    const g = (id: string, path: WorkloadsPath, extra: Partial<GraphWorkloads>): GraphWorkloads =>
      ({ id, path, multinode: true, deferred: [], admitted: true, objects: [], refused: false, ...extra });
    const lws = [g('a', 'lws', {}), g('b', 'lws', {}), g('c', 'lws', {}), g('d', 'lws', { multinode: false })];
    const grove = [
      g('a', 'grove', {}),
      g('b', 'grove', { error: 'DynamoGraphDeployment/b: x: boom', refused: true }),
      g('c', 'grove', { deferred: ['experimental'], error: 'refused', refused: true }),
      g('d', 'grove', { multinode: false, error: 'refused', refused: true }),
    ];
    expect(multinodeGaps(lws, grove)).toEqual(['b: renders on the lws path, not on the grove path: DynamoGraphDeployment/b: x: boom']);
  });
});

// ---------------------------------------------------------------------------------------------
// The corpus: every v1beta1 graph in workloads output, on both workload paths
// ---------------------------------------------------------------------------------------------

const graphDocs = corpusFiles().flatMap(({ file, docs }) => docs
  .filter(d => d?.apiVersion === 'nvidia.com/v1beta1' && (d.kind === 'DynamoGraphDeployment' || d.kind === 'DynamoComponentDeployment'))
  .map((doc, i) => ({ id: `${file}#${i}`, doc }))
  .filter(({ doc }) => doc.kind === 'DynamoGraphDeployment'));

/** Where the engine refuses each reason: the field path of its RenderError. */
const REFUSED_AT: Record<DeferralReason, RegExp> = {
  'experimental': /\.experimental\.\w+: /,
  'grove-only': /\.experimental\.\w+: |workload-provider/,
};

const LWS = 'leaderworkerset.x-k8s.io/v1 LeaderWorkerSet';
const PCS = 'grove.io/v1alpha1 PodCliqueSet';

/** Names of the checked objects of a kind. */
function namesOf(g: CheckedGraph, kind: string): string[] {
  return g.checks.filter(c => c.kind === kind).map(c => c.name);
}

/** A deferred graph is refused with a RenderError at the field of one of its reasons. */
function expectRefused(g: CheckedGraph): void {
  expect(g.refused).toBe(true);
  expect(g.deferred.some(r => REFUSED_AT[r].test(g.error!))).toBe(true);
}

/** docs/design/render-core.md §14 component provider: one Deployment per DCD, of the same name; a multinode DCD gets LeaderWorkerSet <dcd>-0 instead. */
function expectComponentWorkloads(g: CheckedGraph): void {
  const workloads = [...namesOf(g, 'Deployment'), ...namesOf(g, 'LeaderWorkerSet').map(n => n.replace(/-0$/, ''))].sort();
  expect(workloads).toEqual(namesOf(g, 'DynamoComponentDeployment').sort());
  expect(workloads.length).toBeGreaterThan(0);
}

const describeCorpus = describeNeeding('corpus');

describeCorpus('docs/design/render-core.md §14 corpus graphs in workloads output, operator without Grove (Kubernetes schema of core objects, CRD schema of LeaderWorkerSets)', () => {
  let checked: Map<string, CheckedGraph>;

  beforeAll(() => {
    const graphs = checkGraphs(graphDocs.map(({ id, doc }) => renderGraphWorkloads(id, doc, 'lws')));
    checked = new Map(graphs.map(g => [g.id, g]));
  });

  test('the corpus holds 85 v1beta1 graphs; 83 render, 2 need the Grove pathway; every LeaderWorkerSet fits its CRD schema', () => {
    const totals = workloadsTotals([...checked.values()]);
    expect(totals.graphs).toBe(85);
    expect(totals.failed).toBe(0);
    expect(totals.rendered).toBe(83);
    expect(totals.deferred).toBe(2);
    // inter-pod GPU memory service and Grove-only fields: admission without Grove forbids them
    expect(Object.fromEntries(totals.deferredByReason)).toEqual({ 'grove-only': 2 });
    // one workload per DCD: a Deployment, or a LeaderWorkerSet for a multinode DCD (docs/design/render-multinode.md §1.2)
    expect((totals.validatedByKind.get('apps/v1 Deployment') ?? 0) + (totals.crdValidatedByKind.get(LWS) ?? 0))
      .toBe(totals.skippedByKind.get('nvidia.com/v1beta1 DynamoComponentDeployment'));
    expect(Object.fromEntries(totals.crdValidatedByKind)).toEqual({ [LWS]: 6 });
    expect(totals.skippedByKind.get(LWS)).toBeUndefined();
    expect([totals.multinode, totals.multinodeRendered]).toEqual([4, 3]);
  });

  test.each(graphDocs.map(g => [g.id]))('%s', id => {
    const g = checked.get(id)!;
    expect(graphProblems(g)).toEqual([]);
    if (g.deferred.length > 0) {
      expectRefused(g);
    } else {
      expect(g.error).toBeUndefined();
      expectComponentWorkloads(g);
      expect(g.checks.every(c => c.status === 'valid' || c.status === 'not-kubernetes')).toBe(true);
      expect(g.crdChecks.filter(c => c.status !== 'not-crd').map(c => c.kind)).toEqual(namesOf(g, 'LeaderWorkerSet').map(() => 'LeaderWorkerSet'));
    }
  });
});

describeCorpus('docs/design/render-multinode.md §4 corpus graphs in workloads output, operator with Grove (one PodCliqueSet per graph, CRD schema of PodCliqueSets)', () => {
  let checked: Map<string, CheckedGraph>;
  let lwsPath: GraphWorkloads[];

  beforeAll(() => {
    const graphs = checkGraphs(graphDocs.map(({ id, doc }) => renderGraphWorkloads(id, doc, 'grove')));
    checked = new Map(graphs.map(g => [g.id, g]));
    lwsPath = graphDocs.map(({ id, doc }) => renderGraphWorkloads(id, doc, 'lws'));
  });

  test('all 85 graphs render; every PodCliqueSet fits its CRD schema', () => {
    const totals = workloadsTotals([...checked.values()]);
    expect(totals.graphs).toBe(85);
    expect(totals.failed).toBe(0);
    expect(totals.notSupportedYet).toBe(0);
    expect(totals.rendered).toBe(85);
    expect(totals.deferred).toBe(0);
    expect(Object.fromEntries(totals.deferredByReason)).toEqual({});
    const groveGraphs = [...checked.values()].filter(g => g.error === undefined && !optsOutOfGrove(graphDocs.find(d => d.id === g.id)!.doc));
    expect(totals.crdValidatedByKind.get(PCS)).toBe(groveGraphs.length);
    expect(groveGraphs.length).toBeGreaterThan(0);
  });

  test('multinode graphs render on both paths', () => {
    const totals = workloadsTotals([...checked.values()]);
    expect([totals.multinode, totals.multinodeRendered]).toEqual([4, 4]);
    expect(multinodeGaps(lwsPath, [...checked.values()])).toEqual([]);
  });

  test.each(graphDocs.map(g => [g.id]))('%s', id => {
    const g = checked.get(id)!;
    const doc = graphDocs.find(d => d.id === id)!.doc;
    expect(graphProblems(g)).toEqual([]);
    if (g.deferred.length > 0) {
      expectRefused(g);
      return;
    }
    expect(g.error).toBeUndefined();
    expect(g.checks.every(c => c.status === 'valid' || c.status === 'not-kubernetes')).toBe(true);
    if (optsOutOfGrove(doc)) {
      expectComponentWorkloads(g);
      return;
    }
    // docs/design/render-multinode.md §4: one PodCliqueSet for the graph, labelled with its name; no DCDs, Deployments or LeaderWorkerSets
    const pcs = g.objects.filter((o: any) => o?.kind === 'PodCliqueSet') as any[];
    expect(pcs).toHaveLength(1);
    expect(pcs[0].metadata.labels?.['nvidia.com/dynamo-graph-deployment-name']).toBe(doc.metadata.name);
    expect(pcs[0].spec.template.cliques.length).toBeGreaterThanOrEqual(doc.spec.components.length);
    expect([namesOf(g, 'DynamoComponentDeployment'), namesOf(g, 'Deployment'), namesOf(g, 'LeaderWorkerSet')]).toEqual([[], [], []]);
    expect(g.crdChecks.filter(c => c.status !== 'not-crd').map(c => [c.kind, c.status])).toEqual([['PodCliqueSet', 'valid']]);
  });
});
