import {
  checkGraphs, CheckedGraph, DeferralReason, deferralReasons, graphProblems, renderGraphWorkloads, workloadsTotals,
} from './support/corpus-workloads';
import {
  isKubernetesApi, KUBERNETES_MODELS_DIR, kubernetesModelFile, kubernetesModelsVersion, validateKubernetesObjects,
} from './support/kubernetes-schema';
import { corpusFiles, CORPUS_DIR } from './support/shared';

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
  const graph = (component: any) => ({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata: { name: 'g' }, spec: { components: [component] } }) as any;
  const main = { podTemplate: { spec: { containers: [{ name: 'main', image: 'i:1.4.0' }] } } };

  test('experimental and features that need the Grove pathway; multinode renders (LeaderWorkerSet)', () => {
    expect(deferralReasons(graph({ name: 'w', type: 'worker', ...main }))).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', multinode: { nodeCount: 1 }, ...main }))).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', multinode: { nodeCount: 2 }, ...main }))).toEqual([]);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', experimental: { gpuMemoryService: {} }, ...main }))).toEqual(['experimental']);
    expect(deferralReasons(graph({ name: 'w', type: 'worker', minAvailable: 1, ...main }))).toEqual(['grove-only']);
  });
});

// ---------------------------------------------------------------------------------------------
// The corpus: every v1beta1 graph in workloads output, operator without Grove
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

const describeCorpus = CORPUS_DIR ? describe : describe.skip;

describeCorpus('render-core §14 corpus graphs in workloads output (Kubernetes schema of every core object)', () => {
  let checked: Map<string, CheckedGraph>;

  beforeAll(() => {
    const graphs = checkGraphs(graphDocs.map(({ id, doc }) => renderGraphWorkloads(id, doc)));
    checked = new Map(graphs.map(g => [g.id, g]));
  });

  test('the corpus holds 85 v1beta1 graphs; 79 render, 6 belong to later stages', () => {
    const totals = workloadsTotals([...checked.values()]);
    expect(totals.graphs).toBe(85);
    expect(totals.failed).toBe(0);
    expect(totals.rendered).toBe(79);
    expect(totals.deferred).toBe(6);
    // a graph counts once per reason (dgd-gms-failover is experimental and Grove-only)
    expect(Object.fromEntries(totals.deferredByReason)).toEqual({ 'experimental': 6, 'grove-only': 2 });
    // one workload per DCD: a Deployment, or a LeaderWorkerSet for a multinode DCD (render-multinode §1.2)
    expect((totals.validatedByKind.get('apps/v1 Deployment') ?? 0) + (totals.skippedByKind.get('leaderworkerset.x-k8s.io/v1 LeaderWorkerSet') ?? 0))
      .toBe(totals.skippedByKind.get('nvidia.com/v1beta1 DynamoComponentDeployment'));
    expect(totals.skippedByKind.get('leaderworkerset.x-k8s.io/v1 LeaderWorkerSet')).toBe(6);
  });

  test.each(graphDocs.map(g => [g.id]))('%s', id => {
    const g = checked.get(id)!;
    expect(graphProblems(g)).toEqual([]);
    if (g.deferred.length > 0) {
      // later stage: refused with a RenderError at the field of one of its reasons
      expect(g.refused).toBe(true);
      expect(g.deferred.some(r => REFUSED_AT[r].test(g.error!))).toBe(true);
    } else {
      expect(g.error).toBeUndefined();
      // §14: one Deployment per DCD, of the same name; a multinode DCD gets LeaderWorkerSet <dcd>-0 instead
      const names = (kind: string) => g.checks.filter(c => c.kind === kind).map(c => c.name);
      const workloads = [...names('Deployment'), ...names('LeaderWorkerSet').map(n => n.replace(/-0$/, ''))].sort();
      expect(workloads).toEqual(names('DynamoComponentDeployment').sort());
      expect(workloads.length).toBeGreaterThan(0);
      expect(g.checks.every(c => c.status === 'valid' || c.status === 'not-kubernetes')).toBe(true);
    }
  });
});
