/**
 * The workloads output end to end with the real pod template (docs/design/render-core.md §16 golden scenarios,
 * the Deployment-level facts).
 */
import { podTemplateOf, render } from './support/facade';

function workloads(doc: any): any[] {
  return render(doc);
}

describe('docs/design/render-core.md §16.1 standalone DCD deployment-manifest', () => {
  const dcd = {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'deployment-manifest', namespace: 'clusterenv-test' },
    spec: {
      backendFramework: 'vllm',
      name: 'decode',
      type: 'decode',
      replicas: 2,
      podTemplate: { spec: { containers: [{ name: 'main', image: 'registry.example/dynamo-worker:test' }] } },
    },
  };
  const out = workloads(dcd);
  const deployment = out.find(o => o.kind === 'Deployment');

  test('Deployment: name, replicas, selector, default strategy, no graph label', () => {
    expect(deployment.metadata.name).toBe('deployment-manifest');
    expect(deployment.metadata.namespace).toBe('clusterenv-test');
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.selector).toEqual({ matchLabels: { 'nvidia.com/selector': 'deployment-manifest' } });
    expect(deployment.spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } });
    expect(deployment.metadata.labels['nvidia.com/dynamo-graph-deployment-name']).toBeUndefined();
  });

  test('the template is the pod template as Go sends it; its pods select on the DCD name', () => {
    // as Go sends it: the container's resources struct is always there
    expect(deployment.spec.template.spec.containers.map((c: any) => [c.name, c.image, c.resources]))
      .toEqual([['main', 'registry.example/dynamo-worker:test', {}]]);
    expect(deployment.spec.template.metadata.labels).toMatchObject({
      'nvidia.com/dynamo-component': 'decode', 'nvidia.com/dynamo-component-type': 'decode', 'nvidia.com/dynamo-namespace': 'clusterenv-test-deployment-manifest',
    });
    expect(deployment.spec.template.metadata.labels['nvidia.com/selector']).toBe('deployment-manifest');
  });

  test('the pods name the discovery ServiceAccount, which nothing creates for a standalone DCD', () => {
    expect(deployment.spec.template.spec.serviceAccountName).toBe('deployment-manifest-k8s-service-discovery');
    expect(out.filter(o => o.kind === 'ServiceAccount')).toEqual([]);
  });
});

describe('docs/design/render-core.md §16.2 graph component-manifests', () => {
  const dgd = {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'component-manifests', namespace: 'clusterenv-test', annotations: { 'nvidia.com/enable-grove': 'false' } },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'frontend', type: 'frontend', replicas: 1, podTemplate: { spec: { containers: [{ name: 'main', image: 'registry.example/dynamo-frontend:1.4.0-test' }] } } },
        { name: 'decode', type: 'decode', replicas: 2, podTemplate: { spec: { containers: [{ name: 'main', image: 'registry.example/dynamo-worker:1.4.0-test' }] } } },
      ],
    },
  };
  const out = workloads(dgd);

  test('each DCD is followed by its Deployment, with the pod template that DCD renders to', () => {
    const dcds = out.filter(o => o.kind === 'DynamoComponentDeployment');
    expect(dcds.map(d => d.metadata.name)).toEqual(['component-manifests-frontend', expect.stringMatching(/^component-manifests-decode-[0-9a-f]{8}$/)]);
    for (const dcd of dcds) {
      const deployment = out[out.indexOf(dcd) + 1];
      expect(deployment.kind).toBe('Deployment');
      expect(deployment.metadata.name).toBe(dcd.metadata.name);
      expect(deployment.spec.replicas).toBe(dcd.spec.replicas);
      // the pod template the same DCD renders to on its own, owned by the graph
      expect(deployment.spec.template).toEqual(podTemplateOf(dcd, {}, 'component-manifests'));
    }
  });

  test('the decode pods use the graph discovery ServiceAccount, which the graph creates', () => {
    const decode = out.find(o => o.kind === 'Deployment' && o.metadata.name.startsWith('component-manifests-decode-'));
    expect(decode.spec.template.spec.serviceAccountName).toBe('component-manifests-k8s-service-discovery');
    expect(out.some(o => o.kind === 'ServiceAccount' && o.metadata.name === 'component-manifests-k8s-service-discovery')).toBe(true);
  });
});
