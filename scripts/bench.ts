/**
 * Speed and memory of the library as its users pay for them (a script, never a test).
 *
 *   npm run bench                      (compiles with jsii, then runs this script)
 *   npm run bench -- --quick           (fewer runs)
 *   npm run bench -- --runs 9 --only synth --markdown
 *
 * Every figure is taken from fresh `node` processes (the subjects in scripts/bench/), each
 * preloaded with scripts/bench/preload.js, which writes on exit the CPU time of the whole process
 * (user + system, from its start: Node's own start-up, every require, the work and the writes)
 * and its peak resident memory (maxRSS); wall time is measured here around the spawn. Each
 * measure runs its subject (A) and its baseline (B) in pairs, interleaved and alternating which
 * goes first (A B, B A, A B, ...), after one warm-up pair that is not counted. Reported: the
 * medians of A and of B with min–max, and the ratio A / B as the median of the per-pair ratios
 * (CPU and wall) with min–max. The CPU ratio is the headline and is checked against the target.
 *
 *   load    require('cdk8s-dynamo') (lib/src/index.js) vs require('cdk8s-plus-34'); target ≤ 1.0×.
 *           Also the heap used after the load (after a full GC, in separate untimed processes).
 *   synth   what `cdk8s synth` runs: require, build an App of 5,000 components (200 graphs of 25,
 *           frontends, decode and prefill workers, a Chart per graph), app.synth() into a temp
 *           outdir; vs plain cdk8s creating the same objects as ApiObjects in the same charts
 *           (read from a JSON file prepared from one rendering) and running app.synth(). Targets:
 *           workloads output ≤ 1.2×, graph output ≤ 1.5×; components output against its own
 *           baseline (no target); and a warm, in-process figure for workloads (not what users pay;
 *           labelled so).
 *   charts  400 graphs with a Chart each vs the same graphs in one Chart (graph output); target ≤ 1.3×.
 *           Also the same two layouts for plain cdk8s with the same tree and no library (a reference).
 *   cli     `cdk8s-dynamo render --output workloads --out DIR FILE`, one process per file, vs a bare
 *           Node process reading the file and writing it to DIR; target ≤ 4×. Also one CLI process
 *           for all the files vs one bare process reading and writing them all (no target). The
 *           input files are graphs generated here with the library (graph output).
 *
 * Options: --quick, --runs N (pairs per measure), --only load|synth|charts|cli (repeatable),
 * --markdown (the summary also as a Markdown table, as in docs/performance.md). `$BENCH_LIB` names another
 * build of the library for the load and synth measures (the CLI is always bin/cdk8s-dynamo).
 *
 * Two packages against each other: --package DIR (A; default: this build) --against DIR (B) pair the
 * package in DIR with the other one instead of the plain baselines, in the load, synth and cli
 * measures (each side's lib/src/index.js and bin/cdk8s-dynamo; charts is skipped). DIR is a package
 * folder, e.g. a tarball of `npm pack` unpacked below this project (so that it finds the peers here):
 *
 *   tar -xzf cdk8s-dynamo-0.1.0.tgz -C .tmp/bench/base
 *   ts-node scripts/bench.ts --against .tmp/bench/base/package --only synth --only cli
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import { App, Chart } from 'cdk8s';
import * as YAML from 'yaml';
import type * as DynamoApi from '../src';

const ROOT = path.resolve(__dirname, '..');
const BENCH = path.join(__dirname, 'bench');
const PRELOAD = path.join(BENCH, 'preload.js');
const LIB_FILE = process.env.BENCH_LIB ? path.resolve(process.env.BENCH_LIB) : path.join(ROOT, 'lib', 'src', 'index.js');
const CLI = path.join(ROOT, 'bin', 'cdk8s-dynamo');

const MEASURES = ['load', 'synth', 'charts', 'cli'] as const;
type Measure = typeof MEASURES[number];

interface Options {
  readonly quick: boolean;
  /** The package folders of sides A and B when two packages are compared (--package, --against). */
  readonly packageDir?: string;
  readonly against?: string;
  readonly runs?: number;
  readonly only: ReadonlySet<Measure>;
  readonly markdown: boolean;
}

function parseOptions(argv: readonly string[]): Options {
  let quick = false;
  let pairs: number | undefined;
  let markdown = false;
  let packageDir: string | undefined;
  let against: string | undefined;
  const only = new Set<Measure>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') {
      quick = true;
    } else if (arg === '--markdown') {
      markdown = true;
    } else if (arg === '--package' || arg === '--against') {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a package folder`);
      const dir = path.resolve(value);
      if (!fs.existsSync(path.join(dir, 'lib', 'src', 'index.js')) || !fs.existsSync(path.join(dir, 'bin', 'cdk8s-dynamo'))) {
        throw new Error(`${arg}: ${value} is not a package folder (no lib/src/index.js and bin/cdk8s-dynamo)`);
      }
      if (arg === '--package') packageDir = dir;
      else against = dir;
    } else if (arg === '--runs' || arg === '--only') {
      const value = argv[++i];
      if (value === undefined) throw new Error(`${arg} needs a value`);
      if (arg === '--runs') {
        pairs = Number(value);
        if (!Number.isInteger(pairs) || pairs < 1) throw new Error(`--runs: not a positive integer: ${value}`);
      } else {
        if (!(MEASURES as readonly string[]).includes(value)) throw new Error(`--only: one of ${MEASURES.join(', ')}, not ${value}`);
        only.add(value as Measure);
      }
    } else {
      throw new Error(`unknown option: ${arg} (options: --quick, --runs N, --only ${MEASURES.join('|')}, --markdown, --package DIR, --against DIR)`);
    }
  }
  if (packageDir !== undefined && against === undefined) throw new Error('--package needs --against');
  return { quick, runs: pairs, only: only.size > 0 ? only : new Set(MEASURES), markdown, packageDir, against };
}

const OPTIONS = parseOptions(process.argv.slice(2));

/** With --against: the two packages, A (--package or this build) and B, by name, entry and binary. */
const SIDES = OPTIONS.against === undefined ? undefined : ([OPTIONS.packageDir ?? ROOT, OPTIONS.against] as const).map(dir => ({
  name: path.relative(ROOT, dir) || 'this build',
  lib: path.join(dir, 'lib', 'src', 'index.js'),
  cli: path.join(dir, 'bin', 'cdk8s-dynamo'),
}));

/** Pairs counted for a measure: `--runs`, else the quick or the full default. */
function runs(full: number, quick = 3): number {
  return OPTIONS.runs ?? (OPTIONS.quick ? quick : full);
}

// ---------------------------------------------------------------------------------------------
// Fresh processes
// ---------------------------------------------------------------------------------------------

/** One measured process. */
interface Sample {
  readonly cpuMs: number;
  readonly wallMs: number;
  readonly maxRssMb: number;
}

/** A process to run: the node arguments after the preload (a script and its arguments). */
interface Spawn {
  readonly args: readonly string[];
  /** Added to the environment (e.g. BENCH_LIB, the library the subject requires). */
  readonly env?: NodeJS.ProcessEnv;
}

/** A side of a pair: the process to spawn for the i-th pair, given a fresh empty outdir. */
interface Subject {
  readonly name: string;
  readonly spawn: (outdir: string, pair: number) => Spawn;
}

let tmpRoot: string | undefined;

/** A fresh temporary directory under the benchmark's own (removed at the end). */
function tempDir(prefix: string): string {
  tmpRoot ??= fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-bench-'));
  return fs.mkdtempSync(path.join(tmpRoot, `${prefix}-`));
}

/** The environment of every measured process: this one's, without NODE_OPTIONS (so that nothing else is preloaded). */
function childEnv(statsFile: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, BENCH_STATS: statsFile };
  delete env.NODE_OPTIONS;
  return env;
}

/** Runs `node --require preload ARGS` in the project root, outdir created before and removed after (both untimed). */
function runProcess(subject: Subject, pair: number): Sample {
  const outdir = tempDir('out');
  const statsFile = path.join(tempDir('stats'), 'stats.json');
  const { args, env } = subject.spawn(outdir, pair);
  const start = process.hrtime.bigint();
  const result = spawnSync(process.execPath, ['--require', PRELOAD, ...args], {
    cwd: ROOT,
    env: { ...childEnv(statsFile), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`${subject.name}: \`node ${args.join(' ')}\` exited with ${result.status ?? result.signal}:\n${result.stderr.toString()}`);
  }
  const stats = JSON.parse(fs.readFileSync(statsFile, 'utf8')) as { userUs: number; systemUs: number; maxRssKb: number };
  fs.rmSync(outdir, { recursive: true, force: true });
  fs.rmSync(path.dirname(statsFile), { recursive: true, force: true });
  return { cpuMs: (stats.userUs + stats.systemUs) / 1000, wallMs, maxRssMb: stats.maxRssKb / 1024 };
}

// ---------------------------------------------------------------------------------------------
// Statistics and pairs
// ---------------------------------------------------------------------------------------------

interface Spread {
  readonly median: number;
  readonly min: number;
  readonly max: number;
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted[sorted.length - 1] };
}

interface Side {
  readonly name: string;
  readonly cpuMs: Spread;
  readonly wallMs: Spread;
  readonly maxRssMb: Spread;
}

interface PairResult {
  readonly pairs: number;
  readonly a: Side;
  readonly b: Side;
  /** Median (min–max) of the per-pair ratios A / B. */
  readonly cpuRatio: Spread;
  readonly wallRatio: Spread;
}

function side(name: string, samples: readonly Sample[]): Side {
  return {
    name,
    cpuMs: spread(samples.map(s => s.cpuMs)),
    wallMs: spread(samples.map(s => s.wallMs)),
    maxRssMb: spread(samples.map(s => s.maxRssMb)),
  };
}

/** One uncounted warm-up pair, then `n` pairs, alternating which side goes first. */
function runPairs(n: number, a: Subject, b: Subject): PairResult {
  runProcess(a, 0);
  runProcess(b, 0);
  const as: Sample[] = [];
  const bs: Sample[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      as.push(runProcess(a, i));
      bs.push(runProcess(b, i));
    } else {
      bs.push(runProcess(b, i));
      as.push(runProcess(a, i));
    }
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  return {
    pairs: n,
    a: side(a.name, as),
    b: side(b.name, bs),
    cpuRatio: spread(as.map((s, i) => s.cpuMs / bs[i].cpuMs)),
    wallRatio: spread(as.map((s, i) => s.wallMs / bs[i].wallMs)),
  };
}

// ---------------------------------------------------------------------------------------------
// Reporting
// ---------------------------------------------------------------------------------------------

function ms(s: Spread): string {
  return `${s.median.toFixed(0)} (${s.min.toFixed(0)}–${s.max.toFixed(0)})`;
}

function ratio(s: Spread): string {
  return `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

function verdict(value: number, target: number | undefined): string {
  if (target === undefined) return '';
  return value <= target ? 'met' : 'MISSED';
}

function printTable(rows: readonly (readonly string[])[]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map(r => r[c].length)));
  for (const r of rows) console.log(`  ${r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('   ')}`);
}

/** A line of the final summary. */
interface SummaryRow {
  readonly measure: string;
  readonly result: PairResult;
  readonly target?: number;
}

const SUMMARY: SummaryRow[] = [];

/** Figures printed under the summary table (heap after load, the warm figure). */
const NOTES: string[] = [];

/** The machine, as printed at the start and above the Markdown table. */
function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} CPUs (${cpus[0]?.model.trim() ?? 'unknown model'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB, `
    + `${os.platform()} ${os.release()}, Node ${process.version}`;
}

function loadAverage(): string {
  return os.loadavg().map(l => l.toFixed(2)).join(' ');
}

/** Prints a pair result and adds it to the summary. */
function report(title: string, result: PairResult, target?: number): void {
  console.log(`${title}: ${result.pairs} pairs of fresh processes`);
  printTable([
    ['', 'CPU ms', 'wall ms', 'peak RSS MB'],
    [`A ${result.a.name}`, ms(result.a.cpuMs), ms(result.a.wallMs), ms(result.a.maxRssMb)],
    [`B ${result.b.name}`, ms(result.b.cpuMs), ms(result.b.wallMs), ms(result.b.maxRssMb)],
    ['A / B (per pair)', ratio(result.cpuRatio), ratio(result.wallRatio), ''],
  ]);
  if (target !== undefined) {
    console.log(`  CPU ratio ${result.cpuRatio.median.toFixed(2)}× against target ≤ ${target.toFixed(1)}×: ${verdict(result.cpuRatio.median, target)}`);
  }
  SUMMARY.push({ measure: title, result, target });
}

function printSummary(): void {
  console.log('Summary (medians; ratios are medians of per-pair ratios, min–max in brackets)');
  const header = ['measure', 'A CPU ms', 'B CPU ms', 'CPU ratio', 'wall ratio', 'peak RSS MB A / B', 'target', 'result'];
  const rows = SUMMARY.map(({ measure, result: r, target }) => [
    measure,
    r.a.cpuMs.median.toFixed(0),
    r.b.cpuMs.median.toFixed(0),
    ratio(r.cpuRatio),
    ratio(r.wallRatio),
    `${r.a.maxRssMb.median.toFixed(0)} / ${r.b.maxRssMb.median.toFixed(0)}`,
    target === undefined ? '' : `≤ ${target.toFixed(1)}×`,
    verdict(r.cpuRatio.median, target),
  ]);
  printTable([header, ...rows]);
  for (const note of NOTES) console.log(`  ${note}`);
  if (OPTIONS.markdown) {
    console.log('');
    console.log(`Figures of ${new Date().toISOString().slice(0, 10)}: ${machine()}; load average at the end ${loadAverage()}.`);
    console.log('');
    console.log(`| ${header.join(' | ')} |`);
    console.log(`|${header.map((_, i) => (i === 0 || i >= 6 ? '---' : '---:')).join('|')}|`);
    for (const row of rows) console.log(`| ${row.join(' | ')} |`);
    for (const note of NOTES) console.log(`\n${note[0].toUpperCase()}${note.slice(1)}`);
  }
}

// ---------------------------------------------------------------------------------------------
// 1. load
// ---------------------------------------------------------------------------------------------

function script(name: string): string {
  return path.join(BENCH, name);
}

/** Heap used after requiring `request` and a full GC, median of 3 untimed processes, in MB. */
function heapAfterLoad(request: string): number {
  const samples: number[] = [];
  for (let i = 0; i < 3; i++) {
    const result = spawnSync(process.execPath, ['--expose-gc', script('load.js'), request, '--heap'], { cwd: ROOT, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`heap after load of ${request}: ${result.stderr}`);
    samples.push(Number(result.stdout) / 1048576);
  }
  return spread(samples).median;
}

/** A package of --package / --against. */
type PackageSide = NonNullable<typeof SIDES>[number];

/** With --against: the same measure of package A and package B, paired. */
function comparePackages(title: string, n: number, spawn: (pkg: PackageSide, outdir: string, pair: number) => Spawn): void {
  const [a, b] = SIDES!;
  const result = runPairs(n,
    { name: a.name, spawn: (outdir, i) => spawn(a, outdir, i) },
    { name: b.name, spawn: (outdir, i) => spawn(b, outdir, i) });
  report(title, result);
  console.log('');
}

function measureLoad(): void {
  if (SIDES) {
    comparePackages("1. load: require('cdk8s-dynamo'), package A vs package B", runs(15, 5), pkg => ({ args: [script('load.js'), pkg.lib] }));
    return;
  }
  const lib = path.relative(ROOT, LIB_FILE);
  const result = runPairs(runs(15, 5),
    { name: "require('cdk8s-dynamo')", spawn: () => ({ args: [script('load.js'), lib] }) },
    { name: "require('cdk8s-plus-34')", spawn: () => ({ args: [script('load.js'), 'cdk8s-plus-34'] }) });
  report('1. load: cdk8s-dynamo vs cdk8s-plus-34', result, 1.0);
  const bare = heapAfterLoad('');
  const dynamo = heapAfterLoad(lib);
  const plus = heapAfterLoad('cdk8s-plus-34');
  const heap = `heap used after load and a full GC: cdk8s-dynamo ${dynamo.toFixed(1)} MB, cdk8s-plus-34 ${plus.toFixed(1)} MB, `
    + `bare node ${bare.toFixed(1)} MB (cdk8s-dynamo / cdk8s-plus-34 ${(dynamo / plus).toFixed(2)}×).`;
  console.log(`  ${heap}`);
  NOTES.push(heap);
  console.log('');
}

// ---------------------------------------------------------------------------------------------
// 2. synth and 3. charts
// ---------------------------------------------------------------------------------------------

type Output = 'graph' | 'components' | 'workloads';

/** The synth measures' app: 200 graphs of 25 components, a Chart each (the charts measure keeps app.js's default). */
const SYNTH_GRAPHS = 200;
const SYNTH_COMPONENTS = (SYNTH_GRAPHS * 25).toLocaleString('en-US');

/** The YAML files of an outdir, parsed: file name → documents. */
function readOutdir(dir: string): Map<string, unknown[]> {
  const files = fs.readdirSync(dir).filter(f => f.endsWith('.k8s.yaml')).sort();
  return new Map(files.map(f => [f, YAML.parseAllDocuments(fs.readFileSync(path.join(dir, f), 'utf8')).map(d => d.toJSON() as unknown)]));
}

/** Runs a subject once, outside any measurement, keeping its outdir. */
function renderOnce(args: readonly string[], outdir: string): void {
  const result = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`\`node ${args.join(' ')}\` failed:\n${result.stderr}`);
  if (!fs.existsSync(outdir)) throw new Error(`\`node ${args.join(' ')}\` wrote nothing to ${outdir}`);
}

/**
 * The objects of one rendering of the app in `output`, per chart, written to a JSON file for the
 * plain cdk8s baseline; checks that the baseline's app.synth() writes the same files with the same objects.
 */
function prepareObjects(output: Output): { file: string; objects: number } {
  const dir = tempDir(`objects-${output}`);
  const rendered = path.join(dir, 'dynamo');
  renderOnce([script('synth-dynamo.js'), output, 'chart-per-graph', rendered, String(SYNTH_GRAPHS)], rendered);
  const charts = readOutdir(rendered);
  const file = path.join(dir, 'objects.json');
  fs.writeFileSync(file, JSON.stringify([...charts].map(([name, objects]) => ({ chart: name.replace(/\.k8s\.yaml$/, ''), objects }))));
  const plain = path.join(dir, 'plain');
  renderOnce([script('synth-plain.js'), file, plain], plain);
  if (!isDeepStrictEqual(readOutdir(plain), charts)) throw new Error(`the plain cdk8s baseline does not write the same objects (${output} output)`);
  let objects = 0;
  for (const docs of charts.values()) objects += docs.length;
  return { file, objects };
}

/** The library's app against plain cdk8s writing the same objects, both through app.synth() in fresh processes. */
function synthPair(output: Output, n: number, target?: number): string {
  const prepared = prepareObjects(output);
  const plainSubject: Subject = { name: 'plain cdk8s ApiObjects', spawn: outdir => ({ args: [script('synth-plain.js'), prepared.file, outdir] }) };
  const result = runPairs(n,
    { name: `cdk8s-dynamo app, ${output} output`, spawn: outdir => ({ args: [script('synth-dynamo.js'), output, 'chart-per-graph', outdir, String(SYNTH_GRAPHS)] }) },
    plainSubject);
  report(`2. synth ${output}: ${SYNTH_COMPONENTS} components vs plain cdk8s`, result, target);
  console.log(`  (${prepared.objects} objects in ${SYNTH_GRAPHS} files; the baseline's files checked equal to the library's)`);
  console.log('');
  if (output !== 'components') {
    // the same objects through plain cdk8s in the library's construct tree (the components as empty
    // constructs): what cdk8s's walks of the larger tree cost by themselves (a reference, no target)
    const tree = { name: 'plain cdk8s, the library\'s tree', args: (outdir: string) => [script('synth-plain-library-tree.js'), output, prepared.file, outdir] };
    const check = tempDir(`library-tree-${output}`);
    renderOnce(tree.args(check), check);
    const plain = tempDir(`plain-${output}`);
    renderOnce([script('synth-plain.js'), prepared.file, plain], plain);
    if (!isDeepStrictEqual(readOutdir(check), readOutdir(plain))) throw new Error(`the library's tree in plain cdk8s does not write the same objects (${output} output)`);
    const reference = runPairs(n, { name: tree.name, spawn: outdir => ({ args: tree.args(outdir) }) }, plainSubject);
    report(`2. synth ${output}, plain cdk8s in the library's tree vs plain cdk8s (reference)`, reference);
    console.log('');
  }
  return prepared.file;
}

/** The warm figure: both sides built and synthesized repeatedly in one process (not what users pay). */
function warmSynth(output: Output, objectsFile: string): void {
  const n = runs(3);
  const result = spawnSync(process.execPath, [script('synth-warm.js'), output, objectsFile, String(n), String(SYNTH_GRAPHS)], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`warm synthesis failed:\n${result.stderr}`);
  const samples = JSON.parse(result.stdout) as { dynamo: { cpuMs: number; wallMs: number }[]; plain: { cpuMs: number; wallMs: number }[] };
  const cpu = spread(samples.dynamo.map((s, i) => s.cpuMs / samples.plain[i].cpuMs));
  const wall = spread(samples.dynamo.map((s, i) => s.wallMs / samples.plain[i].wallMs));
  console.log(`2. synth ${output}, WARM in one process (modules loaded and code warmed up; not what users pay): ${n} interleaved rounds`);
  printTable([
    ['', 'CPU ms', 'wall ms'],
    [`A cdk8s-dynamo app, ${output} output`, ms(spread(samples.dynamo.map(s => s.cpuMs))), ms(spread(samples.dynamo.map(s => s.wallMs)))],
    ['B plain cdk8s ApiObjects', ms(spread(samples.plain.map(s => s.cpuMs))), ms(spread(samples.plain.map(s => s.wallMs)))],
    ['A / B (per round)', ratio(cpu), ratio(wall)],
  ]);
  NOTES.push(`warm, in one process (not what users pay), ${output} output: ${ms(spread(samples.dynamo.map(s => s.cpuMs)))} ms CPU against `
    + `${ms(spread(samples.plain.map(s => s.cpuMs)))} ms, ${ratio(cpu)}.`);
  console.log('');
}

function measureSynth(): void {
  if (SIDES) {
    for (const output of ['workloads', 'graph', 'components'] as const) {
      comparePackages(`2. synth ${output}: ${SYNTH_COMPONENTS} components, package A vs package B`, runs(7),
        (pkg, outdir) => ({ args: [script('synth-dynamo.js'), output, 'chart-per-graph', outdir, String(SYNTH_GRAPHS)], env: { BENCH_LIB: pkg.lib } }));
    }
    return;
  }
  const workloads = synthPair('workloads', runs(7), 1.2);
  warmSynth('workloads', workloads);
  synthPair('graph', runs(5), 1.5);
  synthPair('components', runs(5));
}

/** Graphs (each in its own Chart, or all in one) of the charts measure: cdk8s validates the whole app once per chart. */
const CHART_GRAPHS = 400;

function measureCharts(): void {
  const env = { BENCH_GRAPHS: String(CHART_GRAPHS) };
  const result = runPairs(runs(7),
    { name: `${CHART_GRAPHS} charts of one graph`, spawn: outdir => ({ args: [script('synth-dynamo.js'), 'graph', 'chart-per-graph', outdir], env }) },
    { name: `one chart of ${CHART_GRAPHS} graphs`, spawn: outdir => ({ args: [script('synth-dynamo.js'), 'graph', 'one-chart', outdir], env }) });
  report(`3. charts: a chart per graph vs one chart, ${CHART_GRAPHS} graphs of 25 components (graph output)`, result, 1.3);
  console.log('');
  // the same comparison for plain cdk8s and the same tree, without the library: what cdk8s's
  // validation of the whole app before each chart costs by itself (a reference, no target)
  const plain = runPairs(runs(7),
    { name: `${CHART_GRAPHS} charts, plain cdk8s`, spawn: outdir => ({ args: [script('synth-plain-tree.js'), 'chart-per-graph', outdir, String(CHART_GRAPHS)] }) },
    { name: 'one chart, plain cdk8s', spawn: outdir => ({ args: [script('synth-plain-tree.js'), 'one-chart', outdir, String(CHART_GRAPHS)] }) });
  report(`3. charts, plain cdk8s with the same tree (reference): a chart per graph vs one chart, ${CHART_GRAPHS} graphs`, plain);
  console.log('');
}

// ---------------------------------------------------------------------------------------------
// 4. cli
// ---------------------------------------------------------------------------------------------

const VLLM_IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const SGLANG_IMAGE = 'nvcr.io/nvidia/ai-dynamo/sglang-runtime:1.4.0';
const PLANNER_IMAGE = 'nvcr.io/nvidia/ai-dynamo/dynamo-planner:1.4.0';
const MODEL = 'Qwen/Qwen3-0.6B';

/**
 * The CLI's inputs, generated with the library (graph output): vLLM and SGLang, each aggregated
 * (frontend and worker) and disaggregated (frontend, planner, prefill and decode workers).
 */
function cliInputs(): string[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const dynamo = require(LIB_FILE) as typeof DynamoApi;
  const dir = tempDir('inputs');
  const app = new App({ outdir: dir });
  const backends: [string, DynamoApi.BackendFramework, string, string][] = [
    ['vllm', dynamo.BackendFramework.VLLM, VLLM_IMAGE, 'dynamo.vllm'],
    ['sglang', dynamo.BackendFramework.SGLANG, SGLANG_IMAGE, 'dynamo.sglang'],
  ];
  for (const [backend, framework, image, module] of backends) {
    const agg = new dynamo.DynamoGraph(new Chart(app, `${backend}-agg`), 'Graph', { metadata: { name: `${backend}-agg` }, backendFramework: framework });
    agg.addFrontend('Frontend', { image });
    agg.addWorker('Worker', { image, command: ['python3', '-m', module], args: ['--model', MODEL], gpus: 1 });
    const disagg = new dynamo.DynamoGraph(new Chart(app, `${backend}-disagg`), 'Graph', {
      metadata: { name: `${backend}-disagg` },
      backendFramework: framework,
    });
    disagg.addFrontend('Frontend', { image });
    disagg.addPlanner('Planner', { image: PLANNER_IMAGE, command: ['python3', '-m', 'dynamo.planner'] });
    const worker = (mode: string): DynamoApi.ComponentOptions => ({
      image, command: ['python3', '-m', module], args: ['--model', MODEL, '--disaggregation-mode', mode], gpus: 1,
    });
    disagg.addPrefillWorker('PrefillWorker', worker('prefill'));
    disagg.addDecodeWorker('DecodeWorker', worker('decode'));
  }
  app.synth();
  return fs.readdirSync(dir).sort().map(f => {
    const file = path.join(dir, f.replace(/\.k8s\.yaml$/, '.yaml'));
    fs.renameSync(path.join(dir, f), file);
    return file;
  });
}

function measureCli(): void {
  const files = cliInputs();
  if (SIDES) {
    comparePackages('4. cli: render --output workloads FILE, one process per file, package A vs package B', runs(15, 5),
      (pkg, outdir, i) => ({ args: [pkg.cli, 'render', '--output', 'workloads', '--out', outdir, files[i % files.length]] }));
    comparePackages(`4. cli: render --output workloads ${files.length} FILES in one process, package A vs package B`, runs(7),
      (pkg, outdir) => ({ args: [pkg.cli, 'render', '--output', 'workloads', '--out', outdir, ...files] }));
    comparePackages('4. cli: validate FILE, one process per file, package A vs package B', runs(15, 5),
      (pkg, _outdir, i) => ({ args: [pkg.cli, 'validate', files[i % files.length]] }));
    return;
  }
  const lines = files.map(f => fs.readFileSync(f, 'utf8').split('\n').length - 1);
  const render = (outdir: string, inputs: readonly string[]): Spawn => ({ args: [CLI, 'render', '--output', 'workloads', '--out', outdir, ...inputs] });
  const copy = (outdir: string, inputs: readonly string[]): Spawn => ({ args: [script('copy.js'), outdir, ...inputs] });
  const perFile = runPairs(runs(15, 5),
    { name: 'cdk8s-dynamo render --output workloads FILE', spawn: (outdir, i) => render(outdir, [files[i % files.length]]) },
    { name: 'bare node: read FILE, write it', spawn: (outdir, i) => copy(outdir, [files[i % files.length]]) });
  report('4. cli: one process per file', perFile, 4.0);
  console.log(`  (files in turn: ${files.map((f, i) => `${path.basename(f)} ${lines[i]} lines`).join(', ')})`);
  console.log('');
  const all = runPairs(runs(7),
    { name: `cdk8s-dynamo render --output workloads ${files.length} FILES`, spawn: outdir => render(outdir, files) },
    { name: `bare node: read and write ${files.length} FILES`, spawn: outdir => copy(outdir, files) });
  report(`4. cli: one process for all ${files.length} files`, all);
  console.log('');
}

// ---------------------------------------------------------------------------------------------

function main(): void {
  if (!fs.existsSync(LIB_FILE)) throw new Error(`${LIB_FILE} not found: compile first (\`npx projen compile\`; \`npm run bench\` does)`);
  const started = process.hrtime.bigint();
  const library = SIDES ? SIDES.map((pkg, i) => `${i === 0 ? 'A' : 'B'} ${pkg.name}`).join(' against ') : path.relative(ROOT, LIB_FILE);
  console.log(`cdk8s-dynamo benchmark, ${new Date().toISOString().slice(0, 10)}: library ${library}`
    + `${OPTIONS.quick ? ', quick' : ''}${OPTIONS.runs ? `, ${OPTIONS.runs} pairs per measure` : ''}`);
  console.log(`machine: ${machine()}; load average ${loadAverage()}`);
  console.log('');
  try {
    if (OPTIONS.only.has('load')) measureLoad();
    if (OPTIONS.only.has('synth')) measureSynth();
    if (OPTIONS.only.has('charts') && !SIDES) measureCharts();
    if (OPTIONS.only.has('cli')) measureCli();
    printSummary();
  } finally {
    if (tmpRoot) fs.rmSync(tmpRoot, { recursive: true, force: true });
  }
  console.log('');
  console.log(`total ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(0)} s`);
}

main();
