/**
 * The operator's two patterns over a container's command line, read by a linear scan instead of a
 * backtracking regular expression (a command line is user input; the operator's Go RE2 patterns
 * run in linear time, a JavaScript `RegExp` of the same text does not):
 *
 * - backend detection (`deploy/operator/internal/dynamo/graph.go: DetectBackendFrameworkFromArgs`):
 *   `python[0-9.]*\s+[^|&;]*-m\s+[^|&;]*dynamo\.<framework>[^|&;]*`, tested on the joined words;
 * - flag injection (`deploy/operator/internal/dynamo/utils.go: injectFlagsIntoPythonCommand`):
 *   `(python[0-9.]*\s+[^|&;]*<framework>[^|&;]*?)(\s|$|[|&;])`, every match `head delimiter`
 *   replaced by `head flags delimiter`.
 *
 * `\s` is RE2's: ASCII tab, newline, form feed, carriage return and space (not `\v`, not Unicode
 * spaces). What the scan decides, derived from the patterns: a match starts at `python`; the
 * `[0-9.]` run after it must be followed by white space (no shorter run can be, as digits and dots
 * are not white space); everything after that up to the first `|`, `&` or `;` (the segment) may be
 * crossed by `[^|&;]*`, so the framework word is found anywhere in the segment after that first
 * white space, and greedily at its last occurrence there.
 */

const TAB = 9;
const LINE_FEED = 10;
const FORM_FEED = 12;
const CARRIAGE_RETURN = 13;
const SPACE = 32;
const PIPE = 124;
const AMPERSAND = 38;
const SEMICOLON = 59;
const DOT = 46;
const DIGIT_0 = 48;
const DIGIT_9 = 57;

/** RE2's `\s`. */
function isSpace(c: number): boolean {
  return c === SPACE || c === TAB || c === LINE_FEED || c === FORM_FEED || c === CARRIAGE_RETURN;
}

/** A shell pipeline or list separator, where `[^|&;]` stops. */
function isSegmentEnd(c: number): boolean {
  return c === PIPE || c === AMPERSAND || c === SEMICOLON;
}

/** For each index i (0..n), the first index at or after i holding `|`, `&` or `;` (n when none). */
function segmentEnds(text: string): Int32Array {
  const n = text.length;
  const ends = new Int32Array(n + 1);
  ends[n] = n;
  for (let i = n - 1; i >= 0; i--) ends[i] = isSegmentEnd(text.charCodeAt(i)) ? i : ends[i + 1];
  return ends;
}

/** For each index i (0..n), where the last occurrence of `word` that ends at or before i starts (-1 when none). */
function lastOccurrenceEndingBy(text: string, word: string): Int32Array {
  const n = text.length;
  const last = new Int32Array(n + 1).fill(-1);
  const starts = new Uint8Array(n + 1);
  for (let at = text.indexOf(word); at >= 0; at = text.indexOf(word, at + 1)) starts[at] = 1;
  for (let i = word.length; i <= n; i++) last[i] = starts[i - word.length] ? i - word.length : last[i - 1];
  return last;
}

/**
 * Where the white space after `python` and its `[0-9.]` run is, for a `python` at `start`; -1 when
 * the run is not followed by white space (no match can start there).
 */
function spaceAfterPython(text: string, start: number): number {
  let q = start + 'python'.length;
  while (q < text.length) {
    const c = text.charCodeAt(q);
    if (c !== DOT && (c < DIGIT_0 || c > DIGIT_9)) break;
    q++;
  }
  return q < text.length && isSpace(text.charCodeAt(q)) ? q : -1;
}

/** Whether a command line runs `python… -m … dynamo.<framework>…` (the operator's backend detection pattern). */
export function runsDynamoModule(line: string, framework: string): boolean {
  const n = line.length;
  const ends = segmentEnds(line);
  const lastModule = lastOccurrenceEndingBy(line, `dynamo.${framework}`);
  // nextModuleFlag[i]: the first `-m` followed by white space at or after i (n when none)
  const nextModuleFlag = new Int32Array(n + 1);
  nextModuleFlag[n] = n;
  for (let i = n - 1; i >= 0; i--) {
    const flagHere = i + 2 < n && line.charCodeAt(i) === 45 /* - */ && line.charCodeAt(i + 1) === 109 /* m */ && isSpace(line.charCodeAt(i + 2));
    nextModuleFlag[i] = flagHere ? i : nextModuleFlag[i + 1];
  }
  for (let start = line.indexOf('python'); start >= 0; start = line.indexOf('python', start + 1)) {
    const space = spaceAfterPython(line, start);
    if (space < 0) continue;
    const end = ends[space];
    const flag = nextModuleFlag[space + 1];
    // `-m`, its white space and the module all lie in the segment (none of them is a separator)
    if (flag < end && lastModule[end] >= flag + 3) return true;
  }
  return false;
}

/**
 * Adds `flags` after each Python launch of `framework` in a shell-script word, as the operator's
 * replace-all does: after the white-space-delimited word holding the last mention of the
 * framework before the next `|`, `&` or `;`. Returns the word unchanged when it has none.
 */
export function injectAfterPythonLaunch(script: string, flags: string, framework: string): string {
  const n = script.length;
  const ends = segmentEnds(script);
  const lastMention = lastOccurrenceEndingBy(script, framework);
  let out = '';
  let copied = 0;
  let start = script.indexOf('python');
  while (start >= 0) {
    const space = spaceAfterPython(script, start);
    const end = space < 0 ? -1 : ends[space];
    const mention = space < 0 ? -1 : lastMention[end];
    if (mention < space + 1) {
      start = script.indexOf('python', start + 1);
      continue;
    }
    // the lazy `[^|&;]*?` stops at the first white space after the mention, else at the segment's end
    let cut = mention + framework.length;
    while (cut < end && !isSpace(script.charCodeAt(cut))) cut++;
    const delimiter = cut < n ? script[cut] : '';
    out += `${script.slice(copied, cut)} ${flags}${delimiter}`;
    copied = cut + delimiter.length;
    start = script.indexOf('python', copied);
  }
  return copied === 0 ? script : out + script.slice(copied);
}
