import { createHash } from 'crypto';
import { admitNewGraph } from '../src/admission/stored-object';
import { RenderError } from '../src/engine/errors';
import { lastAppliedHash } from '../src/engine/hash/last-applied-hash';
import { OperatorSettings, resolveOperatorSettings } from '../src/engine/operator-settings';
import { renderGraphComponents } from '../src/engine/render';
import { componentServicePort, renderComponentService } from '../src/engine/workloads/component-service';
import { DcdContext, dcdContext } from '../src/engine/workloads/dcd-context';
import { deploymentStrategy, parseIntOrString, renderDeployment } from '../src/engine/workloads/deployment';
import { discoveryLabelValue, renderDiscoveryRbac } from '../src/engine/workloads/discovery-rbac';
import { renderIngress } from '../src/engine/workloads/ingress';
import { normalizeKubeResourceName } from '../src/engine/workloads/kube-object';
import { modelServiceName, renderModelService } from '../src/engine/workloads/model-service';
import { renderClusterWideRbac } from '../src/engine/workloads/planner-epp-rbac';
import { renderScalingAdapters } from '../src/engine/workloads/scaling-adapter';
import { renderVirtualService } from '../src/engine/workloads/virtual-service';
import { DcdJson, DgdJson } from '../src/model/v1beta1';

const EMPTY_CONTENT_HASH = '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a';
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function component(name: string, type: string | undefined, extra: Record<string, unknown> = {}): any {
  return { name, ...(type ? { type } : {}), podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } }, ...extra };
}

function graph(components: any[], metadata: any = { name: 'llm', namespace: 'team-a' }, spec: any = {}): DgdJson {
  return { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata, spec: { backendFramework: 'vllm', ...spec, components } };
}

function settingsOf(operator: Partial<OperatorSettings> = {}): OperatorSettings {
  return resolveOperatorSettings(operator);
}

/** The DCD contexts of a graph, as the component controller sees its generated DCDs. */
function contexts(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): DcdContext[] {
  const settings = settingsOf(operator);
  return renderGraphComponents(dgd, settings).map(dcd => dcdContext(dcd, settings, dgd.metadata.name));
}

function contextOf(dgd: DgdJson, componentName: string, operator: Partial<OperatorSettings> = {}): DcdContext {
  const ctx = contexts(dgd, operator).find(c => c.componentName === componentName);
  if (!ctx) throw new Error(`no component ${componentName}`);
  return ctx;
}

function standalone(metadata: any, spec: any): DcdJson {
  return { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { namespace: 'team-a', ...metadata }, spec };
}

const POD_TEMPLATE = {
  metadata: { labels: { 'nvidia.com/selector': 'x' } },
  spec: { containers: [{ name: 'main', image: IMAGE }] },
};

describe('render-core §5.12 Deployment object', () => {
  const dgd = graph([
    component('decode', 'decode', {
      replicas: 2,
      modelRef: { name: 'Qwen/Qwen3-0.6B' },
      podTemplate: { metadata: { annotations: { 'example.com/owner': 'ml' } }, spec: { containers: [{ name: 'main', image: IMAGE }] } },
    }),
  ], { name: 'llm.v2', namespace: 'team-a' });
  const ctx = contextOf(dgd, 'decode');
  const deployment: any = renderDeployment(ctx, POD_TEMPLATE);

  test('named after the DCD (dots kept), in the DCD namespace, apps/v1', () => {
    expect(deployment.apiVersion).toBe('apps/v1');
    expect(deployment.kind).toBe('Deployment');
    expect(deployment.metadata.name).toBe(ctx.name);
    expect(deployment.metadata.name).toMatch(/^llm\.v2-decode-[0-9a-f]{8}$/);
    expect(deployment.metadata.namespace).toBe('team-a');
    expect(deployment.metadata.ownerReferences).toBeUndefined();
  });

  test('labels are the workload labels (no selector, component-type or discovery labels)', () => {
    expect(deployment.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-namespace': 'team-a-llm-v2',
      'nvidia.com/dynamo-graph-deployment-name': 'llm.v2',
      'nvidia.com/dynamo-worker-hash': ctx.workerHash,
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
    expect(deployment.spec.selector).toEqual({ matchLabels: { 'nvidia.com/selector': ctx.name } });
    // the Go PodTemplateSpec always carries the container's resources struct
    expect(deployment.spec.template).toEqual({
      metadata: { labels: { 'nvidia.com/selector': 'x' } },
      spec: { containers: [{ name: 'main', image: IMAGE, resources: {} }] },
    });
    expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
  });

  test('replicas are omitted when the DCD has none', () => {
    const dcd = standalone({ name: 'no-replicas' }, { name: 'w', type: 'worker', podTemplate: POD_TEMPLATE });
    const out: any = renderDeployment(dcdContext(dcd, settingsOf()), POD_TEMPLATE);
    expect(out.spec.replicas).toBeUndefined();
    expect(Object.keys(out.spec)).toEqual(['selector', 'template', 'strategy']);
  });

  test('the template is taken as given: a pod template with annotations keeps them', () => {
    const template = { metadata: { labels: { a: 'b' }, annotations: { c: 'd' } }, spec: { containers: [{ name: 'main', image: IMAGE }] } };
    const out: any = renderDeployment(ctx, template);
    expect(out.spec.template.metadata).toEqual({ labels: { a: 'b' }, annotations: { c: 'd' } });
  });
});

describe('render-core §5.12 Deployment strategy annotations', () => {
  test('rolling-update bounds: integers become numbers, percentages stay strings', () => {
    expect(deploymentStrategy({ 'nvidia.com/deployment-rolling-update-max-surge': '1', 'nvidia.com/deployment-rolling-update-max-unavailable': '50%' }, {}))
      .toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '50%' } });
  });

  test('an empty annotation keeps the 25% default', () => {
    expect(deploymentStrategy({ 'nvidia.com/deployment-rolling-update-max-surge': '' }, {}))
      .toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } });
  });

  test('nvidia.com/deployment-strategy: Recreate gives Recreate without rollingUpdate; other values RollingUpdate', () => {
    expect(deploymentStrategy({ 'nvidia.com/deployment-rolling-update-max-surge': '3' }, { 'nvidia.com/deployment-strategy': 'Recreate' }))
      .toEqual({ type: 'Recreate' });
    expect(deploymentStrategy({}, { 'nvidia.com/deployment-strategy': 'recreate' }).type).toBe('RollingUpdate');
    expect(deploymentStrategy({}, { 'nvidia.com/deployment-strategy': 'RollingUpdate' }).type).toBe('RollingUpdate');
  });

  test('int-or-string parsing follows intstr.Parse', () => {
    expect(parseIntOrString('0')).toBe(0);
    expect(parseIntOrString('+7')).toBe(7);
    expect(parseIntOrString('-2')).toBe(-2);
    expect(parseIntOrString('007')).toBe(7);
    expect(parseIntOrString('1.5')).toBe('1.5');
    expect(parseIntOrString(' 1')).toBe(' 1');
    expect(parseIntOrString('4294967297')).toBe(1); // Atoi, then int32 truncation
    expect(parseIntOrString('99999999999999999999')).toBe('99999999999999999999'); // Atoi overflows
  });

  test('the Deployment reads the annotations from the DCD pod template (graph spec.annotations reach it)', () => {
    const dgd = graph([component('w', 'worker')], undefined, {
      annotations: { 'nvidia.com/deployment-rolling-update-max-unavailable': '0', 'nvidia.com/deployment-rolling-update-max-surge': '2' },
    });
    const out: any = renderDeployment(contextOf(dgd, 'w'), POD_TEMPLATE);
    expect(out.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 2 } });
    const recreate = graph([component('w', 'worker', {
      podTemplate: { metadata: { annotations: { 'nvidia.com/deployment-strategy': 'Recreate' } }, spec: { containers: [{ name: 'main', image: IMAGE }] } },
    })]);
    expect((renderDeployment(contextOf(recreate, 'w'), POD_TEMPLATE) as any).spec.strategy).toEqual({ type: 'Recreate' });
  });
});

describe('render-core §7.1 component Service', () => {
  test('frontend: port http 8000 → named target, selector of exactly three keys, discovery labels, bookkeeping', () => {
    const ctx = contextOf(graph([component('Frontend', 'frontend')]), 'Frontend');
    const service: any = renderComponentService(ctx);
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
    expect(componentServicePort('epp')).toEqual({ name: 'grpc', protocol: 'TCP', appProtocol: 'http2', port: 9002, targetPort: 9002 });
    for (const type of ['worker', 'prefill', 'decode', 'planner', '']) {
      expect(componentServicePort(type)).toEqual({ name: 'system', protocol: 'TCP', port: 9090, targetPort: 'system' });
    }
  });

  test('worker Service: name with hash, no worker hash in the selector, workload annotations carried', () => {
    const dgd = graph([component('VllmWorker', 'worker', { modelRef: { name: 'm' } })], undefined, { annotations: { team: 'x' } });
    const ctx = contextOf(dgd, 'VllmWorker');
    const service: any = renderComponentService(ctx);
    expect(service.metadata.name).toBe(ctx.name);
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
    expect(normalizeKubeResourceName('My.Model-V1.5')).toBe('my-model-v1-5');
    const dcd = standalone({ name: 'Serve.Qwen3-0.6B' }, { name: 'f', type: 'frontend' });
    const service: any = renderComponentService(dcdContext(dcd, settingsOf()));
    expect(service.metadata.name).toBe('serve-qwen3-0-6b');
  });

  test('etcd discovery: no Service for non-frontends; the frontend keeps one, without discovery labels', () => {
    const dgd = graph([component('Frontend', 'frontend'), component('decode', 'decode'), component('planner', 'planner')]);
    const all = contexts(dgd, { discoveryBackend: 'etcd' });
    expect(renderComponentService(all[1])).toBeUndefined();
    expect(renderComponentService(all[2])).toBeUndefined();
    const frontend: any = renderComponentService(all[0]);
    expect(frontend.metadata.labels['nvidia.com/dynamo-discovery-backend']).toBeUndefined();
    expect(frontend.metadata.labels['nvidia.com/dynamo-discovery-enabled']).toBeUndefined();
  });

  test('a graph annotation selects the discovery backend per graph', () => {
    const dgd = graph([component('decode', 'decode')], { name: 'llm', namespace: 'team-a', annotations: { 'nvidia.com/dynamo-discovery-backend': 'etcd' } });
    expect(renderComponentService(contextOf(dgd, 'decode'))).toBeUndefined();
    const kube = graph([component('decode', 'decode')], { name: 'llm', namespace: 'team-a', annotations: { 'nvidia.com/dynamo-discovery-backend': 'kubernetes' } });
    expect(renderComponentService(contextOf(kube, 'decode', { discoveryBackend: 'etcd' }))).toBeDefined();
  });
});

describe('render-core §7.2 model headless Service', () => {
  test('dynamo-model-<h8>: headless, selects the model hash, system port 9090 → 9090', () => {
    const ctx = contextOf(graph([component('decode', 'decode', { modelRef: { name: 'Qwen/Qwen3-0.6B', revision: 'main' } })]), 'decode');
    const service: any = renderModelService(ctx);
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
    expect(modelServiceName('llama-3-70b-instruct-v1')).toBe('dynamo-model-c21c2fb2');
    expect(renderModelService(contextOf(graph([component('decode', 'decode')]), 'decode'))).toBeUndefined();
  });
});

describe('render-core §7.3 Ingress and VirtualService', () => {
  const dgd = graph([component('Frontend', 'frontend'), component('decode', 'decode')]);

  test('nothing without an ingress class or gateway', () => {
    const ctx = contextOf(dgd, 'Frontend');
    expect(renderIngress(ctx)).toBeUndefined();
    expect(renderVirtualService(ctx)).toBeUndefined();
  });

  test('Ingress: class, host <graph>.local, one prefix path to the frontend Service port 8000, no TLS', () => {
    const ingress: any = renderIngress(contextOf(dgd, 'Frontend', { ingressControllerClassName: 'nginx' }));
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
    const ingress: any = renderIngress(contextOf(dgd, 'Frontend', {
      ingressControllerClassName: 'nginx', ingressControllerTlsSecretName: 'tls-cert', ingressHostSuffix: 'example.com',
    }));
    expect(ingress.spec.rules[0].host).toBe('llm.example.com');
    expect(ingress.spec.tls).toEqual([{ hosts: ['llm.example.com'], secretName: 'tls-cert' }]);
    expect(Object.keys(ingress.spec)).toEqual(['ingressClassName', 'tls', 'rules']);
  });

  test('only frontends get them', () => {
    const ctx = contextOf(dgd, 'decode', { ingressControllerClassName: 'nginx', virtualServiceGateway: 'istio-system/gw' });
    expect(renderIngress(ctx)).toBeUndefined();
    expect(renderVirtualService(ctx)).toBeUndefined();
  });

  test('a gateway alone gives a VirtualService but no Ingress', () => {
    const ctx = contextOf(graph([component('Frontend', 'frontend')], { name: 'llm.v2', namespace: 'team-a' }), 'Frontend', { virtualServiceGateway: 'istio-system/gw' });
    expect(renderIngress(ctx)).toBeUndefined();
    const vs: any = renderVirtualService(ctx);
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
    const operator = settingsOf({ ingressControllerClassName: 'nginx', virtualServiceGateway: 'gw' });
    const lone = standalone({ name: 'fe' }, { name: 'fe', type: 'frontend' });
    expect(renderIngress(dcdContext(lone, operator))).toBeUndefined();
    expect(renderVirtualService(dcdContext(lone, operator))).toBeUndefined();
    const labelled = standalone({ name: 'fe', labels: { 'nvidia.com/dynamo-graph-deployment-name': 'chat' } }, { name: 'fe', type: 'frontend' });
    expect((renderIngress(dcdContext(labelled, operator)) as any).spec.rules[0].host).toBe('chat.local');
    expect((renderVirtualService(dcdContext(labelled, operator)) as any).spec.hosts).toEqual(['chat.local']);
  });
});

describe('render-core §8.1 Kubernetes discovery ServiceAccount, Role and RoleBinding', () => {
  const dgd = admitNewGraph(graph([component('Frontend', 'frontend')]), settingsOf());

  test('three objects in creation order, shared labels, bookkeeping on each', () => {
    const [sa, role, binding]: any[] = renderDiscoveryRbac(dgd, settingsOf());
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

  test('63-character label value rule: up to 63 kept, longer truncated to 54 + "-" + 8 hex of sha256', () => {
    const fits = 'a'.repeat(63 - '-k8s-service-discovery'.length) + '-k8s-service-discovery';
    expect(fits).toHaveLength(63);
    expect(discoveryLabelValue(fits)).toBe(fits);
    const long = 'b'.repeat(64 - '-k8s-service-discovery'.length) + '-k8s-service-discovery';
    const hash = createHash('sha256').update(long).digest('hex').slice(0, 8);
    expect(discoveryLabelValue(long)).toBe(`${long.slice(0, 54)}-${hash}`);
    expect(discoveryLabelValue(long)).toHaveLength(63);
  });

  test('all three objects carry the label value derived from the ServiceAccount name', () => {
    const name = 'g'.repeat(50);
    const objects: any[] = renderDiscoveryRbac(admitNewGraph(graph([component('f', 'frontend')], { name, namespace: 'ns' }), settingsOf()), settingsOf());
    const value = discoveryLabelValue(`${name}-k8s-service-discovery`);
    expect(value).toHaveLength(63);
    expect(value).not.toBe(`${name}-k8s-service-discovery`);
    expect(objects.map(o => o.metadata.labels['app.kubernetes.io/name'])).toEqual([value, value, value]);
  });

  test('none under etcd discovery; the graph annotation overrides the operator setting both ways', () => {
    expect(renderDiscoveryRbac(dgd, settingsOf({ discoveryBackend: 'etcd' }))).toEqual([]);
    const etcdGraph = { ...dgd, metadata: { ...dgd.metadata, annotations: { 'nvidia.com/dynamo-discovery-backend': 'etcd' } } };
    expect(renderDiscoveryRbac(etcdGraph, settingsOf())).toEqual([]);
    const kubeGraph = { ...dgd, metadata: { ...dgd.metadata, annotations: { 'nvidia.com/dynamo-discovery-backend': 'kubernetes' } } };
    expect(renderDiscoveryRbac(kubeGraph, settingsOf({ discoveryBackend: 'etcd' }))).toHaveLength(3);
  });
});

describe('render-core §8.2 planner and EPP service accounts (cluster-wide mode)', () => {
  const plain = graph([component('Frontend', 'frontend')]);
  const withEpp = graph([component('Frontend', 'frontend'), component('epp', 'epp', { eppConfig: { configMapRef: { name: 'cm' } } })]);

  test('every graph gets planner-serviceaccount bound to the planner ClusterRole, without bookkeeping', () => {
    const [sa, binding]: any[] = renderClusterWideRbac(plain, settingsOf({ plannerClusterRoleName: 'dynamo-planner' }));
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
    expect(renderClusterWideRbac(plain, settingsOf())).toHaveLength(2);
  });

  test('a graph with an EPP also gets epp-serviceaccount bound to the EPP ClusterRole', () => {
    const objects: any[] = renderClusterWideRbac(withEpp, settingsOf({ eppClusterRoleName: 'dynamo-epp' }));
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ServiceAccount/planner-serviceaccount', 'RoleBinding/planner-serviceaccount-binding',
      'ServiceAccount/epp-serviceaccount', 'RoleBinding/epp-serviceaccount-binding',
    ]);
    expect(objects[3].roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'dynamo-epp' });
    expect(objects[3].subjects).toEqual([{ kind: 'ServiceAccount', name: 'epp-serviceaccount', namespace: 'team-a' }]);
  });

  test('a namespace-restricted operator creates none', () => {
    expect(renderClusterWideRbac(withEpp, settingsOf({ restrictedNamespace: 'team-a' }))).toEqual([]);
  });

  test('a missing ClusterRole name is an error naming the setting', () => {
    expect(() => renderClusterWideRbac(plain, settingsOf({ plannerClusterRoleName: '' }))).toThrow(RenderError);
    expect(() => renderClusterWideRbac(plain, settingsOf({ plannerClusterRoleName: '' }))).toThrow('DynamoGraphDeployment/llm: rbac.plannerClusterRoleName: is empty, but a cluster-wide operator');
    expect(() => renderClusterWideRbac(withEpp, settingsOf({ eppClusterRoleName: '' }))).toThrow(/DynamoGraphDeployment\/llm: rbac\.eppClusterRoleName/);
    // the EPP role is only needed when the graph has an EPP
    expect(renderClusterWideRbac(plain, settingsOf({ eppClusterRoleName: '' }))).toHaveLength(2);
    // nothing is needed when namespace-restricted
    expect(renderClusterWideRbac(withEpp, settingsOf({ restrictedNamespace: 'x', plannerClusterRoleName: '', eppClusterRoleName: '' }))).toEqual([]);
  });
});

describe('render-core §11 DynamoGraphDeploymentScalingAdapter', () => {
  test('one per component with scalingAdapter (even {}), replicas seeded from the component, no bookkeeping', () => {
    const dgd = admitNewGraph(graph([
      component('Frontend', 'frontend'),
      component('VllmDecode', 'decode', { replicas: 3, scalingAdapter: {} }),
      component('prefill', 'prefill', { scalingAdapter: {} }),
    ]), settingsOf());
    const adapters: any[] = renderScalingAdapters(dgd);
    expect(adapters).toEqual([
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
    expect(renderScalingAdapters(graph([component('decode', 'decode')]))).toEqual([]);
  });
});
