/**
 * The rendering of planned objects (plan.ts) in graph, components or workloads output, as
 * `cdk8s-dynamo plan` writes them: the generated graph is itself one of the objects the operator
 * creates for the request, so beyond graph output it comes first, as the API server stores it (the
 * operator's defaulting webhook applied: replicas, Grove's minAvailable, the origin version), then
 * what the pipeline renders of the planned objects.
 *
 * Internal module: plain TypeScript, not part of the jsii API. Heavy (admission and the render
 * engine): the constructs reach it on first use (constructs/on-first-use.ts).
 */
import { admitNewGraph } from '../admission/stored-object';
import { OperatorSettings } from '../engine/operator-settings';
import { OutputMode } from '../engine/render';
import { DgdJson, isDgd } from '../model/v1beta1';
import { checkAndRender, formatProblem } from '../pipeline/check-and-render';

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
