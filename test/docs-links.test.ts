/**
 * Every relative link of the README and of docs/*.md leads somewhere: the file exists, and an
 * anchor (`#...`) names a heading of that file (GitHub's anchors: lower case, punctuation
 * dropped, spaces as hyphens, a repeated heading suffixed -1, -2, ...) or an explicit
 * `<a id="...">` in it.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.join(__dirname, '..');
const markdownIn = (dir: string): string[] => fs.readdirSync(path.join(ROOT, dir)).filter(f => f.endsWith('.md')).sort().map(f => `${dir}/${f}`);
const PAGES = ['README.md', ...markdownIn('docs'), ...markdownIn('docs/design')];

/** The text of a Markdown page without its fenced code blocks and inline code. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** GitHub's anchor of a heading's text. */
function headingAnchor(heading: string): string {
  return heading.trim().toLowerCase().replace(/<[^>]+>/g, '').replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

function anchorsOf(file: string): Set<string> {
  const text = fs.readFileSync(file, 'utf8').replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of text.matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = headingAnchor(heading);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, id] of text.matchAll(/<a (?:id|name)="([^"]+)"/g)) anchors.add(id);
  return anchors;
}

/** The relative links of a page that lead nowhere, as `page: target (why)`. */
function brokenLinks(page: string): string[] {
  const text = prose(fs.readFileSync(path.join(ROOT, page), 'utf8'));
  const problems: string[] = [];
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [file, anchor] = target.split('#', 2);
    const resolved = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), decodeURIComponent(file));
    if (!fs.existsSync(resolved)) {
      problems.push(`${page}: ${target} (no such file)`);
      continue;
    }
    if (anchor !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
      problems.push(`${page}: ${target} (no heading or anchor "${anchor}" in ${path.relative(ROOT, resolved)})`);
    }
  }
  return problems;
}

describe('links of the README and docs/', () => {
  test('the anchors are GitHub\'s', () => {
    expect(headingAnchor('Explain a graph: `explain`')).toBe('explain-a-graph-explain');
    expect(headingAnchor('From v1alpha1: `convert`')).toBe('from-v1alpha1-convert');
    expect(headingAnchor('Install (from a local build)')).toBe('install-from-a-local-build');
  });

  test.each(PAGES)('%s: every relative link and anchor resolves', (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  test('a link to a missing file or heading is found', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docs-links-'));
    try {
      fs.writeFileSync(path.join(dir, 'a.md'), '# Title\n\n[ok](#title) [bad](#nope) [gone](b.md) `[code](c.md)`\n');
      const relative = path.relative(ROOT, path.join(dir, 'a.md'));
      expect(brokenLinks(relative)).toEqual([`${relative}: #nope (no heading or anchor "nope" in ${relative})`, `${relative}: b.md (no such file)`]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
