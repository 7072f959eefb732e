/**
 * Which objects a graph or a standalone DCD renders to, and in which order (the pod template's
 * content is the pod-template tests' concern).
 */
import { podTemplateOf, RenderError, renderUnchecked } from './support/facade';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function component(name: string, type: string, extra: Record<string, unknown> = {}): any {
  return { name, type, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } }, ...extra };
}

function graph(components: any[], metadata: any = { name: 'llm', namespace: 'team-a' }): any {
  return { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata, spec: { backendFramework: 'vllm', components } };
}

function workloads(doc: any, operator: Record<string, unknown> = {}, namespace?: string): any[] {
  return renderUnchecked(doc, { settings: operator, namespace });
}

/** `Kind/name` with worker hashes replaced by `<hash>`. */
function refs(objects: any[]): string[] {
  return objects.map(o => `${o.kind}/${o.metadata.name}`.replace(/-[0-9a-f]{8}$/, '-<hash>').replace(/dynamo-model-<hash>$/, 'dynamo-model'));
}

const FULL_GRAPH = graph([
  component('Frontend', 'frontend'),
  component('decode', 'decode', { replicas: 2, modelRef: { name: 'Qwen/Qwen3-0.6B' }, scalingAdapter: {} }),
  component('prefill', 'prefill', { modelRef: { name: 'Qwen/Qwen3-0.6B' } }),
  component('epp', 'epp', { eppConfig: { config: { plugins: [{ type: 'single-profile-handler' }] } } }),
  component('planner', 'planner', { scalingAdapter: {} }),
]);

describe('docs/design/render-core.md §4.1 reconcile order of a graph on the component path', () => {
  test('shared resources, then per component the DCD and its workloads, then scaling adapters', () => {
    const out = workloads(FULL_GRAPH, { ingressControllerClassName: 'nginx', virtualServiceGateway: 'gw', serviceMeshProvider: 'istio' });
    expect(refs(out)).toEqual([
      'ServiceAccount/planner-serviceaccount',
      'RoleBinding/planner-serviceaccount-binding',
      'ServiceAccount/epp-serviceaccount',
      'RoleBinding/epp-serviceaccount-binding',
      'ServiceAccount/llm-k8s-service-discovery',
      'Role/llm-k8s-service-discovery-role',
      'RoleBinding/llm-k8s-service-discovery-binding',
      'ConfigMap/llm-epp-config',
      'InferencePool/llm-pool',
      'DestinationRule/llm-epp',
      'DynamoComponentDeployment/llm-frontend',
      'Deployment/llm-frontend',
      'Service/llm-frontend',
      'Ingress/llm-frontend',
      'VirtualService/llm-frontend',
      'DynamoComponentDeployment/llm-decode-<hash>',
      'Deployment/llm-decode-<hash>',
      'Service/llm-decode-<hash>',
      'Service/dynamo-model',
      'DynamoComponentDeployment/llm-prefill-<hash>',
      'Deployment/llm-prefill-<hash>',
      'Service/llm-prefill-<hash>',
      'DynamoComponentDeployment/llm-epp',
      'Deployment/llm-epp',
      'Service/llm-epp',
      'DynamoComponentDeployment/llm-planner',
      'Deployment/llm-planner',
      'Service/llm-planner',
      'DynamoGraphDeploymentScalingAdapter/llm-decode',
      'DynamoGraphDeploymentScalingAdapter/llm-planner',
    ]);
  });

  test('every object carries the graph namespace (the default namespace when the graph names none)', () => {
    expect(workloads(FULL_GRAPH).every(o => o.metadata.namespace === 'team-a')).toBe(true);
    const unnamespaced = graph([component('Frontend', 'frontend')], { name: 'llm' });
    // planner account and binding, discovery account, role and binding, DCD, Deployment, Service
    expect(workloads(unnamespaced).map(o => o.metadata.namespace)).toEqual(Array(8).fill('default'));
    expect(workloads(unnamespaced, {}, 'other').every(o => o.metadata.namespace === 'other')).toBe(true);
  });

  test('the Deployment wraps the pod template and each DCD is the one the graph output renders', () => {
    const out = workloads(FULL_GRAPH);
    const components = renderUnchecked(FULL_GRAPH, { output: 'components' });
    expect(out.filter(o => o.kind === 'DynamoComponentDeployment')).toEqual(components);
    const deployment = out.find(o => o.kind === 'Deployment' && o.metadata.name === 'llm-frontend');
    // the pod template the frontend DCD renders to on its own, owned by the graph
    expect(deployment.spec.template).toEqual(podTemplateOf(components.find(d => d.metadata.name === 'llm-frontend'), {}, 'llm'));
    expect(deployment.spec.template.metadata.labels['nvidia.com/selector']).toBe('llm-frontend');
  });

  test('no ingress settings, no mesh: no Ingress, VirtualService or DestinationRule', () => {
    const kinds = workloads(FULL_GRAPH).map(o => o.kind);
    expect(kinds).not.toContain('Ingress');
    expect(kinds).not.toContain('VirtualService');
    expect(kinds).not.toContain('DestinationRule');
  });

  test('a namespace-restricted operator renders no planner/EPP accounts', () => {
    const out = workloads(FULL_GRAPH, { restrictedNamespace: 'team-a' });
    expect(refs(out).slice(0, 3)).toEqual([
      'ServiceAccount/llm-k8s-service-discovery',
      'Role/llm-k8s-service-discovery-role',
      'RoleBinding/llm-k8s-service-discovery-binding',
    ]);
    expect(refs(out)).not.toContain('ServiceAccount/planner-serviceaccount');
  });

  test('etcd discovery: no discovery RBAC, and only the frontend keeps a component Service', () => {
    const out = workloads(FULL_GRAPH, { discoveryBackend: 'etcd', restrictedNamespace: 'team-a' });
    expect(refs(out).filter(r => r.startsWith('ServiceAccount/') || r.startsWith('Role'))).toEqual([]);
    expect(refs(out).filter(r => r.startsWith('Service/'))).toEqual(['Service/llm-frontend', 'Service/dynamo-model']);
  });

  test('a missing planner ClusterRole name fails the graph', () => {
    expect(() => workloads(FULL_GRAPH, { plannerClusterRoleName: '' })).toThrow(RenderError);
  });

  test('a legacy EPP without configuration fails the graph with the operator message', () => {
    const dgd = graph([component('epp', 'epp')]);
    expect(() => workloads(dgd)).toThrow(/EPP configuration is required: either eppConfig\.configMapRef or eppConfig\.config must be specified/);
  });
});

describe('docs/design/render-core.md §5 workloads of a standalone DCD', () => {
  const dcd = {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'deployment-manifest', namespace: 'ns1' },
    spec: { backendFramework: 'vllm', name: 'decode', type: 'decode', replicas: 2, modelRef: { name: 'Qwen/Qwen3-0.6B' } },
  };

  test('Deployment, component Service, model Service; no discovery ServiceAccount is created', () => {
    expect(refs(workloads(dcd))).toEqual([
      'Deployment/deployment-manifest',
      'Service/deployment-manifest',
      'Service/dynamo-model',
    ]);
  });

  test('a frontend DCD of a graph (by label) gets Ingress and VirtualService', () => {
    const frontend = {
      ...dcd,
      metadata: { name: 'chat-frontend', namespace: 'ns1', labels: { 'nvidia.com/dynamo-graph-deployment-name': 'chat' } },
      spec: { name: 'Frontend', type: 'frontend' },
    };
    const out = workloads(frontend, { ingressControllerClassName: 'nginx', virtualServiceGateway: 'gw' });
    expect(refs(out)).toEqual(['Deployment/chat-frontend', 'Service/chat-frontend', 'Ingress/chat-frontend', 'VirtualService/chat-frontend']);
    expect(out[2].spec.rules[0].host).toBe('chat.local');
  });
});
