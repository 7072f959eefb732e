/**
 * SGLang multinode container rewrite (render-multinode §6.2) and the per-framework dispatch of the
 * multinode hooks (§2.4, §6).
 */
import { applyMultinodeContainer, applyMultinodePodSpec } from '../src/engine/backend/multinode';
import { sglangMultinodeContainer, sglangMultinodeFlags } from '../src/engine/backend/multinode/sglang';
import { groveDeployer, LWS_DEPLOYER } from '../src/engine/multinode/deployer';
import { ContainerJson } from '../src/engine/pod/k8s-json';

const PROBES = { livenessProbe: { tcpSocket: { port: 1 } }, readinessProbe: { tcpSocket: { port: 2 } }, startupProbe: { tcpSocket: { port: 3 } } };
const ENV = [{ name: 'A', value: '1' }];
const GROVE_LEADER = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-worker-ldr-0.$(GROVE_HEADLESS_SERVICE)';

describe('render-multinode §6.2 SGLang example (Grove, /bin/sh -c, N = 3)', () => {
  const c: ContainerJson = { name: 'main', command: ['/bin/sh', '-c'], args: ['python3 -m dynamo.sglang --custom-flag custom-value'], env: ENV, ...PROBES };
  const grove = groveDeployer('worker');

  test('leader: flags right after dynamo.sglang, rank 0, probes kept', () => {
    const out = sglangMultinodeContainer(c, { role: 'leader', nodeCount: 3, deployer: grove });
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual([`python3 -m dynamo.sglang --dist-init-addr ${GROVE_LEADER}:29500 --nnodes 3 --node-rank 0 --custom-flag custom-value`]);
    expect(out.livenessProbe).toEqual(PROBES.livenessProbe);
    expect(out.env).toEqual(ENV);
  });

  test('worker: Grove rank arithmetic inside the existing shell string (no re-wrapping), probes removed', () => {
    const out = sglangMultinodeContainer(c, { role: 'worker', nodeCount: 3, deployer: grove });
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual([`python3 -m dynamo.sglang --dist-init-addr ${GROVE_LEADER}:29500 --nnodes 3 --node-rank $((GROVE_PCLQ_POD_INDEX + 1)) --custom-flag custom-value`]);
    expect(out).not.toHaveProperty('livenessProbe');
    expect(out).not.toHaveProperty('readinessProbe');
    expect(out).not.toHaveProperty('startupProbe');
    expect(out.env).toEqual(ENV);
  });
});

describe('render-multinode §6.2 SGLang flags per provider', () => {
  test('LWS worker: rank $(LWS_WORKER_INDEX) needs no shell, flags appended to a python command', () => {
    expect(sglangMultinodeFlags('worker', 2, LWS_DEPLOYER)).toEqual({
      flags: '--dist-init-addr $(LWS_LEADER_ADDRESS):29500 --nnodes 2 --node-rank $(LWS_WORKER_INDEX)', needsShell: false,
    });
    const c: ContainerJson = { name: 'main', command: ['python3'], args: ['-m', 'dynamo.sglang'] };
    expect(sglangMultinodeContainer(c, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER }).args).toEqual([
      '-m', 'dynamo.sglang', '--dist-init-addr', '$(LWS_LEADER_ADDRESS):29500', '--nnodes', '2', '--node-rank', '$(LWS_WORKER_INDEX)',
    ]);
  });

  test('Grove worker with a python command: sh -c "exec …"', () => {
    const c: ContainerJson = { name: 'main', command: ['python3', '-m', 'dynamo.sglang'], args: ['--tp', '8'] };
    const out = sglangMultinodeContainer(c, { role: 'worker', nodeCount: 2, deployer: groveDeployer('Dec') });
    expect(out.command).toEqual(['sh', '-c']);
    expect(out.args).toEqual(['exec python3 -m dynamo.sglang --tp 8 --dist-init-addr $(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-dec-ldr-0.$(GROVE_HEADLESS_SERVICE):29500 --nnodes 2 --node-rank $((GROVE_PCLQ_POD_INDEX + 1))']);
  });

  test('single node: unchanged', () => {
    const c: ContainerJson = { name: 'main', command: ['python3'], args: ['-m', 'dynamo.sglang'], ...PROBES };
    expect(sglangMultinodeContainer(c, { role: 'worker', nodeCount: 1, deployer: LWS_DEPLOYER })).toBe(c);
  });
});

describe('render-multinode §2.4 / §6 backend dispatch of the multinode hooks', () => {
  const c: ContainerJson = { name: 'main', command: ['python3', '-m', 'dynamo.mocker'], ...PROBES };
  const base = { nodeCount: 2, deployer: LWS_DEPLOYER, gpusPerNode: () => 8, podAnnotations: {}, sshSecretName: 's' };

  test('noop framework: no launch changes, probes kept on workers', () => {
    expect(applyMultinodeContainer('noop', c, { ...base, role: 'worker' })).toBe(c);
    const pod = { containers: [c] };
    expect(applyMultinodePodSpec('noop', pod, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'p', sshSecretName: 's' })).toBe(pod);
  });

  test('each framework gets its own rewrite', () => {
    const sg: ContainerJson = { name: 'main', command: ['python3', '-m', 'dynamo.sglang'] };
    expect(applyMultinodeContainer('sglang', sg, { ...base, role: 'leader' }).args).toContain('--dist-init-addr');
    expect(applyMultinodeContainer('trtllm', sg, { ...base, role: 'worker' }).readinessProbe).toEqual(expect.objectContaining({ tcpSocket: { port: 2222 } }));
    const pod = { containers: [sg] };
    expect(applyMultinodePodSpec('trtllm', pod, { role: 'leader', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'p', sshSecretName: 's' }).volumes)
      .toEqual([{ name: 's', secret: { secretName: 's', defaultMode: 420 } }]);
    expect(applyMultinodePodSpec('sglang', pod, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'p', sshSecretName: 's' })).toBe(pod);
  });
});
