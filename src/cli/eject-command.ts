/**
 * `cdk8s-dynamo eject [--language L] [--out DIR] [OPERATOR...] FILE`: the DynamoGraphDeployments and
 * DynamoComponentDeployments of FILE (nvidia.com/v1alpha1 ones converted first, as on every load) as
 * a cdk8s app in TypeScript, Python, Java or Go that synthesizes them (`src/eject`): the program on
 * standard output, or with `--out DIR` the program and the project files that run it
 * (`src/eject/project-files.ts`), from the registry or from the local build `--package-source` names. The input is
 * not checked (`validate` does that; the app checks it when it synthesizes). The settings of the
 * OPERATOR options that differ from a default install are written into the app
 * (`src/eject/operator-code.ts`). A field the library's API cannot write is an error naming the
 * document and the field, and nothing is written.
 */
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { ParsedArgs } from './args';
import { writeOutputs } from './output-files';
import { ejectDocuments, MAIN_FILES, packageName } from '../eject';
import { languageProjectFiles, PackageSource } from '../eject/project-files';
import { isMap } from '../model/json';
import type { OperatorSettings } from '../model/operator-settings';
import { isDcd, isDgd } from '../model/v1beta1';

/** Where the command writes. */
export interface EjectIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

/** Runs `eject` on the loaded (and converted) documents of FILE; returns the exit code (0 written, 1 not ejectable). */
export function runEject(file: string, docs: readonly unknown[], args: ParsedArgs, settings: OperatorSettings, version: string, io: EjectIo): number {
  const language = args.language ?? 'typescript';
  const result = ejectDocuments(docs, settings, language);
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
  let source: PackageSource | undefined;
  if (args.packageSource !== undefined) {
    const build = path.resolve(args.packageSource);
    if (!fs.existsSync(build)) {
      io.stderr(`--package-source: ${args.packageSource}: no such file or directory (the local build of cdk8s-dynamo: see cdk8s-dynamo eject --help)\n`);
      return 1;
    }
    source = { relative: path.relative(path.resolve(args.outDir), build).split(path.sep).join('/'), url: pathToFileURL(build).href };
  }
  const files = [{ name: MAIN_FILES[language], text: result.code }, ...languageProjectFiles(language, packageName(name), version, source)];
  const written = writeOutputs(args.outDir, files, { manifest: false, force: args.force === true, forceOption: '--force' });
  if (written.problem !== undefined) {
    io.stderr(`${written.problem}\n`);
    return 1;
  }
  return 0;
}
