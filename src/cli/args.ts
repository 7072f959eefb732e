/**
 * The command line of `cdk8s-dynamo`: its commands, options and help texts, parsed with Node's
 * own `util.parseArgs`.
 */
import { parseArgs as parseNodeArgs } from 'node:util';
import { MANIFEST_NAME } from './output-files';
import { EJECT_LANGUAGES, EjectLanguage } from '../eject/languages';
import { DEFAULT_HELM_NAMESPACE, DEFAULT_HELM_RELEASE_NAME } from '../import/helm-values';
import { DEFAULT_OPERATOR_VERSION, OperatorSettings } from '../model/operator-settings';
import { operatorVersionProblem, SUPPORTED_OPERATOR_VERSIONS } from '../model/operator-version';
import { OUTPUT_MODES, OutputMode } from '../model/output-mode';

/** A command line that cannot be run as given (exit code 2, with the usage). */
export class UsageError extends Error {
  constructor(message: string, public readonly command?: CommandName) {
    super(message);
  }
}

/** The commands. */
export type CommandName = 'render' | 'validate' | 'diff' | 'convert' | 'explain' | 'eject' | 'plan';
/** The command names, in the order of the help. */
export const COMMAND_NAMES: readonly CommandName[] = ['render', 'validate', 'diff', 'convert', 'explain', 'eject', 'plan'];
const COMMANDS = COMMAND_NAMES;

/** What the command line asks for. */
export type Invocation =
  | { readonly action: 'help'; readonly command?: CommandName }
  | { readonly action: 'version' }
  | { readonly action: 'run'; readonly args: ParsedArgs };

/** A `render` or `validate` command line. */
export interface ParsedArgs {
  readonly command: CommandName;
  readonly output: OutputMode;
  readonly namespace?: string;
  /**
   * `render --out DIR` (and `convert --out DIR`): one `<input-path>.k8s.yaml` per input file in DIR instead of stdout (`output-files.ts`);
   * `eject --out DIR`: DIR/main.ts and the files of its project.
   */
  readonly outDir?: string;
  /** `eject --language`: the language of the app (default TypeScript). */
  readonly language?: EjectLanguage;
  readonly operatorConfig?: string;
  /** `--helm-values`: a values file of the platform chart release. */
  readonly helmValues?: string;
  /** `--helm-release`: the release name of the values (only with `--helm-values`). */
  readonly helmRelease?: string;
  /** `--helm-namespace`: the release namespace of the values (only with `--helm-values`). */
  readonly helmNamespace?: string;
  /** `validate --old`: the file holding the objects FILE updates. */
  readonly old?: string;
  /** `validate --as`: the Kubernetes user name that sends the updates. */
  readonly requester?: string;
  /** Settings given by flags (they win over the configuration file). */
  readonly operatorFlags: Partial<OperatorSettings>;
  /** `diff --json`: the differences as a JSON array instead of one line per object. */
  readonly json?: boolean;
  /** `validate --output json`: the result as one JSON document on stdout (docs/cli-json.md). */
  readonly format?: 'text' | 'json';
  /** `diff --exit-code`: exit 1 when there are differences (and 2 for errors). */
  readonly exitCode?: boolean;
  /** `render` / `validate` / `plan --quiet`: no summary line on stderr after a success. */
  readonly quiet?: boolean;
  /** `explain --mermaid`: a Mermaid flowchart of each graph instead of its footprint table. */
  readonly mermaid?: boolean;
  /** `eject --force`: replace files that exist in the `--out` folder. */
  readonly force?: boolean;
  /** `eject --package-source`: a local build of the library the `--out` project depends on instead of the registry's release. */
  readonly packageSource?: string;
  /** `plan --python`: the interpreter of the profiler's environment. */
  readonly python?: string;
  readonly files: string[];
}

const OPERATOR_HELP = `Operator options (validation and rendering see the same operator). Unset, it is a default
platform install; --helm-values changes that, --operator-config wins over it, and flags over both:
  --helm-values FILE       values of the dynamo-platform Helm release (helm install -f FILE)
  --helm-release NAME      with --helm-values: the release name (default: ${DEFAULT_HELM_RELEASE_NAME})
  --helm-namespace NS      with --helm-values: the release namespace (default: ${DEFAULT_HELM_NAMESPACE})
  --operator-config FILE   operator configuration (OperatorConfiguration YAML/JSON or its ConfigMap)
  --operator-version V     the operator version to check and render for (${SUPPORTED_OPERATOR_VERSIONS.map(v => v.version).join(', ')}; default: ${DEFAULT_OPERATOR_VERSION})
  --grove | --no-grove     Grove available (default: no)
  --lws | --no-lws         LeaderWorkerSet available (default: yes)`;

const COMMON_HELP = `  -h, --help               show this help
  --                       end of options: every later argument is a FILE
FILE may be - for standard input.`;

const OUT_DIR_HELP = `Output folder (--out DIR): the file of an input is named after its path relative to the common
folder of all inputs, / written as __ and the extension as .k8s.yaml (a/deploy.yaml and
b/deploy.yaml give a__deploy.k8s.yaml and b__deploy.k8s.yaml; - gives stdin.k8s.yaml), all in
DIR itself, so that kubectl apply -f DIR reads them. DIR/${MANIFEST_NAME} lists the files the
last run wrote there, one name a line (lines starting with # are comments); the next run into DIR
removes those it does not write again, refuses to replace a file that is not listed, and leaves
every other file alone. Files are written under a temporary name first: on a failure nothing is.`;

const RENDER_USAGE = `cdk8s-dynamo render [--output ${OUTPUT_MODES.join('|')}] [--namespace NS] [--out DIR] [--quiet] [OPERATOR...] FILE...`;
const VALIDATE_USAGE = 'cdk8s-dynamo validate [--old OLD [--as USER]] [--output text|json] [--quiet] [OPERATOR...] FILE...';
const CONVERT_USAGE = 'cdk8s-dynamo convert [--out DIR] FILE...';
const EXPLAIN_USAGE = 'cdk8s-dynamo explain [--mermaid] [OPERATOR...] FILE...';
const EJECT_USAGE = `cdk8s-dynamo eject [--language ${EJECT_LANGUAGES.join('|')}] [--out DIR [--force] [--package-source PATH]] [OPERATOR...] FILE`;
const PLAN_USAGE = `cdk8s-dynamo plan [--python PATH] [--output ${OUTPUT_MODES.join('|')}] [--namespace NS] [--out DIR] [--quiet] [OPERATOR...] REQUEST`;
const DIFF_USAGE = `cdk8s-dynamo diff [--output ${OUTPUT_MODES.join('|')}] [--json] [--exit-code] [--namespace NS] [OPERATOR...] OLD NEW`;

const HELP: Record<CommandName, string> = {
  plan: `usage: ${PLAN_USAGE}

Runs the Dynamo profiler on each DynamoGraphDeploymentRequest of REQUEST, as the operator's
profiling Job runs it (python -m dynamo.profiler --config SPEC-AS-JSON), in a Python environment
that has it (scripts/plan-env.sh creates one; docs/plan.md), and writes what the operator creates
from its result when the request is applied (autoApply): the DynamoGraphDeployment (named
<request>-dgd, or spec.overrides.dgd.metadata.name; the request's runtimeVersionOverride on each
component without one; the dgdr.nvidia.com/name, dgdr.nvidia.com/namespace and
nvidia.com/managed-by labels) and the profiler's ConfigMaps, then checks and renders them as
render does. The search is the profiler's own: searchStrategy rapid runs offline (AIConfigurator
simulation, no GPU); thorough deploys candidates to a cluster and is not run here.

  --python PATH            the interpreter of the profiler's environment (default:
                           $CDK8S_DYNAMO_PYTHON, else python3); a dgd-apply-overrides beside it is
                           the DGD override tool the profiler calls for spec.overrides.dgd
  --output MODE            graph (default), components or workloads
  --namespace NS           namespace of a request that names none (default: default)
  --out DIR                write the result into DIR instead of standard output (see render --help)
  --quiet                  no summary line (planned N objects from M files) on standard error

${OPERATOR_HELP}
${COMMON_HELP}

Exit status: 0 planned and rendered, 1 invalid request, profiler failure, invalid result or output
not all written, 2 usage error.
`,
  explain: `usage: ${EXPLAIN_USAGE}

Explains each DynamoGraphDeployment as the operator would run it, after checking the documents as
validate does: per component its type, replicas (marked * when unset: the operator's default of
1; + with a scaling adapter, whose replicas an autoscaler or the planner sets), nodes per replica,
pods, GPUs per pod (the main container's GPU resource as rendered; with the GPU memory service,
its DRA claim) and in total, and the DRA ResourceClaimTemplates the operator creates; then the
graph's total GPUs. GPUs asked for through a container's resource claims are counted from the
ResourceClaimTemplates and DeviceClasses in the input. One section per graph; other documents
are not explained.

  --mermaid                a Mermaid flowchart of each graph (flowchart LR): clients, Gateway and
                           endpoint picker, frontends and router mode, workers, planner, with
                           replicas and GPUs

${OPERATOR_HELP}
${COMMON_HELP}

Exit status: 0 explained, 1 invalid input, unreadable file or output not all written, 2 usage
error.
`,
  eject: `usage: ${EJECT_USAGE}

Writes the DynamoGraphDeployments and DynamoComponentDeployments of FILE as a cdk8s app that
synthesizes them, in TypeScript (main.ts: new App() ... app.synth()) or with --language in Python,
Java or Go, written with the library as a person would write it in that language: new DynamoGraph(...) with addFrontend, addWorker, addPrefillWorker,
addDecodeWorker, addPlanner, addEpp, addMultinodeWorker or addComponent per component; image,
command, args, workingDir, env (cdk8s-plus EnvValues, secrets and config maps as references),
envFrom and gpus of the main container as props; GpuMemoryService, Failover and CheckpointConfig for
the preview features; the typed podTemplate only for the rest. nvidia.com/v1alpha1 documents are
converted first, as render converts them. Each Dynamo document gets a chart of its own, named after
it; other documents become ApiObjects in the chart of the Dynamo document that follows them (the
last chart for those after it). The app synthesizes the documents as written (the status of an
object read from the cluster is left out). The input is not checked: run validate on it; the app
checks it when it synthesizes. A field the library cannot write is an error naming the document
and the field, and nothing is written.

The OPERATOR options name the operator the documents are deployed to: the settings they give that
differ from a default platform install are written into the app as one OperatorOptions constant
that every graph names as its operator prop, so the app renders and checks for that operator (a
graph that needs Grove or checkpointing synthesizes only for an operator that has them).

  --language L             typescript (default), python (main.py: snake_case keyword arguments,
                           struct classes), java (Main.java: XxxProps.builder()...build()) or go
                           (main.go: cdk8sdynamo.NewDynamoGraph, &cdk8sdynamo.XxxProps{...})
  --out DIR                write the program and the project files that run it (cdk8s synth) into
                           DIR: main.ts with package.json, tsconfig.json and cdk8s.yaml (npm install
                           && npx cdk8s synth); main.py with requirements.txt and cdk8s.yaml; Main.java
                           with pom.xml and cdk8s.yaml; main.go with go.mod and cdk8s.yaml; and a
                           README.md on running it; instead of the program on standard output; an
                           existing file of these is an error
  --force                  with --out: replace the files that exist
  --package-source PATH    with --out: depend on a local build of cdk8s-dynamo (until it is published)
                           instead of this version from the registry: the npm tarball or a checkout
                           (typescript), the wheel (python), the Maven repository folder (java) or
                           the module folder (go) that npx projen package:js (package:python,
                           package:java, package:go) writes into the clone's dist/; DIR/README.md
                           says how to run the app and where the library comes from

${OPERATOR_HELP}
${COMMON_HELP}

Exit status: 0 written, 1 input that cannot be ejected, unreadable file, invalid operator
configuration, an existing file in DIR (without --force) or output not all written, 2 usage error.
`,
  convert: `usage: ${CONVERT_USAGE}

Converts nvidia.com/v1alpha1 DynamoGraphDeployment and DynamoComponentDeployment documents to
nvidia.com/v1beta1 as the API server converts them through the operator's conversion webhook:
services become components, the v1alpha1 pod fields (resources, envs, envFromSecret, probes,
volumeMounts, extraPodMetadata, extraPodSpec) one podTemplate, and what v1beta1 has no field for
is kept, as the webhook keeps it, in the annotation nvidia.com/dgd-spec (nvidia.com/dcd-spec).
Other documents are written unchanged. A field the v1alpha1 API does not have, a value of the
wrong type, or data the conversion would drop (a resource quantity that does not parse) is an
error naming the field, and nothing is written. Fields kept only in the annotation are named on
standard error. The result is not checked: run validate on it. render, validate and diff convert
v1alpha1 documents the same way before they read them.

  --out DIR                write one file per input FILE into DIR instead of standard output
                           (see Output folder below)

${COMMON_HELP}

${OUT_DIR_HELP}

Exit status: 0 converted, 1 invalid input, unreadable file or output not all written, 2 usage
error.
`,
  render: `usage: ${RENDER_USAGE}

Renders Dynamo documents as the operator would: the graph as written, the DynamoComponentDeployments
the operator creates from it, or every object it creates (workloads). Dynamo documents are checked
as the API server and the operator's webhooks admit them first; nothing is written when any input
is refused.

  --output MODE            graph (default), components or workloads
  --namespace NS           namespace of namespaced objects that name none (an RFC 1123 label, as
                           the API server requires of a namespace name)
  --out DIR                write one file per input FILE into DIR instead of standard output
                           (see Output folder below)
  --quiet                  no summary line (rendered N objects from M files) on standard error

${OPERATOR_HELP}
${COMMON_HELP}

${OUT_DIR_HELP}

Exit status: 0 rendered, 1 invalid input, unreadable file or output not all written, 2 usage
error.
`,
  validate: `usage: ${VALIDATE_USAGE}

Checks Dynamo documents as the cluster would admit them (CRD schema and rules, the operator's
defaulting and validating webhooks), and other objects of a kind the library knows (core
Kubernetes kinds, PodCliqueSet, LeaderWorkerSet, SnapshotJob, PodSnapshot) against their schema.
Documents of other kinds are named on standard error as not checked.

  --old OLD                check FILE as an update of the objects in OLD (unpaired documents: create)
  --as USER                with --old: the Kubernetes user sending the update (default: an ordinary user)
  --output FORMAT          text (default) or json: one JSON report on standard output (docs/cli-json.md)
  --quiet                  no summary line (validated N objects in M files: ok) on standard error

${OPERATOR_HELP}
${COMMON_HELP}

Exit status: 0 valid, 1 invalid input or unreadable file, 2 usage error.
`,
  diff: `usage: ${DIFF_USAGE}

Renders OLD and NEW with the same operator settings (OLD checked as render checks it, NEW as an
update of OLD, as validate --old OLD NEW checks it, so an edit the API server refuses is an error) and
lists the objects added (+), removed (-) and modified (~), with their changed fields, and whether
the change restarts pods: a change of a pod template (Deployment spec.template, LeaderWorkerSet
leader/worker templates, a PodCliqueSet clique's podSpec, labels or annotations) or a new worker
hash, which the operator rolls out as new objects <graph>-<component>-<hash> (one entry: the new
object, "new worker hash, was OLD-NAME"). Replicas and the objects' own metadata restart nothing.
A graph or component deployment restarts pods when a workload the operator creates for it does.

  --output MODE            workloads (default: the pods' own objects), components or graph
  --json                   a JSON array of {kind, name, namespace, change, restartsPods, fields}
                           (change: added, removed or modified; [] for no difference)
  --exit-code              exit 1 when OLD and NEW differ, 0 when not, 2 for any error (as git diff)
  --namespace NS           namespace of namespaced objects that name none (both files; an RFC 1123
                           label, as the API server requires of a namespace name)

${OPERATOR_HELP}
${COMMON_HELP}

Exit status:
  without --exit-code: 0 compared (with or without differences); 1 invalid input (OLD or NEW
  refused, NEW an edit the API server refuses), unreadable file or output not all written; 2 usage
  error
  with --exit-code: 0 no difference; 1 differences; 2 invalid input, unreadable file, output not
  all written or usage error
`,
};

/** The help text of the program (no command) or of one command. */
export function helpText(command?: CommandName): string {
  if (command !== undefined) return HELP[command];
  return `usage:
  ${RENDER_USAGE}
  ${VALIDATE_USAGE}
  ${CONVERT_USAGE}
  ${DIFF_USAGE}
  ${EXPLAIN_USAGE}
  ${EJECT_USAGE}
  ${PLAN_USAGE}
  cdk8s-dynamo --version
  cdk8s-dynamo [COMMAND] --help

Commands:
  render     render Dynamo documents as the operator would (graph, components or workloads)
  validate   check documents as the cluster would admit them
  convert    write nvidia.com/v1alpha1 Dynamo documents as the nvidia.com/v1beta1 objects they convert to
  diff       compare two versions as rendered, and say which changes restart pods
  explain    the replicas, nodes and GPUs each graph runs with, or its Mermaid flowchart
  eject      write Dynamo documents as a cdk8s app (TypeScript, Python, Java, Go) that uses the library
  plan       run the profiler on a DynamoGraphDeploymentRequest and render the graph it generates

${OPERATOR_HELP}

Each problem names the rule it breaks, (rule N): docs/admission-rules.md in the installed package
(node_modules/cdk8s-dynamo) says what each rule checks and how to fix it.

Every command reads a list document (kind: List, as kubectl get -o yaml prints; nested lists too) as
the objects it holds, each checked and written as a document of its own, as kubectl applies them.
The same object (API group, kind, namespace, name) twice among the FILEs is an error.

Messages about a place in a file start with FILE:LINE:COLUMN; an unknown field names the field it is
likely a misspelling of, or its v1beta1 place when it is a v1alpha1 field. render and validate end
a success with one summary line on standard error (--quiet: none); standard output holds only the
rendering (or validate --output json's report: docs/cli-json.md in the installed package).

Exit status: 0 success, 1 invalid input, unreadable file or output not all written (a full disk,
a file size limit, a reader that stopped reading: the message says how many bytes were written),
2 usage error. diff --exit-code: 0 no difference, 1 differences, 2 any error.
`;
}

/** The short usage printed after a usage error: the command's synopsis and where to read more. */
export function usageText(command?: CommandName): string {
  const synopsis = command === 'render' ? [RENDER_USAGE] : command === 'validate' ? [VALIDATE_USAGE] : [RENDER_USAGE, VALIDATE_USAGE];
  if (command === 'convert') synopsis.splice(0, synopsis.length, CONVERT_USAGE);
  else if (command === undefined) synopsis.push(CONVERT_USAGE);
  if (command === 'diff') synopsis.splice(0, synopsis.length, DIFF_USAGE);
  else if (command === undefined) synopsis.push(DIFF_USAGE);
  if (command === 'explain') synopsis.splice(0, synopsis.length, EXPLAIN_USAGE);
  else if (command === undefined) synopsis.push(EXPLAIN_USAGE);
  if (command === 'eject') synopsis.splice(0, synopsis.length, EJECT_USAGE);
  else if (command === undefined) synopsis.push(EJECT_USAGE);
  if (command === 'plan') synopsis.splice(0, synopsis.length, PLAN_USAGE);
  const more = command === undefined ? 'cdk8s-dynamo --help' : `cdk8s-dynamo ${command} --help`;
  return `usage:\n${synopsis.map(line => `  ${line}\n`).join('')}Run '${more}' for the options.\n`;
}

/** Boolean flags `--X` / `--no-X` and the setting each one sets. */
const SWITCHES: { readonly [flag: string]: readonly [keyof OperatorSettings, boolean] } = {
  'grove': ['groveAvailable', true],
  'no-grove': ['groveAvailable', false],
  'lws': ['lwsAvailable', true],
  'no-lws': ['lwsAvailable', false],
};

type OptionSpec = { type: 'string' | 'boolean'; short?: string; multiple?: boolean };

const SHARED_OPTIONS: Record<string, OptionSpec> = {
  'help': { type: 'boolean', short: 'h' },
  'operator-config': { type: 'string', multiple: true },
  'helm-values': { type: 'string', multiple: true },
  'helm-release': { type: 'string', multiple: true },
  'helm-namespace': { type: 'string', multiple: true },
  'operator-version': { type: 'string', multiple: true },
  ...Object.fromEntries(Object.keys(SWITCHES).map(flag => [flag, { type: 'boolean' as const }])),
};

const COMMAND_OPTIONS: Record<CommandName, Record<string, OptionSpec>> = {
  convert: {
    help: SHARED_OPTIONS.help,
    out: { type: 'string', multiple: true },
  },
  eject: {
    ...SHARED_OPTIONS,
    'out': { type: 'string', multiple: true },
    'force': { type: 'boolean' },
    'language': { type: 'string', multiple: true },
    'package-source': { type: 'string', multiple: true },
  },
  render: {
    ...SHARED_OPTIONS,
    output: { type: 'string', multiple: true },
    namespace: { type: 'string', multiple: true },
    out: { type: 'string', multiple: true },
    quiet: { type: 'boolean' },
  },
  validate: {
    ...SHARED_OPTIONS,
    old: { type: 'string', multiple: true },
    as: { type: 'string', multiple: true },
    output: { type: 'string', multiple: true },
    quiet: { type: 'boolean' },
  },
  diff: {
    ...SHARED_OPTIONS,
    'output': { type: 'string', multiple: true },
    'namespace': { type: 'string', multiple: true },
    'json': { type: 'boolean' },
    'exit-code': { type: 'boolean' },
  },
  explain: {
    ...SHARED_OPTIONS,
    mermaid: { type: 'boolean' },
  },
  plan: {
    ...SHARED_OPTIONS,
    python: { type: 'string', multiple: true },
    output: { type: 'string', multiple: true },
    namespace: { type: 'string', multiple: true },
    out: { type: 'string', multiple: true },
    quiet: { type: 'boolean' },
  },
};

/** Reads the command line (the arguments after the program name). Throws UsageError. */
export function parseCommandLine(argv: readonly string[]): Invocation {
  const [first, ...rest] = argv;
  if (first === '--version') {
    if (rest.length > 0) throw new UsageError('--version takes no arguments');
    return { action: 'version' };
  }
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = rest[0];
    if (topic !== undefined && !(COMMANDS as readonly string[]).includes(topic)) throw new UsageError(`unknown command "${topic}"`);
    return { action: 'help', command: topic as CommandName | undefined };
  }
  if (first === undefined) throw new UsageError('no command');
  if (!(COMMANDS as readonly string[]).includes(first)) {
    throw new UsageError(first.startsWith('-') ? `unknown option "${first}"` : `unknown command "${first}"`);
  }
  const command = first as CommandName;
  let parsed;
  try {
    parsed = parseNodeArgs({ args: [...rest], options: COMMAND_OPTIONS[command], allowPositionals: true, strict: true, tokens: true });
  } catch (e) {
    throw new UsageError(nodeParseProblem(e, command), command);
  }
  const values = parsed.values as Record<string, string[] | boolean | undefined>;
  if (values.help === true) return { action: 'help', command };

  const single = (name: string): string | undefined => {
    const given = values[name] as string[] | undefined;
    if (given === undefined) return undefined;
    if (given.length > 1) throw new UsageError(`--${name} can be given once`, command);
    if (given[0] === '') throw new UsageError(`--${name} needs a value`, command);
    return given[0];
  };

  // validate --output names the format of the result, render and diff --output what is rendered
  const format = command === 'validate' ? single('output') ?? 'text' : undefined;
  if (format !== undefined && format !== 'text' && format !== 'json') {
    throw new UsageError(`--output must be one of text, json, got "${format}"`, command);
  }
  const outputValue = (command === 'validate' ? undefined : single('output')) ?? (command === 'diff' ? 'workloads' : 'graph');
  if (!(OUTPUT_MODES as readonly string[]).includes(outputValue)) {
    throw new UsageError(`--output must be one of ${OUTPUT_MODES.join(', ')}, got "${outputValue}"`, command);
  }
  // the last of --grove / --no-grove (and --lws / --no-lws) wins, as with any repeated switch
  const operatorFlags: { [key: string]: unknown } = {};
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== 'option' || !(token.name in SWITCHES)) continue;
    if (token.value !== undefined) throw new UsageError(`--${token.name} takes no value`, command);
    const [setting, on] = SWITCHES[token.name];
    operatorFlags[setting] = on;
  }
  const operatorVersion = single('operator-version');
  if (operatorVersion !== undefined) {
    const problem = operatorVersionProblem(operatorVersion);
    if (problem !== undefined) throw new UsageError(`--operator-version: ${problem}`, command);
    operatorFlags.version = operatorVersion;
  }
  const language = single('language');
  if (language !== undefined && !(EJECT_LANGUAGES as readonly string[]).includes(language)) {
    throw new UsageError(`--language must be one of ${EJECT_LANGUAGES.join(', ')}, got "${language}"`, command);
  }
  const old = single('old');
  const requester = single('as');
  if (requester !== undefined && old === undefined) throw new UsageError('--as needs --old', command);
  const helmValues = single('helm-values');
  const helmRelease = single('helm-release');
  const helmNamespace = single('helm-namespace');
  if (helmValues === undefined && helmRelease !== undefined) throw new UsageError('--helm-release needs --helm-values', command);
  if (helmValues === undefined && helmNamespace !== undefined) throw new UsageError('--helm-namespace needs --helm-values', command);
  const files = parsed.positionals;
  if (files.length === 0) throw new UsageError('no input FILE given', command);
  if (files.some(file => file === '')) throw new UsageError('an input FILE is the empty string', command);
  if (command === 'diff' && files.length !== 2) throw new UsageError(`diff compares two FILEs, OLD and NEW; got ${files.length}`, command);
  if (command === 'eject' && files.length !== 1) throw new UsageError(`eject writes the app of one FILE; got ${files.length}`, command);
  if (command === 'plan' && files.length !== 1) throw new UsageError(`plan reads one REQUEST file; got ${files.length}`, command);
  if (values.force === true && values.out === undefined) throw new UsageError('--force needs --out', command);
  if (values['package-source'] !== undefined && values.out === undefined) throw new UsageError('--package-source needs --out', command);
  if (command === 'diff' && files[0] === '-' && files[1] === '-') throw new UsageError('only one of OLD and NEW can be - (standard input)', command);
  return {
    action: 'run',
    args: {
      command,
      output: outputValue as OutputMode,
      namespace: single('namespace'),
      outDir: single('out'),
      language: language as EjectLanguage | undefined,
      operatorConfig: single('operator-config'),
      helmValues,
      helmRelease,
      helmNamespace,
      old,
      requester,
      operatorFlags: operatorFlags as Partial<OperatorSettings>,
      json: values.json === true ? true : undefined,
      format: format as ParsedArgs['format'],
      exitCode: values['exit-code'] === true ? true : undefined,
      quiet: values.quiet === true ? true : undefined,
      mermaid: values.mermaid === true ? true : undefined,
      force: values.force === true ? true : undefined,
      packageSource: single('package-source'),
      python: single('python'),
      files,
    },
  };
}

/** One line for an error of `util.parseArgs`, in this program's words. */
function nodeParseProblem(error: unknown, command: CommandName): string {
  const code = (error as { code?: string }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const option = /'([^']+)'/.exec(message)?.[1] ?? message;
    return `unknown option "${option}" for ${command}`;
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const option = /Option '(?:-\w, )?(--[\w-]+)/.exec(message)?.[1];
    if (option !== undefined && message.includes('does not take an argument')) return `${option} takes no value`;
    // a missing value, or one that looks like an option (`--output --grove`)
    if (option !== undefined) return `${option} needs a value`;
  }
  return message.split('\n')[0];
}
