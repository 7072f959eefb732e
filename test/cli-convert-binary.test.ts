/**
 * `cdk8s-dynamo convert` as users run it: `bin/cdk8s-dynamo` spawned as a process (it runs the
 * compiled `lib/`, so `npx projen compile` comes first, as in `npx projen build`). Exit codes: 0
 * converted, 1 invalid input or unreadable file, 2 usage error. The v1alpha1 fixture is the
 * v1alpha1 spelling of test/fixtures/cli/graph.yaml.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { BinaryRun, binaryWorkdir, CLI_FIXTURES, runBinary } from './support/cli-binary';

const ALPHA = fs.readFileSync(path.join(CLI_FIXTURES, 'graph-v1alpha1.yaml'), 'utf8');
const BETA = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');

let dir: string;

beforeAll(() => {
  dir = binaryWorkdir('convert');
  fs.writeFileSync(path.join(dir, 'alpha.yaml'), ALPHA);
  fs.writeFileSync(path.join(dir, 'beta.yaml'), BETA);
  fs.writeFileSync(path.join(dir, 'unknown.yaml'), ALPHA.replace('componentType: frontend', 'componentTyp: frontend'));
  fs.writeFileSync(path.join(dir, 'labels.yaml'), ALPHA.replace('      componentType: frontend\n', '      componentType: frontend\n      labels:\n        team: a\n'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (args: readonly string[], input?: string): BinaryRun => runBinary(dir, args, input);

const docs = (text: string) => parseAllDocuments(text).map(d => d.toJS());

test('exit 0: the v1alpha1 graph is written as its v1beta1 conversion, nothing on stderr', () => {
  const r = run(['convert', 'alpha.yaml']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(docs(r.stdout)).toEqual(docs(BETA));
});

test('standard input is read for the file -', () => {
  const r = run(['convert', '-'], ALPHA);
  expect(r.code).toBe(0);
  expect(docs(r.stdout)).toEqual(docs(BETA));
});

test('--out DIR writes <input-name>.k8s.yaml; the result validates and renders as the v1beta1 original does', () => {
  const out = path.join(dir, 'converted');
  expect(run(['convert', '--out', out, 'alpha.yaml'])).toEqual({ code: 0, stdout: '', stderr: '' });
  expect(fs.readdirSync(out).sort()).toEqual(['.cdk8s-dynamo-outputs', 'alpha.k8s.yaml']);
  const written = path.join(out, 'alpha.k8s.yaml');
  expect(run(['validate', written])).toEqual({ code: 0, stdout: '', stderr: 'validated 1 object in 1 file: ok\n' });
  expect(run(['render', '--output', 'workloads', written]).stdout).toBe(run(['render', '--output', 'workloads', 'beta.yaml']).stdout);
});

test('render and validate convert the v1alpha1 file first and say so on stderr', () => {
  const notice = 'alpha.yaml:1:1: nvidia.com/v1alpha1 DynamoGraphDeployment/llm: converted to nvidia.com/v1beta1 first';
  const validate = run(['validate', 'alpha.yaml']);
  expect(validate.code).toBe(0);
  expect(validate.stderr).toContain(notice);
  const render = run(['render', '--output', 'workloads', 'alpha.yaml']);
  expect(render.code).toBe(0);
  expect(render.stderr).toContain(notice);
  expect(render.stdout).toBe(run(['render', '--output', 'workloads', 'beta.yaml']).stdout);
});

test('fields kept only in the preservation annotation are named on stderr (exit 0)', () => {
  const r = run(['convert', 'labels.yaml']);
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('labels.yaml:10:7: DynamoGraphDeployment/llm: spec.services[Frontend].labels: has no v1beta1 field; kept only in annotation nvidia.com/dgd-spec\n');
  expect(docs(r.stdout)[0].metadata.annotations['nvidia.com/dgd-spec']).toBe('{"version":1,"spec":{"services":{"Frontend":{"labels":{"team":"a"}}}}}');
});

test('exit 1: a field the v1alpha1 API does not have is named, nothing is written', () => {
  expect(run(['convert', 'unknown.yaml'])).toEqual({
    code: 1,
    stdout: '',
    stderr: 'unknown.yaml:9:7: DynamoGraphDeployment/llm: spec.services[Frontend].componentTyp: unknown field "spec.services[Frontend].componentTyp"\n',
  });
  expect(run(['convert', 'missing.yaml'])).toEqual({ code: 1, stdout: '', stderr: 'cannot read missing.yaml: no such file\n' });
});

test('exit 2: usage errors, with the command usage', () => {
  const none = run(['convert']);
  expect(none).toMatchObject({ code: 2, stdout: '' });
  expect(none.stderr).toBe("cdk8s-dynamo: no input FILE given\nusage:\n  cdk8s-dynamo convert [--out DIR] FILE...\nRun 'cdk8s-dynamo convert --help' for the options.\n");
  expect(run(['convert', '--output', 'workloads', 'alpha.yaml'])).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown option "--output" for convert') });
});

test('--help prints the command help', () => {
  const r = run(['convert', '--help']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout.startsWith('usage: cdk8s-dynamo convert [--out DIR] FILE...\n')).toBe(true);
  expect(run(['--help']).stdout).toContain('  convert    write nvidia.com/v1alpha1 Dynamo documents as the nvidia.com/v1beta1 objects they convert to\n');
});
