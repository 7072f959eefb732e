/**
 * Planning one DynamoGraphDeploymentRequest: the profiler run on it as the operator's profiling Job
 * runs it (profiler.ts), then what the operator's controller creates from the profiler's output
 * (generated-objects.ts). The one path of `cdk8s-dynamo plan` (src/cli/plan-command.ts) and of the
 * construct option `plan` (src/constructs/graph-request.ts).
 *
 * Internal module: plain TypeScript, not part of the jsii API. Light on purpose: the constructs
 * load it when the package is required; the rendering of what it plans is planned-output.ts.
 */
import { generatedObjects } from './generated-objects';
import { DEFAULT_PYTHON, PYTHON_ENV, runProfiler } from './profiler';
import { DGDR_KIND, PlanRequest, profilerConfig, readPlanRequest } from './request';
import { jsonRoundTrip } from '../model/json-copy';

/** The namespace of a request that names none (the API server's default namespace). */
export const PLAN_DEFAULT_NAMESPACE = 'default';

/** How to plan a request. */
export interface PlanOptions {
  /** The interpreter of a Python environment with the profiler. */
  readonly python: string;
  /** The namespace the request is in. */
  readonly namespace: string;
  /** How to get an interpreter that runs the profiler, for the messages when this one cannot. @default PROFILER_SETUP_HINT */
  readonly setupHint?: string;
  /** The environment of the profiler's process. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
}

/** What planning one request gave: the objects the operator creates, or why there are none. */
export interface PlannedRequest {
  /** The generated graph, then the ConfigMaps the operator creates beside it. */
  readonly objects?: unknown[];
  /** The documents of the profiler's output the operator does not create, one line each. */
  readonly notices: string[];
  /** Why there are no objects, in one line (no trace). */
  readonly problem?: string;
}

/** The interpreter plan runs the profiler with: the one named, else $CDK8S_DYNAMO_PYTHON, else python3. */
export function planPython(named: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return named ?? (env[PYTHON_ENV] || DEFAULT_PYTHON);
}

/** Runs the profiler on `request` and returns the objects the operator creates from its output. */
export function planRequest(request: PlanRequest, options: PlanOptions): PlannedRequest {
  const result = runProfiler(request, options);
  if (result.finalConfig === undefined) return { notices: [], problem: result.problem };
  try {
    const generated = generatedObjects(request, result.finalConfig, options.namespace);
    return { objects: generated.objects, notices: generated.skipped.map(s => `profiler output ${s}`) };
  } catch (e) {
    return { notices: [], problem: `the profiler output cannot be read: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** How users of the construct option get an interpreter that runs the profiler. */
export const CONSTRUCT_SETUP_HINT = 'create a Python environment with the Dynamo profiler as docs/plan.md describes '
  + `and name its interpreter with the python prop or $${PYTHON_ENV}`;

/** What the construct option `plan` gives for a request document. */
export interface PlannedDocument {
  /** The objects the operator creates for the request, as planRequest gives them. */
  readonly objects?: unknown[];
  /** Why there are none, in one line naming the request. */
  readonly problem?: string;
}

/** The plans of this process, by interpreter, namespace, request name and profiler configuration. */
const plans = new Map<string, readonly unknown[]>();

/**
 * The objects the operator creates, with `autoApply`, for the request `document` (a
 * DynamoGraphDeploymentRequest as authored, admitted already), planned with the interpreter
 * `python` (else $CDK8S_DYNAMO_PYTHON, else python3) in the request's namespace (else `default`).
 *
 * A request planned once in this process is not profiled again: the profiler is run with the same
 * interpreter, variables and `--config` (the key of the plans kept), and its rapid search is a
 * computation of these alone. Failures are not kept.
 */
export function plannedDocuments(document: unknown, python?: string): PlannedDocument {
  const { request, problems } = readPlanRequest(document);
  if (request === undefined) return { problem: problems.join('; ') };
  const interpreter = planPython(python);
  const namespace = request.namespace ?? PLAN_DEFAULT_NAMESPACE;
  const key = JSON.stringify([interpreter, namespace, request.name, profilerConfig(request)]);
  const known = plans.get(key);
  if (known !== undefined) return { objects: known.map(jsonRoundTrip) };
  const planned = planRequest(request, {
    python: interpreter,
    namespace,
    setupHint: CONSTRUCT_SETUP_HINT,
  });
  if (planned.objects === undefined) return { problem: `${DGDR_KIND}/${request.name}: ${planned.problem}` };
  plans.set(key, planned.objects);
  return { objects: planned.objects.map(jsonRoundTrip) };
}
