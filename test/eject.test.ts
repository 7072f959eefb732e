/**
 * `eject`: Dynamo documents as the TypeScript of a cdk8s app written with the library's own API.
 * The generator on targeted documents (each construct and prop it writes, and what it refuses),
 * and the round trip: every app compiled under `strict` in one TypeScript program, run, and its
 * synthesized objects compared, as JSON values, with the CLI's graph output of the input.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { kubernetesTypesSource, TYPES_FILE } from '../scripts/generate-kubernetes-types';
import { runCliOn } from './support/cli-in-process';
import { compileApps, objectKey, runApp, synthApp } from './support/eject-roundtrip';
import { readDocuments } from './support/facade';
import { KUBECTL } from './support/kubectl';

const FIXTURES = path.join(__dirname, 'fixtures', 'eject');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');
/** The platform the fixtures need: Grove (GPU memory service, failover) and checkpointing; the apps name it. */
const OPERATOR_FILE = 'orchestrators:\n  grove:\n    enabled: true\ncheckpoint:\n  enabled: true\n';

/** `cdk8s-dynamo eject` of `text` for that platform: the app's code, and the lines of standard error split into problems (exit 1) and notices. */
function eject(text: string): { code: string; problems: readonly string[]; notices: readonly string[] } {
  const r = runCliOn({ 'input.yaml': text, 'operator.yaml': OPERATOR_FILE }, ['eject', '--operator-config', 'operator.yaml', 'input.yaml']);
  const lines = r.stderr.split('\n').filter(line => line !== '').map(line => line.replace(/^input\.yaml: /, ''));
  expect(r.code).toBe(r.stdout === '' ? 1 : 0);
  return r.code === 0 ? { code: r.stdout, problems: [], notices: lines } : { code: '', problems: lines, notices: [] };
}

/** The CLI's graph output of a file, by object. */
function cliGraphOutput(text: string): Map<string, unknown> {
  const r = runCliOn({ 'input.yaml': text, 'operator.yaml': OPERATOR_FILE }, ['render', '--quiet', '--output', 'graph', '--operator-config', 'operator.yaml', 'input.yaml']);
  // the only stderr a valid graph gets: the notice on the MPI SSH key Secret of a multinode graph
  expect(r.stderr.split('\n').filter(line => line !== '' && !line.includes(': the operator copies the MPI SSH key Secret '))).toEqual([]);
  expect(r.code).toBe(0);
  return new Map(readDocuments(r.stdout, 'stdout').map(o => [objectKey(o), o]));
}

const ROUND_TRIPS = ['everything.yaml', 'disagg.yaml', 'checkpoint.yaml', 'rest.yaml'];
/** A restart cannot be set on create (rule 11): this graph is compiled, not rendered. */
const RESTART = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: restarted
spec:
  restart:
    id: "2"
    strategy:
      type: Sequential
      order: [Frontend]
  components:
    - name: Frontend
      type: frontend
`;
const apps = new Map([...ROUND_TRIPS.map(name => [name, eject(fixture(name)).code] as const), ['restart', eject(RESTART).code] as const]);
let compileErrors: Map<string, string[]>;

beforeAll(() => {
  compileErrors = compileApps(apps);
}, 120_000);

describe('round trip: eject, compile under strict, run, compare with the CLI graph output', () => {
  test.each(ROUND_TRIPS)('%s', name => {
    expect(compileErrors.get(name)).toEqual([]);
    const synthesized = new Map(runApp(apps.get(name)!).map(o => [objectKey(o), o]));
    const reference = cliGraphOutput(fixture(name));
    expect([...synthesized.keys()].sort()).toEqual([...reference.keys()].sort());
    for (const [key, object] of reference) expect(synthesized.get(key)).toEqual(object);
  });

  test('a broken app is caught: a wrong prop does not compile', () => {
    const broken = new Map([['broken', apps.get('disagg.yaml')!.replace('gpus: 2', 'gpus: "2"')]]);
    expect(compileApps(broken).get('broken')!.join('\n')).toMatch(/not assignable to type 'number'/);
  });
});

describe('the code written', () => {
  const everything = apps.get('everything.yaml')!;
  const disagg = apps.get('disagg.yaml')!;

  test('a complete app: imports, new App() recording no construct metadata, a chart named after the graph, app.synth()', () => {
    expect(everything.startsWith('import { ApiObject, App, Chart } from "cdk8s";\nimport * as kplus from "cdk8s-plus-34";\n'
      + 'import { BackendFramework, DynamoGraph, Failover, GpuMemoryService, GpuSharingMode, OperatorOptions } from "cdk8s-dynamo";\n\n'
      + '// no construct-metadata.json in dist/, so that `kubectl apply -f dist/` reads only manifests\nconst app = new App({ recordConstructMetadata: false });\nconst operator: OperatorOptions = { groveAvailable: true, checkpointEnabled: true };\n\n'
      + 'const chart = new Chart(app, "everything");\n')).toBe(true);
    expect(everything.endsWith('\n\napp.synth();\n')).toBe(true);
    expect(everything).toContain('const graph = new DynamoGraph(chart, "Graph", {\n  metadata: {\n    name: "everything",\n    namespace: "team-a",');
    expect(everything).toContain('  backendFramework: BackendFramework.VLLM,\n');
  });

  test('one add method per component type; the untyped component with addComponent', () => {
    expect(everything).toMatch(/graph\.addFrontend\("Frontend", \{\n {2}replicas: 2,/);
    expect(everything).toContain('graph.addWorker("VllmWorker", {');
    expect(everything).toContain('graph.addPlanner("Planner", {');
    expect(everything).toContain('graph.addComponent("untyped", {\n  image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0",\n  globalDynamoNamespace: true,\n});');
    expect(disagg).toContain('graph1.addPrefillWorker("prefill", {\n  replicas: 2,\n  image: "nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.4.0",\n  gpus: 2,\n});');
    expect(disagg).toContain('graph1.addMultinodeWorker("decode", {\n  type: ComponentType.DECODE,\n  multinode: {\n    nodeCount: 2,\n'
      + '    roles: [{ name: MultinodeRoleName.LEADER, replicas: 1 }, { name: MultinodeRoleName.WORKER, replicas: 1 }],\n  },');
  });

  test('a component deployment is a ComponentDeployment in a chart of its own', () => {
    expect(disagg).toContain('const chart2 = new Chart(app, "standalone");\nconst deployment2 = new ComponentDeployment(chart2, "Deployment", {\n'
      + '  metadata: { name: "standalone" },\n  operator,\n  backendFramework: BackendFramework.VLLM,\n  type: ComponentType.WORKER,\n  replicas: 1,\n');
    expect(disagg).toContain('const chart1 = new Chart(app, "disagg");\nconst graph1 = new DynamoGraph(chart1, "Graph",');
  });

  test('env as EnvValues; secrets and config maps as references declared once per chart', () => {
    expect(everything.match(/kplus\.Secret\.fromSecretName/g)).toHaveLength(1);
    expect(everything).toContain('const hfTokenSecret = kplus.Secret.fromSecretName(chart, "HfTokenSecret", "hf-token-secret");');
    expect(everything).toContain('const settingsConfigMap = kplus.ConfigMap.fromConfigMapName(chart, "SettingsConfigMap", "settings");');
    expect(everything).toContain('env: {\n    LOG_LEVEL: kplus.EnvValue.fromValue("debug"),\n'
      + '    HF_TOKEN: kplus.EnvValue.fromSecretValue({ secret: hfTokenSecret, key: "token" }),\n  },');
    expect(everything).toContain('POD: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_NAME),');
    expect(everything).toContain('ZONE: kplus.EnvValue.fromFieldRef(kplus.EnvFieldPaths.POD_LABEL, { key: "topology.kubernetes.io/zone" }),');
    expect(everything).toContain('SETTING: kplus.EnvValue.fromConfigMap(settingsConfigMap, "setting", { optional: true }),');
    expect(everything).toContain('MEM: kplus.EnvValue.fromResource(kplus.ResourceFieldPaths.MEMORY_LIMIT, { divisor: "1Mi" }),');
    expect(everything).toContain('envFrom: [kplus.Env.fromConfigMap(settingsConfigMap, "APP_"), kplus.Env.fromSecret(hfTokenSecret)],');
  });

  test('strings through JSON.stringify: quotes, backslashes, newlines, ${...}, backquotes as the language reads them', () => {
    expect(everything).toContain('QUOTE: kplus.EnvValue.fromValue("say \\"hi\\"\\n\\t\\\\ and ${HOME} `x` é"),');
    // every string literal, read back by JavaScript, is the string (line and paragraph separators, lone surrogates too)
    const values = ['say "hi"\n\t\\', '${HOME} `x` \'q\'', '\u2028\u2029', '\ud800 é \u0000', '</script>'];
    // the values as keys and values of the pod template's annotations (written escaped, as YAML reads them)
    const quoted = (v: string): string => JSON.stringify(v).replace(/[\u2028\u2029]/g, c => `\\u${c.charCodeAt(0).toString(16)}`);
    const annotations = values.map(v => `            ${quoted(v)}: ${quoted(v)}\n`).join('');
    const code = eject('apiVersion: nvidia.com/v1beta1\nkind: DynamoGraphDeployment\nmetadata:\n  name: g\nspec:\n  components:\n'
      + `    - name: Frontend\n      type: frontend\n      podTemplate:\n        metadata:\n          annotations:\n${annotations}`
      + '        spec:\n          containers:\n            - name: main\n').code;
    const literal = /annotations: (\{\n[^]*?\n *\}),\n/.exec(code)![1];
    expect(new Function(`return (${literal});`)()).toEqual(Object.fromEntries(values.map(v => [v, v])));
  });

  test('an env entry no EnvValue writes stays in the pod template with those before it; the rest are props', () => {
    expect(everything).toContain('env: { AFTER: kplus.EnvValue.fromValue("1") },');
    expect(everything).toMatch(/ {10}name: "main",\n(.*\n){8} {10}env: \[\{ name: "NO_VALUE" \}\],\n/);
  });

  test('the typed podTemplate holds only what no prop writes, with Quantity and IntOrString', () => {
    expect(everything).toContain('resources: {\n            limits: { memory: kplus.k8s.Quantity.fromString("40Gi") },\n'
      + '            requests: { cpu: kplus.k8s.Quantity.fromNumber(2) },\n          },');
    expect(everything).toContain('readinessProbe: {\n            httpGet: { path: "/health", port: kplus.k8s.IntOrString.fromNumber(9090) },\n'
      + '            periodSeconds: 10,\n          },');
    expect(everything).toContain('tolerations: [{ key: "nvidia.com/gpu", operator: "Exists", effect: "NoSchedule" }],');
    expect(everything).toContain('sharedMemorySize: kplus.k8s.Quantity.fromString("16Gi"),');
    expect(everything).toContain('scalingAdapter: true,');
    // the image of a main container that is not first: the props, and `{ name: "main" }` keeps its place
    expect(everything).toMatch(/graph\.addPlanner\("Planner", \{\n {2}image: "[^"]+",\n {2}podTemplate: \{ spec: \{ containers: \[\{ name: "helper", image: "busybox:1.36" \}, \{ name: "main" \}\] \} \},\n\}\);/);
    // a pod template of the main container alone is written with props only
    expect(disagg).not.toMatch(/graph1\.addFrontend\([^;]*podTemplate/);
  });

  test('the preview features as their classes', () => {
    expect(everything).toContain('experimental: {\n    gpuMemoryService: new GpuMemoryService({ mode: GpuSharingMode.INTRA_POD }),\n'
      + '    failover: new Failover({ mode: GpuSharingMode.INTRA_POD, numShadows: 1 }),\n  },');
    const checkpoint = apps.get('checkpoint.yaml')!;
    expect(checkpoint).toContain('experimental: { checkpoint: CheckpointConfig.restore("snapshot-1") },');
    expect(checkpoint).toContain('checkpoint: CheckpointConfig.automatic({\n      startupPolicy: CheckpointStartupPolicy.WAIT_FOR_CHECKPOINT,\n'
      + '      deletionPolicy: CheckpointDeletionPolicy.RETAIN,\n    }),');
  });

  test('other documents are ApiObjects in the chart of the Dynamo document before which they stand, or the last', () => {
    expect(everything).toContain('new ApiObject(chart, "ConfigMap-settings", {\n  apiVersion: "v1",\n  kind: "ConfigMap",\n'
      + '  metadata: { name: "settings" },\n  data: { setting: "on" },\n});\n\napp.synth();');
  });

  test('the other props: epp with EppConfig, kvTransferPolicy, provider overrides, compilation cache, Grove options, restart', () => {
    const rest = apps.get('rest.yaml')!;
    expect(rest).toContain('const eppConfig = kplus.ConfigMap.fromConfigMapName(chart, "EppConfig", "epp-config");');
    expect(rest).toContain('graph.addEpp("epp", {\n  image: "registry.example/epp:latest",\n'
      + '  eppConfig: EppConfig.fromConfigMap(eppConfig, "config.yaml"),\n  runtimeVersionOverride: "1.4.0",\n});');
    expect(rest).toContain('  kvTransferPolicy: {\n    domain: "zone",\n    labelKey: "topology.kubernetes.io/zone",\n'
      + '    enforcement: KvTransferEnforcement.PREFERRED,\n    preferredWeight: 0.5,\n  },');
    expect(rest).toContain('graph.addFrontend("Frontend", {\n  minAvailable: 1,');
    expect(rest).toContain('  frontendSidecar: "sidecar",\n');
    expect(rest).toContain('  compilationCache: { pvcName: "cache", mountPath: "/cache" },\n');
    expect(rest).toContain('  providerOverride: { apiVersion: "grove.io/v1alpha1", value: { topologyConstraint: { packDomain: "rack" } } },\n');
    expect(rest).toContain('    gpuMemoryService: new GpuMemoryService({ extraClientContainers: ["helper"] }),\n    grove: { forceScalingGroup: true },\n');
    expect(apps.get('restart')).toContain('restart: { id: "2", strategy: RestartStrategyType.SEQUENTIAL, order: ["Frontend"] },');
    expect(compileErrors.get('restart')).toEqual([]);
  });

  test('the same input gives the same code', () => {
    expect(eject(fixture('everything.yaml')).code).toBe(everything);
  });
});

describe('what cannot be ejected: one problem per field, naming the document', () => {
  const graph = (component: string, spec = '') => `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: g
spec:
${spec}  components:
    - ${component}
`;

  test('a field of the pod template the Kubernetes type does not have', () => {
    const r = eject(graph('name: w\n      type: worker\n      podTemplate:\n        spec:\n          containers:\n            - name: main\n              imagee: x'));
    expect(r.problems).toEqual([
      'DynamoGraphDeployment/g: spec.components[0].podTemplate.spec.containers[0].imagee: not a field of the Kubernetes type Container '
      + '(cdk8s-plus-34 k8s.Container); it cannot be ejected',
    ]);
    expect(r.code).toBe('');
  });

  test('a component field no prop writes, a type the library has no method for, a graph without a name', () => {
    expect(eject(graph('name: w\n      type: worker\n      futureField: 1')).problems)
      .toEqual(['DynamoGraphDeployment/g: spec.components[0].futureField: not a field the component props writes; it cannot be ejected']);
    expect(eject(graph('name: w\n      type: main')).problems[0]).toMatch(/spec\.components\[0\]\.type: Unsupported value: "main"/);
    expect(eject(graph('name: w').replace('  name: g\n', '  generateName: g-\n')).problems)
      .toEqual(['DynamoGraphDeployment/(no name): metadata.name: required to eject (without it the construct names the object after its construct path)']);
    expect(eject(graph('name: w\n      experimental:\n        checkpoint:\n          checkpointRef: x')).problems)
      .toEqual(['DynamoGraphDeployment/g: spec.components[0].experimental.checkpoint.enabled: required to eject: CheckpointConfig always writes enabled (true unless given)']);
    expect(eject(graph('name: w\n      multinode:\n        nodeCount: 2')).problems[0]).toMatch(/spec\.components\[0\]\.type: required to eject a multinode component/);
  });

  test('a file without a Dynamo document', () => {
    expect(eject('apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n').problems)
      .toEqual(['no nvidia.com/v1beta1 DynamoGraphDeployment or DynamoComponentDeployment to eject']);
  });

  test('the status of an object read from the cluster is left out, and said so', () => {
    const r = eject(`${graph('name: w\n      type: frontend')}status:\n  state: successful\n`);
    expect(r.problems).toEqual([]);
    expect(r.notices).toEqual(['DynamoGraphDeployment/g: status: left out (the API server sets it; a manifest\'s status is ignored)']);
    expect(r.code).not.toContain('successful');
  });
});

describe('the project files of --out', () => {
  const README = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');

  /** The files `eject --out` writes for the disaggregated fixture, by name. */
  const projectFiles = (): Map<string, string> => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eject-project-'));
    try {
      expect(runCliOn({ 'g.yaml': fixture('disagg.yaml') }, ['eject', '--grove', '--out', path.join(dir, 'app'), 'g.yaml']).code).toBe(0);
      return new Map(fs.readdirSync(path.join(dir, 'app')).map(f => [f, fs.readFileSync(path.join(dir, 'app', f), 'utf8')]));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const files = projectFiles();
  const VERSION = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version;

  test('package.json: the library at its version, the peers and dev dependencies of the README quick start', () => {
    const pkg = JSON.parse(files.get('package.json')!);
    expect(pkg.dependencies).toEqual({ 'cdk8s-dynamo': VERSION, 'cdk8s': '^2.68.12', 'cdk8s-plus-34': '^2.0.20', 'constructs': '^10.3.0' });
    for (const [name, version] of Object.entries(pkg.dependencies as Record<string, string>).filter(([dependency]) => dependency !== 'cdk8s-dynamo')) {
      expect(README).toContain(`\`${name}\` ${version.slice(1)}`);
    }
    expect(README).toContain('npm install --save-dev cdk8s-cli typescript@6 ts-node@10 @types/node@20');
    expect(pkg.devDependencies).toEqual({ '@types/node': '^20', 'cdk8s-cli': '^2', 'ts-node': '^10', 'typescript': '^6' });
    // the CLI is the project's own: no look for a newer global one (a stack trace offline)
    expect(pkg.scripts).toEqual({ synth: 'cdk8s synth --no-check-upgrade' });
  });

  test('tsconfig.json: the TypeScript of the dev dependencies (6) accepts its options', () => {
    const text = files.get('tsconfig.json')!;
    expect(ts.versionMajorMinor.split('.')[0]).toBe(JSON.parse(files.get('package.json')!).devDependencies.typescript.replace('^', ''));
    const problems = (compilerOptions: object) => {
      const parsed = ts.convertCompilerOptionsFromJson(compilerOptions, os.tmpdir());
      const program = ts.createProgram({ rootNames: [], options: parsed.options });
      return [...parsed.errors, ...program.getOptionsDiagnostics()].map(d => `TS${d.code}`);
    };
    const { compilerOptions } = JSON.parse(text);
    expect(problems(compilerOptions)).toEqual([]);
    // the check can fail: without ignoreDeprecations, TypeScript 6 refuses moduleResolution node
    const { ignoreDeprecations, ...rest } = compilerOptions;
    expect(ignoreDeprecations).toBe('6.0');
    expect(problems(rest)).toEqual(['TS5107']);
  });

  test('tsconfig.json is the strict one of the quick start; cdk8s.yaml runs main.ts with the validation plugin', () => {
    expect(JSON.parse(files.get('tsconfig.json')!)).toEqual({
      compilerOptions: {
        target: 'ES2022', module: 'commonjs', moduleResolution: 'node', strict: true, esModuleInterop: true, skipLibCheck: true, ignoreDeprecations: '6.0',
      },
      include: ['main.ts'],
    });
    expect(README).toContain('"target": "ES2022", "module": "commonjs", "moduleResolution": "node", "strict": true,');
    const version = VERSION.replace(/\./g, '\\.');
    expect(files.get('cdk8s.yaml')).toMatch(new RegExp(`^language: typescript\napp: npx ts-node main.ts\nvalidations:.*\n {2}- package: \\./node_modules/cdk8s-dynamo\n {4}version: ${version}\n {4}class: DynamoValidationPlugin\n$`));
  });
});

describe('`kubectl apply -f dist/` reads the output of the ejected project', () => {
  /**
   * The files the app writes when `cdk8s synth` runs it as the project's cdk8s.yaml says (the
   * validation plugin listed, so the CLI asks for construct metadata), and kubectl's reading of the
   * folder: `kubectl annotate --local -f DIR` visits the .json, .yaml and .yml files of DIR and
   * decodes each as `kubectl apply -f DIR` does, without a cluster.
   */
  function synthesized(code: string): { files: string[]; kubectl?: { status: number | null; stdout: string; stderr: string } } {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'eject-dist-'));
    try {
      synthApp(code, dir, { CDK8S_RECORD_CONSTRUCT_METADATA: 'true' });
      const files = fs.readdirSync(dir).sort();
      if (!KUBECTL) return { files };
      const r = spawnSync(KUBECTL, ['annotate', '--local', '-f', dir, 'read.test/x=y', '-o', 'name'], { encoding: 'utf8' });
      return { files, kubectl: { status: r.status, stdout: r.stdout, stderr: r.stderr.split(dir).join('dist') } };
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test('no construct-metadata.json, every file a manifest kubectl reads', () => {
    const r = synthesized(apps.get('disagg.yaml')!);
    expect(r.files).toEqual(['disagg.k8s.yaml', 'standalone.k8s.yaml']);
    if (!KUBECTL) return;
    expect(r.kubectl).toMatchObject({ status: 0, stderr: '' });
    expect(r.kubectl!.stdout).toContain('dynamographdeployment.nvidia.com/disagg\n');
  });

  test('the check can fail: an app recording construct metadata makes kubectl refuse the folder', () => {
    const r = synthesized(apps.get('disagg.yaml')!.replace('new App({ recordConstructMetadata: false })', 'new App()'));
    expect(r.files).toContain('construct-metadata.json');
    if (!KUBECTL) return;
    expect(r.kubectl!.status).not.toBe(0);
    expect(r.kubectl!.stderr).toContain('unable to decode "dist/construct-metadata.json"');
  });
});

test('the table of Kubernetes types is the one cdk8s-plus-34 gives (scripts/generate-kubernetes-types.ts)', () => {
  expect(fs.readFileSync(TYPES_FILE, 'utf8')).toBe(kubernetesTypesSource());
});

describe('the command line', () => {
  test('the example of docs/commands.md: its YAML ejects to the code it shows', () => {
    const guide = fs.readFileSync(path.join(__dirname, '..', 'docs', 'commands.md'), 'utf8');
    const section = guide.slice(guide.indexOf('\n## Eject to code: `eject`\n'), guide.indexOf('\n### In Python, Java or Go'));
    const yaml = /```yaml\n([^]*?)```/.exec(section)![1];
    const code = /```ts\n([^]*?)```/.exec(section)![1];
    expect(runCliOn({ 'graph.yaml': yaml }, ['eject', 'graph.yaml'])).toEqual({ code: 0, stdout: code, stderr: '' });
    expect(compileApps(new Map([['readme', code]])).get('readme')).toEqual([]);
    // the second example: the start of the same graph ejected for an operator with Grove and checkpointing
    const withOperator = /```ts\n[^]*?```[^]*?```ts\n([^]*?)```/.exec(section)![1];
    const ejected = runCliOn({ 'graph.yaml': yaml, 'operator.yaml': 'checkpoint:\n  enabled: true\n' },
      ['eject', '--grove', '--operator-config', 'operator.yaml', 'graph.yaml']);
    expect(ejected.code).toBe(0);
    expect(ejected.stdout).toContain(withOperator);
  });

  test('help: the synopsis in the program help and the command help', () => {
    const programHelp = runCliOn({}, ['--help']);
    expect(programHelp.code).toBe(0);
    expect(programHelp.stdout).toContain('  cdk8s-dynamo eject [--language typescript|python|java|go] [--out DIR [--force] [--package-source PATH]] [OPERATOR...] FILE\n');
    expect(programHelp.stdout).toMatch(/\n {2}eject {6}write Dynamo documents as a cdk8s app \(TypeScript, Python, Java, Go\)/);
    const help = runCliOn({}, ['eject', '--help']);
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^usage: cdk8s-dynamo eject \[--language typescript\|python\|java\|go\] \[--out DIR \[--force\] \[--package-source PATH\]\] \[OPERATOR\.\.\.\] FILE\n/);
    expect(help.stdout).toContain('  --language L ');
  });

  test('the OPERATOR options that differ from a default install are written once and named by every graph', () => {
    const r = runCliOn({ 'g.yaml': fixture('disagg.yaml') }, ['eject', '--grove', '--lws', 'g.yaml']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    // --lws is the default: only Grove is written
    expect(r.stdout).toContain('// no construct-metadata.json in dist/, so that `kubectl apply -f dist/` reads only manifests\nconst app = new App({ recordConstructMetadata: false });\nconst operator: OperatorOptions = { groveAvailable: true };\n');
    expect(r.stdout).toMatch(/^import \{ [^}]*OperatorOptions[^}]* \} from "cdk8s-dynamo";$/m);
    expect(r.stdout).toContain('const graph1 = new DynamoGraph(chart1, "Graph", {\n  metadata: { name: "disagg" },\n  operator,\n');
    expect(r.stdout).toContain('const deployment2 = new ComponentDeployment(chart2, "Deployment", {\n  metadata: { name: "standalone" },\n  operator,\n');
  });

  test('without OPERATOR options, or with only defaults, the app names no operator', () => {
    for (const argv of [['eject', 'g.yaml'], ['eject', '--no-grove', 'g.yaml']]) {
      const r = runCliOn({ 'g.yaml': fixture('disagg.yaml') }, argv);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('operator');
    }
  });

  test('an operator configuration the operator would refuse: exit 1, nothing written', () => {
    const r = runCliOn({ 'g.yaml': fixture('disagg.yaml'), 'op.yaml': 'operatorVersion: banana\n' }, ['eject', '--operator-config', 'op.yaml', 'g.yaml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/op\.yaml|operatorVersion|version/);
  });
});
