/** The CLI run in process on files held in memory (a missing file fails as the disk would: ENOENT). */
import { runCli } from '../../src/cli';

/** Exit code and the text written to each stream. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** `cdk8s-dynamo ARGV` with `files` (path → text) as the only readable files. */
export function runCliOn(files: Readonly<Record<string, string>>, argv: readonly string[]): CliRun {
  let stdout = '';
  let stderr = '';
  const code = runCli([...argv], {
    stdout: t => { stdout += t; },
    stderr: t => { stderr += t; },
    readFile: p => {
      if (!Object.prototype.hasOwnProperty.call(files, p)) throw Object.assign(new Error(`ENOENT: ${p}`), { code: 'ENOENT' });
      return files[p];
    },
  });
  return { code, stdout, stderr };
}
