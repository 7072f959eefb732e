/**
 * Backend frameworks on the pod (docs/design/render-core.md §5.2 step 2 selection, §5.8 backend hooks, §6.4
 * backend env): detection from the main command line, contradictions, the vLLM elastic-EP Ray
 * head with POSIX quoting.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { DcdJson, podTemplateOf } from './support/facade';
import { mainOf, renderError } from './support/pod-render';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function dcd(type: string, main: any, extra: any = {}): DcdJson {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'llm-comp', namespace: 'team-a' },
    spec: { name: 'comp', type: type as any, ...extra, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, ...main }] } } },
  };
}

function render(d: DcdJson): any {
  return podTemplateOf(d, {}, 'llm');
}

/**
 * The backend that renders a DCD, told by what it does to the leader of the same DCD on two nodes
 * with 8 GPUs each and tensor parallelism 16: vLLM adds its executor flags, SGLang its
 * distributed-init flags, TensorRT-LLM launches through mpirun, no backend changes nothing.
 */
function backendOf(d: DcdJson): string {
  const spec: any = JSON.parse(JSON.stringify(d.spec));
  spec.multinode = { nodeCount: 2 };
  const main = spec.podTemplate.spec.containers[0];
  main.resources = { limits: { 'nvidia.com/gpu': '8' } };
  main.args = [...(main.args ?? []), '--tensor-parallel-size', '16'];
  const line = [...(mainOf(render({ ...d, spec })).command ?? []), ...(mainOf(render({ ...d, spec })).args ?? [])].join(' ');
  if (line.includes('mpirun')) return 'trtllm';
  if (line.includes('--dist-init-addr')) return 'sglang';
  if (line.includes('--distributed-executor-backend')) return 'vllm';
  return 'noop';
}

describe('docs/design/render-core.md §5.2 step 2 backend selection', () => {
  test('non-worker types always use the noop backend', () => {
    for (const type of ['frontend', 'planner', 'epp']) {
      const epp = type === 'epp' ? { eppConfig: { configMapRef: { name: 'cm' } } } : {};
      expect(backendOf(dcd(type, { command: ['python3', '-m', 'dynamo.vllm'] }, { backendFramework: 'sglang', ...epp }))).toBe('noop');
    }
  });

  test('worker: detected from command+args joined with spaces', () => {
    expect(backendOf(dcd('decode', { command: ['python3'], args: ['-m', 'dynamo.sglang.worker'] }))).toBe('sglang');
    expect(backendOf(dcd('worker', { command: ['/bin/sh', '-c'], args: ['cd /w && python3.12 -m dynamo.trtllm --x'] }))).toBe('trtllm');
  });

  test('worker: spec.backendFramework when nothing is detected', () => {
    expect(backendOf(dcd('prefill', {}, { backendFramework: 'vllm' }))).toBe('vllm');
    expect(backendOf(dcd('prefill', { command: ['./run.sh'] }, { backendFramework: 'trtllm' }))).toBe('trtllm');
  });

  test('worker: noop when neither detected nor declared', () => {
    expect(backendOf(dcd('decode', { command: ['./run.sh'] }))).toBe('noop');
    // the probe tells a declared backend from none
    expect(backendOf(dcd('decode', { command: ['./run.sh'] }, { backendFramework: 'trtllm' }))).toBe('trtllm');
  });

  test('a detected framework contradicting spec.backendFramework is an error', () => {
    const e = renderError(() => render(dcd('decode', { command: ['python3', '-m', 'dynamo.sglang'] }, { backendFramework: 'vllm' })));
    expect(e.field).toBe('spec.podTemplate.spec.containers[main]');
    expect(e.message).toContain('dynamo.sglang');
    expect(e.message).toContain('spec.backendFramework is vllm');
  });

  test('two frameworks in one command line: error without a declaration, the declaration wins otherwise', () => {
    const line = { command: ['/bin/sh', '-c'], args: ['python3 -m dynamo.vllm && python3 -m dynamo.sglang'] };
    expect(renderError(() => render(dcd('decode', line))).message).toContain('cannot determine the backend framework');
    expect(backendOf(dcd('decode', line, { backendFramework: 'sglang' }))).toBe('sglang');
  });

  test('each framework is tested on its own, as the operator does', () => {
    const line = { command: ['python3', '-m', 'dynamo.vllm', 'dynamo.sglang'] };
    expect(renderError(() => render(dcd('decode', line))).message).toContain('dynamo.vllm and dynamo.sglang');
  });
});

describe('docs/design/render-core.md §5.8 vLLM elastic-EP Ray head (single node)', () => {
  const elastic = (args: string[], command = ['python3', '-m', 'dynamo.vllm']) => dcd('decode', { command, args }, { backendFramework: 'vllm' });

  test('detection needs --enable-elastic-ep and the Ray data-parallel backend (space or = form, long or -dpb)', () => {
    /** Whether the vLLM worker with this command line gets the Ray head script. */
    const rewritten = (command: string[], args: string[] = []): boolean => {
      const c = mainOf(render(dcd('decode', { command, args }, { backendFramework: 'vllm' })));
      return c.command.join(' ') === '/bin/sh -c' && c.args.length === 1 && c.args[0].startsWith('ray start --head --port=6379 --node-ip-address="$POD_IP"');
    };
    expect(rewritten(['python3'], ['--enable-elastic-ep', '--data-parallel-backend', 'ray'])).toBe(true);
    expect(rewritten(['python3'], ['--enable-elastic-ep', '--data-parallel-backend=ray'])).toBe(true);
    expect(rewritten(['python3'], ['--enable-elastic-ep', '-dpb', 'ray'])).toBe(true);
    expect(rewritten(['python3 -m dynamo.vllm --enable-elastic-ep -dpb=ray'])).toBe(true);
    expect(rewritten(['python3'], ['--enable-elastic-ep'])).toBe(false);
    expect(rewritten(['python3'], ['--enable-elastic-ep', '--data-parallel-backend', 'mp'])).toBe(false);
    expect(rewritten(['python3'], ['--data-parallel-backend', 'ray'])).toBe(false);
    // the flag must be a word of its own: inside a longer word it does not count
    expect(rewritten(['python3'], ['--enable-elastic-ep-x', '-dpb', 'ray'])).toBe(false);
    expect(rewritten(['python3\t--enable-elastic-ep\n-dpb=ray'])).toBe(true);
  });

  test('command becomes /bin/sh -c and args one script: Ray head on the pod IP, bounded wait, exec of the quoted original', () => {
    const c = mainOf(render(elastic(['--model', 'Qwen/Qwen3-0.6B', '--enable-elastic-ep', '--data-parallel-backend', 'ray', '--override-generation-config', '{"temperature": 0}'])));
    expect(c.command).toEqual(['/bin/sh', '-c']);
    expect(c.args).toEqual([
      'ray start --head --port=6379 --node-ip-address="$POD_IP" --block & '
      + 'i=0; until python3 -c "import socket; s=socket.create_connection((\'127.0.0.1\',6379),timeout=1); s.close()" 2>/dev/null; '
      + 'do i=$((i+1)); [ "$i" -ge 150 ] && { echo "ERROR: Ray head did not start within 300s" >&2; exit 1; }; sleep 2; done && '
      + 'exec python3 -m dynamo.vllm --model Qwen/Qwen3-0.6B --enable-elastic-ep --data-parallel-backend ray --override-generation-config \'{"temperature": 0}\'',
    ]);
  });

  test('POD_IP and VLLM_DP_MASTER_IP are appended after the sorted block, then VLLM_CACHE_ROOT', () => {
    const c = mainOf(render(dcd('decode', { command: ['python3', '-m', 'dynamo.vllm'], args: ['--enable-elastic-ep', '-dpb', 'ray'] },
      { backendFramework: 'vllm', compilationCache: { pvcName: 'cc' } })));
    expect(c.env.slice(-3)).toEqual([
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'VLLM_DP_MASTER_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'VLLM_CACHE_ROOT', value: '/root/.cache/vllm' },
    ]);
    expect(c.env[c.env.length - 4].name).toBe('POD_UID');
  });

  test('no user command: the merged worker command /bin/sh -c is what gets wrapped', () => {
    const c = mainOf(render(dcd('decode', { args: ['--enable-elastic-ep', '-dpb', 'ray'] }, { backendFramework: 'vllm' })));
    expect(c.command).toEqual(['/bin/sh', '-c']);
    expect(c.args[0].endsWith('&& exec /bin/sh -c --enable-elastic-ep -dpb ray')).toBe(true);
  });

  test('without a user command the worker default command is merged in, so a command is always there to wrap', () => {
    const c = mainOf(render(dcd('decode', { args: ['--model', 'm'] }, { backendFramework: 'vllm' })));
    expect(c.command).toBeDefined();
    expect(c.env.some((e: any) => e.name === 'POD_IP')).toBe(false);
  });

  test('only the vLLM backend rewrites', () => {
    const c = mainOf(render(dcd('decode', { command: ['python3', '-m', 'dynamo.sglang'], args: ['--enable-elastic-ep', '-dpb', 'ray'] })));
    expect(c.command).toEqual(['python3', '-m', 'dynamo.sglang']);
    expect(c.env.some((e: any) => e.name === 'POD_IP')).toBe(false);
  });
});

describe('docs/design/render-core.md §5.8 POSIX single-quoting (of the original command line in the Ray head script)', () => {
  /** The command line the elastic-EP script execs, for a vLLM worker with these extra args. */
  const execOf = (args: string[]): string => {
    const c = mainOf(render(dcd('decode', { command: ['python3', '-m', 'dynamo.vllm'], args: ['--enable-elastic-ep', '-dpb', 'ray', ...args] },
      { backendFramework: 'vllm' })));
    return c.args[0].split(' && exec python3 -m dynamo.vllm --enable-elastic-ep -dpb ray').pop()!;
  };

  test('shell-neutral words stay as they are', () => {
    expect(execOf(['--model=Qwen/Qwen3-0.6B'])).toBe(' --model=Qwen/Qwen3-0.6B');
    expect(execOf(['a_b@c%d+e,f:g.h-i'])).toBe(' a_b@c%d+e,f:g.h-i');
  });

  test('everything else is single-quoted, embedded quotes closed and reopened, the empty word kept', () => {
    expect(execOf(['two words'])).toBe(" 'two words'");
    expect(execOf(['$HOME'])).toBe(" '$HOME'");
    expect(execOf(["it's"])).toBe(" 'it'\\''s'");
    expect(execOf([''])).toBe(" ''");
  });

  (fs.existsSync('/bin/sh') ? test : test.skip)('a POSIX shell reads each quoted word back unchanged', () => {
    const words = ['plain', 'two words', "it's", '$HOME', '', 'a;b|c&d', '{"k": [1]}', '*'];
    const out = execFileSync('/bin/sh', ['-c', `printf '%s\\n'${execOf(words)}`], { encoding: 'utf8' });
    expect(out.split('\n').slice(0, -1)).toEqual(words);
  });
});

describe('docs/design/render-core.md §5.8 other backends change nothing on a single node', () => {
  test.each(['sglang', 'trtllm'])('%s: container as merged, no extra env', (fw) => {
    const c = mainOf(render(dcd('decode', { command: ['python3', '-m', `dynamo.${fw}`], args: ['--x'] }, { backendFramework: fw })));
    expect(c.command).toEqual(['python3', '-m', `dynamo.${fw}`]);
    expect(c.args).toEqual(['--x']);
    const names = c.env.map((e: any) => e.name);
    expect(names).toEqual([...names].sort());
  });
});
