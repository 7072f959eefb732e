/**
 * Where the commands write, losing nothing on the way.
 *
 * - Standard output (`writeAllSync`): every byte is written or the command fails naming how much was
 *   not (a full disk, a file size limit, a reader that went away); a short write is continued, never
 *   taken as done.
 * - `render --out DIR` and `convert --out DIR` (`writeOutputs` with a manifest): one
 *   `<input-path>.k8s.yaml` per input file, named after the input's path relative to the inputs'
 *   common folder with `/` written as `__` (`a/deploy.yaml` and `b/deploy.yaml` give
 *   `a__deploy.k8s.yaml` and `b__deploy.k8s.yaml`), flat so that `kubectl apply -f DIR` reads them
 *   all. DIR keeps `MANIFEST_NAME`, the files the last run wrote there; the next run removes those it
 *   does not write again, never replaces a file it did not write, and touches nothing else.
 * - `eject --out DIR` (`writeOutputs` without one): refuses to replace existing files unless forced.
 *
 * Files are written into a folder created for the run inside DIR (`fs.mkdtempSync`: an exclusive,
 * unpredictable name, so a planted file or symlink is never written through), then renamed into
 * place once all were written: a failure leaves no partial output behind.
 */
import * as fs from 'fs';
import * as path from 'path';

/** The file in an output folder listing what the last `render --out` or `convert --out` wrote there. */
export const MANIFEST_NAME = '.cdk8s-dynamo-outputs';

const MANIFEST_HEADER = '# cdk8s-dynamo: the files the last render or convert --out wrote into this folder, one a line;\n'
  + '# the next one removes them (and never touches files not listed here)\n';

/** The suffix of every file `render --out` and `convert --out` write. */
const OUTPUT_SUFFIX = '.k8s.yaml';

/** What a system error code means, for the messages. */
const ERROR_MEANING: { readonly [code: string]: string } = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large: the file size limit (ulimit -f) was reached',
  EPIPE: 'the reader closed the pipe',
  EIO: 'input/output error',
};

function reasonOf(code: string): string {
  const meaning = ERROR_MEANING[code];
  return meaning === undefined ? code : `${code} (${meaning})`;
}

/** A write that did not complete: `target` holds only the first `written` of `total` bytes. */
export class OutputWriteError extends Error {
  constructor(readonly target: string, readonly written: number, readonly total: number, readonly code: string) {
    super(`writing to ${target} failed after ${written} of ${total} bytes: ${reasonOf(code)}`);
    this.name = 'OutputWriteError';
  }
}

/**
 * Writes all of `text` to the open file `fd` (`target` names it in the error), continuing after a
 * short write and waiting while a non-blocking pipe is full; throws an OutputWriteError when the
 * system refuses the rest.
 */
export function writeAllSync(fd: number, text: string | Uint8Array, target: string): void {
  const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
  let written = 0;
  while (written < bytes.length) {
    let n: number;
    try {
      n = fs.writeSync(fd, bytes, written, bytes.length - written);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      throw new OutputWriteError(target, written, bytes.length, code ?? (e instanceof Error ? e.message : String(e)));
    }
    if (n <= 0) throw new OutputWriteError(target, written, bytes.length, 'the system wrote nothing');
    written += n;
  }
}

/**
 * The output file name of each input file: its path relative to the common folder of all inputs,
 * `/` written as `__`, the extension `.yaml`, `.yml` or `.json` replaced by `.k8s.yaml`
 * (`-`, standard input, gives `stdin.k8s.yaml`).
 */
export function outputNames(files: readonly string[]): string[] {
  const resolved = files.map(file => (file === '-' ? undefined : path.resolve(file)));
  const folders = resolved.filter((f): f is string => f !== undefined).map(f => path.dirname(f).split(path.sep));
  let common = folders[0] ?? [];
  for (const folder of folders.slice(1)) {
    let i = 0;
    while (i < common.length && i < folder.length && common[i] === folder[i]) i++;
    common = common.slice(0, i);
  }
  const base = common.join(path.sep) || path.sep;
  return resolved.map(file => {
    if (file === undefined) return `stdin${OUTPUT_SUFFIX}`;
    const relative = path.relative(base, file).split(path.sep).filter(s => s !== '');
    const last = (relative.pop() ?? '').replace(/\.(ya?ml|json)$/i, '');
    const name = [...relative, last === '' ? 'input' : last].join('__');
    return `${name}${OUTPUT_SUFFIX}`;
  });
}

/** Why the inputs cannot each have an output file of their own, or undefined. */
export function outputClash(files: readonly string[]): string | undefined {
  const names = outputNames(files);
  const byName = new Map<string, string>();
  for (let i = 0; i < files.length; i++) {
    const name = names[i];
    // eslint-disable-next-line no-control-regex
    if (/[\x00-\x1f\x7f]/.test(name)) return `--out: the input path ${JSON.stringify(files[i])} has a control character; an output file cannot be named after it`;
    const earlier = byName.get(name);
    if (earlier !== undefined) return `--out: "${earlier}" and "${files[i]}" would both be written to ${name}; render them separately`;
    byName.set(name, files[i]);
  }
  return undefined;
}

/** One file to write. */
export interface OutputFile {
  readonly name: string;
  readonly text: string;
}

/** How `writeOutputs` treats what is already in the folder. */
export interface WriteOutputsOptions {
  /**
   * Keep `MANIFEST_NAME` in the folder: remove the files the previous run listed there that this
   * one does not write, and refuse to replace a file it does not list. Otherwise existing files are
   * refused unless `force` is set.
   */
  readonly manifest: boolean;
  /** Without a manifest: replace existing files. */
  readonly force?: boolean;
  /** The command line option that forces, for the message (`--force`). */
  readonly forceOption?: string;
}

/**
 * Writes every file into `dir` (created when missing), all or nothing (see the module comment);
 * returns the problem, if any.
 */
export function writeOutputs(dir: string, files: readonly OutputFile[], options: WriteOutputsOptions): { problem?: string } {
  let current = dir;
  let temporary: string | undefined;
  let created: string | undefined;
  let done = false;
  try {
    created = fs.mkdirSync(dir, { recursive: true });
    const previous = options.manifest ? readManifest(dir) : new Set<string>();
    const existing = files.map(f => f.name).filter(name => exists(path.join(dir, name)) && !previous.has(name));
    if (existing.length > 0 && !(options.force === true && !options.manifest)) {
      return { problem: existingProblem(dir, existing, options) };
    }
    temporary = fs.mkdtempSync(path.join(dir, '.cdk8s-dynamo-tmp-'));
    const write = (name: string, text: string): string => {
      const temp = path.join(temporary!, name);
      current = path.join(dir, name);
      const fd = fs.openSync(temp, 'wx', 0o644);
      try {
        writeAllSync(fd, text, current);
      } finally {
        fs.closeSync(fd);
      }
      return temp;
    };
    const written = files.map(file => write(file.name, file.text));
    const names = new Set(files.map(f => f.name));
    const stale = [...previous].filter(name => !names.has(name));
    // until the stale files are gone, the manifest lists them too: a run cut short removes them next time
    const interim = options.manifest ? write(MANIFEST_NAME, manifestText([...names, ...stale])) : undefined;
    const final = options.manifest ? write(`${MANIFEST_NAME}.final`, manifestText([...names])) : undefined;
    current = dir;
    if (interim !== undefined) fs.renameSync(interim, path.join(dir, MANIFEST_NAME));
    files.forEach((file, i) => {
      current = path.join(dir, file.name);
      fs.renameSync(written[i], current);
    });
    for (const name of stale) {
      current = path.join(dir, name);
      removeOwnFile(current);
    }
    if (final !== undefined) fs.renameSync(final, path.join(dir, MANIFEST_NAME));
    done = true;
    return {};
  } catch (e) {
    if (e instanceof OutputWriteError) return { problem: `${e.message}; nothing was written` };
    const error = e as NodeJS.ErrnoException;
    return { problem: `${current}: cannot write: ${reasonOf(error.code ?? error.message)}; nothing was written` };
  } finally {
    if (temporary !== undefined) fs.rmSync(temporary, { recursive: true, force: true });
    // folders made for the output are removed again when nothing was written into them
    if (!done && created !== undefined) removeEmptyFolders(path.resolve(dir), path.resolve(created));
  }
}

/** Removes `folder` and its parents up to `top` while they are empty. */
function removeEmptyFolders(folder: string, top: string): void {
  for (let f = folder; f.startsWith(top); f = path.dirname(f)) {
    try {
      fs.rmdirSync(f);
    } catch {
      return;
    }
    if (f === top) return;
  }
}

/** Whether something (a file, a folder, a symlink, even a dangling one) is at `p`. */
function exists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
}

function existingProblem(dir: string, existing: readonly string[], options: WriteOutputsOptions): string {
  const list = existing.map(name => path.join(dir, name)).join(', ');
  if (options.manifest) {
    return `${list}: already ${existing.length === 1 ? 'exists' : 'exist'} and ${existing.length === 1 ? 'was' : 'were'} not written by an earlier run into ${dir} `
      + `(not listed in ${path.join(dir, MANIFEST_NAME)}); move ${existing.length === 1 ? 'it' : 'them'} away or choose another --out folder; nothing was written`;
  }
  return `${list}: already ${existing.length === 1 ? 'exists' : 'exist'}; give ${options.forceOption ?? '--force'} to replace `
    + `${existing.length === 1 ? 'it' : 'them'}, or choose another --out folder; nothing was written`;
}

function manifestText(names: readonly string[]): string {
  return `${MANIFEST_HEADER}${names.map(n => `${n}\n`).join('')}`;
}

/** Whether a manifest line names a file this module could have written (a plain `*.k8s.yaml` name in the folder). */
function isOwnOutputName(name: string): boolean {
  return name.endsWith(OUTPUT_SUFFIX) && name !== OUTPUT_SUFFIX && !/[/\\]/.test(name) && name !== MANIFEST_NAME;
}

/**
 * The files the manifest of `dir` lists (none without one). Lines that cannot name a file of an
 * earlier run (a path, another suffix) are ignored; a manifest that is not a regular file (a
 * symlink, say) is not read.
 */
function readManifest(dir: string): Set<string> {
  const file = path.join(dir, MANIFEST_NAME);
  let fd: number;
  try {
    // O_NOFOLLOW: a symlink in its place is not read
    // eslint-disable-next-line no-bitwise
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP') return new Set();
    throw e;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return new Set();
    const text = fs.readFileSync(fd, 'utf8');
    return new Set(text.split('\n').filter(line => !line.startsWith('#') && isOwnOutputName(line)));
  } finally {
    fs.closeSync(fd);
  }
}

/** Removes a file an earlier run wrote (a symlink put in its place is removed, not followed; a folder is left alone). */
function removeOwnFile(file: string): void {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (stat.isDirectory()) return;
  fs.unlinkSync(file);
}
