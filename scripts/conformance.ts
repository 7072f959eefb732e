/**
 * Conformance runner: renders the operator's golden scenarios and matches them.
 *
 *   ts-node --project tsconfig.dev.json scripts/conformance.ts [-v] [--replay] [DIR]
 *
 * DIR (default `$DYNAMO_CONFORMANCE_DIR`) holds `<group>/<scenario>/input.yaml` and `output.yaml`,
 * directly or under `operator-golden/`. Each scenario's input is rendered with the engine and
 * matched against its output (the golden contract, see test/support/conformance/matcher.ts), with the
 * namespace, operator settings and output mode of test/support/conformance/supported.ts.
 *
 * Prints one line per scenario: `matched`, `DIFFERENT` (followed by the differences) or
 * `skipped` with the reason. Scenarios listed in SUPPORTED_SCENARIOS must match; deferred ones
 * (DEFERRED_SCENARIOS) and unknown ones are skipped, with what the engine does with them today.
 * The DGDR scenarios (`dgdr/*`) are planned first, as `cdk8s-dynamo plan` does, with the profiler of
 * the Python environment of docs/plan.md; without one, with the profiler's recorded output
 * (test/fixtures/plan: a stand-in that checks plan calls it as the recorded run was called), and
 * their line says `profiler replayed from recorded output`; with neither they are skipped, saying so.
 * `--replay` replays the recorded output even where the profiler could run.
 * `-v` also prints the differences of skipped scenarios. Exits 1 when a supported scenario does
 * not match or is missing from the folder.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseYamlDocuments } from '../src/import/documents';
import { OUTPUT_MODES, renderDocuments } from '../src/pipeline/check-and-render';
import { hasRecording, PLANNED_SCENARIOS, plannedScenarioInput, profilerPython, replayPython, withPlannedGraph } from '../test/support/conformance/dgdr';
import { runPartialStage, runScenario, ScenarioOutcome, ScenarioRenderer } from '../test/support/conformance/scenario';
import { DEFERRED_SCENARIOS, PARTIAL_SCENARIOS, scenarioOutputMode, SUPPORTED_SCENARIOS } from '../test/support/conformance/supported';

export { CONFORMANCE_NAMESPACE, CONFORMANCE_OPERATOR } from '../test/support/conformance/supported';

export interface ConformanceOptions {
  /** @default the engine's renderDocuments */
  render?: ScenarioRenderer;
  /** Output modes the renderer knows. @default the engine's OUTPUT_MODES (any mode with a custom `render`) */
  knownModes?: readonly string[];
  /** Where lines go. @default console.log */
  log?: (line: string) => void;
  /** Print the differences of skipped scenarios too. @default false */
  verbose?: boolean;
  /** Scenarios that must match. @default SUPPORTED_SCENARIOS */
  supported?: readonly string[];
  /** Scenarios skipped with a reason. @default DEFERRED_SCENARIOS */
  deferred?: Readonly<Record<string, string>>;
  /** Scenarios asserted up to a stage, with the reason. @default PARTIAL_SCENARIOS of those that cannot be planned */
  partial?: Readonly<Record<string, string>>;
  /**
   * Plan the DGDR scenarios with the profiler's recorded output even when a profiler environment exists.
   * @default false (the profiler when there is one, else its recorded output)
   */
  replayProfiler?: boolean;
}

export interface ConformanceSummary {
  passed: number;
  failed: number;
  skipped: number;
  /** Scenarios whose stage passed but whose golden output is not reproduced yet (absent: none). */
  partial?: number;
}

/** Parse a multi-document YAML file into plain values (empty documents dropped). */
export function readYamlDocuments(file: string): unknown[] {
  // the golden files are written by a YAML 1.2 tool (`value: n` is the string "n")
  return parseYamlDocuments(fs.readFileSync(file, 'utf8'), file, { readAs: 'yaml-1.2' });
}

/** The folder that holds the `<group>/<scenario>` folders: `dir` itself or its `operator-golden/`. */
export function scenarioRoot(dir: string): string {
  const nested = path.join(dir, 'operator-golden');
  return fs.existsSync(nested) && fs.statSync(nested).isDirectory() ? nested : dir;
}

/** Scenario ids (`<group>/<scenario>`) that have both input.yaml and output.yaml, sorted. */
export function findScenarios(dir: string): string[] {
  const ids: string[] = [];
  for (const group of listDirs(dir)) {
    for (const scenario of listDirs(path.join(dir, group))) {
      const base = path.join(dir, group, scenario);
      if (fs.existsSync(path.join(base, 'input.yaml')) && fs.existsSync(path.join(base, 'output.yaml'))) {
        ids.push(`${group}/${scenario}`);
      }
    }
  }
  return ids.sort(codeUnitCompare);
}

function listDirs(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort(codeUnitCompare);
}

function codeUnitCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Read the documents of one scenario folder. */
function readScenarioDir(dir: string): { input: unknown[]; expected: unknown[] } {
  return { input: readYamlDocuments(path.join(dir, 'input.yaml')), expected: readYamlDocuments(path.join(dir, 'output.yaml')) };
}

/** Read, render and match one scenario folder (`replay`: see ConformanceOptions.replayProfiler). */
function runScenarioDir(id: string, dir: string, render: ScenarioRenderer, knownModes: readonly string[] | undefined,
  replay: boolean): ScenarioOutcome {
  const mode = scenarioOutputMode(id);
  if (knownModes && !knownModes.includes(mode)) return { kind: 'error', mode, message: `the engine has no "${mode}" output mode` };
  let input: unknown[];
  let expected: unknown[];
  try {
    input = readYamlDocuments(path.join(dir, 'input.yaml'));
    expected = readYamlDocuments(path.join(dir, 'output.yaml'));
  } catch (e) {
    return { kind: 'error', mode, message: `cannot read the scenario: ${(e as Error).message}` };
  }
  // a DGDR scenario: its request is planned with the profiler first (docs/plan.md), or with its
  // recorded output where there is no profiler (test/fixtures/plan), then rendered
  if (PLANNED_SCENARIOS.includes(id)) {
    const planning = dgdrPlanning(id, replay);
    // skipped: runConformance says why
    if (planning === 'none') return { kind: 'error', mode, message: 'not planned' };
    const replayDir = planning === 'replayed' ? fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-replay-')) : undefined;
    try {
      input = plannedScenarioInput(id, input, replayDir ? replayPython(id, replayDir) : profilerPython().python!);
    } catch (e) {
      return { kind: 'error', mode, message: `plan failed: ${(e as Error).message}` };
    } finally {
      if (replayDir) fs.rmSync(replayDir, { recursive: true, force: true });
    }
  }
  if (PLANNED_SCENARIOS.includes(id)) return runScenario(id, { input, expected }, withPlannedGraph(render));
  return runScenario(id, { input, expected }, render);
}

/**
 * How a DGDR scenario's request is planned: with the profiler of the environment of docs/plan.md,
 * else by replaying the profiler's recorded output for it (test/fixtures/plan), else not at all.
 */
function dgdrPlanning(id: string, replay: boolean): 'profiler' | 'replayed' | 'none' {
  if (!replay && profilerPython().python !== undefined) return 'profiler';
  return hasRecording(id) ? 'replayed' : 'none';
}

/** One line on what the engine does with a scenario that is not asserted. */
function outcomeNote(outcome: ScenarioOutcome): string {
  switch (outcome.kind) {
    case 'matched': return 'it matches now: list it in SUPPORTED_SCENARIOS';
    case 'different': return `${outcome.differences.length} difference(s)`;
    default: return outcome.message.split('\n')[0];
  }
}

/** Render and match every scenario under `dir`, printing one line per scenario and a summary. */
export function runConformance(dir: string, options: ConformanceOptions = {}): ConformanceSummary {
  const log = options.log ?? ((line: string) => console.log(line));
  const render: ScenarioRenderer = options.render ?? renderDocuments;
  const knownModes = options.knownModes ?? (options.render ? undefined : OUTPUT_MODES);
  const summary: ConformanceSummary = { passed: 0, failed: 0, skipped: 0 };
  // the DGDR scenarios must match when the profiler's environment is there or their recorded
  // profiler output is; otherwise only what the operator does before profiling is checked (partial)
  const replay = options.replayProfiler ?? false;
  const planned = PLANNED_SCENARIOS.filter(id => dgdrPlanning(id, replay) !== 'none');
  const supported = options.supported ?? [...SUPPORTED_SCENARIOS, ...planned];
  const deferred = options.deferred ?? DEFERRED_SCENARIOS;
  const partial = options.partial ?? Object.fromEntries(Object.entries(PARTIAL_SCENARIOS).filter(([id]) => !planned.includes(id))
    .map(([id, why]) => [id, `${why} (${profilerPython().reason ?? 'no profiler'}; and no recorded profiler output in test/fixtures/plan)`]));

  const root = scenarioRoot(dir);
  const ids = findScenarios(root);
  // the passed scenarios whose profiler was replayed: the summary says how many
  let replayedCount = 0;
  log(`conformance: ${ids.length} scenario(s) in ${root}`);
  for (const id of ids) {
    const outcome = runScenarioDir(id, path.join(root, ...id.split('/')), render, knownModes, replay);
    const mode = `${outcome.mode} output`;

    if (supported.includes(id)) {
      if (outcome.kind === 'matched') {
        summary.passed++;
        // a replayed profiler is said so: the search itself was not run
        const replayed = PLANNED_SCENARIOS.includes(id) && dgdrPlanning(id, replay) === 'replayed' ? '; profiler replayed from recorded output' : '';
        if (replayed) replayedCount++;
        log(`matched   ${id} (${mode}, ${outcome.rendered} object(s) rendered${replayed})`);
      } else {
        summary.failed++;
        log(`DIFFERENT ${id} (${mode})`);
        for (const line of outcome.kind === 'error' ? [outcome.message] : outcome.differences) log(`    ${line}`);
      }
      continue;
    }

    if (Object.prototype.hasOwnProperty.call(partial, id)) {
      let stage;
      try {
        stage = runPartialStage(readScenarioDir(path.join(root, ...id.split('/'))), render);
      } catch (e) {
        stage = { ok: false, message: `cannot read the scenario: ${(e as Error).message}` };
      }
      if (!stage.ok) {
        summary.failed++;
        log(`DIFFERENT ${id} (partial: ${partial[id]})`);
        log(`    ${stage.message}`);
        continue;
      }
      summary.partial = (summary.partial ?? 0) + 1;
      log(`partial   ${id}: ${partial[id]}; stage passed (${stage.message}); golden output (${mode}): ${outcomeNote(outcome)}`);
      if (options.verbose && outcome.kind === 'different') for (const line of outcome.differences) log(`    ${line}`);
      continue;
    }

    summary.skipped++;
    const reason = (Object.prototype.hasOwnProperty.call(deferred, id) ? deferred[id] : undefined) ?? 'not listed in SUPPORTED_SCENARIOS or DEFERRED_SCENARIOS';
    log(`skipped   ${id}: ${reason} (${mode}: ${outcomeNote(outcome)})`);
    if (options.verbose && outcome.kind === 'different') for (const line of outcome.differences) log(`    ${line}`);
  }

  // A supported scenario the folder lacks counts as failed: the folder is not the one we know.
  for (const id of supported) {
    if (ids.includes(id)) continue;
    summary.failed++;
    log(`DIFFERENT ${id}`);
    log(`    scenario not found under ${root}`);
  }

  const passedNote = replayedCount > 0 ? ` (${replayedCount} with the profiler replayed from recorded output)` : '';
  const partialCount = summary.partial === undefined ? '' : `, ${summary.partial} partial`;
  log(`${summary.passed} passed${passedNote}, ${summary.failed} failed, ${summary.skipped} skipped${partialCount}`);
  return summary;
}

/** The command line: returns the exit code. */
export function main(argv: string[]): number {
  const verbose = argv.includes('-v') || argv.includes('--verbose');
  const positional = argv.filter((a) => !a.startsWith('-'));
  const dir = positional[0] ?? process.env.DYNAMO_CONFORMANCE_DIR;
  if (!dir) {
    console.log('conformance: no scenario folder given (pass DIR or set $DYNAMO_CONFORMANCE_DIR); nothing to do.');
    return 0;
  }
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
    console.error(`conformance: ${dir} is not a folder`);
    return 1;
  }
  const summary = runConformance(dir, { verbose, replayProfiler: argv.includes('--replay') });
  return summary.failed > 0 ? 1 : 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
