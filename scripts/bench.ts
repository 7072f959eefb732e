/**
 * Speed and memory figures of the library (a script, never a test).
 *
 *   npm run bench            (compiles with jsii, then runs this script)
 *   ts-node --project tsconfig.dev.json scripts/bench.ts [--quick]
 *
 * (a) Cold load: median over fresh `node -e "require(...)"` processes of the time to require the
 *     compiled library, against `cdk8s-plus-34` (target ≤ 1.0×); heap used after load (after a GC).
 * (b) Synthesis of 1,000 components (frontends, decode and prefill workers; in 40 graphs of 25, as
 *     the CRD allows at most 25 components per graph) with the public constructs, in graph output
 *     and in workloads output, against a plain cdk8s baseline: a Chart of plain `ApiObject`s
 *     emitting the same objects (taken from one rendering beforehand). Both sides are timed the
 *     same way, in interleaved rounds: construct the chart, then synthesize it, once with
 *     `Testing.synth(chart)` (objects) and once with `app.synthYaml()` (dependencies, validation,
 *     YAML). Target: workloads ≤ 1.5× baseline.
 * (c) Scaling: time per component at 10 / 100 / 1,000 components (flat = linear growth).
 *
 * The library is `lib/src/index.js` (the compiled package; `$BENCH_LIB` names another build, and
 * without a build the sources are used through ts-node). `--quick` takes fewer samples.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import * as v8 from 'v8';
import * as vm from 'vm';
import { ApiObject, App, Chart, Testing } from 'cdk8s';
import type * as DynamoApi from '../src';

const ROOT = path.resolve(__dirname, '..');
const QUICK = process.argv.includes('--quick');

// ---------------------------------------------------------------------------------------------
// The library under test
// ---------------------------------------------------------------------------------------------

interface Library {
  readonly api: typeof DynamoApi;
  /** The file required (the compiled library, or the sources). */
  readonly file: string;
}

function loadLibrary(): Library {
  const compiled = process.env.BENCH_LIB ? path.resolve(process.env.BENCH_LIB) : path.join(ROOT, 'lib', 'src', 'index.js');
  const file = fs.existsSync(compiled) ? compiled : path.join(ROOT, 'src', 'index.ts');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return { api: require(file) as typeof DynamoApi, file };
}

const LIB = loadLibrary();
const { BackendFramework, DynamoGraph, OutputMode } = LIB.api;

/** The workloads output mode; undefined in a build that predates it (its rows are then reported as not measured). */
const WORKLOADS_MODE: DynamoApi.OutputMode | undefined = OutputMode.WORKLOADS;

// ---------------------------------------------------------------------------------------------
// Measuring
// ---------------------------------------------------------------------------------------------

/**
 * A full garbage collection, run between measurements (not before each sample: a forced full GC
 * throws away warmed-up state and makes small samples several times slower). Exposed at run
 * time, as the script runs without --expose-gc.
 */
const collectGarbage: () => void = (() => {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
})();

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function nowMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** Wall time of one call. */
function timeOnce(fn: () => void): number {
  const start = nowMs();
  fn();
  return nowMs() - start;
}

/** Median wall time of `fn` over `runs` samples, after a full GC and `warmup` untimed calls. */
function timeMedian(runs: number, warmup: number, fn: () => void): number {
  collectGarbage();
  for (let i = 0; i < warmup; i++) fn();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(timeOnce(fn));
  return median(samples);
}

/** Medians of two functions timed in alternation (a, b, b, a, …), and the median of the per-round ratios a / b. */
interface Paired {
  readonly aMs: number;
  readonly bMs: number;
  readonly ratio: number;
}

/**
 * Times `a` against `b` in interleaved rounds, so that drift in machine load hits both sides
 * alike; the ratio is the median of the per-round ratios.
 */
function timePaired(runs: number, a: () => void, b: () => void): Paired {
  collectGarbage();
  a();
  b();
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < runs; i++) {
    if (i % 2 === 0) {
      as.push(timeOnce(a));
      bs.push(timeOnce(b));
    } else {
      bs.push(timeOnce(b));
      as.push(timeOnce(a));
    }
  }
  return { aMs: median(as), bMs: median(bs), ratio: median(as.map((x, i) => x / bs[i])) };
}

function fmt(n: number, digits = 1): string {
  return n.toFixed(digits);
}

function times(r: number): string {
  return `${r.toFixed(2)}×`;
}

function verdict(value: number, target: number): string {
  return value <= target ? `met (≤ ${target.toFixed(1)}×)` : `MISSED (target ≤ ${target.toFixed(1)}×)`;
}

function table(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map(r => r[c].length)));
  for (const r of rows) console.log(`  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('   ')}`);
}

// ---------------------------------------------------------------------------------------------
// (a) Cold load
// ---------------------------------------------------------------------------------------------

interface LoadSample {
  readonly ms: number;
  readonly heapMb: number;
}

/** One fresh process: time to require `request` (nothing for the empty request), heap after a GC. */
function loadOnce(request: string): LoadSample {
  const code = [
    'const t0 = process.hrtime.bigint();',
    request ? `require(${JSON.stringify(request)});` : '',
    'const ms = Number(process.hrtime.bigint() - t0) / 1e6;',
    'global.gc();',
    'process.stdout.write(JSON.stringify({ ms, heapMb: process.memoryUsage().heapUsed / 1048576 }));',
  ].join('\n');
  const out = execFileSync(process.execPath, ['--expose-gc', '-e', code], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out) as LoadSample;
}

function coldLoad(): void {
  if (!LIB.file.endsWith('.js')) {
    console.log('(a) cold load: not measured (no compiled library; `npm run bench` compiles it first)');
    console.log('');
    return;
  }
  const runs = QUICK ? 5 : 11;
  const subjects: [string, string][] = [['cdk8s-dynamo', LIB.file], ['cdk8s-plus-34', 'cdk8s-plus-34'], ['cdk8s', 'cdk8s'], ['(bare node)', '']];
  for (const [, request] of subjects) loadOnce(request); // file-system cache
  const samples = new Map<string, LoadSample[]>(subjects.map(([name]) => [name, []]));
  for (let i = 0; i < runs; i++) {
    for (const [name, request] of subjects) samples.get(name)!.push(loadOnce(request));
  }
  const med = (name: string) => ({
    ms: median(samples.get(name)!.map(s => s.ms)),
    heapMb: median(samples.get(name)!.map(s => s.heapMb)),
  });
  const bare = med('(bare node)');
  console.log(`(a) cold load: median of ${runs} fresh processes (require time; heap used after load and a GC)`);
  table([
    ['module', 'require ms', 'heap MB', 'heap Δ vs bare node MB'],
    ...subjects.map(([name]) => {
      const m = med(name);
      return [name, fmt(m.ms), fmt(m.heapMb), fmt(m.heapMb - bare.heapMb)];
    }),
  ]);
  const perRound = (key: keyof LoadSample) => median(samples.get('cdk8s-dynamo')!.map((s, i) => s[key] / samples.get('cdk8s-plus-34')![i][key]));
  const load = perRound('ms');
  console.log(`  cdk8s-dynamo / cdk8s-plus-34 (median of per-round ratios): load ${times(load)} ${verdict(load, 1.0)}, heap ${times(perRound('heapMb'))}`);
  console.log('');
}

// ---------------------------------------------------------------------------------------------
// (b) and (c) Synthesis
// ---------------------------------------------------------------------------------------------

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const NAMESPACE = 'bench';

/**
 * Components per graph. The CRD allows at most 25 components in a graph (admission rule 14), so
 * n components are n / 25 full graphs (and one smaller graph for the rest), all in one chart.
 */
const MAX_COMPONENTS_PER_GRAPH = 25;

/** A chart holding `n` components in graphs of 25: frontends, decode and prefill workers in turn. */
function graphChart(app: App, n: number, output: DynamoApi.OutputMode): Chart {
  const chart = new Chart(app, 'bench', { namespace: NAMESPACE });
  const graphs = Math.ceil(n / MAX_COMPONENTS_PER_GRAPH);
  for (let g = 0; g < graphs; g++) {
    const name = `llm-${String(g).padStart(2, '0')}`;
    const graph = new DynamoGraph(chart, name, { metadata: { name }, backendFramework: BackendFramework.VLLM, output });
    const size = Math.min(MAX_COMPONENTS_PER_GRAPH, n - g * MAX_COMPONENTS_PER_GRAPH);
    for (let i = 0; i < size; i++) {
      const id = String(i).padStart(2, '0');
      switch (i % 3) {
        case 0: graph.addFrontend(`frontend-${id}`, { image: IMAGE }); break;
        case 1: graph.addDecodeWorker(`decode-${id}`, { image: IMAGE, replicas: 2 }); break;
        default: graph.addPrefillWorker(`prefill-${id}`, { image: IMAGE, replicas: 1 }); break;
      }
    }
  }
  return chart;
}

/** The same objects as plain ApiObjects in a chart: the cdk8s baseline. */
function baselineChart(app: App, objects: readonly any[]): Chart {
  const chart = new Chart(app, 'baseline');
  objects.forEach((obj, i) => new ApiObject(chart, `o${i}`, obj));
  return chart;
}

type Synth = 'objects' | 'yaml';

/** Builds a chart in a new app and synthesizes it: `Testing.synth` (objects) or `app.synthYaml()` (with validation, YAML). */
function buildAndSynth(make: (app: App) => Chart, how: Synth): void {
  const app = Testing.app();
  const chart = make(app);
  if (how === 'objects') Testing.synth(chart);
  else app.synthYaml();
}

interface SynthFigures {
  readonly objects: number;
  readonly by: Record<Synth, Paired>;
}

/** Dynamo (a) against the plain ApiObject baseline (b) for `n` components in one output mode. */
function synthFigures(n: number, output: DynamoApi.OutputMode, runs: number): SynthFigures {
  const rendered = Testing.synth(graphChart(Testing.app(), n, output));
  const check = Testing.synth(baselineChart(Testing.app(), rendered));
  // the same objects; cdk8s writes metadata keys in its own order, so key order is not compared
  if (!isDeepStrictEqual(check, rendered)) throw new Error(`the baseline does not emit the same objects (${output}, ${n} components)`);
  const pair = (how: Synth) => timePaired(runs,
    () => buildAndSynth(app => graphChart(app, n, output), how),
    () => buildAndSynth(app => baselineChart(app, rendered), how));
  return { objects: rendered.length, by: { objects: pair('objects'), yaml: pair('yaml') } };
}

/** The output modes to measure: graph, and workloads when the build has it. */
function outputModes(): [string, DynamoApi.OutputMode | undefined][] {
  return [['graph', OutputMode.GRAPH], ['workloads', WORKLOADS_MODE]];
}

/** Why an output mode cannot be measured, or undefined when it can. */
function notAvailable(name: string, mode: DynamoApi.OutputMode | undefined): string | undefined {
  if (mode === undefined) return `${name}: not measured (OutputMode.WORKLOADS is not in this build of the constructs)`;
  try {
    Testing.synth(graphChart(Testing.app(), 3, mode));
    return undefined;
  } catch (e) {
    return `${name}: not measured (synthesis fails: ${(e as Error).message.split('\n')[0]})`;
  }
}

const LARGE = 1000;

/** (b) */
function synthesis(): void {
  const runs = QUICK ? 3 : 5;
  console.log(`(b) synthesis of ${LARGE} components (${LARGE / MAX_COMPONENTS_PER_GRAPH} graphs of ${MAX_COMPONENTS_PER_GRAPH}, the CRD's maximum; `
    + `frontend / decode / prefill in turn), median of ${runs} interleaved rounds`);
  console.log('    dynamo = new DynamoGraph + addX per component, then synth; baseline = new ApiObject per (pre-rendered) object, then synth');
  const rows = [['output', 'synth', 'objects', 'dynamo ms', 'baseline ms', 'ratio', 'target']];
  const notes: string[] = [];
  for (const [name, mode] of outputModes()) {
    const missing = notAvailable(name, mode);
    if (missing) {
      notes.push(missing);
      continue;
    }
    const f = synthFigures(LARGE, mode!, runs);
    for (const how of ['objects', 'yaml'] as Synth[]) {
      const p = f.by[how];
      rows.push([name, how === 'objects' ? 'Testing.synth' : 'app.synthYaml', String(f.objects), fmt(p.aMs), fmt(p.bMs), times(p.ratio),
        name === 'workloads' ? verdict(p.ratio, 1.5) : '']);
    }
  }
  table(rows);
  for (const note of notes) console.log(`  ${note}`);
  console.log('  (ratio = median of the per-round dynamo / baseline ratios)');
  console.log('');
}

/** (c) */
function scaling(): void {
  const sizes = [10, 100, LARGE];
  const runsFor = (n: number) => (QUICK ? 3 : n <= 10 ? 41 : n <= 100 ? 11 : 5);
  console.log(`(c) scaling: build + app.synthYaml() of n components (graphs of up to ${MAX_COMPONENTS_PER_GRAPH}), median time per component`);
  const rows = [['output', ...sizes.map(n => `n=${n} µs/comp`), `${LARGE} vs 100`]];
  const notes: string[] = [];
  for (const [name, mode] of outputModes()) {
    const missing = notAvailable(name, mode);
    if (missing) {
      notes.push(missing);
      continue;
    }
    const perComponent = sizes.map(n => (1000 * timeMedian(runsFor(n), n < LARGE ? 3 : 1, () => buildAndSynth(app => graphChart(app, n, mode!), 'yaml'))) / n);
    rows.push([name, ...perComponent.map(us => fmt(us, 0)), times(perComponent[2] / perComponent[1])]);
  }
  table(rows);
  for (const note of notes) console.log(`  ${note}`);
  console.log('  (flat µs/comp from 100 to 1,000 = linear growth; the 10-component figure carries the fixed costs)');
}

function main(): void {
  const started = nowMs();
  console.log(`cdk8s-dynamo benchmark: node ${process.version}, library ${path.relative(ROOT, LIB.file)}${QUICK ? ', quick' : ''}`);
  console.log('');
  coldLoad();
  synthesis();
  scaling();
  console.log('');
  console.log(`total ${fmt((nowMs() - started) / 1000)} s`);
}

main();
