import { parseAllDocuments } from 'yaml';
import { runCli } from '../src/cli/main';

const FILES: Record<string, string> = {
  'graph.yaml': `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: llm
spec:
  backendFramework: vllm
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
    - name: decode
      type: decode
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
data:
  a: b
---
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
`,
  'bad.yaml': `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: bad
spec:
  components:
    - name: w
      type: router
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
`,
  'broken.yaml': 'a: [\n',
};

function run(...argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = runCli(argv, {
    stdout: t => { stdout += t; },
    stderr: t => { stderr += t; },
    readFile: p => {
      if (!(p in FILES)) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return FILES[p];
    },
  });
  return { code, stdout, stderr, docs: parseAllDocuments(stdout).map(d => d.toJS()) };
}

describe('cdk8s-dynamo render', () => {
  test('graph output keeps every document in input order', () => {
    const r = run('render', 'graph.yaml');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.docs.map((d: any) => `${d.kind}/${d.metadata.name}`)).toEqual(['DynamoGraphDeployment/llm', 'ConfigMap/extra', 'Namespace/team-a']);
    expect(r.docs[1]).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' }, data: { a: 'b' } });
  });

  test('--namespace sets the namespace of namespaced objects that have none', () => {
    const r = run('render', '--namespace', 'team-a', 'graph.yaml');
    expect(r.docs.map((d: any) => d.metadata.namespace)).toEqual(['team-a', 'team-a', undefined]);
  });

  test('--output components replaces the graph by its DCDs', () => {
    const r = run('render', '--output=components', '--namespace', 'team-a', 'graph.yaml');
    expect(r.code).toBe(0);
    expect(r.docs.map((d: any) => d.kind)).toEqual(['DynamoComponentDeployment', 'DynamoComponentDeployment', 'ConfigMap', 'Namespace']);
    expect(r.docs[0].metadata.name).toBe('llm-frontend');
    expect(r.docs[1].metadata.name).toMatch(/^llm-decode-[0-9a-f]{8}$/);
  });

  test('output is byte-identical across runs', () => {
    expect(run('render', '--output', 'components', 'graph.yaml').stdout).toBe(run('render', '--output', 'components', 'graph.yaml').stdout);
  });

  test('invalid input: exit 1, nothing on stdout, FILE: Kind/name: field: message', () => {
    const r = run('render', 'graph.yaml', 'bad.yaml');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      'bad.yaml: DynamoGraphDeployment/bad: spec.components[0].type: Unsupported value: "router": supported values: "frontend", "worker", "prefill", "decode", "planner", "epp" (rule 43)',
    ]);
  });

  test('a missing file is one clear line', () => {
    const r = run('render', 'missing.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('missing.yaml: cannot read file: ENOENT\n');
  });

  test('bad YAML is one clear line with its position', () => {
    const r = run('validate', 'broken.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^broken\.yaml: invalid YAML at line \d+, column \d+: /);
  });

  test('usage errors exit 2', () => {
    expect(run().code).toBe(2);
    expect(run('render').code).toBe(2);
    expect(run('render', '--output', 'workloads', 'graph.yaml').stderr).toMatch(/--output must be one of graph, components/);
    expect(run('validate', '--bogus', 'graph.yaml').code).toBe(2);
  });
});

describe('cdk8s-dynamo validate', () => {
  test('valid input exits 0 silently', () => {
    const r = run('validate', 'graph.yaml');
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  test('every violation of every file is reported', () => {
    const r = run('validate', 'bad.yaml', 'bad.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
  });
});
