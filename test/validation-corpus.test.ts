/**
 * Every DGD/DCD of the shared corpus (real documents from the Dynamo repository) against the
 * create-time rules. Located through $DYNAMO_CORPUS_DIR or ../shared/corpus; skipped when absent.
 */
import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { FULL_PLATFORM } from './fixtures/validation/builders';
import { admissionRefusals } from './support/facade';
import { describeNeeding } from './support/shared';

const corpusRoot = process.env.DYNAMO_CORPUS_DIR ?? path.resolve(__dirname, '..', '..', 'shared', 'corpus');
const corpusDir = fs.existsSync(path.join(corpusRoot, 'v1beta1')) ? path.join(corpusRoot, 'v1beta1') : corpusRoot;
const available = fs.existsSync(corpusDir) && fs.readdirSync(corpusDir).some((f) => f.endsWith('.yaml'));
const describeCorpus = describeNeeding('corpus');

const KINDS = ['DynamoGraphDeployment', 'DynamoComponentDeployment'];

/** Replacement for placeholder image tags. */
const VERSION = '1.4.0';

/**
 * Corpus documents the operator rejects for reasons other than placeholder tags, with the rows
 * that reject them. examples/power-aware-budget/dgd.yaml has no image in any main container,
 * which the validating webhook requires on create (row 46).
 */
const KNOWN_INVALID: Record<string, string[]> = {
  'examples__power-aware-budget__dgd.yaml': ['46', '46', '46'],
};

interface CorpusDoc {
  readonly file: string;
  readonly index: number;
  readonly doc: any;
}

function corpusDocuments(): CorpusDoc[] {
  if (!available) return [];
  const out: CorpusDoc[] = [];
  for (const file of fs.readdirSync(corpusDir).filter((f) => f.endsWith('.yaml')).sort()) {
    parseAllDocuments(fs.readFileSync(path.join(corpusDir, file), 'utf8')).forEach((parsed, index) => {
      const doc = parsed.toJS();
      if (doc && KINDS.includes(doc.kind)) out.push({ file, index, doc });
    });
  }
  return out;
}

/** Whether an image reference carries a placeholder instead of a version tag. */
function isPlaceholderImage(image: string): boolean {
  return image.includes('${') || /:(my-tag|latest)$/.test(image);
}

function replacePlaceholder(image: string): string {
  if (image.includes('${')) return `example.com/dynamo/runtime:${VERSION}`;
  return image.replace(/:(my-tag|latest)$/, `:${VERSION}`);
}

/** A copy of the value with every placeholder `image` replaced; counts the replacements. */
function withVersionTags(value: any, counter: { replaced: number }): any {
  if (Array.isArray(value)) return value.map((item) => withVersionTags(item, counter));
  if (value === null || typeof value !== 'object') return value;
  const out: any = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === 'image' && typeof child === 'string' && isPlaceholderImage(child)) {
      counter.replaced++;
      out[key] = replacePlaceholder(child);
    } else {
      out[key] = withVersionTags(child, counter);
    }
  }
  return out;
}

const docs = corpusDocuments();
const label = (d: CorpusDoc): string => `${d.file}#${d.index}`;

describeCorpus('corpus (nvidia.com/v1beta1)', () => {
  test('has DGD/DCD documents', () => {
    expect(docs.length).toBeGreaterThan(0);
  });

  test.each(docs.map((d) => [label(d), d] as const))('%s is valid once placeholder tags are versions', (_, d) => {
    const violations = admissionRefusals(withVersionTags(d.doc, { replaced: 0 }), { operator: FULL_PLATFORM });
    const expected = KNOWN_INVALID[d.file] ?? [];
    expect({ doc: label(d), rules: violations.map((v) => v.rule), lines: violations.map((v) => v.formatted) }).toEqual({
      doc: label(d),
      rules: expected,
      lines: expect.any(Array),
    });
  });

  test.each(docs.map((d) => [label(d), d] as const))('%s as published: placeholder tags are rejected by row 47 only', (_, d) => {
    const counter = { replaced: 0 };
    withVersionTags(d.doc, counter);
    const violations = admissionRefusals(d.doc, { operator: FULL_PLATFORM });
    const other = violations.filter((v) => v.rule !== '47').map((v) => v.rule);
    expect(other).toEqual(KNOWN_INVALID[d.file] ?? []);
    if (counter.replaced === 0) expect(violations.filter((v) => v.rule === '47')).toEqual([]);
    for (const v of violations.filter((x) => x.rule === '47')) {
      expect(v.path).toMatch(/^spec\.components\[\d+\]\.runtimeVersionOverride$/);
    }
  });

  test('placeholder files are rejected', () => {
    const rejected = docs.filter((d) => admissionRefusals(d.doc, { operator: FULL_PLATFORM }).some((v) => v.rule === '47'));
    expect(rejected.length).toBeGreaterThan(0);
  });

  test('validation does not modify the documents', () => {
    for (const d of docs) {
      const before = JSON.stringify(d.doc);
      admissionRefusals(d.doc);
      expect(JSON.stringify(d.doc)).toBe(before);
    }
  });
});
