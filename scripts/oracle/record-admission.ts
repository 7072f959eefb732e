/**
 * Records the operator's own admission verdicts on the seeded admission cases
 * (test/support/oracle-admission.ts) as test/fixtures/oracle/admission-<version>.jsonl.gz, and
 * prints how our admission compares.
 *
 *   ORACLE_ADMIT=/path/to/dynamo-oracle ts-node --project tsconfig.dev.json scripts/oracle/record-admission.ts
 *     [--seed S] [--version 1.5.0] [--commit C] [--config operator-config.yaml] [--out FILE] [--compare-only]
 *
 * ORACLE_ADMIT is the oracle built with its admit mode (test/fixtures/oracle/tools/build-mode.sh admit).
 * `--compare-only` reads the recorded fixture instead of running the oracle.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import {
  ADMISSION_SEED, admissionCases, classify, compareVerdicts, knownFile, OracleVerdict, oraclePaths, ourVerdict,
  readAdmissionFixture, RecordedAdmissionCase as Recorded,
} from '../../test/support/oracle-admission';

const ROOT = path.join(__dirname, '..', '..');
const DEFAULT_COMMITS: Record<string, string> = { '1.5.0': '2a6da14c8', '1.4.0': 'c13fdcec6' };

interface Options {
  seed: number;
  version: string;
  commit: string;
  config?: string;
  out: string;
  compareOnly: boolean;
}

function parseArgs(argv: string[]): Options {
  const value = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const version = value('--version') ?? '1.5.0';
  const sharedConfig = path.join(ROOT, '..', 'shared', 'oracle', 'operator-config.yaml');
  return {
    seed: Number(value('--seed') ?? ADMISSION_SEED),
    version,
    commit: value('--commit') ?? DEFAULT_COMMITS[version] ?? 'unknown',
    config: value('--config') ?? (fs.existsSync(sharedConfig) ? sharedConfig : undefined),
    out: value('--out') ?? path.join(ROOT, 'test', 'fixtures', 'oracle', `admission-${version}.jsonl.gz`),
    compareOnly: argv.includes('--compare-only'),
  };
}

/** Runs the oracle's admit mode on the documents, one verdict per document, in order. */
function oracleVerdicts(docs: unknown[], grove: boolean, o: Options): OracleVerdict[] {
  const oracle = process.env.ORACLE_ADMIT;
  if (!oracle) throw new Error('set ORACLE_ADMIT to the oracle built with its admit mode (test/fixtures/oracle/tools/build-mode.sh admit)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'admit-'));
  const file = path.join(dir, 'cases.json');
  // a stream of JSON objects: the oracle reads JSON as is (no YAML 1.1 reinterpretation of strings)
  fs.writeFileSync(file, docs.map(d => JSON.stringify(d)).join('\n'));
  const args = ['admit', '--namespace', 'default', '--operator-version', o.version, ...(o.config ? ['--config', o.config] : []), ...(grove ? ['--grove'] : []), file];
  const out = execFileSync(oracle, args, { encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 });
  fs.rmSync(dir, { recursive: true, force: true });
  const lines = out.split('\n').filter(l => l.trim() !== '').map(l => JSON.parse(l));
  if (lines.length !== docs.length) throw new Error(`the oracle answered ${lines.length} verdicts for ${docs.length} documents`);
  return lines.map((l): OracleVerdict => {
    const v: any = { accepted: l.accepted };
    if (!l.accepted) {
      v.stage = l.stage;
      v.errors = (l.errors ?? []).map((e: any) => ({ field: e.field, type: e.type, detail: String(e.detail ?? '').slice(0, 300) }));
      v.message = String(l.message ?? '').slice(0, 600);
    }
    return v;
  });
}

function record(o: Options): { meta: unknown; cases: Recorded[] } {
  const cases = admissionCases(o.seed);
  const verdicts = new Map<string, OracleVerdict>();
  for (const grove of [false, true]) {
    const mode = cases.filter(c => c.grove === grove);
    oracleVerdicts(mode.map(c => c.doc), grove, o).forEach((v, i) => verdicts.set(mode[i].id, v));
  }
  const meta = {
    what: 'the Dynamo operator\'s admission (oracle admit mode) on seeded create cases',
    operatorVersion: o.version,
    operatorCommit: o.commit,
    seed: o.seed,
    generator: 'test/support/oracle-admission.ts admissionCases',
    tool: 'test/fixtures/oracle/tools/admit.go',
    count: cases.length,
  };
  return { meta, cases: cases.map(c => ({ ...c, oracle: verdicts.get(c.id)! })) };
}

function summarize(cases: Recorded[], version: string, known: string): void {
  const tally = new Map<string, { count: number; example: string }>();
  const byKind: Record<string, string[]> = {};
  let verdictAgree = 0;
  let pathAgree = 0;
  for (const c of cases) {
    const ours = ourVerdict(c, version);
    const agreement = compareVerdicts(ours, c.oracle);
    if (agreement === 'agree' || agreement === 'other-step' || agreement === 'other-paths') verdictAgree++;
    if (agreement === 'agree') {
      pathAgree++;
      continue;
    }
    const kind = classify(c, ours, c.oracle);
    (byKind[kind] ??= []).push(c.id);
    const key = `${kind}: ${agreement} ${c.origin.replace(/^(mutation:[^-]+).*/, '$1')}`;
    const t = tally.get(key) ?? { count: 0, example: `${c.id}: ours ${ours.step ?? 'accept'} ${JSON.stringify(ours.paths)} oracle ${c.oracle.stage ?? 'accept'} ${JSON.stringify(oraclePaths(c.oracle))} ${(c.oracle.message ?? '').slice(0, 300)}` };
    t.count++;
    tally.set(key, t);
  }
  console.log(`cases ${cases.length}, verdict agrees ${verdictAgree}, verdict and field paths agree ${pathAgree}`);
  const sorted = Object.fromEntries(Object.keys(byKind).sort().map(k => [k, byKind[k].sort()]));
  fs.writeFileSync(known, JSON.stringify(sorted, undefined, 1) + '\n');
  console.log(`wrote ${known}`);
  for (const [key, t] of [...tally.entries()].sort((a, b) => b[1].count - a[1].count)) console.log(`${String(t.count).padStart(5)} ${key}\n        ${t.example}`);
}

function main(): void {
  const o = parseArgs(process.argv.slice(2));
  let cases: Recorded[];
  if (o.compareOnly) {
    cases = readAdmissionFixture(o.out).cases;
  } else {
    const r = record(o);
    cases = r.cases;
    const text = [JSON.stringify({ meta: r.meta }), ...cases.map(c => JSON.stringify(c))].join('\n') + '\n';
    fs.mkdirSync(path.dirname(o.out), { recursive: true });
    fs.writeFileSync(o.out, zlib.gzipSync(text, { level: 9 }));
    console.log(`wrote ${o.out} (${cases.length} cases)`);
  }
  summarize(cases, o.version, knownFile(o.out));
}

if (require.main === module) main();
