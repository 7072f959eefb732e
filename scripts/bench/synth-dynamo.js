// @ts-check
/**
 * Measure 2 and 3 subject, what `cdk8s synth` runs for an app of the library: require cdk8s and
 * the library, build the benchmark's app (see app.js), then `app.synth()` into OUTDIR (one YAML
 * file per chart, with the library's synth-time validation).
 *
 *   node scripts/bench/synth-dynamo.js graph|components|workloads chart-per-graph|one-chart OUTDIR [GRAPHS]
 *
 * GRAPHS: how many graphs of 25 components (default 40, see app.js).
 */
'use strict';
const { addGraphs, libraryFile } = require('./app');
const cdk8s = require('cdk8s');
const dynamo = require(libraryFile());

const [output, layout, outdir, graphs] = process.argv.slice(2);
if (!outdir) throw new Error('usage: synth-dynamo.js OUTPUT LAYOUT OUTDIR');
const app = new cdk8s.App({ outdir });
addGraphs(cdk8s, dynamo, app, output, /** @type {any} */ (layout), graphs === undefined ? undefined : Number(graphs));
app.synth();
