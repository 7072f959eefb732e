/**
 * `cdk8s-dynamo diff OLD NEW`: the objects that differ between two renderings, their changed fields
 * and whether the change restarts pods (pod templates, worker-hash rollouts).
 */
import * as fs from 'fs';
import * as path from 'path';
import { runCliOn } from './support/cli-in-process';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

interface Component {
  name: string;
  type: string;
  extra?: string;
  container?: string;
}

/** A graph `llm` (namespace ai) of the given components. */
function graph(components: Component[], meta = ''): string {
  return `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: llm
  namespace: ai
${meta}spec:
  backendFramework: vllm
  components:
${components.map(c => `    - name: ${c.name}
      type: ${c.type}
${c.extra ?? ''}      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
${c.container ?? ''}`).join('')}`;
}

const FRONTEND: Component = { name: 'Frontend', type: 'frontend' };
const PREFILL: Component = { name: 'prefill', type: 'prefill' };
const DECODE: Component = { name: 'decode', type: 'decode' };

const FILES: Record<string, string> = {
  'old.yaml': graph([FRONTEND, PREFILL, DECODE]),
  'same.yaml': graph([FRONTEND, PREFILL, DECODE]),
  // the decode image only
  'image.yaml': graph([FRONTEND, PREFILL, { ...DECODE, container: '' }]).replace(/image: (\S+)\n$/, 'image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.1\n'),
  'frontend-replicas.yaml': graph([{ ...FRONTEND, extra: '      replicas: 3\n' }, PREFILL, DECODE]),
  'decode-replicas.yaml': graph([FRONTEND, PREFILL, { ...DECODE, extra: '      replicas: 2\n' }]),
  'frontend-env.yaml': graph([{ ...FRONTEND, container: '              env:\n                - name: DYN_LOG\n                  value: debug\n' }, PREFILL, DECODE]),
  'decode-env.yaml': graph([FRONTEND, PREFILL, { ...DECODE, container: '              env:\n                - name: DYN_LOG\n                  value: debug\n' }]),
  'frontend-pod-annotation.yaml': graph([FRONTEND, PREFILL, DECODE]).replace(
    '    - name: Frontend\n      type: frontend\n      podTemplate:\n',
    '    - name: Frontend\n      type: frontend\n      podTemplate:\n        metadata:\n          annotations:\n            example.com/note: hello\n'),
  'graph-label.yaml': graph([FRONTEND, PREFILL, DECODE], '  labels:\n    team: inference\n'),
  'with-configmap.yaml': `${graph([FRONTEND, PREFILL, DECODE])}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
  namespace: ai
data:
  a: b
`,
  'bad.yaml': graph([FRONTEND, { name: 'w', type: 'router' }]),
  'broken.yaml': 'a: [\n',
};

function run(...argv: string[]) {
  const { code, stdout, stderr } = runCliOn(FILES, argv);
  return { code, stdout, stderr };
}

interface JsonEntry {
  kind: string;
  name: string;
  namespace: string | null;
  change: 'added' | 'removed' | 'modified';
  restartsPods: boolean;
  fields: string[];
  rollout?: string;
  previousName?: string;
}

function json(...argv: string[]): JsonEntry[] {
  const r = run('diff', '--json', ...argv);
  expect(r).toMatchObject({ code: 0, stderr: '' });
  return JSON.parse(r.stdout) as JsonEntry[];
}

/** `Kind/name` of the entries that restart pods. */
function restarting(entries: JsonEntry[]): string[] {
  return entries.filter(e => e.restartsPods).map(e => `${e.kind}/${e.name}`);
}

describe('identical inputs', () => {
  test('--json prints [] and exits 0', () => {
    expect(run('diff', '--json', 'old.yaml', 'same.yaml')).toEqual({ code: 0, stdout: '[]\n', stderr: '' });
  });

  test.each(['graph', 'components', 'workloads'])('--output %s: no output in text, exit 0', output => {
    expect(run('diff', '--output', output, 'old.yaml', 'same.yaml')).toEqual({ code: 0, stdout: '', stderr: '' });
  });

  test('a file compared with itself', () => {
    expect(run('diff', 'old.yaml', 'old.yaml')).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('image change of a worker: a new worker hash, every worker restarts', () => {
  test('--json (workloads, the default): the worker objects replaced under the new hash, one entry each', () => {
    const entries = json('old.yaml', 'image.yaml');
    const decode = entries.find(e => e.kind === 'Deployment' && e.name.startsWith('llm-decode-'))!;
    expect(decode).toEqual({
      kind: 'Deployment',
      name: expect.stringMatching(/^llm-decode-[0-9a-f]{8}$/),
      namespace: 'ai',
      change: 'modified',
      restartsPods: true,
      fields: ['spec.template.spec.containers[main].image'],
      rollout: 'new worker hash',
      previousName: expect.stringMatching(/^llm-decode-[0-9a-f]{8}$/),
    });
    expect(decode.previousName).not.toBe(decode.name);
    // the worker hash covers every worker component: prefill rolls out too, with nothing else changed
    const prefill = entries.find(e => e.kind === 'Deployment' && e.name.startsWith('llm-prefill-'))!;
    expect(prefill).toMatchObject({ change: 'modified', restartsPods: true, fields: [], rollout: 'new worker hash' });
    expect(prefill.name.slice(-8)).toBe(decode.name.slice(-8));
    expect(restarting(entries).sort()).toEqual([
      `Deployment/${decode.name}`, `Deployment/${prefill.name}`,
      `DynamoComponentDeployment/${decode.name}`, `DynamoComponentDeployment/${prefill.name}`,
    ].sort());
    // a Service renamed with the hash is part of the rollout but runs no pods
    expect(entries.find(e => e.kind === 'Service' && e.name === decode.name)).toMatchObject({ restartsPods: false, rollout: 'new worker hash', previousName: decode.previousName });
    // nothing is reported as plainly added or removed, the frontend is untouched
    expect(entries.filter(e => e.change !== 'modified')).toEqual([]);
    expect(entries.some(e => e.name === 'llm-frontend')).toBe(false);
  });

  test('every entry has the documented shape', () => {
    for (const entry of json('old.yaml', 'image.yaml')) {
      expect(Object.keys(entry).sort()).toEqual(
        entry.rollout === undefined
          ? ['change', 'fields', 'kind', 'name', 'namespace', 'restartsPods']
          : ['change', 'fields', 'kind', 'name', 'namespace', 'previousName', 'restartsPods', 'rollout']);
    }
  });

  test('text: one line per object, "~ Kind/ns/name (restarts pods; new worker hash, was OLD): fields"', () => {
    const r = run('diff', 'old.yaml', 'image.yaml');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toContainEqual(expect.stringMatching(
      /^~ Deployment\/ai\/llm-decode-([0-9a-f]{8}) \(restarts pods; new worker hash, was llm-decode-[0-9a-f]{8}\): spec\.template\.spec\.containers\[main\]\.image$/));
    expect(lines).toContainEqual(expect.stringMatching(/^~ Deployment\/ai\/llm-prefill-[0-9a-f]{8} \(restarts pods; new worker hash, was llm-prefill-[0-9a-f]{8}\)$/));
    expect(lines).toContainEqual(expect.stringMatching(/^~ Service\/ai\/llm-decode-[0-9a-f]{8} \(new worker hash, was llm-decode-[0-9a-f]{8}\)$/));
  });

  test('--output components: the DCDs, replaced under the new hash', () => {
    const entries = json('--output', 'components', 'old.yaml', 'image.yaml');
    expect(entries.map(e => `${e.kind}/${e.name.replace(/[0-9a-f]{8}$/, 'HASH')}`).sort()).toEqual([
      'DynamoComponentDeployment/llm-decode-HASH', 'DynamoComponentDeployment/llm-prefill-HASH',
    ]);
    expect(entries.every(e => e.restartsPods && e.rollout === 'new worker hash')).toBe(true);
    expect(entries.find(e => e.name.startsWith('llm-decode-'))!.fields).toEqual(['spec.podTemplate.spec.containers[main].image']);
  });

  test('--output graph: the graph, restarting pods', () => {
    expect(json('--output', 'graph', 'old.yaml', 'image.yaml')).toEqual([{
      kind: 'DynamoGraphDeployment',
      name: 'llm',
      namespace: 'ai',
      change: 'modified',
      restartsPods: true,
      fields: ['spec.components[decode].podTemplate.spec.containers[main].image'],
    }]);
  });
});

describe('replicas only: no restart', () => {
  test('frontend replicas: the Deployment and its DCD scale, nothing restarts', () => {
    const entries = json('old.yaml', 'frontend-replicas.yaml');
    expect(entries).toEqual([
      { kind: 'DynamoComponentDeployment', name: 'llm-frontend', namespace: 'ai', change: 'modified', restartsPods: false, fields: ['spec.replicas'] },
      { kind: 'Deployment', name: 'llm-frontend', namespace: 'ai', change: 'modified', restartsPods: false, fields: ['spec.replicas'] },
    ]);
  });

  test('frontend replicas in text', () => {
    expect(run('diff', 'old.yaml', 'frontend-replicas.yaml')).toEqual({
      code: 0,
      stderr: '',
      stdout: '~ DynamoComponentDeployment/ai/llm-frontend: spec.replicas\n~ Deployment/ai/llm-frontend: spec.replicas\n',
    });
  });

  test('worker replicas: no new worker hash (replicas are not part of it), no restart', () => {
    const entries = json('old.yaml', 'decode-replicas.yaml');
    expect(entries.map(e => [e.kind, e.name, e.change, e.restartsPods, e.fields, e.rollout])).toEqual([
      ['DynamoComponentDeployment', expect.stringMatching(/^llm-decode-/), 'modified', false, ['spec.replicas'], undefined],
      ['Deployment', expect.stringMatching(/^llm-decode-/), 'modified', false, ['spec.replicas'], undefined],
    ]);
  });

  test.each(['graph', 'components'])('--output %s: frontend replicas restart nothing', output => {
    const entries = json('--output', output, 'old.yaml', 'frontend-replicas.yaml');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ change: 'modified', restartsPods: false });
    expect(entries[0].fields).toEqual([output === 'graph' ? 'spec.components[Frontend].replicas' : 'spec.replicas']);
  });
});

describe('env changes restart', () => {
  test('frontend env: its Deployment restarts in place, keyed by the variable name', () => {
    const entries = json('old.yaml', 'frontend-env.yaml');
    expect(entries.find(e => e.kind === 'Deployment')).toEqual({
      kind: 'Deployment',
      name: 'llm-frontend',
      namespace: 'ai',
      change: 'modified',
      restartsPods: true,
      fields: ['spec.template.spec.containers[main].env[DYN_LOG]'],
    });
    expect(restarting(entries)).toEqual(['DynamoComponentDeployment/llm-frontend', 'Deployment/llm-frontend']);
  });

  test('worker env: a new worker hash', () => {
    const entries = json('old.yaml', 'decode-env.yaml');
    const decode = entries.find(e => e.kind === 'Deployment' && e.name.startsWith('llm-decode-'))!;
    expect(decode).toMatchObject({ restartsPods: true, rollout: 'new worker hash', fields: ['spec.template.spec.containers[main].env[DYN_LOG]'] });
    expect(json('--output', 'graph', 'old.yaml', 'decode-env.yaml')).toEqual([expect.objectContaining({ kind: 'DynamoGraphDeployment', restartsPods: true })]);
  });
});

describe('metadata', () => {
  test('an annotation on the pod template restarts pods', () => {
    const entries = json('old.yaml', 'frontend-pod-annotation.yaml');
    // the operator puts a component's pod annotations on its Deployment as well
    expect(entries.find(e => e.kind === 'Deployment')).toMatchObject({
      name: 'llm-frontend', restartsPods: true, fields: ['metadata.annotations[example.com/note]', 'spec.template.metadata.annotations'],
    });
  });

  test('a label of the graph itself restarts nothing (and reaches no workload)', () => {
    expect(json('old.yaml', 'graph-label.yaml')).toEqual([]);
    expect(json('--output', 'graph', 'old.yaml', 'graph-label.yaml')).toEqual([
      { kind: 'DynamoGraphDeployment', name: 'llm', namespace: 'ai', change: 'modified', restartsPods: false, fields: ['metadata.labels'] },
    ]);
  });
});

describe('added and removed objects', () => {
  test('an object only in NEW is added, only in OLD removed; neither restarts pods', () => {
    expect(json('old.yaml', 'with-configmap.yaml')).toEqual([
      { kind: 'ConfigMap', name: 'extra', namespace: 'ai', change: 'added', restartsPods: false, fields: [] },
    ]);
    expect(json('with-configmap.yaml', 'old.yaml')).toEqual([
      { kind: 'ConfigMap', name: 'extra', namespace: 'ai', change: 'removed', restartsPods: false, fields: [] },
    ]);
    expect(run('diff', 'old.yaml', 'with-configmap.yaml').stdout).toBe('+ ConfigMap/ai/extra\n');
    expect(run('diff', 'with-configmap.yaml', 'old.yaml').stdout).toBe('- ConfigMap/ai/extra\n');
  });
});

describe('operator settings apply to both sides', () => {
  test('--grove: one PodCliqueSet, its cliques\' pod specs restart', () => {
    const entries = json('--grove', 'old.yaml', 'image.yaml');
    const pcs = entries.find(e => e.kind === 'PodCliqueSet')!;
    expect(pcs).toMatchObject({ name: 'llm', change: 'modified', restartsPods: true });
    expect(pcs.fields).toContain('spec.template.cliques[decode].spec.podSpec.containers[main].image');
    expect(json('--grove', 'old.yaml', 'frontend-replicas.yaml')).toEqual([
      { kind: 'PodCliqueSet', name: 'llm', namespace: 'ai', change: 'modified', restartsPods: false, fields: ['spec.template.cliques[frontend].spec.replicas'] },
    ]);
  });

  test('--namespace names the namespace of both sides', () => {
    FILES['plain-old.yaml'] = FILES['old.yaml'].replace('  namespace: ai\n', '');
    FILES['plain-new.yaml'] = FILES['frontend-replicas.yaml'].replace('  namespace: ai\n', '');
    expect(json('--namespace', 'team-a', 'plain-old.yaml', 'plain-new.yaml').map(e => e.namespace)).toEqual(['team-a', 'team-a']);
  });
});

describe('the example of docs/commands.md', () => {
  test('a graph pd whose decode image changes and whose frontend scales to 2: the output docs/commands.md shows', () => {
    const pd = graph([FRONTEND, PREFILL, DECODE]).replace('  name: llm\n', '  name: pd\n');
    FILES['pd-old.yaml'] = pd;
    FILES['pd-new.yaml'] = pd
      .replace('      type: frontend\n', '      type: frontend\n      replicas: 2\n')
      .replace(/1\.4\.0\n$/, '1.4.1\n');
    const guide = fs.readFileSync(path.join(__dirname, '..', 'docs', 'commands.md'), 'utf8');
    const example = /```console\n\$ git show main:graph\.yaml \| cdk8s-dynamo diff - graph\.yaml\n([^$]*)\$ git show main:graph\.yaml \| cdk8s-dynamo diff --output graph - graph\.yaml\n([^`]*)```/.exec(guide);
    expect(example).not.toBeNull();
    expect(run('diff', 'pd-old.yaml', 'pd-new.yaml')).toEqual({ code: 0, stdout: example![1], stderr: '' });
    expect(run('diff', '--output', 'graph', 'pd-old.yaml', 'pd-new.yaml')).toEqual({ code: 0, stdout: example![2], stderr: '' });
  });
});

describe('exit codes', () => {
  test('differences are no failure: exit 0', () => {
    expect(run('diff', 'old.yaml', 'image.yaml').code).toBe(0);
  });

  test.each([
    [['old.yaml', 'bad.yaml'], /^bad\.yaml:17:7: DynamoGraphDeployment\/llm: spec\.components\[1\]\.type .*\(rule \d+\)$/m],
    [['bad.yaml', 'old.yaml'], /^bad\.yaml:\d+:\d+: /m],
    [['old.yaml', 'broken.yaml'], /^broken\.yaml:/m],
    [['old.yaml', 'missing.yaml'], /^cannot read missing\.yaml: no such file$/m],
  ])('invalid or unreadable %j: exit 1 naming the file, nothing on stdout', (files, message) => {
    const r = run('diff', ...files);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(message);
  });

  test('NEW is checked as an update of OLD: a replicas edit under a scaling adapter is refused, as the API server refuses the update', () => {
    // the operator's validating webhook on UPDATE (the oracle's update mode refuses this edit the same way)
    const adapted = (replicas: number) => graph([FRONTEND, { ...DECODE, extra: `      replicas: ${replicas}\n      scalingAdapter: {}\n` }]);
    const files = { 'old.yaml': adapted(1), 'new.yaml': adapted(2) };
    const r = runCliOn(files, ['diff', 'old.yaml', 'new.yaml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^new\.yaml:18:7: DynamoGraphDeployment\/llm: spec\.components\[1\]\.replicas \(component "decode"\): Forbidden: cannot be modified directly when scaling adapter is enabled; .*\(rule 66\)$/m);
    // the same graph created anew is admitted: only the edit is refused
    expect(runCliOn({ 'new.yaml': adapted(2) }, ['validate', 'new.yaml']).code).toBe(0);
    // and the file checked on its own as OLD is a create (its replicas are its own)
    expect(runCliOn({ 'old.yaml': adapted(2), 'new.yaml': adapted(2) }, ['diff', 'old.yaml', 'new.yaml']).code).toBe(0);
  });

  test.each([
    [['old.yaml'], 'diff compares two FILEs, OLD and NEW; got 1'],
    [['old.yaml', 'same.yaml', 'image.yaml'], 'diff compares two FILEs, OLD and NEW; got 3'],
    [['-', '-'], 'only one of OLD and NEW can be - (standard input)'],
    [['--json=yes', 'old.yaml', 'same.yaml'], '--json takes no value'],
    [['--output', 'pods', 'old.yaml', 'same.yaml'], '--output must be one of graph, components, workloads, got "pods"'],
    [['--out', 'dir', 'old.yaml', 'same.yaml'], 'unknown option "--out" for diff'],
  ])('usage %j: exit 2', (args, message) => {
    const r = run('diff', ...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(`cdk8s-dynamo: ${message}\nusage:\n  cdk8s-dynamo diff `)).toBe(true);
    expect(r.stderr).toMatch(/Run 'cdk8s-dynamo diff --help' for the options\.\n$/);
  });

  test('diff --help and the program\'s help name the command', () => {
    expect(run('diff', '--help')).toMatchObject({ code: 0, stdout: expect.stringMatching(/^usage: cdk8s-dynamo diff \[--output graph\|components\|workloads\] \[--json\]/) });
    expect(run('--help').stdout).toContain('  diff       compare two versions as rendered, and say which changes restart pods\n');
  });
});
