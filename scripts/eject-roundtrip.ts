/**
 * The round trip of `eject --language L` over the corpus: every file of the corpus (v1beta1 and
 * v1alpha1, placeholders filled and images versioned as in test/eject-corpus.test.ts) that `render
 * --output graph` accepts is ejected in L, the apps are run as their users run them, and what each
 * synthesizes is compared with what `render --output graph` writes for the same file, both read by
 * kubectl (`kubectl annotate --local -o json`, two calls in all) when it is on the PATH, else by the
 * library's YAML reader. Every difference is printed with the file, the object and the field.
 *
 *   ts-node --project tsconfig.dev.json scripts/eject-roundtrip.ts --language python|java|go|typescript [--sample N] [--generated N [--seed S]] [DIR]
 *
 * DIR (default `$DYNAMO_CORPUS_DIR`; without one, only the fixtures) holds `v1beta1/` and `v1alpha1/`.
 * The eject test fixtures (test/fixtures/eject: every prop the generator writes) always come first.
 * `--sample N`: of the corpus every k-th file, N in all (the same N files on every run).
 * `--generated N [--seed S]`: also N admissible graphs of the property-based runs
 * (test/support/fuzz-graphs.ts; a fixed seed unless given). `--newest-peers` (Python): the newest
 * cdk8s, cdk8s-plus-34 and constructs the wheel's ranges allow, as `pip install cdk8s-dynamo` gives
 * users, instead of the tested versions of `$PEERS_PYTHON`. The apps run in one process per language:
 *   python      each app a main.py, run one after the other in one interpreter (one jsii kernel), in a
 *               virtualenv with the built wheel (dist/python, `npx projen package:python`) and its
 *               peers from PyPI ($PEERS_PYTHON), or the interpreter `$EJECT_PYTHON` names
 *   java        each app's Main.java in a package of its own, compiled with javac in one call against
 *               the classpath Maven resolves for the built artifact (dist/java), run in one JVM
 *   go          each app's main.go as a package of its own in one module using the built module
 *               (dist/go), run by one program
 *   typescript  compiled under strict in one program, run in this process (as the jest test does)
 * A fixture or corpus file that render accepts and eject refuses is a failure; generated graphs
 * the library's API cannot write (an untyped multinode component) are counted by reason.
 * Exits 1 when a file is not ejected, an app fails to build or run, or synthesizes anything but the input.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as fc from 'fast-check';
import { EJECT_LANGUAGES, EjectLanguage } from '../src/eject';
import { parseYamlDocuments, stringifyYamlDocuments } from '../src/import/documents';
import { runCliOn } from '../test/support/cli-in-process';
import { AppRun, runGoApps, runJavaApps, runPythonApps } from '../test/support/eject-languages';
import { compileApps, CORPUS_OPERATOR_FILE, corpusFiles, CorpusFile, objectKey, runApp } from '../test/support/eject-roundtrip';
import { anyFuzzGraph } from '../test/support/fuzz-graphs';
import { jsonDifferences, KUBECTL, kubectlObjects } from '../test/support/kubectl';

const ROOT = path.resolve(__dirname, '..');


function cli(file: CorpusFile, argv: readonly string[]) {
  return runCliOn({ [file.file]: file.text, 'operator.yaml': CORPUS_OPERATOR_FILE }, [...argv, '--operator-config', 'operator.yaml', file.file]);
}

interface Options {
  readonly language: EjectLanguage;
  readonly sample?: number;
  readonly generated: number;
  readonly seed: number;
  /** Python: the newest peers PyPI has (as users install them) instead of $PEERS_PYTHON. */
  readonly newestPeers: boolean;
  readonly dir?: string;
}

function parseArgs(argv: string[]): Options {
  let language: EjectLanguage | undefined;
  let sample: number | undefined;
  let generated = 0;
  let seed = 20261203;
  let dir: string | undefined;
  let newestPeers = false;
  const count = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (!Number.isInteger(n) || n < 0) throw new Error(`${flag} takes a whole number`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--language') language = argv[++i] as EjectLanguage;
    else if (argv[i] === '--sample') sample = count('--sample', argv[++i]);
    else if (argv[i] === '--generated') generated = count('--generated', argv[++i]);
    else if (argv[i] === '--seed') seed = count('--seed', argv[++i]);
    else if (argv[i] === '--newest-peers') newestPeers = true;
    else dir = argv[i];
  }
  if (language === undefined || !EJECT_LANGUAGES.includes(language)) throw new Error(`--language must be one of ${EJECT_LANGUAGES.join(', ')}`);
  return { language, sample, generated, seed, newestPeers, dir: dir ?? process.env.DYNAMO_CORPUS_DIR };
}

/** `count` admissible graphs of the property-based runs (test/support/fuzz-graphs.ts), as corpus files. */
function generatedFiles(count: number, seed: number): CorpusFile[] {
  if (count === 0) return [];
  return fc.sample(anyFuzzGraph, { numRuns: count, seed }).map((g, i) => ({
    folder: 'generated' as CorpusFile['folder'],
    file: `graph-${i + 1}.yaml`,
    text: stringifyYamlDocuments([g.graph]),
  }));
}

const FIXTURES_FOLDER = 'test/fixtures/eject';

/** The eject test fixtures (every prop the generator writes), as corpus files. */
function fixtureFiles(): CorpusFile[] {
  const dir = path.join(ROOT, FIXTURES_FOLDER);
  return fs.readdirSync(dir).filter(f => f.endsWith('.yaml')).sort()
    .map(file => ({ folder: FIXTURES_FOLDER as CorpusFile['folder'], file, text: fs.readFileSync(path.join(dir, file), 'utf8') }));
}

/** Every k-th item, `count` in all (all of them when there are fewer). */
function sampled<T>(items: readonly T[], count: number | undefined): T[] {
  if (count === undefined || count >= items.length) return [...items];
  return Array.from({ length: count }, (_, i) => items[Math.floor((i * items.length) / count)]);
}

function runTypeScriptApps(apps: ReadonlyMap<string, string>): Map<string, AppRun> {
  const errors = compileApps(apps);
  const out = new Map<string, AppRun>();
  for (const [name, code] of apps) {
    const compileErrors = errors.get(name) ?? [];
    if (compileErrors.length > 0) {
      out.set(name, { error: compileErrors.join('\n') });
      continue;
    }
    try {
      out.set(name, { objects: runApp(code) });
    } catch (e) {
      out.set(name, { error: e instanceof Error ? e.message : String(e) });
    }
  }
  return out;
}

/** The objects of each text as kubectl reads them (all texts in one call), else as the library reads them. */
function readAll(texts: readonly string[]): unknown[][] {
  if (!KUBECTL) return texts.map(t => parseYamlDocuments(t, 'output'));
  const counts = texts.map(t => parseYamlDocuments(t, 'output').length);
  const objects = kubectlObjects(texts.map(t => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n'));
  if (objects.length !== counts.reduce((a, b) => a + b, 0)) throw new Error('kubectl read a different number of objects than were written');
  let at = 0;
  return counts.map(n => objects.slice(at, (at += n)));
}

export function main(argv: string[]): number {
  const { language, sample, generated, seed, newestPeers, dir } = parseArgs(argv);
  const started = Date.now();
  const corpus = dir === undefined ? [] : [...corpusFiles('v1beta1', dir), ...corpusFiles('v1alpha1', dir)];
  if (dir !== undefined && corpus.length === 0) throw new Error(`no v1beta1/ or v1alpha1/ YAML files in ${dir}`);
  const files = [...fixtureFiles(), ...generatedFiles(generated, seed), ...sampled(corpus, sample)];
  const apps = new Map<string, string>();
  const references = new Map<string, string>();
  const notEjected: string[] = [];
  /** Why generated graphs could not be ejected (the problem without the graph's name), and how many. */
  const generatedNotEjected = new Map<string, number>();
  let refused = 0;
  for (const f of files) {
    const name = `${f.folder}/${f.file}`;
    const rendered = cli(f, ['render', '--output', 'graph']);
    if (rendered.code !== 0) {
      refused++;
      continue;
    }
    const ejected = cli(f, ['eject', '--language', language]);
    if (ejected.code !== 0) {
      const problem = ejected.stderr.trim().split('\n')[0];
      if (f.folder !== 'generated') {notEjected.push(`${name}: ${problem}`);} else {
        const reason = problem.replace(/^[^:]*: [^:]*: /, '').replace(/\[\d+\]/g, '[i]');
        generatedNotEjected.set(reason, (generatedNotEjected.get(reason) ?? 0) + 1);
      }
      continue;
    }
    apps.set(name, ejected.stdout);
    references.set(name, rendered.stdout);
  }
  const corpusText = dir === undefined ? 'no corpus' : `the corpus${sample === undefined ? '' : `, a sample of ${sample}`}`;
  console.log(`eject round trip (${language}): ${files.length} files (${FIXTURES_FOLDER}/, ${generated} generated graphs (seed ${seed}), ${corpusText}), `
    + `${refused} refused by render (not valid), ${notEjected.length} not ejectable, ${apps.size} apps`);
  for (const [reason, n] of generatedNotEjected) console.log(`  generated graphs the library has no API for (${n}): ${reason}`);

  const work = fs.mkdtempSync(path.join(os.tmpdir(), `eject-roundtrip-${language}-`));
  let runs: Map<string, AppRun>;
  try {
    const runners: { readonly [l in EjectLanguage]: () => Map<string, AppRun> } = {
      typescript: () => runTypeScriptApps(apps),
      python: () => runPythonApps(apps, work, ROOT, newestPeers),
      java: () => runJavaApps(apps, work, ROOT),
      go: () => runGoApps(apps, work, ROOT),
    };
    runs = runners[language]();
  } finally {
    if (process.env.EJECT_KEEP_WORK === undefined) fs.rmSync(work, { recursive: true, force: true });
    else console.log(`  apps kept in ${work}`);
  }

  const names = [...apps.keys()].filter(n => 'objects' in runs.get(n)!);
  const texts = (objectsOf: (name: string) => string) => readAll(names.map(objectsOf));
  const synthesized = texts(n => stringifyYamlDocuments((runs.get(n) as { objects: unknown[] }).objects));
  const expected = texts(n => references.get(n)!);
  // a file that validates must eject (generated graphs may use what the library's API cannot write: listed above)
  const failures: string[] = notEjected.map(line => line.replace(/^([^:]*): /, '$1: not ejectable: '));
  for (const name of apps.keys()) {
    const run = runs.get(name);
    if (run === undefined || 'error' in run) failures.push(`${name}: the app did not run: ${run === undefined ? 'no result' : run.error}`);
  }
  names.forEach((name, i) => {
    const got = new Map(synthesized[i].map(o => [objectKey(o), o]));
    const want = new Map(expected[i].map(o => [objectKey(o), o]));
    for (const key of want.keys()) if (!got.has(key)) failures.push(`${name}: ${key}: not synthesized`);
    for (const key of got.keys()) if (!want.has(key)) failures.push(`${name}: ${key}: synthesized, not in the input`);
    for (const [key, object] of want) {
      if (!got.has(key)) continue;
      for (const d of jsonDifferences(object, got.get(key))) failures.push(`${name}: ${key}: ${d} (input ≠ synthesized)`);
    }
  });
  const failed = new Set(failures.map(f => f.slice(0, f.indexOf(': '))));
  const same = [...apps.keys()].filter(n => !failed.has(n)).length;
  console.log(`  ${same} of ${apps.size} apps synthesize the input exactly (read by ${KUBECTL ? 'kubectl' : 'the library YAML reader'}); `
    + `${((Date.now() - started) / 1000).toFixed(0)}s`);
  for (const f of failures) console.log(`  FAIL ${f}`);
  return failures.length === 0 ? 0 : 1;
}

if (require.main === module) {
  try {
    process.exitCode = main(process.argv.slice(2));
  } catch (e) {
    console.error(`eject round trip: ${e instanceof Error ? e.message : String(e)}`);
    process.exitCode = 1;
  }
}