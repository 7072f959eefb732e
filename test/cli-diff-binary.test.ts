/**
 * `cdk8s-dynamo diff` as users run it: `bin/cdk8s-dynamo` spawned as a process (it runs the compiled
 * `lib/`, so `npx projen compile` comes first, as in `npx projen build`). Exit codes: 0 with or
 * without differences, 1 invalid input, 2 usage error.
 */
import * as fs from 'fs';
import * as path from 'path';
import { BinaryRun, binaryWorkdir, CLI_FIXTURES, runBinary } from './support/cli-binary';

const GRAPH = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');

let dir: string;

beforeAll(() => {
  dir = binaryWorkdir('diff');
  fs.writeFileSync(path.join(dir, 'old.yaml'), GRAPH);
  fs.writeFileSync(path.join(dir, 'image.yaml'), GRAPH.replace(/vllm-runtime:1\.4\.0/g, 'vllm-runtime:1.4.1'));
  fs.writeFileSync(path.join(dir, 'replicas.yaml'), GRAPH.replace('      type: frontend\n', '      type: frontend\n      replicas: 2\n'));
  fs.writeFileSync(path.join(dir, 'bad.yaml'), GRAPH.replace('type: decode', 'type: router'));
  // the frontend under a scaling adapter, then scaled directly: an edit the API server refuses as an update
  const adapted = GRAPH.replace('      type: frontend\n', '      type: frontend\n      scalingAdapter: {}\n');
  fs.writeFileSync(path.join(dir, 'adapted.yaml'), adapted);
  fs.writeFileSync(path.join(dir, 'adapted-replicas.yaml'), adapted.replace('      type: frontend\n', '      type: frontend\n      replicas: 2\n'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]): BinaryRun => runBinary(dir, args);

test('exit 0 with differences: an image change restarts the frontend and rolls the worker out under a new hash', () => {
  const r = run('diff', 'old.yaml', 'image.yaml');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toContain('~ Deployment/default/llm-frontend (restarts pods): spec.template.spec.containers[main].image\n');
  expect(r.stdout).toMatch(/^~ Deployment\/default\/llm-decode-[0-9a-f]{8} \(restarts pods; new worker hash, was llm-decode-[0-9a-f]{8}\): spec\.template\.spec\.containers\[main\]\.image$/m);
});

test('exit 1 when NEW is an update the API server refuses: replicas set directly under a scaling adapter', () => {
  const r = run('diff', 'adapted.yaml', 'adapted-replicas.yaml');
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^adapted-replicas\.yaml:10:7: DynamoGraphDeployment\/llm: spec\.components\[0\]\.replicas \(component "[^"]+"\): Forbidden: cannot be modified directly when scaling adapter is enabled; .*\(rule 66\)\n$/);
});

test('exit 0 with differences that restart nothing, --json', () => {
  const r = run('diff', '--json', 'old.yaml', 'replicas.yaml');
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(JSON.parse(r.stdout)).toEqual([
    { kind: 'DynamoComponentDeployment', name: 'llm-frontend', namespace: 'default', change: 'modified', restartsPods: false, fields: ['spec.replicas'] },
    { kind: 'Deployment', name: 'llm-frontend', namespace: 'default', change: 'modified', restartsPods: false, fields: ['spec.replicas'] },
  ]);
});

test('exit 0 without differences: [] for --json, nothing in text; NEW may be standard input', () => {
  expect(run('diff', '--json', 'old.yaml', 'old.yaml')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  expect(runBinary(dir, ['diff', 'old.yaml', '-'], GRAPH)).toEqual({ code: 0, stdout: '', stderr: '' });
});

test('exit 1: invalid input, named by its file, nothing on stdout', () => {
  const r = run('diff', 'old.yaml', 'bad.yaml');
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toMatch(/^bad\.yaml:16:7: DynamoGraphDeployment\/llm: spec\.components\[1\]\.type/m);
  expect(run('diff', 'missing.yaml', 'old.yaml')).toMatchObject({ code: 1, stdout: '', stderr: 'cannot read missing.yaml: no such file\n' });
});

test('exit 2: usage errors, with the usage on stderr', () => {
  for (const args of [['diff', 'old.yaml'], ['diff', '--output', 'pods', 'old.yaml', 'image.yaml'], ['diff', '--bogus', 'old.yaml', 'image.yaml']]) {
    const r = run(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/\nusage:\n {2}cdk8s-dynamo diff /);
  }
});
