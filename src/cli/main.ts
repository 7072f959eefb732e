/**
 * The `cdk8s-dynamo` command line: render and validate Dynamo documents with the same engine as
 * the constructs.
 *
 *   cdk8s-dynamo render [--output graph|components|workloads] [--namespace NS] [--out DIR] [--quiet] [OPERATOR...] FILE...
 *   cdk8s-dynamo validate [--old OLD [--as USER]] [--output text|json] [--quiet] [OPERATOR...] FILE...
 *   cdk8s-dynamo convert [--out DIR] FILE...
 *   cdk8s-dynamo diff [--output graph|components|workloads] [--json] [--exit-code] [--namespace NS] [OPERATOR...] OLD NEW
 *   cdk8s-dynamo eject [--language L] [--out DIR] [OPERATOR...] FILE
 *   cdk8s-dynamo --version | --help | COMMAND --help
 *
 * The options and help texts are in `args.ts`; `render --out DIR` writes one `<input-path>.k8s.yaml`
 * per input file and keeps a manifest of them in DIR (`output-files.ts`). Standard output and every
 * file are written completely or the command fails (exit 1) naming what was not written.
 *
 * Every command reads a list document (`kind: List`, as `kubectl get -o yaml` prints) as the
 * objects it holds, nested lists too, as kubectl applies them (`import/input-objects.ts`): each item
 * is checked and rendered as a document of its own, its problems starting with its place
 * (`file.yaml: document 1: items[2]: ...`), and written as a document of its own. Two objects of the
 * same API group, kind, namespace and name among all FILEs (of each of OLD and NEW for `diff`) are
 * an error naming both places; `convert` and `eject` check neither.
 *
 * `validate --old OLD` checks FILE as an update of the objects in OLD: each DynamoGraphDeployment, DynamoGraphDeploymentRequest or
 * DynamoComponentDeployment of FILE is paired with the document of OLD with the same kind and name
 * (and namespace, when both name one); a paired document is checked as an UPDATE (the operator's
 * update-only webhook rules plus the rules it re-runs on the new object; not yet the CRDs' CEL
 * transition rules), an unpaired one as a CREATE. OLD may be the manifest the objects were created from or the objects as read back
 * from the cluster (`kubectl get -o yaml`); FILE is taken as applied with `kubectl apply`. `--as USER`
 * names the Kubernetes user sending the update (replicas of components with a scaling adapter may
 * only be changed by the operator or a `planner-serviceaccount` service account); default: an
 * ordinary user.
 *
 * OPERATOR options describe the operator installation; validation and rendering see the same one:
 *   --helm-values FILE       the values of the platform chart release (`helm install -f FILE`), with
 *   [--helm-release NAME]    its release name (default dynamo-platform) and
 *   [--helm-namespace NS]    namespace (default dynamo-system): the operator configuration the chart
 *                            derives from them
 *   --operator-config FILE   the operator's configuration file (OperatorConfiguration, or the Helm
 *                            chart's ConfigMap holding it), plus `operatorVersion` and `registrySecrets`
 *   --grove / --no-grove     Grove available or not (orchestrators.grove.enabled)
 *   --lws / --no-lws         LeaderWorkerSet available or not (orchestrators.lws.enabled)
 *   --operator-version V     the operator version (`operatorVersion` of the file)
 * Precedence: a default platform install < the Helm values < the configuration file < the flags.
 *
 * `render --output workloads` also checks every object it writes as the API server would on create
 * (schema and CRD CEL rules, `checkEmittedObjects`); a rejected object is reported like a render
 * error. `validate` checks the other objects of FILE of a kind the library knows (core Kubernetes
 * kinds, PodCliqueSet, LeaderWorkerSet, SnapshotJob, PodSnapshot) the same way, always as a create.
 * Documents of a kind the library has no schema for are named on stderr (`not checked` /
 * `passed through`) without changing the exit code.
 *
 * nvidia.com/v1alpha1 DynamoGraphDeployments and DynamoComponentDeployments are converted to
 * nvidia.com/v1beta1 as soon as a file is loaded, as the API server converts them
 * (`convert-command.ts`); `convert` writes the converted documents.
 *
 * Messages about a place in a file start `file:line:column:` (`source-positions.ts`); an unknown
 * field names the declared field it likely misspells, or the v1beta1 place of a v1alpha1 field
 * (`hints.ts`). A file that cannot be read is one plain line (`cannot read graph.yaml: no such file`).
 * A successful `render` or `validate` ends with one summary line on stderr (`--quiet`: none);
 * `validate --output json` writes its report on stdout instead (`json-report.ts`, docs/cli-json.md).
 *
 * Exit 0 on success; 1 on invalid input or operator configuration (nothing on stdout, one line per
 * problem on stderr); 2 on a usage error. `diff --exit-code`: 0 no difference, 1 differences, 2 any
 * error (a refused edit included).
 */
import * as fs from 'fs';
import * as path from 'path';
import { COMMAND_NAMES, helpText, Invocation, ParsedArgs, parseCommandLine, UsageError, usageText } from './args';
import { convertLoadedDocuments, runConvert } from './convert-command';
import type * as diffCommand from './diff-command';
import type * as ejectCommand from './eject-command';
import type * as explainCommand from './explain-command';
import { validateReport } from './json-report';
import { itemPrefix, LoadedFile, objectLine, plural, problemLine, withPlacePosition } from './loaded-file';
import { OutputWriteError, outputClash, outputNames, writeAllSync, writeOutputs } from './output-files';
import type * as planCommand from './plan-command';
import { fileAt, FilePositions } from './source-positions';
import { dns1123LabelErrors } from '../admission/dns-names';
import { isDgdr } from '../dgdr/model';
import { describeExistingStorageClaim } from '../engine/experimental/checkpoint/storage';
import { describeMpiSshSecretCopy, mpiSshSecretCopy } from '../engine/multinode/ssh-secret';
import { inputClusterState } from '../engine/render';
import { decodeUtf8, parseYamlDocuments, stringifyYamlDocuments, YamlInputError } from '../import/documents';
import { deriveOperatorSettingsFromHelmValues, parseHelmValues } from '../import/helm-values';
import { duplicateObjects, inputObjectsOf } from '../import/input-objects';
import { parseOperatorConfiguration } from '../import/operator-config';
import { isV1alpha1DynamoDocument } from '../import/v1alpha1';
import { isMap, mapAt, stringAt } from '../model/json';
import { DEFAULT_NAMESPACE } from '../model/namespace';
import { OperatorSettings, resolveOperatorSettings } from '../model/operator-settings';
import { operatorVersionProblem } from '../model/operator-version';
import { RenderError } from '../model/render-error';
import { isDcd, isDgd } from '../model/v1beta1';
import { checkAndRender, CheckAndRenderResult, isCheckedKind, isClusterStateDocument, Problem } from '../pipeline/check-and-render';

/** Where the CLI reads and writes; replaceable in tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readFile: (path: string) => string;
}

const PROCESS_IO: CliIo = {
  // every byte, or an OutputWriteError naming how many were written (a full disk, `ulimit -f`, a closed pipe)
  stdout: text => writeAllSync(1, text, 'standard output'),
  stderr: text => process.stderr.write(text),
  // a file that is not UTF-8 is refused with the position of the first bad byte
  readFile: file => decodeUtf8(readBounded(file), file),
};

/** The most an input file may hold; an endless stream (`/dev/zero`) is refused at this size. */
export const MAX_INPUT_BYTES = 64 * 1024 * 1024;

/** An input file larger than MAX_INPUT_BYTES (`code` reads like a system error code). */
class InputTooLarge extends Error {
  public readonly code = `larger than ${MAX_INPUT_BYTES / 1024 / 1024} MiB, not read`;
}

/** The bytes of a file (`-`: standard input), read in chunks up to MAX_INPUT_BYTES. */
function readBounded(file: string): Buffer {
  const fd = file === '-' ? 0 : fs.openSync(file, 'r');
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    const chunk = Buffer.alloc(1024 * 1024);
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, chunk, 0, chunk.length, null);
      } catch (e) {
        // standard input without data yet (a non-blocking pipe): wait and read again
        if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
          continue;
        }
        throw e;
      }
      if (n === 0) break;
      total += n;
      if (total > MAX_INPUT_BYTES) throw new InputTooLarge();
      chunks.push(Buffer.from(chunk.subarray(0, n)));
    }
    return Buffer.concat(chunks);
  } finally {
    if (fd !== 0) fs.closeSync(fd);
  }
}

/**
 * The file with every v1alpha1 DynamoGraphDeployment and DynamoComponentDeployment converted to
 * v1beta1 (`convertLoadedDocuments`); an object that cannot be converted is left out, its problems recorded.
 */
function convertLoaded(load: LoadedFile, io: CliIo, problems: string[], admission: boolean): LoadedFile {
  const docs: unknown[] = [];
  const places: Array<LoadedFile['places'][number]> = [];
  const converted: boolean[] = [];
  load.docs.forEach((doc, i) => {
    const own: string[] = [];
    // its notices too: each at the line and column of the document, or of the v1alpha1 field it names
    const placed = (text: string) => text.split('\n').map(line => line.startsWith(`${load.file}: `) ? objectLine(load, i, line.slice(load.file.length + 2)) : line).join('\n');
    const outs = convertLoadedDocuments(load.file, [doc], { stderr: text => io.stderr(placed(text)) }, own, { admission });
    // each problem of the conversion names a field of the v1alpha1 document: at its line and column
    problems.push(...own.map(line => line.startsWith(`${load.file}: `) ? objectLine(load, i, line.slice(load.file.length + 2)) : line));
    for (const out of outs) {
      docs.push(out);
      places.push(load.places[i]);
      converted.push(load.converted[i] || isV1alpha1DynamoDocument(doc));
    }
  });
  return { file: load.file, positions: load.positions, docs, places, converted };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Why a file cannot be read, in plain words (no system error code, no stack); a YAML error at its `file:line:column`. */
function readProblem(file: string, error: unknown): string {
  if (error instanceof YamlInputError) {
    // `invalid YAML at line 3, column 5: ...` is `file:3:5: invalid YAML: ...`
    const at = /^([^]*?) at line (\d+), column (\d+)([^]*)$/.exec(error.detail);
    return at === null ? error.message : `${error.source}:${at[2]}:${at[3]}: ${at[1]}${at[4]}`;
  }
  const name = file === '-' ? 'standard input' : file;
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT': return `cannot read ${name}: no such file`;
    case 'EISDIR': return `cannot read ${name}: it is a directory (give a YAML file, or use a shell glob: ${name.replace(/\/+$/, '')}/*.yaml)`;
    case 'EACCES': case 'EPERM': return `cannot read ${name}: permission denied`;
    case 'ENOTDIR': return `cannot read ${name}: a part of the path is not a directory`;
    case 'ELOOP': return `cannot read ${name}: too many symbolic links`;
    default: return `cannot read ${name}: ${code ?? describe(error).split('\n')[0]}`;
  }
}

/**
 * The operator the command describes, each source winning over the one before: the defaults of a
 * default platform install, the settings the chart derives from `--helm-values`, the configuration
 * file, the flags; or the first problem of a file.
 */
function operatorSettings(args: ParsedArgs, io: CliIo): { settings?: OperatorSettings; problem?: string } {
  type Read = { settings?: Partial<OperatorSettings>; problem?: string };
  const read = (file: string | undefined, parse: (text: string, file: string) => Partial<OperatorSettings>): Read => {
    if (file === undefined) return { settings: {} };
    let text: string;
    try {
      text = io.readFile(file);
    } catch (e) {
      return { problem: readProblem(file, e) };
    }
    try {
      return { settings: parse(text, file) };
    } catch (e) {
      if (!(e instanceof RenderError)) throw e;
      // `file: field: message` at the field's line and column, when the field is in the file as written
      const position = e.objectRef === file ? new FilePositions(text).at('document 1', e.field, { exact: true }) : undefined;
      return { problem: position === undefined ? e.message : `${fileAt(file, position)}: ${e.field}: ${e.message.slice(`${file}: ${e.field}: `.length)}` };
    }
  };
  const release = { releaseName: args.helmRelease, namespace: args.helmNamespace };
  const fromHelm = read(args.helmValues, (text, file) => deriveOperatorSettingsFromHelmValues(parseHelmValues(text, file), release, file));
  if (fromHelm.problem !== undefined) return { problem: fromHelm.problem };
  const fromFile = read(args.operatorConfig, parseOperatorConfiguration);
  if (fromFile.problem !== undefined) return { problem: fromFile.problem };
  const settings = resolveOperatorSettings({ ...fromHelm.settings, ...fromFile.settings, ...args.operatorFlags });
  // an operator version the library does not render for is refused for validation too
  const versionProblem = operatorVersionProblem(settings.version);
  if (versionProblem !== undefined) return { problem: `operator version: ${versionProblem}` };
  return { settings };
}

/** The documents of a file (`-` is stdin), or undefined after recording why they cannot be read. */
function loadFile(file: string, io: CliIo, problems: string[]): LoadedFile | undefined {
  let text: string;
  try {
    text = io.readFile(file);
  } catch (e) {
    problems.push(readProblem(file, e));
    return undefined;
  }
  let documents: unknown[];
  try {
    documents = parseYamlDocuments(text, file);
  } catch (e) {
    problems.push(e instanceof YamlInputError ? readProblem(file, e) : describe(e));
    return undefined;
  }
  const positions = new FilePositions(text);
  // a list (kind: List, as kubectl get -o yaml prints) is the objects it holds, as kubectl applies
  // them; every object must be one kubectl could send: apiVersion and kind, no misspelled Dynamo kind
  const { objects, problems: shapeProblems } = inputObjectsOf(documents);
  if (shapeProblems.length === 0) {
    const places = objects.map(({ place, inList }) => ({ place, inList }));
    return { file, positions, docs: objects.map(o => o.value), places, converted: objects.map(() => false) };
  }
  problems.push(...shapeProblems.map(p => `${fileAt(file, positions.at(p, ''))}: ${p}`));
  return undefined;
}

/**
 * Runs the CLI; returns the exit code (0 success, 1 invalid input, unreadable file or output that
 * could not all be written, 2 usage error).
 */
export function runCli(argv: string[], io: CliIo = PROCESS_IO): number {
  const outcome: RunOutcome = { exitCodeMode: false, differences: 0 };
  let code: number;
  try {
    code = run(argv, io, outcome);
  } catch (e) {
    if (!(e instanceof OutputWriteError)) throw e;
    // what reached standard output is incomplete: say so, and fail, so that no script takes it as the rendering
    const command = (COMMAND_NAMES as readonly string[]).includes(argv[0]) ? ` ${argv[0]}` : '';
    io.stderr(`cdk8s-dynamo${command}: ${e.message}; the output is incomplete\n`);
    code = 1;
  }
  // `diff --exit-code`, as `git diff --exit-code`: 1 for differences, so every error is 2
  if (outcome.exitCodeMode) return code !== 0 ? 2 : outcome.differences > 0 ? 1 : 0;
  return code;
}

/** What a run found beyond its exit code: for `diff --exit-code`, the differences. */
interface RunOutcome {
  exitCodeMode: boolean;
  differences: number;
}

function run(argv: string[], io: CliIo, outcome: RunOutcome): number {
  let invocation: Invocation;
  try {
    invocation = parseCommandLine(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.stderr(`cdk8s-dynamo: ${e.message}\n${usageText(e.command)}`);
    return 2;
  }
  if (invocation.action === 'help') {
    io.stdout(helpText(invocation.command));
    return 0;
  }
  if (invocation.action === 'version') {
    io.stdout(`${packageVersion()}\n`);
    return 0;
  }
  const args = invocation.args;
  outcome.exitCodeMode = args.command === 'diff' && args.exitCode === true;
  // `convert`: the documents as the API server converts them, nothing checked (convert-command.ts)
  if (args.command === 'convert') return runConvert(args, io, (file, problems) => loadFile(file, io, problems));
  // `eject`: the documents, v1alpha1 ones converted, as a cdk8s app in TypeScript (eject-command.ts), nothing checked
  if (args.command === 'eject') return eject(args, io);
  if (args.outDir !== undefined) {
    const clash = outputClash(args.files);
    if (clash !== undefined) {
      io.stderr(`cdk8s-dynamo: ${clash}\n${usageText('render')}`);
      return 2;
    }
  }

  // the namespace every rendered object may be put in: the API server's rule for a namespace name, whatever the output
  const namespaceErrors = args.namespace === undefined ? [] : dns1123LabelErrors(args.namespace);
  if (namespaceErrors.length > 0) {
    io.stderr(namespaceErrors.map(e => `--namespace: Invalid value: ${JSON.stringify(args.namespace)}: ${e}\n`).join(''));
    return 1;
  }

  const { settings, problem } = operatorSettings(args, io);
  if (!settings) {
    if (args.format === 'json') io.stdout(`${JSON.stringify(validateReport(args, [], [problem ?? ''], []), undefined, 2)}\n`);
    else io.stderr(`${problem}\n`);
    return 1;
  }

  const problems: string[] = [];
  // how many problems come before the checks (unreadable files, duplicates), and the checks' own
  let inputProblems = 0;
  let checked: readonly Problem[] = [];
  let olds: unknown[] | undefined;
  if (args.old !== undefined) {
    const old = loadFile(args.old, io, problems);
    if (old) olds = convertLoaded(old, io, problems, false).docs.filter(doc => isDgd(doc) || isDcd(doc) || isDgdr(doc));
  }
  const loaded: LoadedFile[] = [];
  // `plan`: the objects the operator creates from the profiler's result for the requests of the file (plan-command.ts)
  const planNotices: string[] = [];
  for (const file of args.files) {
    // `plan`: the requests are admitted as the API server admits them before the profiler runs
    if (args.command === 'plan' && !requestsAdmitted(file, args, settings, io, problems)) continue;
    const load = args.command === 'plan' ? planLoad(file, args, io, problems, planNotices) : loadFile(file, io, problems);
    // v1alpha1 Dynamo documents become the v1beta1 objects the API server converts them to
    if (load) loaded.push(convertLoaded(load, io, problems, true));
  }
  // the same object twice (group, kind, namespace, name): the API server would keep one; diff compares two versions, each on its own
  const versions = args.command === 'diff' ? loaded.map(load => [load]) : [loaded];
  for (const files of versions) {
    const objects = files.map(load => ({ file: load.file, objects: load.docs.map((value, i) => ({ value, place: load.places[i].place })) }));
    problems.push(...duplicateObjects(objects, args.namespace).map(line => withPlacePosition(line, files)));
  }
  // documents of a kind the library has no schema for are passed on unchecked, and said so
  const notices: string[] = [...planNotices];
  // `plan` renders what it planned as `render` renders a file
  const rendering = args.command === 'render' || args.command === 'plan';
  for (const load of loaded) {
    const { docs } = load;
    for (const [index, doc] of docs.entries()) {
      if (isDgd(doc) || isDcd(doc) || isDgdr(doc) || isCheckedKind(doc)) continue;
      // cluster state the render reads (a DeviceClass, a DynamoCheckpoint, a ClusterTopologyBinding) is, beyond graph output, not written
      const readOnly = rendering && args.output !== 'graph' && isClusterStateDocument(doc);
      const what = readOnly ? 'read as cluster state, not written' : rendering ? 'passed through unchecked' : 'not checked';
      notices.push(`${objectAt(load, index)}: ${itemPrefix(load, index)}${describeDocument(doc)}: ${what} (no schema for this kind)`);
    }
  }
  // with an unusable --old file, nothing is checked: creates and updates cannot be told apart
  let rendered: RenderedFile[] = [];
  if (args.old === undefined || olds !== undefined) {
    // `validate` also checks the other objects of a known kind (a workloads rendering, say) as the API
    // server would on create; `render --output workloads` checks every object it writes that way, and
    // what the API server would reject when the operator creates it is reported like a render error
    const check = (inputs: readonly LoadedFile[], update: { olds: unknown[]; oldFile: string } | undefined) => checkAndRender(
      inputs.map(load => ({ documents: load.docs })), {
        settings,
        output: rendering ? args.output : undefined,
        namespace: args.namespace,
        checkOtherObjects: args.command === 'validate',
        update: update === undefined ? undefined : { ...update, requester: args.requester },
        reportUnchecked: true,
      });
    // `diff`: NEW is checked as an update of OLD (what the API server would refuse of the edit), OLD as created
    const result = args.command === 'diff' && loaded.length === 2
      ? joinChecks(check([loaded[0]], undefined),
        check([loaded[1]], { olds: loaded[0].docs.filter(doc => isDgd(doc) || isDcd(doc)), oldFile: loaded[0].file }))
      : check(loaded, olds === undefined ? undefined : { olds, oldFile: args.old ?? '' });
    // a rule whose cluster object (a ClusterTopologyBinding) is not in the file is not checked, and said so
    for (const { input, document, unchecked: u } of result.unchecked) {
      const load = loaded[input];
      notices.push(`${objectAt(load, document, u.path)}: ${itemPrefix(load, document)}${describeDocument(load.docs[document])}: ${u.path}: rules ${u.rules.join(', ')} not checked: ${u.message}`);
    }
    inputProblems = problems.length;
    checked = result.problems;
    problems.push(...result.problems.map(p => problemLine(loaded[p.input], p)));
    rendered = loaded.map((load, i) => ({ file: load.file, objects: result.outputs[i] }));
    // `plan`: beyond graph output, the generated graph is written too, as stored (plan-command.ts)
    if (args.command === 'plan' && args.output !== 'graph' && result.problems.length === 0) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { withStoredGraphs } = require('./plan-command') as typeof planCommand;
      rendered = rendered.map((r, i) => ({ file: r.file, objects: withStoredGraphs(loaded[i].docs, r.objects, settings) }));
    }
    if (rendering || args.command === 'validate') {
      notices.push(...mpiSshSecretNotices(loaded, result.problems, settings, args.namespace));
    }
  }
  io.stderr(notices.map(n => `${n}\n`).join(''));
  if (args.format === 'json') {
    if (checked.length === 0) inputProblems = problems.length;
    io.stdout(`${JSON.stringify(validateReport(args, loaded, problems.slice(0, inputProblems), checked), undefined, 2)}\n`);
    return problems.length > 0 ? 1 : 0;
  }
  if (problems.length > 0) {
    io.stderr(problems.map(p => `${p}\n`).join(''));
    return 1;
  }
  // `diff`: OLD and NEW, loaded and checked as for `render`, rendered and compared (diff-command.ts)
  // loaded only by `diff`: the other commands do not pay for it
  if (args.command === 'diff') {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const diff = (require('./diff-command') as typeof diffCommand).runDiff(loaded, args, settings, io);
    outcome.differences = diff.differences;
    return diff.code;
  }
  // `explain`: each graph's footprint or flowchart, after the same checks as `validate` (explain-command.ts)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (args.command === 'explain') return (require('./explain-command') as typeof explainCommand).runExplain(loaded, args, settings, io);
  const objectCount = loaded.reduce((n, load) => n + load.docs.length, 0);
  const inputs = `${plural(objectCount, 'object')} in ${plural(loaded.length, 'file')}`;
  if (!rendering) {
    if (args.quiet !== true) io.stderr(`validated ${inputs}: ok\n`);
    return 0;
  }
  const written = rendered.reduce((n, r) => n + r.objects.length, 0);
  const summary = `${args.command === 'plan' ? 'planned' : 'rendered'} ${inputs}: ${plural(written, 'object')} (${args.output} output)`;
  if (args.outDir === undefined) {
    io.stdout(stringifyYamlDocuments(rendered.flatMap(r => r.objects)));
    if (args.quiet !== true) io.stderr(`${summary}\n`);
    return 0;
  }
  const names = outputNames(rendered.map(r => r.file));
  const files = rendered.map((r, i) => ({ name: names[i], text: stringifyYamlDocuments(r.objects) }));
  const out = writeOutputs(args.outDir, files, { manifest: true });
  if (out.problem !== undefined) {
    io.stderr(`${out.problem}\n`);
    return 1;
  }
  if (args.quiet !== true) io.stderr(`${summary} written to ${args.outDir}\n`);
  return 0;
}

/** `plan REQUEST`: whether the documents of the file pass admission (CRD schema, the operator's webhooks); the problems recorded when not. */
function requestsAdmitted(file: string, args: ParsedArgs, settings: OperatorSettings, io: CliIo, problems: string[]): boolean {
  const request = loadFile(file, io, problems);
  if (!request) return false;
  // a document that is not a request is refused by planning itself, naming its kind
  if (!request.docs.every(isDgdr)) return true;
  const result = checkAndRender([{ documents: request.docs }], { settings, namespace: args.namespace });
  problems.push(...result.problems.map(p => problemLine(request, p)));
  return result.problems.length === 0;
}

/** `plan REQUEST`: the objects planned for the requests of the file, or undefined after recording why there are none. */
function planLoad(file: string, args: ParsedArgs, io: CliIo, problems: string[], notices: string[]): LoadedFile | undefined {
  let text: string;
  try {
    text = io.readFile(file);
  } catch (e) {
    problems.push(readProblem(file, e));
    return undefined;
  }
  // loaded only by `plan`: the other commands do not pay for it
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const planned = (require('./plan-command') as typeof planCommand).planFile(file, text, args, problems, notices);
  // the planned objects are not the file's text: their messages name the file without a position
  return planned && { ...planned, positions: new FilePositions(''), converted: planned.docs.map(() => false) };
}

/** `eject FILE`: loads and converts FILE as every command does, then writes its app for the operator of the OPERATOR options. */
function eject(args: ParsedArgs, io: CliIo): number {
  const { settings, problem } = operatorSettings(args, io);
  if (!settings) {
    io.stderr(`${problem}\n`);
    return 1;
  }
  const problems: string[] = [];
  const [file] = args.files;
  const load = loadFile(file, io, problems);
  const docs = load ? convertLoaded(load, io, problems, false).docs : [];
  if (problems.length > 0) {
    io.stderr(problems.map(p => `${p}\n`).join(''));
    return 1;
  }
  // loaded only by `eject`: the other commands do not pay for it
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require('./eject-command') as typeof ejectCommand).runEject(file, docs, args, settings, packageVersion(), io);
}

interface RenderedFile {
  readonly file: string;
  readonly objects: unknown[];
}

/** The checks of OLD (input 0) and NEW (input 1) of `diff`, run apart, as one result over both inputs. */
function joinChecks(first: CheckAndRenderResult, second: CheckAndRenderResult): CheckAndRenderResult {
  return {
    outputs: [...first.outputs, ...second.outputs],
    problems: [...first.problems, ...second.problems.map(p => ({ ...p, input: p.input + 1 }))],
    unchecked: [...first.unchecked, ...second.unchecked.map(u => ({ ...u, input: u.input + 1 }))],
  };
}

/**
 * One notice per accepted graph with a multinode component: the operator copies the MPI SSH key
 * Secret into the graph's namespace, which is not rendered (engine/multinode/ssh-secret.ts); and one
 * per accepted graph or DCD with a checkpoint whose storage PVC the operator expects to exist.
 */
function mpiSshSecretNotices(loaded: readonly LoadedFile[], problems: ReadonlyArray<{ input: number; document?: number }>,
  settings: OperatorSettings, namespace: string | undefined): string[] {
  const refused = new Set(problems.map(p => `${p.input}/${p.document}`));
  const notices: string[] = [];
  loaded.forEach((load, input) => load.docs.forEach((doc, index) => {
    // a graph refused, or whose rendered objects are (no document index), is not created
    if (!(isDgd(doc) || isDcd(doc)) || refused.has(`${input}/${index}`) || refused.has(`${input}/undefined`)) return;
    const graphNamespace = stringAt(mapAt(doc, 'metadata'), 'namespace') || namespace || DEFAULT_NAMESPACE;
    const copy = isDgd(doc) ? mpiSshSecretCopy(doc, settings, graphNamespace) : undefined;
    if (copy) notices.push(`${objectAt(load, index)}: ${itemPrefix(load, index)}${describeDocument(doc)}: ${describeMpiSshSecretCopy(copy)}`);
    // the checkpoint storage PVC the operator expects and does not create (engine/experimental/checkpoint/storage.ts)
    const components = isDgd(doc) ? doc.spec?.components ?? [] : doc.spec ? [doc.spec] : [];
    const claim = describeExistingStorageClaim(graphNamespace, components, settings, inputClusterState(load.docs, namespace));
    if (claim) notices.push(`${objectAt(load, index)}: ${itemPrefix(load, index)}${describeDocument(doc)}: ${claim}`);
  }));
  return notices;
}

/** `file:line:column` of an object of a loaded file (of its `field`, unless it was converted from v1alpha1). */
function objectAt(load: LoadedFile, index: number, field = ''): string {
  return fileAt(load.file, load.positions.at(load.places[index].place, load.converted[index] ? '' : field));
}

/** `apiVersion Kind/name` of a document, for notices. */
function describeDocument(doc: unknown): string {
  const apiVersion = isMap(doc) ? stringAt(doc, 'apiVersion') : undefined;
  const kind = isMap(doc) ? stringAt(doc, 'kind') : undefined;
  const name = isMap(doc) ? stringAt(mapAt(doc, 'metadata'), 'name') : undefined;
  if (kind === undefined) return 'a document without a kind';
  return `${apiVersion ?? '(no apiVersion)'} ${kind}/${name ?? '(no name)'}`;
}

/** The version of the installed package. */
function packageVersion(): string {
  // lib/src/cli (installed) or src/cli (tests): the nearest package.json above is the library's
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (fs.existsSync(candidate)) {
      const pkg = JSON.parse(fs.readFileSync(candidate, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'cdk8s-dynamo' && typeof pkg.version === 'string') return pkg.version;
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}
