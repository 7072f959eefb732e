/**
 * The objects the graph controller creates beside the PodCliqueSet on the Grove provider (model
 * and component Services, elastic-EP leader Service, Ingress, VirtualService), asserted on the
 * rendered workloads output.
 */
import { DgdJson, lastAppliedHash, OperatorSettings, renderUnchecked, storedGraph, workerHashOf } from './support/facade';
import { component as testComponent, graph, IMAGE } from './support/graphs';

const HASH = 'nvidia.com/last-applied-hash';
const GENERATION = 'nvidia.com/last-applied-generation';
/** The kinds of the stable resources. */
const STABLE_KINDS = ['Service', 'Ingress', 'VirtualService'];

function component(name: string, type: string | undefined, extra: Record<string, unknown> = {}): any {
  return testComponent(name, type, extra);
}

/** A graph `llm` in `team-a` (unless `metadata` says otherwise) with these components and `spec` fields. */
function admitted(components: any[], spec: any = {}, metadata: any = { name: 'llm', namespace: 'team-a' }): DgdJson {
  return graph(components, spec, metadata);
}

/** Every object rendered for the graph on an operator with Grove. */
function workloads(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): any[] {
  return renderUnchecked(dgd, { settings: { groveAvailable: true, ...operator } });
}

/** The stable resources among them, in order. */
function render(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): any[] {
  return workloads(dgd, operator).filter(o => STABLE_KINDS.includes(o.kind));
}

/** The worker hash of the graph (the label of its worker-class cliques). */
function graphWorkerHash(dgd: DgdJson): string {
  return workerHashOf(dgd, { groveAvailable: true });
}

function ids(objects: any[]): string[] {
  return objects.map(o => `${o.kind}/${o.metadata.name}`);
}

function find(objects: any[], kind: string, name: string): any {
  const found = objects.find(o => o.kind === kind && o.metadata.name === name);
  if (!found) throw new Error(`no ${kind}/${name} in ${ids(objects).join(', ')}`);
  return found;
}

describe('docs/design/render-multinode.md §4 Grove stable resources: admitted graph', () => {
  it('is a graph on the Grove provider', () => {
    const dgd = storedGraph(admitted([component('frontend', 'frontend')]), { groveAvailable: true });
    expect(dgd.metadata.annotations?.['nvidia.com/workload-provider']).toBe('grove');
    expect(workloads(admitted([component('frontend', 'frontend')])).map(o => o.kind)).toContain('PodCliqueSet');
  });
});

describe('docs/design/render-multinode.md §4 Grove stable resources: component Service with Kubernetes discovery (every component)', () => {
  const dgd = admitted([
    component('Frontend', 'frontend'),
    component('decode', 'decode', {
      multinode: { nodeCount: 2 },
      podTemplate: {
        metadata: { labels: { 'example.com/tier': 'gpu' }, annotations: { 'example.com/owner': 'ml' } },
        spec: { containers: [{ name: 'main', image: IMAGE }] },
      },
    }),
    component('Planner', 'planner'),
    component('Epp', 'epp', { eppConfig: { config: { plugins: [] } } }),
  ], { labels: { team: 'a' }, annotations: { 'example.com/cost-center': '42' } });
  const objects = render(dgd);

  it('gives every component a Service named <graph>-<component lower-cased>', () => {
    expect(ids(objects)).toEqual(['Service/llm-frontend', 'Service/llm-decode', 'Service/llm-planner', 'Service/llm-epp']);
    for (const o of objects) expect(o.metadata.namespace).toBe('team-a');
  });

  it('labels it with the graph spec.labels, the pod-template labels, the worker hash and the discovery labels', () => {
    expect(find(objects, 'Service', 'llm-decode').metadata.labels).toEqual({
      'team': 'a',
      'example.com/tier': 'gpu',
      'nvidia.com/dynamo-worker-hash': graphWorkerHash(dgd),
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'nvidia.com/dynamo-discovery-enabled': 'true',
    });
    // no workload labels (component, namespace, graph, selector) as on the component path
    expect(find(objects, 'Service', 'llm-frontend').metadata.labels).toEqual({
      'team': 'a',
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'nvidia.com/dynamo-discovery-enabled': 'true',
    });
  });

  it('annotates it with the graph spec.annotations, the pod-template annotations and the bookkeeping annotations', () => {
    const service = find(objects, 'Service', 'llm-decode');
    expect(service.metadata.annotations).toEqual({
      'example.com/cost-center': '42',
      'example.com/owner': 'ml',
      [HASH]: lastAppliedHash(service),
      [GENERATION]: '1',
    });
    // the origin version the webhook stamps on the graph is not propagated to Services
    expect(Object.keys(find(objects, 'Service', 'llm-frontend').metadata.annotations ?? {}))
      .toEqual(['example.com/cost-center', HASH, GENERATION]);
  });

  it('selects by component type, Dynamo namespace and component name as written, without a role key for multinode', () => {
    expect(find(objects, 'Service', 'llm-decode').spec).toEqual({
      ports: [{ name: 'system', protocol: 'TCP', port: 9090, targetPort: 'system' }],
      selector: {
        'nvidia.com/dynamo-component': 'decode',
        'nvidia.com/dynamo-component-type': 'decode',
        'nvidia.com/dynamo-namespace': 'team-a-llm',
      },
    });
    expect((find(objects, 'Service', 'llm-frontend').spec as any).selector['nvidia.com/dynamo-component']).toBe('Frontend');
  });

  it('has one port by component type: frontend http 8000, epp grpc 9002 (http2), others system 9090', () => {
    expect((find(objects, 'Service', 'llm-frontend').spec as any).ports).toEqual([{ name: 'http', protocol: 'TCP', port: 8000, targetPort: 'http' }]);
    expect((find(objects, 'Service', 'llm-epp').spec as any).ports)
      .toEqual([{ name: 'grpc', protocol: 'TCP', appProtocol: 'http2', port: 9002, targetPort: 9002 }]);
    expect((find(objects, 'Service', 'llm-planner').spec as any).ports).toEqual([{ name: 'system', protocol: 'TCP', port: 9090, targetPort: 'system' }]);
  });

  it('carries the worker hash the graph controller computed for the cliques', () => {
    const all = workloads(dgd);
    const cliques = all.find(o => o.kind === 'PodCliqueSet').spec.template.cliques;
    const labels = find(all, 'Service', 'llm-decode').metadata.labels;
    expect(labels?.['nvidia.com/dynamo-worker-hash']).toBe(cliques.find((c: any) => c.name === 'decode-ldr').labels['nvidia.com/dynamo-worker-hash']);
  });

  it('names worker-class Services without the worker hash and uses the global Dynamo namespace when asked', () => {
    const global = admitted([component('worker', 'worker', { globalDynamoNamespace: true })]);
    const service = find(render(global), 'Service', 'llm-worker');
    expect((service.spec as any).selector['nvidia.com/dynamo-namespace']).toBe('dynamo');
  });

  it('normalises dots of the graph name in the Service name and the Dynamo namespace', () => {
    const dotted = admitted([component('decode', 'decode')], {}, { name: 'llm.v2', namespace: 'team-a' });
    const objects2 = render(dotted);
    expect(ids(objects2)).toEqual(['Service/llm-v2-decode']);
    expect((objects2[0].spec as any).selector['nvidia.com/dynamo-namespace']).toBe('team-a-llm-v2');
  });
});

describe('docs/design/render-multinode.md §4 Grove stable resources: component Service of the frontend only when discovery is etcd', () => {
  const components = [component('frontend', 'frontend'), component('decode', 'decode')];

  it('renders only the frontend Service, without discovery labels, when discovery.backend is etcd', () => {
    const objects = render(admitted(components, { labels: { team: 'a' } }), { discoveryBackend: 'etcd' });
    expect(ids(objects)).toEqual(['Service/llm-frontend']);
    expect(objects[0].metadata.labels).toEqual({ team: 'a' });
    expect((objects[0].spec as any).selector).toEqual({
      'nvidia.com/dynamo-component': 'frontend',
      'nvidia.com/dynamo-component-type': 'frontend',
      'nvidia.com/dynamo-namespace': 'team-a-llm',
    });
  });

  it('follows the graph annotation nvidia.com/dynamo-discovery-backend over the operator setting', () => {
    const etcdGraph = admitted(components, {}, { name: 'llm', namespace: 'team-a', annotations: { 'nvidia.com/dynamo-discovery-backend': 'etcd' } });
    const objects = render(etcdGraph);
    expect(ids(objects)).toEqual(['Service/llm-frontend']);
    expect(objects[0].metadata.labels).toBeUndefined();
  });
});

describe('docs/design/render-multinode.md §4 Grove stable resources: model Service once per model', () => {
  const model = 'Qwen/Qwen3-0.6B';
  const dgd = admitted([
    component('frontend', 'frontend'),
    component('prefill', 'prefill', { modelRef: { name: model } }),
    component('decode', 'decode', { modelRef: { name: model } }),
    component('other', 'worker', { modelRef: { name: 'llama-3-70b-instruct-v1' } }),
  ], { annotations: { 'example.com/cost-center': '42' } });
  const objects = render(dgd);

  it('comes first, once per model, then the component Services', () => {
    expect(ids(objects)).toEqual([
      'Service/dynamo-model-fb68f5a6',
      'Service/dynamo-model-c21c2fb2',
      'Service/llm-frontend',
      'Service/llm-prefill',
      'Service/llm-decode',
      'Service/llm-other',
    ]);
  });

  it('is headless, selects by the model hash on system 9090, and carries the graph spec.annotations', () => {
    const service = find(objects, 'Service', 'dynamo-model-fb68f5a6');
    expect(service.metadata.labels).toEqual({ 'nvidia.com/dynamo-base-model-hash': 'fb68f5a6', 'nvidia.com/managed-by': 'dynamo-operator' });
    expect(service.metadata.annotations).toEqual({
      'example.com/cost-center': '42',
      'nvidia.com/dynamo-base-model': model,
      [HASH]: lastAppliedHash(service),
      [GENERATION]: '1',
    });
    expect(service.spec).toEqual({
      ports: [{ name: 'system', protocol: 'TCP', port: 9090, targetPort: 9090 }],
      selector: { 'nvidia.com/dynamo-base-model-hash': 'fb68f5a6' },
      clusterIP: 'None',
    });
  });

  it('is rendered even when discovery is etcd and no component Service is', () => {
    const etcd = render(admitted([component('decode', 'decode', { modelRef: { name: model } })]), { discoveryBackend: 'etcd' });
    expect(ids(etcd)).toEqual(['Service/dynamo-model-fb68f5a6']);
  });
});

describe('docs/design/render-multinode.md §4 Grove stable resources: Ingress with ingressControllerClassName', () => {
  const dgd = admitted([component('Frontend', 'frontend'), component('decode', 'decode')]);

  it('follows the frontend Service: name, class, host <graph>.<suffix>, backend port 8000, bookkeeping only', () => {
    const objects = render(dgd, { ingressControllerClassName: 'nginx', ingressHostSuffix: 'example.com' });
    expect(ids(objects)).toEqual(['Service/llm-frontend', 'Ingress/llm-frontend', 'Service/llm-decode']);
    const ingress = find(objects, 'Ingress', 'llm-frontend');
    expect(ingress.apiVersion).toBe('networking.k8s.io/v1');
    expect(ingress.metadata.labels).toBeUndefined();
    expect(ingress.metadata.annotations).toEqual({ [HASH]: lastAppliedHash(ingress), [GENERATION]: '1' });
    expect(ingress.spec).toEqual({
      ingressClassName: 'nginx',
      rules: [{
        host: 'llm.example.com',
        http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'llm-frontend', port: { number: 8000 } } } }] },
      }],
    });
  });

  it('uses host suffix local by default and adds TLS when a secret is configured', () => {
    const ingress = find(render(dgd, { ingressControllerClassName: 'nginx', ingressControllerTlsSecretName: 'tls-cert' }), 'Ingress', 'llm-frontend');
    expect((ingress.spec as any).rules[0].host).toBe('llm.local');
    expect((ingress.spec as any).tls).toEqual([{ hosts: ['llm.local'], secretName: 'tls-cert' }]);
  });

  it('is not rendered without ingressControllerClassName', () => {
    expect(ids(render(dgd)).filter(id => !id.startsWith('Service/'))).toEqual([]);
  });
});

describe('docs/design/render-multinode.md §4 Grove stable resources: VirtualService with virtualServiceGateway', () => {
  const dgd = admitted([component('frontend', 'frontend')]);

  it('routes <graph>.<suffix> on the gateway to the frontend Service, after the Ingress', () => {
    const objects = render(dgd, { virtualServiceGateway: 'istio-system/public', ingressControllerClassName: 'nginx' });
    expect(ids(objects)).toEqual(['Service/llm-frontend', 'Ingress/llm-frontend', 'VirtualService/llm-frontend']);
    const vs = find(objects, 'VirtualService', 'llm-frontend');
    expect(vs.apiVersion).toBe('networking.istio.io/v1beta1');
    expect(vs.metadata.annotations).toEqual({ [HASH]: lastAppliedHash(vs), [GENERATION]: '1' });
    expect(vs.spec).toEqual({
      hosts: ['llm.local'],
      gateways: ['istio-system/public'],
      http: [{ match: [{ uri: { prefix: '/' } }], route: [{ destination: { host: 'llm-frontend', port: { number: 8000 } } }] }],
    });
  });

  it('comes alone (no Ingress) when only the gateway is configured', () => {
    expect(ids(render(dgd, { virtualServiceGateway: 'istio-system/public' }))).toEqual(['Service/llm-frontend', 'VirtualService/llm-frontend']);
  });
});

describe('docs/design/render-multinode.md §4 Grove stable resources: elastic-EP leader Service (single-pod elastic EP on Ray)', () => {
  const elasticMain = {
    name: 'main',
    image: IMAGE,
    command: ['python3', '-m', 'dynamo.vllm'],
    args: ['--enable-elastic-ep', '--data-parallel-backend', 'ray'],
  };
  const elastic = (extra: Record<string, unknown> = {}) =>
    component('decode', 'decode', { podTemplate: { spec: { containers: [elasticMain] } }, ...extra });

  it('follows the component Service: <graph>-<component>-ray, headless, not-ready addresses published, ray-gcs 6379 and system', () => {
    const dgd = admitted([elastic()], { labels: { team: 'a' } });
    const objects = render(dgd);
    expect(ids(objects)).toEqual(['Service/llm-decode', 'Service/llm-decode-ray']);
    const service = find(objects, 'Service', 'llm-decode-ray');
    // the component's labels without the discovery labels
    expect(service.metadata.labels).toEqual({ 'team': 'a', 'nvidia.com/dynamo-worker-hash': graphWorkerHash(dgd) });
    expect(service.metadata.annotations).toEqual({ [HASH]: lastAppliedHash(service), [GENERATION]: '1' });
    expect(service.spec).toEqual({
      ports: [
        { name: 'ray-gcs', protocol: 'TCP', port: 6379, targetPort: 6379 },
        { name: 'system', protocol: 'TCP', port: 9090, targetPort: 'system' },
      ],
      selector: {
        'nvidia.com/dynamo-component': 'decode',
        'nvidia.com/dynamo-component-type': 'decode',
        'nvidia.com/dynamo-namespace': 'team-a-llm',
      },
      clusterIP: 'None',
      publishNotReadyAddresses: true,
    });
  });

  it('is rendered whatever the discovery backend', () => {
    expect(ids(render(admitted([elastic()]), { discoveryBackend: 'etcd' })))
      .toEqual(['Service/llm-decode-ray']);
  });

  it('is not rendered for several replicas, several nodes, or without elastic EP on Ray', () => {
    const rayServices = (c: any): string[] => ids(render(admitted([c]))).filter(id => id.endsWith('-ray'));
    expect(rayServices(elastic())).toEqual(['Service/llm-decode-ray']);
    expect(rayServices(elastic({ replicas: 2 }))).toEqual([]);
    expect(rayServices(elastic({ multinode: { nodeCount: 2 } }))).toEqual([]);
    expect(rayServices(component('decode', 'decode'))).toEqual([]);
    expect(ids(render(admitted([elastic({ replicas: 2 })])))).toEqual(['Service/llm-decode']);
  });

  it('shortens a name over 63 characters to 58 characters, "-" and 4 hex digits of its FNV-1a hash', () => {
    const rayService = (graphName: string, componentName: string): string =>
      render(admitted([{ ...elastic(), name: componentName }], {}, { name: graphName, namespace: 'team-a' })).find(o => o.spec?.ports?.[0]?.name === 'ray-gcs')?.metadata.name;
    expect(rayService('llm', 'decode')).toBe('llm-decode-ray');
    expect(rayService('My.Graph', 'decode')).toBe('my-graph-decode-ray');
    const long = rayService('a'.repeat(40), 'b'.repeat(20));
    expect(long).toHaveLength(63);
    expect(long).toMatch(/^a{40}-b{17}-[0-9a-f]{4}$/);
  });
});

describe('docs/design/render-multinode.md §4 Grove stable resources: object order', () => {
  it('is model Services, then per component: Service, elastic-EP Service, Ingress, VirtualService', () => {
    const dgd = admitted([
      component('decode', 'decode', { modelRef: { name: 'm' } }),
      component('frontend', 'frontend'),
      component('prefill', 'prefill', { modelRef: { name: 'm' } }),
    ]);
    expect(ids(render(dgd, { ingressControllerClassName: 'nginx', virtualServiceGateway: 'gw' }))).toEqual([
      'Service/dynamo-model-62c66a7a',
      'Service/llm-decode',
      'Service/llm-frontend',
      'Ingress/llm-frontend',
      'VirtualService/llm-frontend',
      'Service/llm-prefill',
    ]);
  });

  it('names per-component resources <graph>-<component lower-cased>', () => {
    expect(ids(render(admitted([component('VllmDecodeWorker', 'decode')])))).toEqual(['Service/llm-vllmdecodeworker']);
  });
});
