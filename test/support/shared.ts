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
export const CONFORMANCE_DIR = sharedDir('DYNAMO_CONFORMANCE_DIR', 'conformance/operator-golden');

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
