/**
 * A standalone multinode DCD when LeaderWorkerSet is unavailable (docs/design/render-multinode.md §1.2): the
 * component controller renders a Deployment whose pod is rendered in role `main` for `nodeCount`
 * nodes with LeaderWorkerSet addressing; the component Service still selects `role: leader`.
 */
import { render as renderChecked } from './support/facade';

const IMAGE = 'registry.example/dynamo-worker:1.4.0';
const NO_LWS = { lwsAvailable: false };
const PROBES = {
  livenessProbe: { httpGet: { path: '/live', port: 'system' } },
  readinessProbe: { httpGet: { path: '/health', port: 'system' } },
  startupProbe: { httpGet: { path: '/live', port: 'system' } },
};
const NIXL = { name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } };
const MP = { 'nvidia.com/vllm-distributed-executor-backend': 'mp' };
const RAY = { 'nvidia.com/vllm-distributed-executor-backend': 'ray' };

/** A standalone decode DCD of `framework` on `nodeCount` nodes; `main` adds container fields, `annotations` pod-template annotations. */
function dcd(framework: string, main: Record<string, unknown>, annotations: Record<string, string> = {}, nodeCount = 2): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'decode-nodes', namespace: 'ns' },
    spec: {
      backendFramework: framework,
      name: 'decode',
      type: 'decode',
      replicas: 2,
      ...(nodeCount > 1 ? { multinode: { nodeCount } } : {}),
      podTemplate: {
        ...(Object.keys(annotations).length > 0 ? { metadata: { annotations } } : {}),
        spec: { containers: [{ name: 'main', image: IMAGE, ...main }] },
      },
    },
  };
}

const render = (doc: any, operator = NO_LWS): any[] => renderChecked(doc, { settings: operator });
const deploymentOf = (objects: any[]) => objects.find(o => o.kind === 'Deployment');
const mainOf = (objects: any[]) => deploymentOf(objects).spec.template.spec.containers[0];
const gpus = (n: number) => ({ resources: { limits: { 'nvidia.com/gpu': String(n) } } });

describe('docs/design/render-multinode.md §1.2 the Deployment fallback of a standalone multinode DCD', () => {
  test('a Deployment named after the DCD with its replicas and selector, and the Service selecting role leader', () => {
    const objects = render(dcd('vllm', { command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm'] }));
    expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual(['Deployment/decode-nodes', 'Service/decode-nodes']);
    const deployment = deploymentOf(objects);
    expect(deployment.spec.replicas).toBe(2);
    expect(deployment.spec.selector).toEqual({ matchLabels: { 'nvidia.com/selector': 'decode-nodes' } });
    expect(deployment.spec.template.metadata.labels['nvidia.com/selector']).toBe('decode-nodes');
    expect(deployment.spec.template.metadata.labels).not.toHaveProperty('role');
    expect(objects[1].spec.selector.role).toBe('leader');
  });

  // backend_vllm_test.go TestVLLMBackend_UpdateContainer "multinode main role (non-leader/worker) does not modify args"
  test('vLLM without GPUs: the pod template is that of the single-node Deployment', () => {
    const main = { command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm', '--tensor-parallel-size', '16'] };
    const fallback = deploymentOf(render(dcd('vllm', main))).spec.template;
    const singleNode = deploymentOf(render(dcd('vllm', main, {}, 1))).spec.template;
    expect(fallback).toEqual(singleNode);
  });

  test('vLLM mp, TP 16 over 8 GPUs: mp flags for 2 nodes without a node rank, the NIXL env, probes kept, no wait-for-leader', () => {
    const objects = render(dcd('vllm', { command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm', '--tensor-parallel-size', '16'], ...gpus(8) }, MP));
    const main = mainOf(objects);
    expect(main.command).toEqual(['python3', '-m', 'dynamo.vllm']);
    expect(main.args).toEqual(['--model', 'm', '--tensor-parallel-size', '16',
      '--distributed-executor-backend', 'mp', '--nnodes', '2', '--master-addr', '$(LWS_LEADER_ADDRESS)', '--master-port', '29500']);
    expect(main.env[main.env.length - 1]).toEqual(NIXL);
    for (const probe of Object.keys(PROBES)) expect(main).toHaveProperty(probe);
    const podSpec = deploymentOf(objects).spec.template.spec;
    expect(podSpec).not.toHaveProperty('initContainers');
    expect(podSpec.volumes.map((v: any) => v.name)).toEqual(['shared-memory']);
    expect(objects.map(o => o.kind)).not.toContain('ConfigMap');
  });

  test('vLLM Ray: only the command becomes /bin/sh -c, the args stay', () => {
    const main = mainOf(render(dcd('vllm', { command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm', '--tensor-parallel-size', '16'], ...gpus(8) }, RAY)));
    expect(main.command).toEqual(['/bin/sh', '-c']);
    expect(main.args).toEqual(['--model', 'm', '--tensor-parallel-size', '16']);
    expect(main.env.map((e: any) => e.name)).not.toContain('VLLM_NIXL_SIDE_CHANNEL_HOST');
  });

  test('vLLM data parallel: no flags; a launch inside a shell script gains a space after it', () => {
    const python = mainOf(render(dcd('vllm', { command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm', '--data-parallel-size', '4'], ...gpus(2) }, RAY)));
    expect(python.command).toEqual(['python3', '-m', 'dynamo.vllm']);
    expect(python.args).toEqual(['--model', 'm', '--data-parallel-size', '4']);
    const script = mainOf(render(dcd('vllm', { command: ['sh', '-c'], args: ['python3 -m dynamo.vllm --model m --data-parallel-size 4'], ...gpus(2) }, RAY)));
    expect(script.args).toEqual(['python3 -m dynamo.vllm  --model m --data-parallel-size 4']);
  });

  test('vLLM elastic EP: the single-pod Ray head script (pinned node IP, exec) without the pod-IP env vars', () => {
    const container = { command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm', '--enable-elastic-ep', '--data-parallel-backend', 'ray'], ...gpus(8) };
    const main = mainOf(render(dcd('vllm', container, RAY)));
    expect(main.command).toEqual(['/bin/sh', '-c']);
    expect(main.args).toEqual(['ray start --head --port=6379 --node-ip-address="$POD_IP" --block & '
      + 'i=0; until python3 -c "import socket; s=socket.create_connection((\'127.0.0.1\',6379),timeout=1); s.close()" 2>/dev/null; '
      + 'do i=$((i+1)); [ "$i" -ge 150 ] && { echo "ERROR: Ray head did not start within 300s" >&2; exit 1; }; sleep 2; done'
      + ' && exec python3 -m dynamo.vllm --model m --enable-elastic-ep --data-parallel-backend ray']);
    expect(main.env.map((e: any) => e.name)).not.toContain('POD_IP');
    expect(main.env.map((e: any) => e.name)).not.toContain('VLLM_DP_MASTER_IP');
    // a single-node pod gets both
    const single = mainOf(render(dcd('vllm', container, RAY, 1)));
    expect(single.args).toEqual(main.args);
    expect(single.env.map((e: any) => e.name)).toEqual(expect.arrayContaining(['POD_IP', 'VLLM_DP_MASTER_IP']));
  });

  // backend_sglang_test.go TestSGLangBackend_ProbeRemoval "multinode main role does not remove probes"
  test('SGLang: distributed-init flags with the LeaderWorkerSet worker index as rank, probes kept', () => {
    const main = mainOf(render(dcd('sglang', { command: ['python3', '-m', 'dynamo.sglang'], args: ['--model-path', 'm'] })));
    expect(main.args).toEqual(['--model-path', 'm', '--dist-init-addr', '$(LWS_LEADER_ADDRESS):29500', '--nnodes', '2', '--node-rank', '$(LWS_WORKER_INDEX)']);
    for (const probe of Object.keys(PROBES)) expect(main).toHaveProperty(probe);
  });

  test('TensorRT-LLM: SSH key mount and volume, OMPI env, own command and probes; the GPUs are not counted', () => {
    // claims without the DRA objects: the count would be refused, but main never asks for it
    const container = { command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model', 'm'], resources: { claims: [{ name: 'gpu' }] } };
    const objects = render({
      ...dcd('trtllm', container),
      spec: {
        ...dcd('trtllm', container).spec,
        podTemplate: {
          spec: { containers: [{ name: 'main', image: IMAGE, ...container }], resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: 'gpus' }] },
        },
      },
    });
    const main = mainOf(objects);
    expect(main.command).toEqual(['python3', '-m', 'dynamo.trtllm']);
    expect(main.args).toEqual(['--model', 'm']);
    expect(main.volumeMounts).toEqual([{ name: 'mpi-run-ssh-secret', readOnly: true, mountPath: '/ssh-pk' }, { name: 'shared-memory', mountPath: '/dev/shm' }]);
    expect(main.env[main.env.length - 1]).toEqual({ name: 'OMPI_MCA_orte_keep_fqdn_hostnames', value: '1' });
    for (const probe of Object.keys(PROBES)) expect(main).toHaveProperty(probe);
    expect(deploymentOf(objects).spec.template.spec.volumes).toEqual([
      { name: 'mpi-run-ssh-secret', secret: { secretName: 'mpi-run-ssh-secret', defaultMode: 420 } },
      { name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } },
    ]);
  });

  test('a graph with a multinode component is still refused without LeaderWorkerSet (no multinode orchestrator)', () => {
    const { backendFramework, ...component } = dcd('vllm', { command: ['python3', '-m', 'dynamo.vllm'] }).spec;
    const graph = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'llm', namespace: 'ns' },
      spec: { backendFramework, components: [component] },
    };
    expect(() => render(graph)).toThrow('DynamoGraphDeployment/llm: spec.components[0].multinode: no multinode orchestrator available');
  });
});

describe('role main in the backend rewrites (a standalone DCD on 3 nodes without LeaderWorkerSet)', () => {
  // backend_vllm_test.go TestVLLMBackend_UpdateContainer "multinode main role (non-leader/worker) does not modify args"
  test('vLLM: args of a frontend-like command line are not modified with 0 GPUs', () => {
    const main = mainOf(render(dcd('vllm', { args: ['python3', '-m', 'dynamo.frontend'], ...PROBES }, {}, 3)));
    expect(main.args).toEqual(['python3', '-m', 'dynamo.frontend']);
  });

  // backend_sglang_test.go TestSGLangBackend_ProbeRemoval "multinode main role does not remove probes"
  test('SGLang: probes kept', () => {
    const main = mainOf(render(dcd('sglang', { args: ['python -m dynamo.sglang'], ...PROBES }, {}, 3)));
    expect(main.args).toEqual(['python -m dynamo.sglang --dist-init-addr $(LWS_LEADER_ADDRESS):29500 --nnodes 3 --node-rank $(LWS_WORKER_INDEX)']);
    for (const probe of Object.keys(PROBES)) expect(main).toHaveProperty(probe);
  });

  test('TensorRT-LLM: the GPU count is never asked for', () => {
    // GPUs through a claim whose DRA objects are not given: counting them would fail the render
    const container = { command: ['python3'], args: ['-m', 'dynamo.trtllm'], resources: { claims: [{ name: 'gpu' }] }, ...PROBES };
    const doc = dcd('trtllm', container, {}, 3);
    doc.spec.podTemplate.spec.resourceClaims = [{ name: 'gpu', resourceClaimTemplateName: 'gpus' }];
    const main = mainOf(render(doc));
    expect(main.command).toEqual(['python3']);
    expect(main.args).toEqual(['-m', 'dynamo.trtllm']);
  });
});
