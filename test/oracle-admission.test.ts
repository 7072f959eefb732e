/**
 * Our admission against the operator's own, on the seeded create cases recorded from the oracle
 * (test/fixtures/oracle/admission-<version>.jsonl.gz, operators 1.5.0 and 1.4.0;
 * `npx projen oracle:record-admission` regenerates them): the verdict and, for a refusal, the
 * admission step and its field paths must agree, except for the known disagreements listed by kind
 * in admission-<version>.known.json (DISAGREEMENT_KINDS says what each kind is). A known
 * disagreement that disappears fails as surely as a new one.
 */
import * as fs from 'fs';
import * as path from 'path';
import {
  classify, compareVerdicts, DISAGREEMENT_KINDS, knownFile, ourVerdict, readAdmissionFixture,
} from './support/oracle-admission';

const OPERATORS = [
  { version: '1.5.0', commit: '2a6da14c8' },
  { version: '1.4.0', commit: 'c13fdcec6' },
];

describe.each(OPERATORS)('admission against the operator ($version)', ({ version, commit }) => {
  const fixture = path.join(__dirname, 'fixtures', 'oracle', `admission-${version}.jsonl.gz`);
  const { meta, cases } = readAdmissionFixture(fixture);
  const known: Record<string, string[]> = JSON.parse(fs.readFileSync(knownFile(fixture), 'utf8'));

  test('the fixture names its operator and holds at least 5,000 cases of both modes, DGDs and DCDs', () => {
    expect(meta).toMatchObject({ operatorVersion: version, operatorCommit: commit });
    expect(cases.length).toBe(meta.count);
    expect(cases.length).toBeGreaterThanOrEqual(5000);
    expect(new Set(cases.map(c => c.grove))).toEqual(new Set([true, false]));
    expect(new Set(cases.map(c => c.doc.kind))).toEqual(new Set(['DynamoGraphDeployment', 'DynamoComponentDeployment']));
    // both verdicts, and refusals at every step of the API server
    expect(new Set(cases.map(c => c.oracle.stage ?? 'accepted'))).toEqual(
      new Set(['accepted', 'metadata', 'unknown-fields', 'decode', 'crd-validation', 'validating-webhook']));
  });

  test('every known disagreement is of a described kind', () => {
    for (const kind of Object.keys(known)) {
      expect(DISAGREEMENT_KINDS[kind]).toBeDefined();
      expect(kind).not.toBe('unexplained');
    }
  });

  test('verdicts and field paths agree on every case but the known disagreements', () => {
    const found: Record<string, string[]> = {};
    for (const c of cases) {
      const ours = ourVerdict(c, version);
      if (compareVerdicts(ours, c.oracle) === 'agree') continue;
      (found[classify(c, ours, c.oracle)] ??= []).push(c.id);
    }
    for (const ids of Object.values(found)) ids.sort();
    expect(found).toEqual(known);
  }, 600_000);
});
