/**
 * The apps the README and docs/authoring.md show, copied out of the pages, compiled under the quick
 * start's strict options and run: each graph must be one the operator runs and that serves, i.e.
 * every worker-class component starts a Dynamo engine (the operator gives a default command only to
 * frontends and the endpoint picker), reads the model token's secret and asks for GPUs; and the
 * objects the operator creates from it (workloads output) start Dynamo in every pod.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { DynamoDocuments, DynamoGraph, OutputMode } from '../src';
import { compileApps, runApp } from './support/eject-roundtrip';
import { readDocuments, writeDocuments } from './support/facade';

/** A synthesized DynamoGraphDeployment, as far as these tests read it. */
type DgdJson = any;

const ROOT = path.join(__dirname, '..');
const WORKER_TYPES = ['worker', 'prefill', 'decode'];
/** How a Dynamo engine or frontend is started: `python3 -m dynamo.<module>`. */
const STARTS_DYNAMO = /(^|\s)python3 -m dynamo\.[a-z_]+(\s|$)/;

/** The code block after `` `file`: `` in the section of `page` that starts with `heading`. */
function pageFile(page: string, heading: string, file: string): string {
  const text = fs.readFileSync(path.join(ROOT, page), 'utf8');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`${page} has no section "${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  const section = text.slice(start, end < 0 ? undefined : end);
  const at = section.indexOf(`\`${file}\`:`);
  if (at < 0) throw new Error(`${page}: no ${file} in "${heading}"`);
  return /```[a-z]*\n([^]*?)```/.exec(section.slice(at))![1];
}

type Container = { name?: string; command?: string[]; args?: string[]; envFrom?: unknown[]; resources?: { limits?: Record<string, unknown> } };

/** What keeps a graph from serving once the operator runs it, one line per problem. */
function servingProblems(graph: DgdJson): string[] {
  const problems: string[] = [];
  for (const component of graph.spec.components ?? []) {
    if (!WORKER_TYPES.includes(component.type ?? '')) continue;
    const containers = (component.podTemplate?.spec?.containers ?? []) as Container[];
    const main = containers.find(c => c.name === 'main');
    const where = `${graph.metadata?.name}: ${component.name}`;
    if (main === undefined) {
      problems.push(`${where}: no main container`);
      continue;
    }
    if (!STARTS_DYNAMO.test([...main.command ?? [], ...main.args ?? []].join(' '))) problems.push(`${where}: command and args do not start Dynamo`);
    if (!(Number(main.resources?.limits?.['nvidia.com/gpu']) > 0)) problems.push(`${where}: no nvidia.com/gpu limit`);
    const secrets = (main.envFrom ?? []).map(e => (e as { secretRef?: { name?: string } }).secretRef?.name);
    if (!secrets.includes('hf-token-secret')) problems.push(`${where}: no envFrom of the secret hf-token-secret`);
  }
  return problems;
}

/** The containers named `main` of every pod template among the workloads, with where they are. */
function mainContainers(objects: unknown[]): [string, Container][] {
  const found: [string, Container][] = [];
  const walk = (value: unknown, where: string): void => {
    if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, `${where}[${i}]`));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'containers' && Array.isArray(v)) {
          for (const c of v as Container[]) if (c.name === 'main') found.push([where, c]);
        } else {
          walk(v, `${where}.${key}`);
        }
      }
    }
  };
  for (const o of objects as { kind: string; metadata: { name: string } }[]) walk(o, `${o.kind}/${o.metadata.name}`);
  return found;
}

/** Runs an app of the docs: no compile error, and its graphs (as synthesized). */
function graphsOf(name: string, code: string): DgdJson[] {
  expect(compileApps(new Map([[name, code]])).get(name)).toEqual([]);
  return (runApp(code) as DgdJson[]).filter(o => o.kind === 'DynamoGraphDeployment');
}

/** The workloads the operator creates for a graph (a default platform install, or with Grove). */
function workloads(graph: DgdJson, groveAvailable = false): unknown[] {
  const yaml = DynamoDocuments.renderYaml(writeDocuments([graph]), { output: OutputMode.WORKLOADS, operator: { groveAvailable } });
  return readDocuments(yaml, 'graph.yaml');
}

describe('the README quick start (main.ts)', () => {
  const code = pageFile('README.md', '## Quick start', 'main.ts');
  const graphs = graphsOf('readme', code);

  test('synthesizes one graph that serves: its worker starts Dynamo, reads the token secret, asks for a GPU', () => {
    expect(graphs.map(g => g.metadata?.name)).toEqual(['vllm-agg']);
    expect(servingProblems(graphs[0])).toEqual([]);
    const worker = graphs[0].spec.components!.find((c: any) => c.type === 'worker')!;
    expect(worker.podTemplate?.spec?.containers?.[0]).toMatchObject({ command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'Qwen/Qwen3-0.6B'] });
  });

  test('the operator starts Dynamo in every pod it creates for it: the frontend by default, the worker by its command', () => {
    const mains = mainContainers(workloads(graphs[0]).filter(o => (o as { kind: string }).kind === 'Deployment'));
    expect(mains.map(([where]) => where)).toEqual([
      expect.stringMatching(/^Deployment\/vllm-agg-frontend\./),
      expect.stringMatching(/^Deployment\/vllm-agg-vllmworker-[0-9a-f]{8}\./),
    ]);
    for (const [, main] of mains) expect([...main.command ?? [], ...main.args ?? []].join(' ')).toMatch(STARTS_DYNAMO);
  });

  test('a worker without its command is what the check finds', () => {
    const broken = JSON.parse(JSON.stringify(graphs[0])) as DgdJson;
    delete (broken.spec.components![1].podTemplate!.spec!.containers![0] as Container).command;
    expect(servingProblems(broken)).toEqual(['vllm-agg: VllmWorker: command and args do not start Dynamo']);
  });
});

describe('docs/authoring.md: the disaggregated, multinode graph (main.ts)', () => {
  const code = pageFile('docs/authoring.md', '## A disaggregated, multinode graph', 'main.ts');
  const graphs = graphsOf('authoring', code);

  test('synthesizes one graph that serves: every worker starts Dynamo, reads the token secret, asks for GPUs', () => {
    expect(graphs.map(g => g.metadata?.name)).toEqual(['vllm-disagg-multinode']);
    expect(graphs[0].spec.components!.map((c: any) => `${c.name} ${c.type}`)).toEqual(['Frontend frontend', 'prefill prefill', 'decode decode']);
    expect(servingProblems(graphs[0])).toEqual([]);
  });

  test('occupies what the page says: 2 prefill pods of 8 GPUs and a decode replica of 2 pods of 8 GPUs, 32 GPUs', () => {
    const footprint = DynamoGraph.fromObject(new Chart(Testing.app(), 'test'), 'graph', graphs[0]).footprint();
    expect(footprint.components.map(c => [c.name, c.replicas * c.podsPerReplica, c.gpusPerPod])).toEqual([['Frontend', 2, 0], ['prefill', 2, 8], ['decode', 2, 8]]);
    expect(footprint.totalGpus).toBe(32);
  });

  test('the operator starts Dynamo in every pod it creates: the decode engine in a LeaderWorkerSet of leader and worker', () => {
    const objects = workloads(graphs[0]).filter(o => ['Deployment', 'LeaderWorkerSet'].includes((o as { kind: string }).kind));
    expect(objects.map(o => (o as { kind: string }).kind).sort()).toEqual(['Deployment', 'Deployment', 'LeaderWorkerSet']);
    const mains = mainContainers(objects);
    expect(mains.length).toBe(4);
    for (const [where, main] of mains) expect([where, [...main.command ?? [], ...main.args ?? []].join(' ')]).toEqual([where, expect.stringMatching(/dynamo\.(vllm|frontend)/)]);
  });

  test('with Grove, as the page says, the operator runs it as one PodCliqueSet', () => {
    const kinds = workloads(graphs[0], true).map(o => (o as { kind: string }).kind);
    expect(kinds.filter(kind => kind === 'PodCliqueSet')).toHaveLength(1);
    expect(kinds).not.toContain('LeaderWorkerSet');
  });
});
