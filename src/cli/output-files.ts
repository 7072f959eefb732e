/**
 * `render --out DIR`: one `<input-name>.k8s.yaml` per input file, as `cdk8s synth` writes `dist/`.
 * Every file is written to a temporary name first and renamed only when all were written, so a
 * failure (a full disk, say) leaves no partial output behind.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The output file name of one input file (`-`, standard input, gives `stdin.k8s.yaml`). */
export function outputName(file: string): string {
  if (file === '-') return 'stdin.k8s.yaml';
  const base = path.basename(file).replace(/\.(ya?ml|json)$/i, '');
  return `${base === '' ? 'input' : base}.k8s.yaml`;
}

/** Why the inputs cannot each have an output file of their own, or undefined. */
export function outputClash(files: readonly string[]): string | undefined {
  const byName = new Map<string, string>();
  for (const file of files) {
    const name = outputName(file);
    const earlier = byName.get(name);
    if (earlier !== undefined) return `--out: "${earlier}" and "${file}" would both be written to ${name}; render them separately`;
    byName.set(name, file);
  }
  return undefined;
}

/** One file to write. */
export interface OutputFile {
  readonly name: string;
  readonly text: string;
}

/** Writes every file into `dir` (created when missing), all or nothing; returns the problem, if any. */
export function writeOutputs(dir: string, files: readonly OutputFile[]): { problem?: string } {
  const temporary: string[] = [];
  let current = dir;
  try {
    fs.mkdirSync(dir, { recursive: true });
    for (const file of files) {
      current = path.join(dir, file.name);
      const temp = path.join(dir, `.${file.name}.${process.pid}.tmp`);
      temporary.push(temp);
      fs.writeFileSync(temp, file.text);
    }
    files.forEach((file, i) => {
      current = path.join(dir, file.name);
      fs.renameSync(temporary[i], current);
    });
    return {};
  } catch (e) {
    for (const temp of temporary) fs.rmSync(temp, { force: true });
    const error = e as NodeJS.ErrnoException;
    const reason = error.code === 'ENOSPC' ? 'no space left on the device' : error.code ?? error.message;
    return { problem: `${current}: cannot write: ${reason}; nothing was written` };
  }
}
