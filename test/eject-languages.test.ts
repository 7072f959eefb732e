/**
 * `eject --language python|java|go`: the same program as the TypeScript one (src/eject/code.ts),
 * printed with each language's names (jsii's: Python snake_case keyword arguments and struct
 * classes, Java builders, Go `New...` constructors, pointers and `Type_Method`). The apps are run and
 * compared with their input by scripts/eject-roundtrip.ts (`npx projen eject:roundtrip`), which
 * needs the built packages; these tests check the code written.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runCliOn } from './support/cli-in-process';
import { snakeCase } from '../src/eject';

const FIXTURES = path.join(__dirname, 'fixtures', 'eject');
/** The platform the fixtures need: Grove (GPU memory service, failover) and checkpointing. */
const OPERATOR_FILE = 'orchestrators:\n  grove:\n    enabled: true\ncheckpoint:\n  enabled: true\n';

type EjectLanguage = 'typescript' | 'python' | 'java' | 'go';

/** `cdk8s-dynamo eject --language L` of a fixture for that platform: the app's code. */
function eject(file: string, language: EjectLanguage): string {
  const text = fs.readFileSync(path.join(FIXTURES, file), 'utf8');
  const r = runCliOn({ [file]: text, 'operator.yaml': OPERATOR_FILE }, ['eject', '--language', language, '--operator-config', 'operator.yaml', file]);
  expect(r.code).toBe(0);
  return r.stdout;
}

describe('python', () => {
  const everything = eject('everything.yaml', 'python');

  test('imports, App(), a chart per document, app.synth()', () => {
    expect(everything).toMatch(/^from cdk8s import ApiObject, ApiObjectMetadata, App, Chart, JsonPatch\nimport cdk8s_plus_34 as kplus\nfrom cdk8s_dynamo import \(\n/);
    expect(everything).toContain('\napp = App()\noperator = OperatorOptions(grove_available=True, checkpoint_enabled=True)\n\nchart = Chart(app, "everything")\n');
    expect(everything.endsWith('\napp.synth()\n')).toBe(true);
  });

  test('props as snake_case keyword arguments, structs as their classes, maps as dicts in input order', () => {
    expect(everything).toContain('graph = DynamoGraph(\n    chart,\n    "Graph",\n    metadata=ApiObjectMetadata(\n        name="everything",\n');
    expect(everything).toContain('    backend_framework=BackendFramework.VLLM,\n    env={\n        "LOG_LEVEL": kplus.EnvValue.from_value("debug"),\n');
    expect(everything).toContain('kplus.EnvValue.from_secret_value(\n            kplus.SecretValue(secret=hf_token_secret, key="token"),\n        ),');
    expect(everything).toContain('"SETTING": kplus.EnvValue.from_config_map(settings_config_map, "setting", optional=True),');
    expect(everything).toContain('    env_from=[\n        kplus.Env.from_config_map(settings_config_map, "APP_"),\n        kplus.Env.from_secret(hf_token_secret),\n    ],');
    expect(everything).toContain('graph.add_worker(\n    "VllmWorker",\n');
    expect(everything).toContain('    pod_template=kplus.k8s.PodTemplateSpec(\n');
    expect(everything).toContain('limits={"memory": kplus.k8s.Quantity.from_string("40Gi")},');
    expect(everything).toContain('readiness_probe=kplus.k8s.Probe(');
    expect(everything).toContain('    scaling_adapter=True,\n');
    expect(everything).toContain('gpu_memory_service=GpuMemoryService(mode=GpuSharingMode.INTRA_POD),');
  });

  test('another document is an ApiObject of apiVersion, kind and metadata, the rest added as JSON patches', () => {
    expect(everything).toContain('api_object = ApiObject(\n    chart,\n    "ConfigMap-settings",\n    api_version="v1",\n    kind="ConfigMap",\n'
      + '    metadata=ApiObjectMetadata(name="settings"),\n)\napi_object.add_json_patch(JsonPatch.add("/data", {"setting": "on"}))\n');
  });

  test('the preview features and checkpoints: restore(name, keyword arguments)', () => {
    expect(eject('checkpoint.yaml', 'python')).toMatch(/checkpoint=CheckpointConfig\.(restore\("[^"]+",|automatic\()/);
  });

  test('names as jsii writes them in Python: snake_case, a keyword with _ after it', () => {
    expect(['backendFramework', 'hostIpc', 'jobGmsClientContainers', 'fromSecretName', 'volumeId', 'hfTokenSecret', 'chart2', 'from', 'lambda', 'fieldsV1'].map(snakeCase))
      .toEqual(['backend_framework', 'host_ipc', 'job_gms_client_containers', 'from_secret_name', 'volume_id', 'hf_token_secret', 'chart2', 'from_', 'lambda_', 'fields_v1']);
  });
});

describe('java', () => {
  const everything = eject('everything.yaml', 'java');

  test('a class Main whose main builds the app; imports by simple name, sorted', () => {
    expect(everything).toMatch(/^import io\.github\.cdk8s_dynamo\.BackendFramework;\n/);
    expect(everything).toContain('import org.cdk8s.plus34.EnvValue;\nimport org.cdk8s.plus34.EnvValueFromConfigMapOptions;\n');
    expect(everything).toContain('import org.cdk8s.plus34.k8s.Container;\n');
    expect(everything).toContain('\npublic class Main {\n    public static void main(final String[] args) {\n        App app = new App();\n');
    expect(everything).toContain('        app.synth();\n    }\n');
  });

  test('structs built with builders, constructs with new, lists with List.of, maps that keep their order', () => {
    expect(everything).toContain('        OperatorOptions operator = OperatorOptions.builder().groveAvailable(true).checkpointEnabled(true).build();\n');
    expect(everything).toContain('        DynamoGraph graph = new DynamoGraph(chart, "Graph", DynamoGraphProps.builder()\n                .metadata(ApiObjectMetadata.builder()\n');
    expect(everything).toContain('        var hfTokenSecret = Secret.fromSecretName(chart, "HfTokenSecret", "hf-token-secret");\n');
    expect(everything).toContain('        graph.addFrontend("Frontend", ComponentOptions.builder()\n                .replicas(2)\n');
    expect(everything).toContain('.envFrom(List.of(Env.fromConfigMap(settingsConfigMap, "APP_"), Env.fromSecret(hfTokenSecret)))');
    expect(everything).toContain('.env(map(\n                    Map.entry("LOG_LEVEL", EnvValue.fromValue("debug")),\n');
    expect(everything).toContain('.limits(map(Map.entry("memory", Quantity.fromString("40Gi"))))');
    expect(everything).toContain('    static <V> Map<String, V> map(final Map.Entry<String, ? extends V>... entries) {\n        final Map<String, V> map = new LinkedHashMap<>();\n');
    expect(everything).toContain('        apiObject.addJsonPatch(JsonPatch.add("/data", map(Map.entry("setting", "on"))));\n');
  });
});

describe('go', () => {
  const everything = eject('everything.yaml', 'go');
  const disagg = eject('disagg.yaml', 'go');

  test('package main, the imports it uses, main() closing the jsii kernel', () => {
    expect(everything).toMatch(/^package main\n\nimport \(\n\t"github\.com\/aws\/jsii-runtime-go"\n\t"github\.com\/cdk8s-dynamo\/cdk8s-dynamo-go\/cdk8sdynamo"\n/);
    expect(everything).toContain('\t"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2"\n\t"github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2/k8s"\n)\n');
    expect(everything).toContain('func main() {\n\tdefer jsii.Close()\n\n\tapp := cdk8s.NewApp(nil)\n');
    expect(everything.endsWith('\tapp.Synth()\n}\n')).toBe(true);
    expect(disagg).not.toContain('cdk8splus34/v2/k8s"');
  });

  test('New... constructors, &Props{...} structs, jsii pointers, Type_Method, nil for an optional argument left out', () => {
    expect(everything).toContain('\tchart := cdk8s.NewChart(app, jsii.String("everything"), nil)\n');
    expect(everything).toContain('\tgraph := cdk8sdynamo.NewDynamoGraph(chart, jsii.String("Graph"), &cdk8sdynamo.DynamoGraphProps{\n');
    expect(everything).toContain('\t\tBackendFramework: cdk8sdynamo.BackendFramework_VLLM,\n');
    expect(everything).toContain('\t\tLabels: &map[string]*string{"tier": jsii.String("gpu")},\n');
    expect(everything).toContain('\t\tReplicas: jsii.Number(2),\n');
    expect(everything).toContain('"MEM": cdk8splus34.EnvValue_FromResource(\n\t\t\t\tcdk8splus34.ResourceFieldPaths_MEMORY_LIMIT,\n');
    expect(everything).toContain('\t\tCommand: jsii.Strings("python3", "-m", "dynamo.vllm"),\n');
    expect(everything).toContain('\t\tEnvFrom: &[]cdk8splus34.EnvFrom{\n');
    expect(everything).toContain('Limits: &map[string]k8s.Quantity{');
    expect(everything).toContain('\tapiObject.AddJsonPatch(cdk8s.JsonPatch_Add(jsii.String("/data"), map[string]interface{}{"setting": "on"}))\n');
  });

  test('Go maps have no order: several graph env variables are added one by one, a component keeps all but the last in its pod template', () => {
    expect(everything).toContain('\tgraph.AddEnv(jsii.String("LOG_LEVEL"), cdk8splus34.EnvValue_FromValue(jsii.String("debug")))\n\tgraph.AddEnv(jsii.String("HF_TOKEN"), ');
    expect(everything).not.toMatch(/Env: &map\[string\]cdk8splus34\.EnvValue\{\n[^}]*\n[^}]*"[A-Z_]+": [^}]*\n[^}]*"[A-Z_]+": /);
    expect(everything).toContain('\t\tEnv: &map[string]cdk8splus34.EnvValue{\n\t\t\t"MEM": ');
    expect(everything).toContain('Env: &[]*k8s.EnvVar{');
  });

  test('a variable nothing reads is not declared (Go refuses it)', () => {
    expect(disagg).toContain('\tcdk8sdynamo.NewComponentDeployment(chart2, jsii.String("Deployment"), &cdk8sdynamo.ComponentDeploymentProps{\n');
    expect(disagg).not.toContain('deployment2 :=');
  });
});

describe('the command line', () => {
  const graph = fs.readFileSync(path.join(__dirname, 'fixtures', 'cli', 'graph.yaml'), 'utf8');

  test('--language picks the language; TypeScript without it', () => {
    const ts = runCliOn({ 'g.yaml': graph }, ['eject', 'g.yaml']);
    expect(runCliOn({ 'g.yaml': graph }, ['eject', '--language', 'typescript', 'g.yaml'])).toEqual(ts);
    const py = runCliOn({ 'g.yaml': graph }, ['eject', '--language', 'python', 'g.yaml']);
    expect(py).toEqual({ code: 0, stderr: '', stdout: expect.stringContaining('graph.add_decode_worker("decode", image="nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0")\n') });
    expect(runCliOn({ 'g.yaml': graph }, ['eject', '--language', 'java', 'g.yaml']).stdout).toContain('public class Main {');
    expect(runCliOn({ 'g.yaml': graph }, ['eject', '--language', 'go', 'g.yaml']).stdout).toMatch(/^package main\n/);
  });

  test('the example of docs/commands.md: its YAML ejects to the Python it shows', () => {
    const guide = fs.readFileSync(path.join(__dirname, '..', 'docs', 'commands.md'), 'utf8');
    const section = guide.slice(guide.indexOf('\n## Eject to code: `eject`\n'), guide.indexOf('\n## Explain a graph'));
    const yaml = /```yaml\n([^]*?)```/.exec(section)![1];
    const python = /```python\n([^]*?)```/.exec(section)![1];
    expect(runCliOn({ 'graph.yaml': yaml }, ['eject', '--language', 'python', 'graph.yaml'])).toEqual({ code: 0, stdout: python, stderr: '' });
  });

  test('an unknown language, or --language twice, is a usage error', () => {
    const r = runCliOn({ 'g.yaml': graph }, ['eject', '--language', 'rust', 'g.yaml']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--language must be one of typescript, python, java, go, got "rust"');
    expect(runCliOn({ 'g.yaml': graph }, ['eject', '--language', 'go', '--language', 'java', 'g.yaml']).code).toBe(2);
  });

  test('what cannot be ejected is refused in every language with the same problems', () => {
    const bad = graph.replace('type: decode', 'type: main');
    const outcomes = (['typescript', 'python', 'java', 'go'] as const).map(l => runCliOn({ 'g.yaml': bad }, ['eject', '--language', l, 'g.yaml']));
    for (const r of outcomes) expect(r).toEqual(outcomes[0]);
    expect(outcomes[0].code).toBe(1);
  });
});

describe('the project files of --out', () => {
  const VERSION: string = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).version;
  const GRAPH = fs.readFileSync(path.join(__dirname, 'fixtures', 'cli', 'graph.yaml'), 'utf8').replace(/^( {2}name: ).*$/m, '$1llm');
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'eject-languages-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  let projects = 0;
  /** The files `eject --language L --out DIR [--package-source PATH]` writes for a graph named llm, but the app's code (PATH relative to DIR's parent folder). */
  function languageProjectFiles(language: EjectLanguage, source?: string): { name: string; text: string }[] {
    const dir = path.join(root, `p${projects++}`);
    const out = path.join(dir, 'app');
    const args = ['eject', '--language', language, '--out', out];
    if (source !== undefined) {
      fs.mkdirSync(path.join(dir, source), { recursive: true });
      args.push('--package-source', path.join(dir, source));
    }
    expect(runCliOn({ 'g.yaml': GRAPH }, [...args, 'g.yaml'])).toEqual({ code: 0, stdout: '', stderr: '' });
    const main = { typescript: 'main.ts', python: 'main.py', java: 'Main.java', go: 'main.go' }[language];
    return fs.readdirSync(out).filter(name => name !== main && fs.statSync(path.join(out, name)).isFile()).map(name => ({ name, text: fs.readFileSync(path.join(out, name), 'utf8') }));
  }

  test('python: requirements.txt with the library (it brings its peers), cdk8s.yaml running main.py', () => {
    const files = new Map(languageProjectFiles('python').map(f => [f.name, f.text]));
    expect([...files.keys()].sort()).toEqual(['README.md', 'cdk8s.yaml', 'requirements.txt']);
    expect(files.get('requirements.txt')).toBe(`cdk8s-dynamo==${VERSION}\n`);
    expect(files.get('cdk8s.yaml')).toBe('language: python\napp: python main.py\n');
  });

  test('java: a pom.xml with the library, Main.java beside it, the exec plugin running Main; cdk8s.yaml', () => {
    const files = new Map(languageProjectFiles('java').map(f => [f.name, f.text]));
    const pom = files.get('pom.xml')!;
    expect(pom).toContain('<artifactId>llm</artifactId>');
    expect(pom).toContain(`<groupId>io.github.cdk8s-dynamo</groupId>\n      <artifactId>cdk8s-dynamo</artifactId>\n      <version>${VERSION}</version>`);
    expect(pom).toContain('<sourceDirectory>${project.basedir}</sourceDirectory>');
    expect(pom).toContain('<mainClass>Main</mainClass>');
    expect(files.get('cdk8s.yaml')).toBe('language: java\napp: mvn -e -q compile exec:java\n');
  });

  /** A local build beside the project folder (`../cdk8s-dynamo/dist/BUILD` from it). */
  const SOURCE = 'cdk8s-dynamo/dist/BUILD';
  /** Its file URL, in the temporary folder of the project. */
  const URL = 'file:///[^ <\n]*/p\\d+/cdk8s-dynamo/dist/BUILD';
  const fileOf = (language: EjectLanguage, name: string, source?: string) =>
    languageProjectFiles(language, source).find(f => f.name === name)!.text;

  test('--package-source: each language\'s project names the local build instead of the registry release', () => {
    expect(JSON.parse(fileOf('typescript', 'package.json', SOURCE)).dependencies['cdk8s-dynamo']).toBe('file:../cdk8s-dynamo/dist/BUILD');
    expect(fileOf('python', 'requirements.txt', SOURCE)).toMatch(new RegExp(`^cdk8s-dynamo @ ${URL}\n$`));
    const pom = fileOf('java', 'pom.xml', SOURCE);
    expect(pom).toContain(`<artifactId>cdk8s-dynamo</artifactId>\n      <version>${VERSION}</version>`);
    expect(pom).toMatch(new RegExp('  <repositories>\n    <!-- the local build of cdk8s-dynamo \\(a Maven repository folder\\) -->\n    <repository>\n'
      + `      <id>cdk8s-dynamo-local</id>\n      <url>${URL}</url>\n    </repository>\n  </repositories>\n`));
    expect(fileOf('java', 'pom.xml')).not.toContain('<repositories>');
    expect(fileOf('go', 'go.mod', SOURCE)).toBe(`module llm\n\ngo 1.23\n\nrequire github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo v${VERSION}\n\n`
      + 'replace github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo => ../cdk8s-dynamo/dist/BUILD\n');
    // a build inside the project folder: a Go replace path starts with ./
    expect(fileOf('go', 'go.mod', 'app/vendor/BUILD')).toContain(' => ./vendor/BUILD\n');
  });

  test.each([
    ['typescript', 'package.json', 'npm', 'package:js', `dist/js/cdk8s-dynamo-${VERSION}.tgz`, 'npm install\nnpm run synth'],
    ['python', 'requirements.txt', 'PyPI', 'package:python', `dist/python/cdk8s_dynamo-${VERSION}-py3-none-any.whl`, 'pip install -r requirements.txt\ncdk8s synth'],
    ['java', 'pom.xml', 'Maven Central', 'package:java', 'dist/java', 'mvn -q compile\ncdk8s synth'],
    ['go', 'go.mod', 'the Go module proxy', 'package:go', 'dist/go/cdk8sdynamo', 'go mod tidy\ncdk8s synth'],
  ] as const)('README.md (%s): how to run the app, where the library comes from, how to use a local build until it is published', (language, file, registry, task, build, commands) => {
    const readme = fileOf(language, 'README.md');
    expect(readme).toMatch(/^# llm\n/);
    expect(readme).toContain(commands);
    expect(readme).toContain('kubectl apply -f dist/\n');
    expect(readme).toContain(`\n${file} takes cdk8s-dynamo ${VERSION} from ${registry}.\n`);
    expect(readme).toContain(`Until cdk8s-dynamo ${VERSION} is published on ${registry}, use a local build`);
    expect(readme).toContain(`\`npx projen compile && npx projen package:${task.split(':')[1]}\` writes \`${build}\``);
    expect(readme).toContain('eject again with `--package-source PATH`');
    // first contact: the cdk8s CLI's upgrade check offline, and jsii's banner on Node 20
    expect(readme).toMatch(language === 'typescript' ? /`npm run synth` is `cdk8s synth --no-check-upgrade`/ : /add `--no-check-upgrade` \(or set `CDK8S_CHECK_UPGRADE=false`\)/);
    if (language !== 'typescript') expect(readme).toContain('`JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20` silences it.');
    const local = fileOf(language, 'README.md', SOURCE);
    expect(local).toMatch(new RegExp(`\n${file.replace('.', '\\.')} takes cdk8s-dynamo from a local build: \`${language === 'python' || language === 'java' ? URL : '\\.\\./cdk8s-dynamo/dist/BUILD'}\`\\.\n`));
  });

  test('go: go.mod requiring the library module; cdk8s.yaml running go run .', () => {
    const files = new Map(languageProjectFiles('go').map(f => [f.name, f.text]));
    expect(files.get('go.mod')).toBe(`module llm\n\ngo 1.23\n\nrequire github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo v${VERSION}\n`);
    expect(files.get('cdk8s.yaml')).toBe('language: go\napp: go run .\n');
  });
});
