/**
 * `cdk8s-dynamo explain` as users run it: `bin/cdk8s-dynamo` spawned as a process (it runs the
 * compiled `lib/`, so `npx projen compile` comes first). Exit codes: 0 explained, 1 invalid input
 * (the lines of `validate`), 2 usage error.
 */
import * as fs from 'fs';
import * as path from 'path';
import { BinaryRun, binaryWorkdir, CLI_FIXTURES, runBinary } from './support/cli-binary';

const GRAPH = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');

let dir: string;

beforeAll(() => {
  dir = binaryWorkdir('explain');
  fs.writeFileSync(path.join(dir, 'graph.yaml'), GRAPH);
  fs.writeFileSync(path.join(dir, 'two.yaml'), `${GRAPH}---\n${GRAPH.replace('name: llm', 'name: other')}`);
  fs.writeFileSync(path.join(dir, 'bad.yaml'), GRAPH.replace('type: decode', 'type: router'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]): BinaryRun => runBinary(dir, args);

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
