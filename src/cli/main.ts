/**
 * The `cdk8s-dynamo` command line: render and validate Dynamo documents with the same engine as
 * the constructs.
 *
 *   cdk8s-dynamo render [--output graph|components|workloads] [--namespace NS] [OPERATOR...] FILE...
 *   cdk8s-dynamo validate [--old OLD [--as USER]] [OPERATOR...] FILE...
 *
 * `validate --old OLD` checks FILE as an update of the objects in OLD: each DynamoGraphDeployment or
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
 *   --operator-config FILE   the operator's configuration file (OperatorConfiguration, or the Helm
 *                            chart's ConfigMap holding it), plus `operatorVersion` and `registrySecrets`
 *   --grove / --no-grove     Grove available or not (orchestrators.grove.enabled)
 *   --lws / --no-lws         LeaderWorkerSet available or not (orchestrators.lws.enabled)
 * Flags win over the file; whatever neither sets keeps the operator's Helm defaults.
 *
 * `render --output workloads` also checks every object it writes as the API server would on create
 * (schema and CRD CEL rules, `checkEmittedObjects`); a rejected object is reported like a render
 * error. `validate` checks the other objects of FILE of a kind the library knows (core Kubernetes
 * kinds, PodCliqueSet, LeaderWorkerSet, SnapshotJob, PodSnapshot) the same way, always as a create;
 * objects of other kinds are skipped.
 *
 * Exit 0 on success; 1 on invalid input or operator configuration (nothing on stdout, one line per
 * problem on stderr); 2 on a usage error.
 */
import * as fs from 'fs';
import { validateOptionsFor } from '../engine/admission';
import { RenderError } from '../engine/errors';
import { parseOperatorConfiguration } from '../engine/operator-config';
import { OperatorSettings, resolveOperatorSettings } from '../engine/operator-settings';
import { OUTPUT_MODES, OutputMode, renderDocuments } from '../engine/render';
import { parseYamlDocuments } from '../import/documents';
import { yaml } from '../lazy-modules';
import { isDcd, isDgd } from '../model/v1beta1';
import { checkEmittedObject, checkEmittedObjects, formatEmittedViolation } from '../validation/emitted-admission';
import { describeKey, documentKey, findOld } from '../validation/update/document-match';
import { UpdateOptions, validateUpdate } from '../validation/update-rules';
import { formatViolation, validateDocument } from '../validation/validate';

/** Where the CLI reads and writes; replaceable in tests. */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readFile: (path: string) => string;
}

const PROCESS_IO: CliIo = {
  stdout: text => process.stdout.write(text),
  stderr: text => process.stderr.write(text),
  readFile: path => fs.readFileSync(path, 'utf8'),
};

const USAGE = `usage:
  cdk8s-dynamo render [--output ${OUTPUT_MODES.join('|')}] [--namespace NS] [OPERATOR...] FILE...
  cdk8s-dynamo validate [--old OLD [--as USER]] [OPERATOR...] FILE...
  --old OLD                validate FILE as an update of the objects in OLD (unpaired documents: create)
  --as USER                with --old: the Kubernetes user sending the update (default: an ordinary user)
OPERATOR (validation and rendering see the same operator; flags win over the file):
  --operator-config FILE   operator configuration (OperatorConfiguration YAML/JSON or its ConfigMap)
  --grove | --no-grove     Grove available (default: no)
  --lws | --no-lws         LeaderWorkerSet available (default: yes)
`;

class UsageError extends Error {}

interface ParsedArgs {
  readonly command: 'render' | 'validate';
  readonly output: OutputMode;
  readonly namespace?: string;
  readonly operatorConfig?: string;
  /** `validate --old`: the file holding the objects FILE updates. */
  readonly old?: string;
  /** `validate --as`: the Kubernetes user name that sends the updates. */
  readonly requester?: string;
  /** Settings given by flags (they win over the configuration file). */
  readonly operatorFlags: Partial<OperatorSettings>;
  readonly files: string[];
}

/** Boolean flags `--X` / `--no-X` and the setting each one sets. */
const SWITCHES: { readonly [flag: string]: readonly [keyof OperatorSettings, boolean] } = {
  '--grove': ['groveAvailable', true],
  '--no-grove': ['groveAvailable', false],
  '--lws': ['lwsAvailable', true],
  '--no-lws': ['lwsAvailable', false],
};

function parseArgs(argv: string[]): ParsedArgs {
  const [command, ...rest] = argv;
  if (command !== 'render' && command !== 'validate') throw new UsageError(command ? `unknown command "${command}"` : 'no command');
  let output: OutputMode = 'graph';
  let namespace: string | undefined;
  let operatorConfig: string | undefined;
  let old: string | undefined;
  let requester: string | undefined;
  const operatorFlags: { [key: string]: unknown } = {};
  const files: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i];
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string => {
      const v = inline ?? rest[++i];
      if (v === undefined || v === '') throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (command === 'render' && flag === '--output') {
      const v = value();
      if (!(OUTPUT_MODES as readonly string[]).includes(v)) throw new UsageError(`--output must be one of ${OUTPUT_MODES.join(', ')}, got "${v}"`);
      output = v as OutputMode;
    } else if (command === 'render' && flag === '--namespace') {
      namespace = value();
    } else if (command === 'validate' && flag === '--old') {
      if (old !== undefined) throw new UsageError('--old can be given once');
      old = value();
    } else if (command === 'validate' && flag === '--as') {
      requester = value();
    } else if (flag === '--operator-config') {
      if (operatorConfig !== undefined) throw new UsageError('--operator-config can be given once');
      operatorConfig = value();
    } else if (inline === undefined && flag in SWITCHES) {
      const [setting, on] = SWITCHES[flag];
      operatorFlags[setting] = on;
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option "${arg}" for ${command}`);
    } else {
      files.push(arg);
    }
  }
  if (files.length === 0) throw new UsageError('no input FILE given');
  if (requester !== undefined && old === undefined) throw new UsageError('--as needs --old');
  return { command, output, namespace, operatorConfig, old, requester, operatorFlags: operatorFlags as Partial<OperatorSettings>, files };
}

interface LoadedFile {
  readonly file: string;
  readonly docs: unknown[];
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function readProblem(file: string, error: unknown): string {
  return `${file}: cannot read file: ${(error as NodeJS.ErrnoException).code ?? describe(error)}`;
}

/**
 * The operator the command describes: Helm defaults, then the configuration file, then the flags;
 * or the one problem of the configuration file.
 */
function operatorSettings(args: ParsedArgs, io: CliIo): { settings?: OperatorSettings; problem?: string } {
  let fromFile: Partial<OperatorSettings> = {};
  if (args.operatorConfig !== undefined) {
    let text: string;
    try {
      text = io.readFile(args.operatorConfig);
    } catch (e) {
      return { problem: readProblem(args.operatorConfig, e) };
    }
    try {
      fromFile = parseOperatorConfiguration(text, args.operatorConfig);
    } catch (e) {
      if (!(e instanceof RenderError)) throw e;
      return { problem: e.message };
    }
  }
  return { settings: resolveOperatorSettings({ ...fromFile, ...args.operatorFlags }) };
}

/** The documents of a file (`-` is stdin), or undefined after recording why they cannot be read. */
function loadFile(file: string, io: CliIo, problems: string[]): LoadedFile | undefined {
  let text: string;
  try {
    text = io.readFile(file === '-' ? '/dev/stdin' : file);
  } catch (e) {
    problems.push(readProblem(file, e));
    return undefined;
  }
  try {
    return { file, docs: parseYamlDocuments(text, file) };
  } catch (e) {
    problems.push(describe(e));
    return undefined;
  }
}

/**
 * The problems of one document of `file`: checked as a create, or, when `olds` (the documents of
 * `oldFile`) hold the object it updates, as an update of it.
 */
function validateOne(doc: unknown, file: string, olds: readonly unknown[] | undefined, oldFile: string, options: UpdateOptions): string[] {
  const match = olds === undefined ? { kind: 'none' as const } : findOld(doc, olds);
  if (match.kind === 'ambiguous') {
    return [`${file}: ${describeKey(documentKey(doc))}: matches ${match.count} documents of ${oldFile}; the old objects must be given once each`];
  }
  const violations = match.kind === 'one' ? validateUpdate(match.old, doc, options) : validateDocument(doc, options);
  return violations.map(violation => `${file}: ${formatViolation(violation)}`);
}

/** Runs the CLI; returns the exit code. */
export function runCli(argv: string[], io: CliIo = PROCESS_IO): number {
  let args: ParsedArgs;
  try {
    args = parseArgs(argv);
  } catch (e) {
    io.stderr(`cdk8s-dynamo: ${describe(e)}\n${USAGE}`);
    return 2;
  }

  const { settings, problem } = operatorSettings(args, io);
  if (!settings) {
    io.stderr(`${problem}\n`);
    return 1;
  }

  const problems: string[] = [];
  let olds: unknown[] | undefined;
  if (args.old !== undefined) {
    const old = loadFile(args.old, io, problems);
    if (old) olds = old.docs.filter(doc => isDgd(doc) || isDcd(doc));
  }
  const loaded: LoadedFile[] = [];
  for (const file of args.files) {
    const load = loadFile(file, io, problems);
    if (load) loaded.push(load);
  }
  // with an unusable --old file, nothing is validated: creates and updates cannot be told apart
  const validateOptions: UpdateOptions = { ...validateOptionsFor(settings), requester: args.requester };
  if (args.old === undefined || olds !== undefined) {
    for (const { file, docs } of loaded) {
      for (const doc of docs) {
        if (isDgd(doc) || isDcd(doc)) problems.push(...validateOne(doc, file, olds, args.old ?? '', validateOptions));
        // `validate` of any other object of a known kind (a workloads rendering, say): as the API server checks it on create
        else if (args.command === 'validate') problems.push(...checkEmittedObject(doc).map(v => `${file}: ${formatEmittedViolation(v)}`));
      }
    }
  }

  const rendered: unknown[] = [];
  if (problems.length === 0 && args.command === 'render') {
    for (const { file, docs } of loaded) {
      try {
        const objects = renderDocuments(docs, { output: args.output, namespace: args.namespace, operator: settings });
        // what the API server would reject when the operator creates it is reported like a render error
        if (args.output === 'workloads') problems.push(...checkEmittedObjects(objects).map(v => `${file}: ${formatEmittedViolation(v)}`));
        rendered.push(...objects);
      } catch (e) {
        if (!(e instanceof RenderError)) throw e;
        problems.push(`${file}: ${e.message}`);
      }
    }
  }
  if (problems.length > 0) {
    io.stderr(problems.map(p => `${p}\n`).join(''));
    return 1;
  }
  if (args.command === 'render') {
    io.stdout(rendered.map(doc => yaml().stringify(doc, { lineWidth: 0 })).join('---\n'));
  }
  return 0;
}
