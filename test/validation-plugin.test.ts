import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DynamoValidationPlugin, IValidationContext, ValidationViolation } from '../src';

const REPO = path.resolve(__dirname, '..');
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

/** A context like the cdk8s CLI's, recording what the plugin reports. */
class FakeContext implements IValidationContext {
  public readonly violations: ValidationViolation[] = [];
  public status?: string;
  public metadata?: { [key: string]: string };
  public readonly logged: string[] = [];
  public readonly report = {
    addViolation: (v: ValidationViolation) => {
      if (this.status !== undefined) throw new Error('violation added after submit');
      this.violations.push(v);
    },
    submit: (status: string, metadata?: { [key: string]: string }) => {
      this.status = status;
      this.metadata = metadata;
    },
  };
  public readonly logger = { log: (m: string) => this.logged.push(m) };
  constructor(public readonly manifests: string[]) {}
}

let tmp: string;
beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamo-plugin-'));
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function manifest(name: string, yamlText: string): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, yamlText);
  return file;
}

function graphYaml(name: string, extra: { replicas?: number; workerImage?: string; annotations?: string } = {}): string {
  return `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: ${name}
${extra.annotations ?? ''}spec:
  backendFramework: vllm
  components:
    - name: Frontend
      type: frontend
${extra.replicas === undefined ? '' : `      replicas: ${extra.replicas}\n`}      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
    - name: Worker
      type: worker
      podTemplate:
        spec:
          containers:
            - name: main
${extra.workerImage === undefined ? '' : `              image: ${extra.workerImage}\n`}`;
}

const SERVICE_YAML = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: other\nspec:\n  ports: [{ port: 80 }]\n';
/** An object of a kind the library has no schema of: skipped, whatever it holds. */
const UNKNOWN_KIND_YAML = 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: other\nspec:\n  ports: [{ port: -5 }]\n';

describe('cdk8s validation plugin: report of a valid app', () => {
  test('valid graphs and other kinds: success, no entries, counts in the summary', async () => {
    const ctx = new FakeContext([
      manifest('a.k8s.yaml', `${graphYaml('good', { workerImage: IMAGE })}---\n${SERVICE_YAML}---\n${UNKNOWN_KIND_YAML}`),
    ]);
    await new DynamoValidationPlugin().validate(ctx);
    expect(ctx.violations).toEqual([]);
    expect(ctx.status).toBe('success');
    expect(ctx.metadata).toEqual({
      'Dynamo objects': '1', 'Other objects checked': '1', 'Violations': '0', 'Operator version': '1.5.0', 'Grove': 'not available',
    });
  });
});

describe('cdk8s validation plugin: violations (rows 46, 59)', () => {
  test('one entry per violation naming the rule, object, field path, message and manifest', async () => {
    const file = manifest('bad.k8s.yaml', graphYaml('bad', { replicas: -1 }));
    const ctx = new FakeContext([file]);
    await new DynamoValidationPlugin().validate(ctx);
    expect(ctx.status).toBe('failure');
    expect(ctx.violations).toEqual([
      {
        ruleName: 'dynamo-admission/rule-59',
        recommendation: 'DynamoGraphDeployment/bad: spec.components[0].replicas (component "Frontend"): Invalid value: -1: should be greater than or equal to 0',
        fix: 'Change spec.components[0].replicas (component "Frontend") of DynamoGraphDeployment/bad, which the cluster would reject on create. '
          + 'Rule 59 (Replicas not negative): Use a count of 0 or more. See node_modules/cdk8s-dynamo/docs/admission-rules.md#rule-59.',
        violatingResources: [{ resourceName: 'bad', locations: ['spec.components[0].replicas'], manifestPath: file }],
      },
      {
        ruleName: 'dynamo-admission/rule-46',
        recommendation: expect.stringMatching(/^DynamoGraphDeployment\/bad: spec\.components\[1\]\.podTemplate\.spec\.containers\[0\]\.image \(component "Worker"\): Required value/),
        fix: expect.stringMatching(/^Change .*\. Rule 46 \(Main container with an image\): Add a `main` container .* See node_modules\/cdk8s-dynamo\/docs\/admission-rules\.md#rule-46\.$/),
        violatingResources: [{ resourceName: 'bad', locations: ['spec.components[1].podTemplate.spec.containers[0].image'], manifestPath: file }],
      },
    ]);
    expect(ctx.metadata?.Violations).toBe('2');
  });

  test('other objects get the API server\'s checks: a Secret key, an env var name; no Secret value in the report', async () => {
    const secret = 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: hf\nstringData:\n  "bad key!": hunter2-secret\n';
    const deployment = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n  selector: { matchLabels: { app: d } }\n'
      + '  template:\n    metadata: { labels: { app: d } }\n    spec:\n      containers:\n        - { name: main, image: busybox, env: [{ name: "A=B", value: "1" }] }\n';
    const ctx = new FakeContext([manifest('o.k8s.yaml', `${secret}---\n${deployment}`)]);
    await new DynamoValidationPlugin().validate(ctx);
    expect(ctx.status).toBe('failure');
    expect(ctx.violations.map(v => [v.ruleName, v.recommendation])).toEqual([
      ['dynamo-admission/rule-apiserver', expect.stringMatching(/^Secret\/hf: stringData\[bad key!\]: Invalid value: "bad key!": a valid config key must consist of alphanumeric characters/)],
      ['dynamo-admission/rule-apiserver', 'Deployment/d: spec.template.spec.containers[0].env[0].name: Invalid value: "A=B": '
        + "a valid environment variable name must consist only of printable ASCII characters other than '='"],
    ]);
    expect(JSON.stringify(ctx.violations)).not.toContain('hunter2');
  });

  test('a structural error is reported under the schema rule', async () => {
    const ctx = new FakeContext([manifest('s.k8s.yaml', graphYaml('typed', { workerImage: IMAGE }).replace('backendFramework: vllm', 'backendFramework: vllm\n  bogusField: 1'))]);
    await new DynamoValidationPlugin().validate(ctx);
    expect(ctx.violations.map(v => v.ruleName)).toEqual(['dynamo-admission/rule-schema']);
    expect(ctx.violations[0].fix).toContain('Rule schema (Object fits its schema): ');
    expect(ctx.violations[0].fix).toContain('#rule-schema');
    expect(ctx.violations[0].fix).not.toContain('validation-rules');
    expect(ctx.violations[0].violatingResources[0].locations).toEqual(['spec.bogusField']);
  });

  test('standalone DynamoComponentDeployments are validated too', async () => {
    const dcd = 'apiVersion: nvidia.com/v1beta1\nkind: DynamoComponentDeployment\nmetadata:\n  name: dcd\nspec:\n  type: worker\n  replicas: -2\n'
      + `  podTemplate:\n    spec:\n      containers:\n        - name: main\n          image: ${IMAGE}\n`;
    const ctx = new FakeContext([manifest('d.k8s.yaml', dcd)]);
    await new DynamoValidationPlugin().validate(ctx);
    expect(ctx.violations.map(v => [v.ruleName, v.violatingResources[0].locations[0]])).toEqual([['dynamo-admission/rule-59', 'spec.replicas']]);
    expect(ctx.status).toBe('failure');
  });

  test('an unreadable manifest fails the report', async () => {
    const missing = path.join(tmp, 'missing.yaml');
    const ctx = new FakeContext([missing]);
    await new DynamoValidationPlugin().validate(ctx);
    expect(ctx.status).toBe('failure');
    expect(ctx.violations[0].ruleName).toBe('dynamo-admission/manifest');
    expect(ctx.violations[0].recommendation).toBe(`${missing}: cannot read file: ENOENT`);
  });
});

describe('cdk8s validation plugin: operator from properties (row 20 needs Grove)', () => {
  const grovePriority = (name: string) => graphYaml(name, { workerImage: IMAGE })
    .replace('  backendFramework: vllm', '  backendFramework: vllm\n  priorityClassName: high');

  test('the Grove property changes which rules apply', async () => {
    const file = manifest('p.k8s.yaml', grovePriority('prio'));
    const without = new FakeContext([file]);
    await new DynamoValidationPlugin({ groveAvailable: false }).validate(without);
    expect(without.violations.map(v => v.ruleName)).toEqual(['dynamo-admission/rule-20']);
    const withGrove = new FakeContext([file]);
    await new DynamoValidationPlugin({ groveAvailable: true }).validate(withGrove);
    expect(withGrove.violations).toEqual([]);
    expect(withGrove.metadata?.Grove).toBe('available');
  });

  test('operatorConfigFile is read; properties win over it', async () => {
    const config = manifest('operator.yaml', 'orchestrators:\n  grove:\n    enabled: true\noperatorVersion: 1.4.3\n');
    const file = manifest('p.k8s.yaml', grovePriority('prio'));
    const fromFile = new FakeContext([file]);
    await new DynamoValidationPlugin({ operatorConfigFile: config }).validate(fromFile);
    expect(fromFile.violations).toEqual([]);
    expect(fromFile.metadata?.['Operator version']).toBe('1.4.3');
    const overridden = new FakeContext([file]);
    await new DynamoValidationPlugin({ operatorConfigFile: config, groveAvailable: false }).validate(overridden);
    expect(overridden.violations.map(v => v.ruleName)).toEqual(['dynamo-admission/rule-20']);
  });

  test('unknown properties and wrong types are refused when the plugin is loaded', () => {
    expect(() => new DynamoValidationPlugin({ groveAvailble: true } as any)).toThrow(/unknown property "groveAvailble"; known properties: .*groveAvailable/);
    expect(() => new DynamoValidationPlugin({ groveAvailable: 'yes' } as any)).toThrow('validation plugin properties: groveAvailable: Invalid value: "yes": must be true or false');
    expect(() => new DynamoValidationPlugin({ registrySecrets: [{ name: 'x' }] } as any)).toThrow('validation plugin properties: registrySecrets[0].registries: Required value: a registry secret has a name and a list of registries');
    expect(() => new DynamoValidationPlugin({ registrySecrets: [{ name: '', registries: [] }] } as any))
      .toThrow('validation plugin properties: registrySecrets[0].name: Invalid value: "": must be a non-empty string');
    expect(() => new DynamoValidationPlugin({ discoveryBackend: 'consul' })).toThrow(/discoveryBackend: Unsupported value: "consul"/);
    expect(() => new DynamoValidationPlugin({ operatorConfigFile: path.join(tmp, 'nope.yaml') })).toThrow(/nope\.yaml: cannot read file: ENOENT/);
  });
});

/**
 * The real cdk8s CLI on a copy of examples/: cdk8s loads the plugin from a local package path
 * (`./plugin`, a shim that loads the TypeScript sources through ts-node), runs `validate` after
 * synthesis, prints the report and exits 2 when the report failed (cdk8s-cli `validateApp`).
 */
describe('cdk8s validation plugin: cdk8s synth with validations in cdk8s.yaml', () => {
  function exampleCopy(app: string): string {
    fs.copyFileSync(path.join(REPO, 'examples', 'main.ts'), path.join(tmp, 'main.ts'));
    const main = fs.readFileSync(path.join(tmp, 'main.ts'), 'utf8').replace("from '../src'", `from ${JSON.stringify(path.join(REPO, 'src'))}`);
    fs.writeFileSync(path.join(tmp, 'main.ts'), main);
    fs.symlinkSync(path.join(REPO, 'node_modules'), path.join(tmp, 'node_modules'));
    fs.mkdirSync(path.join(tmp, 'plugin'));
    fs.writeFileSync(path.join(tmp, 'plugin', 'index.js'), [
      `require(${JSON.stringify(path.join(REPO, 'node_modules', 'ts-node'))}).register({ project: ${JSON.stringify(path.join(REPO, 'tsconfig.dev.json'))}, transpileOnly: true });`,
      `module.exports = require(${JSON.stringify(path.join(REPO, 'src', 'index.ts'))});`,
      '',
    ].join('\n'));
    fs.writeFileSync(path.join(tmp, 'cdk8s.yaml'), [
      'language: typescript',
      `app: npx ts-node --project ${path.join(REPO, 'tsconfig.dev.json')} ${app}`,
      'validations:',
      '  - package: ./plugin',
      '    version: 0.0.0',
      '    class: DynamoValidationPlugin',
      '    properties:',
      '      version: 1.4.0',
      '      lwsAvailable: true',
      '',
    ].join('\n'));
    return tmp;
  }

  function synth(dir: string): { status: number | null; out: string } {
    const result = spawnSync('npx', ['cdk8s', 'synth', '--no-check-upgrade'], {
      cwd: dir, encoding: 'utf8', env: { ...process.env, TS_NODE_TRANSPILE_ONLY: 'true' }, timeout: 170_000,
    });
    return { status: result.status, out: `${result.stdout}${result.stderr}` };
  }

  test('the clean examples pass: exit 0, success report', () => {
    const { status, out } = synth(exampleCopy('main.ts'));
    expect(out).toContain('Validations ended succesfully');
    expect(out).toMatch(/Status\s+│ success/);
    expect(out).toMatch(/Dynamo objects\s+│ 8/);
    // the objects of the examples in workloads output are admission-checked too
    expect(out).toMatch(/Other objects checked\s+│ [1-9]\d*/);
    expect(out).toMatch(/Violations\s+│ 0/);
    expect(status).toBe(0);
  }, 180_000);

  test('an example app with a graph breaking rule 59: exit 2, the violation in the report', () => {
    const dir = exampleCopy('main.ts');
    const main = fs.readFileSync(path.join(dir, 'main.ts'), 'utf8');
    const broken = "import { ApiObject as RawObject } from 'cdk8s';\n" + main.replace('app.synth();', [
      'const raw = new Chart(app, \'raw\');',
      'new RawObject(raw, \'Graph\', {',
      '  apiVersion: \'nvidia.com/v1beta1\', kind: \'DynamoGraphDeployment\', metadata: { name: \'broken\' },',
      '  spec: { components: [{ name: \'Frontend\', type: \'frontend\', replicas: -1,',
      '    podTemplate: { spec: { containers: [{ name: \'main\', image: VLLM_IMAGE }] } } }] },',
      '});',
      'app.synth();',
    ].join('\n'));
    fs.writeFileSync(path.join(dir, 'main.ts'), broken);
    const { status, out } = synth(dir);
    expect(out).toMatch(/Status\s+│ failure/);
    expect(out).toContain('dynamo-admission/rule-59 (1 occurrences)');
    expect(out).toContain('Construct Path: raw/Graph');
    expect(out).toContain('Resource Name: broken');
    expect(out).toContain('> spec.components[0].replicas');
    expect(out).toContain('Recommendation: DynamoGraphDeployment/broken: spec.components[0].replicas (component "Frontend"): Invalid value: -1: should be greater than or equal to 0');
    expect(out).toContain('node_modules/cdk8s-dynamo/docs/admission-rules.md#rule-59');
    expect(out).toContain('Validation failed. See above reports for details');
    expect(status).toBe(2);
  }, 180_000);
});
