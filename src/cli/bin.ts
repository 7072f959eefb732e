/**
 * The process around the command line: the exit code of `runCli` becomes the process's, a reader
 * that stops reading (`cdk8s-dynamo render f.yaml | head`) ends the program quietly, and nothing
 * unexpected ever reaches the user as a stack trace.
 */
import { runCli } from './main';

/** Runs `cdk8s-dynamo` with the process's arguments and sets its exit code. */
export function main(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    const reason = error.code === 'ENOSPC' ? 'no space left on the device' : error.code ?? error.message;
    process.stderr.write(`cdk8s-dynamo: cannot write the output: ${reason}\n`);
    process.exit(1);
  });
  // a closed standard error leaves nothing to report to
  process.stderr.on('error', () => process.exit(process.exitCode ?? 1));
  try {
    process.exitCode = runCli(process.argv.slice(2));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    process.stderr.write(`cdk8s-dynamo: ${message.split('\n')[0]}\n`);
    process.exitCode = 1;
  }
}
