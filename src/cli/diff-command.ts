/**
 * `cdk8s-dynamo diff OLD NEW`: renders both files with the same operator settings and lists the
 * objects added, removed and modified, with their changed fields and whether the change replaces
 * pods (see `src/diff/diff.ts`). Both files have been loaded and checked by `runCli` as for `render`
 * before; a document that does not render is an error of its file (exit 1), a difference is not
 * (exit 0).
 */
import { ParsedArgs } from './args';
import { diffRenderings, formatDiffJson, formatDiffText, WorkloadRenderings } from '../diff/diff';
import { RenderError } from '../engine/errors';
import { OperatorSettings } from '../engine/operator-settings';
import { OutputMode, renderDocuments } from '../engine/render';
import { checkEmittedObjects, formatEmittedViolation } from '../validation/emitted-admission';

/** The documents of one input file. */
export interface DiffInput {
  readonly file: string;
  readonly docs: readonly unknown[];
}

/** Where the command writes. */
export interface DiffIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs `diff` on the loaded OLD and NEW files; returns the exit code (0, or 1 when either does not render). */
export function runDiff(inputs: readonly DiffInput[], args: ParsedArgs, settings: OperatorSettings, io: DiffIo): number {
  const [oldInput, newInput] = inputs;
  const problems: string[] = [];
  const render = (input: DiffInput, output: OutputMode): unknown[] | undefined => {
    try {
      const objects = renderDocuments(input.docs, { output, namespace: args.namespace, operator: settings });
      // as `render --output workloads`: what the API server would reject is a render error
      if (output === 'workloads') problems.push(...checkEmittedObjects(objects).map(v => `${input.file}: ${formatEmittedViolation(v)}`));
      return objects;
    } catch (e) {
      if (!(e instanceof RenderError)) throw e;
      problems.push(`${input.file}: ${e.message}`);
      return undefined;
    }
  };
  const before = render(oldInput, args.output);
  const after = render(newInput, args.output);
  if (before === undefined || after === undefined || problems.length > 0) {
    io.stderr(problems.map(p => `${p}\n`).join(''));
    return 1;
  }
  const entries = diffRenderings(before, after, args.output === 'workloads' ? { before, after } : workloadRenderings(oldInput, newInput, args, settings));
  io.stdout(args.json === true ? formatDiffJson(entries) : formatDiffText(entries));
  return 0;
}

/**
 * Both files rendered in workloads output, which the rollout of the graphs and component
 * deployments of graph or components output is judged on; undefined when either does not render
 * there (an experimental feature workloads output does not cover): their own fields judge then.
 */
function workloadRenderings(oldInput: DiffInput, newInput: DiffInput, args: ParsedArgs, settings: OperatorSettings): WorkloadRenderings | undefined {
  try {
    const render = (input: DiffInput): unknown[] => renderDocuments(input.docs, { output: 'workloads', namespace: args.namespace, operator: settings });
    return { before: render(oldInput), after: render(newInput) };
  } catch (e) {
    if (!(e instanceof RenderError)) throw e;
    return undefined;
  }
}
