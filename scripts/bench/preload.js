// @ts-check
/**
 * Preloaded into every measured process (`node --require scripts/bench/preload.js ...`): on exit,
 * writes the CPU time of the whole process (user + system, µs, since it started) and its peak
 * resident memory (maxRSS, KiB) to the file named by $BENCH_STATS. Works for any Node program,
 * the CLI included, as it needs nothing from the program.
 */
'use strict';
const fs = require('fs');

const out = process.env.BENCH_STATS;
if (out) {
  process.on('exit', () => {
    const cpu = process.cpuUsage();
    const stats = { userUs: cpu.user, systemUs: cpu.system, maxRssKb: process.resourceUsage().maxRSS };
    fs.writeFileSync(out, JSON.stringify(stats));
  });
}
