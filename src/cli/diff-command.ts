/**
 * `cdk8s-dynamo diff OLD NEW`: renders both files with the same operator settings and lists the
 * objects added, removed and modified, with their changed fields and whether the change replaces
 * pods (see `src/diff/diff.ts`). Both files have been loaded and checked by `runCli` as for `render`
 * before; a document that does not render is an error of its file (exit 1), a difference is not
 * (exit 0).
 */
import { ParsedArgs } from './args';
import { diffRenderings, formatDiffJson, formatDiffText, WorkloadRenderings } from '../diff/diff';
import { OperatorSettings } from '../model/operator-settings';
import { checkAndRender, formatProblem } from '../pipeline/check-and-render';

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

/** What `diff` found: its exit code without `--exit-code` (0, or 1 when either file does not render) and the number of differences. */
export interface DiffOutcome {
  readonly code: number;
  readonly differences: number;
}

/** Runs `diff` on the loaded OLD and NEW files. */
export function runDiff(inputs: readonly DiffInput[], args: ParsedArgs, settings: OperatorSettings, io: DiffIo): DiffOutcome {
  const [oldInput, newInput] = inputs;
  // both files were checked as for `render` by runCli; as `render --output workloads`, what the API
  // server would reject of the objects rendered is an error of its file
  const result = checkAndRender([{ documents: oldInput.docs }, { documents: newInput.docs }], {
    settings, output: args.output, namespace: args.namespace, admission: false,
  });
  if (result.problems.length > 0) {
    io.stderr(result.problems.map(p => `${inputs[p.input].file}: ${formatProblem(p)}\n`).join(''));
    return { code: 1, differences: 0 };
  }
  const [before, after] = result.outputs;
  const entries = diffRenderings(before, after, args.output === 'workloads' ? { before, after } : workloadRenderings(oldInput, newInput, args, settings));
  io.stdout(args.json === true ? formatDiffJson(entries) : formatDiffText(entries));
  return { code: 0, differences: entries.length };
}

/**
 * Both files rendered in workloads output, which the rollout of the graphs and component
 * deployments of graph or components output is judged on; undefined when either does not render
 * there (an experimental feature workloads output does not cover): their own fields judge then.
 */
function workloadRenderings(oldInput: DiffInput, newInput: DiffInput, args: ParsedArgs, settings: OperatorSettings): WorkloadRenderings | undefined {
  const result = checkAndRender([{ documents: oldInput.docs }, { documents: newInput.docs }], {
    settings, output: 'workloads', namespace: args.namespace, admission: false, checkRendered: false,
  });
  return result.problems.length > 0 ? undefined : { before: result.outputs[0], after: result.outputs[1] };
}
