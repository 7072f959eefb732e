/**
 * The installed command as users run it: `bin/cdk8s-dynamo` spawned as a process (it runs the
 * compiled `lib/`, so `npx projen compile` comes first, as in `npx projen build`). Every exit path
 * is checked here by the process's own exit code and output, not by calling functions.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { BIN, BinaryRun, binaryWorkdir, CLI_FIXTURES, ROOT, runBinary } from './support/cli-binary';

const VERSION = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

/** A two-component graph (also used by the artifact test). */
const GRAPH = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');
const BAD = GRAPH.replace('type: decode', 'type: router').replace('name: llm', 'name: bad');
const WIDGET = `apiVersion: example.com/v1
kind: Widget
metadata:
  name: w1
`;

let dir: string;

beforeAll(() => {
  dir = binaryWorkdir('bin');
  fs.writeFileSync(path.join(dir, 'graph.yaml'), GRAPH);
  fs.writeFileSync(path.join(dir, 'bad.yaml'), BAD);
  fs.writeFileSync(path.join(dir, 'broken.yaml'), 'a: [\n');
  fs.writeFileSync(path.join(dir, 'widget.yaml'), WIDGET);
  fs.writeFileSync(path.join(dir, '--grove'), GRAPH);
  fs.mkdirSync(path.join(dir, 'other'));
  fs.writeFileSync(path.join(dir, 'other', 'graph.yml'), GRAPH);
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]): BinaryRun => runBinary(dir, args);

function kinds(yamlText: string): string[] {
  return parseAllDocuments(yamlText).map(d => {
    const o = d.toJS();
    return `${o.kind}/${o.metadata.name}`;
  });
}

describe('exit 0', () => {
  test('render writes the graph to stdout and only its summary to stderr', () => {
    const r = run('render', 'graph.yaml');
    expect(r).toMatchObject({ code: 0, stderr: 'rendered 1 object in 1 file: 1 object (graph output)\n' });
    expect(kinds(r.stdout)).toEqual(['DynamoGraphDeployment/llm']);
  });

  test('render --output components and workloads', () => {
    const components = run('render', '--output', 'components', 'graph.yaml');
    expect(components.code).toBe(0);
    expect(kinds(components.stdout)).toEqual([expect.stringMatching(/^DynamoComponentDeployment\/llm-frontend$/), expect.stringMatching(/^DynamoComponentDeployment\/llm-decode-[0-9a-f]{8}$/)]);
    const workloads = run('render', '--output=workloads', 'graph.yaml');
    expect(workloads.code).toBe(0);
    expect(kinds(workloads.stdout)).toEqual(expect.arrayContaining(['Deployment/llm-frontend', 'Service/llm-frontend']));
  });

  test('validate of valid input prints only its summary, on stderr', () => {
    expect(run('validate', 'graph.yaml')).toEqual({ code: 0, stdout: '', stderr: 'validated 1 object in 1 file: ok\n' });
  });

  test('standard input is read for the file -', () => {
    const r = runBinary(dir, ['validate', '-'], GRAPH);
    expect(r.code).toBe(0);
    const rendered = runBinary(dir, ['render', '-'], GRAPH);
    expect(kinds(rendered.stdout)).toEqual(['DynamoGraphDeployment/llm']);
  });

  test('--version prints the package version', () => {
    expect(VERSION).not.toBe('0.0.0');
    expect(run('--version')).toEqual({ code: 0, stdout: `${VERSION}\n`, stderr: '' });
  });

  test.each([['--help'], ['-h'], ['help']])('%s prints the program help on stdout', flag => {
    const r = run(flag);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^usage:\n {2}cdk8s-dynamo render /);
    expect(r.stdout).toContain('Exit status: 0 success, 1 invalid input, unreadable file or output not all written');
  });

  test.each([
    [['render', '--help'], 'usage: cdk8s-dynamo render '],
    [['render', '-h', 'graph.yaml'], 'usage: cdk8s-dynamo render '],
    [['validate', '--help'], 'usage: cdk8s-dynamo validate '],
    [['help', 'validate'], 'usage: cdk8s-dynamo validate '],
  ])('%j prints the command help', (args, start) => {
    const r = run(...args);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith(start)).toBe(true);
  });

  test('-- ends the options: a later --grove is a file name', () => {
    const r = run('validate', '--', '--grove');
    expect(r).toEqual({ code: 0, stdout: '', stderr: 'validated 1 object in 1 file: ok\n' });
  });

  test('documents of a kind without a schema are named on stderr, not passed as valid', () => {
    expect(run('validate', 'graph.yaml', 'widget.yaml')).toEqual({
      code: 0,
      stdout: '',
      stderr: 'widget.yaml:1:1: example.com/v1 Widget/w1: not checked (no schema for this kind)\nvalidated 2 objects in 2 files: ok\n',
    });
    const r = run('render', 'widget.yaml');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('widget.yaml:1:1: example.com/v1 Widget/w1: passed through unchecked (no schema for this kind)\n'
      + 'rendered 1 object in 1 file: 1 object (graph output)\n');
    expect(kinds(r.stdout)).toEqual(['Widget/w1']);
  });

  test('render --out DIR writes <input-name>.k8s.yaml per input file, and the manifest, and nothing on stdout', () => {
    const out = path.join(dir, 'dist-ok');
    const r = run('render', '--output', 'components', '--out', out, 'graph.yaml', 'widget.yaml');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(fs.readdirSync(out).sort()).toEqual(['.cdk8s-dynamo-outputs', 'graph.k8s.yaml', 'widget.k8s.yaml']);
    expect(kinds(fs.readFileSync(path.join(out, 'graph.k8s.yaml'), 'utf8'))).toHaveLength(2);
    expect(kinds(fs.readFileSync(path.join(out, 'widget.k8s.yaml'), 'utf8'))).toEqual(['Widget/w1']);
  });

  test('the output is byte-identical across runs', () => {
    expect(run('render', '--output', 'workloads', 'graph.yaml').stdout).toBe(run('render', '--output', 'workloads', 'graph.yaml').stdout);
  });

  test('a reader that stops early (| head): exit 1, naming how much of the output it did not read', () => {
    // more output than a pipe holds, so that writing goes on after the reader has gone
    fs.writeFileSync(path.join(dir, 'many.yaml'), Array.from({ length: 40 }, (_, i) => GRAPH.replace('name: llm', `name: llm-${i}`)).join('---\n'));
    const r = spawnSync('bash', ['-c', `set -o pipefail; "${process.execPath}" "${BIN}" render --output workloads many.yaml | head -c 10 >/dev/null`], { cwd: dir, encoding: 'utf8' });
    expect(r.stderr).toMatch(/^cdk8s-dynamo render: writing to standard output failed after \d+ of \d+ bytes: EPIPE \(the reader closed the pipe\); the output is incomplete\n$/);
    expect(r.status).toBe(1);
  });
});

describe('exit 1: invalid input or a file that cannot be read', () => {
  test('invalid input: one line per problem on stderr, nothing on stdout', () => {
    const r = run('validate', 'bad.yaml');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^bad\.yaml:16:7: DynamoGraphDeployment\/bad: spec\.components\[1\]\.type.*Unsupported value: "router".*\(rule 43\)\n$/);
  });

  test('render of invalid input writes nothing', () => {
    const r = run('render', 'graph.yaml', 'bad.yaml');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
  });

  test('a missing file: one plain line, no system error code', () => {
    expect(run('validate', 'missing.yaml')).toEqual({ code: 1, stdout: '', stderr: 'cannot read missing.yaml: no such file\n' });
  });

  test('a directory given as a file: one plain line that says what to give instead', () => {
    expect(run('render', 'other')).toEqual({
      code: 1, stdout: '', stderr: 'cannot read other: it is a directory (give a YAML file, or use a shell glob: other/*.yaml)\n',
    });
  });

  test('bad YAML', () => {
    const r = run('validate', 'broken.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^broken\.yaml:2:1: invalid YAML: .*\n$/);
  });

  test('a document without kind, and a misspelled Dynamo kind', () => {
    fs.writeFileSync(path.join(dir, 'nokind.yaml'), 'apiVersion: v1\nmetadata: {name: x}\n');
    expect(run('validate', 'nokind.yaml')).toEqual({
      code: 1, stdout: '', stderr: 'nokind.yaml:1:1: document 1: kind: Required value: every object needs apiVersion and kind\n',
    });
    fs.writeFileSync(path.join(dir, 'typo.yaml'), GRAPH.replace('kind: DynamoGraphDeployment', 'kind: DynamoGraphDeploymnet'));
    expect(run('render', 'typo.yaml')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'typo.yaml:1:1: document 1 (DynamoGraphDeploymnet/llm): kind: Unsupported value: "DynamoGraphDeploymnet": not a kind of nvidia.com; did you mean "DynamoGraphDeployment"?\n',
    });
    fs.writeFileSync(path.join(dir, 'version.yaml'), GRAPH.replace('nvidia.com/v1beta1', 'nvidia.com/v1'));
    expect(run('validate', 'version.yaml').stderr)
      .toBe('version.yaml:1:1: document 1 (DynamoGraphDeployment/llm): apiVersion: Unsupported value: "nvidia.com/v1": DynamoGraphDeployment is served as "nvidia.com/v1alpha1", "nvidia.com/v1beta1"\n');
  });

  test('a file that is not UTF-8, and a file with no object', () => {
    fs.writeFileSync(path.join(dir, 'latin1.yaml'), Buffer.from('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: caf\xe9}\n', 'latin1'));
    expect(run('validate', 'latin1.yaml')).toEqual({ code: 1, stdout: '', stderr: 'latin1.yaml:3:21: not valid UTF-8 (byte 0xe9)\n' });
    fs.writeFileSync(path.join(dir, 'empty.yaml'), '# nothing\n---\n');
    expect(run('render', 'empty.yaml')).toEqual({
      code: 1, stdout: '', stderr: 'empty.yaml: no objects: the file is empty or holds only comments and empty documents\n',
    });
  });

  test('an object larger than the API server accepts (3 MiB)', () => {
    const big = `apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big}\ndata:\n  a: "${'x'.repeat(3 * 1024 * 1024)}"\n`;
    fs.writeFileSync(path.join(dir, 'big.yaml'), big);
    const bytes = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024) } }).length;
    expect(run('validate', 'big.yaml')).toEqual({
      code: 1,
      stdout: '',
      stderr: `big.yaml:1:1: document 1 (ConfigMap/big): Too long: the object is ${bytes} bytes as JSON; the API server accepts at most 3145728 bytes (3 MiB) per request\n`,
    });
  });

  test('an endless stream is read only up to 64 MiB', () => {
    expect(run('validate', '/dev/zero')).toEqual({ code: 1, stdout: '', stderr: 'cannot read /dev/zero: larger than 64 MiB, not read\n' });
  });

  test('an unreadable operator configuration', () => {
    expect(run('render', '--operator-config', 'nope.yaml', 'graph.yaml')).toEqual({ code: 1, stdout: '', stderr: 'cannot read nope.yaml: no such file\n' });
  });

  test('render --out of invalid input creates no file', () => {
    const out = path.join(dir, 'dist-bad');
    expect(run('render', '--out', out, 'graph.yaml', 'bad.yaml').code).toBe(1);
    expect(fs.existsSync(out)).toBe(false);
  });

  test('render --out into a place that cannot be a directory', () => {
    const r = run('render', '--out', path.join(dir, 'graph.yaml', 'sub'), 'graph.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/graph\.yaml\/sub: cannot write: ENOTDIR; nothing was written\n$/);
  });

  test('a full disk (stdout on /dev/full) is one clear line naming what was not written', () => {
    if (!fs.existsSync('/dev/full')) return;
    const r = spawnSync('/bin/sh', ['-c', `"${process.execPath}" "${BIN}" render graph.yaml > /dev/full`], { cwd: dir, encoding: 'utf8' });
    expect(r.status).toBe(1);
    const bytes = Buffer.byteLength(run('render', 'graph.yaml').stdout);
    expect(r.stderr).toBe(`cdk8s-dynamo render: writing to standard output failed after 0 of ${bytes} bytes: ENOSPC (no space left on the device); the output is incomplete\n`);
  });
});

describe('exit 2: usage errors, with the usage on stderr', () => {
  test.each([
    [[], 'no command'],
    [['deploy', 'graph.yaml'], 'unknown command "deploy"'],
    [['--bogus'], 'unknown option "--bogus"'],
    [['render'], 'no input FILE given'],
    [['render', '--bogus', 'graph.yaml'], 'unknown option "--bogus" for render'],
    [['validate', '--output', 'graph', 'graph.yaml'], '--output must be one of text, json, got "graph"'],
    [['render', '--output', 'pods', 'graph.yaml'], '--output must be one of graph, components, workloads, got "pods"'],
    [['render', '--output'], '--output needs a value'],
    [['render', '--output', '--grove', 'graph.yaml'], '--output needs a value'],
    [['render', '--output=', 'graph.yaml'], '--output needs a value'],
    [['render', '--grove=yes', 'graph.yaml'], '--grove takes no value'],
    [['render', '--namespace', 'a', '--namespace', 'b', 'graph.yaml'], '--namespace can be given once'],
    [['validate', '--as', 'jane', 'graph.yaml'], '--as needs --old'],
    [['render', '--old', 'graph.yaml', 'graph.yaml'], 'unknown option "--old" for render'],
    [['render', '--out', 'd', 'graph.yaml', 'graph.yml'], '--out: "graph.yaml" and "graph.yml" would both be written to graph.k8s.yaml; render them separately'],
    [['--version', 'x'], '--version takes no arguments'],
    [['help', 'deploy'], 'unknown command "deploy"'],
  ])('%j', (args, message) => {
    const r = run(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(`cdk8s-dynamo: ${message}\nusage:\n`)).toBe(true);
    expect(r.stderr).toMatch(/Run 'cdk8s-dynamo (render |validate )?--help' for the options\.\n$/);
  });
});

describe('--helm-values: the operator of a platform chart release', () => {
  test('bundled Grove and NATS of release dyn in ai: a PodCliqueSet with the values\' delay and the release\'s NATS address', () => {
    fs.writeFileSync(path.join(dir, 'values.yaml'), 'global:\n  grove: {install: true}\n  nats: {install: true}\ndynamo-operator:\n  dynamo: {groveTerminationDelay: 2h}\n');
    const r = run('render', '--quiet', '--output', 'workloads', '--helm-values', 'values.yaml', '--helm-release', 'dyn', '--helm-namespace', 'ai', 'graph.yaml');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const docs = parseAllDocuments(r.stdout).map(d => d.toJS());
    const pcs = docs.filter(d => d.kind === 'PodCliqueSet');
    expect(pcs.map(p => p.spec.template.terminationDelay)).toEqual(['2h0m0s']);
    expect(r.stdout.match(/value: nats:\/\/dyn-nats\.ai\.svc\.cluster\.local:4222$/gm)).toHaveLength(2);
  });

  test('--helm-release without --helm-values is a usage error', () => {
    const r = run('validate', '--helm-release', 'dyn', 'graph.yaml');
    expect(r.code).toBe(2);
    expect(r.stderr.startsWith('cdk8s-dynamo: --helm-release needs --helm-values\nusage:\n')).toBe(true);
  });
});
