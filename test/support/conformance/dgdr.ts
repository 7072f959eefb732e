/**
 * The operator's DynamoGraphDeploymentRequest goldens (`dgdr/<scenario>`): their input is a request,
 * their output what the operator created after its profiling Job ran. They are planned with
 * `cdk8s-dynamo plan`'s code (the real profiler, in the Python environment of docs/plan.md), then
 * rendered and matched like the other scenarios. Shared by the conformance runner and
 * test/plan.test.ts.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { ScenarioRenderer } from './scenario';
import { CONFORMANCE_NAMESPACE } from './supported';
import { planFile, withStoredGraphs } from '../../../src/cli';
import { copyJson, isMap, supportedOperatorSettings } from '../../../src/model';
import { OVERRIDE_TOOL_NAME } from '../../../src/plan';

/** The DGDR scenarios; they need the profiler's environment. */
export const PLANNED_SCENARIOS: readonly string[] = ['dgdr/deployment', 'dgdr/grove', 'dgdr/lws'];

/**
 * The runtime version the goldens' harness sets on each request before profiling
 * (deploy/operator/internal/controller/clusterenv_test.go: `dgdr.Spec.RuntimeVersionOverride = "1.4.0"`).
 */
export const GOLDEN_RUNTIME_VERSION = '1.4.0';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Where the recorded profiler runs of the DGDR goldens are kept (README.md there; scripts/plan-record.ts). */
export const PLAN_FIXTURES_DIR = path.join(ROOT, 'test', 'fixtures', 'plan');

/** The files of the profiler's output folder that plan reads, and that a recording keeps. */
export const RECORDED_FILES: readonly string[] = ['final_config.yaml', 'profiler_status.yaml'];

/** The interpreter of a Python environment with the profiler ($CDK8S_DYNAMO_PYTHON, else .tmp/plan-venv), or why there is none. */
export function profilerPython(): { python?: string; reason?: string } {
  const candidates = [process.env.CDK8S_DYNAMO_PYTHON, path.join(ROOT, '.tmp', 'plan-venv', 'bin', 'python')].filter((p): p is string => !!p);
  const python = candidates.find(p => fs.existsSync(p));
  if (python) return { python };
  return {
    reason: 'needs a Python environment with the Dynamo profiler: create one with scripts/plan-env.sh DYNAMO_SOURCE '
      + '(.tmp/plan-venv) or name its interpreter in $CDK8S_DYNAMO_PYTHON (docs/plan.md)',
  };
}

/**
 * The objects the operator created for the scenario's request, as `plan` computes them: the request
 * as the harness applied it (in the conformance namespace, with GOLDEN_RUNTIME_VERSION), profiled
 * with `python`. Throws an Error with the problems when planning fails.
 */
export function plannedScenarioInput(id: string, input: readonly unknown[], python: string): unknown[] {
  const requests = input.map(doc => {
    const request = copyJson(doc);
    if (isMap(request) && isMap(request.metadata) && isMap(request.spec)) {
      request.metadata.namespace = CONFORMANCE_NAMESPACE;
      request.spec.runtimeVersionOverride = GOLDEN_RUNTIME_VERSION;
    }
    return request;
  });
  const problems: string[] = [];
  const planned = planFile(`${id}/input.yaml`, requests.map(r => JSON.stringify(r)).join('\n---\n'), { python }, problems, []);
  if (planned === undefined) throw new Error(problems.join('\n'));
  return planned.docs;
}

/**
 * The renderer of a DGDR scenario: the generated graph is itself one of the objects the operator
 * created (its golden lists it), so it comes first, as stored, then what `render` makes of the
 * planned objects, as `plan` writes them.
 */
export function withPlannedGraph(render: ScenarioRenderer): ScenarioRenderer {
  return (docs, options) => withStoredGraphs(docs, render(docs, options), supportedOperatorSettings(options.operator));
}

/** What a recorded profiler run received (`call.json` of its fixture folder; scripts/plan-record.ts). */
export interface RecordedCall {
  /** The module run with `-m`. */
  readonly module: string;
  /** The `--config` the profiler received, parsed: plan must send exactly its JSON. */
  readonly config: unknown;
  /** The variables the profiler reads, as the recorded run had them. */
  readonly env: Readonly<Record<string, string>>;
  /** Whether the override tool was named (DYNAMO_DGD_APPLY_OVERRIDES_BIN). */
  readonly overrideTool: boolean;
  /** The profiler's exit code. */
  readonly exitCode: number;
}

/** The fixture folder of a DGDR scenario's recorded run. */
export function recordingDir(id: string): string {
  return path.join(PLAN_FIXTURES_DIR, id.split('/')[1]);
}

/** Whether the scenario has a recorded profiler run to replay. */
export function hasRecording(id: string): boolean {
  return fs.existsSync(path.join(recordingDir(id), 'call.json'));
}

/**
 * A stand-in interpreter, written into `dir`, that replays the recorded profiler run of scenario
 * `id`: when it is called exactly as the recorded run was (`-m <module> --config <the same JSON>
 * --output-dir DIR`, the same DGDR_NAME and DGDR_NAMESPACE, an override tool named or not alike),
 * it writes the recorded files into DIR and exits as the profiler did; otherwise it says on one line
 * what differs and exits 1, so plan fails with that line. An empty override tool sits beside it, as
 * plan looks for one. With `anyKeyOrder`, a `--config` that holds the same JSON with its keys in
 * another order is accepted too: the construct option `plan` sends the request's spec in the
 * order the construct writes it (the operator's field order), the recorded runs the golden's.
 */
export function replayPython(id: string, dir: string, options: { readonly anyKeyOrder?: boolean } = {}): string {
  const file = path.join(dir, 'python');
  fs.writeFileSync(file, `#!${process.execPath}
const fs = require('fs'), path = require('path');
const fixture = ${JSON.stringify(recordingDir(id))};
const call = JSON.parse(fs.readFileSync(path.join(fixture, 'call.json'), 'utf8'));
const args = process.argv.slice(2);
const differs = (what, expected, got) => {
  process.stderr.write('replay of ${id}: ' + what + ' differs from the recorded run: expected ' + JSON.stringify(expected) + ', got ' + JSON.stringify(got) + '\\n');
  process.exit(1);
};
const config = JSON.stringify(call.config);
const expected = ['-m', call.module, '--config', config, '--output-dir'];
if (args.length !== 6) differs('the argument list', expected.concat(['DIR']), args);
// the first place where two JSON values differ, as a path (and the two values there)
const firstDifference = (a, b, at) => {
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object' && Array.isArray(a) === Array.isArray(b)) {
    for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])]) {
      const found = firstDifference(a[key], b[key], at === '' ? key : at + '.' + key);
      if (found) return found;
    }
    return undefined;
  }
  return JSON.stringify(a) === JSON.stringify(b) ? undefined : { at, expected: a, got: b };
};
expected.forEach((arg, i) => {
  if (args[i] === arg) return;
  if (i !== 3) differs('argument ' + (i + 1), arg, args[i]);
  let got;
  try { got = JSON.parse(args[3]); } catch { differs('the --config JSON', config, args[3]); }
  const found = firstDifference(call.config, got, '');
  if (!found && ${options.anyKeyOrder === true}) return;
  if (!found) differs('the --config JSON (key order or spacing)', config, args[3]);
  differs('the --config JSON at ' + (found.at || 'its top'), found.expected, found.got);
});
for (const name of Object.keys(call.env)) if (process.env[name] !== call.env[name]) differs(name, call.env[name], process.env[name]);
if (!!process.env.DYNAMO_DGD_APPLY_OVERRIDES_BIN !== call.overrideTool) differs('DYNAMO_DGD_APPLY_OVERRIDES_BIN being set', call.overrideTool, !call.overrideTool);
const out = args[5];
for (const name of fs.readdirSync(path.join(fixture, 'output'))) fs.copyFileSync(path.join(fixture, 'output', name), path.join(out, name));
process.exit(call.exitCode);
`);
  fs.chmodSync(file, 0o755);
  fs.writeFileSync(path.join(dir, OVERRIDE_TOOL_NAME), '');
  return file;
}
