/**
 * Records which pod templates the operator changes on the seeded edit pairs
 * (test/support/oracle-edits.ts) as test/fixtures/oracle/edits-<version>.jsonl.gz: the oracle
 * (reconcilers included, with the LeaderWorkerSet webhook's defaults) runs on both sides of each pair.
 *
 * With ORACLE_UPDATE (the oracle built with its update mode, test/fixtures/oracle/tools/build-mode.sh update)
 * the "after" side is not a creation of its own: the oracle reconciles the old graph, applies the
 * edited one as an update of the stored DGD (`--then`, as `kubectl apply` would) and reconciles again.
 *
 *   ORACLE=/path/to/dynamo-oracle [ORACLE_UPDATE=/path/to/dynamo-update] ts-node --project tsconfig.dev.json
 *     scripts/oracle/record-edits.ts [--seed S] [--per N] [--version 1.5.0] [--commit C]
 *     [--config operator-config.yaml] [--out FILE] [--jobs 2] [--keep DIR [--reuse]]
 *
 * --keep DIR keeps every run's output and stderr there; with --reuse, runs already kept are read back.
 */
import { execFile } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { parseAllDocuments } from 'yaml';
import { EDITS_SEED, editPairs, EditPair, RecordedEditPair, workloadChanges } from '../../test/support/oracle-edits';

const ROOT = path.join(__dirname, '..', '..');
const DEFAULT_COMMITS: Record<string, string> = { '1.5.0': '2a6da14c8' };

function value(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

interface Run { readonly objects?: unknown[]; readonly refused?: string }

/** The oracle on `doc`; with `then`, the update-mode oracle: `doc` reconciled, then updated to `then`. */
function runOracle(doc: unknown, grove: boolean, version: string, config: string | undefined, dir: string, name: string,
  then?: unknown, reuse = false): Promise<Run> {
  const oracle = then === undefined ? process.env.ORACLE : process.env.ORACLE_UPDATE;
  if (!oracle) throw new Error('set ORACLE to the oracle binary of operator 1.5.0 (test/fixtures/oracle/README.md says how to build it)');
  const file = path.join(dir, `${name}.json`);
  fs.writeFileSync(file, JSON.stringify(doc));
  const thenArgs: string[] = [];
  if (then !== undefined) {
    const thenFile = path.join(dir, `${name}-then.json`);
    fs.writeFileSync(thenFile, JSON.stringify(then));
    thenArgs.push('--then', thenFile);
  }
  const args = ['--namespace', 'default', '--operator-version', version, '--lws', '--workload-admission', ...(config ? ['--config', config] : []), ...(grove ? ['--grove'] : []), ...thenArgs, file];
  const outFile = path.join(dir, `${name}.out.yaml`);
  const errFile = path.join(dir, `${name}.err`);
  const result = (code: number, stdout: string, stderr: string): Run => {
    if (code !== 0) return { refused: `exit ${code}: ${stderr.trim().split('\n').slice(-1)[0]?.slice(0, 400) ?? ''}` };
    // every scalar as a string (only equality matters here): a hash such as 58e69826 stays itself (YAML 1.2 reads a float)
    return { objects: parseAllDocuments(stdout, { schema: 'failsafe' }).map(d => d.toJSON()).filter(o => o !== null) };
  };
  if (reuse && fs.existsSync(outFile) && fs.existsSync(errFile)) {
    // a kept run of the same inputs (--keep DIR --reuse): its exit code is in the last line of stderr
    const stderr = fs.readFileSync(errFile, 'utf8');
    const last = stderr.trim().split('\n').slice(-1)[0] ?? '';
    const code = last.startsWith('REJECTED') ? 3 : last.startsWith('RECONCILE-ERROR') ? 4 : 0;
    return Promise.resolve(result(code, fs.readFileSync(outFile, 'utf8'), stderr));
  }
  return new Promise(resolve => {
    execFile(oracle, args, { maxBuffer: 256 * 1024 * 1024 }, (error, stdout, stderr) => {
      fs.writeFileSync(outFile, stdout);
      fs.writeFileSync(errFile, stderr);
      if (error) {
        resolve(result((error as any).code, String(stdout), String(stderr)));
        return;
      }
      resolve(result(0, stdout, String(stderr)));
    });
  });
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const version = value(argv, '--version') ?? '1.5.0';
  const seed = Number(value(argv, '--seed') ?? EDITS_SEED);
  const per = Number(value(argv, '--per') ?? 14);
  const jobs = Number(value(argv, '--jobs') ?? 2);
  const sharedConfig = path.join(ROOT, '..', 'shared', 'oracle', 'operator-config.yaml');
  const config = value(argv, '--config') ?? (fs.existsSync(sharedConfig) ? sharedConfig : undefined);
  const out = value(argv, '--out') ?? path.join(ROOT, 'test', 'fixtures', 'oracle', `edits-${version}.jsonl.gz`);
  const pairs = editPairs(seed, per);
  const keep = value(argv, '--keep');
  const reuse = keep !== undefined && argv.includes('--reuse');
  const update = process.env.ORACLE_UPDATE !== undefined && process.env.ORACLE_UPDATE !== '';
  const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edits-'));
  fs.mkdirSync(dir, { recursive: true });
  const recorded: RecordedEditPair[] = new Array(pairs.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < pairs.length) {
      const i = next++;
      const p: EditPair = pairs[i];
      const before = await runOracle(p.before, p.grove, version, config, dir, `${p.id}-before`, undefined, reuse);
      const after = update
        ? await runOracle(p.before, p.grove, version, config, dir, `${p.id}-update`, p.after, reuse)
        : await runOracle(p.after, p.grove, version, config, dir, `${p.id}-after`, undefined, reuse);
      const refused = before.refused ? `before: ${before.refused}` : after.refused ? `after: ${after.refused}` : undefined;
      recorded[i] = { ...p, oracle: refused ? { refused } : { workloads: workloadChanges(before.objects as any[], after.objects as any[]) } };
      if (i % 50 === 0) console.error(`${i}/${pairs.length}`);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  if (keep === undefined) fs.rmSync(dir, { recursive: true, force: true });
  const meta = {
    what: 'the workloads the Dynamo operator writes for both sides of seeded edit pairs: which pod templates changed',
    operatorVersion: version,
    operatorCommit: value(argv, '--commit') ?? DEFAULT_COMMITS[version] ?? 'unknown',
    seed,
    perEditAndMode: per,
    generator: 'test/support/oracle-edits.ts editPairs',
    oracle: update
      ? 'dynamo-oracle --lws --workload-admission [--grove] on the old graph; dynamo-update (the same, with --then NEW: the edited graph applied as an update of the reconciled old one) for the new side (test/fixtures/oracle/operator-config.yaml)'
      : 'dynamo-oracle --lws --workload-admission [--grove] on both sides (test/fixtures/oracle/operator-config.yaml)',
    ...(update ? { recorded: 'update' } : {}),
    count: recorded.length,
  };
  const text = [JSON.stringify({ meta }), ...recorded.map(r => JSON.stringify(r))].join('\n') + '\n';
  fs.writeFileSync(out, zlib.gzipSync(text, { level: 9 }));
  const refused = recorded.filter(r => r.oracle.refused);
  console.log(`wrote ${out}: ${recorded.length} pairs, ${refused.length} refused by the operator`);
  for (const r of refused.slice(0, 5)) console.log(`  ${r.id}: ${r.oracle.refused}`);
}

if (require.main === module) {
  main().catch(e => {
    console.error(e);
    process.exit(1);
  });
}
