import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { findScenarios, runConformance, scenarioRoot } from '../scripts/conformance';
import { PLANNED_SCENARIOS } from './support/conformance/dgdr';
import { ScenarioRenderOptions } from './support/conformance/scenario';
import { RenderError } from './support/facade';
import { CONFORMANCE_DIR, testNeeding } from './support/shared';

const CM_INPUT = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  k: v\n';
const CM_EXPECTED = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  $strict: false\n  name: a\ndata:\n  k: v\n';

let root: string;

function scenario(id: string, input: string, output: string, base = root): void {
  const dir = path.join(base, ...id.split('/'));
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'input.yaml'), input);
  fs.writeFileSync(path.join(dir, 'output.yaml'), output);
}

/** A renderer that passes the input through (a ConfigMap stays a ConfigMap). */
function passThrough(docs: unknown[]): unknown[] {
  return docs;
}

const SUPPORTED = ['dcd/deployment', 'dcd/lws', 'dgd/components'];
const DEFERRED = { 'dgd/grove': 'the Grove workload provider (PodCliqueSet) is not rendered in workloads output yet' };

function run(render: (docs: unknown[], options: ScenarioRenderOptions) => readonly unknown[] = passThrough, verbose = false) {
  const lines: string[] = [];
  // the scenario lists as they were while dgd/grove was deferred, so the skip path is exercised
  const summary = runConformance(root, { render, log: l => lines.push(l), verbose, supported: SUPPORTED, deferred: DEFERRED });
  return { summary, lines };
}

beforeEach(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'conformance-'));
});

afterEach(() => {
  fs.rmSync(root, { recursive: true, force: true });
});

describe('conformance runner (scripts/conformance.ts)', () => {
  test('supported scenarios that match are reported matched; the run passes', () => {
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED);
    scenario('dcd/lws', CM_INPUT, CM_EXPECTED);
    scenario('dgd/components', CM_INPUT, CM_EXPECTED);
    const { summary, lines } = run();
    expect(summary).toEqual({ passed: 3, failed: 0, skipped: 0 });
    expect(lines).toContain('matched   dcd/deployment (workloads output, 1 object(s) rendered)');
    expect(lines).toContain('matched   dcd/lws (workloads output, 1 object(s) rendered)');
    expect(lines[lines.length - 1]).toBe('3 passed, 0 failed, 0 skipped');
  });

  test('a supported scenario that differs fails the run and prints its differences', () => {
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED.replace('k: v', 'k: w'));
    scenario('dcd/lws', CM_INPUT, CM_EXPECTED);
    scenario('dgd/components', CM_INPUT, CM_EXPECTED);
    const { summary, lines } = run();
    expect(summary.failed).toBe(1);
    const at = lines.indexOf('DIFFERENT dcd/deployment (workloads output)');
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at + 1, at + 3)).toEqual([
      '    ConfigMap/a: no rendered object matches; closest is ConfigMap/a',
      '    ConfigMap/a: data.k: expected "w", got "v"',
    ]);
  });

  test('a render error of a supported scenario fails the run with the message', () => {
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED);
    scenario('dcd/lws', CM_INPUT, CM_EXPECTED);
    scenario('dgd/components', CM_INPUT, CM_EXPECTED);
    const { summary, lines } = run(docs => {
      if ((docs[0] as any).metadata.name === 'a') throw new RenderError('ConfigMap/a', 'data', 'not today');
      return docs;
    });
    expect(summary.failed).toBe(3);
    expect(lines).toContain('    render failed: ConfigMap/a: data: not today');
  });

  test('deferred scenarios are skipped with their reason and do not fail the run', () => {
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED);
    scenario('dcd/lws', CM_INPUT, CM_EXPECTED);
    scenario('dgd/components', CM_INPUT, CM_EXPECTED);
    scenario('dgd/grove', CM_INPUT, CM_EXPECTED.replace('k: v', 'k: w'));
    const { summary, lines } = run();
    expect(summary).toEqual({ passed: 3, failed: 0, skipped: 1 });
    expect(lines).toContain('skipped   dgd/grove: the Grove workload provider (PodCliqueSet) is not rendered in workloads output yet '
      + '(workloads output: 2 difference(s))');
  });

  test('-v prints the differences of skipped scenarios', () => {
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED);
    scenario('dcd/lws', CM_INPUT, CM_EXPECTED);
    scenario('dgd/components', CM_INPUT, CM_EXPECTED);
    scenario('dgd/grove', CM_INPUT, CM_EXPECTED.replace('k: v', 'k: w'));
    expect(run(passThrough, true).lines.some(l => /^ {4}.*data\.k: expected "w"/.test(l))).toBe(true);
    expect(run(passThrough, false).lines.some(l => /^ {4}/.test(l))).toBe(false);
  });

  test('an unknown scenario is skipped as unlisted', () => {
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED);
    scenario('dcd/lws', CM_INPUT, CM_EXPECTED);
    scenario('dgd/components', CM_INPUT, CM_EXPECTED);
    scenario('dgd/new-one', CM_INPUT, CM_EXPECTED);
    expect(run().lines).toContain('skipped   dgd/new-one: not listed in SUPPORTED_SCENARIOS or DEFERRED_SCENARIOS '
      + '(workloads output: it matches now: list it in SUPPORTED_SCENARIOS)');
  });

  test('a supported scenario missing from the folder fails the run', () => {
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED);
    const { summary, lines } = run();
    expect(summary).toEqual({ passed: 1, failed: 2, skipped: 0 });
    expect(lines).toContain(`    scenario not found under ${root}`);
  });

  test('the renderer gets the conformance namespace and operator settings', () => {
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED);
    scenario('dcd/lws', CM_INPUT, CM_EXPECTED);
    scenario('dgd/components', CM_INPUT, CM_EXPECTED);
    const seen: ScenarioRenderOptions[] = [];
    run((docs, options) => {
      seen.push(options);
      return docs;
    });
    expect(seen).toHaveLength(3);
    for (const options of seen) {
      expect(options).toEqual({
        output: 'workloads',
        namespace: 'clusterenv-conformance',
        operator: { version: '1.5.0', groveAvailable: true, lwsAvailable: true, restrictedNamespace: 'clusterenv-conformance', groveTerminationDelay: '15m' },
      });
    }
  });

  test('the folder may be the conformance folder holding operator-golden/', () => {
    const golden = path.join(root, 'operator-golden');
    scenario('dcd/deployment', CM_INPUT, CM_EXPECTED, golden);
    scenario('dcd/lws', CM_INPUT, CM_EXPECTED, golden);
    scenario('dgd/components', CM_INPUT, CM_EXPECTED, golden);
    expect(scenarioRoot(root)).toBe(golden);
    expect(findScenarios(golden)).toEqual(['dcd/deployment', 'dcd/lws', 'dgd/components']);
    expect(run().summary).toEqual({ passed: 3, failed: 0, skipped: 0 });
  });

  test('scenarios are found only with both input.yaml and output.yaml, sorted byte-wise', () => {
    scenario('dgd/b', CM_INPUT, CM_EXPECTED);
    scenario('dgd/B', CM_INPUT, CM_EXPECTED);
    fs.mkdirSync(path.join(root, 'dgd', 'empty'));
    expect(findScenarios(root)).toEqual(['dgd/B', 'dgd/b']);
  });

  testNeeding('conformance')('without the profiler the DGDR goldens are planned with its recorded output and must match, saying so', () => {
    const lines: string[] = [];
    const summary = runConformance(CONFORMANCE_DIR!, { log: l => lines.push(l), replayProfiler: true });
    expect(summary.failed).toBe(0);
    for (const id of PLANNED_SCENARIOS) {
      expect(lines).toContainEqual(expect.stringMatching(new RegExp(`^matched   ${id} \\(workloads output, \\d+ object\\(s\\) rendered; profiler replayed from recorded output\\)$`)));
    }
    expect(lines.filter(l => l.includes('replayed'))).toHaveLength(PLANNED_SCENARIOS.length + 1);
    expect(lines[lines.length - 1]).toBe(`${summary.passed} passed (${PLANNED_SCENARIOS.length} with the profiler replayed from recorded output), 0 failed, ${summary.skipped} skipped`);
  }, 120_000);

  testNeeding('conformance')('a DGDR golden whose request no longer matches the recorded profiler run fails, naming what differs', () => {
    const golden = path.join(CONFORMANCE_DIR!, 'dgdr', 'deployment');
    const input = fs.readFileSync(path.join(golden, 'input.yaml'), 'utf8');
    expect(input).toContain('osl: 1000');
    scenario('dgdr/deployment', input.replace('osl: 1000', 'osl: 2000'), fs.readFileSync(path.join(golden, 'output.yaml'), 'utf8'));
    const lines: string[] = [];
    const summary = runConformance(root, { log: l => lines.push(l), replayProfiler: true, supported: ['dgdr/deployment'], deferred: {} });
    expect(summary).toEqual({ passed: 0, failed: 1, skipped: 0 });
    expect(lines[1]).toBe('DIFFERENT dgdr/deployment (workloads output)');
    expect(lines[2]).toBe('    plan failed: dgdr/deployment/input.yaml: document 1: DynamoGraphDeploymentRequest/aic-deployment: the profiler stopped without a result: '
      + 'replay of dgdr/deployment: the --config JSON at workload.osl differs from the recorded run: expected 1000, got 2000');
  });
});
