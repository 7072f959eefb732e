/**
 * Reading YAML with the real kubectl, offline: `kubectl annotate --local -f FILE <mark>=x -o json`
 * reads the file exactly as `kubectl apply -f` does (sigs.k8s.io/yaml on go-yaml v2) and prints the
 * objects as JSON, without a cluster. The mark annotation it adds is taken out again.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** The kubectl binary (`$KUBECTL`, else `kubectl` on the PATH), or undefined when there is none. */
export const KUBECTL: string | undefined = (() => {
  const bin = process.env.KUBECTL ?? 'kubectl';
  const r = spawnSync(bin, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  return r.status === 0 ? bin : undefined;
})();

/** The kubectl client version (`v1.32.4`), or undefined without kubectl. */
export function kubectlVersion(): string | undefined {
  if (!KUBECTL) return undefined;
  const r = spawnSync(KUBECTL, ['version', '--client', '-o', 'json'], { encoding: 'utf8' });
  return JSON.parse(r.stdout).clientVersion?.gitVersion;
}

/** The annotation kubectl is asked to add (and that `withoutMark` takes out). */
const MARK = 'yaml-boundary.test/read';

/** kubectl's reading of a YAML file, or its error message. */
export type KubectlReading = { readonly objects: unknown[] } | { readonly error: string };

/**
 * The objects kubectl reads from `text` (a multi-document stream is read in one call), each without
 * the mark annotation (`withoutMark`), or kubectl's error message.
 */
export function kubectlRead(text: string): KubectlReading {
  if (!KUBECTL) throw new Error('no kubectl');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kubectl-read-'));
  try {
    const file = path.join(dir, 'input.yaml');
    fs.writeFileSync(file, text);
    const r = spawnSync(KUBECTL, ['annotate', '--local', '-f', file, `${MARK}=x`, '-o', 'json'], { encoding: 'utf8', maxBuffer: 2 ** 30 });
    if (r.status !== 0) return { error: r.stderr.trim().replace(file, 'input.yaml') };
    if (r.stdout.trim() === '') return { objects: [] };
    // each object is printed as its own JSON value, one after the other
    return { objects: jsonStream(r.stdout).map(withoutMark) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The JSON values of a text that holds several, one after the other. */
export function jsonStream(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
    } else if (c === '{' || c === '[') {
      if (depth++ === 0) start = i;
    } else if (c === '}' || c === ']') {
      if (--depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
    }
  }
  if (depth !== 0 || inString) throw new Error('kubectl printed truncated JSON');
  return values;
}

/** The objects kubectl reads from `text`; kubectl refusing the text throws with its message. */
export function kubectlObjects(text: string): unknown[] {
  const r = kubectlRead(text);
  if ('error' in r) throw new Error(`kubectl refused the YAML: ${r.error}`);
  return r.objects;
}

/**
 * An object without the mark annotation, and without `metadata.annotations` / `metadata` when
 * those are left empty or null (so that objects read by kubectl compare with the objects written).
 */
export function withoutMark(obj: unknown): unknown {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const copy = JSON.parse(JSON.stringify(obj));
  const meta = copy.metadata;
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta)) return copy;
  if (meta.annotations && typeof meta.annotations === 'object') delete meta.annotations[MARK];
  if (meta.annotations === null || (typeof meta.annotations === 'object' && Object.keys(meta.annotations).length === 0)) delete meta.annotations;
  if (Object.keys(meta).length === 0) delete copy.metadata;
  return copy;
}

/**
 * Where two JSON values differ, as `<path>: <a> ≠ <b>` lines (at most `limit`); `-0` and `0` are the
 * same value (JSON has one zero). Empty when they are equal.
 */
export function jsonDifferences(a: unknown, b: unknown, limit = 20, at = '', out: string[] = []): string[] {
  if (out.length >= limit) return out;
  const show = (v: unknown) => (v === undefined ? 'absent' : JSON.stringify(v));
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) out.push(`${at || '/'}: ${a.length} items ≠ ${b.length} items`);
    for (let i = 0; i < Math.min(a.length, b.length); i++) jsonDifferences(a[i], b[i], limit, `${at}/${i}`, out);
    return out;
  }
  const isObject = (v: unknown): v is { [k: string]: unknown } => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (isObject(a) && isObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
    for (const k of keys) {
      const has = (o: object) => Object.prototype.hasOwnProperty.call(o, k);
      if (!has(a) || !has(b)) {
        if (out.length < limit) out.push(`${at}/${k}: ${has(a) ? show(a[k]) : 'absent'} ≠ ${has(b) ? show(b[k]) : 'absent'}`);
        continue;
      }
      jsonDifferences(a[k], b[k], limit, `${at}/${k}`, out);
    }
    return out;
  }
  if (a === b) return out;
  out.push(`${at || '/'}: ${show(a)} ≠ ${show(b)}`);
  return out;
}
