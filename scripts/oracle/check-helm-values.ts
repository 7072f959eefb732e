/**
 * The operator run with the configurations the platform chart rendered (test/fixtures/oracle/helm),
 * beside the project run with the same chart values (`--helm-values`), on seeded graphs.
 *
 *   ORACLE_1_5=<dynamo-oracle> npx ts-node --transpile-only --project tsconfig.dev.json \
 *       scripts/oracle/check-helm-values.ts [--count 20] [--seed 20261203] [--jobs 2] [--verbose]
 *
 * Per values file and seed (graphs from `oracleCase(seed)`, their own settings name ignored): the oracle
 * (operator 1.5.0) with `--config <name>.operator-config.yaml`, Grove served when the values turn Grove on;
 * the project in process with the settings `--helm-values <name>.values.yaml` derives (judged as
 * test/oracle-renders.test.ts judges, with its table of expected differences), and the built CLI
 * (`npx projen compile` first) with `render --output workloads --helm-values`, whose objects must be
 * those of the in-process render. Prints the verdicts per values file and every unexpected difference.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { ORACLE_NAMESPACE, oracleCase } from './graphs';
import { queueServer } from './queue-server';
import { parseYamlDocuments } from '../../src/import/documents';
import { deriveOperatorSettingsFromHelmValues, parseHelmValues } from '../../src/import/helm-values';
import { parseOperatorConfiguration } from '../../src/import/operator-config';
import { resolveOperatorSettings } from '../../src/model/operator-settings';
import {
  compareObjects, judgeRun, keyOf, ORACLE_SETTINGS_DIR, OracleMode, OracleRecord, OracleRun, renderOurs, stripServerSet, withOracleUids,
} from '../../test/support/oracle-renders';

const ROOT = path.join(__dirname, '..', '..');
const HELM_DIR = path.join(ROOT, 'test', 'fixtures', 'oracle', 'helm');
const CLI = path.join(ROOT, 'bin', 'cdk8s-dynamo');

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}


function run(binary: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise(resolve => {
    execFile(binary, args, { env, maxBuffer: 256 * 1024 * 1024, timeout: 300_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (typeof (error as any).code === 'number' ? (error as any).code : -1) : 0, stdout, stderr });
    });
  });
}

async function main(): Promise<void> {
  const oracle = process.env.ORACLE_1_5;
  if (!oracle || !fs.existsSync(oracle)) throw new Error('set ORACLE_1_5 to the operator 1.5.0 oracle');
  const count = option('--count', 20);
  const first = option('--seed', 20261203);
  const jobs = Math.max(1, Math.min(2, option('--jobs', 2)));
  const verbose = process.argv.includes('--verbose');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'oracle-helm-'));
  const queues = await queueServer();
  const env = { ...process.env, KUBECONFIG: queues.kubeconfig };
  const names = fs.readdirSync(HELM_DIR).filter(f => f.endsWith('.values.yaml')).map(f => f.slice(0, -'.values.yaml'.length)).sort();
  const work: Array<{ name: string; seed: number }> = [];
  for (const name of names) for (let s = first; s < first + count; s++) work.push({ name, seed: s });
  const tally = new Map<string, Record<string, number>>();
  const details: string[] = [];
  let next = 0;
  try {
    await Promise.all(Array.from({ length: jobs }, async () => {
      while (next < work.length) {
        const { name, seed } = work[next++];
        const valuesFile = path.join(HELM_DIR, `${name}.values.yaml`);
        const configFile = path.join(HELM_DIR, `${name}.operator-config.yaml`);
        const derived = deriveOperatorSettingsFromHelmValues(parseHelmValues(fs.readFileSync(valuesFile, 'utf8'), valuesFile), {}, valuesFile);
        // held by test/helm-chart-configs.test.ts; checked again here so the in-process render below is --helm-values's
        const fromConfig = resolveOperatorSettings(parseOperatorConfiguration(fs.readFileSync(configFile, 'utf8'), configFile));
        if (JSON.stringify(resolveOperatorSettings(derived)) !== JSON.stringify(fromConfig)) throw new Error(`${name}: --helm-values and the chart's configuration differ`);
        const mode: OracleMode = derived.groveAvailable === true ? 'grove' : 'nogrove';
        const c = oracleCase(seed);
        const input = path.join(tmp, `${name}-${seed}.yaml`);
        fs.writeFileSync(input, c.documents.map(d => JSON.stringify(d)).join('\n---\n') + '\n');
        const o = await run(oracle, ['--config', configFile, '--namespace', ORACLE_NAMESPACE, '--operator-version', '1.5.0',
          ...(mode === 'grove' ? ['--grove'] : []), '--lws', '--workload-admission', input], env);
        if (o.code !== 0 && o.code !== 3 && o.code !== 4) throw new Error(`oracle failed (exit ${o.code}) on ${name} seed ${seed}: ${o.stderr.slice(0, 2000)}`);
        const oracleRun: { -readonly [K in keyof OracleRun]: OracleRun[K] } = { mode, version: '1.5.0', exit: o.code };
        if (o.code !== 0) oracleRun.message = o.stderr.split('\n').find(l => l.startsWith('REJECTED:') || l.startsWith('RECONCILE-ERROR:')) ?? o.stderr.trim().slice(-2000);
        if (o.code !== 3) oracleRun.objects = (parseYamlDocuments(o.stdout, 'oracle output') as any[]).filter(x => x && typeof x === 'object').map(stripServerSet);
        // the settings file name is read relative to test/fixtures/oracle/settings
        const settingsName = path.relative(ORACLE_SETTINGS_DIR, configFile).replace(/\.yaml$/, '');
        const record: OracleRecord = {
          seed, generator: c.generator, settings: settingsName, namespace: ORACLE_NAMESPACE, input: c.documents, runs: [oracleRun],
        };
        const verdict = judgeRun(record, oracleRun);
        const counts = tally.get(name) ?? {};
        counts[verdict.outcome] = (counts[verdict.outcome] ?? 0) + 1;
        tally.set(name, counts);
        if (verdict.outcome === 'different') details.push(`${name} seed ${seed} (${c.generator}, ${mode}):\n    ${verdict.details.join('\n    ')}`);
        if (verbose) process.stderr.write(`${name} ${seed} ${mode}: oracle exit ${o.code}, ${verdict.outcome}\n`);
        // the built CLI with --helm-values renders what the in-process pipeline rendered
        const ours = renderOurs(record, oracleRun);
        const uidInput = path.join(tmp, `${name}-${seed}.uid.yaml`);
        fs.writeFileSync(uidInput, withOracleUids(c.documents).map(d => JSON.stringify(d)).join('\n---\n') + '\n');
        const cli = await run(process.execPath, [CLI, 'render', '--output', 'workloads', '--namespace', ORACLE_NAMESPACE,
          '--helm-values', valuesFile, uidInput], process.env);
        if (ours.ok !== (cli.code === 0)) {
          details.push(`${name} seed ${seed}: CLI exit ${cli.code}, in-process ${ours.ok ? 'renders' : 'refuses'}: ${cli.stderr.slice(0, 300)}`);
          counts['cli-differs'] = (counts['cli-differs'] ?? 0) + 1;
        } else if (ours.ok) {
          const passed = new Set(c.documents.filter(d => !['DynamoGraphDeployment', 'DynamoComponentDeployment'].includes((d as any)?.kind)).map(keyOf));
          const cliObjects = (parseYamlDocuments(cli.stdout, 'cli output') as any[]).filter(x => x && typeof x === 'object' && !passed.has(keyOf(x))).map(stripServerSet);
          const diffs = compareObjects(ours.objects, cliObjects);
          if (diffs.length > 0) {
            details.push(`${name} seed ${seed}: CLI and in-process renders differ: ${diffs.slice(0, 3).map(d => `${d.kind}/${d.name} ${d.path} ${d.type}`).join('; ')}`);
            counts['cli-differs'] = (counts['cli-differs'] ?? 0) + 1;
          }
        }
      }
    }));
  } finally {
    queues.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`seeds ${first}..${first + count - 1}, operator 1.5.0`);
  for (const name of names) console.log(`${name.padEnd(20)} ${JSON.stringify(tally.get(name) ?? {})}`);
  for (const d of details) console.log(d);
}

main().catch(e => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
