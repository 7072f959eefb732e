/**
 * `cdk8s-dynamo eject` as users run it: `bin/cdk8s-dynamo` spawned as a process (it runs the
 * compiled `lib/`, so `npx projen compile` comes first, as in `npx projen build`). Exit codes: 0
 * written, 1 input that cannot be ejected or unreadable file, 2 usage error.
 */
import * as fs from 'fs';
import * as path from 'path';
import { BinaryRun, binaryWorkdir, CLI_FIXTURES, ROOT, runBinary } from './support/cli-binary';

const BETA = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');
const ALPHA = fs.readFileSync(path.join(CLI_FIXTURES, 'graph-v1alpha1.yaml'), 'utf8');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

let dir: string;

beforeAll(() => {
  dir = binaryWorkdir('eject');
  fs.writeFileSync(path.join(dir, 'graph.yaml'), BETA);
  fs.writeFileSync(path.join(dir, 'alpha.yaml'), ALPHA);
  fs.writeFileSync(path.join(dir, 'typo.yaml'), BETA.replace('            - name: main\n', '            - name: main\n              imagee: x\n'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (args: readonly string[], input?: string): BinaryRun => runBinary(dir, args, input);

test('exit 0: main.ts on standard output, nothing on stderr', () => {
  const r = run(['eject', 'graph.yaml']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toMatch(/^import \{ App, Chart \} from "cdk8s";\n/);
  expect(r.stdout).toContain('const graph = new DynamoGraph(chart, "Graph", { metadata: { name: "llm" }, backendFramework: BackendFramework.VLLM });');
  expect(r.stdout).toContain('graph.addDecodeWorker("decode", {');
  expect(r.stdout.endsWith('app.synth();\n')).toBe(true);
});

test('a v1alpha1 file is converted first, said so on stderr, and gives the app of its conversion', () => {
  const r = run(['eject', 'alpha.yaml']);
  expect(r.code).toBe(0);
  expect(r.stderr).toMatch(/^alpha\.yaml:1:1: nvidia\.com\/v1alpha1 DynamoGraphDeployment\/llm: converted to nvidia\.com\/v1beta1 first/);
  expect(r.stdout).toBe(run(['eject', 'graph.yaml']).stdout);
});

test('standard input is read for the file -', () => {
  const r = run(['eject', '-'], BETA);
  expect(r.code).toBe(0);
  expect(r.stdout).toBe(run(['eject', 'graph.yaml']).stdout);
});

test('--out DIR writes main.ts, package.json, tsconfig.json, cdk8s.yaml and README.md, and nothing on stdout', () => {
  const r = run(['eject', '--out', 'app', 'graph.yaml']);
  expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  const out = path.join(dir, 'app');
  expect(fs.readdirSync(out).sort()).toEqual(['README.md', 'cdk8s.yaml', 'main.ts', 'package.json', 'tsconfig.json']);
  expect(fs.readFileSync(path.join(out, 'main.ts'), 'utf8')).toBe(run(['eject', 'graph.yaml']).stdout);
  const pkg = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf8'));
  expect(pkg.name).toBe('llm');
  expect(pkg.dependencies['cdk8s-dynamo']).toBe(VERSION);
  expect(JSON.parse(fs.readFileSync(path.join(out, 'tsconfig.json'), 'utf8')).compilerOptions.strict).toBe(true);
  expect(fs.readFileSync(path.join(out, 'cdk8s.yaml'), 'utf8')).toContain('app: npx ts-node main.ts\n');
});

test('exit 1: a field the library cannot write, one line naming the file, document and field; nothing written', () => {
  const r = run(['eject', '--out', 'typo-app', 'typo.yaml']);
  expect(r.code).toBe(1);
  expect(r.stdout).toBe('');
  expect(r.stderr).toBe('typo.yaml: DynamoGraphDeployment/llm: spec.components[0].podTemplate.spec.containers[0].imagee: '
    + 'not a field of the Kubernetes type Container (cdk8s-plus-34 k8s.Container); it cannot be ejected\n');
  expect(fs.existsSync(path.join(dir, 'typo-app'))).toBe(false);
});

test('exit 1: an unreadable file', () => {
  const r = run(['eject', 'missing.yaml']);
  expect(r).toMatchObject({ code: 1, stdout: '' });
  expect(r.stderr).toBe('cannot read missing.yaml: no such file\n');
});

test('exit 2: usage errors (no FILE, two FILEs, an unknown option)', () => {
  for (const args of [['eject'], ['eject', 'graph.yaml', 'alpha.yaml'], ['eject', '--mermaid', 'graph.yaml']]) {
    const r = run(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^cdk8s-dynamo: .*\nusage:\n {2}cdk8s-dynamo eject \[--language typescript\|python\|java\|go\] \[--out DIR \[--force\] \[--package-source PATH\]\] \[OPERATOR\.\.\.\] FILE\n/);
  }
});

test('exit 0 with an OPERATOR option: the app names the operator', () => {
  const r = run(['eject', '--grove', 'graph.yaml']);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  expect(r.stdout).toContain('const operator: OperatorOptions = { groveAvailable: true };\n');
});

test('eject --help', () => {
  const r = run(['eject', '--help']);
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^usage: cdk8s-dynamo eject \[--language typescript\|python\|java\|go\] \[--out DIR \[--force\] \[--package-source PATH\]\] \[OPERATOR\.\.\.\] FILE\n/);
});

test('--package-source PATH: the project depends on that local build; a missing one is exit 1, nothing written', () => {
  fs.mkdirSync(path.join(dir, 'clone', 'dist', 'js'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'clone', 'dist', 'js', `cdk8s-dynamo-${VERSION}.tgz`), '');
  const r = run(['eject', '--out', 'local-app', '--package-source', `clone/dist/js/cdk8s-dynamo-${VERSION}.tgz`, 'graph.yaml']);
  expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
  const out = path.join(dir, 'local-app');
  const spec: string = JSON.parse(fs.readFileSync(path.join(out, 'package.json'), 'utf8')).dependencies['cdk8s-dynamo'];
  expect(spec).toBe(`file:../clone/dist/js/cdk8s-dynamo-${VERSION}.tgz`);
  // npm resolves file: against the folder of package.json
  expect(fs.existsSync(path.resolve(out, spec.slice('file:'.length)))).toBe(true);
  expect(fs.readFileSync(path.join(out, 'README.md'), 'utf8')).toContain(`package.json takes cdk8s-dynamo from a local build: \`../clone/dist/js/cdk8s-dynamo-${VERSION}.tgz\`.`);

  const missing = run(['eject', '--out', 'missing-app', '--package-source', 'nowhere.tgz', 'graph.yaml']);
  expect(missing).toEqual({
    code: 1, stdout: '', stderr: '--package-source: nowhere.tgz: no such file or directory (the local build of cdk8s-dynamo: see cdk8s-dynamo eject --help)\n',
  });
  expect(fs.existsSync(path.join(dir, 'missing-app'))).toBe(false);
  expect(run(['eject', '--package-source', 'nowhere.tgz', 'graph.yaml'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--package-source needs --out') });
});

test('--language L --out DIR writes the program of that language and the files of its project', () => {
  const expected = {
    python: ['README.md', 'cdk8s.yaml', 'main.py', 'requirements.txt'],
    java: ['Main.java', 'README.md', 'cdk8s.yaml', 'pom.xml'],
    go: ['README.md', 'cdk8s.yaml', 'go.mod', 'main.go'],
  };
  for (const [language, files] of Object.entries(expected)) {
    const r = run(['eject', '--language', language, '--out', `${language}-app`, 'graph.yaml']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '' });
    const out = path.join(dir, `${language}-app`);
    expect(fs.readdirSync(out).sort()).toEqual(files);
    const main = files.find(f => /^main\.|^Main\./.test(f))!;
    expect(fs.readFileSync(path.join(out, main), 'utf8')).toBe(run(['eject', '--language', language, 'graph.yaml']).stdout);
  }
  expect(fs.readFileSync(path.join(dir, 'python-app', 'requirements.txt'), 'utf8')).toBe(`cdk8s-dynamo==${VERSION}\n`);
  expect(fs.readFileSync(path.join(dir, 'go-app', 'go.mod'), 'utf8')).toContain('\nrequire github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo v');
});
