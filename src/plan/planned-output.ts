/**
 * The rendering of planned objects (plan.ts) in graph, components or workloads output, as
 * `cdk8s-dynamo plan` writes them: the generated graph is itself one of the objects the operator
 * creates for the request, so beyond graph output it comes first, as the API server stores it (the
 * operator's defaulting webhook applied: replicas, Grove's minAvailable, the origin version), then
 * what the pipeline renders of the planned objects.
 *
 * Internal module: plain TypeScript, not part of the jsii API. Heavy (admission and the render
 * engine): the constructs reach it on first use (src/lazy-modules.ts).
 */
import { plannedDocuments } from './plan';
import { admitNewGraph } from '../admission/stored-object';
import { OperatorSettings } from '../model/operator-settings';
import { OutputMode } from '../model/output-mode';
import { DgdJson, isDgd } from '../model/v1beta1';
import { checkAndRender, checkAndRenderDocument, DocumentOutcome, formatProblem } from '../pipeline/check-and-render';

/** The stored graphs among `planned`, then `rendered`, what the pipeline made of the planned objects. */
export function withStoredGraphs(planned: readonly unknown[], rendered: readonly unknown[], settings: OperatorSettings): unknown[] {
  const graphs = planned.filter(isDgd).map(graph => admitNewGraph(graph as DgdJson, settings));
  return [...graphs, ...rendered];
}

/** The planned objects in `output`, or the problems (one line each) that keep them from being rendered. */
export interface RenderedPlan {
  readonly objects?: unknown[];
  readonly problems: string[];
}

/**
 * The planned objects of one request in `output`, as `plan` renders them: checked as the operator
 * admits them on create, rendered by the pipeline (its objects not checked here: the caller checks
 * what it writes), with the stored graph first beyond graph output.
 */
export function renderPlanned(planned: readonly unknown[], output: OutputMode, settings: OperatorSettings): RenderedPlan {
  const result = checkAndRender([{ documents: planned }], { settings, output, checkRendered: false });
  if (result.problems.length > 0) return { problems: result.problems.map(p => `generated ${formatProblem(p)}`) };
  const rendered = result.outputs[0];
  return { objects: output === 'graph' ? rendered : withStoredGraphs(planned, rendered, settings), problems: [] };
}

/** How the construct option `plan` renders a request (`plannedOutcome`). */
export interface PlannedOutcomeOptions {
  readonly settings: OperatorSettings;
  readonly output: OutputMode;
  /** The interpreter that runs the profiler (plan.ts, `plannedDocuments`). */
  readonly python?: string;
}

/**
 * What a request construct with `plan` synthesizes, as one pipeline outcome: the request admitted as
 * the operator admits it on create; then the objects the operator deploys for it after profiling
 * (planned once per process, `plannedDocuments`) checked and rendered as `renderPlanned` does, and in
 * workloads output what the API server would refuse of the rendered objects (indices count the
 * stored graphs first).
 */
export function plannedOutcome(document: unknown, options: PlannedOutcomeOptions): DocumentOutcome {
  const admitted = checkAndRenderDocument(document, { settings: options.settings });
  if (admitted.violations.length > 0 || admitted.renderError !== undefined) return admitted;
  const planned = plannedDocuments(document, options.python);
  if (planned.objects === undefined) return { violations: [planned.problem ?? 'the request could not be planned'], objectProblems: [] };
  const checked = options.output === 'workloads';
  const result = checkAndRender([{ documents: planned.objects }], { settings: options.settings, output: options.output, checkRendered: checked });
  const renderError = result.problems.find(p => p.renderError !== undefined)?.renderError;
  const violations = result.problems.filter(p => p.renderError === undefined && p.object === undefined).map(p => `generated ${formatProblem(p)}`);
  if (violations.length > 0 || renderError !== undefined) return { violations, renderError, objectProblems: [] };
  const rendered = result.outputs[0];
  const objects = options.output === 'graph' ? rendered : withStoredGraphs(planned.objects, rendered, options.settings);
  const offset = objects.length - rendered.length;
  const objectProblems = result.problems.filter(p => p.object !== undefined).map(p => ({ object: p.object! + offset, message: formatProblem(p) }));
  return { violations: [], objects, objectProblems };
}
