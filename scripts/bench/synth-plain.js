// @ts-check
/**
 * Measure 2 baseline subject: plain cdk8s emitting the same objects. Requires cdk8s, reads the
 * objects of each chart from OBJECTS.json (prepared beforehand from one rendering of the library:
 * `[{ "chart": "llm-00", "objects": [...] }, ...]`), creates them as ApiObjects in the same chart
 * layout, then `app.synth()` into OUTDIR.
 *
 *   node scripts/bench/synth-plain.js OBJECTS.json OUTDIR
 */
'use strict';
const fs = require('fs');
const cdk8s = require('cdk8s');

const [objectsFile, outdir] = process.argv.slice(2);
if (!outdir) throw new Error('usage: synth-plain.js OBJECTS.json OUTDIR');
/** @type {{ chart: string, objects: any[] }[]} */
const charts = JSON.parse(fs.readFileSync(objectsFile, 'utf8'));
const app = new cdk8s.App({ outdir });
for (const { chart: id, objects } of charts) {
  const chart = new cdk8s.Chart(app, id);
  objects.forEach((obj, i) => new cdk8s.ApiObject(chart, `o${i}`, obj));
}
app.synth();
