/**
 * `cdk8s-dynamo explain` as users run it: `bin/cdk8s-dynamo` spawned as a process (it runs the
 * compiled `lib/`, so `npx projen compile` comes first). Exit codes: 0 explained, 1 invalid input
 * (the lines of `validate`), 2 usage error.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const BIN = path.join(ROOT, 'bin', 'cdk8s-dynamo');
const GRAPH = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'cli', 'graph.yaml'), 'utf8');

let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'lib', 'cli.js'))) {
    throw new Error('lib/cli.js is missing: run `npx projen compile` before these tests (`npx projen build` does)');
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-explain-'));
  fs.writeFileSync(path.join(dir, 'graph.yaml'), GRAPH);
  fs.writeFileSync(path.join(dir, 'two.yaml'), `${GRAPH}---\n${GRAPH.replace('name: llm', 'name: other')}`);
  fs.writeFileSync(path.join(dir, 'bad.yaml'), GRAPH.replace('type: decode', 'type: router'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('exit 0: the table, one section per graph', () => {
  const r = run('explain', 'two.yaml');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toContain('DynamoGraphDeployment default/llm (workload provider: component)\n');
  expect(r.stdout).toContain('\nDynamoGraphDeployment default/other (workload provider: component)\n');
});

test('exit 0: --mermaid with an operator option', () => {
  const r = run('explain', '--grove', '--mermaid', 'graph.yaml');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout.startsWith('flowchart LR\n')).toBe(true);
});

test('exit 1: invalid input as validate reports it, nothing on stdout', () => {
  const r = run('explain', 'bad.yaml');
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe(run('validate', 'bad.yaml').stderr);
  expect(r.stderr).not.toBe('');
});

test('exit 2: a usage error', () => {
  const r = run('explain', '--json', 'graph.yaml');
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('unknown option "--json" for explain');
  expect(r.stderr).toContain('cdk8s-dynamo explain [--mermaid] [OPERATOR...] FILE...');
});
