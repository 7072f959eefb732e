/**
 * The CEL rules parsed at build time (scripts/generate-cel-parses.ts, cel/compile.ts): every rule
 * of the Dynamo CRDs has its parse, each parse is exactly what the installed @bufbuild/cel parses
 * the text to (so a rule never compiles from a stale parse), and a text the build did not parse is
 * parsed when compiled.
 */
import { isDeepStrictEqual } from 'util';
import { parse } from '@bufbuild/cel';
import { compileExpression, DYNAMO_CEL_ROWS, isCompileError, prebuiltParse, prebuiltTexts } from '../src/admission';


describe('CEL rules parsed at build time', () => {
  test('every rule of the Dynamo CRDs has its parse', () => {
    for (const rule of Object.keys(DYNAMO_CEL_ROWS)) expect([rule, prebuiltParse(rule) !== undefined]).toEqual([rule, true]);
  });

  test('each parse is the one the installed @bufbuild/cel gives', () => {
    const texts = prebuiltTexts();
    expect(texts.length).toBeGreaterThan(20);
    for (const text of texts) {
      const prebuilt = prebuiltParse(text);
      expect([text, isDeepStrictEqual(prebuilt, parse(text))]).toEqual([text, true]);
    }
  });

  test('each call gives a parse of its own', () => {
    const [text] = prebuiltTexts();
    expect(prebuiltParse(text)).not.toBe(prebuiltParse(text));
  });

  test('a text the build did not parse is parsed when compiled', () => {
    const text = 'self.size() == 7 && self.startsWith("prebuilt-")';
    expect(prebuiltParse(text)).toBeUndefined();
    const compiled = compileExpression(text);
    if (isCompileError(compiled)) throw new Error(compiled.error);
    expect(compiled.evaluate({ self: 'prebuilt-x' })).toBe(false);
    expect(isCompileError(compileExpression('self.size( ==='))).toBe(true);
  });
});
