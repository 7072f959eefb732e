/**
 * The project's workloads output against what the real operator created for the same inputs, recorded
 * (test/fixtures/oracle/: operators 1.5.0 and 1.4.0, Grove and non-Grove mode, seven operator
 * configuration files). For every recorded run the input is rendered in process as `render --output
 * workloads` renders it, with the same settings: an input the operator refused (admission, or a
 * reconcile that kept failing) must be refused; an accepted one must give the same objects, deep-equal,
 * but for the differences of the ONE table EXPECTED_DIFFERENCES (test/support/oracle-renders.ts), which
 * the README's section "Differences from the operator" mirrors. Every entry of that table must still be seen, so a fixed difference gets
 * removed from it.
 *
 * It renders 2,400 recorded runs in process (about 20 s of CPU); `npx projen oracle:record --check` compares
 * more inputs against the oracle itself.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  EXPECTED_DIFFERENCES, judgeRun, ORACLE_SETTINGS_DIR, oracleFixtureFiles, OracleRecord, OracleTally, readOracleRecords,
} from './support/oracle-renders';

const files = oracleFixtureFiles();
const records: { file: string; records: OracleRecord[] }[] = files.map(file => ({ file: path.basename(file), records: readOracleRecords(file) }));

describe('recorded oracle renders', () => {
  test('the fixtures hold at least 300 inputs per operator version, each run in both modes', () => {
    const versions = new Map<string, number>();
    for (const { records: rs } of records) {
      for (const r of rs) {
        expect(r.runs.map(run => run.mode).sort()).toEqual(['grove', 'nogrove']);
        for (const run of r.runs) if (run.mode === 'grove') versions.set(run.version, (versions.get(run.version) ?? 0) + 1);
        expect(fs.existsSync(path.join(ORACLE_SETTINGS_DIR, `${r.settings}.yaml`))).toBe(true);
      }
    }
    expect([...versions.keys()].sort()).toEqual(['1.4.0', '1.5.0']);
    for (const n of versions.values()) expect(n).toBeGreaterThanOrEqual(300);
  });

  test('the README\'s "Differences from the operator" lists exactly the expected differences of the table', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const start = readme.indexOf('\n## Differences from the operator\n');
    expect(start).toBeGreaterThan(0);
    const end = readme.indexOf('\n## ', start + 1);
    const section = readme.slice(start, end < 0 ? undefined : end);
    const split = section.indexOf('\nNot yet fixed');
    expect(split).toBeGreaterThan(0);
    const ids = (text: string) => [...text.matchAll(/^- \*\*[^\n]*?\*\* \(`([a-z0-9.-]+)`\)/gm)].map(m => m[1]);
    const listed = [...ids(section.slice(0, split)).map(id => `${id} intended`), ...ids(section.slice(split)).map(id => `${id} known-open`)];
    expect(listed.sort()).toEqual(EXPECTED_DIFFERENCES.map(e => `${e.id} ${e.status}`).sort());
  });

  test('a difference outside the table is reported with its seed, mode, version, settings and field path', () => {
    const record = records.flatMap(f => f.records).find(r => r.runs.some(run => run.exit === 0 && (run.objects ?? []).some(o => o.kind === 'Service')))!;
    const run = record.runs.find(x => x.exit === 0 && (x.objects ?? []).some(o => o.kind === 'Service'))!;
    const objects = JSON.parse(JSON.stringify(run.objects));
    const service = objects.find((o: any) => o.kind === 'Service');
    service.spec.ports[0].port += 1;
    const verdict = judgeRun(record, { ...run, objects });
    expect(verdict.outcome).toBe('different');
    expect(verdict.details[0]).toContain(`Service/${service.metadata.name} .spec.ports`);
    const tally = new OracleTally();
    tally.add(record, run, verdict);
    expect(tally.failures[0]).toContain(`seed ${record.seed}`);
    expect(tally.failures[0]).toContain(`mode ${run.mode}, version ${run.version}, settings ${record.settings}`);
  });

  test('a refusal for a field the oracle does not name is a difference', () => {
    const record = records.flatMap(f => f.records).find(r => r.runs.some(run => run.exit === 3 && !/unknown field/.test(run.message ?? '')))!;
    const run = record.runs.find(x => x.exit === 3 && !/unknown field/.test(x.message ?? ''))!;
    expect(judgeRun(record, run).outcome).toBe('refused-alike');
    const verdict = judgeRun(record, { ...run, message: 'REJECTED: DynamoGraphDeployment: spec.somethingElse: Invalid value' });
    expect(verdict.outcome).toBe('different');
    expect(verdict.categories[0]).toContain('refused at another field');
  });

  test('every run: refused alike, or the same objects but for the expected differences', () => {
    const tally = new OracleTally();
    for (const { records: rs } of records) for (const r of rs) for (const run of r.runs) tally.add(r, run, judgeRun(r, run));
    // the counts, for the log: per version and mode, per settings file, per expected difference
    process.stdout.write(`${tally.report()}\n`);
    const unseen = EXPECTED_DIFFERENCES.filter(e => !tally.expected.get(e.id)).map(e => `${e.status} ${e.id}: no longer seen; remove it from EXPECTED_DIFFERENCES and the README`);
    const found = { differences: tally.failures.slice(0, 20), more: Math.max(0, tally.failures.length - 20), unseen };
    expect(found).toEqual({ differences: [], more: 0, unseen: [] });
  }, 900_000);
});
