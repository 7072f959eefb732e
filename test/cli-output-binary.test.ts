/**
 * The installed command loses no output: `bin/cdk8s-dynamo` spawned as a process (`npx projen
 * compile` first) writing into a file size limit (`ulimit -f`), a folder of an earlier render, a
 * folder with files of the user's own, planted symlinks. Standard output is written completely or
 * the command fails naming how much was written; `--out` writes all files or none, keeps a manifest
 * of what it wrote, removes only the files of its own earlier run, and writes through no symlink.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { BIN, BinaryRun, binaryWorkdir, CLI_FIXTURES, runBinary } from './support/cli-binary';

const GRAPH = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');
const MANIFEST = '.cdk8s-dynamo-outputs';

let dir: string;

beforeAll(() => {
  dir = binaryWorkdir('output');
  fs.writeFileSync(path.join(dir, 'graph.yaml'), GRAPH);
  // the upstream recipe tree: every file is deploy.yaml
  for (const recipe of ['llama/vllm/agg', 'llama/vllm/disagg', 'qwen/sglang/agg']) {
    fs.mkdirSync(path.join(dir, 'recipes', recipe), { recursive: true });
    fs.writeFileSync(path.join(dir, 'recipes', recipe, 'deploy.yaml'), GRAPH.replace('name: llm', `name: ${recipe.replace(/\//g, '-')}`));
  }
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]): BinaryRun => runBinary(dir, args);

/** `cdk8s-dynamo ARGS` run by bash with a file size limit of `blocks` KiB (ulimit -f), after `setup`. */
function runLimited(blocks: number, args: string, setup = ''): BinaryRun {
  const r = spawnSync('bash', ['-c', `${setup} ulimit -f ${blocks}; "${process.execPath}" "${BIN}" ${args}`], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function names(yamlText: string): string[] {
  return parseAllDocuments(yamlText).map(d => `${d.toJS().kind}/${d.toJS().metadata.name}`);
}

/** The files of a folder, hidden ones included, sorted. */
const list = (folder: string): string[] => fs.readdirSync(path.join(dir, folder)).sort();

describe('standard output is written completely or the command fails', () => {
  const full = (): number => Buffer.byteLength(run('render', '--output', 'workloads', 'graph.yaml').stdout);

  test.each([
    ['SIGXFSZ ignored by the shell', "trap '' XFSZ;"],
    ['SIGXFSZ as the shell leaves it', ''],
  ])('a file size limit (ulimit -f 4) on a redirected stdout: exit 1, naming the bytes written (%s)', (_what, setup) => {
    const bytes = full();
    expect(bytes).toBeGreaterThan(4096);
    const r = runLimited(4, 'render --output workloads graph.yaml > out.yaml', setup);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`cdk8s-dynamo render: writing to standard output failed after 4096 of ${bytes} bytes: EFBIG (file too large: the file size limit (ulimit -f) was reached); the output is incomplete\n`);
    expect(fs.statSync(path.join(dir, 'out.yaml')).size).toBe(4096);
  });

  test('within the limit, the same command writes everything and exits 0', () => {
    const r = runLimited(1024, 'render --output workloads graph.yaml > out-ok.yaml');
    expect(r).toEqual({ code: 0, stdout: '', stderr: 'rendered 1 object in 1 file: 11 objects (workloads output)\n' });
    expect(fs.readFileSync(path.join(dir, 'out-ok.yaml'), 'utf8')).toBe(run('render', '--output', 'workloads', 'graph.yaml').stdout);
  });

  test('other commands too: convert, eject, diff, explain, help', () => {
    for (const args of ['convert graph.yaml', 'eject graph.yaml', 'diff --output graph graph.yaml recipes/llama/vllm/agg/deploy.yaml', 'explain graph.yaml', '--help']) {
      const r = runLimited(1024, `${args} > /dev/full`);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/writing to standard output failed after 0 of [1-9]\d* bytes: ENOSPC \(no space left on the device\); the output is incomplete\n$/);
    }
  });
});

describe('render --out DIR', () => {
  test('files named after the input paths relative to their common folder: the recipe tree where every file is deploy.yaml', () => {
    const inputs = ['recipes/llama/vllm/agg/deploy.yaml', 'recipes/llama/vllm/disagg/deploy.yaml', 'recipes/qwen/sglang/agg/deploy.yaml'];
    const r = run('render', '--out', 'tree', ...inputs);
    expect(r).toEqual({ code: 0, stdout: '', stderr: 'rendered 3 objects in 3 files: 3 objects (graph output) written to tree\n' });
    expect(list('tree')).toEqual([MANIFEST, 'llama__vllm__agg__deploy.k8s.yaml', 'llama__vllm__disagg__deploy.k8s.yaml', 'qwen__sglang__agg__deploy.k8s.yaml']);
    expect(names(fs.readFileSync(path.join(dir, 'tree', 'qwen__sglang__agg__deploy.k8s.yaml'), 'utf8'))).toEqual(['DynamoGraphDeployment/qwen-sglang-agg']);
    expect(fs.readFileSync(path.join(dir, 'tree', MANIFEST), 'utf8').split('\n').filter(l => l !== '' && !l.startsWith('#')))
      .toEqual(['llama__vllm__agg__deploy.k8s.yaml', 'llama__vllm__disagg__deploy.k8s.yaml', 'qwen__sglang__agg__deploy.k8s.yaml']);
    // one input: named after its file alone
    expect(run('render', '--out', 'one', 'recipes/qwen/sglang/agg/deploy.yaml').code).toBe(0);
    expect(list('one')).toEqual([MANIFEST, 'deploy.k8s.yaml']);
  });

  test('a second render removes the files of the first that it does not write again, and nothing else', () => {
    fs.mkdirSync(path.join(dir, 'again'));
    fs.writeFileSync(path.join(dir, 'again', 'mine.yaml'), 'kept\n');
    fs.writeFileSync(path.join(dir, 'again', 'notes.k8s.yaml'), 'kept too\n');
    expect(run('render', '--out', 'again', 'recipes/llama/vllm/agg/deploy.yaml', 'recipes/qwen/sglang/agg/deploy.yaml').code).toBe(0);
    expect(list('again')).toEqual([MANIFEST, 'llama__vllm__agg__deploy.k8s.yaml', 'mine.yaml', 'notes.k8s.yaml', 'qwen__sglang__agg__deploy.k8s.yaml']);
    expect(run('render', '--out', 'again', 'graph.yaml').code).toBe(0);
    expect(list('again')).toEqual([MANIFEST, 'graph.k8s.yaml', 'mine.yaml', 'notes.k8s.yaml']);
    expect(fs.readFileSync(path.join(dir, 'again', 'mine.yaml'), 'utf8')).toBe('kept\n');
    expect(fs.readFileSync(path.join(dir, 'again', 'notes.k8s.yaml'), 'utf8')).toBe('kept too\n');
    // rendering the same input again replaces its own file
    expect(run('render', '--output', 'components', '--out', 'again', 'graph.yaml').code).toBe(0);
    expect(names(fs.readFileSync(path.join(dir, 'again', 'graph.k8s.yaml'), 'utf8'))).toHaveLength(2);
  });

  test('a file of the same name that an earlier render did not write is not replaced: exit 1, nothing written', () => {
    fs.mkdirSync(path.join(dir, 'theirs'));
    fs.writeFileSync(path.join(dir, 'theirs', 'graph.k8s.yaml'), 'my own\n');
    const r = run('render', '--out', 'theirs', 'graph.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`theirs/graph.k8s.yaml: already exists and was not written by an earlier run into theirs (not listed in theirs/${MANIFEST}); move it away or choose another --out folder; nothing was written\n`);
    expect(list('theirs')).toEqual(['graph.k8s.yaml']);
    expect(fs.readFileSync(path.join(dir, 'theirs', 'graph.k8s.yaml'), 'utf8')).toBe('my own\n');
  });

  test('a manifest naming files outside the folder, or not of a render, never removes them', () => {
    fs.mkdirSync(path.join(dir, 'forged'));
    fs.writeFileSync(path.join(dir, 'victim.k8s.yaml'), 'outside\n');
    fs.writeFileSync(path.join(dir, 'forged', 'config.json'), '{}\n');
    fs.writeFileSync(path.join(dir, 'forged', MANIFEST), '../victim.k8s.yaml\nconfig.json\n/etc/hostname\n\n');
    expect(run('render', '--out', 'forged', 'graph.yaml').code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'victim.k8s.yaml'), 'utf8')).toBe('outside\n');
    expect(list('forged')).toEqual([MANIFEST, 'config.json', 'graph.k8s.yaml']);
  });

  test('a symlink planted at an output name is replaced, never written through', () => {
    fs.mkdirSync(path.join(dir, 'planted'));
    expect(run('render', '--out', 'planted', 'graph.yaml').code).toBe(0);
    fs.writeFileSync(path.join(dir, 'target.txt'), 'not yours\n');
    fs.rmSync(path.join(dir, 'planted', 'graph.k8s.yaml'));
    fs.symlinkSync(path.join(dir, 'target.txt'), path.join(dir, 'planted', 'graph.k8s.yaml'));
    expect(run('render', '--out', 'planted', 'graph.yaml').code).toBe(0);
    expect(fs.readFileSync(path.join(dir, 'target.txt'), 'utf8')).toBe('not yours\n');
    expect(fs.lstatSync(path.join(dir, 'planted', 'graph.k8s.yaml')).isSymbolicLink()).toBe(false);
    expect(names(fs.readFileSync(path.join(dir, 'planted', 'graph.k8s.yaml'), 'utf8'))).toEqual(['DynamoGraphDeployment/llm']);
  });

  test('a file size limit while writing: exit 1, naming the file and the bytes; no file, no partial file, no temporary left', () => {
    const inputs = 'recipes/llama/vllm/agg/deploy.yaml recipes/llama/vllm/disagg/deploy.yaml';
    const bytes = Buffer.byteLength(run('render', '--output', 'workloads', 'recipes/llama/vllm/agg/deploy.yaml').stdout);
    const r = runLimited(4, `render --output workloads --out limited ${inputs}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`writing to limited/agg__deploy.k8s.yaml failed after 4096 of ${bytes} bytes: EFBIG (file too large: the file size limit (ulimit -f) was reached); nothing was written\n`);
    expect(fs.existsSync(path.join(dir, 'limited'))).toBe(false);
    // an earlier render into the folder is left as it was
    expect(run('render', '--out', 'limited', 'graph.yaml').code).toBe(0);
    const before = fs.readFileSync(path.join(dir, 'limited', 'graph.k8s.yaml'), 'utf8');
    expect(runLimited(4, `render --output workloads --out limited ${inputs}`).code).toBe(1);
    expect(list('limited')).toEqual([MANIFEST, 'graph.k8s.yaml']);
    expect(fs.readFileSync(path.join(dir, 'limited', 'graph.k8s.yaml'), 'utf8')).toBe(before);
  });
});

describe('eject --out DIR', () => {
  test('existing files are not replaced without --force; with it they are', () => {
    expect(run('eject', '--out', 'app', 'graph.yaml').code).toBe(0);
    fs.writeFileSync(path.join(dir, 'app', 'main.ts'), '// my edits\n');
    const r = run('eject', '--out', 'app', 'graph.yaml');
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'app/main.ts, app/package.json, app/tsconfig.json, app/cdk8s.yaml, app/README.md: already exist; give --force to replace them, or choose another --out folder; nothing was written\n',
    });
    expect(fs.readFileSync(path.join(dir, 'app', 'main.ts'), 'utf8')).toBe('// my edits\n');
    // one existing file is named alone
    fs.mkdirSync(path.join(dir, 'app2'));
    fs.writeFileSync(path.join(dir, 'app2', 'package.json'), '{}\n');
    expect(run('eject', '--out', 'app2', 'graph.yaml').stderr).toBe('app2/package.json: already exists; give --force to replace it, or choose another --out folder; nothing was written\n');
    expect(list('app2')).toEqual(['package.json']);
    expect(run('eject', '--out', 'app', '--force', 'graph.yaml')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(fs.readFileSync(path.join(dir, 'app', 'main.ts'), 'utf8')).toBe(run('eject', 'graph.yaml').stdout);
    expect(list('app')).toEqual(['README.md', 'cdk8s.yaml', 'main.ts', 'package.json', 'tsconfig.json']);
  });

  test('--force without --out is a usage error', () => {
    const r = run('eject', '--force', 'graph.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith('cdk8s-dynamo: --force needs --out\nusage:\n')).toBe(true);
  });
});
