/**
 * The process around the command line: the exit code of `runCli` becomes the process's, and
 * nothing unexpected ever reaches the user as a stack trace. Standard output is written by
 * `runCli` itself (`writeAllSync`): output that cannot all be written (a full disk, a file size
 * limit, a reader that stopped reading) is an error naming how much was written, exit 1.
 */
import { runCli } from './main';

/** Runs `cdk8s-dynamo` with the process's arguments and sets its exit code. */
export function main(): void {
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
