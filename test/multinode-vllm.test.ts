/**
 * vLLM multinode container and pod rewrites (render-multinode §6.1, worked example §3.6,
 * goldens §9.2–§9.5, normaliser §10.1).
 */
// the vLLM multinode rewrite is unit-tested on its decision table (launch modes, spellings, versions);
// its wiring into the rendered LeaderWorkerSet and Grove pods is in multinode-deployment-fallback,
// multinode-roles-deployer and grove-podcliqueset
import {
  elasticEpWorkerScript, kubeletVarsAsShell, originVersionAtLeast1, usesMpExecutor, vllmMultinodeContainer, vllmMultinodeLaunch,
  vllmMultinodePodSpec,
} from '../src/engine/backend/multinode/vllm';
import { groveDeployer, LWS_DEPLOYER, MultinodeDeployer } from '../src/engine/multinode/deployer';
import { gpusPerNode } from '../src/engine/multinode/gpu-count';

type MultinodeContainerContext = Parameters<typeof vllmMultinodeContainer>[1];
type MultinodeRoleName = MultinodeContainerContext['role'];
type ContainerJson = Parameters<typeof vllmMultinodeContainer>[0];
type PodSpecJson = Parameters<typeof vllmMultinodePodSpec>[0];

const PROBES = {
  livenessProbe: { httpGet: { path: '/live', port: 'system' } },
  readinessProbe: { httpGet: { path: '/health', port: 'system' } },
  startupProbe: { httpGet: { path: '/live', port: 'system' } },
};
const ENV = [{ name: 'DYN_NAMESPACE', value: 'prod-llm' }];
const NIXL = { name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } };
const GROVE_LEADER = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE)';
const ORIGIN = { 'nvidia.com/dynamo-operator-origin-version': '1.4.0' };
const MP = { 'nvidia.com/vllm-distributed-executor-backend': 'mp' };

function main(command: string[] | undefined, args: string[] | undefined): ContainerJson {
  return { name: 'main', image: 'img:1', ...(command ? { command } : {}), ...(args ? { args } : {}), env: ENV, ...PROBES };
}

function ctx(role: MultinodeRoleName, gpus: number, annotations: Record<string, string>,
  deployer: MultinodeDeployer = LWS_DEPLOYER, nodeCount = 2): MultinodeContainerContext {
  return { role, nodeCount, deployer, gpusPerNode: () => gpus, podAnnotations: annotations };
}

const PY = ['python3', '-m', 'dynamo.vllm'];
const MP_TAIL = ['--distributed-executor-backend', 'mp', '--nnodes', '2', '--master-addr', '$(LWS_LEADER_ADDRESS)', '--master-port', '29500'];

describe('render-multinode §3.6 example: DGD vLLM decode TP 16 on 2×8 GPUs, LWS', () => {
  const c = main(PY, ['--model', 'm', '--tensor-parallel-size', '16']);

  test('leader: mp flags appended with node rank 0, NIXL env appended, probes kept', () => {
    const out = vllmMultinodeContainer(c, ctx('leader', 8, ORIGIN));
    expect(out.command).toEqual(PY);
    expect(out.args).toEqual(['--model', 'm', '--tensor-parallel-size', '16', ...MP_TAIL, '--node-rank', '0']);
    expect(out.env).toEqual([...ENV, NIXL]);
    expect(out.livenessProbe).toEqual(PROBES.livenessProbe);
    expect(out.readinessProbe).toEqual(PROBES.readinessProbe);
    expect(out.startupProbe).toEqual(PROBES.startupProbe);
  });

  test('worker: node rank $(LWS_WORKER_INDEX) --headless without a shell, no probes', () => {
    const out = vllmMultinodeContainer(c, ctx('worker', 8, ORIGIN));
    expect(out.command).toEqual(PY);
    expect(out.args).toEqual(['--model', 'm', '--tensor-parallel-size', '16', ...MP_TAIL, '--node-rank', '$(LWS_WORKER_INDEX)', '--headless']);
    expect(out.env).toEqual([...ENV, NIXL]);
    expect(out).not.toHaveProperty('livenessProbe');
    expect(out).not.toHaveProperty('readinessProbe');
    expect(out).not.toHaveProperty('startupProbe');
  });

  test('worker pod: wait-for-leader init container and script volume', () => {
    const worker = vllmMultinodeContainer(c, ctx('worker', 8, ORIGIN));
    const pod: PodSpecJson = { containers: [worker], volumes: [{ name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } }] };
    const out = vllmMultinodePodSpec(pod, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'llm' });
    expect(out.initContainers).toEqual([{
      name: 'wait-for-leader-mp',
      image: 'img:1',
      command: ['sh', '-c', 'export LEADER_HOST="${LWS_LEADER_ADDRESS}" LEADER_PORT="29500" && exec python3 /scripts/wait-for-leader.py'],
      volumeMounts: [{ name: 'wait-leader-script', mountPath: '/scripts', readOnly: true }],
    }]);
    expect(out.volumes).toEqual([pod.volumes![0], { name: 'wait-leader-script', configMap: { name: 'llm-wait-leader-script' } }]);
    expect(pod).not.toHaveProperty('initContainers');
  });

  test('leader pod: no init container', () => {
    const leader = vllmMultinodeContainer(c, ctx('leader', 8, ORIGIN));
    const pod: PodSpecJson = { containers: [leader] };
    expect(vllmMultinodePodSpec(pod, { role: 'leader', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'llm' })).toBe(pod);
  });
});

describe('render-multinode §9.2 golden dcd/lws (vLLM, no GPUs, no annotations)', () => {
  const c = main(['/bin/sh', '-c'], ['--model', 'test/model']);

  test('args unchanged, no NIXL env (Ray by default), leader keeps probes, worker loses them', () => {
    const leader = vllmMultinodeContainer(c, ctx('leader', 0, {}));
    const worker = vllmMultinodeContainer(c, ctx('worker', 0, {}));
    for (const out of [leader, worker]) {
      expect(out.command).toEqual(['/bin/sh', '-c']);
      expect(out.args).toEqual(['--model', 'test/model']);
      expect(out.env).toEqual(ENV);
    }
    expect(leader.livenessProbe).toBeDefined();
    expect(worker).not.toHaveProperty('livenessProbe');
  });

  test('worker pod: no init container without --distributed-executor-backend mp', () => {
    const pod: PodSpecJson = { containers: [vllmMultinodeContainer(c, ctx('worker', 0, {}))] };
    expect(vllmMultinodePodSpec(pod, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'lws-manifest' })).toBe(pod);
  });
});

describe('render-multinode §9.3 golden dcd/vllm-multinode-tp-args (mp by annotation)', () => {
  const resources = { limits: { 'nvidia.com/gpu': '8' }, requests: { 'nvidia.com/gpu': '8' } };
  const c: ContainerJson = { ...main(PY, ['--model', 'test/model', '--tensor-parallel-size', '16']), resources };
  const gpus = (): number => gpusPerNode({ containers: [c] }, 'dcd/tp-args-manifest');

  test('leader and worker args, NIXL env on both', () => {
    const leader = vllmMultinodeContainer(c, { ...ctx('leader', 0, MP), gpusPerNode: gpus });
    const worker = vllmMultinodeContainer(c, { ...ctx('worker', 0, MP), gpusPerNode: gpus });
    expect(leader.args).toEqual(['--model', 'test/model', '--tensor-parallel-size', '16', ...MP_TAIL, '--node-rank', '0']);
    expect(worker.args).toEqual(['--model', 'test/model', '--tensor-parallel-size', '16', ...MP_TAIL, '--node-rank', '$(LWS_WORKER_INDEX)', '--headless']);
    expect(leader.env).toEqual([...ENV, NIXL]);
    expect(worker.env).toEqual([...ENV, NIXL]);
    expect(worker.resources).toEqual(resources);
  });

  test('worker pod: ConfigMap named after the parent (the DCD)', () => {
    const pod: PodSpecJson = { containers: [vllmMultinodeContainer(c, { ...ctx('worker', 0, MP), gpusPerNode: gpus })] };
    const out = vllmMultinodePodSpec(pod, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'tp-args-manifest' });
    expect(out.volumes).toEqual([{ name: 'wait-leader-script', configMap: { name: 'tp-args-manifest-wait-leader-script' } }]);
    expect((out.initContainers as ContainerJson[]).map(i => i.name)).toEqual(['wait-for-leader-mp']);
  });
});

describe('render-multinode §9.4 dcd/vllm-multinode-tp-short-alias (-tp read through the normaliser, operator 1.6.0 on)', () => {
  test('1.6.0: -tp 16 counts as TP 16; user tokens kept, injected tokens identical', () => {
    const c = main(PY, ['--model', 'test/model', '-tp', '16']);
    expect(vllmMultinodeContainer(c, { ...ctx('worker', 8, MP), operatorVersion: '1.6.0' }).args)
      .toEqual(['--model', 'test/model', '-tp', '16', ...MP_TAIL, '--node-rank', '$(LWS_WORKER_INDEX)', '--headless']);
  });

  test('1.6.0: = and underscore spellings count too', () => {
    expect(vllmMultinodeLaunch(main(PY, ['--tensor-parallel-size=16']), 8, true, '1.6.0')).toBe('mp');
    expect(vllmMultinodeLaunch(main(PY, ['--tensor_parallel_size', '16']), 8, true, '1.6.0')).toBe('mp');
    expect(vllmMultinodeLaunch(main(PY, ['-tp=4', '-pp', '4']), 8, false, '1.6.0')).toBe('ray');
    expect(vllmMultinodeLaunch(main(PY, ['--enable_elastic_ep']), 8, false, '1.6.0')).toBe('elastic-ep');
  });

  test('1.4.0, 1.5.0 (and the default): only exact long flags in args; other spellings count as 1', () => {
    for (const version of ['1.4.0', '1.5.0', undefined]) {
      const c = main(PY, ['--model', 'test/model', '-tp', '16']);
      const out = vllmMultinodeContainer(c, { ...ctx('worker', 8, MP), operatorVersion: version });
      expect(out.args).toEqual(['--model', 'test/model', '-tp', '16']);
      expect(out.env).toEqual([...ENV, NIXL]);
      expect(out).not.toHaveProperty('livenessProbe');
      expect(vllmMultinodeLaunch(main(PY, ['--tensor-parallel-size=16']), 8, true, version)).toBe('none');
      expect(vllmMultinodeLaunch(main(PY, ['--tensor_parallel_size', '16']), 8, true, version)).toBe('none');
      expect(vllmMultinodeLaunch(main(PY, ['-tp=4', '-pp', '4']), 8, false, version)).toBe('none');
      expect(vllmMultinodeLaunch(main(PY, ['--enable_elastic_ep']), 8, false, version)).toBe('none');
      expect(vllmMultinodeLaunch(main(PY, ['--tensor-parallel-size', '16']), 8, true, version)).toBe('mp');
      // the command is not read at any version
      expect(vllmMultinodeLaunch(main([...PY, '--tensor-parallel-size', '16'], []), 8, true, version)).toBe('none');
    }
  });
});

describe('wait-for-leader: spellings of --distributed-executor-backend mp', () => {
  const workerPod = (c: ContainerJson, operatorVersion?: string): PodSpecJson =>
    vllmMultinodePodSpec({ containers: [c] }, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'llm', operatorVersion });

  test('every version: the exact flag in command or args, as two words or with =', () => {
    for (const version of ['1.4.0', '1.5.0', '1.6.0']) {
      expect(workerPod(main(PY, ['--distributed-executor-backend', 'mp']), version).initContainers).toHaveLength(1);
      expect(workerPod(main([...PY, '--distributed-executor-backend=mp'], undefined), version).initContainers).toHaveLength(1);
      expect(workerPod(main(['sh', '-c'], ['exec python3 -m dynamo.vllm --distributed-executor-backend mp']), version).initContainers).toHaveLength(1);
    }
  });

  test('1.4.0 and 1.5.0: the underscore spelling is not seen', () => {
    for (const version of ['1.4.0', '1.5.0', undefined]) {
      const c = main(PY, ['--distributed_executor_backend', 'mp']);
      expect(workerPod(c, version)).toEqual({ containers: [c] });
      expect(workerPod(main(PY, ['--distributed_executor_backend=mp']), version)).not.toHaveProperty('initContainers');
    }
  });

  test('1.6.0: the underscore spelling counts', () => {
    expect(workerPod(main(PY, ['--distributed_executor_backend', 'mp']), '1.6.0').initContainers).toHaveLength(1);
    expect(workerPod(main(PY, ['--distributed_executor_backend=mp']), '1.6.0').initContainers).toHaveLength(1);
  });
});

describe('render-multinode §9.5 golden dgd/grove (vLLM decode, no GPUs, origin version ≥ 1.0.0)', () => {
  test('no args injected, NIXL env on leader and worker, worker without probes', () => {
    const c = main(['/bin/sh', '-c'], undefined);
    const grove = groveDeployer('decode');
    const leader = vllmMultinodeContainer(c, ctx('leader', 0, { 'nvidia.com/dynamo-operator-origin-version': '1.4.0-12-gabc' }, grove));
    const worker = vllmMultinodeContainer(c, ctx('worker', 0, { 'nvidia.com/dynamo-operator-origin-version': '1.4.0-12-gabc' }, grove));
    expect(leader).not.toHaveProperty('args');
    expect(leader.env).toEqual([...ENV, NIXL]);
    expect(worker.env).toEqual([...ENV, NIXL]);
    expect(worker).not.toHaveProperty('readinessProbe');
  });
});

describe('render-multinode §6.1.2 multinode launch decision', () => {
  const args = (a: string[]): ContainerJson => main(PY, a);

  test('first match wins: TP*PP > G → mp/Ray; elastic EP; TP*PP*DP > G → data parallel; else nothing', () => {
    expect(vllmMultinodeLaunch(args(['--tensor-parallel-size', '4', '--pipeline-parallel-size', '2']), 4, true)).toBe('mp');
    expect(vllmMultinodeLaunch(args(['--tensor-parallel-size', '8']), 4, false)).toBe('ray');
    expect(vllmMultinodeLaunch(args(['--tensor-parallel-size', '8', '--enable-elastic-ep']), 4, false)).toBe('ray');
    expect(vllmMultinodeLaunch(args(['--enable-elastic-ep']), 0, true)).toBe('elastic-ep');
    expect(vllmMultinodeLaunch(args(['--data-parallel-size', '16']), 8, true)).toBe('data-parallel');
    expect(vllmMultinodeLaunch(args(['--tensor-parallel-size', '8']), 8, true)).toBe('none');
  });

  test('G = 0 disables everything but elastic EP', () => {
    expect(vllmMultinodeLaunch(args(['--tensor-parallel-size', '16']), 0, true)).toBe('none');
    expect(vllmMultinodeLaunch(args(['--data-parallel-size', '16']), 0, true)).toBe('none');
  });

  test('the command is not read', () => {
    expect(vllmMultinodeLaunch(main(['python3', '-m', 'dynamo.vllm', '--tensor-parallel-size', '16'], []), 8, true)).toBe('none');
  });

  test('single-node context: unchanged', () => {
    const c = args(['--tensor-parallel-size', '16']);
    expect(vllmMultinodeContainer(c, ctx('leader', 8, MP, LWS_DEPLOYER, 1))).toBe(c);
  });
});

describe('render-multinode §6.1.3 mp vs Ray', () => {
  test('annotation mp / ray in any case decides; other values fall through to the origin version', () => {
    expect(usesMpExecutor({ 'nvidia.com/vllm-distributed-executor-backend': 'MP' })).toBe(true);
    expect(usesMpExecutor({ 'nvidia.com/vllm-distributed-executor-backend': 'Ray', ...ORIGIN })).toBe(false);
    expect(usesMpExecutor({ 'nvidia.com/vllm-distributed-executor-backend': 'nccl', ...ORIGIN })).toBe(true);
    expect(usesMpExecutor({ 'nvidia.com/vllm-distributed-executor-backend': 'nccl' })).toBe(false);
    expect(usesMpExecutor({})).toBe(false);
  });

  test('origin version at least 1.0.0 (pre-releases of 1.0.0 are lower)', () => {
    for (const v of ['1.0.0', '1.4.0', 'v1.2', '2', '1.4.0-12-gabc', '1.0.1-rc1', '1.0.0+build']) expect(originVersionAtLeast1(v)).toBe(true);
    for (const v of ['0.9.9', '1.0.0-rc1', '0.0.0', 'latest', '', '1.4.0-rc.01', undefined]) expect(originVersionAtLeast1(v)).toBe(false);
  });
});

describe('render-multinode §6.1.4 mp flags on Grove', () => {
  const grove = groveDeployer('decode');
  const c = main(PY, ['--model', 'm', '--tensor-parallel-size', '16']);

  test('leader: appended with the Grove leader host, no shell', () => {
    expect(vllmMultinodeContainer(c, ctx('leader', 8, MP, grove, 3)).args).toEqual([
      '--model', 'm', '--tensor-parallel-size', '16', '--distributed-executor-backend', 'mp', '--nnodes', '3',
      '--master-addr', GROVE_LEADER, '--master-port', '29500', '--node-rank', '0',
    ]);
  });

  test('worker: sh -c "exec …" with the rank arithmetic', () => {
    const out = vllmMultinodeContainer(c, ctx('worker', 8, MP, grove));
    expect(out.command).toEqual(['sh', '-c']);
    expect(out.args).toEqual([`exec python3 -m dynamo.vllm --model m --tensor-parallel-size 16 --distributed-executor-backend mp --nnodes 2 --master-addr ${GROVE_LEADER} --master-port 29500 --node-rank $((GROVE_PCLQ_POD_INDEX + 1)) --headless`]);
  });

  test('worker pod: Grove leader host with ${VAR} for the init container', () => {
    const pod: PodSpecJson = { containers: [vllmMultinodeContainer(c, ctx('worker', 8, MP, grove))] };
    const out = vllmMultinodePodSpec(pod, { role: 'worker', nodeCount: 2, deployer: grove, parentName: 'llm' });
    expect((out.initContainers as ContainerJson[])[0].command![2])
      .toBe('export LEADER_HOST="${GROVE_PCSG_NAME}-${GROVE_PCSG_INDEX}-decode-ldr-0.${GROVE_HEADLESS_SERVICE}" LEADER_PORT="29500" && exec python3 /scripts/wait-for-leader.py');
  });

  test('init container also fires for a user-written --distributed-executor-backend=mp and goes after user init containers', () => {
    const user = { name: 'user-init', image: 'busybox' };
    const pod: PodSpecJson = { containers: [main(['/bin/sh', '-c'], ['python3 -m dynamo.vllm --distributed-executor-backend=mp'])], initContainers: [user] };
    const out = vllmMultinodePodSpec(pod, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: 'p' });
    expect((out.initContainers as ContainerJson[]).map(i => i.name)).toEqual(['user-init', 'wait-for-leader-mp']);
  });

  test('no parent name: no init container', () => {
    const pod: PodSpecJson = { containers: [vllmMultinodeContainer(c, ctx('worker', 8, MP))] };
    expect(vllmMultinodePodSpec(pod, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, parentName: '' })).toBe(pod);
  });

  test('$(VAR) → ${VAR}', () => {
    expect(kubeletVarsAsShell('$(A)-$(B_1).x')).toBe('${A}-${B_1}.x');
  });
});

describe('render-multinode §6.1.5 Ray across nodes', () => {
  test('leader: ray head then the quoted command line with --distributed-executor-backend ray', () => {
    const c = main(PY, ['--custom-flag', 'custom-value', '--tensor-parallel-size', '4', '--pipeline-parallel-size', '1']);
    const out = vllmMultinodeContainer(c, ctx('leader', 2, {}, groveDeployer('decode')));
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual(['ray start --head --port=6379 && python3 -m dynamo.vllm --custom-flag custom-value --tensor-parallel-size 4 --pipeline-parallel-size 1 --distributed-executor-backend ray']);
    expect(out.env).toEqual(ENV);
  });

  test('leader quirk with a shell-string arg: the flag lands after the quoted script', () => {
    const c = main(['/bin/sh', '-c'], ['python3 -m dynamo.vllm --tensor-parallel-size 16']);
    expect(vllmMultinodeContainer(c, ctx('leader', 8, {})).args)
      .toEqual(['ray start --head --port=6379 && /bin/sh -c "python3 -m dynamo.vllm --tensor-parallel-size 16" --distributed-executor-backend ray']);
  });

  test('worker: joins the head and blocks', () => {
    const c = main(PY, ['--tensor-parallel-size', '16']);
    const out = vllmMultinodeContainer(c, ctx('worker', 8, {}));
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual(['ray start --address=$(LWS_LEADER_ADDRESS):6379 --block']);
    expect(out).not.toHaveProperty('startupProbe');
  });
});

describe('render-multinode §6.1.6 elastic EP across nodes', () => {
  test('leader: Ray head, port wait, then the POSIX-quoted engine without exec or node IP', () => {
    const c = main(PY, ['--enable-elastic-ep', '--data-parallel-backend', 'ray', '--json', '{"a": 1}']);
    const out = vllmMultinodeContainer(c, ctx('leader', 0, {}));
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual(['ray start --head --port=6379 --block & i=0; until python3 -c "import socket; s=socket.create_connection((\'127.0.0.1\',6379),timeout=1); s.close()" 2>/dev/null; do i=$((i+1)); [ "$i" -ge 150 ] && { echo "ERROR: Ray head did not start within 300s" >&2; exit 1; }; sleep 2; done && python3 -m dynamo.vllm --enable-elastic-ep --data-parallel-backend ray --json \'{"a": 1}\'']);
    expect(out.env).toEqual(ENV);
  });

  test('leader without a command: unchanged', () => {
    const c = main(undefined, ['--enable-elastic-ep']);
    const out = vllmMultinodeContainer(c, ctx('leader', 0, {}));
    expect(out.args).toEqual(['--enable-elastic-ep']);
    expect(out).not.toHaveProperty('command');
  });

  test('worker: waits for the leader /live, then joins Ray', () => {
    const grove = groveDeployer('decode');
    const out = vllmMultinodeContainer(main(PY, ['--enable-elastic-ep']), ctx('worker', 0, {}, grove));
    expect(out.args).toEqual([elasticEpWorkerScript(GROVE_LEADER)]);
    expect(out.args![0]).toBe(`i=0; until python3 -c "import urllib.request; urllib.request.urlopen('http://${GROVE_LEADER}:9090/live', timeout=5)" 2>/dev/null; do i=$((i+1)); [ "$i" -ge 720 ] && { echo "ERROR: leader /live did not become ready within 3h" >&2; exit 1; }; echo 'waiting for leader dynamo.vllm /live to return 200...'; sleep 15; done && ray start --address=${GROVE_LEADER}:6379 --block`);
  });
});

describe('render-multinode §6.1.7 data parallel (hybrid LB)', () => {
  test('Grove worker: shell rewrite with start rank arithmetic; --data-parallel-size not repeated', () => {
    const out = vllmMultinodeContainer(main(PY, ['--data-parallel-size', '16']), ctx('worker', 8, {}, groveDeployer('decode')));
    expect(out.command).toEqual(['sh', '-c']);
    expect(out.args).toEqual([`exec python3 -m dynamo.vllm --data-parallel-size 16 --data-parallel-hybrid-lb --data-parallel-size-local 8 --data-parallel-start-rank $(( 8 * $((GROVE_PCLQ_POD_INDEX + 1)) )) --data-parallel-address ${GROVE_LEADER} --data-parallel-rpc-port 13445`]);
  });

  test('LWS worker: shell rewrite too', () => {
    const out = vllmMultinodeContainer(main(PY, ['--data-parallel-size', '4', '--tensor-parallel-size', '2']), ctx('worker', 4, {}));
    expect(out.args).toEqual(['exec python3 -m dynamo.vllm --data-parallel-size 4 --tensor-parallel-size 2 --data-parallel-hybrid-lb --data-parallel-size-local 2 --data-parallel-start-rank $(( 2 * $(LWS_WORKER_INDEX) )) --data-parallel-address $(LWS_LEADER_ADDRESS) --data-parallel-rpc-port 13445']);
  });

  test('1.6.0 leader: appended, start rank 0; -dp alias counts as present so no --data-parallel-size is added', () => {
    const out = vllmMultinodeContainer(main(PY, ['-dp', '16']), { ...ctx('leader', 8, {}), operatorVersion: '1.6.0' });
    expect(out.args).toEqual(['-dp', '16', '--data-parallel-hybrid-lb', '--data-parallel-size-local', '8', '--data-parallel-start-rank', '0',
      '--data-parallel-address', '$(LWS_LEADER_ADDRESS)', '--data-parallel-rpc-port', '13445']);
  });

  test('1.4.0 and 1.5.0 leader: -dp is not read, DP counts as 1, nothing is injected', () => {
    for (const version of ['1.4.0', '1.5.0']) {
      expect(vllmMultinodeContainer(main(PY, ['-dp', '16']), { ...ctx('leader', 8, {}), operatorVersion: version }).args).toEqual(['-dp', '16']);
      expect(vllmMultinodeContainer(main(PY, ['--data-parallel-size=16']), { ...ctx('leader', 8, {}), operatorVersion: version }).args)
        .toEqual(['--data-parallel-size=16']);
    }
  });

});
