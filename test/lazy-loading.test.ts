/**
 * `require('cdk8s-dynamo')` loads what defining the constructs needs; the check-and-render
 * pipeline (render engine, admission checks, their schemas) and the import code load with the
 * first synthesis that needs them. Checked in a fresh `node` process (what a module cache holds
 * depends on everything loaded before): the compiled package in lib/ when it is built
 * (`npx projen build` compiles first), else the sources through ts-node. The compiled package takes
 * them from its pipeline bundle (one file; test/pipeline-bundle.test.ts), the sources from their modules.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const LIB_ENTRY = path.join(ROOT, 'lib', 'src', 'index.js');
const FROM_LIB = fs.existsSync(LIB_ENTRY);

/** The module files each phase of the script below had loaded, relative to the package (`src/engine/render`, ...). */
interface Phases {
  readonly required: string[];
  readonly defined: string[];
  readonly synthesized: string[];
  /** Whether the pipeline bundle had been loaded, after defining and after synthesizing (lib/ only). */
  readonly bundleDefined?: boolean;
  readonly bundleSynthesized?: boolean;
}

/** Requires the package, defines a graph of each output mode, then synthesizes; prints the loaded modules of each phase. */
const SCRIPT = `
const path = require('path');
const root = ${JSON.stringify(FROM_LIB ? path.join(ROOT, 'lib') : ROOT)};
const loaded = () => Object.keys(require.cache)
  .filter(f => f.startsWith(root + path.sep) && !f.includes(path.sep + 'node_modules' + path.sep))
  .map(f => path.relative(root, f).split(path.sep).join('/').replace(/\\.(js|ts)$/, ''));
const lib = require(${JSON.stringify(FROM_LIB ? LIB_ENTRY : path.join(ROOT, 'src', 'index.ts'))});
const required = loaded();
const { Chart, Testing } = require('cdk8s');
const chart = new Chart(Testing.app(), 'test');
const image = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
for (const output of [lib.OutputMode.GRAPH, lib.OutputMode.WORKLOADS]) {
  const graph = new lib.DynamoGraph(chart, output, { output });
  graph.addFrontend('Frontend', { image });
  graph.addWorker('Worker', { image, command: ['python3', '-m', 'dynamo.vllm'], gpus: 1 });
}
const defined = loaded();
const bundle = () => ${FROM_LIB ? `require(${JSON.stringify(path.join(ROOT, 'lib', 'src', 'lazy-modules.js'))}).pipelineBundleState().fromBundle` : 'undefined'};
const bundleDefined = bundle();
Testing.synth(chart);
process.stdout.write(JSON.stringify({ required, defined, synthesized: loaded(), bundleDefined, bundleSynthesized: bundle() }));
`;

function runPhases(): Phases {
  const args = FROM_LIB ? ['-e', SCRIPT] : ['-r', 'ts-node/register/transpile-only', '-e', SCRIPT];
  const env = { ...process.env, TS_NODE_PROJECT: path.join(ROOT, 'tsconfig.dev.json') };
  const run = spawnSync(process.execPath, args, { cwd: ROOT, env, encoding: 'utf8', timeout: 120_000 });
  if (run.status !== 0) throw new Error(`the script failed (${run.status}): ${run.stderr}`);
  return JSON.parse(run.stdout) as Phases;
}

/** What synthesis, validation and import need, and defining the constructs does not. */
const HEAVY = [
  /^src\/pipeline\//,
  /^src\/engine\/render$/,
  /^src\/engine\/(workloads|pod|grove|multinode|component|graph|backend|hash)\//,
  /^src\/validation\//,
  /^imports\/.*\.schema$/,
  /^src\/(constructs\/(graph-import|component-import)|import\/v1alpha1\/)/,
];
const heavy = (modules: readonly string[]) => modules.filter(m => HEAVY.some(pattern => pattern.test(m)));

describe(`requiring the package (${FROM_LIB ? 'lib/' : 'src/ through ts-node'}) in a fresh process`, () => {
  let phases: Phases;
  beforeAll(() => {
    phases = runPhases();
  }, 180_000);

  test('loads the constructs and none of the engine, validation, schemas or import code', () => {
    expect(phases.required).toEqual(expect.arrayContaining(['src/index', 'src/constructs/graph', 'src/constructs/component']));
    expect(heavy(phases.required)).toEqual([]);
  });

  test('defining graphs loads none of them either', () => {
    expect(heavy(phases.defined)).toEqual([]);
    if (FROM_LIB) expect(phases.bundleDefined).toBe(false);
  });

  (FROM_LIB ? test : test.skip)('the first synthesis loads the pipeline bundle, and none of its modules from their files', () => {
    expect(phases.bundleSynthesized).toBe(true);
    // the Kubernetes schemas stay outside the bundle (a construct module reads them on first use
    // from their file; one copy in a process, the bundle requires the same file)
    expect(heavy(phases.synthesized)).toEqual(['imports/k8s-openapi.schema']);
  });

  (FROM_LIB ? test.skip : test)('the first synthesis loads the render engine, the validation and the schemas', () => {
    expect(phases.synthesized).toEqual(expect.arrayContaining([
      'src/pipeline/check-and-render',
      'src/engine/render',
      'src/admission/validate',
      'src/admission/emitted-admission',
      'imports/nvidia.com.schema',
      'imports/k8s-openapi.schema',
    ]));
  });
});
