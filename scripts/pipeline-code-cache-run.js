// @ts-check
/**
 * Build step (run by scripts/bundle-pipeline.ts after it bundles the pipeline): stamps the pipeline
 * bundle with a build id, then synthesizes through the compiled package the CLI test graph
 * (test/fixtures/cli/graph.yaml: vLLM, a frontend and a decode worker) in each output mode and a
 * disaggregated TensorRT-LLM graph with a multinode decode worker (test/fixtures/eject/disagg.yaml)
 * in workloads output, then runs the command line (part of the bundle, bin/load-cli.js) on the CLI
 * test graph (`validate`, and `render --output workloads` into .tmp/cli-code-cache), so that the code
 * caches written when this process exits (the bundle's and the generated validators') hold what such
 * syntheses and commands compile.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const { recordPipelineCodeCache } = require(path.join(ROOT, 'lib', 'src', 'lazy-modules.js'));

recordPipelineCodeCache();
const cdk8s = require('cdk8s');
const dynamo = require(path.join(ROOT, 'lib', 'src', 'index.js'));
const fixture = (...names) => fs.readFileSync(path.join(ROOT, 'test', 'fixtures', ...names), 'utf8');
const app = new cdk8s.App();
for (const [id, output] of [['graph', dynamo.OutputMode.GRAPH], ['components', dynamo.OutputMode.COMPONENTS], ['workloads', dynamo.OutputMode.WORKLOADS]]) {
  dynamo.DynamoGraph.fromYaml(new cdk8s.Chart(app, id, { namespace: 'cache' }), 'Graph', fixture('cli', 'graph.yaml'), { output });
}
dynamo.DynamoGraph.fromYaml(new cdk8s.Chart(app, 'disagg', { namespace: 'cache' }), 'Graph', fixture('eject', 'disagg.yaml'), { output: dynamo.OutputMode.WORKLOADS });
app.synthYaml();

// the command line, from the bundle, as bin/cdk8s-dynamo runs it (its output is not kept)
const { main } = require(path.join(ROOT, 'lib', 'src', 'lazy-modules.js')).deferredPartsModule().commandLine();
const graphFile = path.join(ROOT, 'test', 'fixtures', 'cli', 'graph.yaml');
const outdir = path.join(ROOT, '.tmp', 'cli-code-cache');
fs.rmSync(outdir, { recursive: true, force: true });
for (const args of [['validate', graphFile], ['render', '--output', 'workloads', '--out', outdir, graphFile]]) {
  process.argv = [process.argv[0], 'cdk8s-dynamo', ...args];
  main();
  if (process.exitCode) throw new Error(`cdk8s-dynamo ${args.join(' ')}: exit ${process.exitCode}`);
}
