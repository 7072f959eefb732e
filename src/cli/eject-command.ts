/**
 * `cdk8s-dynamo eject [--out DIR] [OPERATOR...] FILE`: the DynamoGraphDeployments and DynamoComponentDeployments
 * of FILE (nvidia.com/v1alpha1 ones converted first, as on every load) as the TypeScript of a cdk8s
 * app that synthesizes them (`src/eject`): `main.ts` on standard output, or with `--out DIR`
 * `DIR/main.ts` and the `package.json`, `tsconfig.json` and `cdk8s.yaml` that run it. The input is
 * not checked (`validate` does that; the app checks it when it synthesizes). The settings of the
 * OPERATOR options that differ from a default install are written into the app
 * (`src/eject/operator-code.ts`). A field the library's API cannot write is an error naming the
 * document and the field, and nothing is written.
 */
import { ParsedArgs } from './args';
import { writeOutputs } from './output-files';
import { ejectDocuments, packageName, projectFiles } from '../eject';
import type { OperatorSettings } from '../engine/operator-settings';
import { isMap } from '../model/json';
import { isDcd, isDgd } from '../model/v1beta1';

/** Where the command writes. */
export interface EjectIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs `eject` on the loaded (and converted) documents of FILE; returns the exit code (0 written, 1 not ejectable). */
export function runEject(file: string, docs: readonly unknown[], args: ParsedArgs, settings: OperatorSettings, version: string, io: EjectIo): number {
  const result = ejectDocuments(docs, settings);
  io.stderr(result.notices.map(n => `${file}: ${n}\n`).join(''));
  if (result.code === undefined) {
    io.stderr(result.problems.map(p => `${file}: ${p}\n`).join(''));
    return 1;
  }
  if (args.outDir === undefined) {
    io.stdout(result.code);
    return 0;
  }
  const first = docs.find(doc => isDgd(doc) || isDcd(doc)) as { metadata?: unknown } | undefined;
  const name = isMap(first?.metadata) && typeof first.metadata.name === 'string' ? first.metadata.name : undefined;
  const written = writeOutputs(args.outDir, [{ name: 'main.ts', text: result.code }, ...projectFiles(packageName(name), version)], {
    manifest: false, force: args.force === true, forceOption: '--force',
  });
  if (written.problem !== undefined) {
    io.stderr(`${written.problem}\n`);
    return 1;
  }
  return 0;
}
