/**
 * Backend frameworks on the pod (render-core §5.2 step 2 selection, §5.8 backend hooks, §6.4
 * backend env): detection from the main command line, contradictions, the vLLM elastic-EP Ray
 * head with POSIX quoting.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { DcdJson, podTemplateOf } from './support/facade';
import { mainOf, renderError } from './support/pod-render';
import { selectBackend } from '../src/engine/backend/select';
import { shellQuotePosix } from '../src/engine/backend/shell-quote';
import { applyElasticEpRayHead, isElasticEpRayLaunch } from '../src/engine/backend/vllm';

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

describe('render-core §5.2 step 2 backend selection', () => {
  test('non-worker types always use the noop backend', () => {
    for (const type of ['frontend', 'planner', 'epp']) {
      expect(selectBackend(dcd(type, { command: ['python3', '-m', 'dynamo.vllm'] }, { backendFramework: 'sglang' }).spec, 'x').framework).toBe('noop');
    }
  });

  test('worker: detected from command+args joined with spaces', () => {
    expect(selectBackend(dcd('decode', { command: ['python3'], args: ['-m', 'dynamo.sglang.worker'] }).spec, 'x').framework).toBe('sglang');
    expect(selectBackend(dcd('worker', { command: ['/bin/sh', '-c'], args: ['cd /w && python3.12 -m dynamo.trtllm --x'] }).spec, 'x').framework).toBe('trtllm');
  });

  test('worker: spec.backendFramework when nothing is detected', () => {
    expect(selectBackend(dcd('prefill', {}, { backendFramework: 'vllm' }).spec, 'x').framework).toBe('vllm');
    expect(selectBackend(dcd('prefill', { command: ['./run.sh'] }, { backendFramework: 'trtllm' }).spec, 'x').framework).toBe('trtllm');
  });

  test('worker: noop when neither detected nor declared', () => {
    expect(selectBackend(dcd('decode', { command: ['./run.sh'] }).spec, 'x').framework).toBe('noop');
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
    expect(selectBackend(dcd('decode', line, { backendFramework: 'sglang' }).spec, 'x').framework).toBe('sglang');
  });

  test('each framework is tested on its own, as the operator does', () => {
    const line = { command: ['python3', '-m', 'dynamo.vllm', 'dynamo.sglang'] };
    expect(renderError(() => render(dcd('decode', line))).message).toContain('dynamo.vllm and dynamo.sglang');
  });
});

describe('render-core §5.8 vLLM elastic-EP Ray head (single node)', () => {
  const elastic = (args: string[], command = ['python3', '-m', 'dynamo.vllm']) => dcd('decode', { command, args }, { backendFramework: 'vllm' });

  test('detection needs --enable-elastic-ep and the Ray data-parallel backend (space or = form, long or -dpb)', () => {
    const c = (command: string[], args: string[] = []) => ({ name: 'main', command, args });
    expect(isElasticEpRayLaunch(c(['python3'], ['--enable-elastic-ep', '--data-parallel-backend', 'ray']))).toBe(true);
    expect(isElasticEpRayLaunch(c(['python3'], ['--enable-elastic-ep', '--data-parallel-backend=ray']))).toBe(true);
    expect(isElasticEpRayLaunch(c(['python3'], ['--enable-elastic-ep', '-dpb', 'ray']))).toBe(true);
    expect(isElasticEpRayLaunch(c(['python3 -m dynamo.vllm --enable-elastic-ep -dpb=ray']))).toBe(true);
    expect(isElasticEpRayLaunch(c(['python3'], ['--enable-elastic-ep']))).toBe(false);
    expect(isElasticEpRayLaunch(c(['python3'], ['--enable-elastic-ep', '--data-parallel-backend', 'mp']))).toBe(false);
    expect(isElasticEpRayLaunch(c(['python3'], ['--data-parallel-backend', 'ray']))).toBe(false);
    // the flag must be a word of its own: inside a longer word it does not count
    expect(isElasticEpRayLaunch(c(['python3'], ['--enable-elastic-ep-x', '-dpb', 'ray']))).toBe(false);
    expect(isElasticEpRayLaunch(c(['python3\t--enable-elastic-ep\n-dpb=ray']))).toBe(true);
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

  test('a container without command (image entrypoint) is left untouched and gets no pod-IP env', () => {
    const container = { name: 'main', args: ['--enable-elastic-ep', '-dpb', 'ray'], env: [] };
    expect(applyElasticEpRayHead(container)).toBe(false);
    expect(container).toEqual({ name: 'main', args: ['--enable-elastic-ep', '-dpb', 'ray'], env: [] });
  });

  test('only the vLLM backend rewrites', () => {
    const c = mainOf(render(dcd('decode', { command: ['python3', '-m', 'dynamo.sglang'], args: ['--enable-elastic-ep', '-dpb', 'ray'] })));
    expect(c.command).toEqual(['python3', '-m', 'dynamo.sglang']);
    expect(c.env.some((e: any) => e.name === 'POD_IP')).toBe(false);
  });
});

describe('render-core §5.8 POSIX single-quoting', () => {
  test('shell-neutral words stay as they are', () => {
    expect(shellQuotePosix('--model=Qwen/Qwen3-0.6B')).toBe('--model=Qwen/Qwen3-0.6B');
    expect(shellQuotePosix('a_b@c%d+e,f:g.h-i')).toBe('a_b@c%d+e,f:g.h-i');
  });

  test('everything else is single-quoted, embedded quotes closed and reopened, the empty word kept', () => {
    expect(shellQuotePosix('two words')).toBe("'two words'");
    expect(shellQuotePosix('$HOME')).toBe("'$HOME'");
    expect(shellQuotePosix("it's")).toBe("'it'\\''s'");
    expect(shellQuotePosix('')).toBe("''");
  });

  (fs.existsSync('/bin/sh') ? test : test.skip)('a POSIX shell reads each quoted word back unchanged', () => {
    const words = ['plain', 'two words', "it's", '$HOME', '', 'a;b|c&d', '{"k": [1]}', '*'];
    const out = execFileSync('/bin/sh', ['-c', `printf '%s\\n' ${words.map(shellQuotePosix).join(' ')}`], { encoding: 'utf8' });
    expect(out.split('\n').slice(0, -1)).toEqual(words);
  });
});

describe('render-core §5.8 other backends change nothing on a single node', () => {
  test.each(['sglang', 'trtllm'])('%s: container as merged, no extra env', (fw) => {
    const c = mainOf(render(dcd('decode', { command: ['python3', '-m', `dynamo.${fw}`], args: ['--x'] }, { backendFramework: fw })));
    expect(c.command).toEqual(['python3', '-m', `dynamo.${fw}`]);
    expect(c.args).toEqual(['--x']);
    const names = c.env.map((e: any) => e.name);
    expect(names).toEqual([...names].sort());
  });
});
