/**
 * The objects the component controller and the graph controller create (docs/design/render-core.md §5.12, §7,
 * §8, §11), asserted on the rendered workloads output of small graphs.
 */
import { createHash } from 'crypto';
import { DcdJson, DgdJson, JsonObject, lastAppliedHash, objectOf, OperatorSettings, renderError, renderUnchecked } from './support/facade';
import { component as testComponent, graph as testGraph, IMAGE as TEST_IMAGE, standalone as testStandalone } from './support/graphs';

const EMPTY_CONTENT_HASH = '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a';
const IMAGE = TEST_IMAGE;

function component(name: string, type: string | undefined, extra: JsonObject = {}): JsonObject {
  return testComponent(name, type, extra);
}

function graph(components: JsonObject[], metadata: JsonObject = { name: 'llm', namespace: 'team-a' }, spec: JsonObject = {}): DgdJson {
  return testGraph(components, spec, metadata);
}

function standalone(metadata: JsonObject, spec: JsonObject): DcdJson {
  return testStandalone(spec, { namespace: 'team-a', ...metadata });
}

/** Every object the operator creates for a graph or standalone DCD (not checked: some inputs are deliberately bare). */
function workloads(doc: DgdJson | DcdJson, operator: Partial<OperatorSettings> = {}): any[] {
  return renderUnchecked(doc, { settings: operator });
}

/** The one object of `kind` named `name` (a worker name matches with its hash suffix), or undefined. */
function find(objects: any[], kind: string, name?: string): any {
  const found = objects.filter(o => o.kind === kind && (name === undefined || o.metadata.name === name || o.metadata.name.startsWith(`${name}-`)));
  if (found.length > 1) throw new Error(`several ${kind} objects named ${name}`);
  return found[0];
}

/** The names of the objects of `kind`. */
const namesOf = (objects: any[], kind: string): string[] => objects.filter(o => o.kind === kind).map(o => o.metadata.name);

describe('docs/design/render-core.md §5.12 Deployment object', () => {
  const dgd = graph([
    component('decode', 'decode', {
      replicas: 2,
      modelRef: { name: 'Qwen/Qwen3-0.6B' },
      podTemplate: { metadata: { annotations: { 'example.com/owner': 'ml' } }, spec: { containers: [{ name: 'main', image: IMAGE }] } },
    }),
  ], { name: 'llm.v2', namespace: 'team-a' });
  const objects = workloads(dgd);
  const deployment = objectOf(objects, 'Deployment');
  const hash = objectOf(objects, 'DynamoComponentDeployment').metadata.labels['nvidia.com/dynamo-worker-hash'];

  test('named after the DCD (dots kept), in the DCD namespace, apps/v1', () => {
    expect(deployment.apiVersion).toBe('apps/v1');
    expect(deployment.kind).toBe('Deployment');
    expect(deployment.metadata.name).toBe(objectOf(objects, 'DynamoComponentDeployment').metadata.name);
    expect(deployment.metadata.name).toMatch(/^llm\.v2-decode-[0-9a-f]{8}$/);
    expect(deployment.metadata.name).toBe(`llm.v2-decode-${hash}`);
    expect(deployment.metadata.namespace).toBe('team-a');
    expect(deployment.metadata.ownerReferences).toBeUndefined();
  });

  test('labels are the workload labels (no selector, component-type or discovery labels)', () => {
    expect(hash).toMatch(/^[0-9a-f]{8}$/);
    expect(deployment.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-namespace': 'team-a-llm-v2',
      'nvidia.com/dynamo-graph-deployment-name': 'llm.v2',
      'nvidia.com/dynamo-worker-hash': hash,
      'nvidia.com/dynamo-sub-component-type': 'decode',
      'nvidia.com/dynamo-base-model-hash': 'fb68f5a6',
    });
  });

  test('annotations: workload annotations (origin version stripped) plus create bookkeeping over the spec', () => {
    expect(deployment.metadata.annotations).toEqual({
      'example.com/owner': 'ml',
      'nvidia.com/dynamo-base-model': 'Qwen/Qwen3-0.6B',
      'nvidia.com/last-applied-hash': lastAppliedHash(deployment),
      'nvidia.com/last-applied-generation': '1',
    });
    expect(deployment.metadata.annotations['nvidia.com/last-applied-hash']).toMatch(/^[0-9a-f]{64}$/);
  });

  test('spec: replicas, selector on nvidia.com/selector, template as Go sends it, default strategy, in Go field order', () => {
    expect(Object.keys(deployment.spec)).toEqual(['replicas', 'selector', 'template', 'strategy']);
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.selector).toEqual({ matchLabels: { 'nvidia.com/selector': deployment.metadata.name } });
    expect(deployment.spec.template.metadata.labels['nvidia.com/selector']).toBe(deployment.metadata.name);
    // the Go PodTemplateSpec always carries the container's resources struct
    expect(deployment.spec.template.spec.containers[0].resources).toEqual({});
    expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  });

  test('replicas are omitted when the DCD has none', () => {
    const dcd = standalone({ name: 'no-replicas' }, { name: 'w', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } });
    const out = objectOf(workloads(dcd), 'Deployment');
    expect(out.spec.replicas).toBeUndefined();
    expect(Object.keys(out.spec)).toEqual(['selector', 'template', 'strategy']);
  });

  test('the template carries the pod-template annotations as given', () => {
    expect(deployment.spec.template.metadata.annotations).toEqual(expect.objectContaining({ 'example.com/owner': 'ml' }));
  });
});

describe('docs/design/render-core.md §5.12 Deployment strategy annotations', () => {
  /** The strategy of the Deployment of worker `w` whose pod template has these annotations. */
  const strategyOf = (annotations: Record<string, string>): any => objectOf(workloads(graph([component('w', 'worker', {
    podTemplate: { metadata: { annotations }, spec: { containers: [{ name: 'main', image: IMAGE }] } },
  })])), 'Deployment').spec.strategy;
  const SURGE = 'nvidia.com/deployment-rolling-update-max-surge';
  const UNAVAILABLE = 'nvidia.com/deployment-rolling-update-max-unavailable';

  test('rolling-update bounds: integers become numbers, percentages stay strings', () => {
    expect(strategyOf({ [SURGE]: '1', [UNAVAILABLE]: '50%' })).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '50%' } });
  });

  test('an empty annotation keeps the 25% default', () => {
    expect(strategyOf({ [SURGE]: '' })).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
  });

  test('nvidia.com/deployment-strategy: Recreate gives Recreate without rollingUpdate; other values RollingUpdate', () => {
    expect(strategyOf({ [SURGE]: '3', 'nvidia.com/deployment-strategy': 'Recreate' })).toEqual({ type: 'Recreate' });
    expect(strategyOf({ 'nvidia.com/deployment-strategy': 'recreate' }).type).toBe('RollingUpdate');
    expect(strategyOf({ 'nvidia.com/deployment-strategy': 'RollingUpdate' }).type).toBe('RollingUpdate');
  });

  test('int-or-string parsing follows intstr.Parse', () => {
    const surge = (value: string): unknown => strategyOf({ [SURGE]: value }).rollingUpdate.maxSurge;
    expect(surge('0')).toBe(0);
    expect(surge('+7')).toBe(7);
    expect(surge('-2')).toBe(-2);
    expect(surge('007')).toBe(7);
    expect(surge('1.5')).toBe('1.5');
    expect(surge(' 1')).toBe(' 1');
    expect(surge('4294967297')).toBe(1); // Atoi, then int32 truncation
    expect(surge('99999999999999999999')).toBe('99999999999999999999'); // Atoi overflows
  });

  test('the Deployment reads the annotations from the DCD pod template (graph spec.annotations reach it)', () => {
    const dgd = graph([component('w', 'worker')], undefined, {
      annotations: { [UNAVAILABLE]: '0', [SURGE]: '2' },
    });
    expect(objectOf(workloads(dgd), 'Deployment').spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 2 } });
  });
});

describe('docs/design/render-core.md §7.1 component Service', () => {
  test('frontend: port http 8000 → named target, selector of exactly three keys, discovery labels, bookkeeping', () => {
    const service = find(workloads(graph([component('Frontend', 'frontend')])), 'Service', 'llm-frontend');
    expect(service.apiVersion).toBe('v1');
    expect(service.kind).toBe('Service');
    expect(service.metadata.name).toBe('llm-frontend');
    expect(service.metadata.namespace).toBe('team-a');
    expect(service.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'Frontend',
      'nvidia.com/dynamo-namespace': 'team-a-llm',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'nvidia.com/dynamo-discovery-enabled': 'true',
    });
    expect(service.spec).toEqual({
      ports: [{ name: 'http', protocol: 'TCP', port: 8000, targetPort: 'http' }],
      selector: {
        'nvidia.com/dynamo-component': 'Frontend',
        'nvidia.com/dynamo-component-type': 'frontend',
        'nvidia.com/dynamo-namespace': 'team-a-llm',
      },
    });
    expect(service.metadata.annotations).toEqual({
      'nvidia.com/last-applied-hash': lastAppliedHash(service),
      'nvidia.com/last-applied-generation': '1',
    });
  });

  test('ports by type: epp gRPC with appProtocol http2 and a numeric target; everything else system 9090', () => {
    const epp = graph([component('epp', 'epp', { eppConfig: { configMapRef: { name: 'cm' } } })]);
    expect(find(workloads(epp), 'Service', 'llm-epp').spec.ports).toEqual([{ name: 'grpc', protocol: 'TCP', appProtocol: 'http2', port: 9002, targetPort: 9002 }]);
    for (const type of ['worker', 'prefill', 'decode', 'planner', undefined]) {
      const service = find(workloads(graph([component('c', type)])), 'Service', 'llm-c');
      expect(service.spec.ports).toEqual([{ name: 'system', protocol: 'TCP', port: 9090, targetPort: 'system' }]);
    }
  });

  test('worker Service: name with hash, no worker hash in the selector, workload annotations carried', () => {
    const dgd = graph([component('VllmWorker', 'worker', { modelRef: { name: 'm' } })], undefined, { annotations: { team: 'x' } });
    const objects = workloads(dgd);
    const service = find(objects, 'Service', 'llm-vllmworker');
    expect(service.metadata.name).toBe(objectOf(objects, 'Deployment').metadata.name);
    expect(service.metadata.name).toMatch(/^llm-vllmworker-[0-9a-f]{8}$/);
    expect(service.spec.selector).toEqual({
      'nvidia.com/dynamo-component': 'VllmWorker',
      'nvidia.com/dynamo-component-type': 'worker',
      'nvidia.com/dynamo-namespace': 'team-a-llm',
    });
    expect(service.metadata.annotations.team).toBe('x');
    expect(service.metadata.annotations['nvidia.com/dynamo-base-model']).toBe('m');
  });

  test('the name is lower-cased with dots replaced; the DCD name itself is not', () => {
    const objects = workloads(standalone({ name: 'Serve.Qwen3-0.6B' }, { name: 'f', type: 'frontend' }));
    expect(namesOf(objects, 'Service')).toEqual(['serve-qwen3-0-6b']);
    expect(objectOf(objects, 'Deployment').metadata.name).toBe('Serve.Qwen3-0.6B');
    expect(namesOf(workloads(standalone({ name: 'My.Model-V1.5' }, { name: 'f', type: 'frontend' })), 'Service')).toEqual(['my-model-v1-5']);
  });

  test('etcd discovery: no Service for non-frontends; the frontend keeps one, without discovery labels', () => {
    const dgd = graph([component('Frontend', 'frontend'), component('decode', 'decode'), component('planner', 'planner')]);
    const objects = workloads(dgd, { discoveryBackend: 'etcd' });
    expect(namesOf(objects, 'Service')).toEqual(['llm-frontend']);
    const frontend = find(objects, 'Service', 'llm-frontend');
    expect(frontend.metadata.labels['nvidia.com/dynamo-discovery-backend']).toBeUndefined();
    expect(frontend.metadata.labels['nvidia.com/dynamo-discovery-enabled']).toBeUndefined();
    expect(namesOf(workloads(dgd), 'Service')).toHaveLength(3);
  });

  test('a graph annotation selects the discovery backend per graph', () => {
    const dgd = graph([component('decode', 'decode')], { name: 'llm', namespace: 'team-a', annotations: { 'nvidia.com/dynamo-discovery-backend': 'etcd' } });
    expect(namesOf(workloads(dgd), 'Service')).toEqual([]);
    const kube = graph([component('decode', 'decode')], { name: 'llm', namespace: 'team-a', annotations: { 'nvidia.com/dynamo-discovery-backend': 'kubernetes' } });
    expect(namesOf(workloads(kube, { discoveryBackend: 'etcd' }), 'Service')).toHaveLength(1);
  });
});

describe('docs/design/render-core.md §7.2 model headless Service', () => {
  test('dynamo-model-<h8>: headless, selects the model hash, system port 9090 → 9090', () => {
    const objects = workloads(graph([component('decode', 'decode', { modelRef: { name: 'Qwen/Qwen3-0.6B', revision: 'main' } })]));
    const service = find(objects, 'Service', 'dynamo-model-fb68f5a6');
    expect(service.metadata.name).toBe('dynamo-model-fb68f5a6');
    expect(service.metadata.namespace).toBe('team-a');
    expect(service.metadata.labels).toEqual({ 'nvidia.com/dynamo-base-model-hash': 'fb68f5a6', 'nvidia.com/managed-by': 'dynamo-operator' });
    expect(service.metadata.annotations).toEqual({
      'nvidia.com/dynamo-base-model': 'Qwen/Qwen3-0.6B',
      'nvidia.com/last-applied-hash': lastAppliedHash(service),
      'nvidia.com/last-applied-generation': '1',
    });
    expect(service.spec).toEqual({
      ports: [{ name: 'system', protocol: 'TCP', port: 9090, targetPort: 9090 }],
      selector: { 'nvidia.com/dynamo-base-model-hash': 'fb68f5a6' },
      clusterIP: 'None',
    });
  });

  test('the documented hash examples; nothing without modelRef', () => {
    const objects = workloads(graph([component('decode', 'decode', { modelRef: { name: 'llama-3-70b-instruct-v1' } })]));
    expect(namesOf(objects, 'Service')).toContain('dynamo-model-c21c2fb2');
    expect(namesOf(workloads(graph([component('decode', 'decode')])), 'Service').filter(n => n.startsWith('dynamo-model-'))).toEqual([]);
  });
});

describe('docs/design/render-core.md §7.3 Ingress and VirtualService', () => {
  const dgd = graph([component('Frontend', 'frontend'), component('decode', 'decode')]);

  test('nothing without an ingress class or gateway', () => {
    const objects = workloads(dgd);
    expect(find(objects, 'Ingress')).toBeUndefined();
    expect(find(objects, 'VirtualService')).toBeUndefined();
  });

  test('Ingress: class, host <graph>.local, one prefix path to the frontend Service port 8000, no TLS', () => {
    const ingress = objectOf(workloads(dgd, { ingressControllerClassName: 'nginx' }), 'Ingress');
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.kind).toBe('Ingress');
    expect(ingress.metadata.name).toBe('llm-frontend');
    expect(ingress.metadata.labels).toBeUndefined();
    expect(Object.keys(ingress.metadata.annotations)).toEqual(['nvidia.com/last-applied-hash', 'nvidia.com/last-applied-generation']);
    expect(ingress.metadata.annotations['nvidia.com/last-applied-hash']).toBe(lastAppliedHash(ingress));
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      rules: [{
        host: 'llm.local',
        http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'llm-frontend', port: { number: 8000 } } } }] },
      }],
    });
  });

  test('Ingress with TLS secret and host suffix', () => {
    const ingress = objectOf(workloads(dgd, {
      ingressControllerClassName: 'nginx', ingressControllerTlsSecretName: 'tls-cert', ingressHostSuffix: 'example.com',
    }), 'Ingress');
    expect(ingress.spec.rules[0].host).toBe('llm.example.com');
    expect(ingress.spec.tls).toEqual([{ hosts: ['llm.example.com'], secretName: 'tls-cert' }]);
    expect(Object.keys(ingress.spec)).toEqual(['ingressClassName', 'tls', 'rules']);
  });

  test('only frontends get them', () => {
    const objects = workloads(dgd, { ingressControllerClassName: 'nginx', virtualServiceGateway: 'istio-system/gw' });
    expect(namesOf(objects, 'Ingress')).toEqual(['llm-frontend']);
    expect(namesOf(objects, 'VirtualService')).toEqual(['llm-frontend']);
  });

  test('a gateway alone gives a VirtualService but no Ingress', () => {
    const objects = workloads(graph([component('Frontend', 'frontend')], { name: 'llm.v2', namespace: 'team-a' }), { virtualServiceGateway: 'istio-system/gw' });
    expect(find(objects, 'Ingress')).toBeUndefined();
    const vs = objectOf(objects, 'VirtualService');
    expect(vs.apiVersion).toBe('networking.istio.io/v1beta1');
    expect(vs.kind).toBe('VirtualService');
    expect(vs.metadata.name).toBe('llm-v2-frontend');
    expect(vs.spec).toEqual({
      hosts: ['llm.v2.local'],
      gateways: ['istio-system/gw'],
      http: [{ match: [{ uri: { prefix: '/' } }], route: [{ destination: { host: 'llm-v2-frontend', port: { number: 8000 } } }] }],
    });
    expect(vs.metadata.annotations['nvidia.com/last-applied-hash']).toBe(lastAppliedHash(vs));
  });

  test('a standalone frontend needs the graph label; its value is the host', () => {
    const operator = { ingressControllerClassName: 'nginx', virtualServiceGateway: 'gw' };
    const lone = workloads(standalone({ name: 'fe' }, { name: 'fe', type: 'frontend' }), operator);
    expect(find(lone, 'Ingress')).toBeUndefined();
    expect(find(lone, 'VirtualService')).toBeUndefined();
    const labelled = workloads(standalone({ name: 'fe', labels: { 'nvidia.com/dynamo-graph-deployment-name': 'chat' } }, { name: 'fe', type: 'frontend' }), operator);
    expect(objectOf(labelled, 'Ingress').spec.rules[0].host).toBe('chat.local');
    expect(objectOf(labelled, 'VirtualService').spec.hosts).toEqual(['chat.local']);
  });
});

describe('docs/design/render-core.md §8.1 Kubernetes discovery ServiceAccount, Role and RoleBinding', () => {
  const dgd = graph([component('Frontend', 'frontend')]);
  /** The discovery objects among a graph's workloads, in order. */
  const discovery = (objects: any[]): any[] => objects.filter(o => /-k8s-service-discovery(-role|-binding)?$/.test(o.metadata.name));

  test('three objects in creation order, shared labels, bookkeeping on each', () => {
    const [sa, role, binding] = discovery(workloads(dgd));
    const labels = {
      'app.kubernetes.io/managed-by': 'dynamo-operator',
      'app.kubernetes.io/component': 'rbac',
      'app.kubernetes.io/name': 'llm-k8s-service-discovery',
    };
    expect([sa.kind, role.kind, binding.kind]).toEqual(['ServiceAccount', 'Role', 'RoleBinding']);
    expect(sa.apiVersion).toBe('v1');
    expect(sa.metadata).toEqual({
      name: 'llm-k8s-service-discovery',
      namespace: 'team-a',
      labels,
      annotations: { 'nvidia.com/last-applied-hash': EMPTY_CONTENT_HASH, 'nvidia.com/last-applied-generation': '1' },
    });
    expect(role.apiVersion).toBe('rbac.authorization.k8s.io/v1');
    expect(role.metadata.name).toBe('llm-k8s-service-discovery-role');
    expect(role.metadata.labels).toEqual(labels);
    expect(role.rules).toEqual([
      { verbs: ['get', 'list', 'watch'], apiGroups: [''], resources: ['endpoints', 'pods'] },
      { verbs: ['get', 'list', 'watch'], apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'] },
      { verbs: ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'], apiGroups: ['nvidia.com'], resources: ['dynamoworkermetadatas'] },
    ]);
    expect(role.metadata.annotations['nvidia.com/last-applied-hash']).toBe(lastAppliedHash(role));
    expect(binding.metadata.name).toBe('llm-k8s-service-discovery-binding');
    expect(binding.subjects).toEqual([{ kind: 'ServiceAccount', name: 'llm-k8s-service-discovery', namespace: 'team-a' }]);
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'llm-k8s-service-discovery-role' });
    expect(binding.metadata.annotations['nvidia.com/last-applied-hash']).toBe(lastAppliedHash(binding));
  });

  /** The `app.kubernetes.io/name` label of the discovery objects of a graph named `name` (one value, checked). */
  const labelValueOf = (name: string): string => {
    const objects = workloads(graph([component('f', 'frontend')], { name, namespace: 'ns' }));
    const values = discovery(objects).map(o => o.metadata.labels['app.kubernetes.io/name']);
    expect(values).toHaveLength(3);
    expect(new Set(values).size).toBe(1);
    return values[0];
  };

  test('63-character label value rule: up to 63 kept, longer truncated to 54 + "-" + 8 hex of sha256', () => {
    const fitting = 'a'.repeat(63 - '-k8s-service-discovery'.length);
    expect(`${fitting}-k8s-service-discovery`).toHaveLength(63);
    expect(labelValueOf(fitting)).toBe(`${fitting}-k8s-service-discovery`);
    const long = `${'b'.repeat(64 - '-k8s-service-discovery'.length)}-k8s-service-discovery`;
    const hash = createHash('sha256').update(long).digest('hex').slice(0, 8);
    expect(labelValueOf('b'.repeat(64 - '-k8s-service-discovery'.length))).toBe(`${long.slice(0, 54)}-${hash}`);
  });

  test('all three objects carry the label value derived from the ServiceAccount name', () => {
    const name = 'g'.repeat(50);
    const value = labelValueOf(name);
    expect(value).toHaveLength(63);
    expect(value).not.toBe(`${name}-k8s-service-discovery`);
    const saName = `${name}-k8s-service-discovery`;
    expect(value).toBe(`${saName.slice(0, 54)}-${createHash('sha256').update(saName).digest('hex').slice(0, 8)}`);
  });

  test('none under etcd discovery; the graph annotation overrides the operator setting both ways', () => {
    expect(discovery(workloads(dgd, { discoveryBackend: 'etcd' }))).toEqual([]);
    const annotated = (backend: string): DgdJson => ({ ...dgd, metadata: { ...dgd.metadata, annotations: { 'nvidia.com/dynamo-discovery-backend': backend } } });
    expect(discovery(workloads(annotated('etcd')))).toEqual([]);
    expect(discovery(workloads(annotated('kubernetes'), { discoveryBackend: 'etcd' }))).toHaveLength(3);
  });
});

describe('docs/design/render-core.md §8.2 planner and EPP service accounts (cluster-wide mode)', () => {
  const plain = graph([component('Frontend', 'frontend')]);
  const withEpp = graph([component('Frontend', 'frontend'), component('epp', 'epp', { eppConfig: { configMapRef: { name: 'cm' } } })]);
  const ACCOUNTS = ['planner-serviceaccount', 'planner-serviceaccount-binding', 'epp-serviceaccount', 'epp-serviceaccount-binding'];
  /** The cluster-wide RBAC objects among the workloads, in order. */
  const clusterWide = (objects: any[]): any[] => objects.filter(o => ACCOUNTS.includes(o.metadata.name));

  test('every graph gets planner-serviceaccount bound to the planner ClusterRole, without bookkeeping', () => {
    const [sa, binding, ...rest] = clusterWide(workloads(plain, { plannerClusterRoleName: 'dynamo-planner' }));
    const labels = {
      'app.kubernetes.io/managed-by': 'dynamo-operator',
      'app.kubernetes.io/component': 'rbac',
      'app.kubernetes.io/name': 'planner-serviceaccount',
    };
    expect(sa).toEqual({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'planner-serviceaccount', namespace: 'team-a', labels } });
    expect(binding).toEqual({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'planner-serviceaccount-binding', namespace: 'team-a', labels },
      subjects: [{ kind: 'ServiceAccount', name: 'planner-serviceaccount', namespace: 'team-a' }],
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'dynamo-planner' },
    });
    expect(rest).toEqual([]);
    expect(clusterWide(workloads(plain))).toHaveLength(2);
  });

  test('a graph with an EPP also gets epp-serviceaccount bound to the EPP ClusterRole', () => {
    const objects = clusterWide(workloads(withEpp, { eppClusterRoleName: 'dynamo-epp' }));
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ServiceAccount/planner-serviceaccount', 'RoleBinding/planner-serviceaccount-binding',
      'ServiceAccount/epp-serviceaccount', 'RoleBinding/epp-serviceaccount-binding',
    ]);
    expect(objects[3].roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'dynamo-epp' });
    expect(objects[3].subjects).toEqual([{ kind: 'ServiceAccount', name: 'epp-serviceaccount', namespace: 'team-a' }]);
  });

  test('a namespace-restricted operator creates none', () => {
    expect(clusterWide(workloads(withEpp, { restrictedNamespace: 'team-a' }))).toEqual([]);
  });

  test('a missing ClusterRole name is an error naming the setting', () => {
    expect(renderError(() => workloads(plain, { plannerClusterRoleName: '' })).message)
      .toContain('DynamoGraphDeployment/llm: rbac.plannerClusterRoleName: is empty, but a cluster-wide operator');
    expect(renderError(() => workloads(withEpp, { eppClusterRoleName: '' })).message).toMatch(/DynamoGraphDeployment\/llm: rbac\.eppClusterRoleName/);
    // the EPP role is only needed when the graph has an EPP
    expect(clusterWide(workloads(plain, { eppClusterRoleName: '' }))).toHaveLength(2);
    // nothing is needed when namespace-restricted
    expect(clusterWide(workloads(withEpp, { restrictedNamespace: 'team-a', plannerClusterRoleName: '', eppClusterRoleName: '' }))).toEqual([]);
  });
});

describe('docs/design/render-core.md §11 DynamoGraphDeploymentScalingAdapter', () => {
  const adapters = (objects: any[]): any[] => objects.filter(o => o.kind === 'DynamoGraphDeploymentScalingAdapter');

  test('one per component with scalingAdapter (even {}), replicas seeded from the component, no bookkeeping', () => {
    const dgd = graph([
      component('Frontend', 'frontend'),
      component('VllmDecode', 'decode', { replicas: 3, scalingAdapter: {} }),
      component('prefill', 'prefill', { scalingAdapter: {} }),
    ]);
    expect(adapters(workloads(dgd))).toEqual([
      {
        apiVersion: 'nvidia.com/v1beta1',
        kind: 'DynamoGraphDeploymentScalingAdapter',
        metadata: {
          name: 'llm-vllmdecode',
          namespace: 'team-a',
          labels: { 'nvidia.com/dynamo-graph-deployment-name': 'llm', 'nvidia.com/dynamo-component': 'VllmDecode' },
        },
        spec: { replicas: 3, dgdRef: { name: 'llm', componentName: 'VllmDecode' } },
      },
      {
        apiVersion: 'nvidia.com/v1beta1',
        kind: 'DynamoGraphDeploymentScalingAdapter',
        metadata: {
          name: 'llm-prefill',
          namespace: 'team-a',
          labels: { 'nvidia.com/dynamo-graph-deployment-name': 'llm', 'nvidia.com/dynamo-component': 'prefill' },
        },
        spec: { replicas: 1, dgdRef: { name: 'llm', componentName: 'prefill' } },
      },
    ]);
  });

  test('none without scalingAdapter', () => {
    expect(adapters(workloads(graph([component('decode', 'decode')])))).toEqual([]);
  });
});
