/**
 * Records what the real Dynamo profiler writes for each of the operator's DGDR goldens, so the tests
 * and the conformance runner can replay it where no profiler environment exists
 * (test/fixtures/plan/README.md).
 *
 *   CDK8S_DYNAMO_PYTHON=.tmp/plan-venv/bin/python HF_HUB_OFFLINE=1 \
 *     ts-node --project tsconfig.dev.json scripts/plan-record.ts [DIR]
 *
 * DIR (default `$DYNAMO_CONFORMANCE_DIR`) holds the `dgdr/<scenario>` goldens, directly or under
 * `operator-golden/`. Each request is planned with `plan`'s own code, as the conformance runner
 * plans it, through a recording interpreter that runs the real one with the same arguments and
 * environment and then keeps, in test/fixtures/plan/<scenario>/, the call it received (`call.json`:
 * the `--config` JSON and the variables the profiler reads) and the files plan reads from the
 * profiler's output folder (RECORDED_FILES).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readYamlDocuments, scenarioRoot } from './conformance';
import { OVERRIDE_TOOL_NAME } from '../src/plan/profiler';
import { PLAN_FIXTURES_DIR, PLANNED_SCENARIOS, plannedScenarioInput, profilerPython, RECORDED_FILES } from '../test/support/conformance/dgdr';

/** The recording interpreter for one scenario: runs `python`, then copies the call and the output. */
function recordingPython(dir: string, python: string, fixture: string): string {
  const file = path.join(dir, 'python');
  fs.writeFileSync(file, `#!${process.execPath}
const { spawnSync } = require('child_process');
const fs = require('fs'), path = require('path');
const args = process.argv.slice(2);
const run = spawnSync(${JSON.stringify(python)}, args, { stdio: 'inherit', env: process.env });
const out = args[args.indexOf('--output-dir') + 1];
const fixture = ${JSON.stringify(fixture)};
fs.rmSync(fixture, { recursive: true, force: true });
fs.mkdirSync(path.join(fixture, 'output'), { recursive: true });
const env = {};
for (const name of ['DGDR_NAME', 'DGDR_NAMESPACE']) env[name] = process.env[name];
const call = { module: args[1], config: JSON.parse(args[args.indexOf('--config') + 1]), env,
  overrideTool: process.env.DYNAMO_DGD_APPLY_OVERRIDES_BIN ? true : false, exitCode: run.status };
fs.writeFileSync(path.join(fixture, 'call.json'), JSON.stringify(call, null, 2) + '\\n');
for (const name of ${JSON.stringify(RECORDED_FILES)}) {
  if (fs.existsSync(path.join(out, name))) fs.copyFileSync(path.join(out, name), path.join(fixture, 'output', name));
}
process.exit(run.status === null ? 1 : run.status);
`);
  fs.chmodSync(file, 0o755);
  // the override tool beside the interpreter, as plan looks for it
  const tool = path.join(path.dirname(python), OVERRIDE_TOOL_NAME);
  if (fs.existsSync(tool)) fs.symlinkSync(tool, path.join(dir, OVERRIDE_TOOL_NAME));
  return file;
}

function main(argv: string[]): number {
  const dir = argv.find(a => !a.startsWith('-')) ?? process.env.DYNAMO_CONFORMANCE_DIR;
  const { python, reason } = profilerPython();
  if (!dir || python === undefined) {
    console.error(`plan-record: ${!dir ? 'pass the goldens folder or set $DYNAMO_CONFORMANCE_DIR' : reason}`);
    return 2;
  }
  const root = scenarioRoot(dir);
  let failed = 0;
  for (const id of PLANNED_SCENARIOS) {
    const fixture = path.join(PLAN_FIXTURES_DIR, id.split('/')[1]);
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'plan-record-'));
    try {
      const input = readYamlDocuments(path.join(root, ...id.split('/'), 'input.yaml'));
      plannedScenarioInput(id, input, recordingPython(work, python, fixture));
      console.log(`recorded  ${id} -> ${path.relative(process.cwd(), fixture)}`);
    } catch (e) {
      failed++;
      console.error(`FAILED    ${id}: ${(e as Error).message}`);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
  const versions = spawnSync(python, ['-c', 'import importlib.metadata as m; print(" ".join(f"{p}=={m.version(p)}" for p in ["ai-dynamo", "ai-dynamo-runtime", "aiconfigurator", "aiconfigurator-core"]))'], { encoding: 'utf8' });
  console.log(`profiler environment: ${versions.stdout.trim()}`);
  return failed > 0 ? 1 : 0;
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2));
}
