/**
 * The V8 code cache of the bundled command line (bin/load-cli.js, lib/cli.cache made by the compile
 * task): the cache is used only with the bundle build it was made from, and the one the build made
 * is taken by this Node. (Needs `npx projen compile`, as the other tests of the binary.)
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loader = require('../bin/load-cli.js') as {
  STAMP: string;
  cachedDataFor(source: string, cacheFile?: string): Buffer | undefined;
};

let dir: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'lib', 'cli.cache'))) {
    throw new Error('lib/cli.cache is missing: run `npx projen compile` before these tests (`npx projen build` does)');
  }
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-code-cache-'));
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the code cache of the command line', () => {
  const id = 'a'.repeat(32);
  const stamped = `${loader.STAMP}${id}\n"use strict";\n`;

  test('is used with the build it names', () => {
    const file = path.join(dir, 'same.cache');
    fs.writeFileSync(file, Buffer.concat([Buffer.from(id, 'latin1'), Buffer.from([1, 2, 3])]));
    expect([...loader.cachedDataFor(stamped, file) ?? []]).toEqual([1, 2, 3]);
  });

  test('is not used with another build, with a bundle that has no build id, or when missing', () => {
    const file = path.join(dir, 'other.cache');
    fs.writeFileSync(file, Buffer.concat([Buffer.from('b'.repeat(32), 'latin1'), Buffer.from([1, 2, 3])]));
    expect(loader.cachedDataFor(stamped, file)).toBeUndefined();
    expect(loader.cachedDataFor('"use strict";\n', file)).toBeUndefined();
    expect(loader.cachedDataFor(stamped, path.join(dir, 'missing.cache'))).toBeUndefined();
  });

  test('the compiled bundle carries a build id, and its cache is taken by this Node', () => {
    const check = 'const { load } = require("./bin/load-cli.js"); process.stdout.write(String(load(true).script.cachedDataRejected));';
    const result = spawnSync(process.execPath, ['-e', check], { cwd: ROOT, encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe('false');
    expect(fs.readFileSync(path.join(ROOT, 'lib', 'cli.js'), 'utf8').startsWith(loader.STAMP)).toBe(true);
  });
});
