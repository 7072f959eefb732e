/**
 * `cdk8s-dynamo explain FILE...`: the footprint of each DynamoGraphDeployment as a table, or with
 * `--mermaid` its flowchart (see `src/explain/`). The files have been loaded and checked by `runCli`
 * as `validate` checks them; a graph the engine cannot read is an error of its file (exit 1, and
 * nothing is printed).
 */
import { ParsedArgs } from './args';
import { LoadedFile, renderErrorPosition } from './loaded-file';
import { fileAt } from './source-positions';
import { formatFootprint, graphFootprint, graphMermaidText } from '../explain/explain';
import { OperatorSettings } from '../model/operator-settings';
import { RenderError } from '../model/render-error';
import { isDgd } from '../model/v1beta1';

/** The documents of one input file, as loaded (for the line and column of a problem). */
export type ExplainInput = LoadedFile;

/** Where the command writes. */
export interface ExplainIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs `explain` on the loaded files; returns the exit code (0, or 1 when a graph cannot be explained). */
export function runExplain(inputs: readonly ExplainInput[], args: ParsedArgs, settings: OperatorSettings, io: ExplainIo): number {
  const sections: string[] = [];
  const problems: string[] = [];
  for (const input of inputs) {
    const { file, docs } = input;
    const graphs = docs.filter(isDgd);
    if (graphs.length === 0) {
      io.stderr(`${file}: no DynamoGraphDeployment to explain\n`);
      continue;
    }
    for (const graph of graphs) {
      try {
        sections.push(args.mermaid === true ? graphMermaidText(graph, settings, docs) : formatFootprint(graphFootprint(graph, settings, docs)));
      } catch (e) {
        if (!(e instanceof RenderError)) throw e;
        problems.push(`${fileAt(file, renderErrorPosition(input, e))}: ${e.message}`);
      }
    }
  }
  if (problems.length > 0) {
    io.stderr(problems.map(p => `${p}\n`).join(''));
    return 1;
  }
  io.stdout(sections.join('\n'));
  return 0;
}
