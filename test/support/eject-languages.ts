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
import { readDocuments } from './facade';

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
    out.set(name, { objects: files.flatMap(f => readDocuments(fs.readFileSync(path.join(dist, f), 'utf8'), f)) });
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

/**
 * The interpreter of `$EJECT_PYTHON`, else a new virtualenv with the built wheel and its peers from
 * PyPI: the versions `$PEERS_PYTHON` names, or (`newestPeers`, and without it) the newest ones its
 * ranges allow, as `pip install cdk8s-dynamo` gives users.
 */
function pythonInterpreter(work: string, root: string, newestPeers: boolean): string {
  if (process.env.EJECT_PYTHON) return process.env.EJECT_PYTHON;
  const wheel = path.join(root, 'dist', 'python', `cdk8s_dynamo-${version(root)}-py3-none-any.whl`);
  if (!fs.existsSync(wheel)) throw new Error(`no ${path.relative(root, wheel)}: run npx projen package:python`);
  const venv = path.join(work, 'venv');
  run('python3', ['-m', 'venv', venv]);
  const peers = newestPeers ? [] : (process.env.PEERS_PYTHON ?? '').split(/\s+/).filter(p => p !== '');
  run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--no-input', wheel, ...peers]);
  const installed = run(path.join(venv, 'bin', 'pip'), ['freeze']).split('\n').filter(l => /^(cdk8s|constructs|jsii)/.test(l));
  console.log(`  python peers: ${installed.join(' ')}`);
  return path.join(venv, 'bin', 'python');
}

/** Each app a `main.py`, all run in one interpreter. */
export function runPythonApps(apps: ReadonlyMap<string, string>, work: string, root: string, newestPeers = false): Map<string, AppRun> {
  const python = pythonInterpreter(work, root, newestPeers);
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

const JAVA_RUNNER = `
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

public class RunApps {
    public static void main(String[] args) throws Exception {
        Path apps = Paths.get(args[0]);
        for (int i = 1; i < args.length; i++) {
            String name = args[i];
            String result;
            try {
                Class.forName(name + ".Main").getMethod("main", String[].class).invoke(null, (Object) new String[0]);
                result = "ok";
            } catch (java.lang.reflect.InvocationTargetException e) {
                result = String.valueOf(e.getCause());
            } catch (Throwable e) {
                result = String.valueOf(e);
            }
            Path dist = Paths.get("dist");
            if (Files.isDirectory(dist)) Files.move(dist, apps.resolve(name).resolve("dist"));
            String quoted = result.replace("\\\\", "\\\\\\\\").replace("\\"", "\\\\\\"").replace("\\n", "\\\\n").replace("\\r", "\\\\r").replace("\\t", "\\\\t");
            System.out.println("RESULT " + name + " \\"" + quoted + "\\"");
        }
        System.exit(0);
    }
}
`;

/** A Maven project that depends on the built artifact (dist/java) and the peers' bindings, as test-java/ does. */
function javaClasspath(work: string, root: string): string {
  const jar = path.join(root, 'dist', 'java', 'io', 'github', 'cdk8s-dynamo', 'cdk8s-dynamo', version(root));
  if (!fs.existsSync(jar)) throw new Error(`no ${path.relative(root, jar)}: run npx projen package:java`);
  const dir = path.join(work, 'java-classpath');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'pom.xml'), `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>eject</groupId>
  <artifactId>roundtrip</artifactId>
  <version>0.0.0</version>
  <repositories>
    <repository><id>dist</id><url>file://${path.join(root, 'dist', 'java')}</url></repository>
    <repository><id>peers</id><url>file://${path.join(root, 'node_modules', 'cdk8s-plus-34', 'dist', 'java')}</url></repository>
  </repositories>
  <dependencies>
    <dependency><groupId>io.github.cdk8s-dynamo</groupId><artifactId>cdk8s-dynamo</artifactId><version>${version(root)}</version></dependency>
  </dependencies>
</project>
`);
  run('mvn', ['--batch-mode', '--no-transfer-progress', '-q', 'dependency:build-classpath', '-Dmdep.outputFile=classpath.txt'], { cwd: dir });
  return fs.readFileSync(path.join(dir, 'classpath.txt'), 'utf8').trim();
}

/** Each app's Main.java in a package of its own, all compiled in one javac call and run in one JVM. */
export function runJavaApps(apps: ReadonlyMap<string, string>, work: string, root: string): Map<string, AppRun> {
  const classpath = javaClasspath(work, root);
  const ids = folders(apps);
  const dir = path.join(work, 'java');
  const sources: string[] = [];
  for (const [name, code] of apps) {
    const id = ids.get(name)!;
    fs.mkdirSync(path.join(dir, id), { recursive: true });
    sources.push(path.join(dir, id, 'Main.java'));
    fs.writeFileSync(sources[sources.length - 1], `package ${id};\n${code}`);
  }
  sources.push(path.join(work, 'RunApps.java'));
  fs.writeFileSync(sources[sources.length - 1], JAVA_RUNNER);
  const classes = path.join(work, 'classes');
  fs.writeFileSync(path.join(work, 'sources.txt'), sources.join('\n'));
  run('javac', ['-nowarn', '-encoding', 'UTF-8', '-cp', classpath, '-d', classes, `@${path.join(work, 'sources.txt')}`]);
  const cwd = path.join(work, 'cwd');
  fs.mkdirSync(cwd);
  const stdout = run('java', ['-cp', `${classes}${path.delimiter}${classpath}`, 'RunApps', dir, ...ids.values()], { cwd });
  return collect(apps, ids, dir, results(stdout));
}

const GO_RUNNER = (ids: readonly string[]) => `package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/aws/jsii-runtime-go"
${ids.map(id => `\t${id} "ejectapps/${id}"`).join('\n')}
)

func run(apps string, name string, app func()) {
	result := "ok"
	func() {
		defer func() {
			if r := recover(); r != nil {
				result = fmt.Sprint(r)
			}
		}()
		app()
	}()
	if _, err := os.Stat("dist"); err == nil {
		if err := os.Rename("dist", filepath.Join(apps, name, "dist")); err != nil {
			panic(err)
		}
	}
	quoted, _ := json.Marshal(result)
	fmt.Println("RESULT " + name + " " + string(quoted))
}

func main() {
	defer jsii.Close()
	apps := os.Args[1]
${ids.map(id => `\trun(apps, "${id}", ${id}.Main)`).join('\n')}
}
`;

/** Each app's main.go as a package of its own (its main function exported, the kernel closed once), run by one program. */
export function runGoApps(apps: ReadonlyMap<string, string>, work: string, root: string): Map<string, AppRun> {
  const module = path.join(root, 'dist', 'go', 'cdk8sdynamo');
  if (!fs.existsSync(path.join(module, 'go.mod'))) throw new Error('no dist/go/cdk8sdynamo: run npx projen package:go');
  const ids = folders(apps);
  const dir = path.join(work, 'go');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'go.mod'), 'module ejectapps\n\ngo 1.23\n');
  for (const [name, code] of apps) {
    const id = ids.get(name)!;
    fs.mkdirSync(path.join(dir, id));
    const app = code.replace(/^package main\n/, `package ${id}\n`).replace('func main() {\n\tdefer jsii.Close()\n', 'func Main() {\n');
    fs.writeFileSync(path.join(dir, id, 'app.go'), app);
  }
  fs.writeFileSync(path.join(dir, 'main.go'), GO_RUNNER([...ids.values()]));
  run('go', ['mod', 'edit',
    `-replace=github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo=${module}`,
    `-replace=github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2=${path.join(root, 'node_modules', 'cdk8s', 'dist', 'go', 'cdk8s')}`,
    `-replace=github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2=${path.join(root, 'node_modules', 'cdk8s-plus-34', 'dist', 'go', 'cdk8splus34')}`], { cwd: dir });
  run('go', ['mod', 'tidy'], { cwd: dir });
  const binary = path.join(work, 'apps');
  run('go', ['build', '-o', binary, '.'], { cwd: dir });
  const cwd = path.join(work, 'cwd');
  fs.mkdirSync(cwd);
  const stdout = run(binary, [dir], { cwd });
  return collect(apps, ids, dir, results(stdout));
}
