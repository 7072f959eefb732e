/**
 * Conformance runner: renders the operator's golden scenarios and matches them.
 *
 *   ts-node --project tsconfig.dev.json scripts/conformance.ts [-v] [DIR]
 *
 * DIR (default `$DYNAMO_CONFORMANCE_DIR`) holds `<group>/<scenario>/input.yaml` and `output.yaml`.
 * Each scenario's input is rendered with the engine and matched against its output (the golden
 * contract, see src/conformance/matcher.ts). Scenarios listed in SUPPORTED_SCENARIOS must match;
 * the others are rendered and matched when possible and reported as skipped. `-v` also prints the
 * differences of skipped scenarios. Exits 1 when a supported scenario does not match.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { matchScenario } from '../src/conformance/matcher';
import { isSupportedScenario, OUTPUT_MODE_KINDS, scenarioOutputMode, SUPPORTED_SCENARIOS } from '../src/conformance/supported';
import * as engine from '../src/engine/render';

/** The namespace the scenarios are rendered in (it satisfies the goldens' `clusterenv-.*` patterns). */
export const CONFORMANCE_NAMESPACE = 'clusterenv-conformance';

/** The operator the goldens were recorded with: version 1.4, Grove and LWS available. */
export const CONFORMANCE_OPERATOR = { version: '1.4.0', groveAvailable: true, lwsAvailable: true };

export interface ConformanceRenderOptions {
  output: any;
  namespace?: string;
  operator?: { version?: string; groveAvailable?: boolean; lwsAvailable?: boolean };
}

export type RenderFunction = (docs: any[], options: ConformanceRenderOptions) => readonly unknown[];

export interface ConformanceOptions {
  /** @default the engine's renderDocuments */
  render?: RenderFunction;
  /** Output modes the renderer knows. @default the engine's OUTPUT_MODES, when it exports them */
  knownModes?: readonly string[];
  /** Where lines go. @default console.log */
  log?: (line: string) => void;
  /** Print the differences of skipped scenarios too. @default false */
  verbose?: boolean;
}

export interface ConformanceSummary {
  passed: number;
  failed: number;
  skipped: number;
}

/** Parse a multi-document YAML file into plain values (empty documents dropped). */
export function readYamlDocuments(file: string): any[] {
  const docs = parseAllDocuments(fs.readFileSync(file, 'utf8'));
  const list = Array.isArray(docs) ? docs : [docs];
  const out: any[] = [];
  for (const doc of list) {
    if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0].message}`);
    const value = doc.toJS();
    if (value !== null && value !== undefined) out.push(value);
  }
  return out;
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

type Outcome =
  | { kind: 'matched' }
  | { kind: 'different'; differences: string[] }
  | { kind: 'error'; message: string };

/** Render and match every scenario under `dir`, printing one line per scenario and a summary. */
export function runConformance(dir: string, options: ConformanceOptions = {}): ConformanceSummary {
  const log = options.log ?? ((line: string) => console.log(line));
  const render: RenderFunction = options.render ?? ((docs, opts) => engine.renderDocuments(docs, opts));
  const knownModes = options.knownModes ?? (options.render ? undefined : (engine as unknown as { OUTPUT_MODES?: readonly string[] }).OUTPUT_MODES);
  const summary: ConformanceSummary = { passed: 0, failed: 0, skipped: 0 };

  const ids = findScenarios(dir);
  for (const id of ids) {
    const supported = isSupportedScenario(id);
    const mode = scenarioOutputMode(id);
    let outcome: Outcome;
    if (knownModes && !knownModes.includes(mode)) {
      outcome = { kind: 'error', message: `the engine has no "${mode}" output mode` };
    } else {
      outcome = runScenario(path.join(dir, ...id.split('/')), mode, render);
    }

    if (supported) {
      if (outcome.kind === 'matched') {
        summary.passed++;
        log(`matched ${id}`);
      } else {
        summary.failed++;
        log(`DIFFERENT ${id}`);
        const lines = outcome.kind === 'error' ? [outcome.message] : outcome.differences;
        for (const line of lines) log(`    ${line}`);
      }
      continue;
    }

    summary.skipped++;
    let reason: string;
    switch (outcome.kind) {
      case 'matched': reason = `${mode} mode: matches, but not listed in SUPPORTED_SCENARIOS`; break;
      case 'different': reason = `${mode} mode: ${outcome.differences.length} difference(s)`; break;
      default: reason = `${mode} mode: ${outcome.message}`;
    }
    log(`skipped (unsupported): ${id}: ${reason}`);
    if (options.verbose && outcome.kind === 'different') for (const line of outcome.differences) log(`    ${line}`);
  }

  // A supported scenario the folder lacks counts as failed: the folder is not the one we know.
  for (const id of SUPPORTED_SCENARIOS) {
    if (ids.includes(id)) continue;
    summary.failed++;
    log(`DIFFERENT ${id}`);
    log(`    scenario not found under ${dir}`);
  }

  log(`${summary.passed} passed, ${summary.failed} failed${summary.skipped > 0 ? `, ${summary.skipped} skipped` : ''}`);
  return summary;
}

function runScenario(dir: string, mode: string, render: RenderFunction): Outcome {
  let input: any[];
  let expected: any[];
  try {
    input = readYamlDocuments(path.join(dir, 'input.yaml'));
    expected = readYamlDocuments(path.join(dir, 'output.yaml'));
  } catch (e) {
    return { kind: 'error', message: `cannot read the scenario: ${(e as Error).message}` };
  }
  let rendered: readonly unknown[];
  try {
    rendered = render(input, { output: mode, namespace: CONFORMANCE_NAMESPACE, operator: { ...CONFORMANCE_OPERATOR } });
  } catch (e) {
    return { kind: 'error', message: `render failed: ${(e as Error).message ?? String(e)}` };
  }
  const kinds = OUTPUT_MODE_KINDS[mode as keyof typeof OUTPUT_MODE_KINDS];
  const result = matchScenario(expected, [...rendered], { kinds: kinds ? [...kinds] : undefined });
  return result.matched ? { kind: 'matched' } : { kind: 'different', differences: result.differences };
}

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
  const summary = runConformance(dir, { verbose });
  return summary.failed > 0 ? 1 : 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
