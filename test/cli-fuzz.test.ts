/**
 * The installed command on hostile and generated files (spawned, as users run it): exit 0 or 1,
 * never a stack trace, and accepted renders pass the API server's checks. CI runs many more cases
 * with `npx projen fuzz:cli --runs N`.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as fc from 'fast-check';
import { checkCliCase, cliProperty, HOSTILE_CASES } from './support/fuzz-cli';

const SEED = process.env.FUZZ_SEED !== undefined ? { seed: Number(process.env.FUZZ_SEED) } : {};

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-cli-fuzz-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

test.each(HOSTILE_CASES.map((c, i) => [i, c] as const))('hostile file %i: exit 0 or 1, no crash', (_i, c) => {
  checkCliCase(c, dir);
}, 120_000);

test('generated, mutated and damaged files: exit 0 or 1, no crash, accepted renders admissible', () => {
  fc.assert(cliProperty(), { numRuns: 8, ...SEED });
}, 300_000);
