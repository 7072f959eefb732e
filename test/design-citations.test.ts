/**
 * Every citation of a design note in the code, the tests and the scripts leads to a heading of
 * docs/design/ (see docs/design/README.md for the grammar):
 *
 * - `docs/design/<name>.md §<n>[.<n>...]` or `docs/design/<name>.md Appendix <X>` names a file and a
 *   numbered heading of it; `, §<m>`, ` and §<m>`, `§<a>–§<b>` / `§<a>-<b>` (both ends are checked)
 *   continue the same citation; `docs/design/validation-rules.md row <n>` (or `rows <n>, <m>`) names
 *   a numbered row of that note's rule tables.
 * - A bare `§<n>` refers to the file named last before it in the same comment block (a run of
 *   adjacent comments) or the same string; with no file named there it is an error.
 * - The names the notes had before they were in the repository (`render-core §5.2`,
 *   `validation-rules row 11`) are refused: write the path.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { tsFilesUnder } from './support/shared';

const ROOT = path.join(__dirname, '..');
const DESIGN_DIR = 'docs/design';
const SCANNED = ['src', 'test', 'scripts'];

/** A numbered heading (`5.2`, `Appendix B`) or a rule-table row (`row 11`) of a design note. */
type Target = string;

/** The headings and rows a design note offers: `5`, `5.2`, `Appendix B`, `row 11`. */
export function targetsOfNote(markdown: string): Set<Target> {
  const targets = new Set<Target>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const numbered = /^(\d+(?:\.\d+)*)\.?(?:\s|$)/.exec(heading);
    if (numbered) targets.add(numbered[1]);
    const appendix = /^Appendix ([A-Z])\b/.exec(heading);
    if (appendix) targets.add(`Appendix ${appendix[1]}`);
  }
  for (const [, row] of text.matchAll(/^\| *(\d+) *\|/gm)) targets.add(`row ${row}`);
  return targets;
}

/** One cited target, where it was found. */
export interface Citation {
  readonly note: string | undefined;
  readonly target: Target;
  readonly line: number;
}

/** A problem of a citation text that is not about a missing target. */
export interface CitationProblem {
  readonly line: number;
  readonly message: string;
}

const NOTE = String.raw`docs/design/([a-z0-9-]+)\.md`;
const SECTION = String.raw`\d+(?:\.\d+)*`;
/** The old names of the notes, refused outside a docs/design/ path. */
const OLD_NAME = /(?<![\w/.-])(render-(?:core|multinode|experimental|grove|workloads)|validation-rules|admission-rules)(?:\.md)?(?= ?§| rows? \d)/g;

/**
 * The citations of one block of text (a comment block or a string), `firstLine` the line of its
 * first character. Sections are cited with `§`; after a validation-rules note, `row N` / `rows N, M`.
 */
export function citationsOfBlock(text: string, firstLine: number): { citations: Citation[]; problems: CitationProblem[] } {
  const citations: Citation[] = [];
  const problems: CitationProblem[] = [];
  const lineAt = (index: number) => firstLine + (text.slice(0, index).match(/\n/g)?.length ?? 0);
  for (const match of text.matchAll(OLD_NAME)) {
    problems.push({ line: lineAt(match.index!), message: `"${match[0]}" names a design note by its old name: write docs/design/${match[1]}.md` });
  }
  // Tokens in order: a note path, a section (with its range/continuation form), an appendix, rows.
  const token = new RegExp(String.raw`${NOTE}|§ ?(${SECTION})(?:\s*[–-]\s*§? ?(${SECTION}))?|\bAppendix ([A-Z])\b|\brows? (\d+(?:(?:\s*[–-]\s*|,\s*|,? and )\d+)*)`, 'g');
  let note: string | undefined;
  let lastEnd = -1;
  for (const match of text.matchAll(token)) {
    const index = match.index!;
    const line = lineAt(index);
    if (match[1] !== undefined) {
      note = match[1];
      lastEnd = index + match[0].length;
      continue;
    }
    if (match[2] !== undefined) {
      if (note === undefined) {
        problems.push({ line, message: `"${match[0]}" cites a section without naming a note before it in the same comment or string: write docs/design/<note>.md ${match[0]}` });
        continue;
      }
      citations.push({ note, target: match[2], line });
      if (match[3] !== undefined) citations.push({ note, target: match[3], line });
      lastEnd = index + match[0].length;
      continue;
    }
    if (match[4] !== undefined) {
      // "Appendix X" is a citation only right after a note path (or a continuation of one).
      if (note !== undefined && /^\s*(?:,|and)?\s*$/.test(text.slice(lastEnd, index))) {
        citations.push({ note, target: `Appendix ${match[4]}`, line });
        lastEnd = index + match[0].length;
      }
      continue;
    }
    // Rows are cited only right after the validation-rules note (or one of its citations).
    if (note === 'validation-rules' && /^[\s,;:(]*(?:and\s+)?$/.test(text.slice(lastEnd, index))) {
      const numbers = match[5].split(/\s*[–-]\s*|,\s*|,? and /);
      for (const n of numbers) citations.push({ note, target: `row ${n}`, line });
      lastEnd = index + match[0].length;
    }
  }
  return { citations, problems };
}

/** The comment blocks (runs of adjacent comments) and the strings of a TypeScript file, with their first lines. */
export function blocksOfSource(fileName: string, source: string): Array<{ text: string; line: number }> {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const comments = new Map<number, ts.CommentRange>();
  const strings: Array<{ text: string; line: number }> = [];
  const lineOf = (pos: number) => file.getLineAndCharacterOfPosition(pos).line + 1;
  const visit = (node: ts.Node) => {
    for (const range of [...ts.getLeadingCommentRanges(source, node.pos) ?? [], ...ts.getTrailingCommentRanges(source, node.end) ?? []]) {
      comments.set(range.pos, range);
    }
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)
      || ts.isTemplateMiddle(node) || ts.isTemplateTail(node) || ts.isRegularExpressionLiteral(node)) {
      strings.push({ text: node.getText(file), line: lineOf(node.getStart(file)) });
    }
    node.getChildren(file).forEach(visit);
  };
  visit(file);
  const blocks: Array<{ text: string; line: number }> = [];
  let current: { text: string; line: number; end: number } | undefined;
  for (const range of [...comments.values()].sort((a, b) => a.pos - b.pos)) {
    const text = source.slice(range.pos, range.end);
    if (current !== undefined && /^[ \t]*\r?\n?[ \t]*$/.test(source.slice(current.end, range.pos))) {
      current.text += `\n${text}`;
      current.end = range.end;
    } else {
      if (current !== undefined) blocks.push(current);
      current = { text, line: lineOf(range.pos), end: range.end };
    }
  }
  if (current !== undefined) blocks.push(current);
  return [...blocks.map(({ text, line }) => ({ text, line })), ...strings];
}

/** Every problem of the citations of `files` (paths relative to `root`) against the notes in `notes`, as `file:line: message`. */
export function citationProblems(root: string, files: readonly string[], notes: ReadonlyMap<string, Set<Target>>): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const source = fs.readFileSync(path.join(root, file), 'utf8');
    if (!/§|render-|validation-rules|admission-rules|docs\/design\//.test(source)) continue;
    for (const block of blocksOfSource(file, source)) {
      const found = citationsOfBlock(block.text, block.line);
      for (const problem of found.problems) problems.push(`${file}:${problem.line}: ${problem.message}`);
      for (const citation of found.citations) {
        const targets = notes.get(citation.note!);
        if (targets === undefined) {
          problems.push(`${file}:${citation.line}: docs/design/${citation.note}.md does not exist`);
        } else if (!targets.has(citation.target)) {
          const what = citation.target.startsWith('row ') ? citation.target : `§${citation.target}`.replace('§Appendix', 'Appendix');
          problems.push(`${file}:${citation.line}: docs/design/${citation.note}.md has no ${what}`);
        }
      }
    }
  }
  return problems;
}

/** The TypeScript files under `dir` (relative to the repository), as repository paths. */
function repoTsFiles(dir: string): string[] {
  return tsFilesUnder(path.join(ROOT, dir)).map(f => path.relative(ROOT, f).split(path.sep).join('/'));
}

function designNotes(): Map<string, Set<Target>> {
  const notes = new Map<string, Set<Target>>();
  for (const f of fs.readdirSync(path.join(ROOT, DESIGN_DIR)).filter(name => name.endsWith('.md') && name !== 'README.md')) {
    notes.set(f.replace(/\.md$/, ''), targetsOfNote(fs.readFileSync(path.join(ROOT, DESIGN_DIR, f), 'utf8')));
  }
  return notes;
}

describe('citations of the design notes', () => {
  const notes = new Map([['render-core', targetsOfNote('# Title\n\n## 5. Backends\n\n### 5.2 Selecting\n\n#### 5.7.2 Cache\n\n## Appendix B: Examples\n')],
    ['validation-rules', targetsOfNote('## 1. Rules\n\n| Row | Field |\n| --- | --- |\n| 11 | `spec` |\n| 12 | `spec.x` |\n')]]);
  const check = (text: string) => {
    const found = citationsOfBlock(text, 1);
    return [...found.problems.map(p => p.message), ...found.citations.filter(c => !notes.get(c.note!)?.has(c.target)).map(c => `${c.note} ${c.target}`)];
  };

  test('a note offers its numbered headings, appendices and table rows', () => {
    expect([...notes.get('render-core')!].sort()).toEqual(['5', '5.2', '5.7.2', 'Appendix B']);
    expect([...notes.get('validation-rules')!].sort()).toEqual(['1', 'row 11', 'row 12']);
  });

  test('existing sections, appendices, rows and continuations resolve', () => {
    expect(check('see docs/design/render-core.md §5.2, §5.7.2 and §5')).toEqual([]);
    expect(check('(docs/design/render-core.md Appendix B)')).toEqual([]);
    expect(check('docs/design/render-core.md §5–§5.2; docs/design/validation-rules.md rows 11, 12')).toEqual([]);
    expect(check('docs/design/validation-rules.md row 11')).toEqual([]);
  });

  test('a made-up section, row or note is reported', () => {
    expect(check('docs/design/render-core.md §5.3')).toEqual(['render-core 5.3']);
    expect(check('docs/design/render-core.md §5.2, §9')).toEqual(['render-core 9']);
    expect(check('docs/design/render-core.md §5-5.9')).toEqual(['render-core 5.9']);
    expect(check('docs/design/validation-rules.md row 13')).toEqual(['validation-rules row 13']);
    expect(check('docs/design/render-grove.md §1')).toEqual(['render-grove 1']);
  });

  test('a bare § belongs to the note named before it in the same block, and needs one', () => {
    expect(check('docs/design/render-core.md §5.2 sets it;\n * the cache (§5.7.2) follows')).toEqual([]);
    expect(check('docs/design/render-core.md §5.2 sets it;\n * the cache (§5.8) follows')).toEqual(['render-core 5.8']);
    expect(check('the cache (§5.7.2) follows')).toHaveLength(1);
    expect(check('the cache (§5.7.2) follows')[0]).toMatch(/without naming a note/);
  });

  test('the old names of the notes are refused', () => {
    expect(check('render-core §5.2')[0]).toMatch(/old name: write docs\/design\/render-core\.md/);
    expect(check('validation-rules row 11')[0]).toMatch(/old name/);
    expect(check('render-multinode.md §3')[0]).toMatch(/old name/);
    expect(check('docs/design/render-core.md §5.2')).toEqual([]);
  });

  test('comment blocks group adjacent comments; strings stand alone', () => {
    const source = [
      '/** From docs/design/render-core.md §5.2. */',
      '// then §5.7.2',
      'const x = 1;',
      '// alone: §5',
      "test('§5.2 title', () => x);",
    ].join('\n');
    const blocks = blocksOfSource('a.ts', source);
    expect(blocks.map(b => b.line)).toEqual([1, 4, 5]);
    expect(blocks[0].text).toContain('§5.7.2');
  });

  test('files are scanned block by block and each problem names its file and line', () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'design-citations-'));
    try {
      fs.mkdirSync(path.join(root, 'src'));
      fs.writeFileSync(path.join(root, 'src', 'a.ts'), [
        '/**',
        ' * Renders it (docs/design/render-core.md §5.2, §5.7.2);',
        ' * see also §5.',
        ' */',
        'export const a = 1; // §5.2 alone',
        "export const b = 'docs/design/render-core.md §6';",
      ].join('\n'));
      expect(citationProblems(root, ['src/a.ts'], notes)).toEqual([
        'src/a.ts:5: "§5.2" cites a section without naming a note before it in the same comment or string: write docs/design/<note>.md §5.2',
        'src/a.ts:6: docs/design/render-core.md has no §6',
      ]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  test('the notes in docs/design keep the numbering their citations use', () => {
    const real = designNotes();
    expect(real.get('render-core')).toEqual(expect.any(Set));
    for (const section of ['1', '4.6', '5.2', '5.7.3', '12.4', '18']) expect(real.get('render-core')!.has(section)).toBe(true);
    for (let row = 1; row <= 148; row++) expect(real.get('validation-rules')!.has(`row ${row}`)).toBe(true);
  });

  test('every citation in src/, test/ and scripts/ resolves to a heading of docs/design/', () => {
    // This file's own examples are made up on purpose.
    const files = SCANNED.flatMap(repoTsFiles).filter(f => f !== 'test/design-citations.test.ts');
    expect(files.length).toBeGreaterThan(100);
    expect(citationProblems(ROOT, files, designNotes())).toEqual([]);
  });
});
