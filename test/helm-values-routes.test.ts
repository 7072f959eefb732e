/**
 * The Helm-values route to the operator settings, as the constructs (`OperatorConfiguration.fromHelmValues`,
 * `fromHelmValuesFile`), the validation plugin (`helmValuesFile`, `helmReleaseName`, `helmNamespace`)
 * and the CLI (`--helm-values`, `--helm-release`, `--helm-namespace`) offer it, with its precedence:
 * a default install < the Helm values < the operator configuration file < flags / properties.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import { DynamoValidationPlugin, OperatorConfiguration } from '../src';
import { runCliOn } from './support/cli-in-process';
import { settings as operatorSettings, validationPluginSettings } from './support/facade';

/** The operator of a default platform install. */
const DEFAULT_OPERATOR_SETTINGS = operatorSettings();

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

const GRAPH = `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: llm
  namespace: team-a
spec:
  backendFramework: vllm
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
    - name: decode
      type: decode
      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
`;

/** A release with bundled Grove and NATS and a 2h Grove termination delay. */
const VALUES = `global:
  grove:
    install: true
  nats:
    install: true
dynamo-operator:
  dynamo:
    groveTerminationDelay: 2h
`;

const FILES: Record<string, string> = {
  'graph.yaml': GRAPH,
  'values.yaml': VALUES,
  'bad-values.yaml': 'dynamo-operator:\n  discoveryBackend: consul\n',
  'operator.yaml': 'orchestrators:\n  grove:\n    terminationDelay: 30m\n',
};

function run(...argv: string[]) {
  const { code, stdout, stderr } = runCliOn(FILES, argv);
  return { code, stdout, stderr, docs: parseAllDocuments(stdout).map(d => d.toJS()) as any[] };
}

const ofKind = (docs: any[], kind: string) => docs.filter(d => d.kind === kind);
/** The NATS_SERVER values of every container of a rendering. */
const natsServers = (docs: any[]): string[] => JSON.stringify(docs).match(/"name":"NATS_SERVER","value":"[^"]*"/g) ?? [];

describe('OperatorConfiguration.fromHelmValues / fromHelmValuesFile', () => {
  test('options of the release: derived addresses, toggles and delay; detection-only options left unset', () => {
    expect(OperatorConfiguration.fromHelmValues(VALUES, { releaseName: 'dyn', namespace: 'ai' })).toEqual({
      restrictedNamespace: '',
      groveAvailable: true,
      kaiSchedulerAvailable: false,
      volcanoSchedulerAvailable: false,
      groveTerminationDelay: '2h',
      discoveryBackend: 'kubernetes',
      natsAddress: 'nats://dyn-nats.ai.svc.cluster.local:4222',
      etcdAddress: '',
      modelExpressUrl: '',
      prometheusEndpoint: '',
      virtualServiceGateway: '',
      ingressControllerClassName: '',
      ingressControllerTlsSecretName: '',
      ingressHostSuffix: '',
      serviceMeshProvider: '',
      plannerClusterRoleName: 'dyn-dynamo-operator-planner',
      eppClusterRoleName: 'dyn-dynamo-operator-epp',
      mpiSshSecretName: 'mpi-run-ssh-secret',
      mpiSshSecretNamespace: 'ai',
      checkpointEnabled: false,
      checkpointStorageType: '',
      checkpointStoragePvcName: '',
      checkpointStorageBasePath: '',
      checkpointStoragePvcCreate: false,
      checkpointStoragePvcSize: '',
      checkpointStorageClassName: '',
      checkpointStorageAccessMode: '',
    });
  });

  test('empty values are a default install; the release defaults to dynamo-platform in dynamo-system', () => {
    // the Istio details only when the mesh is on; detection, version and registry secrets never
    const {
      version, lwsAvailable, draAvailable, registrySecrets,
      istioTlsMode, istioInsecureSkipVerify, istioClientCertificate, istioPrivateKey, istioCaCertificates,
      ...decided
    } = DEFAULT_OPERATOR_SETTINGS;
    expect(OperatorConfiguration.fromHelmValues('')).toEqual(decided);
    expect(OperatorConfiguration.fromHelmValues('global: {etcd: {install: true}}').etcdAddress).toBe('dynamo-platform-etcd.dynamo-system.svc.cluster.local:2379');
  });

  test('errors name the source and the values path', () => {
    expect(() => OperatorConfiguration.fromHelmValues('dynamo-operator: {dynamo: {groveTerminationDelay: soon}}', {}, 'my-values.yaml'))
      .toThrow('my-values.yaml: dynamo-operator.dynamo.groveTerminationDelay: must be a duration such as "4h" or "15m" (the chart writes it as orchestrators.grove.terminationDelay), got "soon"');
  });

  test('fromHelmValuesFile reads the file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'helm-values-'));
    const file = path.join(dir, 'values.yaml');
    fs.writeFileSync(file, VALUES);
    expect(OperatorConfiguration.fromHelmValuesFile(file, { namespace: 'ai' }).natsAddress).toBe('nats://dynamo-platform-nats.ai.svc.cluster.local:4222');
    expect(() => OperatorConfiguration.fromHelmValuesFile(path.join(dir, 'missing.yaml'))).toThrow(`${path.join(dir, 'missing.yaml')}: cannot read file: ENOENT`);
  });
});

describe('validation plugin: helmValuesFile, helmReleaseName, helmNamespace', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'helm-plugin-'));
  fs.writeFileSync(path.join(dir, 'values.yaml'), VALUES);
  fs.writeFileSync(path.join(dir, 'operator.yaml'), FILES['operator.yaml']);

  test('the values file (relative to the base directory) with its release', () => {
    const settings = validationPluginSettings({ helmValuesFile: 'values.yaml', helmReleaseName: 'dyn', helmNamespace: 'ai' }, dir);
    expect(settings).toEqual({
      ...DEFAULT_OPERATOR_SETTINGS,
      groveAvailable: true,
      groveTerminationDelay: '2h',
      natsAddress: 'nats://dyn-nats.ai.svc.cluster.local:4222',
      plannerClusterRoleName: 'dyn-dynamo-operator-planner',
      eppClusterRoleName: 'dyn-dynamo-operator-epp',
      mpiSshSecretNamespace: 'ai',
    });
  });

  test('the configuration file wins over the values, the properties over both', () => {
    const settings = validationPluginSettings({ helmValuesFile: 'values.yaml', operatorConfigFile: 'operator.yaml', groveAvailable: false }, dir);
    expect([settings.groveAvailable, settings.groveTerminationDelay, settings.natsAddress])
      .toEqual([false, '30m', 'nats://dynamo-platform-nats.dynamo-system.svc.cluster.local:4222']);
  });

  test('a release without values, or a property of the wrong type, is refused', () => {
    expect(() => validationPluginSettings({ helmNamespace: 'ai' }, dir))
      .toThrow('validation plugin properties: helmNamespace: needs helmValuesFile (the release\'s values file)');
    expect(() => validationPluginSettings({ helmValuesFile: 'values.yaml', helmReleaseName: 7 }, dir))
      .toThrow('validation plugin properties: helmReleaseName: must be a Helm release name, got 7');
    expect(() => new DynamoValidationPlugin({ helmValuesFile: path.join(dir, 'nope.yaml') })).toThrow(/nope\.yaml: cannot read file: ENOENT/);
  });
});

describe('CLI: --helm-values, --helm-release, --helm-namespace', () => {
  test('the release\'s Grove, NATS address and termination delay reach the rendered workloads', () => {
    const r = run('render', '--quiet', '--output', 'workloads', '--helm-values', 'values.yaml', '--helm-release', 'dyn', '--helm-namespace', 'ai', 'graph.yaml');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const [pcs] = ofKind(r.docs, 'PodCliqueSet');
    expect(pcs.spec.template.terminationDelay).toBe('2h0m0s');
    expect(natsServers(r.docs)).toEqual([
      '"name":"NATS_SERVER","value":"nats://dyn-nats.ai.svc.cluster.local:4222"',
      '"name":"NATS_SERVER","value":"nats://dyn-nats.ai.svc.cluster.local:4222"',
    ]);
    const bindings = ofKind(r.docs, 'RoleBinding').filter(b => b.roleRef.kind === 'ClusterRole');
    expect(bindings.map(b => b.roleRef.name)).toEqual(['dyn-dynamo-operator-planner']);
  });

  test('without --helm-values: a default install (Grove off, no NATS)', () => {
    const r = run('render', '--output', 'workloads', 'graph.yaml');
    expect(r.code).toBe(0);
    expect(ofKind(r.docs, 'PodCliqueSet')).toEqual([]);
    expect(natsServers(r.docs)).toEqual([]);
  });

  test('precedence: --operator-config wins over the values, flags over both', () => {
    const r = run('render', '--output', 'workloads', '--helm-values', 'values.yaml', '--operator-config', 'operator.yaml', 'graph.yaml');
    expect(r.code).toBe(0);
    expect(ofKind(r.docs, 'PodCliqueSet')[0].spec.template.terminationDelay).toBe('30m0s');
    const flagged = run('render', '--output', 'workloads', '--no-grove', '--helm-values', 'values.yaml', 'graph.yaml');
    expect(flagged.code).toBe(0);
    expect(ofKind(flagged.docs, 'PodCliqueSet')).toEqual([]);
    expect(ofKind(flagged.docs, 'Deployment').map(d => d.metadata.name)).toEqual(['llm-frontend', expect.stringMatching(/^llm-decode-[0-9a-f]{8}$/)]);
    expect(natsServers(flagged.docs)).toHaveLength(2);
  });

  test('values the chart refuses: exit 1, one line naming the file and the values path', () => {
    expect(run('validate', '--helm-values', 'bad-values.yaml', 'graph.yaml')).toMatchObject({
      code: 1,
      stdout: '',
      stderr: expect.stringMatching(/^bad-values\.yaml:\d+:\d+: dynamo-operator\.discoveryBackend: Unsupported value: "consul": supported values: "kubernetes", "etcd"\n$/),
    });
    expect(run('validate', '--helm-values', 'nope.yaml', 'graph.yaml')).toMatchObject({ code: 1, stderr: 'cannot read nope.yaml: no such file\n' });
    expect(run('validate', '--helm-values', 'values.yaml', '--helm-release', 'Dyn', 'graph.yaml')).toMatchObject({
      code: 1,
      stderr: 'values.yaml: release name: "Dyn" is not a Helm release name: at most 53 characters, lower-case letters, digits, "-" and "." (starting and ending with a letter or digit)\n',
    });
  });

  test.each([
    [['validate', '--helm-release', 'dyn', 'graph.yaml'], '--helm-release needs --helm-values'],
    [['render', '--helm-namespace', 'ai', 'graph.yaml'], '--helm-namespace needs --helm-values'],
    [['render', '--helm-values', 'values.yaml', '--helm-values', 'values.yaml', 'graph.yaml'], '--helm-values can be given once'],
    [['render', '--helm-values', 'graph.yaml'], 'no input FILE given'],
  ])('usage error %j: exit 2', (args, message) => {
    const r = run(...args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.startsWith(`cdk8s-dynamo: ${message}\nusage:\n`)).toBe(true);
  });

  test('the help names the options and their defaults', () => {
    const help = run('render', '--help').stdout;
    expect(help).toContain('  --helm-values FILE       values of the dynamo-platform Helm release (helm install -f FILE)\n');
    expect(help).toContain('  --helm-release NAME      with --helm-values: the release name (default: dynamo-platform)\n');
    expect(help).toContain('  --helm-namespace NS      with --helm-values: the release namespace (default: dynamo-system)\n');
  });
});
