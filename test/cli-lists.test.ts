/**
 * The CLI reads what kubectl would send, in process: a list document (`kind: List`, as `kubectl get
 * dgd -o yaml` prints, nested lists too) is the objects it holds, each checked and rendered as a
 * document of its own; the same object twice among the inputs is refused naming both places; a
 * `--namespace` the API server would refuse is refused in every output mode; output that cannot
 * all be written is an error.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { CLI_FIXTURES } from './support/cli-binary';
import { runCliOn } from './support/cli-in-process';

const GRAPH_TEXT = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');
const ALPHA_TEXT = fs.readFileSync(path.join(CLI_FIXTURES, 'graph-v1alpha1.yaml'), 'utf8');
const GRAPH = parseAllDocuments(GRAPH_TEXT)[0].toJS();

/** The graph named `name`, as the cluster returns it (`kubectl get -o yaml`: status and server-set metadata). */
function stored(name: string): any {
  return {
    ...GRAPH,
    metadata: { name, namespace: 'team-a', resourceVersion: '42', uid: `uid-${name}`, generation: 1, creationTimestamp: '2026-01-01T00:00:00Z' },
    status: { state: 'successful' },
  };
}

/** A graph whose only component has a type the API server refuses (rule 43). */
function bad(name: string): any {
  return { ...GRAPH, metadata: { name }, spec: { ...GRAPH.spec, components: [{ ...GRAPH.spec.components[1], type: 'router' }] } };
}

const WIDGET = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } };

const list = (...items: unknown[]) => ({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items });

function docs(text: string): any[] {
  return parseAllDocuments(text).map(d => d.toJS());
}

const ids = (text: string): string[] => docs(text).map(d => `${d.kind}/${d.metadata.name}`);

describe('a list document is the objects it holds', () => {
  const FILES = {
    'got.yaml': stringify(list(stored('a'), stored('b'))),
    'nested.yaml': `${GRAPH_TEXT}---\n${stringify(list(WIDGET, list(stored('c'), list(), stored('d'))))}`,
    'bad-item.yaml': stringify(list(stored('a'), bad('x'))),
    'bad-nested.yaml': `${GRAPH_TEXT}---\n${stringify(list(list(stored('a'), bad('bad-y'))))}`,
    'typed.yaml': stringify({
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeploymentList',
      metadata: {},
      items: [{ metadata: { name: 'typed' }, spec: GRAPH.spec }, (({ apiVersion: _a, kind: _k, ...rest }) => rest)(bad('typed-bad'))],
    }),
    'shapes.yaml': stringify(list({ metadata: { name: 'nokind' } }, 'text', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, items: [] })),
    'not-a-list.yaml': stringify({ apiVersion: 'v1', kind: 'List', items: 'x' }),
  };
  const run = (...argv: string[]) => runCliOn(FILES, argv);

  test('kubectl get dgd -o yaml: each graph validated and rendered as a document of its own', () => {
    expect(run('validate', 'got.yaml')).toEqual({ code: 0, stdout: '', stderr: 'validated 2 objects in 1 file: ok\n' });
    const graph = run('render', 'got.yaml');
    expect(graph).toMatchObject({ code: 0, stderr: 'rendered 2 objects in 1 file: 2 objects (graph output)\n' });
    expect(ids(graph.stdout)).toEqual(['DynamoGraphDeployment/a', 'DynamoGraphDeployment/b']);
    // as written, status and all: the same as each item given as a document
    expect(docs(graph.stdout)).toEqual([stored('a'), stored('b')]);
    const components = run('render', '--output', 'components', 'got.yaml');
    expect(components.code).toBe(0);
    expect(ids(components.stdout)).toEqual([
      'DynamoComponentDeployment/a-frontend', expect.stringMatching(/^DynamoComponentDeployment\/a-decode-[0-9a-f]{8}$/),
      'DynamoComponentDeployment/b-frontend', expect.stringMatching(/^DynamoComponentDeployment\/b-decode-[0-9a-f]{8}$/),
    ]);
    // the same objects as the items written as documents of their own
    const asDocuments = runCliOn({ 'docs.yaml': [stored('a'), stored('b')].map(d => stringify(d)).join('---\n') }, ['render', '--output', 'workloads', 'docs.yaml']);
    expect(run('render', '--output', 'workloads', 'got.yaml')).toEqual(asDocuments);
  });

  test('nested lists are flattened in order; an empty one holds nothing', () => {
    const r = run('render', 'nested.yaml');
    expect(r.code).toBe(0);
    expect(ids(r.stdout)).toEqual(['DynamoGraphDeployment/llm', 'Widget/w', 'DynamoGraphDeployment/c', 'DynamoGraphDeployment/d']);
    expect(r.stderr).toBe('nested.yaml:28:5: document 2: items[0]: example.com/v1 Widget/w: passed through unchecked (no schema for this kind)\n'
      + 'rendered 4 objects in 1 file: 4 objects (graph output)\n');
    expect(run('validate', 'nested.yaml').stderr).toBe('nested.yaml:28:5: document 2: items[0]: example.com/v1 Widget/w: not checked (no schema for this kind)\n'
      + 'validated 4 objects in 1 file: ok\n');
  });

  test('the problems of an item name where it is: document N, then its path in the lists', () => {
    const r = run('validate', 'bad-item.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^bad-item\.yaml:42:11: document 1: items\[1\]: DynamoGraphDeployment\/x: spec\.components\[0\]\.type \(component "decode"\): Unsupported value: "router": .*\(rule 43\)$/),
    ]);
    const nested = run('render', '--output', 'workloads', 'bad-nested.yaml');
    expect(nested).toMatchObject({ code: 1, stdout: '' });
    expect(nested.stderr).toMatch(/^bad-nested\.yaml:69:15: document 2: items\[0\]\.items\[1\]: DynamoGraphDeployment\/bad-y: spec\.components\[0\]\.type .*\(rule 43\)\n$/);
  });

  test('items of a typed list (DynamoGraphDeploymentList) without kind and apiVersion are of the list\'s kind', () => {
    const r = run('validate', 'typed.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^typed\.yaml:30:11: document 1: items\[1\]: DynamoGraphDeployment\/typed-bad: spec\.components\[0\]\.type .*\(rule 43\)\n$/);
    const fixed = runCliOn({ 'typed.yaml': FILES['typed.yaml'].replace('type: router', 'type: decode') }, ['render', 'typed.yaml']);
    expect(fixed.code).toBe(0);
    expect(docs(fixed.stdout).map(d => [d.apiVersion, d.kind, d.metadata.name])).toEqual([
      ['nvidia.com/v1beta1', 'DynamoGraphDeployment', 'typed'], ['nvidia.com/v1beta1', 'DynamoGraphDeployment', 'typed-bad'],
    ]);
  });

  test('items that are no object kubectl could send, a non-list kind with items, items that are no list', () => {
    expect(run('render', 'shapes.yaml')).toEqual({
      code: 1,
      stdout: '',
      stderr: 'shapes.yaml:9:5: document 1: items[2] (ConfigMap/c): items: Invalid value: kubectl reads a document with an items field as a list of objects and drops everything else in it; '
        + 'a ConfigMap is not a list kind (KindList): remove items, or write the objects as documents of their own\n'
        + 'shapes.yaml:6:5: document 1: items[0]: kind: Required value: every object needs apiVersion and kind\n'
        + 'shapes.yaml:8:5: document 1: items[1]: not an object: a Kubernetes object is a mapping with apiVersion and kind\n',
    });
    expect(run('validate', 'not-a-list.yaml')).toEqual({
      code: 1, stdout: '', stderr: 'not-a-list.yaml:1:1: document 1 (List): items: Invalid value: string: must be a list of objects\n',
    });
  });

  test('validate --old kubectl-get.yaml: the stored graphs of the list are the ones FILE updates', () => {
    const sglang = { ...GRAPH, metadata: { name: 'b' }, spec: { ...GRAPH.spec, backendFramework: 'sglang' } };
    const r = runCliOn({ ...FILES, 'edit.yaml': stringify(sglang) }, ['validate', '--old', 'got.yaml', 'edit.yaml']);
    expect(r).toEqual({
      code: 1,
      stdout: '',
      stderr: 'edit.yaml:6:3: DynamoGraphDeployment/b: spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed after creation (rule 13)\n',
    });
  });

  test('convert and eject read the items too', () => {
    const alpha = docs(ALPHA_TEXT)[0];
    const files = { 'alpha-list.yaml': stringify(list(alpha, WIDGET)), 'alpha.yaml': ALPHA_TEXT };
    const converted = runCliOn(files, ['convert', 'alpha-list.yaml']);
    expect(converted.code).toBe(0);
    expect(docs(converted.stdout)).toEqual([...docs(runCliOn(files, ['convert', 'alpha.yaml']).stdout), WIDGET]);
    const ejected = runCliOn({ 'got.yaml': FILES['got.yaml'] }, ['eject', 'got.yaml']);
    expect(ejected.code).toBe(0);
    expect(ejected.stdout).toContain('const chart1 = new Chart(app, "a");');
    expect(ejected.stdout).toContain('const chart2 = new Chart(app, "b");');
  });
});

describe('the same object twice among the inputs', () => {
  const named = (name: string, namespace?: string) => stringify({ ...GRAPH, metadata: { name, ...(namespace ? { namespace } : {}) } });
  const FILES = {
    'a.yaml': named('llm'),
    'b.yaml': `${named('other')}---\n${stringify(list(WIDGET, { ...GRAPH, metadata: { name: 'llm' } }))}`,
    'ns.yaml': `${named('llm', 'team-a')}---\n${named('llm', 'team-b')}`,
    'team-a.yaml': named('llm', 'team-a'),
    'kinds.yaml': [
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'llm' } },
      { apiVersion: 'example.com/v1', kind: 'ConfigMap', metadata: { name: 'llm' } },
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'llm' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'llm-' } },
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { generateName: 'llm-' } },
    ].map(d => stringify(d)).join('---\n'),
    'cluster.yaml': [
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', namespace: 'x' } },
      { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name: 'r', namespace: 'y' } },
    ].map(d => stringify(d)).join('---\n'),
    'versions.yaml': `${GRAPH_TEXT}---\n${ALPHA_TEXT}`,
  };
  const run = (...argv: string[]) => runCliOn(FILES, argv);

  test('across files, a list item included: refused naming both places', () => {
    for (const command of ['validate', 'render', 'explain']) {
      const r = run(command, 'a.yaml', 'b.yaml');
      expect(r).toEqual({
        code: 1,
        stdout: '',
        stderr: expect.stringContaining('b.yaml:32:5: document 2: items[1] (DynamoGraphDeployment/llm): metadata.name: Duplicate value: "llm": the same object as a.yaml: document 1 (DynamoGraphDeployment/llm) '
          + '(group nvidia.com, kind DynamoGraphDeployment, namespace (none given), name llm); the API server keeps one of them (kubectl apply applies the second over the first): '
          + 'give each its own name, or remove one\n'),
      });
    }
  });

  test('in one file, and a v1alpha1 and a v1beta1 version of one graph', () => {
    expect(run('validate', 'a.yaml', 'a.yaml').stderr).toMatch(/^a\.yaml:1:1: document 1 \(DynamoGraphDeployment\/llm\): metadata\.name: Duplicate value: "llm": the same object as a\.yaml: document 1 /);
    const r = run('render', 'versions.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('versions.yaml:23:1: document 2 (DynamoGraphDeployment/llm): metadata.name: Duplicate value: "llm": the same object as versions.yaml: document 1 (DynamoGraphDeployment/llm)');
  });

  test('other namespaces, kinds or groups, and objects named by generateName, are other objects', () => {
    expect(run('validate', 'ns.yaml', 'a.yaml').code).toBe(0);
    expect(run('validate', 'kinds.yaml')).toEqual({ code: 0, stdout: '', stderr: expect.not.stringContaining('Duplicate') });
  });

  test('--namespace puts objects that name none in it; a cluster-scoped object has no namespace', () => {
    expect(run('render', 'a.yaml', 'team-a.yaml').code).toBe(0);
    const r = run('render', '--namespace', 'team-a', 'a.yaml', 'team-a.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('team-a.yaml:1:1: document 1 (DynamoGraphDeployment/llm): metadata.name: Duplicate value: "llm": the same object as a.yaml: document 1 (DynamoGraphDeployment/llm) '
      + '(group nvidia.com, kind DynamoGraphDeployment, namespace team-a, name llm)');
    expect(run('validate', 'cluster.yaml').stderr).toContain('cluster.yaml:7:1: document 2 (ClusterRole/r): metadata.name: Duplicate value: "r": the same object as cluster.yaml: document 1 (ClusterRole/r) '
      + '(group rbac.authorization.k8s.io, kind ClusterRole, cluster-scoped, name r)');
  });

  test('diff compares two versions of the same objects: only duplicates within one side are refused', () => {
    expect(run('diff', 'a.yaml', 'a.yaml')).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(run('diff', 'a.yaml', 'versions.yaml')).toMatchObject({ code: 1, stderr: expect.stringContaining('versions.yaml:23:1: document 2 (DynamoGraphDeployment/llm): metadata.name: Duplicate value') });
  });
});

describe('--namespace is a namespace name the API server accepts', () => {
  const message = '--namespace: Invalid value: "BAD NS": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or \'-\', '
    + 'and must start and end with an alphanumeric character (e.g. \'my-name\',  or \'123-abc\', regex used for validation is \'[a-z0-9]([-a-z0-9]*[a-z0-9])?\')\n';
  const FILES = { 'graph.yaml': GRAPH_TEXT };

  test.each([['graph'], ['components'], ['workloads']])('render --output %s: exit 1, one line, nothing rendered', output => {
    expect(runCliOn(FILES, ['render', '--output', output, '--namespace', 'BAD NS', 'graph.yaml'])).toEqual({ code: 1, stdout: '', stderr: message });
  });

  test('diff, and the other ways a label goes wrong', () => {
    expect(runCliOn(FILES, ['diff', '--namespace', 'BAD NS', 'graph.yaml', 'graph.yaml'])).toEqual({ code: 1, stdout: '', stderr: message });
    expect(runCliOn(FILES, ['render', '--namespace', 'a.b', 'graph.yaml'])).toEqual({ code: 1, stdout: '', stderr: '--namespace: Invalid value: "a.b": must not contain dots\n' });
    expect(runCliOn(FILES, ['render', '--namespace', 'a'.repeat(64), 'graph.yaml']).stderr).toMatch(/^--namespace: Invalid value: "a{64}": must be no more than 63 characters\n$/);
    expect(runCliOn(FILES, ['render', '--namespace', 'team-a', 'graph.yaml']).code).toBe(0);
  });
});

// standard output that cannot all be written (a full disk, a file size limit) is tested on the binary,
// where the system refuses the write: cli-binary.test.ts and cli-output-binary.test.ts
