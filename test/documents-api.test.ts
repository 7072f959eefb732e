import { parseAllDocuments } from 'yaml';
import { DynamoDocuments, OutputMode, RenderYamlOptions } from '../src/index';
import { runCliOn } from './support/cli-in-process';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

const container = `      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
`;
const GRAPH = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: llm
spec:
  backendFramework: vllm
  components:
    - name: Frontend
      type: frontend
${container}    - name: decode
      type: decode
${container}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
data:
  a: b
`;
const BAD = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: bad
spec:
  components:
    - name: w
      type: router
${container}    - name: w2
      type: worker
      replicas: -1
${container}`;
// providerOverride needs the Grove provider (admission rule 82): validation depends on the operator
const GROVE_OVERRIDE = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: pinned
spec:
  components:
    - name: Frontend
      type: frontend
      providerOverride:
        apiVersion: grove.io/v1alpha1
        value:
          topologyConstraint:
            packDomain: rack
${container}`;
const BAD_CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: odd
data:
  a: [1]
`;
const NO_KIND = 'apiVersion: v1\nmetadata:\n  name: x\n';
const BROKEN = 'a: [\n';

/** What the command prints for one file: exit code, standard output, problem lines (notices left out). */
function cli(argv: string[], file: string, text: string) {
  const { code, stdout, stderr } = runCliOn({ [file]: text }, [...argv, file]);
  const problems = stderr.split('\n')
    .filter(line => line !== '' && !/\((no schema for this kind)\)$/.test(line) && !/^validated \d+ objects? in \d+ files?: ok$/.test(line))
    .map(withoutPosition);
  return { code, stdout, problems };
}

/** A problem without where in the file it is: the CLI starts it `file:line:column:`, the YAML reader says `at line L, column C`. */
function withoutPosition(line: string): string {
  return line.replace(/^([^:\s]+):\d+:\d+: /, '$1: ').replace(/ at line \d+, column \d+/, '');
}

/** The message of the error `f` throws. */
function thrown(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('nothing thrown');
}

describe('DynamoDocuments.validateYaml', () => {
  test('valid documents have no problems', () => {
    expect(DynamoDocuments.validateYaml(GRAPH)).toEqual([]);
  });

  test('one line per broken rule, named after the source, as the command prints them', () => {
    const problems = DynamoDocuments.validateYaml(BAD, { source: 'bad.yaml' });
    expect(problems).toEqual([
      'bad.yaml: DynamoGraphDeployment/bad: spec.components[0].type (component "w"): Unsupported value: "router": supported values: "frontend", "worker", "prefill", "decode", "planner", "epp" (rule 43)',
      expect.stringMatching(/^bad\.yaml: DynamoGraphDeployment\/bad: spec\.components\[1\]\.replicas \(component "w2"\): .*\(rule \d+\)$/),
    ]);
    expect(DynamoDocuments.validateYaml(BAD)[0]).toMatch(/^input: DynamoGraphDeployment\/bad: /);
  });

  test.each([
    ['a valid graph', GRAPH, []],
    ['an invalid graph', BAD, []],
    ['a graph the operator admits only with Grove, without Grove', GROVE_OVERRIDE, []],
    ['a graph the operator admits only with Grove, with Grove', GROVE_OVERRIDE, ['--grove']],
    ['a known kind that breaks its schema', BAD_CONFIG_MAP, []],
    ['a document without kind', NO_KIND, []],
    ['text that is not YAML', BROKEN, []],
  ])('%s: the same problems as `cdk8s-dynamo validate`', (_label, text, flags) => {
    const operator = flags.includes('--grove') ? { groveAvailable: true } : {};
    const expected = cli(['validate', ...flags], 'file.yaml', text);
    const problems = DynamoDocuments.validateYaml(text, { source: 'file.yaml', operator });
    expect(problems.map(withoutPosition)).toEqual(expected.problems);
    expect(problems.length > 0).toBe(expected.code === 1);
  });

  test('the operator decides the rules', () => {
    expect(DynamoDocuments.validateYaml(GROVE_OVERRIDE, { operator: { groveAvailable: true } })).toEqual([]);
    expect(DynamoDocuments.validateYaml(GROVE_OVERRIDE).join('\n')).toMatch(/providerOverride/);
  });

  test('invalid operator options throw, naming the option', () => {
    expect(thrown(() => DynamoDocuments.validateYaml(GRAPH, { operator: { discoveryBackend: 'zookeeper' } })))
      .toMatch(/^operator\.discoveryBackend: Unsupported value: "zookeeper"/);
  });
});

describe('DynamoDocuments.renderYaml', () => {
  const modes: Array<[string, RenderYamlOptions, string[]]> = [
    ['graph output (the default)', {}, []],
    ['components output', { output: OutputMode.COMPONENTS, namespace: 'team-a' }, ['--output', 'components', '--namespace', 'team-a']],
    ['workloads output', { output: OutputMode.WORKLOADS }, ['--output', 'workloads']],
    ['workloads output with Grove', { output: OutputMode.WORKLOADS, operator: { groveAvailable: true } }, ['--output', 'workloads', '--grove']],
  ];
  test.each(modes)('%s: the bytes `cdk8s-dynamo render` writes', (_label, options, flags) => {
    const expected = cli(['render', ...flags], 'graph.yaml', GRAPH);
    expect(expected.code).toBe(0);
    expect(DynamoDocuments.renderYaml(GRAPH, options)).toBe(expected.stdout);
  });

  test('each output mode renders what it names', () => {
    const kinds = (options: RenderYamlOptions) => parseAllDocuments(DynamoDocuments.renderYaml(GRAPH, options)).map(d => d.toJS().kind);
    expect(kinds({ output: OutputMode.GRAPH })).toEqual(['DynamoGraphDeployment', 'ConfigMap']);
    expect(kinds({ output: OutputMode.COMPONENTS })).toEqual(['DynamoComponentDeployment', 'DynamoComponentDeployment', 'ConfigMap']);
    expect(kinds({ output: OutputMode.WORKLOADS })).toEqual(expect.arrayContaining(['DynamoComponentDeployment', 'Deployment', 'Service', 'ConfigMap']));
  });

  test.each([
    ['an invalid graph', BAD, []],
    ['text that is not YAML', BROKEN, []],
    ['a document without kind', NO_KIND, []],
    ['a graph the operator admits only with Grove', GROVE_OVERRIDE, ['--output', 'workloads']],
  ])('%s: throws the problems `cdk8s-dynamo render` prints, one per line', (_label, text, flags) => {
    const expected = cli(['render', ...flags], 'in.yaml', text);
    expect(expected.code).toBe(1);
    const output = flags.includes('workloads') ? OutputMode.WORKLOADS : undefined;
    expect(thrown(() => DynamoDocuments.renderYaml(text, { source: 'in.yaml', output })).split('\n').map(withoutPosition)).toEqual(expected.problems);
  });

  test('a graph without a name cannot be rendered in components output', () => {
    const unnamed = GRAPH.replace('  name: llm\n', '  generateName: llm-\n');
    expect(thrown(() => DynamoDocuments.renderYaml(unnamed, { output: OutputMode.COMPONENTS })))
      .toMatch(/^input: DynamoGraphDeployment\/: metadata\.name: Required value: /);
  });
});

describe('lists, duplicates and the namespace, as the command reads them', () => {
  /** The graph and the config map of GRAPH as the items of a kind: List (what `kubectl get -o yaml` prints). */
  const LIST = `apiVersion: v1
kind: List
items:
${parseAllDocuments(GRAPH).map(d => `- ${JSON.stringify(d.toJSON())}`).join('\n')}
`;

  test('the items of a List are validated and rendered as the documents they hold', () => {
    expect(DynamoDocuments.validateYaml(LIST)).toEqual([]);
    const components = { output: OutputMode.COMPONENTS };
    expect(DynamoDocuments.renderYaml(LIST, components)).toBe(DynamoDocuments.renderYaml(GRAPH, components));
    const broken = LIST.replace('"type":"decode"', '"type":"router"');
    expect(DynamoDocuments.validateYaml(broken, { source: 'l.yaml' })[0]).toMatch(/^l\.yaml: document 1: items\[0\]: DynamoGraphDeployment\/llm: spec\.components\[1\]\.type .*\(rule 43\)$/);
    expect(cli(['validate'], 'l.yaml', broken).problems).toEqual(DynamoDocuments.validateYaml(broken, { source: 'l.yaml' }));
  });

  test('the same object twice is refused, as the command refuses it', () => {
    const twice = `${GRAPH}---\n${GRAPH}`;
    const problems = DynamoDocuments.validateYaml(twice, { source: 'd.yaml' });
    expect(problems[0]).toMatch(/^d\.yaml: document 3 \(DynamoGraphDeployment\/llm\): metadata\.name: Duplicate value: "llm": the same object as d\.yaml: document 1/);
    expect(problems).toEqual(cli(['validate'], 'd.yaml', twice).problems);
    expect(thrown(() => DynamoDocuments.renderYaml(twice))).toMatch(/Duplicate value/);
  });

  test('a namespace that is not a DNS label is refused before anything is rendered', () => {
    expect(thrown(() => DynamoDocuments.renderYaml(GRAPH, { namespace: 'BAD NS' }))).toMatch(/^namespace: Invalid value: "BAD NS": a lowercase RFC 1123 label must/);
  });
});
