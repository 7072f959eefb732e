/** Locations of the shared reference material the tests read when it is present. */
import * as fs from 'fs';
import * as path from 'path';
import { parseYamlDocuments } from '../../src/import/documents';

const ROOT = path.resolve(__dirname, '..', '..');

function sharedDir(envVar: string, relative: string): string | undefined {
  const dir = process.env[envVar] ? path.resolve(process.env[envVar]!) : path.resolve(ROOT, '..', 'shared', relative);
  return fs.existsSync(dir) ? dir : undefined;
}

export const CORPUS_DIR = sharedDir('DYNAMO_CORPUS_DIR', 'corpus');

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

/** The parsed documents of one golden scenario, e.g. `dgd/components`. */
export function goldenScenario(id: string): { input: unknown[]; expected: unknown[] } {
  if (!CONFORMANCE_DIR) throw new Error('no conformance folder');
  const dir = path.join(CONFORMANCE_DIR, ...id.split('/'));
  const read = (file: string) => parseYamlDocuments(fs.readFileSync(path.join(dir, file), 'utf8'), `${id}/${file}`);
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
