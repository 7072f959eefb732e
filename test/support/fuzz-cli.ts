/**
 * Property of the installed command on hostile and mutated input: whatever file it is given,
 * `cdk8s-dynamo validate` and `cdk8s-dynamo render --output workloads` exit 0 or 1 (never a crash,
 * never 2 for a file), print no stack trace and no "internal error", and every object of an
 * accepted render passes the checks the API server applies to it.
 *
 * Inputs: admissible generated graphs, mutated ones (the fuzz generators of the in-process
 * properties), and hostile texts: the same graphs with YAML damaged (cut, bytes inserted), alias
 * expansion, deep nesting, prototype-named keys, huge and non-finite numbers, nulls, misspelled
 * kinds and binary noise.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as fc from 'fast-check';
import { apiServerLines, readDocuments, writeDocuments } from './facade';
import { anyFuzzGraph } from './fuzz-graphs';
import { mutatedGraph } from './fuzz-mutations';

const ROOT = path.resolve(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin', 'cdk8s-dynamo');

/** One generated input file and how it was made. */
export interface CliCase {
  readonly kind: string;
  /** The file's content: text (written as UTF-8) or raw bytes (not always UTF-8). */
  readonly text: string | Uint8Array;
  readonly grove: boolean;
}

/** Texts a parser or a validator could trip on. */
const HOSTILE_TEXTS: readonly string[] = [
  '',
  '---\n---\n',
  '\u0000\u0001\u0002',
  'a: &a [*a]\n',
  'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n',
  `${'['.repeat(5000)}${']'.repeat(5000)}\n`,
  `${'a:\n '.repeat(300)}b\n`,
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: x}\nspec: {__proto__: {components: []}}\n',
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\n__proto__: {metadata: {name: x}}\nconstructor: {prototype: {a: 1}}\n',
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeploymnet\nmetadata: {name: x}\n',
  'apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata: {password: "not base64 !!"}\n',
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: x, annotations: {a: null}}\nspec: null\n',
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: x}\nspec: {components: [{name: a, type: worker, replicas: 1e400}]}\n',
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: x}\nspec: {components: [{name: a, type: worker, sharedMemorySize: .nan}]}\n',
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: x}\nspec: {components: [{name: a, type: worker, sharedMemorySize: "1e400"}]}\n',
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {name: x}\nspec: {components: {name: a}}\n',
  'apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata: {generateName: x-}\nspec: {components: []}\n',
  'a: 1\na: 2\n',
  '\uFEFFapiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {on: yes, 0644: 0x1F}\n',
];

/** A generated document written as a user's file means it: with the library's kubectl-safe writer. */
const yamlOf = (doc: unknown): string => writeDocuments([doc]);

/** A text with damage at a random place: cut short, or a random string inserted. */
const damaged = (text: string): fc.Arbitrary<string> => fc.tuple(fc.nat(Math.max(0, text.length)), fc.string({ maxLength: 8, unit: 'binary' }), fc.boolean())
  .map(([at, junk, cut]) => (cut ? text.slice(0, at) : `${text.slice(0, at)}${junk}${text.slice(at)}`));

/** Every kind of generated input file. */
export const cliCase: fc.Arbitrary<CliCase> = fc.oneof(
  anyFuzzGraph.map(g => ({ kind: 'admissible', text: yamlOf(g.graph), grove: g.groveOnly })),
  mutatedGraph.map(m => ({ kind: `mutated:${m.mutation}`, text: yamlOf(m.graph), grove: m.grove })),
  anyFuzzGraph.chain(g => damaged(yamlOf(g.graph))).map(text => ({ kind: 'damaged', text, grove: false })),
  fc.constantFrom(...HOSTILE_TEXTS).map(text => ({ kind: 'hostile', text, grove: false })),
  fc.string({ maxLength: 200, unit: 'binary' }).map(text => ({ kind: 'noise', text, grove: false })),
  fc.uint8Array({ maxLength: 200 }).map(bytes => ({ kind: 'bytes', text: bytes, grove: false })),
);

/** What one run of the command did. */
interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runCli(args: readonly string[]): Run {
  const r = spawnSync(process.execPath, [BIN, ...args], { encoding: 'utf8', timeout: 120_000, maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Why a run broke the contract, or undefined. */
function runProblem(what: string, run: Run): string | undefined {
  if (run.status !== 0 && run.status !== 1) return `${what}: exit ${run.status}`;
  if (/\n\s+at .+:\d+:\d+\)?\n/.test(run.stderr) || /internal error|TypeError|RangeError|ReferenceError/.test(run.stderr)) {
    return `${what}: a crash on stderr: ${run.stderr.slice(0, 400)}`;
  }
  if (run.status === 1 && run.stdout !== '') return `${what}: exit 1 with output on stdout`;
  return undefined;
}

/** Exit codes of one case: `validate`, then `render --output workloads`. */
export interface CliOutcome {
  readonly validate: number;
  readonly render: number;
}

/** Checks one case with the spawned command; throws with what went wrong, else returns the exit codes. */
export function checkCliCase(c: CliCase, dir: string): CliOutcome {
  const file = path.join(dir, 'input.yaml');
  fs.writeFileSync(file, c.text);
  const grove = c.grove ? ['--grove'] : [];
  const validate = runCli(['validate', ...grove, file]);
  const validateProblem = runProblem('validate', validate);
  if (validateProblem !== undefined) throw new Error(`${c.kind}: ${validateProblem}`);
  // a graph the generator made admissible, written as a file, is admitted from that file too
  if (c.kind === 'admissible' && validate.status !== 0) throw new Error(`admissible: validate refused it: ${validate.stderr.slice(0, 400)}`);
  const render = runCli(['render', '--output', 'workloads', ...grove, file]);
  const renderProblem = runProblem('render --output workloads', render);
  if (renderProblem !== undefined) throw new Error(`${c.kind}: ${renderProblem}`);
  const outcome = { validate: validate.status!, render: render.status! };
  if (render.status !== 0) return outcome;
  // an accepted render: what it wrote, read back, is what the API server would admit
  const objects = readDocuments(render.stdout, 'render output');
  const violations = objects.flatMap(apiServerLines);
  if (violations.length > 0) throw new Error(`${c.kind}: accepted render has objects the API server rejects: ${violations.join('; ')}`);
  return outcome;
}

/** The property over generated cases; files go to a temporary folder removed afterwards. */
export function cliProperty(tally?: (c: CliCase, outcome: CliOutcome) => void): fc.IPropertyWithHooks<[CliCase]> {
  let dir = '';
  return fc.property(cliCase, c => {
    const outcome = checkCliCase(c, dir);
    tally?.(c, outcome);
  })
    .beforeEach(previous => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-fuzz-cli-'));
      previous();
    })
    .afterEach(previous => {
      fs.rmSync(dir, { recursive: true, force: true });
      previous();
    });
}

/** The hostile texts, each checked once (not only when drawn at random). */
export const HOSTILE_CASES: readonly CliCase[] = HOSTILE_TEXTS.map(text => ({ kind: 'hostile', text, grove: false }));
