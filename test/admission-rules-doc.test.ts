/**
 * The admission rule documentation: an entry for every rule id a violation can carry, and
 * docs/admission-rules.md as generated from it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { admissionRulesMarkdown, admissionRulesPath, runAdmissionRulesDoc } from '../scripts/admission-rules-doc';
import {
  allRuleDocs, API_SERVER_CHECKS, IMPLEMENTED_RULES, NOT_APPLICABLE_RULES, offlineStatus, ruleDoc,
  ruleDocAnchor, ruleDocReference,
} from '../src/admission';
import { tsFilesUnder } from './support/shared';
import { DGDR_WEBHOOK_RULES } from '../src/dgdr/admission';

const SRC = path.resolve(__dirname, '..', 'src');
/** The rule ids of violations without a numbered rule, as the messages show them: a structural error, */
const STRUCTURAL_RULE = 'schema';
/** the API server's built-in object checks (metadata, built-in kinds), */
const API_SERVER_RULE = 'apiserver';
/** a CEL rule of a CRD no numbered rule covers, */
const CEL_RULE = 'cel';
/** and a rule that could not run. */
const INTERNAL_RULE = 'internal';

/**
 * The rule ids the validation and engine sources can put on a violation: every quoted number of one
 * to three digits in src/admission (there, such numbers are rule ids: sink calls, rule maps) and every
 * `rule: '<word>'` / `*_RULE = '<word>'` literal of both directories.
 */
function emittedRuleIds(): Set<string> {
  const ids = new Set<string>();
  const files = [...tsFilesUnder(path.join(SRC, 'admission')), ...tsFilesUnder(path.join(SRC, 'engine'))];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const inValidation = file.startsWith(path.join(SRC, 'admission'));
    if (inValidation && !file.endsWith('rule-catalog.ts') && !file.endsWith('rule-docs.ts')) {
      for (const match of text.matchAll(/'([1-9]\d{0,2})'/g)) ids.add(match[1]);
    }
    for (const match of text.matchAll(/\brule: '([a-z][a-z-]*)'/g)) ids.add(match[1]);
    for (const match of text.matchAll(/_RULE = '([a-z][a-z-]*)'/g)) ids.add(match[1]);
  }
  return ids;
}

describe('an entry for every rule id', () => {
  test('every implemented and every not-applicable rule', () => {
    const ids = [...IMPLEMENTED_RULES, ...Object.keys(NOT_APPLICABLE_RULES)];
    expect(ids.filter((id) => ruleDoc(id) === undefined)).toEqual([]);
  });

  test('the ids without a number', () => {
    for (const id of [STRUCTURAL_RULE, API_SERVER_RULE, CEL_RULE, INTERNAL_RULE]) expect(ruleDoc(id)?.id).toBe(id);
  });

  test('every rule id the sources emit', () => {
    const ids = emittedRuleIds();
    expect(ids.size).toBeGreaterThan(100);
    expect([...ids].filter((id) => ruleDoc(id) === undefined)).toEqual([]);
  });

  test('the numbered rules are exactly 1 to 148, in order, each once, then the ids without a number, then the DynamoGraphDeploymentRequest rules', () => {
    const ids = allRuleDocs().map((doc) => doc.id);
    const numbered = Array.from({ length: 148 }, (_, i) => String(i + 1));
    expect(ids).toEqual([...numbered, STRUCTURAL_RULE, API_SERVER_RULE, CEL_RULE, INTERNAL_RULE, ...Object.values(DGDR_WEBHOOK_RULES)]);
  });

  test('a rule is documented as not checked offline exactly when the catalog says it is not applicable', () => {
    const notChecked = allRuleDocs().filter((doc) => doc.notChecked !== undefined).map((doc) => doc.id);
    expect(notChecked.sort()).toEqual(Object.keys(NOT_APPLICABLE_RULES).sort());
    const implemented = new Set(IMPLEMENTED_RULES);
    const numbered = allRuleDocs().filter((doc) => /^\d+$/.test(doc.id));
    expect(numbered.filter((doc) => (offlineStatus(doc) !== 'no') !== implemented.has(doc.id)).map((doc) => doc.id)).toEqual([]);
  });

  test('entries are filled in, short, and single-line', () => {
    for (const doc of allRuleDocs()) {
      for (const [field, text] of [['title', doc.title], ['checks', doc.checks], ['fix', doc.fix], ['notChecked', doc.notChecked ?? 'x'], ['partly', doc.partly ?? 'x']]) {
        expect({ id: doc.id, field, empty: text.trim() === '' }).toEqual({ id: doc.id, field, empty: false });
        expect({ id: doc.id, field, multiline: /\n/.test(text) }).toEqual({ id: doc.id, field, multiline: false });
      }
      expect({ id: doc.id, titleLength: doc.title.length <= 80 }).toEqual({ id: doc.id, titleLength: true });
      expect({ id: doc.id, long: doc.checks.length > 400 || doc.fix.length > 300 }).toEqual({ id: doc.id, long: false });
    }
  });

  test('user-facing text does not point to internal material', () => {
    const internal = /validation-rules|digest|\.go\b|upstream|projen|github/i;
    for (const doc of allRuleDocs()) {
      const text = [doc.title, doc.checks, doc.fix, doc.notChecked ?? '', doc.partly ?? ''].join(' ');
      expect({ id: doc.id, internal: internal.test(text) }).toEqual({ id: doc.id, internal: false });
    }
    expect(admissionRulesMarkdown()).not.toMatch(internal);
  });

  test('the API server checks are listed under rule apiserver, one line each, and each is named by a test', () => {
    const doc = ruleDoc(API_SERVER_RULE)!;
    expect(doc.covers).toEqual(Object.values(API_SERVER_CHECKS));
    for (const line of doc.covers!) expect({ line, fits: line.trim() !== '' && !/\n/.test(line) && line.length <= 400 }).toEqual({ line, fits: true });
    const markdown = admissionRulesMarkdown();
    for (const line of doc.covers!) expect(markdown).toContain(`\n- ${line}\n`);
    const testDir = path.resolve(__dirname);
    const tests = fs.readdirSync(testDir).filter((f) => f.endsWith('.test.ts')).map((f) => fs.readFileSync(path.join(testDir, f), 'utf8')).join('\n');
    expect(Object.keys(API_SERVER_CHECKS).filter((name) => !new RegExp(`\\b${name}\\b`).test(tests))).toEqual([]);
  });

  test('anchors and references', () => {
    expect(ruleDocAnchor('47')).toBe('rule-47');
    expect(ruleDocReference('schema')).toBe('docs/admission-rules.md#rule-schema');
    expect(ruleDoc('no-such-rule')).toBeUndefined();
  });
});

describe('docs/admission-rules.md', () => {
  test('the committed file is the generated text', () => {
    const file = admissionRulesPath();
    expect(fs.existsSync(file)).toBe(true);
    expect(fs.readFileSync(file, 'utf8')).toBe(admissionRulesMarkdown());
  });

  test('one heading and one anchor per rule', () => {
    const text = admissionRulesMarkdown();
    for (const doc of allRuleDocs()) {
      expect(text.split(`<a id="${ruleDocAnchor(doc.id)}"></a>`).length - 1).toBe(1);
      expect(text).toContain(`\n## Rule ${doc.id} — ${doc.title}\n`);
    }
  });

  test('--check passes on the committed file; unknown arguments are refused', () => {
    const log: string[] = [];
    expect(runAdmissionRulesDoc(['--check'], (line) => log.push(line))).toBe(0);
    expect(log).toEqual([]);
    expect(runAdmissionRulesDoc(['--bogus'], (line) => log.push(line))).toBe(2);
  });
});
