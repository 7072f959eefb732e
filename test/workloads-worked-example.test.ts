/**
 * The digest's worked example (docs/design/render-core.md §15) end to end, plus the graph-level inputs that reach
 * the rendered pods: provider choice (§2), restart (§12.2) and standard env (§6.3).
 */
import { renderUnchecked, RenderWith } from './support/facade';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function workedExample(): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: 'team-a' },
    spec: {
      backendFramework: 'vllm',
      env: [{ name: 'HF_HOME', value: '/models' }],
      annotations: { 'example.com/owner': 'ml' },
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        {
          name: 'decode',
          type: 'decode',
          replicas: 2,
          modelRef: { name: 'Qwen/Qwen3-0.6B' },
          scalingAdapter: {},
          sharedMemorySize: '16Gi',
          podTemplate: {
            spec: {
              containers: [{
                name: 'main',
                image: IMAGE,
                command: ['python3', '-m', 'dynamo.vllm'],
                args: ['--model', 'Qwen/Qwen3-0.6B'],
                resources: { limits: { 'nvidia.com/gpu': '1' } },
              }],
            },
          },
        },
      ],
    },
  };
}

function render(doc: any, options: RenderWith = {}): any[] {
  return renderUnchecked(doc, options);
}

function find(objects: any[], kind: string, name: string | RegExp): any {
  const found = objects.filter(o => o.kind === kind && (typeof name === 'string' ? o.metadata.name === name : name.test(o.metadata.name)));
  expect(found).toHaveLength(1);
  return found[0];
}

describe('docs/design/render-core.md §15 worked example', () => {
  // namespace-restricted, as the example assumes, so no planner RBAC objects
  const objects = render(workedExample(), { settings: { restrictedNamespace: 'dynamo-system' } });
  const decodeDcd = find(objects, 'DynamoComponentDeployment', /^llm-decode-[0-9a-f]{8}$/);
  const hash = decodeDcd.metadata.name.slice('llm-decode-'.length);

  test('object inventory: discovery RBAC, two DCDs with Deployment and Service each, the model Service, one adapter', () => {
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ServiceAccount/llm-k8s-service-discovery',
      'Role/llm-k8s-service-discovery-role',
      'RoleBinding/llm-k8s-service-discovery-binding',
      'DynamoComponentDeployment/llm-frontend',
      'Deployment/llm-frontend',
      'Service/llm-frontend',
      `DynamoComponentDeployment/llm-decode-${hash}`,
      `Deployment/llm-decode-${hash}`,
      `Service/llm-decode-${hash}`,
      'Service/dynamo-model-fb68f5a6',
      'DynamoGraphDeploymentScalingAdapter/llm-decode',
    ]);
  });

  test('decode DCD: labels, spec with graph env and propagated annotations', () => {
    expect(decodeDcd.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-namespace': 'team-a-llm',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-worker-hash': hash,
    });
    expect(decodeDcd.spec.podTemplate.metadata.annotations).toEqual({
      'nvidia.com/dynamo-operator-origin-version': '1.5.0',
      'example.com/owner': 'ml',
    });
    expect(decodeDcd.spec.podTemplate.spec.containers[0].env).toEqual([{ name: 'HF_HOME', value: '/models' }]);
  });

  test('decode Deployment: workload labels and annotations, pod labels, env, volumes', () => {
    const deployment = find(objects, 'Deployment', `llm-decode-${hash}`);
    expect(deployment.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-namespace': 'team-a-llm',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-worker-hash': hash,
      'nvidia.com/dynamo-sub-component-type': 'decode',
      'nvidia.com/dynamo-base-model-hash': 'fb68f5a6',
    });
    expect(Object.keys(deployment.metadata.annotations).sort()).toEqual([
      'example.com/owner', 'nvidia.com/dynamo-base-model', 'nvidia.com/last-applied-generation', 'nvidia.com/last-applied-hash',
    ]);
    const template = deployment.spec.template;
    expect(template.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-component-type': 'decode',
      'nvidia.com/dynamo-namespace': 'team-a-llm',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-worker-hash': hash,
      'nvidia.com/dynamo-sub-component-type': 'decode',
      'nvidia.com/dynamo-base-model-hash': 'fb68f5a6',
      'nvidia.com/metrics-enabled': 'true',
      'nvidia.com/selector': `llm-decode-${hash}`,
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'nvidia.com/dynamo-discovery-enabled': 'true',
    });
    expect(template.metadata.annotations).toEqual({ 'example.com/owner': 'ml', 'nvidia.com/dynamo-base-model': 'Qwen/Qwen3-0.6B' });
    const main = template.spec.containers[0];
    expect(main.env.map((e: any) => e.name)).toEqual([
      'DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_FORWARDPASS_METRIC_PORT', 'DYN_HEALTH_CHECK_ENABLED', 'DYN_NAMESPACE',
      'DYN_NAMESPACE_WORKER_SUFFIX', 'DYN_PARENT_DGD_K8S_NAME', 'DYN_PARENT_DGD_K8S_NAMESPACE', 'DYN_SYSTEM_ENABLED', 'DYN_SYSTEM_PORT',
      'DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS', 'HF_HOME', 'NIXL_TELEMETRY_ENABLE', 'NIXL_TELEMETRY_EXPORTER',
      'NIXL_TELEMETRY_PROMETHEUS_PORT', 'POD_NAME', 'POD_NAMESPACE', 'POD_UID',
    ]);
    expect(main.env.find((e: any) => e.name === 'DYN_NAMESPACE_WORKER_SUFFIX').value).toBe(hash);
    expect(main.resources).toEqual({ limits: { 'nvidia.com/gpu': '1' } });
    expect(template.spec.volumes).toEqual([{ name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '16Gi' } }]);
    expect(template.spec.serviceAccountName).toBe('llm-k8s-service-discovery');
  });

  test('Frontend pod: frontend command, port and probes; component label keeps its case', () => {
    const template = find(objects, 'Deployment', 'llm-frontend').spec.template;
    const main = template.spec.containers[0];
    expect(main.command).toEqual(['python3']);
    expect(main.args).toEqual(['-m', 'dynamo.frontend']);
    expect(main.ports).toEqual([{ name: 'http', containerPort: 8000, protocol: 'TCP' }]);
    expect(main.startupProbe).toBeUndefined();
    expect(main.env.map((e: any) => e.name)).toContain('HF_HOME');
    expect(template.metadata.labels['nvidia.com/dynamo-component']).toBe('Frontend');
    expect(template.metadata.labels['nvidia.com/dynamo-sub-component-type']).toBeUndefined();
  });

  test('Services and the scaling adapter', () => {
    const frontend = find(objects, 'Service', 'llm-frontend');
    expect(frontend.spec.selector).toEqual({
      'nvidia.com/dynamo-component-type': 'frontend', 'nvidia.com/dynamo-namespace': 'team-a-llm', 'nvidia.com/dynamo-component': 'Frontend',
    });
    expect(frontend.spec.ports).toEqual([{ name: 'http', protocol: 'TCP', port: 8000, targetPort: 'http' }]);
    expect(find(objects, 'Service', 'dynamo-model-fb68f5a6').spec.clusterIP).toBe('None');
    const adapter = find(objects, 'DynamoGraphDeploymentScalingAdapter', 'llm-decode');
    expect(adapter.spec).toEqual({ replicas: 2, dgdRef: { name: 'llm', componentName: 'decode' } });
  });

  test('the same input renders byte-identical output', () => {
    const again = render(workedExample(), { settings: { restrictedNamespace: 'dynamo-system' } });
    expect(JSON.stringify(again)).toBe(JSON.stringify(objects));
  });
});

describe('docs/design/render-core.md §2 workload provider on the workloads path', () => {
  test('Grove available: the graph takes the Grove provider (a PodCliqueSet, no DCDs or Deployments)', () => {
    const kinds = render(workedExample(), { settings: { groveAvailable: true } }).map(o => o.kind);
    expect(kinds).toContain('PodCliqueSet');
    expect(kinds).not.toContain('DynamoComponentDeployment');
    expect(kinds).not.toContain('Deployment');
  });

  test('nvidia.com/enable-grove: "false" takes the component path even with Grove available', () => {
    const doc = workedExample();
    doc.metadata.annotations = { 'nvidia.com/enable-grove': 'false' };
    const objects = render(doc, { settings: { groveAvailable: true } });
    expect(objects.filter(o => o.kind === 'Deployment')).toHaveLength(2);
  });

  test('docs/design/render-multinode.md §1.2 a multinode component takes LeaderWorkerSet; without it the graph is refused', () => {
    const doc = workedExample();
    doc.spec.components[1].multinode = { nodeCount: 2 };
    const objects = render(doc);
    expect(objects.filter(o => o.kind === 'LeaderWorkerSet')).toHaveLength(1);
    expect(objects.filter(o => o.kind === 'Deployment')).toHaveLength(1);
    expect(() => render(doc, { settings: { lwsAvailable: false } }))
      .toThrow(/spec\.components\[1\]\.multinode: no multinode orchestrator available/);
  });
});

describe('docs/design/render-core.md §12.2 restart', () => {
  function restartAt(strategy: any): Record<string, string | undefined> {
    const doc = workedExample();
    doc.spec.restart = { id: 'r-1', ...(strategy ? { strategy } : {}) };
    const objects = render(doc, { settings: { restrictedNamespace: 'dynamo-system' } });
    const out: Record<string, string | undefined> = {};
    for (const d of objects.filter(o => o.kind === 'Deployment')) {
      out[d.spec.template.metadata.labels['nvidia.com/dynamo-component']] = d.spec.template.metadata.annotations?.['nvidia.com/restartAt'];
    }
    return out;
  }

  test('Parallel: every pod template gets nvidia.com/restartAt', () => {
    expect(restartAt({ type: 'Parallel' })).toEqual({ Frontend: 'r-1', decode: 'r-1' });
  });

  test('Sequential: the first component (byte-wise order, uppercase first) restarts first', () => {
    expect(restartAt(undefined)).toEqual({ Frontend: 'r-1', decode: undefined });
  });

  test('Sequential with an order: its first component restarts first', () => {
    expect(restartAt({ type: 'Sequential', order: ['decode', 'Frontend'] })).toEqual({ Frontend: undefined, decode: 'r-1' });
  });
});

describe('docs/design/render-core.md §6.3 standard env from the operator configuration', () => {
  test('NATS, etcd, model express and Prometheus addresses reach every main container, sorted in', () => {
    const objects = render(workedExample(), {
      settings: {
        restrictedNamespace: 'dynamo-system',
        natsAddress: 'nats://nats:4222',
        etcdAddress: 'http://etcd:2379',
        modelExpressUrl: 'http://mx:8001',
        prometheusEndpoint: 'http://prom:9090',
      },
    });
    const frontendEnv = find(objects, 'Deployment', 'llm-frontend').spec.template.spec.containers[0].env.map((e: any) => e.name);
    expect(frontendEnv).toEqual([
      'DYNAMO_PORT', 'DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_HTTP_PORT', 'DYN_NAMESPACE', 'DYN_NAMESPACE_PREFIX',
      'DYN_PARENT_DGD_K8S_NAME', 'DYN_PARENT_DGD_K8S_NAMESPACE', 'ETCD_ENDPOINTS', 'HF_HOME', 'MODEL_EXPRESS_URL', 'NATS_SERVER',
      'POD_NAME', 'POD_NAMESPACE', 'POD_UID', 'PROMETHEUS_ENDPOINT',
    ]);
  });

  test('a value set by the graph env wins over the operator configuration', () => {
    const doc = workedExample();
    doc.spec.env.push({ name: 'NATS_SERVER', value: 'nats://mine:4222' });
    const objects = render(doc, { settings: { restrictedNamespace: 'dynamo-system', natsAddress: 'nats://nats:4222' } });
    const env = find(objects, 'Deployment', 'llm-frontend').spec.template.spec.containers[0].env;
    expect(env.filter((e: any) => e.name === 'NATS_SERVER')).toEqual([{ name: 'NATS_SERVER', value: 'nats://mine:4222' }]);
  });
});
