// @ts-check
/**
 * The benchmark's app, shared by the subjects: graphs of 25 components (the CRD's maximum per
 * graph), frontends, decode and prefill workers in turn, built with the library's public
 * constructs only: 40 graphs (1,000 components) unless the caller asks for another count (the
 * synth measures build 200, 5,000 components). Each graph in its own Chart (as an app of many
 * graphs is usually laid out), or all graphs in one Chart.
 */
'use strict';
const path = require('path');

const ROOT = path.resolve(__dirname, '..', '..');
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const NAMESPACE = 'bench';
/** Graphs in the app ($BENCH_GRAPHS: the charts measure builds 400). */
const GRAPHS = Number(process.env.BENCH_GRAPHS ?? 40);
/** Components per graph ($BENCH_COMPONENTS_PER_GRAPH). */
const COMPONENTS_PER_GRAPH = Number(process.env.BENCH_COMPONENTS_PER_GRAPH ?? 25);

/** The library under test: the compiled package (`$BENCH_LIB` names another build). */
function libraryFile() {
  return process.env.BENCH_LIB ? path.resolve(process.env.BENCH_LIB) : path.join(ROOT, 'lib', 'src', 'index.js');
}

/**
 * Adds the graphs to `app`.
 * @param {any} cdk8s the cdk8s module
 * @param {any} dynamo the library
 * @param {any} app a cdk8s App
 * @param {string} output 'graph' | 'components' | 'workloads'
 * @param {'chart-per-graph' | 'one-chart'} layout
 * @param {number} [graphs] how many graphs of COMPONENTS_PER_GRAPH components (default GRAPHS)
 */
function addGraphs(cdk8s, dynamo, app, output, layout, graphs = GRAPHS) {
  const mode = { graph: dynamo.OutputMode.GRAPH, components: dynamo.OutputMode.COMPONENTS, workloads: dynamo.OutputMode.WORKLOADS }[output];
  if (mode === undefined) throw new Error(`unknown output mode: ${output}`);
  const single = layout === 'one-chart' ? new cdk8s.Chart(app, 'bench', { namespace: NAMESPACE }) : undefined;
  for (let g = 0; g < graphs; g++) {
    const name = `llm-${String(g).padStart(2, '0')}`;
    const chart = single ?? new cdk8s.Chart(app, name, { namespace: NAMESPACE });
    const graph = new dynamo.DynamoGraph(chart, name, { metadata: { name }, backendFramework: dynamo.BackendFramework.VLLM, output: mode });
    for (let i = 0; i < COMPONENTS_PER_GRAPH; i++) {
      const id = String(i).padStart(2, '0');
      switch (i % 3) {
        case 0: graph.addFrontend(`frontend-${id}`, { image: IMAGE }); break;
        case 1: graph.addDecodeWorker(`decode-${id}`, { image: IMAGE, replicas: 2 }); break;
        default: graph.addPrefillWorker(`prefill-${id}`, { image: IMAGE, replicas: 1 }); break;
      }
    }
  }
}

module.exports = { ROOT, GRAPHS, COMPONENTS_PER_GRAPH, libraryFile, addGraphs };
