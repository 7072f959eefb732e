/**
 * Ejected apps run as their users run them, many in one process per language (one jsii kernel):
 * Python apps in one interpreter, Java apps in one JVM, Go apps in one program. Each app's
 * `app.synth()` writes `dist/` in the working folder, which is moved beside the app before the next
 * one runs; the objects of each app are read back from there. The packages are the ones built into
 * dist/ (`npx projen package:python`, `package:java`, `package:go`).
 */
import { spawnSync, SpawnSyncOptions } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parseYamlDocuments } from '../../src/import/documents';

/** What one app synthesized: its objects, or why it did not run. */
export type AppRun = { readonly objects: unknown[] } | { readonly error: string };

const ENV = { ...process.env, JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION: '20' };

function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): string {
  const r = spawnSync(command, args, { encoding: 'utf8', maxBuffer: 2 ** 30, env: ENV, ...options });
  if (r.status !== 0) {
    throw new Error(`${command} ${args.slice(0, 3).join(' ')}... failed (${r.error?.message ?? `exit ${r.status}`}):\n${String(r.stderr ?? '').slice(-4000)}${String(r.stdout ?? '').slice(-4000)}`);
  }
  return String(r.stdout);
}

function version(root: string): string {
  return JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).version;
}

/** A folder name per app (`a001`, ...), in the order of `apps`. */
function folders(apps: ReadonlyMap<string, string>): Map<string, string> {
  const width = String(apps.size).length;
  return new Map([...apps.keys()].map((name, i) => [name, `a${String(i + 1).padStart(width, '0')}`]));
}

/** The objects each app wrote into `<dir>/<folder>/dist`, or the error its runner reported (`results`: folder → "ok" or the error). */
function collect(
  apps: ReadonlyMap<string, string>, ids: ReadonlyMap<string, string>, dir: string, reported: Record<string, string>,
): Map<string, AppRun> {
  const out = new Map<string, AppRun>();
  for (const name of apps.keys()) {
    const id = ids.get(name)!;
    const result = reported[id];
    if (result !== 'ok') {
      out.set(name, { error: result ?? 'not run' });
      continue;
    }
    const dist = path.join(dir, id, 'dist');
    const files = fs.existsSync(dist) ? fs.readdirSync(dist).filter(f => f.endsWith('.yaml')).sort() : [];
    out.set(name, { objects: files.flatMap(f => parseYamlDocuments(fs.readFileSync(path.join(dist, f), 'utf8'), f)) });
  }
  return out;
}

/** The results a runner printed: one line `RESULT <id> <ok or error as JSON>` per app. */
function results(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const m = /^RESULT (\S+) (.*)$/.exec(line);
    if (m) out[m[1]] = JSON.parse(m[2]);
  }
  return out;
}

const PYTHON_RUNNER = `
import json, os, runpy, shutil, sys, traceback
apps = sys.argv[1]
for name in sys.argv[2:]:
    try:
        runpy.run_path(os.path.join(apps, name, "main.py"), run_name="__main__")
        result = "ok"
    except BaseException as e:
        result = "".join(traceback.format_exception_only(type(e), e)).strip() or type(e).__name__
    if os.path.isdir("dist"):
        shutil.move("dist", os.path.join(apps, name, "dist"))
    print("RESULT " + name + " " + json.dumps(result), flush=True)
`;

/** The interpreter of `$EJECT_PYTHON`, else a new virtualenv with the built wheel and its peers ($PEERS_PYTHON) from PyPI. */
function pythonInterpreter(work: string, root: string): string {
  if (process.env.EJECT_PYTHON) return process.env.EJECT_PYTHON;
  const wheel = path.join(root, 'dist', 'python', `cdk8s_dynamo-${version(root)}-py3-none-any.whl`);
  if (!fs.existsSync(wheel)) throw new Error(`no ${path.relative(root, wheel)}: run npx projen package:python`);
  const venv = path.join(work, 'venv');
  run('python3', ['-m', 'venv', venv]);
  const peers = (process.env.PEERS_PYTHON ?? '').split(/\s+/).filter(p => p !== '');
  run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--no-input', wheel, ...peers]);
  return path.join(venv, 'bin', 'python');
}

/** Each app a `main.py`, all run in one interpreter. */
export function runPythonApps(apps: ReadonlyMap<string, string>, work: string, root: string): Map<string, AppRun> {
  const python = pythonInterpreter(work, root);
  const ids = folders(apps);
  const dir = path.join(work, 'python');
  for (const [name, code] of apps) {
    fs.mkdirSync(path.join(dir, ids.get(name)!), { recursive: true });
    fs.writeFileSync(path.join(dir, ids.get(name)!, 'main.py'), code);
  }
  fs.writeFileSync(path.join(work, 'run_apps.py'), PYTHON_RUNNER);
  const cwd = path.join(work, 'cwd');
  fs.mkdirSync(cwd);
  const stdout = run(python, [path.join(work, 'run_apps.py'), dir, ...ids.values()], { cwd });
  return collect(apps, ids, dir, results(stdout));
}

export function runJavaApps(_apps: ReadonlyMap<string, string>, _work: string, _root: string): Map<string, AppRun> {
  throw new Error('not yet');
}

export function runGoApps(_apps: ReadonlyMap<string, string>, _work: string, _root: string): Map<string, AppRun> {
  throw new Error('not yet');
}
