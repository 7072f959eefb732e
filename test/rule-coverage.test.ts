import * as path from 'path';
import { coverageReport, findTestReferences, formatCoverage, locateDigest, parseDigestRows } from '../scripts/rule-coverage';

const DIGEST = [
  '## 1. metadata',
  '',
  '| # | Field | Kind | Applies | Rule | Error / effect | Evidence |',
  '| --- | --- | --- | --- | --- | --- | --- |',
  '| 1 | `metadata.annotations["a"]` | WH | DGD | must be semver | Invalid | `v/dgd` |',
  '| 2 | `spec.replicas` | Schema | both | minimum 0 | schema error | `crd/*` |',
  '| 3 | `spec.x` | WH-U | DGD | immutable | Forbidden | `v/dgd` |',
  '| 4 | `spec.y` | CEL | DGD | rule | Invalid | `crd/*` |',
  '| Tag | Source |',
  '| [S] | snapshot |',
].join('\n');

describe('validation-rules.md rows: parsing the digest tables', () => {
  test('numbered rows only, with field (no backquotes) and kind', () => {
    expect(parseDigestRows(DIGEST)).toEqual([
      { id: '1', field: 'metadata.annotations["a"]', kind: 'WH' },
      { id: '2', field: 'spec.replicas', kind: 'Schema' },
      { id: '3', field: 'spec.x', kind: 'WH-U' },
      { id: '4', field: 'spec.y', kind: 'CEL' },
    ]);
  });
});

describe('test references to rows', () => {
  const refs = findTestReferences([
    { name: 'a.test.ts', text: "test('row 1: semver', () => {}); test('rows 46, 59 and 62', () => {}); // Rule 7/8" },
    { name: 'b.test.ts', text: "describe('replicas (rows 59-61)', () => { expect(v).toEqual([{ rule: '2' }]); expect(x.rule).toBe('4'); });" },
    { name: 'c.test.ts', text: "const s = 'see rule 1.4.0 release'; row 012" },
  ]);

  test('single numbers and lists name rows', () => {
    expect(refs.named.get('1')).toEqual(['a.test.ts']);
    expect(['46', '59', '62', '7', '8'].map(id => refs.named.get(id))).toEqual([['a.test.ts'], ['a.test.ts'], ['a.test.ts'], ['a.test.ts'], ['a.test.ts']]);
    expect(refs.named.get('12')).toEqual(['c.test.ts']);
  });

  test('a number followed by a dot (a version) is not a row', () => {
    expect([...refs.named.keys()].sort()).toEqual(['1', '12', '46', '59', '62', '7', '8']);
  });

  test('ranges are kept apart from names', () => {
    expect(['59', '60', '61'].map(id => refs.inRange.get(id))).toEqual([['b.test.ts'], ['b.test.ts'], ['b.test.ts']]);
    expect(refs.named.get('60')).toBeUndefined();
  });

  test('rule ids in expected violations are assertions', () => {
    expect(refs.asserted.get('2')).toEqual(['b.test.ts']);
    expect(refs.asserted.get('4')).toEqual(['b.test.ts']);
    expect(refs.asserted.get('1')).toBeUndefined();
  });
});

describe('coverage of the digest by the rule catalog', () => {
  const rows = parseDigestRows(DIGEST);
  const refs = findTestReferences([
    { name: 't.test.ts', text: "test('row 1', () => { expect(v.rule).toBe('2'); }); describe('rows 3-4', () => {});" },
  ]);

  test('every row implemented with a test or explained: no problem', () => {
    const report = coverageReport(rows, { implemented: ['1', '2'], notApplicable: { 3: 'update-only', 4: 'reads the cluster' } }, refs);
    expect(report.problems).toEqual([]);
    expect(report.implemented).toEqual([
      { id: '1', tests: ['t.test.ts'], inRangeOnly: [] },
      { id: '2', tests: ['t.test.ts'], inRangeOnly: [] },
    ]);
    expect(report.notApplicable).toEqual([{ id: '3', reason: 'update-only' }, { id: '4', reason: 'reads the cluster' }]);
    expect(formatCoverage(report).slice(0, 5)).toEqual([
      'admission digest rows: 4',
      '  implemented: 2 (with a test: 2, without: 0)',
      '  not applicable: 2',
      '  missing: 0',
      '',
    ]);
    expect(formatCoverage(report)).toContain('OK: every row is implemented or explained, and every implemented row has a test');
  });

  test('a missing row and an implemented row known only from a range are problems', () => {
    const report = coverageReport(rows, { implemented: ['1', '2', '4'], notApplicable: {} }, refs);
    expect(report.missing.map(r => r.id)).toEqual(['3']);
    expect(report.problems).toEqual([
      'row 3 (spec.x, WH-U): neither implemented nor explained',
      'row 4 (spec.y): implemented but no test names or asserts it (only inside a range in t.test.ts)',
    ]);
    expect(formatCoverage(report)).toContain('  4: NO TEST');
  });

  test('catalog inconsistencies: unknown row, row in both lists, empty reason', () => {
    const report = coverageReport(rows, { implemented: ['1', '2', '3'], notApplicable: { 3: 'x', 4: ' ', 99: 'y' } }, refs);
    expect(report.problems).toEqual([
      'row 99: in the catalog but not in the digest',
      'row 3: both implemented and not applicable',
      'row 4: not applicable without a reason',
      'row 3 (spec.x): implemented but no test names or asserts it (only inside a range in t.test.ts)',
    ]);
  });
});

describe('where the digest is looked for', () => {
  test('argument file, argument or DYNAMO_REFERENCE_DIR folder (itself or operator/), else the shared folder', () => {
    expect(locateDigest('/r/rules.md', {}, '/p')).toEqual(['/r/rules.md']);
    expect(locateDigest(undefined, { DYNAMO_REFERENCE_DIR: '/ref' }, '/p')).toEqual(['/ref/validation-rules.md', '/ref/operator/validation-rules.md']);
    expect(locateDigest(undefined, {}, '/work/main')).toEqual([path.resolve('/work/shared/reference/operator/validation-rules.md')]);
  });
});
