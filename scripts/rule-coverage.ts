/**
 * Coverage of the operator admission digest (validation-rules.md) by synth-time validation: which
 * rows `validateDocument` implements, which are not applicable (with the catalog's reason), which
 * are missing, and for every implemented row whether a test pins it.
 *
 *   ts-node --project tsconfig.dev.json scripts/rule-coverage.ts [FILE|DIR]
 *
 * The digest is FILE, or `validation-rules.md` in DIR or `DIR/operator` (default DIR
 * `$DYNAMO_REFERENCE_DIR`, else `../shared/reference/operator/validation-rules.md` next to the
 * project). Without a digest it says so and exits 0.
 *
 * A test pins a row when a test file (test/*.test.ts but this script's own test) names it (`row 47`, `rule 47`, `rows 46, 59`)
 * or asserts it (`rule: '47'`); a range in a group title (`rows 41-58`) is listed but pins nothing.
 * Exits 1 when a row is neither implemented nor explained, an implemented row has no test, or the
 * catalog disagrees with the digest (an unknown row, a row in both lists, an empty reason).
 */
import * as fs from 'fs';
import * as path from 'path';
import { IMPLEMENTED_RULES, NOT_APPLICABLE_RULES } from '../src/admission/rule-catalog';

/** One numbered row of the digest. */
export interface DigestRow {
  readonly id: string;
  /** The `Field` cell, without backquotes. */
  readonly field: string;
  /** The `Kind` cell: Schema, CEL, WH, WH-U, DEF-CRD, DEF-WH. */
  readonly kind: string;
}

/** How tests refer to rows. */
export interface TestReferences {
  /** Row id → test files naming it with its own number (`row 47`, `rules 46, 59`). */
  readonly named: ReadonlyMap<string, readonly string[]>;
  /** Row id → test files asserting a violation of it (`rule: '47'`). */
  readonly asserted: ReadonlyMap<string, readonly string[]>;
  /** Row id → test files naming it only inside a range (`rows 41-58`). */
  readonly inRange: ReadonlyMap<string, readonly string[]>;
}

/** The catalog of `src/admission/rule-catalog.ts`. */
export interface RuleCatalog {
  readonly implemented: readonly string[];
  readonly notApplicable: Readonly<Record<string, string>>;
}

/** The coverage of the digest. */
export interface CoverageReport {
  readonly rows: number;
  /** Implemented rows and the test files pinning each (empty: none). */
  readonly implemented: ReadonlyArray<{ readonly id: string; readonly tests: readonly string[]; readonly inRangeOnly: readonly string[] }>;
  readonly notApplicable: ReadonlyArray<{ readonly id: string; readonly reason: string }>;
  /** Rows neither implemented nor explained. */
  readonly missing: readonly DigestRow[];
  /** Everything that makes the check fail, one line each. */
  readonly problems: readonly string[];
}

function byNumber(a: string, b: string): number {
  return Number(a) - Number(b);
}

/** The numbered rows of the digest's tables (`| 47 | field | kind | ...`), in document order. */
export function parseDigestRows(markdown: string): DigestRow[] {
  const rows: DigestRow[] = [];
  for (const line of markdown.split(/\r?\n/)) {
    const match = /^\|\s*(\d+)\s*\|([^|]*)\|([^|]*)\|/.exec(line);
    if (!match) continue;
    rows.push({ id: match[1], field: match[2].trim().replace(/`/g, ''), kind: match[3].trim() });
  }
  return rows;
}

function addTo(map: Map<string, string[]>, id: string, file: string): void {
  const files = map.get(id) ?? [];
  if (!files.includes(file)) files.push(file);
  map.set(id, files);
}

/** `row 47`, `rows 46, 59 and 62`, `rules 93-103`, `rule 82/83`: the word and a list of numbers or ranges. */
const NAMING = /\b(?:row|rule)s?\s+(\d+(?:\s*(?:,|and|or|\/|-|–)\s*\d+)*)(?![\d.])/gi;
/** `rule: '47'`, `rule: "47"`, `.rule).toBe('47')`. */
const ASSERTION = /\brule['"]?\s*[:)]\s*(?:\.toBe\(\s*|\.toEqual\(\s*)?['"](\d+)['"]/g;

/** The rows each test file names or asserts. `files` maps a file name to its text. */
export function findTestReferences(files: ReadonlyArray<{ readonly name: string; readonly text: string }>): TestReferences {
  const named = new Map<string, string[]>();
  const asserted = new Map<string, string[]>();
  const inRange = new Map<string, string[]>();
  for (const { name, text } of files) {
    for (const match of text.matchAll(NAMING)) {
      for (const part of match[1].split(/\s*(?:,|and|or|\/)\s*/)) {
        const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(part);
        if (!range) {
          addTo(named, String(Number(part)), name);
          continue;
        }
        for (let n = Number(range[1]); n <= Number(range[2]); n++) addTo(inRange, String(n), name);
      }
    }
    for (const match of text.matchAll(ASSERTION)) addTo(asserted, String(Number(match[1])), name);
  }
  return { named, asserted, inRange };
}

/** Classifies every row of the digest and collects the problems. */
export function coverageReport(rows: readonly DigestRow[], catalog: RuleCatalog, refs: TestReferences): CoverageReport {
  const problems: string[] = [];
  const known = new Set(rows.map(r => r.id));
  const implementedSet = new Set(catalog.implemented);
  for (const id of [...catalog.implemented, ...Object.keys(catalog.notApplicable)].sort(byNumber)) {
    if (!known.has(id)) problems.push(`row ${id}: in the catalog but not in the digest`);
  }
  for (const [id, reason] of Object.entries(catalog.notApplicable).sort(([a], [b]) => byNumber(a, b))) {
    if (implementedSet.has(id)) problems.push(`row ${id}: both implemented and not applicable`);
    if (reason.trim() === '') problems.push(`row ${id}: not applicable without a reason`);
  }
  const implemented: Array<{ id: string; tests: string[]; inRangeOnly: string[] }> = [];
  const notApplicable: Array<{ id: string; reason: string }> = [];
  const missing: DigestRow[] = [];
  const seen = new Set<string>();
  for (const row of rows) {
    if (seen.has(row.id)) {
      problems.push(`row ${row.id}: appears twice in the digest`);
      continue;
    }
    seen.add(row.id);
    if (implementedSet.has(row.id)) {
      const tests = [...new Set([...(refs.named.get(row.id) ?? []), ...(refs.asserted.get(row.id) ?? [])])].sort();
      const inRangeOnly = tests.length === 0 ? [...(refs.inRange.get(row.id) ?? [])].sort() : [];
      implemented.push({ id: row.id, tests, inRangeOnly });
      if (tests.length === 0) {
        problems.push(`row ${row.id} (${row.field}): implemented but no test names or asserts it${inRangeOnly.length > 0 ? ` (only inside a range in ${inRangeOnly.join(', ')})` : ''}`);
      }
    } else if (Object.prototype.hasOwnProperty.call(catalog.notApplicable, row.id)) {
      notApplicable.push({ id: row.id, reason: catalog.notApplicable[row.id] });
    } else {
      missing.push(row);
      problems.push(`row ${row.id} (${row.field}, ${row.kind}): neither implemented nor explained`);
    }
  }
  return { rows: seen.size, implemented, notApplicable, missing, problems };
}

/** The report as text lines. */
export function formatCoverage(report: CoverageReport): string[] {
  const tested = report.implemented.filter(r => r.tests.length > 0).length;
  const lines = [
    `admission digest rows: ${report.rows}`,
    `  implemented: ${report.implemented.length} (with a test: ${tested}, without: ${report.implemented.length - tested})`,
    `  not applicable: ${report.notApplicable.length}`,
    `  missing: ${report.missing.length}`,
    '',
    'implemented rows and the tests pinning them:',
  ];
  for (const row of report.implemented) {
    lines.push(`  ${row.id}: ${row.tests.length > 0 ? row.tests.join(', ') : 'NO TEST'}`);
  }
  lines.push('', 'not applicable rows:');
  for (const row of report.notApplicable) lines.push(`  ${row.id}: ${row.reason}`);
  if (report.missing.length > 0) {
    lines.push('', 'missing rows:');
    for (const row of report.missing) lines.push(`  ${row.id}: ${row.field} (${row.kind})`);
  }
  lines.push('');
  if (report.problems.length === 0) {
    lines.push('OK: every row is implemented or explained, and every implemented row has a test');
  } else {
    lines.push(`FAILED: ${report.problems.length} problem(s)`);
    for (const problem of report.problems) lines.push(`  ${problem}`);
  }
  return lines;
}

/** Where the digest is: an argument (file or folder), `$DYNAMO_REFERENCE_DIR`, or the shared folder. */
export function locateDigest(argument: string | undefined, env: { readonly [key: string]: string | undefined }, projectDir: string): string[] {
  const base = argument ?? env.DYNAMO_REFERENCE_DIR;
  if (base === undefined || base === '') return [path.resolve(projectDir, '..', 'shared', 'reference', 'operator', 'validation-rules.md')];
  if (base.endsWith('.md')) return [path.resolve(base)];
  return [path.resolve(base, 'validation-rules.md'), path.resolve(base, 'operator', 'validation-rules.md')];
}

/** This script's own test: its sample texts name rows without testing them. */
const OWN_TEST = 'rule-coverage.test.ts';

/** Reads the test files of `testDir` (`*.test.ts`, except this script's own test), sorted by name. */
export function readTestFiles(testDir: string): Array<{ name: string; text: string }> {
  return fs.readdirSync(testDir).filter(f => f.endsWith('.test.ts') && f !== OWN_TEST).sort()
    .map(f => ({ name: path.join(path.basename(testDir), f), text: fs.readFileSync(path.join(testDir, f), 'utf8') }));
}

/** Runs the check and returns the exit code. */
export function runRuleCoverage(argument: string | undefined, log: (line: string) => void = console.log): number {
  const projectDir = path.resolve(__dirname, '..');
  const candidates = locateDigest(argument, process.env, projectDir);
  const digest = candidates.find(c => fs.existsSync(c));
  if (digest === undefined) {
    log(`rule coverage skipped: no admission digest at ${candidates.join(' or ')} (give a path or set DYNAMO_REFERENCE_DIR)`);
    return 0;
  }
  const rows = parseDigestRows(fs.readFileSync(digest, 'utf8'));
  const refs = findTestReferences(readTestFiles(path.join(projectDir, 'test')));
  const report = coverageReport(rows, { implemented: IMPLEMENTED_RULES, notApplicable: NOT_APPLICABLE_RULES }, refs);
  log(`digest: ${digest}`);
  for (const line of formatCoverage(report)) log(line);
  return report.problems.length === 0 ? 0 : 1;
}

if (require.main === module) {
  process.exitCode = runRuleCoverage(process.argv[2]);
}
