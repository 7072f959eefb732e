import { runCliOn } from './support/cli-in-process';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

/** How a test graph differs from the base one: `extra` is appended to the decode component, `specExtra` to the spec. */
interface GraphOptions {
  readonly name?: string;
  readonly namespace?: string;
  readonly backend?: string;
  readonly extra?: string;
  readonly specExtra?: string;
  readonly metadataExtra?: string;
}

/** A graph manifest: a frontend and a decode worker. */
function graph(options: GraphOptions = {}): string {
  const namespace = options.namespace ? `\n  namespace: ${options.namespace}` : '';
  return `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: ${options.name ?? 'llm'}${namespace}${options.metadataExtra ?? ''}
spec:
  backendFramework: ${options.backend ?? 'vllm'}${options.specExtra ?? ''}
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
    - name: decode
      type: decode${options.extra ?? ''}
      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
`;
}

const CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
data:
  a: b
`;

const FILES: Record<string, string> = {
  'old.yaml': `${graph()}---\n${CONFIG_MAP}---\n${graph({ name: 'gone' })}`,
  'same.yaml': `${graph()}---\n${CONFIG_MAP}`,
  'restart.yaml': graph({ specExtra: '\n  restart:\n    id: r1' }),
  'other-restart.yaml': graph({ name: 'fresh', specExtra: '\n  restart:\n    id: r1' }),
  'backend.yaml': graph({ backend: 'sglang' }),
  'stored.yaml': graph({ namespace: 'team-a', metadataExtra: '\n  resourceVersion: "7"\n  annotations:\n    nvidia.com/workload-provider: component' }),
  'scaled-old.yaml': graph({ extra: '\n      scalingAdapter: {}\n      replicas: 2' }),
  'scaled-new.yaml': graph({ extra: '\n      scalingAdapter: {}\n      replicas: 3' }),
  'twice.yaml': `${graph({ namespace: 'a' })}---\n${graph({ namespace: 'b' })}`,
  'broken.yaml': 'a: [\n',
};

function run(...argv: string[]) {
  const { code, stdout, stderr } = runCliOn(FILES, argv);
  return { code, stdout, stderr, lines: stderr.trim() === '' ? [] : stderr.trim().split('\n') };
}

/** Standard error of a successful validate: its summary line only. */
const VALIDATED = expect.stringMatching(/^validated \d+ objects? in 1 file: ok\n$/);

const CREATE_ONLY_RESTART = 'spec: Invalid value: "object": spec.restart must be unset on create; set spec.restart.id after creation to request a restart (rule 11)';

describe('cdk8s-dynamo validate --old (update validation)', () => {
  test('an allowed update exits 0 silently', () => {
    expect(run('validate', '--old', 'old.yaml', 'same.yaml')).toMatchObject({ code: 0, stdout: '', stderr: 'validated 2 objects in 1 file: ok\n' });
    // spec.restart is how a restart is requested after creation
    expect(run('validate', '--old', 'old.yaml', 'restart.yaml')).toMatchObject({ code: 0, stderr: VALIDATED });
  });

  test('a forbidden update: exit 1, nothing on stdout, FILE: Kind/name: field: message (rule N)', () => {
    const r = run('validate', '--old', 'old.yaml', 'backend.yaml');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.lines).toEqual([
      'backend.yaml:6:3: DynamoGraphDeployment/llm: spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed after creation (rule 13)',
    ]);
  });

  test('a document without a match in OLD is a create', () => {
    expect(run('validate', 'restart.yaml').lines).toEqual([`restart.yaml:5:1: DynamoGraphDeployment/llm: ${CREATE_ONLY_RESTART}`]);
    expect(run('validate', '--old', 'old.yaml', 'other-restart.yaml').lines).toEqual([
      expect.stringMatching(/^other-restart\.yaml:\d+:1: DynamoGraphDeployment\/fresh: spec: Invalid value: "object": spec\.restart must be unset on create/),
    ]);
  });

  test('documents of OLD that FILE does not mention are ignored (a deletion is not an update)', () => {
    // old.yaml also holds DynamoGraphDeployment/gone and a ConfigMap
    expect(run('validate', '--old', 'old.yaml', 'restart.yaml').code).toBe(0);
  });

  test('a stored object with a namespace pairs with a manifest without one', () => {
    expect(run('validate', '--old', 'stored.yaml', 'restart.yaml')).toMatchObject({ code: 0, stderr: 'validated 1 object in 1 file: ok\n' });
    expect(run('validate', '--old', 'stored.yaml', 'backend.yaml').lines).toEqual([
      'backend.yaml:6:3: DynamoGraphDeployment/llm: spec.backendFramework: Invalid value: "sglang": is immutable and cannot be changed after creation (rule 13)',
    ]);
  });

  test('a document matching several documents of OLD is one clear line', () => {
    const r = run('validate', '--old', 'twice.yaml', 'same.yaml');
    expect(r.code).toBe(1);
    expect(r.lines).toEqual([
      'same.yaml:1:1: DynamoGraphDeployment/llm: matches 2 documents of twice.yaml; the old objects must be given once each',
    ]);
  });

  test('--as names the user sending the update (rule 66)', () => {
    const forbidden = run('validate', '--old', 'scaled-old.yaml', 'scaled-new.yaml');
    expect(forbidden.code).toBe(1);
    expect(forbidden.lines).toEqual([
      'scaled-new.yaml:18:7: DynamoGraphDeployment/llm: spec.components[1].replicas (component "decode"): Forbidden: cannot be modified directly when scaling adapter is enabled; ' +
        'scale or update the related DynamoGraphDeploymentScalingAdapter instead (rule 66)',
    ]);
    const planner = run('validate', '--old', 'scaled-old.yaml', '--as', 'system:serviceaccount:team-a:planner-serviceaccount', 'scaled-new.yaml');
    expect(planner).toMatchObject({ code: 0, stderr: VALIDATED });
  });
});

describe('cdk8s-dynamo validate --old: bad OLD files and usage', () => {
  test('a missing OLD file is one clear line and nothing is validated', () => {
    const r = run('validate', '--old', 'missing.yaml', 'backend.yaml');
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('cannot read missing.yaml: no such file\n');
  });

  test('bad YAML in OLD is one clear line with its position', () => {
    const r = run('validate', '--old', 'broken.yaml', 'backend.yaml');
    expect(r.code).toBe(1);
    expect(r.lines).toHaveLength(1);
    expect(r.stderr).toMatch(/^broken\.yaml:\d+:\d+: invalid YAML: /);
  });

  test('problems of OLD and FILE are all reported', () => {
    const r = run('validate', '--old', 'missing.yaml', 'missing-too.yaml');
    expect(r.lines).toEqual(['cannot read missing.yaml: no such file', 'cannot read missing-too.yaml: no such file']);
  });

  test('usage errors exit 2', () => {
    expect(run('validate', '--old').stderr).toMatch(/--old needs a value/);
    expect(run('validate', '--old', 'old.yaml', '--old', 'old.yaml', 'same.yaml').stderr).toMatch(/--old can be given once/);
    expect(run('render', '--old', 'old.yaml', 'same.yaml').code).toBe(2);
    expect(run('render', '--as', 'jane', 'same.yaml').code).toBe(2);
    expect(run('validate', '--old', 'old.yaml').stderr).toMatch(/no input FILE given/);
    expect(run('validate', '--as', 'jane', 'same.yaml').stderr).toMatch(/--as needs --old/);
  });

  test('the usage text names --old and --as', () => {
    const { stderr } = run();
    expect(stderr).toContain('cdk8s-dynamo validate [--old OLD [--as USER]] [--output text|json] [--quiet] [OPERATOR...] FILE...');
    expect(stderr).toContain('--old OLD');
    expect(stderr).toContain('--as USER');
  });
});
