import { lastAppliedHash, OperatorSettings, render as renderChecked, RenderError } from './support/facade';
import { IMAGE as GRAPH_IMAGE, multinodeGraph } from './support/graphs';

const IMAGE = 'registry.example/dynamo-worker:1.4.0';

/** The standalone DCD of the `dcd/lws` golden (docs/design/render-multinode.md §9.2). */
function goldenDcd(extra: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'lws-manifest', namespace: 'ns' },
    spec: {
      backendFramework: 'vllm',
      name: 'decode',
      type: 'decode',
      replicas: 2,
      multinode: { nodeCount: 2 },
      podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, args: ['--model', 'test/model'] }] } },
      ...extra,
    },
  };
}

function render(doc: any, operator: Partial<OperatorSettings> = {}): any[] {
  return renderChecked(doc, { settings: operator });
}

function only(objects: any[], kind: string): any {
  const found = objects.filter(o => o.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

const leader = (lws: any) => lws.spec.leaderWorkerTemplate.leaderTemplate;
const worker = (lws: any) => lws.spec.leaderWorkerTemplate.workerTemplate;
const mainOf = (template: any) => template.spec.containers.find((c: any) => c.name === 'main');
const envNames = (container: any) => container.env.map((e: any) => e.name);
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];
const probesOf = (container: any) => PROBES.filter(p => container[p] !== undefined);

describe('docs/design/render-multinode.md §3.2 LeaderWorkerSet object', () => {
  const objects = render(goldenDcd());
  const lws = only(objects, 'LeaderWorkerSet');

  test('a multinode DCD renders a LeaderWorkerSet <dcd>-0 instead of a Deployment', () => {
    expect(lws.apiVersion).toBe('leaderworkerset.x-k8s.io/v1');
    expect(lws.metadata.name).toBe('lws-manifest-0');
    expect(lws.metadata.namespace).toBe('ns');
    expect(objects.filter(o => o.kind === 'Deployment')).toEqual([]);
  });

  test('replicas from the DCD, group size nodeCount, startup policy LeaderCreated', () => {
    expect(lws.spec.replicas).toBe(2);
    expect(lws.spec.leaderWorkerTemplate.size).toBe(2);
    expect(lws.spec.startupPolicy).toBe('LeaderCreated');
  });

  test('replicas default to 1', () => {
    const dcd = goldenDcd();
    delete dcd.spec.replicas;
    expect(only(render(dcd), 'LeaderWorkerSet').spec.replicas).toBe(1);
  });

  test('the LeaderWorkerSet webhook defaults are part of the stored object', () => {
    expect(lws.spec.leaderWorkerTemplate.restartPolicy).toBe('RecreateGroupOnPodRestart');
    expect(lws.spec.rolloutStrategy).toEqual({ type: 'RollingUpdate', rollingUpdateConfiguration: { maxUnavailable: 1, maxSurge: 0, partition: 0 } });
    expect(lws.spec.networkConfig).toEqual({ subdomainPolicy: 'Shared' });
  });

  test('workload labels of the DCD (L0) and create bookkeeping hashed over the typed spec the operator sends', () => {
    expect(lws.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-namespace': 'ns-lws-manifest',
      'nvidia.com/dynamo-sub-component-type': 'decode',
    });
    // The operator's value: dynamo-oracle (operator 1.5.0, --lws, default platform settings) on this
    // DCD. It hashes the typed LeaderWorkerSetSpec before the LWS webhook, whose zero-valued
    // `rolloutStrategy` struct counts as {"type":""}.
    expect(lws.metadata.annotations['nvidia.com/last-applied-hash']).toBe('bd85024e37a9d5166d9ee050f9743e5ff6a2b2685768333d3caded26a77a4a28');
    const untyped = JSON.parse(JSON.stringify(lws));
    delete untyped.spec.rolloutStrategy;
    delete untyped.spec.networkConfig;
    delete untyped.spec.leaderWorkerTemplate.restartPolicy;
    expect(lastAppliedHash(untyped, { untyped: true })).not.toBe(lws.metadata.annotations['nvidia.com/last-applied-hash']);
    expect(lws.metadata.annotations['nvidia.com/last-applied-generation']).toBe('1');
  });

  test('a pod without main container args is refused (LeaderWorkerSet pods need command and args)', () => {
    const dcd = goldenDcd();
    delete dcd.spec.podTemplate.spec.containers[0].args;
    expect(() => render(dcd)).toThrow(RenderError);
    expect(() => render(dcd)).toThrow('DynamoComponentDeployment/lws-manifest: spec.podTemplate.spec.containers[main].args: '
      + 'the leader pod of a LeaderWorkerSet needs main container args, got none');
  });
});

describe('docs/design/render-multinode.md §3.4 LWS pod templates (role label, selector label removed)', () => {
  const lws = only(render(goldenDcd()), 'LeaderWorkerSet');

  test('leader and worker templates carry role leader / worker and no nvidia.com/selector', () => {
    expect(leader(lws).metadata.labels.role).toBe('leader');
    expect(worker(lws).metadata.labels.role).toBe('worker');
    for (const template of [leader(lws), worker(lws)]) {
      expect(template.metadata.labels['nvidia.com/selector']).toBeUndefined();
      expect(template.metadata.labels['nvidia.com/dynamo-component-type']).toBe('decode');
      expect(template.metadata.labels['nvidia.com/metrics-enabled']).toBe('true');
    }
  });

  test('golden dcd/lws: no GPUs and Ray by default → args unchanged, leader keeps probes, worker has none', () => {
    expect(mainOf(leader(lws)).args).toEqual(['--model', 'test/model']);
    expect(mainOf(worker(lws)).args).toEqual(['--model', 'test/model']);
    expect(mainOf(leader(lws)).command).toEqual(['/bin/sh', '-c']);
    expect(probesOf(mainOf(leader(lws)))).toEqual(PROBES);
    expect(probesOf(mainOf(worker(lws)))).toEqual([]);
    expect(envNames(mainOf(leader(lws)))).not.toContain('VLLM_NIXL_SIDE_CHANNEL_HOST');
    expect(worker(lws).spec.initContainers).toBeUndefined();
  });

  test('the parent of a standalone DCD is the DCD: service account lws-manifest-k8s-service-discovery', () => {
    expect(leader(lws).spec.serviceAccountName).toBe('lws-manifest-k8s-service-discovery');
    expect(worker(lws).spec.serviceAccountName).toBe('lws-manifest-k8s-service-discovery');
  });
});

describe('docs/design/render-multinode.md §3.5 component Service of a multinode DCD', () => {
  test('the selector adds role: leader', () => {
    const service = only(render(goldenDcd()), 'Service');
    expect(service.spec.selector).toEqual({
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-component-type': 'decode',
      'nvidia.com/dynamo-namespace': 'ns-lws-manifest',
      'role': 'leader',
    });
  });

  test('a single-node DCD Service selects no role', () => {
    const dcd = goldenDcd();
    delete dcd.spec.multinode;
    expect(only(render(dcd), 'Service').spec.selector.role).toBeUndefined();
  });
});

describe('docs/design/render-multinode.md §3.1 wait-leader ConfigMap of a graph (Appendix B)', () => {
  const objects = render(multinodeGraph('vllm'));
  const configMap = objects.find(o => o.kind === 'ConfigMap' && o.metadata.name === 'llm-wait-leader-script');

  test('<dgd>-wait-leader-script, labelled with the graph, data key wait-for-leader.py', () => {
    expect(configMap.metadata.namespace).toBe('prod');
    expect(configMap.metadata.labels).toEqual({ 'nvidia.com/dynamo-graph-deployment-name': 'llm' });
    expect(Object.keys(configMap.data)).toEqual(['wait-for-leader.py']);
    expect(configMap.metadata.annotations['nvidia.com/last-applied-hash']).toBe(lastAppliedHash(configMap));
  });

  test('created with the shared resources, before the first DCD', () => {
    const at = objects.indexOf(configMap);
    expect(at).toBeLessThan(objects.findIndex(o => o.kind === 'DynamoComponentDeployment'));
    expect(at).toBeGreaterThan(objects.findIndex(o => o.kind === 'ServiceAccount' && o.metadata.name === 'llm-k8s-service-discovery'));
  });

  test('the script reads LEADER_HOST/LEADER_PORT, asks the API with the service-account token, 2 s TCP timeout', () => {
    const script = configMap.data['wait-for-leader.py'];
    expect(script).toMatch(/LEADER_HOST/);
    expect(script).toMatch(/LEADER_PORT/);
    expect(script).toMatch(/serviceaccount/);
    expect(script).toMatch(/CONNECT_TIMEOUT_SECONDS = 2\n/);
    expect(script).toMatch(/POLL_SECONDS = 5\n/);
    expect(script).toMatch(/REPORT_EVERY_SECONDS = 30\n/);
  });

  test('a graph without multinode components gets none; a standalone DCD never does', () => {
    const single: any = multinodeGraph('vllm');
    delete single.spec.components[1].multinode;
    expect(render(single).filter(o => o.kind === 'ConfigMap')).toEqual([]);
    expect(render(goldenDcd()).filter(o => o.kind === 'ConfigMap')).toEqual([]);
  });
});

describe('docs/design/render-multinode.md §6.1.4 vLLM mp (graph created by a 1.x operator)', () => {
  const lws = only(render(multinodeGraph('vllm')), 'LeaderWorkerSet');
  const mp = ['--distributed-executor-backend', 'mp', '--nnodes', '2', '--master-addr', '$(LWS_LEADER_ADDRESS)', '--master-port', '29500'];

  test('the worker DCD name with -0; labels include the worker hash', () => {
    expect(lws.metadata.name).toMatch(/^llm-decode-[0-9a-f]{8}-0$/);
    expect(lws.metadata.labels['nvidia.com/dynamo-worker-hash']).toBe(lws.metadata.name.slice('llm-decode-'.length, -2));
  });

  test('leader: rank 0; worker: rank $(LWS_WORKER_INDEX) and --headless (no shell)', () => {
    expect(mainOf(leader(lws)).command).toEqual(['python3', '-m', 'dynamo.vllm']);
    expect(mainOf(leader(lws)).args).toEqual(['--model', 'm', '--tensor-parallel-size', '16', ...mp, '--node-rank', '0']);
    expect(mainOf(worker(lws)).args).toEqual(['--model', 'm', '--tensor-parallel-size', '16', ...mp, '--node-rank', '$(LWS_WORKER_INDEX)', '--headless']);
  });

  test('VLLM_NIXL_SIDE_CHANNEL_HOST is appended after the sorted env on both roles', () => {
    for (const template of [leader(lws), worker(lws)]) {
      const env = mainOf(template).env;
      expect(env[env.length - 1]).toEqual({ name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } });
    }
  });

  test('the worker waits for its leader: init container and the graph\'s script ConfigMap volume', () => {
    expect(worker(lws).spec.initContainers).toEqual([{
      name: 'wait-for-leader-mp',
      // the main container's image
      image: GRAPH_IMAGE,
      command: ['sh', '-c', 'export LEADER_HOST="${LWS_LEADER_ADDRESS}" LEADER_PORT="29500" && exec python3 /scripts/wait-for-leader.py'],
      resources: {},
      volumeMounts: [{ name: 'wait-leader-script', readOnly: true, mountPath: '/scripts' }],
    }]);
    expect(worker(lws).spec.volumes).toContainEqual({ name: 'wait-leader-script', configMap: { name: 'llm-wait-leader-script' } });
    expect(leader(lws).spec.initContainers).toBeUndefined();
    expect(probesOf(mainOf(worker(lws)))).toEqual([]);
    expect(probesOf(mainOf(leader(lws)))).toEqual(PROBES);
  });

  test('docs/design/render-multinode.md §6.1.1 order: the multinode env first, then VLLM_CACHE_ROOT of the compilation cache', () => {
    const cached = only(render(multinodeGraph('vllm', { compilationCache: { pvcName: 'cc' } })), 'LeaderWorkerSet');
    const names = envNames(mainOf(leader(cached)));
    expect(names.slice(-2)).toEqual(['VLLM_NIXL_SIDE_CHANNEL_HOST', 'VLLM_CACHE_ROOT']);
  });

  test('docs/design/render-multinode.md §6.1.1 step 3: multinode roles never get the single-pod elastic-EP Ray head', () => {
    const args = ['--model', 'm', '--enable-elastic-ep', '--data-parallel-backend', 'ray'];
    const elastic = only(render(multinodeGraph('vllm', {}, { args })), 'LeaderWorkerSet');
    expect(envNames(mainOf(leader(elastic)))).not.toContain('POD_IP');
    expect(mainOf(leader(elastic)).args[0]).toMatch(/^ray start --head --port=6379 --block & /);
    expect(mainOf(worker(elastic)).args[0]).toMatch(/ray start --address=\$\(LWS_LEADER_ADDRESS\):6379 --block$/);
  });
});

describe('docs/design/render-multinode.md §6.1.5 vLLM Ray (executor backend annotation)', () => {
  const doc: any = multinodeGraph('vllm', { podTemplate: undefined });
  doc.spec.components[1].podTemplate = (multinodeGraph('vllm') as any).spec.components[1].podTemplate;
  doc.spec.components[1].podTemplate.metadata = { annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'ray' } };
  const lws = only(render(doc), 'LeaderWorkerSet');

  test('the leader starts the Ray head and the engine; the worker joins the head', () => {
    expect(mainOf(leader(lws)).command).toEqual(['/bin/sh', '-c']);
    expect(mainOf(leader(lws)).args).toEqual(['ray start --head --port=6379 && python3 -m dynamo.vllm --model m --tensor-parallel-size 16 --distributed-executor-backend ray']);
    expect(mainOf(worker(lws)).args).toEqual(['ray start --address=$(LWS_LEADER_ADDRESS):6379 --block']);
  });

  test('no mp env and no wait-for-leader init container', () => {
    expect(envNames(mainOf(leader(lws)))).not.toContain('VLLM_NIXL_SIDE_CHANNEL_HOST');
    expect(worker(lws).spec.initContainers).toBeUndefined();
  });
});

describe('docs/design/render-multinode.md §6.2 SGLang across nodes', () => {
  const lws = only(render(multinodeGraph('sglang')), 'LeaderWorkerSet');
  const dist = ['--dist-init-addr', '$(LWS_LEADER_ADDRESS):29500', '--nnodes', '2'];

  test('--dist-init-addr, --nnodes and the node rank (no shell on LWS)', () => {
    expect(mainOf(leader(lws)).args).toEqual(['--model', 'm', '--tensor-parallel-size', '16', ...dist, '--node-rank', '0']);
    expect(mainOf(worker(lws)).args).toEqual(['--model', 'm', '--tensor-parallel-size', '16', ...dist, '--node-rank', '$(LWS_WORKER_INDEX)']);
    expect(mainOf(worker(lws)).command).toEqual(['python3', '-m', 'dynamo.sglang']);
  });

  test('worker probes removed; no init container, no extra volume', () => {
    expect(probesOf(mainOf(worker(lws)))).toEqual([]);
    expect(probesOf(mainOf(leader(lws)))).toEqual(PROBES);
    expect(worker(lws).spec.initContainers).toBeUndefined();
    expect(worker(lws).spec.volumes.map((v: any) => v.name)).toEqual(['shared-memory']);
  });
});

describe('docs/design/render-multinode.md §6.3 TensorRT-LLM over MPI/SSH', () => {
  const lws = only(render(multinodeGraph('trtllm')), 'LeaderWorkerSet');

  test('both roles mount the MPI SSH secret (operator setting mpi.sshSecretName) before shared memory', () => {
    for (const template of [leader(lws), worker(lws)]) {
      expect(template.spec.volumes).toEqual([
        { name: 'mpi-run-ssh-secret', secret: { secretName: 'mpi-run-ssh-secret', defaultMode: 420 } },
        { name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } },
      ]);
      expect(mainOf(template).volumeMounts).toEqual([
        { name: 'mpi-run-ssh-secret', readOnly: true, mountPath: '/ssh-pk' },
        { name: 'shared-memory', mountPath: '/dev/shm' },
      ]);
      const env = mainOf(template).env;
      expect(env[env.length - 1]).toEqual({ name: 'OMPI_MCA_orte_keep_fqdn_hostnames', value: '1' });
    }
  });

  test('the leader waits for the workers\' DNS names, then mpirun over N×G slots', () => {
    const script: string = mainOf(leader(lws)).args[0];
    expect(mainOf(leader(lws)).command).toEqual(['/bin/sh', '-c']);
    expect(script).toContain('for worker in $(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-1\\./\'); do echo "Waiting for DNS: $worker"');
    expect(script).toContain('--oversubscribe -n 16 -H $(LWS_LEADER_ADDRESS),$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-1\\./\')');
    expect(script).toMatch(/bash -c 'trtllm-llmapi-launch python3 -m dynamo.trtllm --model m --tensor-parallel-size 16'$/);
  });

  test('the worker runs sshd on port 2222 with a TCP readiness probe only', () => {
    const main = mainOf(worker(lws));
    expect(main.args[0]).toMatch(/&& \/usr\/sbin\/sshd -D -f \$HOME\/\.ssh\/sshd_config$/);
    expect(probesOf(main)).toEqual(['readinessProbe']);
    expect(main.readinessProbe).toEqual({
      tcpSocket: { port: 2222 },
      initialDelaySeconds: 20,
      timeoutSeconds: 5,
      periodSeconds: 20,
      failureThreshold: 10,
    });
  });

  test('an empty mpi.sshSecretName is refused rather than rendering a nameless volume', () => {
    expect(() => render(multinodeGraph('trtllm'), { mpiSshSecretName: '' }))
      .toThrow(/spec\.multinode: TensorRT-LLM across nodes needs the MPI SSH secret/);
  });
});

describe('docs/design/render-multinode.md §1.2 provider choice for multinode components', () => {
  test('a graph with a multinode component and no LeaderWorkerSet is refused (no multinode orchestrator)', () => {
    expect(() => render(multinodeGraph('vllm'), { lwsAvailable: false }))
      .toThrow('DynamoGraphDeployment/llm: spec.components[1].multinode: no multinode orchestrator available');
  });

  test('a standalone multinode DCD without LeaderWorkerSet renders the component controller\'s fallback, a Deployment', () => {
    expect(render(goldenDcd(), { lwsAvailable: false }).map(o => `${o.kind}/${o.metadata.name}`))
      .toEqual(['Deployment/lws-manifest', 'Service/lws-manifest']);
  });

  test('the workload renderer chooses the LeaderWorkerSet only when it is available', () => {
    expect(render(goldenDcd(), { lwsAvailable: false }).map((o: any) => o.kind)).toEqual(['Deployment', 'Service']);
    expect(render(goldenDcd()).map((o: any) => o.kind)).toEqual(['LeaderWorkerSet', 'Service']);
  });

  test('with Grove available the graph renders one PodCliqueSet and no LeaderWorkerSet', () => {
    const kinds = render(multinodeGraph('vllm'), { groveAvailable: true }).map(o => o.kind);
    expect(kinds.filter(k => k === 'PodCliqueSet')).toHaveLength(1);
    expect(kinds).not.toContain('LeaderWorkerSet');
    expect(kinds).not.toContain('DynamoComponentDeployment');
  });
});
