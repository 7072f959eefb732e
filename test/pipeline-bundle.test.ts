/**
 * The pipeline bundle of the compiled package (lib/src/pipeline.bundle.js with its V8 code cache,
 * made by the compile task: scripts/bundle-pipeline.ts): a process that synthesizes takes the parts
 * loaded on first use from it, with the cache; the bundle holds no module the package loads from
 * its own file (one copy of each); and what is synthesized through it is what the sources
 * synthesize; the generated validators it uses come with their code caches too. Also the loading
 * of a bundle with its cache (src/code-cache.ts), on a bundle made here. (Needs `npx projen compile`, as the other tests of the compiled package.)
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { App, Chart } from 'cdk8s';
import * as dynamoFromSources from '../src';
import { DynamoGraph, OutputMode } from '../src';
import { BundleFiles, loadBundle, stampBundle, writeCodeCache } from '../src/code-cache';

const ROOT = path.resolve(__dirname, '..');
const LIB_SRC = path.join(ROOT, 'lib', 'src');
const BUNDLE = path.join(LIB_SRC, 'pipeline.bundle.js');
const GRAPH_YAML = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'cli', 'graph.yaml'), 'utf8');

/** The files of lib/src the bundle holds (the build lists them in .tmp/pipeline-bundle-modules.json). */
function bundledModules(): string[] {
  const files = JSON.parse(fs.readFileSync(path.join(ROOT, '.tmp', 'pipeline-bundle-modules.json'), 'utf8')) as string[];
  return files.map(f => path.join(ROOT, f)).filter(f => f.startsWith(`${LIB_SRC}${path.sep}`));
}

/**
 * What every run below synthesizes (JavaScript, run in the spawned process and here alike): the CLI
 * test graph in each output mode. Bound: `dynamo` (the package), `Chart`, `app`, `yamlText`.
 */
const SYNTHESIZE_ALL = `
  for (const [id, output] of [['graph', dynamo.OutputMode.GRAPH], ['components', dynamo.OutputMode.COMPONENTS], ['workloads', dynamo.OutputMode.WORKLOADS]]) {
    dynamo.DynamoGraph.fromYaml(new Chart(app, id, { namespace: 'team-a' }), 'Graph', yamlText, { output });
  }
  return app.synthYaml();
`;

function synthesizeAll(dynamo: unknown, app: App): string {
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  return new Function('dynamo', 'Chart', 'app', 'yamlText', SYNTHESIZE_ALL)(dynamo, Chart, app, GRAPH_YAML) as string;
}

interface Run {
  readonly yaml: string;
  readonly state: { fromBundle: boolean; cacheGiven: boolean; cacheRejected: boolean; validatorCaches: { loaded: number; cacheRejected: number } };
  readonly footprint: unknown;
  readonly loaded: string[];
}

let run: Run;

beforeAll(() => {
  if (!fs.existsSync(BUNDLE)) throw new Error('lib/src/pipeline.bundle.js is missing: run `npx projen compile` before these tests (`npx projen build` does)');
  const script = `
    const { App, Chart } = require('cdk8s');
    const dynamo = require(${JSON.stringify(path.join(LIB_SRC, 'index.js'))});
    const app = new App();
    const yaml = (function (yamlText) { ${SYNTHESIZE_ALL} })(${JSON.stringify(GRAPH_YAML)});
    const graph = dynamo.DynamoGraph.fromYaml(new Chart(app, 'explained'), 'Graph', ${JSON.stringify(GRAPH_YAML)});
    const footprint = graph.footprint();
    const state = require(${JSON.stringify(path.join(LIB_SRC, 'lazy-modules.js'))}).pipelineBundleState();
    process.stdout.write(JSON.stringify({ yaml, state, footprint, loaded: Object.keys(require.cache) }));
  `;
  const result = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`the synthesis through lib/ failed (${result.status}): ${result.stderr}`);
  run = JSON.parse(result.stdout) as Run;
}, 180_000);

describe('the pipeline bundle of the compiled package', () => {
  test('is what a synthesis takes the pipeline from, with the code cache the build made for this Node', () => {
    expect(run.state).toEqual(expect.objectContaining({ fromBundle: true, cacheGiven: true, cacheRejected: false }));
  });

  test('the generated validators such a synthesis uses are loaded with the code caches the build made', () => {
    // the Dynamo CRDs, the pod template and the core kinds of workloads output, at least
    expect(run.state.validatorCaches.loaded).toBeGreaterThanOrEqual(5);
    expect(run.state.validatorCaches.cacheRejected).toBe(0);
  });

  test('holds the pipeline (render engine, admission, imports) and none of the modules the package loads from their files', () => {
    const bundled = bundledModules();
    expect(bundled.map(f => path.relative(LIB_SRC, f))).toEqual(expect.arrayContaining([
      'pipeline/check-and-render.js', 'engine/render.js', 'admission/validate.js', 'admission/emitted-admission.js',
      'constructs/graph-import.js', 'explain/explain.js',
    ]));
    const loadedFromFiles = new Set(run.loaded);
    expect(bundled.filter(f => loadedFromFiles.has(f))).toEqual([]);
    // one copy of the code: the compiled modules it holds are not in lib/ (their declarations are)
    expect(bundled.filter(f => fs.existsSync(f))).toEqual([]);
    expect(fs.existsSync(path.join(LIB_SRC, 'engine', 'render.d.ts'))).toBe(true);
    // the construct classes it uses are the package's own
    expect(run.loaded).toEqual(expect.arrayContaining([path.join(LIB_SRC, 'constructs', 'graph.js'), path.join(LIB_SRC, 'model', 'render-error.js')]));
  });

  test('synthesizes what the sources synthesize', () => {
    expect(run.yaml).toEqual(synthesizeAll(dynamoFromSources, new App()));
    const graph = DynamoGraph.fromYaml(new Chart(new App(), 'explained'), 'Graph', GRAPH_YAML, { output: OutputMode.GRAPH });
    expect(run.footprint).toEqual(JSON.parse(JSON.stringify(graph.footprint())));
  });
});

describe('a bundle with its code cache', () => {
  let dir: string;
  let files: BundleFiles;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-bundle-'));
    files = { bundle: path.join(dir, 'bundle.js'), cache: path.join(dir, 'bundle.cache'), stamp: '// test bundle, build ' };
    fs.writeFileSync(files.bundle, 'exports.twice = (n) => 2 * n;\nexports.dir = __dirname;\nexports.path = require("path").basename(__filename);\n');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('loads as a CommonJS module of its folder, without a cache before the build made one', () => {
    const loaded = loadBundle(files);
    expect(loaded.exports.twice(21)).toBe(42);
    expect(loaded.exports.dir).toBe(dir);
    expect(loaded.exports.path).toBe('bundle.js');
    expect(loaded.cacheGiven).toBe(false);
  });

  test('is stamped with a build id, and its cache is given to V8 and taken', () => {
    const id = stampBundle(files);
    expect(fs.readFileSync(files.bundle, 'utf8').startsWith(`${files.stamp}${id}\n`)).toBe(true);
    expect(stampBundle(files)).toBe(id); // stamping again keeps one stamp, with the same id
    const first = loadBundle(files, false);
    first.exports.twice(1);
    writeCodeCache(files, first);
    expect(fs.readFileSync(files.cache).toString('latin1', 0, id.length)).toBe(id);
    const second = loadBundle(files);
    expect(second.cacheGiven).toBe(true);
    expect(second.script.cachedDataRejected).toBe(false);
    expect(second.exports.twice(4)).toBe(8);
  });

  test('a cache made for another build of the bundle is not given to V8', () => {
    stampBundle(files);
    writeCodeCache(files, loadBundle(files, false));
    fs.appendFileSync(files.bundle, 'exports.more = 1;\n');
    stampBundle(files);
    const loaded = loadBundle(files);
    expect(loaded.cacheGiven).toBe(false);
    expect(loaded.exports.more).toBe(1);
  });

  test('writing a cache of a bundle without a build id is refused', () => {
    expect(() => writeCodeCache(files, loadBundle(files))).toThrow(/has no build id: stamp it first/);
  });
});
