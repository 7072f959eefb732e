/**
 * The output file names of `render --out` / `convert --out` and the all-or-nothing writing of
 * `output-files.ts`, in process (the binary tests in cli-output-binary.test.ts run the same through
 * the installed command).
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { MANIFEST_NAME, outputClash, outputNames, writeOutputs } from '../src/cli/output-files';

describe('outputNames: the input path relative to the inputs\' common folder, / as __', () => {
  test.each([
    [['graph.yaml'], ['graph.k8s.yaml']],
    [['a/deploy.yaml', 'b/deploy.yaml'], ['a__deploy.k8s.yaml', 'b__deploy.k8s.yaml']],
    [['x/a/deploy.yaml', 'x/a/b/deploy.yml'], ['deploy.k8s.yaml', 'b__deploy.k8s.yaml']],
    [['-', 'dir/g.json'], ['stdin.k8s.yaml', 'g.k8s.yaml']],
    [['/abs/one/g.yaml', '/abs/two/g.YAML'], ['one__g.k8s.yaml', 'two__g.k8s.yaml']],
    [['notes.txt', '.yaml'], ['notes.txt.k8s.yaml', 'input.k8s.yaml']],
  ])('%j', (files, names) => {
    expect(outputNames(files)).toEqual(names);
  });

  test('inputs that would share a file, or cannot name one, are refused', () => {
    expect(outputClash(['g.yaml', 'g.yml'])).toBe('--out: "g.yaml" and "g.yml" would both be written to g.k8s.yaml; render them separately');
    expect(outputClash(['a__b/c.yaml', 'a/b__c.yaml'])).toBe('--out: "a__b/c.yaml" and "a/b__c.yaml" would both be written to a__b__c.k8s.yaml; render them separately');
    expect(outputClash(['a\nb.yaml'])).toBe('--out: the input path "a\\nb.yaml" has a control character; an output file cannot be named after it');
    expect(outputClash(['a/deploy.yaml', 'b/deploy.yaml'])).toBeUndefined();
  });
});

describe('writeOutputs', () => {
  let dir: string;
  beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-out-')); });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('forced (eject --force): a symlink in place of a file is replaced, its target untouched', () => {
    const target = path.join(dir, 'target.txt');
    fs.writeFileSync(target, 'keep\n');
    fs.mkdirSync(path.join(dir, 'app'));
    fs.symlinkSync(target, path.join(dir, 'app', 'main.ts'));
    const refused = writeOutputs(path.join(dir, 'app'), [{ name: 'main.ts', text: 'new\n' }], { manifest: false });
    expect(refused.problem).toBe(`${path.join(dir, 'app', 'main.ts')}: already exists; give --force to replace it, or choose another --out folder; nothing was written`);
    expect(writeOutputs(path.join(dir, 'app'), [{ name: 'main.ts', text: 'new\n' }], { manifest: false, force: true })).toEqual({});
    expect(fs.readFileSync(target, 'utf8')).toBe('keep\n');
    expect(fs.lstatSync(path.join(dir, 'app', 'main.ts')).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(dir, 'app', 'main.ts'), 'utf8')).toBe('new\n');
    expect(fs.readdirSync(path.join(dir, 'app'))).toEqual(['main.ts']);
  });

  test('a manifest that is a symlink is not read, and is replaced', () => {
    const out = path.join(dir, 'out');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(dir, 'elsewhere'), 'mine.k8s.yaml\n');
    fs.writeFileSync(path.join(out, 'mine.k8s.yaml'), 'mine\n');
    fs.symlinkSync(path.join(dir, 'elsewhere'), path.join(out, MANIFEST_NAME));
    expect(writeOutputs(out, [{ name: 'g.k8s.yaml', text: 'g\n' }], { manifest: true })).toEqual({});
    expect(fs.readFileSync(path.join(out, 'mine.k8s.yaml'), 'utf8')).toBe('mine\n');
    expect(fs.readFileSync(path.join(dir, 'elsewhere'), 'utf8')).toBe('mine.k8s.yaml\n');
    expect(fs.lstatSync(path.join(out, MANIFEST_NAME)).isSymbolicLink()).toBe(false);
    expect(fs.readFileSync(path.join(out, MANIFEST_NAME), 'utf8')).toMatch(/^(#.*\n)+g\.k8s\.yaml\n$/);
  });

  test('a folder listed in the manifest is never removed', () => {
    const out = path.join(dir, 'out');
    fs.mkdirSync(path.join(out, 'sub.k8s.yaml'), { recursive: true });
    fs.writeFileSync(path.join(out, MANIFEST_NAME), 'sub.k8s.yaml\n');
    expect(writeOutputs(out, [{ name: 'g.k8s.yaml', text: 'g\n' }], { manifest: true })).toEqual({});
    expect(fs.readdirSync(out).sort()).toEqual([MANIFEST_NAME, 'g.k8s.yaml', 'sub.k8s.yaml']);
  });
});
