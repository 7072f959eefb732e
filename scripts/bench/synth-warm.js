// @ts-check
/**
 * Measure 2's warm figure (not what users pay: one process, modules loaded once, code warmed up):
 * the library's app (see app.js, a Chart per graph) and the plain cdk8s baseline (the objects of
 * OBJECTS.json as ApiObjects), each built in a new App and synthesized with app.synth() into a
 * temp outdir, in ROUNDS interleaved rounds after one warm-up round. Prints the CPU and wall
 * milliseconds of every round as JSON.
 *
 *   node scripts/bench/synth-warm.js graph|components|workloads OBJECTS.json ROUNDS [GRAPHS]
 *
 * GRAPHS: how many graphs of 25 components (default 40, see app.js).
 */
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const { addGraphs, libraryFile } = require('./app');
const cdk8s = require('cdk8s');
const dynamo = require(libraryFile());

const [output, objectsFile, rounds, graphs] = process.argv.slice(2);
if (!rounds) throw new Error('usage: synth-warm.js OUTPUT OBJECTS.json ROUNDS');
/** @type {{ chart: string, objects: any[] }[]} */
const charts = JSON.parse(fs.readFileSync(objectsFile, 'utf8'));

/** @param {(outdir: string) => void} synth */
function time(synth) {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-bench-warm-'));
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  synth(outdir);
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const cpu = process.cpuUsage(cpu0);
  fs.rmSync(outdir, { recursive: true, force: true });
  return { cpuMs: (cpu.user + cpu.system) / 1000, wallMs };
}

/** @param {string} outdir */
function library(outdir) {
  const app = new cdk8s.App({ outdir });
  addGraphs(cdk8s, dynamo, app, output, 'chart-per-graph', graphs === undefined ? undefined : Number(graphs));
  app.synth();
}

/** @param {string} outdir */
function plain(outdir) {
  const app = new cdk8s.App({ outdir });
  for (const { chart: id, objects } of charts) {
    const chart = new cdk8s.Chart(app, id);
    objects.forEach((obj, i) => new cdk8s.ApiObject(chart, `o${i}`, obj));
  }
  app.synth();
}

time(library);
time(plain);
const samples = { dynamo: /** @type {any[]} */ ([]), plain: /** @type {any[]} */ ([]) };
for (let i = 0; i < Number(rounds); i++) {
  if (i % 2 === 0) {
    samples.dynamo.push(time(library));
    samples.plain.push(time(plain));
  } else {
    samples.plain.push(time(plain));
    samples.dynamo.push(time(library));
  }
}
process.stdout.write(JSON.stringify(samples));
