// @ts-check
/**
 * Measure 4 baseline subject: a bare Node process that reads each YAML FILE and writes it,
 * unchanged, to OUTDIR/<name>.k8s.yaml (what `cdk8s-dynamo render --out OUTDIR FILE...` writes,
 * without the rendering).
 *
 *   node scripts/bench/copy.js OUTDIR FILE...
 */
'use strict';
const fs = require('fs');
const path = require('path');

const [outdir, ...files] = process.argv.slice(2);
if (!outdir || files.length === 0) throw new Error('usage: copy.js OUTDIR FILE...');
fs.mkdirSync(outdir, { recursive: true });
for (const file of files) {
  const text = fs.readFileSync(file, 'utf8');
  fs.writeFileSync(path.join(outdir, `${path.basename(file, path.extname(file))}.k8s.yaml`), text);
}
