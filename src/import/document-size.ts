/**
 * The size limit applied to YAML text before it is parsed. The API server refuses an object larger
 * than `MAX_OBJECT_BYTES` as JSON (checked exactly once a document is read, see
 * `documentShapeProblem`); parsing a document costs time and memory in proportion to its text, so a
 * document whose text is far beyond that is refused before any of it is parsed.
 *
 * What is measured is the text that can end up in the object: every line's bytes (UTF-8) less its
 * indentation, comment-only and blank lines not counted. Turned into JSON, that text gains quotes
 * and loses little else, so a document measuring more than twice the API server's limit cannot
 * come close to it in any ordinary layout (only tricks such as repeating one key thousands of times
 * could make it shrink that much, and kubectl's users have no reason to write those).
 */
import { MAX_OBJECT_BYTES } from './document-kinds';
import { YamlInputError } from './documents';

/** The most text (as measured above) a document may have to be parsed. */
export const MAX_DOCUMENT_TEXT_BYTES = 2 * MAX_OBJECT_BYTES;

/** Whether a line (without its line break) is a document marker: `---` or `...`, then white space or nothing. */
function isDocumentMarker(text: string, start: number, end: number): boolean {
  if (end - start < 3) return false;
  const marker = text.slice(start, start + 3);
  if (marker !== '---' && marker !== '...') return false;
  const next = text.charCodeAt(start + 3);
  return start + 3 === end || next === 32 || next === 9 || next === 13;
}

/**
 * Refuses, before parsing, a document of `text` whose text (less indentation, blank and
 * comment-only lines) is larger than `MAX_DOCUMENT_TEXT_BYTES`: a `YamlInputError` naming the
 * source and the line the document starts at. Linear in the text.
 */
export function checkDocumentTextSizes(text: string, source: string): void {
  let size = 0;
  let startLine = 1;
  let line = 1;
  for (let start = 0; start < text.length; line++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (isDocumentMarker(text, start, end)) {
      // `--- value` starts a document with content on the marker's line; `...` ends one
      size = text.startsWith('---', start) ? Buffer.byteLength(text.slice(start + 3, end).trim(), 'utf8') : 0;
      startLine = line;
    } else {
      let first = start;
      while (first < end && (text.charCodeAt(first) === 32 || text.charCodeAt(first) === 9)) first++;
      const blank = first === end || (first === end - 1 && text.charCodeAt(first) === 13);
      if (!blank && text.charCodeAt(first) !== 35 /* # */) size += Buffer.byteLength(text.slice(first, end), 'utf8');
    }
    if (size > MAX_DOCUMENT_TEXT_BYTES) {
      throw new YamlInputError(source, `the document from line ${startLine}: Too long: it holds more than ${MAX_DOCUMENT_TEXT_BYTES} bytes of YAML `
        + `(not counting indentation and comments), not read: the API server accepts at most ${MAX_OBJECT_BYTES} bytes (3 MiB) `
        + 'per object as JSON; split it into smaller objects');
    }
    start = end + 1;
  }
}
