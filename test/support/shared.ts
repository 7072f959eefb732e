/** Locations of the shared reference material the tests read when it is present. */
import * as fs from 'fs';
import * as path from 'path';
import { parseYamlDocuments } from '../../src/import';

const ROOT = path.resolve(__dirname, '..', '..');

/** The TypeScript files under `dir` (absolute paths, sorted; none when it does not exist; `node_modules` left out). */
export function tsFilesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter(f => f.endsWith('.ts') && !f.split(path.sep).includes('node_modules'))
    .map(f => path.join(dir, f))
    .sort();
}

function sharedDir(envVar: string, relative: string): string | undefined {
  const dir = process.env[envVar] ? path.resolve(process.env[envVar]!) : path.resolve(ROOT, '..', 'shared', relative);
  return fs.existsSync(dir) ? dir : undefined;
}

export const CORPUS_DIR = sharedDir('DYNAMO_CORPUS_DIR', 'corpus');
/** The CRD files the typed imports are generated from. */
export const CRDS_DIR = sharedDir('DYNAMO_CRDS_DIR', 'crds');

/**
 * The folder of the golden scenarios (`<group>/<scenario>/{input,output}.yaml`).
 * `$DYNAMO_CONFORMANCE_DIR` may name it or the conformance folder that holds `operator-golden/`.
 */
export const CONFORMANCE_DIR = goldenDir(sharedDir('DYNAMO_CONFORMANCE_DIR', 'conformance/operator-golden'));

function goldenDir(dir: string | undefined): string | undefined {
  if (!dir) return undefined;
  const nested = path.join(dir, 'operator-golden');
  return fs.existsSync(nested) ? nested : dir;
}

/** Reference material some tests read; a clean clone has none of it. */
export type SharedMaterial = 'corpus' | 'conformance' | 'crds';

/** What each material is, where it is looked for and whether it is here. */
export const SHARED_MATERIALS: { readonly [m in SharedMaterial]: { readonly what: string; readonly envVar: string; readonly present: boolean } } = {
  corpus: { what: 'the NVIDIA DGD corpus (../shared/corpus)', envVar: 'DYNAMO_CORPUS_DIR', present: CORPUS_DIR !== undefined },
  conformance: { what: 'the operator golden scenarios (../shared/conformance/operator-golden)', envVar: 'DYNAMO_CONFORMANCE_DIR', present: CONFORMANCE_DIR !== undefined },
  crds: { what: 'the CRD files (../shared/crds)', envVar: 'DYNAMO_CRDS_DIR', present: CRDS_DIR !== undefined },
};

/** The name of the one skipped test that stands for a block whose material is absent. */
export function skippedBecause(material: SharedMaterial): string {
  const m = SHARED_MATERIALS[material];
  return `skipped: needs ${m.what}; run with ../shared beside the project or set ${m.envVar}`;
}

/**
 * `describe` for a block that reads shared material: without it the body is not even evaluated
 * (no `.each` over an empty list) and one skipped test says what is missing and how to run it.
 * The suite's global setup prints one line naming every material that is absent.
 */
export function describeNeeding(material: SharedMaterial): (name: string, body: () => void) => void {
  return (name, body) => {
    if (SHARED_MATERIALS[material].present) describe(name, body);
    else describe(name, () => test.skip(skippedBecause(material), () => undefined));
  };
}

/** `test` for a single test that reads shared material (skipped, saying why, without it). */
export function testNeeding(material: SharedMaterial): (name: string, body: () => void, timeout?: number) => void {
  return (name, body, timeout) => {
    if (SHARED_MATERIALS[material].present) test(name, body, timeout);
    else test.skip(`${name} (${skippedBecause(material)})`, () => undefined);
  };
}

/** `test.each` over the golden scenario ids; without the goldens, one skipped test saying so. */
export function testEachGolden(name: string, body: (id: string) => void): void {
  const ids = goldenScenarioIds();
  if (ids.length > 0) test.each(ids)(name, body);
  else test.skip(`${name} (${skippedBecause('conformance')})`, () => undefined);
}

/** The parsed documents of one golden scenario, e.g. `dgd/components`. */
export function goldenScenario(id: string): { input: unknown[]; expected: unknown[] } {
  if (!CONFORMANCE_DIR) throw new Error('no conformance folder');
  const dir = path.join(CONFORMANCE_DIR, ...id.split('/'));
  // the golden files are written by a YAML 1.2 tool (`value: n` means the string "n"), so they are read as YAML 1.2
  const read = (file: string) => parseYamlDocuments(fs.readFileSync(path.join(dir, file), 'utf8'), `${id}/${file}`, { readAs: 'yaml-1.2' });
  return { input: read('input.yaml'), expected: read('output.yaml') };
}

/** Ids (`<group>/<scenario>`) of the golden scenarios present, sorted byte-wise. */
export function goldenScenarioIds(): string[] {
  if (!CONFORMANCE_DIR) return [];
  const dirs = (dir: string) => fs.readdirSync(dir, { withFileTypes: true }).filter(e => e.isDirectory()).map(e => e.name);
  const ids = dirs(CONFORMANCE_DIR).flatMap(group => dirs(path.join(CONFORMANCE_DIR!, group))
    .filter(s => fs.existsSync(path.join(CONFORMANCE_DIR!, group, s, 'output.yaml')))
    .map(s => `${group}/${s}`));
  return ids.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Every v1beta1 corpus file with its parsed documents. */
export function corpusFiles(): { file: string; docs: any[] }[] {
  if (!CORPUS_DIR) return [];
  const dir = fs.existsSync(path.join(CORPUS_DIR, 'v1beta1')) ? path.join(CORPUS_DIR, 'v1beta1') : CORPUS_DIR;
  return fs.readdirSync(dir).filter(f => f.endsWith('.yaml')).sort().map(f => ({
    file: f,
    docs: parseYamlDocuments(fs.readFileSync(path.join(dir, f), 'utf8'), f) as any[],
  }));
}

/** Replaces placeholder image tags (`:my-tag`, `${VAR}`) by a semantic version. */
export function withVersionedImages(doc: any, version = '1.4.0'): any {
  return JSON.parse(JSON.stringify(doc), (key, value) => {
    if (key !== 'image' || typeof value !== 'string') return value;
    const slash = value.lastIndexOf('/');
    const colon = value.lastIndexOf(':');
    const repo = colon > slash ? value.slice(0, colon) : value;
    const tag = colon > slash ? value.slice(colon + 1) : '';
    return /^v?\d+\.\d+\.\d+/.test(tag) ? value : `${repo.replace(/\$\{[^}]*\}/g, 'registry.example/dynamo')}:${version}`;
  });
}

/**
 * Some corpus files are envsubst templates (`${VAR}`, whole lines of `${..._BLOCK}`): filled in
 * as their scripts would (blocks empty, replica counts 1, other variables a placeholder value that
 * is a valid object name, as the Secret names the scripts put there are).
 */
export function filledTemplate(text: string): string {
  return text
    .replace(/^\$\{[A-Z_]+_BLOCK\}$/gm, '')
    .replace(/\$\{([A-Z_]+)\}/g, (_m, name: string) => (name.endsWith('REPLICAS') ? '1' : name === 'DGD_NAME' ? 'benchmark' : `value-of-${name.toLowerCase().split('_').join('-')}`));
}
