// @ts-check
/**
 * Measure 2 reference subject: plain cdk8s emitting the same objects as synth-plain.js, laid out in
 * the construct tree the library's app has, with none of the library. Per chart of OBJECTS.json: a
 * construct for the graph holding the objects (`graph` output: the one object as the ApiObject
 * `Resource`; `workloads` output: each object an ApiObject under a construct `Workloads`); the
 * components are not constructs in the library's tree. What plain cdk8s pays for walking that tree
 * on each of its validation passes, apart from the library's work.
 *
 *   node scripts/bench/synth-plain-library-tree.js graph|workloads OBJECTS.json OUTDIR
 */
'use strict';
const fs = require('fs');
const cdk8s = require('cdk8s');
const { Construct } = require('constructs');

const [output, objectsFile, outdir] = process.argv.slice(2);
if (!outdir || (output !== 'graph' && output !== 'workloads')) throw new Error('usage: synth-plain-library-tree.js graph|workloads OBJECTS.json OUTDIR');
/** @type {{ chart: string, objects: any[] }[]} */
const charts = JSON.parse(fs.readFileSync(objectsFile, 'utf8'));
const app = new cdk8s.App({ outdir });
for (const { chart: id, objects } of charts) {
  const chart = new cdk8s.Chart(app, id);
  const graph = new Construct(chart, id);
  if (output === 'graph') {
    objects.forEach((obj, i) => new cdk8s.ApiObject(graph, i === 0 ? 'Resource' : `o${i}`, obj));
  } else {
    const workloads = new Construct(graph, 'Workloads');
    objects.forEach((obj, i) => new cdk8s.ApiObject(workloads, `o${i}`, obj));
  }
}
app.synth();
