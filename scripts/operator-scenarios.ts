/**
 * Operator scenarios runner: checks every scenario under test/operator-scenarios/ (facts from the
 * Dynamo operator's Go unit tests, see test/support/operator-scenarios.ts) against the render
 * engine and the admission checks, and prints pass/fail counts per area.
 *
 *   ts-node --project tsconfig.dev.json scripts/operator-scenarios.ts [-v] [FILTER]
 *
 * One line per scenario: `pass`, `FAIL` (followed by its failed assertions), `known` (a scenario
 * marked `knownMismatch` that still fails, as expected) or `UNMARK` (a marked scenario that now
 * passes: remove its knownMismatch). `-v` also prints the failed assertions of known mismatches.
 * FILTER keeps the scenarios whose id contains it. Exits 1 when a scenario fails or a marked one
 * passes, or when a scenario file is malformed.
 */
import { findScenarioFiles, OPERATOR_SCENARIOS_DIR, readScenario, runScenario, ScenarioResult, scenarioTitle, summarize } from '../test/support/operator-scenarios';

/** The command line: returns the exit code. */
export function main(argv: string[], log: (line: string) => void = (l) => console.log(l)): number {
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const filter = argv.filter((a) => !a.startsWith('-'))[0];
  const files = findScenarioFiles().filter((f) => filter === undefined || f.includes(filter));
  log(`operator scenarios: ${files.length} in ${OPERATOR_SCENARIOS_DIR}`);
  const results: ScenarioResult[] = [];
  let malformed = 0;
  for (const file of files) {
    let result: ScenarioResult;
    try {
      result = runScenario(readScenario(file));
    } catch (e) {
      malformed++;
      log(`FAIL   ${file}: ${(e as Error).message}`);
      continue;
    }
    results.push(result);
    const s = result.scenario;
    const ok = result.failures.length === 0;
    if (s.knownMismatch) {
      log(`${ok ? 'UNMARK' : 'known '} ${scenarioTitle(s)}${ok ? ' (passes now: remove knownMismatch)' : ` (${s.knownMismatch})`}`);
      if (!ok && verbose) for (const f of result.failures) log(`         ${f}`);
    } else {
      log(`${ok ? 'pass  ' : 'FAIL  '} ${scenarioTitle(s)}`);
      for (const f of result.failures) log(`         ${f}`);
    }
  }

  const areas = new Map<string, ScenarioResult[]>();
  for (const r of results) {
    const area = r.scenario.id.split('/')[0];
    areas.set(area, [...(areas.get(area) ?? []), r]);
  }
  log('');
  for (const [area, rs] of [...areas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const s = summarize(rs);
    log(`${area.padEnd(12)} ${rs.length} scenario(s): ${s.passed} passed, ${s.failed} failed, ${s.knownMismatches} known mismatch(es), ${s.unexpectedlyPassing} unexpectedly passing`);
  }
  const total = summarize(results);
  log(`total        ${results.length + malformed} scenario(s): ${total.passed} passed, ${total.failed + malformed} failed, `
    + `${total.knownMismatches} known mismatch(es), ${total.unexpectedlyPassing} unexpectedly passing`);
  return total.failed + total.unexpectedlyPassing + malformed > 0 ? 1 : 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
