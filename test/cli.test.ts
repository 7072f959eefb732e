import { parseAllDocuments } from 'yaml';
import { OperatorConfiguration } from '../src';
import { runCliOn } from './support/cli-in-process';
import { settings as operatorSettings } from './support/facade';

/** The operator of a default platform install. */
const DEFAULT_OPERATOR_SETTINGS = operatorSettings();
/** The options an operator configuration file gives (`OperatorConfiguration.fromYaml`). */
const parseOperatorConfiguration = (text: string, source: string) => OperatorConfiguration.fromYaml(text, source);

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

const FILES: Record<string, string> = {
  'graph.yaml': `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: llm
spec:
  backendFramework: vllm
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
    - name: decode
      type: decode
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
data:
  a: b
---
apiVersion: v1
kind: Namespace
metadata:
  name: team-a
`,
  'bad.yaml': `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: bad
spec:
  components:
    - name: w
      type: router
      podTemplate:
        spec:
          containers:
            - name: main
              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0
`,
  'broken.yaml': 'a: [\n',
  // providerOverride needs the Grove provider (admission rule 82), so validation depends on Grove
  'grove-override.yaml': `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: pinned
spec:
  components:
    - name: Frontend
      type: frontend
      providerOverride:
        apiVersion: grove.io/v1alpha1
        value:
          topologyConstraint:
            packDomain: rack
      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
`,
  'multinode.yaml': `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: big
spec:
  backendFramework: vllm
  components:
    - name: decode
      type: decode
      multinode:
        nodeCount: 2
      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
`,
  'operator.yaml': `apiVersion: operator.config.dynamo.nvidia.com/v1alpha1
kind: OperatorConfiguration
operatorVersion: 1.5.2
server:
  metrics:
    bindAddress: 0.0.0.0
    secure: true
leaderElection:
  enabled: true
  id: dynamo.nvidia.com
logging:
  level: debug
orchestrators:
  kaiScheduler:
    enabled: false
  grove:
    enabled: true
    terminationDelay: 4h
infrastructure:
  natsAddress: nats://dynamo-platform-nats.dynamo-system.svc.cluster.local:4222
rbac:
  plannerClusterRoleName: my-platform-dynamo-operator-planner
  dgdrProfilingClusterRoleName: my-platform-dynamo-operator-dgdr-profiling
  eppClusterRoleName: my-platform-dynamo-operator-epp
somethingNewer:
  whatever: 1
`,
  'wrong-type.yaml': `orchestrators:
  grove:
    enabled: "yes"
`,
  'broken-config.yaml': 'orchestrators: [\n',
};

/** graph.yaml holds a Namespace, a kind without a schema: it is passed on and named on stderr. */
const RENDER_NOTICE = 'graph.yaml:30:1: v1 Namespace/team-a: passed through unchecked (no schema for this kind)\n';
const VALIDATE_NOTICE = 'graph.yaml:30:1: v1 Namespace/team-a: not checked (no schema for this kind)\n';

/** Standard error without the summary line of a successful render or validate (the tests of the summary are in cli-conventions.test.ts). */
function notices(stderr: string): string {
  return stderr.replace(/^(rendered|validated) \d+ objects? in \d+ files?: .*\n/m, '');
}

function run(...argv: string[]) {
  const { code, stdout, stderr } = runCliOn(FILES, argv);
  return { code, stdout, stderr, docs: parseAllDocuments(stdout).map(d => d.toJS()) };
}

describe('cdk8s-dynamo render', () => {
  test('graph output keeps every document in input order', () => {
    const r = run('render', 'graph.yaml');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(`${RENDER_NOTICE}rendered 3 objects in 1 file: 3 objects (graph output)\n`);
    expect(r.docs.map((d: any) => `${d.kind}/${d.metadata.name}`)).toEqual(['DynamoGraphDeployment/llm', 'ConfigMap/extra', 'Namespace/team-a']);
    expect(r.docs[1]).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'extra' }, data: { a: 'b' } });
  });

  test('--namespace sets the namespace of namespaced objects that have none', () => {
    const r = run('render', '--namespace', 'team-a', 'graph.yaml');
    expect(r.docs.map((d: any) => d.metadata.namespace)).toEqual(['team-a', 'team-a', undefined]);
  });

  test('--output components replaces the graph by its DCDs', () => {
    const r = run('render', '--output=components', '--namespace', 'team-a', 'graph.yaml');
    expect(r.code).toBe(0);
    expect(r.docs.map((d: any) => d.kind)).toEqual(['DynamoComponentDeployment', 'DynamoComponentDeployment', 'ConfigMap', 'Namespace']);
    expect(r.docs[0].metadata.name).toBe('llm-frontend');
    expect(r.docs[1].metadata.name).toMatch(/^llm-decode-[0-9a-f]{8}$/);
  });

  test('output is byte-identical across runs', () => {
    expect(run('render', '--output', 'components', 'graph.yaml').stdout).toBe(run('render', '--output', 'components', 'graph.yaml').stdout);
  });

  test('invalid input: exit 1, nothing on stdout, FILE: Kind/name: field: message', () => {
    const r = run('render', 'graph.yaml', 'bad.yaml');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toEqual([
      RENDER_NOTICE.trim(),
      'bad.yaml:8:7: DynamoGraphDeployment/bad: spec.components[0].type (component "w"): Unsupported value: "router": supported values: "frontend", "worker", "prefill", "decode", "planner", "epp" (rule 43)',
    ]);
  });

  test('a missing file is one clear line', () => {
    const r = run('render', 'missing.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('cannot read missing.yaml: no such file\n');
  });

  test('bad YAML is one clear line with its position', () => {
    const r = run('validate', 'broken.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/^broken\.yaml:\d+:\d+: invalid YAML: /);
  });

  test('usage errors exit 2', () => {
    expect(run().code).toBe(2);
    expect(run('render').code).toBe(2);
    expect(run('render', '--output', 'pods', 'graph.yaml').stderr).toMatch(/--output must be one of graph, components, workloads, got "pods"/);
    expect(run('validate', '--bogus', 'graph.yaml').code).toBe(2);
    expect(run('validate', '--output', 'graph', 'graph.yaml').code).toBe(2);
    expect(run('render', '--operator-config', 'operator.yaml', '--operator-config', 'operator.yaml', 'graph.yaml').stderr)
      .toMatch(/--operator-config can be given once/);
    expect(run('render', '--operator-config').stderr).toMatch(/--operator-config needs a value/);
    expect(run('render', '--grove=true', 'graph.yaml').code).toBe(2);
  });

  test('the help text names every output mode and operator flag', () => {
    const { stdout } = run('--help');
    for (const text of ['--output graph|components|workloads', '--operator-config FILE', '--grove | --no-grove', '--lws | --no-lws']) {
      expect(stdout).toContain(text);
    }
  });
});

/** `Kind/name` of every rendered object. */
function inventory(docs: any[]): string[] {
  return docs.map(d => `${d.kind}/${d.metadata.name}`);
}

describe('cdk8s-dynamo render --output workloads (docs/design/render-core.md §14 object inventory)', () => {
  test('a simple graph renders its DCDs, Deployments, Services and RBAC objects', () => {
    const r = run('render', '--output', 'workloads', '--namespace', 'team-a', 'graph.yaml');
    expect(notices(r.stderr)).toBe(RENDER_NOTICE);
    expect(r.code).toBe(0);
    const names = inventory(r.docs);
    const decode = names.find(n => /^Deployment\/llm-decode-[0-9a-f]{8}$/.test(n));
    expect(decode).toBeDefined();
    expect(names).toEqual(expect.arrayContaining([
      'DynamoComponentDeployment/llm-frontend',
      'Deployment/llm-frontend',
      'Service/llm-frontend',
      'ServiceAccount/llm-k8s-service-discovery',
      'Role/llm-k8s-service-discovery-role',
      'RoleBinding/llm-k8s-service-discovery-binding',
      'ServiceAccount/planner-serviceaccount',
      'RoleBinding/planner-serviceaccount-binding',
      'ConfigMap/extra',
      'Namespace/team-a',
    ]));
    expect(names).not.toContain('DynamoGraphDeployment/llm');
    expect(r.docs.filter((d: any) => d.kind !== 'Namespace').every((d: any) => d.metadata.namespace === 'team-a')).toBe(true);
  });

  test('settings of the configuration file reach the workloads (docs/design/render-core.md §8.2 planner ClusterRole, §6.3 NATS_SERVER)', () => {
    const r = run('render', '--output', 'workloads', '--operator-config', 'operator.yaml', '--no-grove', 'graph.yaml');
    expect(notices(r.stderr)).toBe(RENDER_NOTICE);
    const binding = r.docs.find((d: any) => d.kind === 'RoleBinding' && d.metadata.name === 'planner-serviceaccount-binding');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'my-platform-dynamo-operator-planner' });
    const frontend = r.docs.find((d: any) => d.kind === 'Deployment' && d.metadata.name === 'llm-frontend');
    const main = frontend.spec.template.spec.containers.find((c: any) => c.name === 'main');
    expect(main.env).toEqual(expect.arrayContaining([{ name: 'NATS_SERVER', value: 'nats://dynamo-platform-nats.dynamo-system.svc.cluster.local:4222' }]));
  });
});

describe('operator flags (docs/design/render-core.md §1, §2: Grove and LeaderWorkerSet availability)', () => {
  test('--grove: new graphs take the Grove provider, which creates no DCDs', () => {
    const r = run('render', '--output', 'components', '--grove', 'graph.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr.slice(RENDER_NOTICE.length)).toMatch(/^graph\.yaml:3:1: DynamoGraphDeployment\/llm: metadata\.annotations\["nvidia\.com\/workload-provider"\]: the graph takes the Grove workload provider/);
  });

  test('--no-grove (the default) and the last of --grove/--no-grove win', () => {
    expect(run('render', '--output', 'components', '--no-grove', 'graph.yaml').code).toBe(0);
    expect(run('render', '--output', 'components', '--grove', '--no-grove', 'graph.yaml').code).toBe(0);
  });

  test('validation sees the same Grove availability as rendering (rule 82)', () => {
    const without = run('validate', 'grove-override.yaml');
    expect(without.code).toBe(1);
    expect(without.stderr).toContain('grove-override.yaml:9:7: DynamoGraphDeployment/pinned: spec.components[0].providerOverride (component "Frontend"): Forbidden:');
    expect(without.stderr).toContain('(rule 82)');
    expect(run('validate', '--grove', 'grove-override.yaml')).toMatchObject({ code: 0, stderr: 'validated 1 object in 1 file: ok\n' });
  });

  test('--no-lws: multinode components have no orchestrator', () => {
    const r = run('render', '--output', 'components', '--no-lws', 'multinode.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('multinode.yaml:10:7: DynamoGraphDeployment/big: spec.components[0].multinode: no multinode orchestrator available');
  });

  test('--lws (the default) renders multinode components', () => {
    for (const argv of [['--lws'], []]) {
      const r = run('render', '--output', 'components', ...argv, 'multinode.yaml');
      expect(r.code).toBe(0);
      expect(notices(r.stderr)).toBe(MPI_SSH_NOTICE);
    }
  });
});

/**
 * The operator copies its MPI SSH key Secret into the namespace of every graph with a multinode
 * component, whatever the backend and workload provider (the operator run offline on such graphs
 * creates Secret mpi-run-ssh-secret in the graph's namespace on both paths); its key pair exists
 * only in the cluster, so it is said, not rendered.
 */
const MPI_SSH_NOTICE = 'multinode.yaml:1:1: nvidia.com/v1beta1 DynamoGraphDeployment/big: the operator copies the MPI SSH key Secret '
  + 'mpi-run-ssh-secret from namespace dynamo-system into namespace default (unless one of that name is there already); '
  + 'not rendered: its key pair is generated in the cluster\n';

describe('the MPI SSH key Secret of multinode graphs: a notice on stderr, once per graph', () => {
  test.each([
    ['render --output workloads (LeaderWorkerSet)', ['render', '--output', 'workloads']],
    ['render --output workloads --grove', ['render', '--output', 'workloads', '--grove']],
    ['render --output graph', ['render', '--output', 'graph']],
    ['validate', ['validate']],
  ])('%s: a vLLM multinode graph', (_title, argv) => {
    // the LeaderWorkerSet pods need the main container's command and args
    const graph = FILES['multinode.yaml'] + '              command: [python3, -m, dynamo.vllm]\n              args: [--model, m]\n';
    const r = runCliOn({ 'multinode.yaml': graph }, [...argv, 'multinode.yaml']);
    expect(notices(r.stderr)).toBe(MPI_SSH_NOTICE);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('kind: Secret');
  });

  test('the graph\'s namespace and the operator\'s mpi settings name the copy', () => {
    const files = {
      'multinode.yaml': FILES['multinode.yaml'],
      'op.yaml': 'apiVersion: operator.config.dynamo.nvidia.com/v1alpha1\nkind: OperatorConfiguration\nmpi:\n  sshSecretName: ssh-keys\n  sshSecretNamespace: platform\n',
    };
    expect(notices(runCliOn(files, ['render', '--namespace', 'team-a', '--operator-config', 'op.yaml', 'multinode.yaml']).stderr))
      .toBe('multinode.yaml:1:1: nvidia.com/v1beta1 DynamoGraphDeployment/big: the operator copies the MPI SSH key Secret ssh-keys '
        + 'from namespace platform into namespace team-a (unless one of that name is there already); not rendered: its key pair is generated in the cluster\n');
    // a graph in the Secret's own namespace: nothing to copy, the operator makes sure it exists there
    expect(notices(runCliOn(files, ['render', '--namespace', 'platform', '--operator-config', 'op.yaml', 'multinode.yaml']).stderr))
      .toBe('multinode.yaml:1:1: nvidia.com/v1beta1 DynamoGraphDeployment/big: the operator provides the MPI SSH key Secret ssh-keys '
        + 'in namespace platform (generating it there when missing); not rendered: its key pair is generated in the cluster\n');
  });

  test('none for a graph without multinode components, a refused graph, or a standalone DCD', () => {
    expect(notices(run('render', 'graph.yaml').stderr)).toBe('graph.yaml:30:1: v1 Namespace/team-a: passed through unchecked (no schema for this kind)\n');
    expect(run('render', '--output', 'components', '--no-lws', 'multinode.yaml').stderr).not.toContain('MPI SSH');
    const dcd = 'apiVersion: nvidia.com/v1beta1\nkind: DynamoComponentDeployment\nmetadata:\n  name: solo\nspec:\n  backendFramework: vllm\n'
      + '  name: decode\n  type: decode\n  multinode:\n    nodeCount: 2\n  podTemplate:\n    spec:\n      containers:\n'
      + `        - name: main\n          image: ${IMAGE}\n          command: [python3]\n          args: [-m, dynamo.vllm]\n`;
    const r = runCliOn({ 'dcd.yaml': dcd }, ['render', 'dcd.yaml']);
    expect(r).toMatchObject({ code: 0, stderr: 'rendered 1 object in 1 file: 1 object (graph output)\n' });
  });
});

describe('--operator-config FILE', () => {
  test('a valid file: its settings apply; operatorVersion is stamped on new graphs', () => {
    const r = run('render', '--output', 'components', '--operator-config', 'operator.yaml', 'grove-override.yaml');
    // the file enables Grove: the graph takes the Grove provider (validation passes, no DCDs)
    expect(r.stderr).toMatch(/the graph takes the Grove workload provider/);
    const stamped = run('render', '--output', 'components', '--operator-config', 'operator.yaml', '--no-grove', 'graph.yaml');
    expect(stamped.code).toBe(0);
    expect(stamped.docs[0].spec.podTemplate.metadata.annotations['nvidia.com/dynamo-operator-origin-version']).toBe('1.5.2');
  });

  test('fields that do not change rendering, or are unknown, are ignored', () => {
    expect(run('validate', '--operator-config', 'operator.yaml', 'grove-override.yaml')).toMatchObject({ code: 0, stderr: 'validated 1 object in 1 file: ok\n' });
  });

  test('flags beat the file', () => {
    const r = run('validate', '--operator-config', 'operator.yaml', '--no-grove', 'grove-override.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('(rule 82)');
    const flagsFirst = run('validate', '--no-grove', '--operator-config', 'operator.yaml', 'grove-override.yaml');
    expect(flagsFirst.stderr).toBe(r.stderr);
  });

  test('a wrong type: exit 1, nothing on stdout, FILE: field.path: message naming the value', () => {
    const r = run('render', '--operator-config', 'wrong-type.yaml', 'graph.yaml');
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('wrong-type.yaml:3:5: orchestrators.grove.enabled: must be a boolean (true or false), got "yes"\n');
  });

  test('an unreadable file is one clear line', () => {
    const r = run('validate', '--operator-config', 'missing-operator.yaml', 'graph.yaml');
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('cannot read missing-operator.yaml: no such file\n');
  });

  test('bad YAML is one clear line with its position', () => {
    const r = run('validate', '--operator-config', 'broken-config.yaml', 'graph.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^broken-config\.yaml: \(document\): invalid YAML at line \d+, column \d+: /);
  });
});

describe('operator configuration file → settings (docs/design/render-core.md §1)', () => {
  const FULL = `apiVersion: operator.config.dynamo.nvidia.com/v1alpha1
kind: OperatorConfiguration
operatorVersion: 1.5.0
registrySecrets:
  - name: nvcr-creds
    registries: [nvcr.io]
discovery:
  backend: etcd
namespace:
  restricted: team-a
orchestrators:
  grove:
    enabled: true
    terminationDelay: 30m
  lws:
    enabled: false
  kaiScheduler:
    enabled: true
  volcanoScheduler:
    enabled: false
dra:
  enabled: false
infrastructure:
  natsAddress: nats://nats:4222
  etcdAddress: etcd:2379
  modelExpressURL: http://mx:8001
  prometheusEndpoint: http://prom:9090
ingress:
  controllerClassName: nginx
  controllerTLSSecretName: tls
  hostSuffix: example.com
  virtualServiceGateway: istio-system/gw
serviceMesh:
  enabled: true
  provider: istio
  istio:
    tlsMode: MUTUAL
    insecureSkipVerify: false
    clientCertificate: /etc/certs/cert.pem
    privateKey: /etc/certs/key.pem
    caCertificates: /etc/certs/ca.pem
rbac:
  plannerClusterRoleName: p
  eppClusterRoleName: e
mpi:
  sshSecretName: ssh
  sshSecretNamespace: platform
checkpoint:
  enabled: true
  storage:
    type: pvc
    pvc:
      pvcName: ckpt
      basePath: /ckpt
      create: true
      size: 1Ti
      storageClassName: rwx
      accessMode: ReadWriteOnce
`;

  test('every field that changes rendering is read', () => {
    expect(parseOperatorConfiguration(FULL, 'op.yaml')).toEqual({
      version: '1.5.0',
      registrySecrets: [{ name: 'nvcr-creds', registries: ['nvcr.io'] }],
      discoveryBackend: 'etcd',
      restrictedNamespace: 'team-a',
      groveAvailable: true,
      groveTerminationDelay: '30m',
      kaiSchedulerAvailable: true,
      volcanoSchedulerAvailable: false,
      lwsAvailable: false,
      draAvailable: false,
      natsAddress: 'nats://nats:4222',
      etcdAddress: 'etcd:2379',
      modelExpressUrl: 'http://mx:8001',
      prometheusEndpoint: 'http://prom:9090',
      ingressControllerClassName: 'nginx',
      ingressControllerTlsSecretName: 'tls',
      ingressHostSuffix: 'example.com',
      virtualServiceGateway: 'istio-system/gw',
      serviceMeshProvider: 'istio',
      istioTlsMode: 'MUTUAL',
      istioInsecureSkipVerify: false,
      istioClientCertificate: '/etc/certs/cert.pem',
      istioPrivateKey: '/etc/certs/key.pem',
      istioCaCertificates: '/etc/certs/ca.pem',
      plannerClusterRoleName: 'p',
      eppClusterRoleName: 'e',
      mpiSshSecretName: 'ssh',
      mpiSshSecretNamespace: 'platform',
      checkpointEnabled: true,
      checkpointStorageType: 'pvc',
      checkpointStoragePvcName: 'ckpt',
      checkpointStorageBasePath: '/ckpt',
      checkpointStoragePvcCreate: true,
      checkpointStoragePvcSize: '1Ti',
      checkpointStorageClassName: 'rwx',
      checkpointStorageAccessMode: 'ReadWriteOnce',
    });
  });

  test('every setting can come from the file', () => {
    expect(Object.keys(parseOperatorConfiguration(FULL, 'op.yaml')).sort()).toEqual(Object.keys(DEFAULT_OPERATOR_SETTINGS).sort());
  });

  test('JSON is accepted; an empty document sets nothing; null means unset (auto-detection)', () => {
    expect(parseOperatorConfiguration('{"orchestrators": {"lws": {"enabled": false}}}', 'op.json')).toEqual({ lwsAvailable: false });
    expect(parseOperatorConfiguration('', 'op.yaml')).toEqual({});
    expect(parseOperatorConfiguration('orchestrators:\n  grove:\n    enabled: null\ninfrastructure:\n', 'op.yaml')).toEqual({});
  });

  test('the Helm chart ConfigMap holding config.yaml is accepted', () => {
    const configMap = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'dynamo-platform-dynamo-operator-config' },
      data: { 'config.yaml': 'apiVersion: operator.config.dynamo.nvidia.com/v1alpha1\nkind: OperatorConfiguration\ndiscovery:\n  backend: etcd\n' },
    };
    // the document is the whole configuration: no terminationDelay is the operator's fallback 15m
    expect(parseOperatorConfiguration(JSON.stringify(configMap), 'cm.json')).toEqual({ discoveryBackend: 'etcd', groveTerminationDelay: '15m' });
    expect(() => parseOperatorConfiguration(JSON.stringify({ ...configMap, data: {} }), 'cm.json'))
      .toThrow('cm.json: data["config.yaml"]: a ConfigMap must hold the operator configuration under this key');
  });

  test('an unquoted operatorVersion that names a supported MAJOR.MINOR (1.4, a YAML number) is that version', () => {
    expect(parseOperatorConfiguration('operatorVersion: 1.4', 'op.yaml')).toEqual({ version: '1.4.0' });
    expect(parseOperatorConfiguration('operatorVersion: 1.5', 'op.yaml')).toEqual({ version: '1.5.0' });
    expect(parseOperatorConfiguration('operatorVersion: "1.4"', 'op.yaml')).toEqual({ version: '1.4' });
  });

  test('an empty discovery backend is the operator default kubernetes; others are refused', () => {
    expect(parseOperatorConfiguration('discovery: {backend: ""}', 'op.yaml')).toEqual({ discoveryBackend: 'kubernetes' });
    expect(() => parseOperatorConfiguration('discovery: {backend: consul}', 'op.yaml'))
      .toThrow('op.yaml: discovery.backend: Unsupported value: "consul": supported values: "kubernetes", "etcd"');
  });

  test.each([
    ['infrastructure: {natsAddress: 4222}', 'op.yaml: infrastructure.natsAddress: must be a string, got 4222'],
    ['operatorVersion: 1.10', 'op.yaml: operatorVersion: must be a string, got the number 1.1 (YAML reads an unquoted version as a number: 1.10 as 1.1): quote it'],
    ['operatorVersion: 2', 'op.yaml: operatorVersion: must be a string, got the number 2'],
    ['serviceMesh: {istio: {insecureSkipVerify: "no"}}', 'op.yaml: serviceMesh.istio.insecureSkipVerify: must be a boolean (true or false), got "no"'],
    ['checkpoint: true', 'op.yaml: checkpoint: must be a mapping, got true'],
    ['ingress: [a]', 'op.yaml: ingress: must be a mapping, got a list ["a"]'],
    ['registrySecrets: {name: x}', 'op.yaml: registrySecrets: must be a list, got a mapping {"name":"x"}'],
    ['registrySecrets: [{registries: [nvcr.io]}]', 'op.yaml: registrySecrets[0].name: Required value: the Secret name'],
    ['registrySecrets: [{name: x, registries: [1]}]', 'op.yaml: registrySecrets[0].registries[0]: must be a registry host, got 1'],
    ['rbac: {plannerClusterRoleName: ""}', 'op.yaml: rbac.plannerClusterRoleName: Required value: the ClusterRole name is required in cluster-wide mode'],
    ['mpi: {sshSecretName: ""}', 'op.yaml: mpi.sshSecretName: Required value: the MPI SSH secret name is required'],
    ['mpi: {sshSecretName: ssh, sshSecretNamespace: ""}', 'op.yaml: mpi.sshSecretNamespace: Required value: the MPI SSH secret namespace is required'],
    ['kind: ConfigMap', 'op.yaml: kind: must be OperatorConfiguration, got "ConfigMap"'],
    ['apiVersion: v2', 'op.yaml: apiVersion: must be operator.config.dynamo.nvidia.com/v1alpha1, got "v2"'],
    ['[1, 2]', 'op.yaml: (document): must be a mapping, got a list [1,2]'],
    ['a: 1\n---\nb: 2', 'op.yaml: (document): expected one operator configuration document, found 2'],
  ])('%s is refused', (text, message) => {
    expect(() => parseOperatorConfiguration(text, 'op.yaml')).toThrow(message);
  });

  test('empty ClusterRole names are accepted in namespace-restricted mode', () => {
    expect(parseOperatorConfiguration('namespace: {restricted: ns}\nrbac: {plannerClusterRoleName: ""}', 'op.yaml'))
      .toEqual({ restrictedNamespace: 'ns', plannerClusterRoleName: '' });
  });
});

describe('cdk8s-dynamo validate', () => {
  test('valid input exits 0, naming only the documents it could not check', () => {
    const r = run('validate', 'graph.yaml');
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: `${VALIDATE_NOTICE}validated 3 objects in 1 file: ok\n` });
  });

  test('every violation of every file is reported', () => {
    const r = runCliOn({ ...FILES, 'bad2.yaml': FILES['bad.yaml'].replace('name: bad', 'name: bad2') }, ['validate', 'bad.yaml', 'bad2.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^bad\.yaml:8:7: DynamoGraphDeployment\/bad: /), expect.stringMatching(/^bad2\.yaml:8:7: DynamoGraphDeployment\/bad2: /)]);
  });
});
