/**
 * Tests reach the library through few doors, so that moving a file inside `src/` changes a door and
 * not the tests (docs/contributing.md#tests): the public API, the pipeline, the layers' surfaces
 * (each layer's `index.ts`), and the few modules a test replaces or observes. This test reads every
 * test and support file and fails on an import of any other module of `src/`.
 */
import * as fs from 'fs';
import * as path from 'path';
import { tsFilesUnder } from './support/shared';

const ROOT = path.resolve(__dirname, '..');

/** The modules of `src/` tests may import, each with why. */
const DOORS: Readonly<Record<string, string>> = {
  'src/index': 'the public API',
  'src/pipeline/check-and-render': 'the pipeline every path calls once (its own tests, and the count of its calls per synthesis)',
  'src/admission': "admission's surface",
  'src/engine': "the render engine's surface",
  'src/go': 'the surface of the Go behaviour the library reproduces',
  'src/model': 'the shared vocabulary',
  'src/import': "the readers' surface (YAML, operator configuration, Helm values, v1alpha1)",
  'src/cli': "the command line's surface",
  'src/plan': "`plan`'s surface",
  'src/eject': "`eject`'s surface",
  'src/admission/defaulting': 'observed: how often a synthesis defaults a document',
  'src/admission/validate': 'observed: how often a synthesis admits a document',
  'src/dgdr/admission': "observed: how often a DGDR is defaulted (and the DGDR webhook's rule table)",
  'src/admission/cel/compile': 'observed: how often a CEL rule is compiled',
  'src/engine/render': 'replaced: a stand-in engine, to test what the constructs and the pipeline do with its output',
  'src/code-cache': 'the loading of the pipeline bundle and its code cache, tested on files of its own',
  'src/constructs/props-check': 'the prop tables, compared at compile time with the props interfaces',
};

/** The `src/` modules a TypeScript text imports, requires or mocks (paths relative to the text's folder `dir`). */
function srcModulesOf(text: string, dir: string): string[] {
  const found = new Set<string>();
  const specifier = /(?:\bfrom|\bimport|\brequire|\bjest\.(?:mock|doMock|requireActual|unmock|dontMock))\s*\(?\s*'(\.{1,2}\/[^']*)'/g;
  for (const match of text.matchAll(specifier)) {
    const resolved = path.relative(ROOT, path.resolve(dir, match[1])).split(path.sep).join('/');
    if (resolved !== 'src' && !resolved.startsWith('src/')) continue;
    const module = resolved.replace(/\.(ts|js)$/, '').replace(/\/index$/, '');
    found.add(module === 'src' ? 'src/index' : module);
  }
  return [...found];
}

describe('the modules of src/ the tests import', () => {
  // (this file's own sample imports below are not imports)
  const imports = tsFilesUnder(path.join(ROOT, 'test')).filter(file => file !== __filename).flatMap(file =>
    srcModulesOf(fs.readFileSync(file, 'utf8'), path.dirname(file)).map(module => ({ file: path.relative(ROOT, file), module })));

  test('are the doors listed above, fewer than 20', () => {
    const outside = imports.filter(i => !(i.module in DOORS)).map(i => `${i.file} imports ${i.module}`);
    expect(outside).toEqual([]);
    expect(Object.keys(DOORS).length).toBeLessThan(20);
  });

  test('every door is used (a door no test needs is closed)', () => {
    const used = new Set(imports.map(i => i.module));
    expect(Object.keys(DOORS).filter(d => !used.has(d))).toEqual([]);
  });

  test('the reader finds static, dynamic and mocked imports, and only those of src/', () => {
    const text = [
      "import { a } from '../src/model';",
      "import type { B } from '../../src/engine/grove/pod-cliqueset';",
      "jest.mock('../src/engine/render', () => ({}));",
      "const c = require('../src/go/quantity.ts');",
      "import { d } from './support/facade';",
      "import * as e from 'cdk8s';",
    ].join('\n');
    expect(srcModulesOf(text, path.join(ROOT, 'test', 'support'))).toEqual(['src/engine/grove/pod-cliqueset']);
    expect(srcModulesOf(text, path.join(ROOT, 'test')).sort()).toEqual(['src/engine/render', 'src/go/quantity', 'src/model']);
  });
});
