/**
 * The command line runs from the package's pipeline bundle (bin/load-cli.js): a spawned command
 * takes its code from the one file, with the V8 code cache the build made of it (which this Node
 * takes) and the generated validators' caches, and loads none of the modules the bundle holds from
 * their files. (Needs `npx projen compile`, as the other tests of the binary.)
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const LIB_SRC = path.join(ROOT, 'lib', 'src');
const GRAPH = path.join(ROOT, 'test', 'fixtures', 'cli', 'graph.yaml');

interface CommandRun {
  readonly state: { fromBundle: boolean; cacheGiven: boolean; cacheRejected: boolean; validatorCaches: { loaded: number; cacheRejected: number } };
  readonly loaded: string[];
  readonly exitCode: number;
}

/** Runs `cdk8s-dynamo ARGS` as bin/cdk8s-dynamo does, in a fresh process, and reports what it loaded. */
function runCommand(args: readonly string[]): CommandRun {
  const script = `
    process.argv = [process.argv[0], 'cdk8s-dynamo', ...${JSON.stringify(args)}];
    process.stdout.write = () => true;
    require(${JSON.stringify(path.join(ROOT, 'bin', 'load-cli.js'))}).loadCli().main();
    const state = require(${JSON.stringify(path.join(LIB_SRC, 'lazy-modules.js'))}).pipelineBundleState();
    process.stderr.write(JSON.stringify({ state, loaded: Object.keys(require.cache), exitCode: process.exitCode ?? 0 }));
  `;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`the command failed (${result.status}): ${result.stderr}`);
  return JSON.parse(result.stderr) as CommandRun;
}

beforeAll(() => {
  if (!fs.existsSync(path.join(LIB_SRC, 'pipeline.bundle.cache'))) {
    throw new Error('lib/src/pipeline.bundle.cache is missing: run `npx projen compile` before these tests (`npx projen build` does)');
  }
});

describe('the command line', () => {
  test.each([
    ['render', ['render', '--quiet', '--output', 'workloads', GRAPH]],
    ['validate', ['validate', '--quiet', GRAPH]],
  ])('%s runs from the pipeline bundle with its code cache, which this Node takes', (_name, args) => {
    const run = runCommand(args);
    expect(run.exitCode).toBe(0);
    expect(run.state).toEqual(expect.objectContaining({ fromBundle: true, cacheGiven: true, cacheRejected: false }));
    expect(run.state.validatorCaches.loaded).toBeGreaterThan(0);
    expect(run.state.validatorCaches.cacheRejected).toBe(0);
    // none of the modules the bundle holds (the command line's among them) from files
    const bundled = new Set((JSON.parse(fs.readFileSync(path.join(ROOT, '.tmp', 'pipeline-bundle-modules.json'), 'utf8')) as string[]).map(f => path.join(ROOT, f)));
    expect(bundled).toContain(path.join(LIB_SRC, 'cli', 'main.js'));
    expect(run.loaded.filter(f => bundled.has(f))).toEqual([]);
  });
});
