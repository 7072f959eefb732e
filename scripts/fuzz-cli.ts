/**
 * Property-based runs of the installed command (spawned once per case and command): hostile,
 * damaged, mutated and admissible files; see test/support/fuzz-cli.ts.
 *
 *   ts-node --project tsconfig.dev.json scripts/fuzz-cli.ts [--runs N] [--seed S]
 *
 * Needs the compiled library (`npx projen compile`). Prints the outcomes per kind of input; exits 1
 * when a case breaks the contract (with the seed and the counterexample), 2 on a usage error.
 */
import * as fs from 'fs';
import { parseArgs } from 'node:util';
import * as os from 'os';
import * as path from 'path';
import * as fc from 'fast-check';
import { checkCliCase, cliProperty, HOSTILE_CASES } from '../test/support/fuzz-cli';

function main(): number {
  let runs = 100;
  let seed: number | undefined;
  try {
    const { values } = parseArgs({ options: { runs: { type: 'string' }, seed: { type: 'string' } }, strict: true });
    if (values.runs !== undefined) runs = Number(values.runs);
    if (values.seed !== undefined) seed = Number(values.seed);
    if (!Number.isInteger(runs) || runs < 1 || (seed !== undefined && !Number.isInteger(seed))) throw new Error('--runs must be a positive integer and --seed an integer');
  } catch (e) {
    process.stderr.write(`fuzz-cli: ${(e as Error).message}\nusage: fuzz-cli [--runs N] [--seed S]\n`);
    return 2;
  }
  const outcomes = new Map<string, number>();
  const count = (kind: string, o: { validate: number; render: number }) => {
    const key = `${kind.split(':')[0]}: validate exit ${o.validate}, render exit ${o.render}`;
    outcomes.set(key, (outcomes.get(key) ?? 0) + 1);
  };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-fuzz-cli-'));
  try {
    for (const c of HOSTILE_CASES) count(c.kind, checkCliCase(c, dir));
  } catch (e) {
    process.stderr.write(`fuzz-cli: a hostile file broke the contract: ${(e as Error).message}\n`);
    return 1;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const started = Date.now();
  const details = fc.check(cliProperty((c, o) => count(c.kind, o)), { numRuns: runs, ...(seed !== undefined ? { seed } : {}) });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  for (const [key, n] of [...outcomes].sort(([a], [b]) => (a < b ? -1 : 1))) process.stdout.write(`  ${key}: ${n}\n`);
  if (details.failed) {
    process.stdout.write(`fuzz-cli: FAILED after ${details.numRuns} runs in ${seconds}s, seed ${details.seed}, path ${details.counterexamplePath}\n`);
    process.stdout.write(`  ${String(details.errorInstance ?? '')}\n`);
    return 1;
  }
  process.stdout.write(`fuzz-cli: ${HOSTILE_CASES.length} hostile files and ${details.numRuns} generated files passed in ${seconds}s, seed ${details.seed}\n`);
  return 0;
}

process.exitCode = main();
