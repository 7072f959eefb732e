/**
 * Records what the real Dynamo operator (the oracle: its reconcilers run offline, see
 * test/fixtures/oracle/README.md) creates for seeded inputs, or compares without recording.
 *
 *   npx projen oracle:record [--count 300] [--seed 20261203] [--jobs 2] [--versions 1.5.0,1.4.0] [--modes grove,nogrove]
 *       writes test/fixtures/oracle/renders-<version>.jsonl.gz (one line per input, its run per mode)
 *   npx projen oracle:record --check --count 2000 [--seed S] ...
 *       writes nothing: renders every input with the project too and prints identical / different by
 *       category, per version and mode and per settings file (the comparison of test/oracle-renders.test.ts)
 *   npx projen oracle:record --check --seeds 5,6 --verbose
 *       the same for single seeds, with every difference of each run
 *   npx projen oracle:record --summary
 *       the counts of the recorded fixtures (inputs, oracle exits, settings, features)
 *   npx projen oracle:record --variants [--check]
 *       the variant settings files (no-dra, no-lws, checkpoint-storage...) on their own seeds (ORACLE_VARIANTS in
 *       graphs.ts): writes test/fixtures/oracle/renders-variants-<version>.jsonl.gz (the other fixtures are left alone)
 *   npx projen oracle:record --check --seeds 5,6 --settings no-lws,no-dra --verbose
 *       single seeds under the named settings files instead of their own
 *
 * Env: ORACLE_1_5 and ORACLE_1_4, the oracle binaries of operator 1.5.0 and 1.4.0
 * (built as test/fixtures/oracle/README.md says; required for the versions a run asks for).
 *
 * Each oracle run: `dynamo-oracle --config settings/<name>.yaml --namespace dynamo --operator-version V
 * [--grove] --lws=<orchestrators.lws.enabled, default true> --dra=<dra.enabled, default true> --workload-admission FILE`, with a KUBECONFIG naming a small local server that holds the
 * KAI scheduler queues (the operator looks its queue up through the cluster's API).
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import {
  featuresOf, ORACLE_NAMESPACE, ORACLE_VARIANTS, oracleCase, OracleCase, oracleVariantCase, VARIANT_SETTINGS_NAMES, VariantSettingsName,
} from './graphs';
import { queueServer } from './queue-server';
import { parseYamlDocuments } from '../../src/import/documents';
import { parseOperatorConfiguration } from '../../src/import/operator-config';
import {
  expectedDifferenceOf, judgeRun, ORACLE_FIXTURES_DIR, ORACLE_SETTINGS_DIR, oracleFixtureFiles, OracleMode, OracleRecord, OracleRun,
  OracleTally, readOracleRecords, runDiffs, stripServerSet,
} from '../../test/support/oracle-renders';

interface Options {
  count: number;
  seed: number;
  jobs: number;
  versions: string[];
  modes: OracleMode[];
  check: boolean;
  summary: boolean;
  verbose: boolean;
  /** Explicit seeds (instead of --seed and --count). */
  seeds?: number[];
  /** Settings files every seed is run under, instead of its own. */
  settings?: string[];
  /** The variant recordings (ORACLE_VARIANTS). */
  variants: boolean;
  out: string;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { count: 300, seed: 20261203, jobs: 2, versions: ['1.5.0', '1.4.0'], modes: ['grove', 'nogrove'], check: false, summary: false, verbose: false, variants: false, out: ORACLE_FIXTURES_DIR };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const next = () => argv[++i];
    if (a === '--count') o.count = Number(next());
    else if (a === '--seed') o.seed = Number(next());
    else if (a === '--seeds') o.seeds = next().split(',').map(Number);
    else if (a === '--jobs') o.jobs = Math.max(1, Math.min(2, Number(next())));
    else if (a === '--versions') o.versions = next().split(',');
    else if (a === '--modes') o.modes = next().split(',') as OracleMode[];
    else if (a === '--check') o.check = true;
    else if (a === '--settings') o.settings = next().split(',');
    else if (a === '--variants') o.variants = true;
    else if (a === '--summary') o.summary = true;
    else if (a === '--verbose') o.verbose = true;
    else if (a === '--out') o.out = path.resolve(next());
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

const ORACLES: Record<string, string | undefined> = {
  '1.5.0': process.env.ORACLE_1_5,
  '1.4.0': process.env.ORACLE_1_4,
};


function runOracle(binary: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise(resolve => {
    execFile(binary, args, { env, maxBuffer: 256 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as any).code === 'number' ? (error as any).code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** The oracle's availability flags of a settings file: LeaderWorkerSet and DRA as the file says (available unless turned off). */
function oracleGateFlags(settingsName: string): string[] {
  const file = path.join(ORACLE_SETTINGS_DIR, `${settingsName}.yaml`);
  const settings = parseOperatorConfiguration(fs.readFileSync(file, 'utf8'), file);
  return [`--lws=${settings.lwsAvailable ?? true}`, `--dra=${settings.draAvailable ?? true}`];
}

/** The case of a seed under a settings file (a variant's, or one of the seeded cases' own). */
function caseUnder(seed: number, settings: string): OracleCase {
  if ((VARIANT_SETTINGS_NAMES as readonly string[]).includes(settings)) return oracleVariantCase(seed, settings as VariantSettingsName);
  return { ...oracleCase(seed), settings: settings as OracleCase['settings'] };
}

async function oracleRun(c: OracleCase, mode: OracleMode, version: string, tmp: string, env: NodeJS.ProcessEnv): Promise<OracleRun> {
  const file = path.join(tmp, `in-${c.seed}-${c.settings}.yaml`);
  // JSON documents (also YAML) keep every string a string for the Go reader
  fs.writeFileSync(file, c.documents.map(d => JSON.stringify(d)).join('\n---\n') + '\n');
  const args = ['--config', path.join(ORACLE_SETTINGS_DIR, `${c.settings}.yaml`), '--namespace', ORACLE_NAMESPACE,
    '--operator-version', version, ...(mode === 'grove' ? ['--grove'] : []), ...oracleGateFlags(c.settings), '--workload-admission', file];
  const { code, stdout, stderr } = await runOracle(ORACLES[version]!, args, env);
  if (code !== 0 && code !== 3 && code !== 4) throw new Error(`oracle ${version} failed (exit ${code}) on seed ${c.seed}: ${stderr.slice(0, 2000)}`);
  const message = stderr.split('\n').find(l => l.startsWith('REJECTED:') || l.startsWith('RECONCILE-ERROR:'));
  const run: { -readonly [K in keyof OracleRun]: OracleRun[K] } = { mode, version, exit: code };
  if (code !== 0) run.message = message ?? stderr.trim().slice(-2000);
  if (code !== 3) run.objects = (parseYamlDocuments(stdout, 'oracle output') as any[]).filter(o => o && typeof o === 'object').map(stripServerSet);
  return run;
}

async function pool<T>(items: T[], jobs: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: jobs }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

/** Counts of the recorded fixtures: inputs, oracle exits per version and mode, settings, features. */
function summary(dir: string): void {
  for (const file of oracleFixtureFiles(dir)) {
    const records = readOracleRecords(file);
    const count = (keys: string[]) => {
      const m: Record<string, number> = {};
      for (const k of keys) m[k] = (m[k] ?? 0) + 1;
      return Object.entries(m).sort(([a], [b]) => a.localeCompare(b)).map(([k, n]) => `${k}: ${n}`).join(', ');
    };
    console.log(`${path.basename(file)} (${fs.statSync(file).size} bytes): ${records.length} inputs, seeds ${records[0]?.seed}..${records[records.length - 1]?.seed}`);
    console.log(`  generator: ${count(records.map(r => r.generator))}`);
    console.log(`  settings: ${count(records.map(r => r.settings))}`);
    console.log(`  oracle exit per mode: ${count(records.flatMap(r => r.runs.map(run => `${run.version} ${run.mode} exit ${run.exit}`)))}`);
    console.log(`  features: ${count(records.flatMap(r => featuresOf(r.input)))}`);
  }
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  if (o.summary) {
    summary(o.out);
    return;
  }
  if (o.settings && !o.check) throw new Error('--settings runs seeds under other settings than their own: only with --check (record the variants with --variants)');
  for (const v of o.versions) {
    if (!ORACLES[v] || !fs.existsSync(ORACLES[v])) throw new Error(`no oracle for operator ${v}: ${ORACLES[v] === undefined ? 'ORACLE_1_5 / ORACLE_1_4 not set' : `${ORACLES[v]} not found`} (test/fixtures/oracle/README.md says how to build it)`);
  }
  const queues = await queueServer();
  const env = { ...process.env, KUBECONFIG: queues.kubeconfig };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oracle-inputs-'));
  const seeds = o.seeds ?? Array.from({ length: o.count }, (_, i) => o.seed + i);
  // the cases: each seed under its own settings, under each of --settings, or the variants' seeds
  const cases: (() => OracleCase)[] = o.variants
    ? ORACLE_VARIANTS.flatMap(v => v.seeds.map(seed => () => oracleVariantCase(seed, v.settings)))
    : o.settings ? seeds.flatMap(seed => o.settings!.map(name => () => caseUnder(seed, name))) : seeds.map(seed => () => oracleCase(seed));
  o.count = cases.length;
  const records: Record<string, OracleRecord[]> = Object.fromEntries(o.versions.map(v => [v, []]));
  const tally = new OracleTally();
  const started = Date.now();
  let done = 0;
  try {
    await pool(cases, o.jobs, async makeCase => {
      const c = makeCase();
      const seed = c.seed;
      for (const version of o.versions) {
        const runs: OracleRun[] = [];
        for (const mode of o.modes) runs.push(await oracleRun(c, mode, version, tmp, env));
        if (o.verbose) for (const r of runs) process.stderr.write(`seed ${seed} ${c.generator} ${c.settings} ${version} ${r.mode}: exit ${r.exit} ${(r.message ?? '').slice(0, 400)}\n`);
        const record: OracleRecord = { seed, generator: c.generator, settings: c.settings, namespace: ORACLE_NAMESPACE, input: c.documents, runs };
        if (o.check) {
          for (const run of runs) {
            const verdict = judgeRun(record, run);
            tally.add(record, run, verdict);
            if (o.verbose) {
              // every difference of the run, each with the expected difference it is (or UNEXPECTED)
              const { diffs } = runDiffs(record, run);
              const lines = diffs.map(d => `${expectedDifferenceOf(d, diffs.filter(x => x.kind === d.kind && x.name === d.name), record.input)?.id ?? 'UNEXPECTED'}: `
                + `${d.kind}/${d.name} ${d.path || '(object)'}: ${d.type}; oracle ${JSON.stringify(d.oracle)?.slice(0, 300)} project ${JSON.stringify(d.project)?.slice(0, 300)}`);
              process.stderr.write(`  ${verdict.outcome} seed ${seed} ${version} ${run.mode}${lines.map(l => `\n    ${l}`).join('')}\n`);
            }
          }
        } else {records[version].push(record);}
      }
      done++;
      if (done % 25 === 0) process.stderr.write(`${done}/${o.count} inputs (${Math.round((Date.now() - started) / 1000)} s)\n`);
    });
  } finally {
    queues.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  if (o.check) {
    const which = o.variants ? 'the variants\' seeds' : o.seeds ? `seeds ${o.seeds.join(', ')}` : `seeds ${o.seed}..${o.seed + seeds.length - 1}`;
    console.log(`${which}, versions ${o.versions.join(', ')}, modes ${o.modes.join(', ')}`);
    console.log(tally.report());
    return;
  }
  fs.mkdirSync(o.out, { recursive: true });
  for (const v of o.versions) {
    const lines = records[v].sort((a, b) => (o.variants ? a.settings.localeCompare(b.settings) : 0) || a.seed - b.seed).map(r => JSON.stringify(r)).join('\n') + '\n';
    const file = path.join(o.out, o.variants ? `renders-variants-${v}.jsonl.gz` : `renders-${v}.jsonl.gz`);
    fs.writeFileSync(file, zlib.gzipSync(lines, { level: 9 }));
    const counts: Record<number, number> = {};
    for (const r of records[v]) for (const run of r.runs) counts[run.exit] = (counts[run.exit] ?? 0) + 1;
    console.log(`${file}: ${records[v].length} inputs, runs by oracle exit ${JSON.stringify(counts)}, ${fs.statSync(file).size} bytes`);
  }
}

main().catch(e => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
