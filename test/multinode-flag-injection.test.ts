/**
 * The flag-injection engine used by vLLM and SGLang (docs/design/render-multinode.md §2.6) and the flag
 * spellings it reads (§10.1).
 */
import { hasFlagValue, injectFlags, injectFlagsIntoScript, intFlagValue, isPythonCommand, shellQuoteForBashC, splitFields } from '../src/engine';

describe('docs/design/render-multinode.md §2.6 shellQuoteForBashC', () => {
  test('plain words are unchanged', () => {
    for (const w of ['--model', 'test/model', '16', 'a=b', 'x,y:z', '']) expect(shellQuoteForBashC(w)).toBe(w);
  });

  test('special characters: double quotes with \\ " $ ` escaped and \' as \'"\'"\'', () => {
    expect(shellQuoteForBashC('a b')).toBe('"a b"');
    expect(shellQuoteForBashC('{"k": 1}')).toBe('"{\\"k\\": 1}"');
    expect(shellQuoteForBashC('$HOME')).toBe('"\\$HOME"');
    expect(shellQuoteForBashC('a\\b')).toBe('"a\\\\b"');
    expect(shellQuoteForBashC('`x`')).toBe('"\\`x\\`"');
    expect(shellQuoteForBashC("it's")).toBe('"it\'"\'"\'s"');
    for (const w of ['a\tb', 'a\nb', '[x]', 'x!']) expect(shellQuoteForBashC(w)).toBe(`"${w}"`);
  });
});

describe('docs/design/render-multinode.md §2.6 python command detection', () => {
  test('python, python3, versioned and path forms', () => {
    for (const c of ['python', 'python3', 'python3.11', '/usr/bin/python3', '/opt/venv/bin/python3.12.1', 'python2']) expect(isPythonCommand(c)).toBe(true);
    for (const c of ['/bin/sh', 'sh', 'pythonx', 'python3-config', 'ipython']) expect(isPythonCommand(c)).toBe(false);
  });
});

describe('docs/design/render-multinode.md §2.6 flag injection', () => {
  const flags = '--nnodes 2 --node-rank 0';

  test('python command without shell: flags appended as separate args', () => {
    const c = { name: 'main', command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm'] };
    expect(injectFlags(c, { flags, needsShell: false, framework: 'vllm' })).toEqual({ ...c, args: ['--model', 'm', '--nnodes', '2', '--node-rank', '0'] });
    expect(c.args).toEqual(['--model', 'm']);
  });

  test('python command with shell: sh -c "exec <quoted command> <quoted args> <flags>"', () => {
    const c = { name: 'main', command: ['python3', '-m', 'dynamo.vllm'], args: ['--json', '{"a": 1}'] };
    expect(injectFlags(c, { flags: '--node-rank $((GROVE_PCLQ_POD_INDEX + 1))', needsShell: true, framework: 'vllm' })).toEqual({
      name: 'main', command: ['sh', '-c'], args: ['exec python3 -m dynamo.vllm --json "{\\"a\\": 1}" --node-rank $((GROVE_PCLQ_POD_INDEX + 1))'],
    });
  });

  test('python command with shell and no args: the args part is left out', () => {
    const c = { name: 'main', command: ['python3', '-m', 'dynamo.vllm'] };
    expect(injectFlags(c, { flags: '--x 1', needsShell: true, framework: 'vllm' }).args).toEqual(['exec python3 -m dynamo.vllm --x 1']);
  });

  test('shell script: flags right after the framework module', () => {
    expect(injectFlagsIntoScript('python3 -m dynamo.vllm --data-parallel-size 8', flags, 'vllm'))
      .toBe('python3 -m dynamo.vllm --nnodes 2 --node-rank 0 --data-parallel-size 8');
  });

  test('shell script: only the python segment between | & ; changes', () => {
    expect(injectFlagsIntoScript('echo blah | wc -l && python3 -m dynamo.vllm --model m && ls -al', flags, 'vllm'))
      .toBe('echo blah | wc -l && python3 -m dynamo.vllm --nnodes 2 --node-rank 0 --model m && ls -al');
  });

  test('shell script: insertion after the word holding the last mention of the framework', () => {
    expect(injectFlagsIntoScript('python3 -m dynamo.vllm --model /models/vllm-7b --tp 2', '--f', 'vllm'))
      .toBe('python3 -m dynamo.vllm --model /models/vllm-7b --f --tp 2');
    expect(injectFlagsIntoScript('python3 -m dynamo.vllm', '--f', 'vllm')).toBe('python3 -m dynamo.vllm --f');
  });

  test('non-python command: the first arg that holds a launch is changed, later ones are not', () => {
    const c = { name: 'main', command: ['/bin/sh', '-c'], args: ['echo hi', 'python3 -m dynamo.sglang --a', 'python3 -m dynamo.sglang --b'] };
    expect(injectFlags(c, { flags: '--f', needsShell: true, framework: 'sglang' }).args)
      .toEqual(['echo hi', 'python3 -m dynamo.sglang --f --a', 'python3 -m dynamo.sglang --b']);
  });

  test('non-python command without a launch: unchanged, silently', () => {
    const c = { name: 'main', command: ['/bin/sh', '-c'], args: ['--model', 'test/model'] };
    expect(injectFlags(c, { flags: '--f', needsShell: false, framework: 'vllm' })).toBe(c);
    expect(injectFlags({ name: 'main' }, { flags: '--f', needsShell: false, framework: 'vllm' })).toEqual({ name: 'main' });
  });

  test('$ in the flags is kept literally', () => {
    expect(injectFlagsIntoScript('python3 -m dynamo.vllm', '--a $(X) $1 $$', 'vllm')).toBe('python3 -m dynamo.vllm --a $(X) $1 $$');
  });
});

describe('docs/design/render-multinode.md §10.1 reading flags (normaliser)', () => {
  // the vLLM spellings (short aliases, underscores, = forms; other words kept) are asserted on the
  // rendered launch in multinode-vllm.test.ts (docs/design/render-multinode.md §9.4)
  test('integer values: first flag followed by an int64, default 1', () => {
    expect(intFlagValue(['--tensor-parallel-size', '16'], '--tensor-parallel-size')).toBe(16);
    expect(intFlagValue(['--tensor-parallel-size', 'x', '--tensor-parallel-size', '4'], '--tensor-parallel-size')).toBe(4);
    expect(intFlagValue(['--tensor-parallel-size=16'], '--tensor-parallel-size')).toBe(1);
    expect(intFlagValue(['--tensor-parallel-size'], '--tensor-parallel-size')).toBe(1);
    expect(intFlagValue(['--tensor-parallel-size', '+3'], '--tensor-parallel-size')).toBe(3);
  });

  test('flag with value: adjacent words, or inside one word with space or =', () => {
    expect(hasFlagValue(['--distributed-executor-backend', 'mp'], '--distributed-executor-backend', 'mp')).toBe(true);
    expect(hasFlagValue(['python3 -m dynamo.vllm --distributed-executor-backend mp'], '--distributed-executor-backend', 'mp')).toBe(true);
    expect(hasFlagValue(['--distributed-executor-backend=mp'], '--distributed-executor-backend', 'mp')).toBe(true);
    expect(hasFlagValue(['--distributed-executor-backend', 'ray'], '--distributed-executor-backend', 'mp')).toBe(false);
  });

  test('splitting on white space like Go strings.Fields', () => {
    expect(splitFields('  a\tb\n c\u00A0d ')).toEqual(['a', 'b', 'c', 'd']);
  });
});
