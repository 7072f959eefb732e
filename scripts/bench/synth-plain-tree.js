// @ts-check
/**
 * Measure 3 reference subject: plain cdk8s with the tree shape of the benchmark's app and none of
 * the library. For each graph, a construct holding one ApiObject (a DynamoGraphDeployment of 25
 * components, as plain data; the library's components are not constructs); each graph in its own
 * Chart or all in one Chart, then `app.synth()` into OUTDIR.
 * What cdk8s alone pays for a chart per graph: it validates the whole app before each chart it writes.
 *
 *   node scripts/bench/synth-plain-tree.js chart-per-graph|one-chart OUTDIR [GRAPHS]
 */
'use strict';
const cdk8s = require('cdk8s');
const { Construct } = require('constructs');
const { GRAPHS, COMPONENTS_PER_GRAPH } = require('./app');

const [layout, outdir, graphs] = process.argv.slice(2);
if (!outdir) throw new Error('usage: synth-plain-tree.js LAYOUT OUTDIR [GRAPHS]');
const count = graphs === undefined ? GRAPHS : Number(graphs);
const app = new cdk8s.App({ outdir });
const single = layout === 'one-chart' ? new cdk8s.Chart(app, 'bench', { namespace: 'bench' }) : undefined;
for (let g = 0; g < count; g++) {
  const name = `llm-${String(g).padStart(2, '0')}`;
  const chart = single ?? new cdk8s.Chart(app, name, { namespace: 'bench' });
  const graph = new Construct(chart, name);
  const components = Array.from({ length: COMPONENTS_PER_GRAPH }, (_, i) => ({ name: `c${i}`, type: i === 0 ? 'frontend' : 'decode', replicas: 1 }));
  new cdk8s.ApiObject(graph, 'Resource', { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata: { name }, spec: { backendFramework: 'vllm', components } });
}
app.synth();
