/**
 * `cdk8s-dynamo plan REQUEST.yaml`: runs the Dynamo profiler on each DynamoGraphDeploymentRequest
 * of REQUEST.yaml, as the operator's profiling Job runs it (src/plan/profiler.ts), and turns its
 * output into the objects the operator creates when the request is applied automatically
 * (src/plan/generated-objects.ts). `main.ts` then checks and renders them like the documents of
 * any input file (graph, components or workloads output).
 */
import { parseYamlDocuments } from '../import/documents';
import { inputObjectsOf } from '../import/input-objects';
import { DEFAULT_NAMESPACE } from '../model/namespace';
import { planPython as namedOrDefaultPython, planRequest } from '../plan/plan';
import { DGDR_KIND, readPlanRequest } from '../plan/request';

export { withStoredGraphs } from '../plan/planned-output';

/** What `plan` needs of the command line. */
export interface PlanArgs {
  readonly python?: string;
  readonly namespace?: string;
}

/** The planned objects of one request file, placed as `main.ts` places the documents of a file. */
export interface PlannedFile {
  readonly file: string;
  readonly docs: unknown[];
  readonly places: ReadonlyArray<{ readonly place: string; readonly inList: boolean }>;
}

/** The interpreter `plan` runs the profiler with: --python, else $CDK8S_DYNAMO_PYTHON, else python3. */
export function planPython(args: PlanArgs, env: NodeJS.ProcessEnv = process.env): string {
  return namedOrDefaultPython(args.python, env);
}

/**
 * Profiles every request of `text` (the contents of `file`) and returns the objects the operator
 * would create for them, or undefined after recording the problems (`file: <place>: <problem>`).
 * Notices (documents of the profiler output the operator leaves out) go to `notices`.
 */
export function planFile(file: string, text: string, args: PlanArgs, problems: string[], notices: string[]): PlannedFile | undefined {
  let documents: unknown[];
  try {
    documents = parseYamlDocuments(text, file);
  } catch (e) {
    problems.push(e instanceof Error ? e.message : String(e));
    return undefined;
  }
  const { objects, problems: shapeProblems } = inputObjectsOf(documents);
  if (shapeProblems.length > 0) {
    problems.push(...shapeProblems.map(p => `${file}: ${p}`));
    return undefined;
  }
  if (objects.length === 0) {
    problems.push(`${file}: no ${DGDR_KIND} to plan`);
    return undefined;
  }
  const docs: unknown[] = [];
  const places: Array<PlannedFile['places'][number]> = [];
  const before = problems.length;
  for (const { value, place, inList } of objects) {
    const { request, problems: requestProblems } = readPlanRequest(value);
    if (request === undefined) {
      problems.push(...requestProblems.map(p => `${file}: ${place}: ${p}`));
      continue;
    }
    const what = `${DGDR_KIND}/${request.name}`;
    const namespace = request.namespace ?? args.namespace ?? DEFAULT_NAMESPACE;
    const planned = planRequest(request, { python: planPython(args), namespace });
    if (planned.objects === undefined) {
      problems.push(`${file}: ${place}: ${what}: ${planned.problem}`);
      continue;
    }
    notices.push(...planned.notices.map(n => `${file}: ${place}: ${what}: ${n}`));
    for (const object of planned.objects) {
      docs.push(object);
      places.push({ place, inList });
    }
  }
  return problems.length > before ? undefined : { file, docs, places };
}
