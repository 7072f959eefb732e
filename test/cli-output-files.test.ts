/**
 * The output file names of `render --out` / `convert --out` and the all-or-nothing writing of
 * `--out` folders, run in process on real folders (the binary tests in cli-output-binary.test.ts
 * run the same through the installed command).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CLI_FIXTURES } from './support/cli-binary';
import { configMap } from './support/documents';
import { cli, writeDocuments } from './support/facade';

/** The list of files an `--out` folder's last writing wrote (read back to remove them before the next). */
const MANIFEST_NAME = '.cdk8s-dynamo-outputs';

const GRAPH_TEXT = fs.readFileSync(path.join(CLI_FIXTURES, 'graph.yaml'), 'utf8');


let dir: string;
beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-out-')); });
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** `render --out DIR FILES...`, each FILE holding a ConfigMap of its own. */
function renderOut(out: string, files: readonly string[]) {
  // a ConfigMap each: `render` passes it through, so each input file renders to one document
  const inputs = Object.fromEntries(files.map((f, i) => [f, writeDocuments([configMap(`c${i}`)])]));
  return cli(inputs, 'render', '--out', out, ...files);
}

describe('output names: the input path relative to the inputs\' common folder, / as __', () => {
  test.each([
    [['graph.yaml'], ['graph.k8s.yaml']],
    [['a/deploy.yaml', 'b/deploy.yaml'], ['a__deploy.k8s.yaml', 'b__deploy.k8s.yaml']],
    [['x/a/deploy.yaml', 'x/a/b/deploy.yml'], ['deploy.k8s.yaml', 'b__deploy.k8s.yaml']],
    [['-', 'dir/g.json'], ['stdin.k8s.yaml', 'g.k8s.yaml']],
    [['/abs/one/g.yaml', '/abs/two/g.YAML'], ['one__g.k8s.yaml', 'two__g.k8s.yaml']],
    [['notes.txt', '.yaml'], ['notes.txt.k8s.yaml', 'input.k8s.yaml']],
  ])('%j', (files, names) => {
    const out = path.join(dir, 'out');
    expect(renderOut(out, files).code).toBe(0);
    // each input's document is in the file named after it
    names.forEach((name, i) => expect(fs.readFileSync(path.join(out, name), 'utf8')).toContain(`name: c${i}\n`));
    expect(fs.readdirSync(out).sort()).toEqual([MANIFEST_NAME, ...names].sort());
  });

  test('inputs that would share a file, or cannot name one, are refused', () => {
    const refusal = (files: string[]): string => {
      const r = renderOut(path.join(dir, 'out'), files);
      expect(r.code).toBe(2);
      expect(fs.existsSync(path.join(dir, 'out'))).toBe(false);
      return r.stderr.split('\n')[0];
    };
    expect(refusal(['g.yaml', 'g.yml'])).toBe('cdk8s-dynamo: --out: "g.yaml" and "g.yml" would both be written to g.k8s.yaml; render them separately');
    expect(refusal(['a__b/c.yaml', 'a/b__c.yaml'])).toBe('cdk8s-dynamo: --out: "a__b/c.yaml" and "a/b__c.yaml" would both be written to a__b__c.k8s.yaml; render them separately');
    expect(refusal(['a\nb.yaml'])).toBe('cdk8s-dynamo: --out: the input path "a\\nb.yaml" has a control character; an output file cannot be named after it');
    expect(renderOut(path.join(dir, 'out'), ['a/deploy.yaml', 'b/deploy.yaml']).code).toBe(0);
  });
});

describe('writing an --out folder', () => {
  test('forced (eject --force): a symlink in place of a file is replaced, its target untouched', () => {
    // what eject writes, learnt from a first eject to a fresh folder
    const fresh = path.join(dir, 'fresh');
    expect(cli({ 'graph.yaml': GRAPH_TEXT }, 'eject', '--out', fresh, 'graph.yaml').code).toBe(0);
    const written = fs.readdirSync(fresh).sort();
    const main = written.find(f => f.endsWith('.ts'))!;
    const before = fs.readFileSync(path.join(fresh, main), 'utf8');
    const target = path.join(dir, 'target.txt');
    fs.writeFileSync(target, 'keep\n');
    const app = path.join(dir, 'app');
    fs.mkdirSync(app);
    fs.symlinkSync(target, path.join(app, main));
    const refused = cli({ 'graph.yaml': GRAPH_TEXT }, 'eject', '--out', app, 'graph.yaml');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${path.join(app, main)}: already exists; give --force to replace it, or choose another --out folder; nothing was written`);
    expect(cli({ 'graph.yaml': GRAPH_TEXT }, 'eject', '--out', app, '--force', 'graph.yaml').code).toBe(0);
    expect(fs.readFileSync(target, 'utf8')).toBe('keep\n');
    expect(fs.lstatSync(path.join(app, main)).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(app, main), 'utf8')).toBe(before);
    expect(fs.readdirSync(app).sort()).toEqual(written);
  });

  test('a manifest that is a symlink is not read, and is replaced', () => {
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(dir, 'elsewhere'), 'mine.k8s.yaml\n');
    fs.writeFileSync(path.join(out, 'mine.k8s.yaml'), 'mine\n');
    fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(out, MANIFEST_NAME));
    expect(renderOut(out, ['g.yaml']).code).toBe(0);
    expect(fs.readFileSync(path.join(out, 'mine.k8s.yaml'), 'utf8')).toBe('mine\n');
    expect(fs.readFileSync(path.join(dir, 'elsewhere'), 'utf8')).toBe('mine.k8s.yaml\n');
    expect(fs.lstatSync(path.join(out, MANIFEST_NAME)).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(out, MANIFEST_NAME), 'utf8')).toMatch(/^(#.*\n)+g\.k8s\.yaml\n$/);
  });

  test('a folder listed in the manifest is never removed', () => {
    const out = path.join(dir, 'out');
    fs.mkdirSync(path.join(out, 'sub.k8s.yaml'), { recursive: true });
    fs.writeFileSync(path.join(out, MANIFEST_NAME), 'sub.k8s.yaml\n');
    expect(renderOut(out, ['g.yaml']).code).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual([MANIFEST_NAME, 'g.k8s.yaml', 'sub.k8s.yaml']);
  });
});
