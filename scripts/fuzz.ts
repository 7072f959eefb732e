/**
 * Property-based fuzzing of validation and rendering (fast-check):
 *
 *   (a) admissible graphs: no violation, and every output renders (with and without Grove);
 *   (b) mutated graphs: rejected with a violation of the broken rule, never an exception;
 *       rendering throws nothing but `RenderError`s.
 *
 *   ts-node --project tsconfig.dev.json scripts/fuzz.ts [--runs N] [--seed S] [--path P] [--only a|b] [--strict]
 *
 * Runs each property N times (default 1000), prints the counts and durations, and on a failure the
 * seed, the path and the shrunk counterexample (re-run exactly that case with `--seed S --path P`).
 * Cases showing an already reported finding (KNOWN_FINDINGS in test/support/fuzz-properties.ts)
 * are counted and listed, not failed, unless `--strict`.
 * Exits 1 when a property fails, 2 on a usage error.
 */
import * as fc from 'fast-check';
import { admissibleGraphProperty, FindingTally, KNOWN_FINDINGS, mutatedGraphProperty } from '../test/support/fuzz-properties';

interface FuzzArgs {
  readonly runs: number;
  readonly seed?: number;
  readonly path?: string;
  readonly only?: 'a' | 'b';
  readonly strict: boolean;
}

/** Parses the command line; throws an Error with the usage problem. */
export function parseFuzzArgs(argv: readonly string[]): FuzzArgs {
  let runs = 1000;
  let seed: number | undefined;
  let replayPath: string | undefined;
  let only: 'a' | 'b' | undefined;
  let strict = false;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--strict') {
      strict = true;
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    i++;
    if (flag === '--runs') {
      runs = Number(value);
      if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got "${value}"`);
    } else if (flag === '--seed') {
      seed = Number(value);
      if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got "${value}"`);
    } else if (flag === '--path') {
      replayPath = value;
    } else if (flag === '--only') {
      if (value !== 'a' && value !== 'b') throw new Error(`--only must be a or b, got "${value}"`);
      only = value;
    } else {
      throw new Error(`unknown option "${flag}"`);
    }
  }
  return { runs, seed, path: replayPath, only, strict };
}

/** Runs one property; returns whether it held. */
function runProperty<T extends [unknown]>(
  title: string, property: fc.IProperty<T>, tally: FindingTally, args: FuzzArgs, log: (line: string) => void,
): boolean {
  const started = Date.now();
  const details = fc.check(property, {
    numRuns: args.runs,
    ...(args.seed !== undefined ? { seed: args.seed } : {}),
    ...(args.path !== undefined ? { path: args.path } : {}),
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const known = [...tally.counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (!details.failed) {
    log(`${title}: passed ${details.numRuns} runs (${details.numSkips} skipped) in ${seconds}s, seed ${details.seed}`);
    for (const [id, count] of known) log(`  known finding ${id}: ${count} case(s): ${KNOWN_FINDINGS[id]}`);
    return true;
  }
  log(`${title}: FAILED after ${details.numRuns} runs (${details.numShrinks} shrinks) in ${seconds}s`);
  log(`  seed: ${details.seed}`);
  log(`  path: ${details.counterexamplePath}`);
  log(`  replay: ts-node --project tsconfig.dev.json scripts/fuzz.ts --only ${title[0]} --seed ${details.seed} --path ${details.counterexamplePath}${args.strict ? ' --strict' : ''}`);
  const error = details.errorInstance;
  log(`  failure: ${error instanceof Error ? error.message : String(error)}`);
  log(`  counterexample: ${JSON.stringify(details.counterexample?.[0])}`);
  return false;
}

/** Runs the properties and returns the exit code. */
export function runFuzz(argv: readonly string[], log: (line: string) => void = console.log): number {
  let args: FuzzArgs;
  try {
    args = parseFuzzArgs(argv);
  } catch (e) {
    log(`usage error: ${(e as Error).message}`);
    log('usage: scripts/fuzz.ts [--runs N] [--seed S] [--path P] [--only a|b] [--strict]');
    return 2;
  }
  let ok = true;
  if (args.only !== 'b') {
    const tally = new FindingTally(args.strict);
    ok = runProperty('a (admissible graphs)', admissibleGraphProperty(tally), tally, args, log) && ok;
  }
  if (args.only !== 'a') {
    const tally = new FindingTally(args.strict);
    ok = runProperty('b (mutated graphs)', mutatedGraphProperty(), tally, args, log) && ok;
  }
  return ok ? 0 : 1;
}

if (require.main === module) {
  process.exitCode = runFuzz(process.argv.slice(2));
}
