/**
 * Runs the Dynamo profiler (`python -m dynamo.profiler`, the command of the operator's profiling
 * Job) on a DynamoGraphDeploymentRequest, in a Python environment of the user's (docs/plan.md,
 * scripts/plan-env.sh), and reads what it writes: `final_config.yaml` on success,
 * `profiler_status.yaml` (status, message, error) always.
 *
 * The search is the profiler's own; nothing here decides a configuration.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { PlanRequest, profilerConfig } from './request';
import { parseYamlDocuments } from '../import/documents';
import { isMap, stringAt } from '../model/json';

/** The environment variable naming the default interpreter of `plan`. */
export const PYTHON_ENV = 'CDK8S_DYNAMO_PYTHON';
/** The interpreter when neither `--python` nor CDK8S_DYNAMO_PYTHON names one. */
export const DEFAULT_PYTHON = 'python3';
/** The profiler's variable for its DGD override tool, and the tool's file name. */
export const OVERRIDE_TOOL_ENV = 'DYNAMO_DGD_APPLY_OVERRIDES_BIN';
export const OVERRIDE_TOOL_NAME = 'dgd-apply-overrides';

/** How to run the profiler. */
export interface ProfilerOptions {
  /** The Python interpreter of an environment that has `dynamo.profiler`. */
  readonly python: string;
  /** The namespace the request is in (the Job passes it as DGDR_NAMESPACE). */
  readonly namespace: string;
  /** The environment of the process. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** Stop the profiler after this long. @default 30 minutes */
  readonly timeoutMs?: number;
  /** How to get an interpreter that runs the profiler, for the messages when this one cannot. @default PROFILER_SETUP_HINT */
  readonly setupHint?: string;
}

/** How `plan` users get an interpreter that runs the profiler. */
export const PROFILER_SETUP_HINT = 'create its environment with scripts/plan-env.sh and pass --python';

/** What a profiler run gave. */
export interface ProfilerResult {
  /** `final_config.yaml`, when the profiler succeeded. */
  readonly finalConfig?: string;
  /** Why there is no configuration, in one line (no trace). */
  readonly problem?: string;
  /** The folder holding the profiler's files (`profile_sla.log`), kept when it failed. */
  readonly outputDir: string;
}

/**
 * The environment of the profiler: the caller's, plus what the profiling Job sets that the profiler
 * reads (DGDR_NAME, DGDR_NAMESPACE), plus the override tool beside the interpreter when the caller
 * names none.
 */
export function profilerEnvironment(request: PlanRequest, options: ProfilerOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...(options.env ?? process.env), DGDR_NAME: request.name, DGDR_NAMESPACE: options.namespace };
  if (!env[OVERRIDE_TOOL_ENV] && path.isAbsolute(options.python)) {
    const tool = path.join(path.dirname(options.python), OVERRIDE_TOOL_NAME);
    if (fs.existsSync(tool)) env[OVERRIDE_TOOL_ENV] = tool;
  }
  return env;
}

/** The arguments of the profiler, as the profiling Job passes them. */
export function profilerArguments(request: PlanRequest, outputDir: string): string[] {
  return ['-m', 'dynamo.profiler', '--config', profilerConfig(request), '--output-dir', outputDir];
}

/** Runs the profiler on `request`; its output folder is removed when it succeeded. */
export function runProfiler(request: PlanRequest, options: ProfilerOptions): ProfilerResult {
  const outputDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-plan-'));
  const run = spawnSync(options.python, profilerArguments(request, outputDir), {
    env: profilerEnvironment(request, options),
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    timeout: options.timeoutMs ?? 30 * 60 * 1000,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // the folder is kept when it holds the profiler's log, and the message names the log
  const log = path.join(outputDir, 'profile_sla.log');
  const hint = options.setupHint ?? PROFILER_SETUP_HINT;
  const failed = (problem: string): ProfilerResult => {
    if (fs.existsSync(log)) return { problem: `${problem} (its log: ${log})`, outputDir };
    fs.rmSync(outputDir, { recursive: true, force: true });
    return { problem, outputDir };
  };
  if (run.error !== undefined) {
    const code = (run.error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return failed(`cannot run the profiler: ${options.python}: not found (${hint})`);
    if (code === 'ETIMEDOUT') return failed(`the profiler did not finish in ${Math.round((options.timeoutMs ?? 30 * 60 * 1000) / 1000)} s`);
    return failed(`cannot run the profiler: ${options.python}: ${code ?? run.error.message}`);
  }
  const status = readStatus(outputDir);
  if (run.status === 0 && status.status === 'success') {
    const finalConfig = path.join(outputDir, 'final_config.yaml');
    if (fs.existsSync(finalConfig)) {
      const text = fs.readFileSync(finalConfig, 'utf8');
      fs.rmSync(outputDir, { recursive: true, force: true });
      return { finalConfig: text, outputDir };
    }
  }
  if (status.status === 'failed') {
    return failed(`profiling failed: ${status.error || status.message || 'the profiler reported failure (no details available)'}`);
  }
  // the interpreter ran, but not the profiler: say what it said last (a missing module, say)
  const last = lastLine(run.stderr ?? '') ?? `exit code ${run.status ?? run.signal}`;
  if (/No module named/.test(last)) {
    return failed(`cannot run the profiler: ${options.python}: ${last} (${hint})`);
  }
  return failed(`the profiler stopped without a result: ${last}`);
}

/** `profiler_status.yaml` of the output folder (empty fields when absent or unreadable). */
function readStatus(outputDir: string): { status?: string; message?: string; error?: string } {
  const file = path.join(outputDir, 'profiler_status.yaml');
  if (!fs.existsSync(file)) return {};
  try {
    const [doc] = parseYamlDocuments(fs.readFileSync(file, 'utf8'), file);
    if (!isMap(doc)) return {};
    return { status: stringAt(doc, 'status'), message: stringAt(doc, 'message'), error: stringAt(doc, 'error') };
  } catch {
    return {};
  }
}

/** The last non-empty line of a text. */
function lastLine(text: string): string | undefined {
  return text.split('\n').map(line => line.trim()).filter(line => line !== '').pop();
}
