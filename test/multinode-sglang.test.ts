/**
 * SGLang multinode container rewrite (docs/design/render-multinode.md §6.2) and the per-framework dispatch of the
 * multinode hooks (§2.4, §6), on the rendered LeaderWorkerSet templates and Grove cliques.
 */
import { DgdJson, JsonObject, multinodePods, renderUnchecked } from './support/facade';
import { component, graph } from './support/graphs';

const PROBES = { livenessProbe: { tcpSocket: { port: 1 } }, readinessProbe: { tcpSocket: { port: 2 } }, startupProbe: { tcpSocket: { port: 3 } } };
const ENV = { name: 'A', value: '1' };
const GROVE_LEADER = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-worker-ldr-0.$(GROVE_HEADLESS_SERVICE)';

/** A graph whose one worker `name` of `framework` (none: undefined) runs on `nodeCount` nodes with this `main` container. */
function multinode(framework: string | undefined, main: JsonObject, nodeCount = 2, name = 'worker'): DgdJson {
  const dgd = graph([component(name, 'worker', nodeCount > 1 ? { multinode: { nodeCount } } : {}, main)]);
  if (framework === undefined) delete (dgd.spec as JsonObject).backendFramework;
  else (dgd.spec as JsonObject).backendFramework = framework;
  return dgd;
}

/** The leader and worker `main` containers and pod specs on the LWS path (or on Grove). */
function pods(dgd: DgdJson, grove = false, name = 'worker'): { leader: any; worker: any } {
  return multinodePods(renderUnchecked(dgd, { namespace: 'ns', settings: { groveAvailable: grove } }), name);
}
const main = (pod: any): any => pod.containers.find((c: any) => c.name === 'main');

describe('docs/design/render-multinode.md §6.2 SGLang example (Grove, /bin/sh -c, N = 3)', () => {
  const c = { command: ['/bin/sh', '-c'], args: ['python3 -m dynamo.sglang --custom-flag custom-value'], env: [ENV], ...PROBES };
  const { leader, worker } = pods(multinode('sglang', c, 3), true);

  test('leader: flags right after dynamo.sglang, rank 0, probes kept', () => {
    const out = main(leader);
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual([`python3 -m dynamo.sglang --dist-init-addr ${GROVE_LEADER}:29500 --nnodes 3 --node-rank 0 --custom-flag custom-value`]);
    expect(out.livenessProbe).toEqual(PROBES.livenessProbe);
    expect(out.env).toContainEqual(ENV);
  });

  test('worker: Grove rank arithmetic inside the existing shell string (no re-wrapping), probes removed', () => {
    const out = main(worker);
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual([`python3 -m dynamo.sglang --dist-init-addr ${GROVE_LEADER}:29500 --nnodes 3 --node-rank $((GROVE_PCLQ_POD_INDEX + 1)) --custom-flag custom-value`]);
    expect(out).not.toHaveProperty('livenessProbe');
    expect(out).not.toHaveProperty('readinessProbe');
    expect(out).not.toHaveProperty('startupProbe');
    expect(out.env).toContainEqual(ENV);
  });
});

describe('docs/design/render-multinode.md §6.2 SGLang flags per provider', () => {
  test('LWS worker: rank $(LWS_WORKER_INDEX) needs no shell, flags appended to a python command', () => {
    const { leader, worker } = pods(multinode('sglang', { command: ['python3'], args: ['-m', 'dynamo.sglang'] }));
    expect(main(worker).command).toEqual(['python3']);
    expect(main(worker).args).toEqual([
      '-m', 'dynamo.sglang', '--dist-init-addr', '$(LWS_LEADER_ADDRESS):29500', '--nnodes', '2', '--node-rank', '$(LWS_WORKER_INDEX)',
    ]);
    expect(main(leader).args).toEqual(['-m', 'dynamo.sglang', '--dist-init-addr', '$(LWS_LEADER_ADDRESS):29500', '--nnodes', '2', '--node-rank', '0']);
  });

  test('Grove worker with a python command: sh -c "exec …"', () => {
    const { worker } = pods(multinode('sglang', { command: ['python3', '-m', 'dynamo.sglang'], args: ['--tp', '8'] }, 2, 'dec'), true, 'dec');
    expect(main(worker).command).toEqual(['sh', '-c']);
    expect(main(worker).args).toEqual(['exec python3 -m dynamo.sglang --tp 8 --dist-init-addr $(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-dec-ldr-0.$(GROVE_HEADLESS_SERVICE):29500 --nnodes 2 --node-rank $((GROVE_PCLQ_POD_INDEX + 1))']);
  });

  test('single node: unchanged', () => {
    const objects = renderUnchecked(multinode('sglang', { command: ['python3'], args: ['-m', 'dynamo.sglang'], ...PROBES }, 1), { namespace: 'ns' });
    const deployment = objects.find(o => o.kind === 'Deployment');
    const out = main(deployment.spec.template.spec);
    expect(out.command).toEqual(['python3']);
    expect(out.args).toEqual(['-m', 'dynamo.sglang']);
    expect(out.livenessProbe).toEqual(PROBES.livenessProbe);
    expect(out.readinessProbe).toEqual(PROBES.readinessProbe);
    expect(out.startupProbe).toEqual(PROBES.startupProbe);
  });
});

describe('docs/design/render-multinode.md §2.4 / §6 backend dispatch of the multinode hooks', () => {
  test('noop framework: no launch changes, probes kept on workers, no SSH volume', () => {
    const { leader, worker } = pods(multinode(undefined, { command: ['python3', '-m', 'dynamo.mocker'], args: ['--model', 'm'], ...PROBES }));
    for (const pod of [leader, worker]) {
      expect(main(pod).command).toEqual(['python3', '-m', 'dynamo.mocker']);
      expect(main(pod).args).toEqual(['--model', 'm']);
      expect(main(pod).readinessProbe).toEqual(PROBES.readinessProbe);
      expect(main(pod).livenessProbe).toEqual(PROBES.livenessProbe);
      expect((pod.volumes ?? []).map((v: any) => v.name)).not.toContain('mpi-run-ssh-secret');
    }
  });

  test('each framework gets its own rewrite', () => {
    const sg = { command: ['python3', '-m', 'dynamo.sglang'] };
    expect(main(pods(multinode('sglang', sg)).leader).args).toContain('--dist-init-addr');
    const trt = pods(multinode('trtllm', { command: ['python3', '-m', 'dynamo.trtllm'] }));
    expect(main(trt.worker).readinessProbe).toEqual(expect.objectContaining({ tcpSocket: { port: 2222 } }));
    expect(trt.leader.volumes).toContainEqual({ name: 'mpi-run-ssh-secret', secret: { secretName: 'mpi-run-ssh-secret', defaultMode: 420 } });
    const sgWorker = pods(multinode('sglang', sg)).worker;
    expect((sgWorker.volumes ?? []).map((v: any) => v.name)).not.toContain('mpi-run-ssh-secret');
  });
});
