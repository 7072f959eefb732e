/**
 * The installed command as the binary tests spawn it: `bin/cdk8s-dynamo` run by this Node in its own
 * process, from a temporary working folder. It runs the compiled package's pipeline bundle
 * (`lib/src/pipeline.bundle.js`, which holds the command line), so `npx projen compile` comes first
 * (as in `npx projen build`).
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const BIN = path.join(ROOT, 'bin', 'cdk8s-dynamo');
/** The CLI fixtures (`graph.yaml`: a two-component graph, also used by the artifact test). */
export const CLI_FIXTURES = path.join(ROOT, 'test', 'fixtures', 'cli');

/** Exit code, standard output and standard error of one run. */
export interface BinaryRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A new temporary working folder named after `name`; throws when the compiled command is missing. */
export function binaryWorkdir(name: string): string {
  if (!fs.existsSync(path.join(ROOT, 'lib', 'src', 'pipeline.bundle.js'))) {
    throw new Error('lib/src/pipeline.bundle.js is missing: run `npx projen compile` before these tests (`npx projen build` does)');
  }
  return fs.mkdtempSync(path.join(os.tmpdir(), `cdk8s-dynamo-${name}-`));
}

/** Runs `cdk8s-dynamo ARGS` in `cwd`, with `input` on standard input. */
export function runBinary(cwd: string, args: readonly string[], input?: string): BinaryRun {
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', input, timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
