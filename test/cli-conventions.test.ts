/**
 * The conventions of the command line as users and scripts meet them, through the spawned
 * `bin/cdk8s-dynamo` (it runs the compiled `lib/`, so `npx projen compile` comes first):
 * `--operator-version`, `validate --output json` (docs/cli-json.md), `diff --exit-code`, the summary
 * line of `render` and `validate` (`--quiet`), "did you mean" and v1alpha1 hints for unknown
 * fields, and `file:line:column` at the start of every message about a place in a file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { BinaryRun, binaryWorkdir, CLI_FIXTURES, runBinary } from './support/cli-binary';

const GRAPH = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');
const ALPHA = fs.readFileSync(path.join(CLI_FIXTURES, 'graph-v1alpha1.yaml'), 'utf8');
const ORIGIN_VERSION = 'nvidia.com/dynamo-operator-origin-version';
/** The operator versions the library renders for, as the command lists them (a version added or dropped changes every message below). */
const SUPPORTED = '1.4.0, 1.5.0, 1.6.0';

/** The graph with three unknown fields in its decode component: a v1alpha1 spelling, a misspelling, a field of nothing. */
const TYPOS = GRAPH.replace('      type: decode\n', '      type: decode\n      componentType: worker\n      replica: 2\n      foo: 1\n');

let dir: string;

beforeAll(() => {
  dir = binaryWorkdir('conventions');
  const files: Record<string, string> = {
    'graph.yaml': GRAPH,
    'typos.yaml': TYPOS,
    'bad.yaml': GRAPH.replace('type: decode', 'type: router'),
    'alpha.yaml': ALPHA,
    'alpha-bad.yaml': ALPHA.replace('componentType: frontend', 'componentType: frontend\n      replicas: -1'),
    'replicas.yaml': GRAPH.replace('      type: frontend\n', '      type: frontend\n      replicas: 2\n'),
    'adapted.yaml': GRAPH.replace('      type: frontend\n', '      type: frontend\n      scalingAdapter: {}\n'),
    'adapted-replicas.yaml': GRAPH.replace('      type: frontend\n', '      type: frontend\n      scalingAdapter: {}\n      replicas: 2\n'),
    'list.yaml': 'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: ConfigMap\n    metadata: {name: a}\n    dat: {a: b}\n',
    'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b}\n',
    'secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  token: "hunter2-not-base64!"\n',
    'op-1.5.yaml': 'operatorVersion: "1.5.0"\n',
    'op-number.yaml': 'operatorVersion: 1.4\n',
    'op-1.10.yaml': 'discovery:\n  backend: kubernetes\noperatorVersion: 1.10\n',
  };
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  fs.mkdirSync(path.join(dir, 'manifests'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const run = (...args: string[]): BinaryRun => runBinary(dir, args);

/** The operator version stamped on the component deployments `render --output components` writes. */
function stampedVersion(r: BinaryRun): string[] {
  expect(r.code).toBe(0);
  return parseAllDocuments(r.stdout).map(d => d.toJS().spec.podTemplate.metadata.annotations[ORIGIN_VERSION]);
}

describe('--operator-version', () => {
  test('sets the operator version, over the configuration file', () => {
    expect(stampedVersion(run('render', '--output', 'components', '--operator-version', '1.4.0', 'graph.yaml'))).toEqual(['1.4.0', '1.4.0']);
    expect(stampedVersion(run('render', '--output', 'components', '--operator-config', 'op-1.5.yaml', 'graph.yaml'))).toEqual(['1.5.0', '1.5.0']);
    expect(stampedVersion(run('render', '--output', 'components', '--operator-config', 'op-1.5.yaml', '--operator-version', '1.4.0', 'graph.yaml')))
      .toEqual(['1.4.0', '1.4.0']);
  });

  test.each([['validate'], ['explain'], ['diff']])('%s takes it too', command => {
    const files = command === 'diff' ? ['graph.yaml', 'graph.yaml'] : ['graph.yaml'];
    expect(run(command, '--operator-version', '1.4.0', ...files).code).toBe(0);
  });

  test.each([['1.2.0', 'is not supported'], ['banana', 'must be a semantic version']])('%s is a usage error listing the supported versions', (version, why) => {
    const r = run('validate', '--operator-version', version, 'graph.yaml');
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.split('\n')[0]).toContain('cdk8s-dynamo: --operator-version: ');
    expect(r.stderr.split('\n')[0]).toContain(why);
    expect(r.stderr.split('\n')[0]).toContain(SUPPORTED);
  });

  test('an unquoted operatorVersion: 1.4 in the configuration file is 1.4.0; 1.10 (a YAML number, 1.1) is refused at its line', () => {
    expect(stampedVersion(run('render', '--output', 'components', '--operator-config', 'op-number.yaml', 'graph.yaml'))).toEqual(['1.4.0', '1.4.0']);
    const r = run('validate', '--operator-config', 'op-1.10.yaml', 'graph.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('op-1.10.yaml:3:1: operatorVersion: must be a string, got the number 1.1 (YAML reads an unquoted version as a number: 1.10 as 1.1): '
      + `quote it, as in operatorVersion: "1.5.0"; versions rendered: ${SUPPORTED}\n`);
  });

  test('the help names the option and the supported versions', () => {
    expect(run('validate', '--help').stdout).toContain(`  --operator-version V     the operator version to check and render for (${SUPPORTED}; default: 1.5.0)\n`);
  });
});

describe('the summary line on standard error, --quiet', () => {
  test('validate and render say what they did; standard output stays the rendering', () => {
    expect(run('validate', 'graph.yaml', 'cm.yaml')).toMatchObject({ code: 0, stderr: 'validated 3 objects in 2 files: ok\n' });
    const r = run('render', '--output', 'components', 'graph.yaml');
    expect(r.stderr).toBe('rendered 1 object in 1 file: 2 objects (components output)\n');
    expect(parseAllDocuments(r.stdout)).toHaveLength(2);
    const out = path.join(dir, 'dist');
    expect(run('render', '--out', out, 'graph.yaml').stderr).toBe(`rendered 1 object in 1 file: 1 object (graph output) written to ${out}\n`);
  });

  test('--quiet silences it', () => {
    expect(run('validate', '--quiet', 'graph.yaml')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(run('render', '--quiet', 'graph.yaml')).toMatchObject({ code: 0, stderr: '' });
  });

  test('there is none after a failure', () => {
    expect(run('validate', 'bad.yaml').stderr).not.toMatch(/validated/);
  });
});

describe('unknown fields: did you mean, and v1alpha1 spellings', () => {
  test('each line starts file:line:column, and says how to fix the field', () => {
    const r = run('validate', 'typos.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split('\n')).toEqual([
      'typos.yaml:17:7: DynamoGraphDeployment/llm: spec.components[1].componentType (component "decode"): unknown field "spec.components[1].componentType" (rule schema); '
        + 'this is a v1alpha1 field; in v1beta1 it is type; `cdk8s-dynamo convert` rewrites a v1alpha1 file',
      'typos.yaml:18:7: DynamoGraphDeployment/llm: spec.components[1].replica (component "decode"): unknown field "spec.components[1].replica" (rule schema); did you mean "replicas"?',
      'typos.yaml:19:7: DynamoGraphDeployment/llm: spec.components[1].foo (component "decode"): unknown field "spec.components[1].foo" (rule schema)',
    ]);
  });

  test('in objects of Kubernetes kinds and list items too', () => {
    expect(run('validate', 'list.yaml').stderr).toBe('list.yaml:7:5: document 1: items[0]: ConfigMap/a: dat: unknown field "dat" (rule schema); did you mean "data"?\n');
  });
});

describe('file:line:column', () => {
  test('a rule broken by a field is at the field', () => {
    expect(run('validate', 'bad.yaml').stderr).toMatch(/^bad\.yaml:16:7: DynamoGraphDeployment\/llm: spec\.components\[1\]\.type \(component "decode"\): Unsupported value: "router"/);
  });

  test('a v1alpha1 document, converted first, is placed at the document (its v1beta1 paths are not in the file)', () => {
    const r = run('validate', 'alpha-bad.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^alpha-bad\.yaml:1:1: DynamoGraphDeployment\/llm: spec\.components\[0\]\.replicas/m);
  });

  test('bad YAML', () => {
    fs.writeFileSync(path.join(dir, 'broken.yaml'), 'a: b\nc: [\n');
    expect(run('validate', 'broken.yaml').stderr).toMatch(/^broken\.yaml:\d+:\d+: invalid YAML: /);
  });
});

describe('validate --output json (docs/cli-json.md)', () => {
  test('the schema: per file its objects and their violations, file problems, a summary', () => {
    const r = run('validate', '--output', 'json', 'typos.yaml', 'graph.yaml', 'missing.yaml');
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout);
    expect(report).toEqual({
      schemaVersion: 1,
      ok: false,
      files: [
        {
          path: 'typos.yaml',
          ok: false,
          objects: [{
            apiVersion: 'nvidia.com/v1beta1',
            kind: 'DynamoGraphDeployment',
            name: 'llm',
            namespace: null,
            place: 'document 1',
            line: 1,
            column: 1,
            checked: true,
            ok: false,
            violations: [
              {
                path: 'spec.components[1].componentType',
                component: 'decode',
                value: 'worker',
                rule: 'schema',
                message: 'unknown field "spec.components[1].componentType"',
                hint: 'this is a v1alpha1 field; in v1beta1 it is type; `cdk8s-dynamo convert` rewrites a v1alpha1 file',
                line: 17,
                column: 7,
              },
              {
                path: 'spec.components[1].replica',
                component: 'decode',
                value: 2,
                rule: 'schema',
                message: 'unknown field "spec.components[1].replica"',
                hint: 'did you mean "replicas"?',
                line: 18,
                column: 7,
              },
              { path: 'spec.components[1].foo', component: 'decode', value: 1, rule: 'schema', message: 'unknown field "spec.components[1].foo"', line: 19, column: 7 },
            ],
          }],
          problems: [],
        },
        {
          path: 'graph.yaml',
          ok: false,
          objects: [{
            apiVersion: 'nvidia.com/v1beta1',
            kind: 'DynamoGraphDeployment',
            name: 'llm',
            namespace: null,
            place: 'document 1',
            line: 1,
            column: 1,
            checked: true,
            ok: true,
            violations: [],
          }],
          problems: [{ message: expect.stringMatching(/^document 1 \(DynamoGraphDeployment\/llm\): metadata\.name: Duplicate value: "llm": the same object as typos\.yaml/), line: 1, column: 1 }],
        },
        { path: 'missing.yaml', ok: false, objects: [], problems: [{ message: 'cannot read missing.yaml: no such file' }] },
      ],
      problems: [],
      summary: { files: 3, objects: 2, invalidObjects: 1, violations: 3, problems: 2 },
    });
    // the report is the whole of standard output; standard error has no summary line
    expect(r.stderr).toBe('');
  });

  test('valid input: ok, exit 0', () => {
    const r = run('validate', '--output', 'json', 'graph.yaml');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report).toMatchObject({ schemaVersion: 1, ok: true, problems: [] });
    expect(report.summary).toEqual({ files: 1, objects: 1, invalidObjects: 0, violations: 0, problems: 0 });
    expect(report.files[0]).toMatchObject({ path: 'graph.yaml', ok: true, problems: [] });
  });

  test('a Secret\'s value is never in it', () => {
    const r = run('validate', '--output', 'json', 'secret.yaml');
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('hunter2');
    const [violation] = JSON.parse(r.stdout).files[0].objects[0].violations;
    expect(violation).toEqual({ path: 'data[token]', rule: 'schema', message: expect.stringContaining('(the value of a Secret is not shown)'), line: 5, column: 3 });
  });

  test('a problem of the operator configuration is a problem of the run, not of a file', () => {
    const r = run('validate', '--output', 'json', '--operator-config', 'op-1.10.yaml', 'graph.yaml');
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, files: [{ path: 'graph.yaml', ok: false, objects: [], problems: [] }], problems: [{ message: expect.stringMatching(/^op-1\.10\.yaml:3:1: operatorVersion: /) }] });
  });

  test('--output takes text or json', () => {
    expect(run('validate', '--output', 'text', 'graph.yaml').code).toBe(0);
    expect(run('validate', '--output', 'yaml', 'graph.yaml')).toMatchObject({ code: 2, stderr: expect.stringContaining('--output must be one of text, json, got "yaml"') });
  });
});

describe('diff --exit-code', () => {
  test('0 without differences, 1 with, as git diff --exit-code', () => {
    expect(run('diff', '--exit-code', 'graph.yaml', 'graph.yaml')).toEqual({ code: 0, stdout: '', stderr: '' });
    const r = run('diff', '--exit-code', 'graph.yaml', 'replicas.yaml');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('~ Deployment/default/llm-frontend: spec.replicas\n');
    // without the option, differences are no failure
    expect(run('diff', 'graph.yaml', 'replicas.yaml').code).toBe(0);
  });

  test('2 for every error: an edit the API server refuses, invalid input, a missing file, a usage error', () => {
    const refused = run('diff', '--exit-code', 'adapted.yaml', 'adapted-replicas.yaml');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^adapted-replicas\.yaml:\d+:\d+: DynamoGraphDeployment\/llm: spec\.components\[0\]\.replicas .*\(rule 66\)\n$/);
    expect(run('diff', 'adapted.yaml', 'adapted-replicas.yaml').code).toBe(1);
    expect(run('diff', '--exit-code', 'graph.yaml', 'bad.yaml').code).toBe(2);
    expect(run('diff', '--exit-code', 'graph.yaml', 'missing.yaml')).toMatchObject({ code: 2, stderr: 'cannot read missing.yaml: no such file\n' });
    expect(run('diff', '--exit-code', 'graph.yaml').code).toBe(2);
  });

  test('the help has the table of exit codes', () => {
    const help = run('diff', '--help').stdout;
    expect(help).toContain('with --exit-code: 0 no difference; 1 differences; 2 invalid input');
    expect(help).toContain('--exit-code              exit 1 when OLD and NEW differ');
  });
});

describe('files that cannot be read', () => {
  test('a directory names the glob to use instead', () => {
    expect(run('validate', 'manifests')).toEqual({
      code: 1, stdout: '', stderr: 'cannot read manifests: it is a directory (give a YAML file, or use a shell glob: manifests/*.yaml)\n',
    });
  });
});
