/**
 * vLLM multinode container and pod rewrites (docs/design/render-multinode.md §6.1, worked example §3.6,
 * goldens §9.2–§9.5, normaliser §10.1), on the rendered LeaderWorkerSet templates and Grove cliques.
 * A graph's DCDs carry the operator origin version its admission stamped (or the one it was given);
 * a standalone DCD carries none, so its mp/Ray choice is the annotation's alone.
 */
import { DgdJson, JsonObject, multinodePods, OperatorSettings, renderUnchecked } from './support/facade';
import { component, graph, IMAGE, standalone } from './support/graphs';

const PROBES = {
  livenessProbe: { httpGet: { path: '/live', port: 'system' } },
  readinessProbe: { httpGet: { path: '/health', port: 'system' } },
  startupProbe: { httpGet: { path: '/live', port: 'system' } },
};
const NIXL = { name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } };
const GROVE_LEADER = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE)';
const ORIGIN = '1.4.0';
const MP = { 'nvidia.com/vllm-distributed-executor-backend': 'mp' };
const PY = ['python3', '-m', 'dynamo.vllm'];
const MP_TAIL = ['--distributed-executor-backend', 'mp', '--nnodes', '2', '--master-addr', '$(LWS_LEADER_ADDRESS)', '--master-port', '29500'];

/** How the decode component is rendered. */
interface Launch {
  /** GPUs per node (`nvidia.com/gpu` limits of the main container). */
  readonly gpus?: number;
  /** Pod-template annotations. */
  readonly annotations?: Record<string, string>;
  /** The graph's operator origin version; absent: a standalone DCD (no origin version). */
  readonly origin?: string;
  readonly grove?: boolean;
  readonly nodeCount?: number;
  /** The operator version. */
  readonly version?: string;
  /** Pod-spec fields (init containers). */
  readonly podSpec?: JsonObject;
  /** The standalone DCD's name. */
  readonly dcdName?: string;
}

/** The main container of the decode component: the command and args given (none when undefined), the test probes. */
function main(command: string[] | undefined, args: string[] | undefined, gpus = 0): JsonObject {
  return {
    ...(command ? { command } : {}),
    ...(args ? { args } : {}),
    ...PROBES,
    ...(gpus > 0 ? { resources: { limits: { 'nvidia.com/gpu': String(gpus) } } } : {}),
  };
}

/** The document of the decode component on `nodeCount` nodes with this main container. */
function documentOf(container: JsonObject, o: Launch): DgdJson | JsonObject {
  const podTemplate = {
    ...(o.annotations ? { metadata: { annotations: o.annotations } } : {}),
    spec: { ...(o.podSpec ?? {}), containers: [{ name: 'main', image: IMAGE, ...container }] },
  };
  const multinode = { multinode: { nodeCount: o.nodeCount ?? 2 } };
  if (o.origin === undefined && !o.grove) {
    return standalone({ backendFramework: 'vllm', name: 'decode', type: 'decode', ...multinode, podTemplate }, { name: o.dcdName ?? 'llm-decode', namespace: 'prod' });
  }
  const annotations = o.origin === undefined ? {} : { annotations: { 'nvidia.com/dynamo-operator-origin-version': o.origin } };
  return graph([component('decode', 'decode', { ...multinode, podTemplate })], {}, { name: 'llm', namespace: 'prod', ...annotations });
}

/** The leader and worker pod specs and `main` containers of the decode component. */
interface Pods {
  readonly leader: any;
  readonly worker: any;
  readonly leaderPod: any;
  readonly workerPod: any;
}

function pods(command: string[] | undefined, args: string[] | undefined, o: Launch = {}): Pods {
  const settings: Partial<OperatorSettings> = { groveAvailable: o.grove ?? false, ...(o.version ? { version: o.version } : {}) };
  const objects = renderUnchecked(documentOf(main(command, args, o.gpus), o), { settings });
  const { leader, worker } = multinodePods(objects, 'decode');
  const mainOf = (pod: any): any => pod.containers.find((c: any) => c.name === 'main');
  return { leader: mainOf(leader), worker: mainOf(worker), leaderPod: leader, workerPod: worker };
}

/** The launch mode the leader shows: mp flags, a Ray head, the elastic-EP head, data-parallel flags, or none. */
function launchOf(args: string[], gpus: number, mp: boolean, version?: string, command: string[] = PY): string {
  const { leader } = pods(command, args, { gpus, annotations: mp ? MP : undefined, version });
  const line = [...(leader.command ?? []), ...(leader.args ?? [])].join(' ');
  if (line.includes('--distributed-executor-backend mp')) return 'mp';
  if (line.includes('ray start --head --port=6379 --block &')) return 'elastic-ep';
  if (line.includes('ray start --head')) return 'ray';
  if (line.includes('--data-parallel-hybrid-lb')) return 'data-parallel';
  expect(leader.args).toEqual(args);
  return 'none';
}

const last = (env: any[]): any => env[env.length - 1];
const names = (env: any[]): string[] => env.map(e => e.name);

describe('docs/design/render-multinode.md §3.6 example: DGD vLLM decode TP 16 on 2×8 GPUs, LWS', () => {
  const { leader, worker, leaderPod, workerPod } = pods(PY, ['--model', 'm', '--tensor-parallel-size', '16'], { gpus: 8, origin: ORIGIN });

  test('leader: mp flags appended with node rank 0, NIXL env appended, probes kept', () => {
    expect(leader.command).toEqual(PY);
    expect(leader.args).toEqual(['--model', 'm', '--tensor-parallel-size', '16', ...MP_TAIL, '--node-rank', '0']);
    expect(last(leader.env)).toEqual(NIXL);
    expect(leader.livenessProbe).toEqual(PROBES.livenessProbe);
    expect(leader.readinessProbe).toEqual(PROBES.readinessProbe);
    expect(leader.startupProbe).toEqual(PROBES.startupProbe);
  });

  test('worker: node rank $(LWS_WORKER_INDEX) --headless without a shell, no probes', () => {
    expect(worker.command).toEqual(PY);
    expect(worker.args).toEqual(['--model', 'm', '--tensor-parallel-size', '16', ...MP_TAIL, '--node-rank', '$(LWS_WORKER_INDEX)', '--headless']);
    expect(last(worker.env)).toEqual(NIXL);
    expect(worker).not.toHaveProperty('livenessProbe');
    expect(worker).not.toHaveProperty('readinessProbe');
    expect(worker).not.toHaveProperty('startupProbe');
  });

  test('worker pod: wait-for-leader init container and script volume', () => {
    expect(workerPod.initContainers).toEqual([{
      name: 'wait-for-leader-mp',
      image: IMAGE,
      command: ['sh', '-c', 'export LEADER_HOST="${LWS_LEADER_ADDRESS}" LEADER_PORT="29500" && exec python3 /scripts/wait-for-leader.py'],
      volumeMounts: [{ name: 'wait-leader-script', mountPath: '/scripts', readOnly: true }],
      resources: {},
    }]);
    expect(workerPod.volumes).toContainEqual({ name: 'wait-leader-script', configMap: { name: 'llm-wait-leader-script' } });
    expect(workerPod.volumes).toContainEqual({ name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } });
  });

  test('leader pod: no init container', () => {
    expect(leaderPod).not.toHaveProperty('initContainers');
    expect(names(leaderPod.volumes)).not.toContain('wait-leader-script');
  });
});

describe('docs/design/render-multinode.md §9.2 golden dcd/lws (vLLM, no GPUs, no annotations)', () => {
  const { leader, worker, workerPod } = pods(['/bin/sh', '-c'], ['--model', 'test/model'], { dcdName: 'lws-manifest' });

  test('args unchanged, no NIXL env (Ray by default), leader keeps probes, worker loses them', () => {
    for (const out of [leader, worker]) {
      expect(out.command).toEqual(['/bin/sh', '-c']);
      expect(out.args).toEqual(['--model', 'test/model']);
      expect(names(out.env)).not.toContain(NIXL.name);
    }
    expect(leader.livenessProbe).toBeDefined();
    expect(worker).not.toHaveProperty('livenessProbe');
  });

  test('worker pod: no init container without --distributed-executor-backend mp', () => {
    expect(workerPod).not.toHaveProperty('initContainers');
  });
});

describe('docs/design/render-multinode.md §9.3 golden dcd/vllm-multinode-tp-args (mp by annotation)', () => {
  const resources = { limits: { 'nvidia.com/gpu': '8' }, requests: { 'nvidia.com/gpu': '8' } };
  const { leader, worker, workerPod } = pods(PY, ['--model', 'test/model', '--tensor-parallel-size', '16'], {
    annotations: MP, dcdName: 'tp-args-manifest', podSpec: {},
  });
  // the GPUs per node come from the container's resources (limits, then requests)
  const withResources = pods(PY, ['--model', 'test/model', '--tensor-parallel-size', '16'], { annotations: MP, dcdName: 'tp-args-manifest', gpus: 8 });

  test('leader and worker args, NIXL env on both', () => {
    expect(withResources.leader.args).toEqual(['--model', 'test/model', '--tensor-parallel-size', '16', ...MP_TAIL, '--node-rank', '0']);
    expect(withResources.worker.args)
      .toEqual(['--model', 'test/model', '--tensor-parallel-size', '16', ...MP_TAIL, '--node-rank', '$(LWS_WORKER_INDEX)', '--headless']);
    expect(last(withResources.leader.env)).toEqual(NIXL);
    expect(last(withResources.worker.env)).toEqual(NIXL);
    expect(withResources.worker.resources).toEqual({ limits: resources.limits });
    // without GPUs nothing is injected, but mp still adds the NIXL env
    expect(leader.args).toEqual(['--model', 'test/model', '--tensor-parallel-size', '16']);
    expect(last(worker.env)).toEqual(NIXL);
    expect(workerPod).not.toHaveProperty('initContainers');
  });

  test('worker pod: ConfigMap named after the parent (the DCD)', () => {
    expect(withResources.workerPod.volumes).toContainEqual({ name: 'wait-leader-script', configMap: { name: 'tp-args-manifest-wait-leader-script' } });
    expect(withResources.workerPod.initContainers.map((i: any) => i.name)).toEqual(['wait-for-leader-mp']);
  });
});

describe('docs/design/render-multinode.md §9.4 dcd/vllm-multinode-tp-short-alias (-tp read through the normaliser, operator 1.6.0 on)', () => {
  test('1.6.0: -tp 16 counts as TP 16; user tokens kept, injected tokens identical', () => {
    expect(pods(PY, ['--model', 'test/model', '-tp', '16'], { gpus: 8, annotations: MP, version: '1.6.0' }).worker.args)
      .toEqual(['--model', 'test/model', '-tp', '16', ...MP_TAIL, '--node-rank', '$(LWS_WORKER_INDEX)', '--headless']);
  });

  test('1.6.0: = and underscore spellings count too', () => {
    expect(launchOf(['--tensor-parallel-size=16'], 8, true, '1.6.0')).toBe('mp');
    expect(launchOf(['--tensor_parallel_size', '16'], 8, true, '1.6.0')).toBe('mp');
    expect(launchOf(['-tp=4', '-pp', '4'], 8, false, '1.6.0')).toBe('ray');
    expect(launchOf(['--enable_elastic_ep'], 8, false, '1.6.0')).toBe('elastic-ep');
  });

  test('1.6.0: short aliases, underscores and = forms of every known flag are read; other words, including other = words, are not', () => {
    // TP 8 × PP 2 over 8 GPUs needs two nodes only when the underscore = form of PP is read
    expect(launchOf(['-tp', '8', '--pipeline_parallel_size=2'], 8, true, '1.6.0')).toBe('mp');
    // DP 4 × TP 1 over 2 GPUs: data parallel only when -dp=4 is read
    expect(launchOf(['-dp=4'], 2, true, '1.6.0')).toBe('data-parallel');
    expect(launchOf(['--enable_elastic_ep', '-dpb=ray'], 0, true, '1.6.0')).toBe('elastic-ep');
    // a value on a switch is another word: no elastic EP, and the words stay as written
    expect(launchOf(['--max_model_len=10', '--model', 'a_b', '--enable-elastic-ep=1'], 8, true, '1.6.0')).toBe('none');
  });

  test('1.4.0, 1.5.0 (and the default): only exact long flags in args; other spellings count as 1', () => {
    for (const version of ['1.4.0', '1.5.0', undefined]) {
      const { worker } = pods(PY, ['--model', 'test/model', '-tp', '16'], { gpus: 8, annotations: MP, version });
      expect(worker.args).toEqual(['--model', 'test/model', '-tp', '16']);
      expect(last(worker.env)).toEqual(NIXL);
      expect(worker).not.toHaveProperty('livenessProbe');
      expect(launchOf(['--tensor-parallel-size=16'], 8, true, version)).toBe('none');
      expect(launchOf(['--tensor_parallel_size', '16'], 8, true, version)).toBe('none');
      expect(launchOf(['-tp=4', '-pp', '4'], 8, false, version)).toBe('none');
      expect(launchOf(['--enable_elastic_ep'], 8, false, version)).toBe('none');
      expect(launchOf(['--tensor-parallel-size', '16'], 8, true, version)).toBe('mp');
      // the command is not read at any version
      expect(launchOf(['--model', 'm'], 8, true, version, [...PY, '--tensor-parallel-size', '16'])).toBe('none');
    }
  });
});

describe('wait-for-leader: spellings of --distributed-executor-backend mp', () => {
  const initOf = (command: string[], args: string[], version: string | undefined): unknown =>
    pods(command, args, { version }).workerPod.initContainers;

  test('every version: the exact flag in command or args, as two words or with =', () => {
    for (const version of ['1.4.0', '1.5.0', '1.6.0']) {
      expect(initOf(PY, ['--distributed-executor-backend', 'mp'], version)).toHaveLength(1);
      expect(initOf([...PY, '--distributed-executor-backend=mp'], ['--model', 'm'], version)).toHaveLength(1);
      expect(initOf(['sh', '-c'], ['exec python3 -m dynamo.vllm --distributed-executor-backend mp'], version)).toHaveLength(1);
    }
  });

  test('1.4.0 and 1.5.0: the underscore spelling is not seen', () => {
    for (const version of ['1.4.0', '1.5.0', undefined]) {
      expect(initOf(PY, ['--distributed_executor_backend', 'mp'], version)).toBeUndefined();
      expect(initOf(PY, ['--distributed_executor_backend=mp'], version)).toBeUndefined();
    }
  });

  test('1.6.0: the underscore spelling counts', () => {
    expect(initOf(PY, ['--distributed_executor_backend', 'mp'], '1.6.0')).toHaveLength(1);
    expect(initOf(PY, ['--distributed_executor_backend=mp'], '1.6.0')).toHaveLength(1);
  });
});

describe('docs/design/render-multinode.md §9.5 golden dgd/grove (vLLM decode, no GPUs, origin version ≥ 1.0.0)', () => {
  test('no args injected, NIXL env on leader and worker, worker without probes', () => {
    const { leader, worker } = pods(['/bin/sh', '-c'], undefined, { grove: true, origin: '1.4.0-12-gabc' });
    expect(leader).not.toHaveProperty('args');
    expect(last(leader.env)).toEqual(NIXL);
    expect(last(worker.env)).toEqual(NIXL);
    expect(worker).not.toHaveProperty('readinessProbe');
  });
});

describe('docs/design/render-multinode.md §6.1.2 multinode launch decision', () => {
  test('first match wins: TP*PP > G → mp/Ray; elastic EP; TP*PP*DP > G → data parallel; else nothing', () => {
    expect(launchOf(['--tensor-parallel-size', '4', '--pipeline-parallel-size', '2'], 4, true)).toBe('mp');
    expect(launchOf(['--tensor-parallel-size', '8'], 4, false)).toBe('ray');
    expect(launchOf(['--tensor-parallel-size', '8', '--enable-elastic-ep'], 4, false)).toBe('ray');
    expect(launchOf(['--enable-elastic-ep'], 0, true)).toBe('elastic-ep');
    expect(launchOf(['--data-parallel-size', '16'], 8, true)).toBe('data-parallel');
    expect(launchOf(['--tensor-parallel-size', '8'], 8, true)).toBe('none');
  });

  test('G = 0 disables everything but elastic EP', () => {
    expect(launchOf(['--tensor-parallel-size', '16'], 0, true)).toBe('none');
    expect(launchOf(['--data-parallel-size', '16'], 0, true)).toBe('none');
  });

  test('the command is not read', () => {
    expect(launchOf(['--model', 'm'], 8, true, undefined, ['python3', '-m', 'dynamo.vllm', '--tensor-parallel-size', '16'])).toBe('none');
  });

  test('single node: unchanged', () => {
    const objects = renderUnchecked(documentOf(main(PY, ['--tensor-parallel-size', '16'], 8), { annotations: MP, nodeCount: 1 }));
    const container = objects.find(o => o.kind === 'Deployment').spec.template.spec.containers[0];
    expect(container.command).toEqual(PY);
    expect(container.args).toEqual(['--tensor-parallel-size', '16']);
    expect(names(container.env)).not.toContain(NIXL.name);
  });
});

describe('docs/design/render-multinode.md §6.1.3 mp vs Ray', () => {
  /** Whether the leader runs the mp executor: `annotation` on the pod, `origin` on the graph (none: a standalone DCD). */
  const mp = (annotation: string | undefined, origin?: string): boolean => {
    const annotations = annotation === undefined ? undefined : { 'nvidia.com/vllm-distributed-executor-backend': annotation };
    const { leader } = pods(PY, ['--tensor-parallel-size', '16'], { gpus: 8, annotations, origin });
    return leader.args.includes('mp');
  };

  test('annotation mp / ray in any case decides; other values fall through to the origin version', () => {
    expect(mp('MP')).toBe(true);
    expect(mp('Ray', ORIGIN)).toBe(false);
    expect(mp('nccl', ORIGIN)).toBe(true);
    expect(mp('nccl')).toBe(false);
    expect(mp(undefined)).toBe(false);
  });

  test('origin version at least 1.0.0 (pre-releases of 1.0.0 are lower)', () => {
    for (const v of ['1.0.0', '1.4.0', 'v1.2', '2', '1.4.0-12-gabc', '1.0.1-rc1', '1.0.0+build']) expect([v, mp(undefined, v)]).toEqual([v, true]);
    for (const v of ['0.9.9', '1.0.0-rc1', '0.0.0', 'latest', '', '1.4.0-rc.01']) expect([v, mp(undefined, v)]).toEqual([v, false]);
  });
});

describe('docs/design/render-multinode.md §6.1.4 mp flags on Grove', () => {
  const args = ['--model', 'm', '--tensor-parallel-size', '16'];

  test('leader: appended with the Grove leader host, no shell', () => {
    expect(pods(PY, args, { grove: true, gpus: 8, annotations: MP, nodeCount: 3 }).leader.args).toEqual([
      '--model', 'm', '--tensor-parallel-size', '16', '--distributed-executor-backend', 'mp', '--nnodes', '3',
      '--master-addr', GROVE_LEADER, '--master-port', '29500', '--node-rank', '0',
    ]);
  });

  test('worker: sh -c "exec …" with the rank arithmetic', () => {
    const { worker } = pods(PY, args, { grove: true, gpus: 8, annotations: MP });
    expect(worker.command).toEqual(['sh', '-c']);
    expect(worker.args).toEqual([`exec python3 -m dynamo.vllm --model m --tensor-parallel-size 16 --distributed-executor-backend mp --nnodes 2 --master-addr ${GROVE_LEADER} --master-port 29500 --node-rank $((GROVE_PCLQ_POD_INDEX + 1)) --headless`]);
  });

  test('worker pod: Grove leader host with ${VAR} for the init container', () => {
    const { workerPod } = pods(PY, args, { grove: true, gpus: 8, annotations: MP });
    expect(workerPod.initContainers[0].command[2])
      .toBe('export LEADER_HOST="${GROVE_PCSG_NAME}-${GROVE_PCSG_INDEX}-decode-ldr-0.${GROVE_HEADLESS_SERVICE}" LEADER_PORT="29500" && exec python3 /scripts/wait-for-leader.py');
  });

  test('init container also fires for a user-written --distributed-executor-backend=mp and goes after user init containers', () => {
    const user = { name: 'user-init', image: 'busybox' };
    const { workerPod } = pods(['/bin/sh', '-c'], ['python3 -m dynamo.vllm --distributed-executor-backend=mp'], { podSpec: { initContainers: [user] } });
    expect(workerPod.initContainers.map((i: any) => i.name)).toEqual(['user-init', 'wait-for-leader-mp']);
  });
});

describe('docs/design/render-multinode.md §6.1.5 Ray across nodes', () => {
  test('leader: ray head then the quoted command line with --distributed-executor-backend ray', () => {
    const { leader } = pods(PY, ['--custom-flag', 'custom-value', '--tensor-parallel-size', '4', '--pipeline-parallel-size', '1'],
      { grove: true, gpus: 2, origin: '0.9.0' });
    expect(leader.command).toEqual(['/bin/sh', '-c']);
    expect(leader.args).toEqual(['ray start --head --port=6379 && python3 -m dynamo.vllm --custom-flag custom-value --tensor-parallel-size 4 --pipeline-parallel-size 1 --distributed-executor-backend ray']);
    expect(names(leader.env)).not.toContain(NIXL.name);
  });

  test('leader quirk with a shell-string arg: the flag lands after the quoted script', () => {
    expect(pods(['/bin/sh', '-c'], ['python3 -m dynamo.vllm --tensor-parallel-size 16'], { gpus: 8 }).leader.args)
      .toEqual(['ray start --head --port=6379 && /bin/sh -c "python3 -m dynamo.vllm --tensor-parallel-size 16" --distributed-executor-backend ray']);
  });

  test('worker: joins the head and blocks', () => {
    const { worker } = pods(PY, ['--tensor-parallel-size', '16'], { gpus: 8 });
    expect(worker.command).toEqual(['/bin/sh', '-c']);
    expect(worker.args).toEqual(['ray start --address=$(LWS_LEADER_ADDRESS):6379 --block']);
    expect(worker).not.toHaveProperty('startupProbe');
  });
});

describe('docs/design/render-multinode.md §6.1.6 elastic EP across nodes', () => {
  test('leader: Ray head, port wait, then the POSIX-quoted engine without exec or node IP', () => {
    const { leader } = pods(PY, ['--enable-elastic-ep', '--data-parallel-backend', 'ray', '--json', '{"a": 1}']);
    expect(leader.command).toEqual(['/bin/sh', '-c']);
    expect(leader.args).toEqual(['ray start --head --port=6379 --block & i=0; until python3 -c "import socket; s=socket.create_connection((\'127.0.0.1\',6379),timeout=1); s.close()" 2>/dev/null; do i=$((i+1)); [ "$i" -ge 150 ] && { echo "ERROR: Ray head did not start within 300s" >&2; exit 1; }; sleep 2; done && python3 -m dynamo.vllm --enable-elastic-ep --data-parallel-backend ray --json \'{"a": 1}\'']);
    expect(names(leader.env)).not.toContain(NIXL.name);
    expect(names(leader.env)).not.toContain('POD_IP');
  });

  test('worker: waits for the leader /live, then joins Ray', () => {
    const { worker } = pods(PY, ['--enable-elastic-ep'], { grove: true });
    expect(worker.args).toEqual([`i=0; until python3 -c "import urllib.request; urllib.request.urlopen('http://${GROVE_LEADER}:9090/live', timeout=5)" 2>/dev/null; do i=$((i+1)); [ "$i" -ge 720 ] && { echo "ERROR: leader /live did not become ready within 3h" >&2; exit 1; }; echo 'waiting for leader dynamo.vllm /live to return 200...'; sleep 15; done && ray start --address=${GROVE_LEADER}:6379 --block`]);
  });
});

describe('docs/design/render-multinode.md §6.1.7 data parallel (hybrid LB)', () => {
  test('Grove worker: shell rewrite with start rank arithmetic; --data-parallel-size not repeated', () => {
    const { worker } = pods(PY, ['--data-parallel-size', '16'], { grove: true, gpus: 8 });
    expect(worker.command).toEqual(['sh', '-c']);
    expect(worker.args).toEqual([`exec python3 -m dynamo.vllm --data-parallel-size 16 --data-parallel-hybrid-lb --data-parallel-size-local 8 --data-parallel-start-rank $(( 8 * $((GROVE_PCLQ_POD_INDEX + 1)) )) --data-parallel-address ${GROVE_LEADER} --data-parallel-rpc-port 13445`]);
  });

  test('LWS worker: shell rewrite too', () => {
    expect(pods(PY, ['--data-parallel-size', '4', '--tensor-parallel-size', '2'], { gpus: 4 }).worker.args)
      .toEqual(['exec python3 -m dynamo.vllm --data-parallel-size 4 --tensor-parallel-size 2 --data-parallel-hybrid-lb --data-parallel-size-local 2 --data-parallel-start-rank $(( 2 * $(LWS_WORKER_INDEX) )) --data-parallel-address $(LWS_LEADER_ADDRESS) --data-parallel-rpc-port 13445']);
  });

  test('1.6.0 leader: appended, start rank 0; -dp alias counts as present so no --data-parallel-size is added', () => {
    expect(pods(PY, ['-dp', '16'], { gpus: 8, version: '1.6.0' }).leader.args).toEqual(['-dp', '16', '--data-parallel-hybrid-lb', '--data-parallel-size-local', '8',
      '--data-parallel-start-rank', '0', '--data-parallel-address', '$(LWS_LEADER_ADDRESS)', '--data-parallel-rpc-port', '13445']);
  });

  test('1.4.0 and 1.5.0 leader: -dp is not read, DP counts as 1, nothing is injected', () => {
    for (const version of ['1.4.0', '1.5.0']) {
      expect(pods(PY, ['-dp', '16'], { gpus: 8, version }).leader.args).toEqual(['-dp', '16']);
      expect(pods(PY, ['--data-parallel-size=16'], { gpus: 8, version }).leader.args).toEqual(['--data-parallel-size=16']);
    }
  });
});
