/**
 * The operator settings of a dynamo-platform Helm release, derived from its values as the chart's
 * operator configuration template derives them (values merged over the chart defaults as Helm merges
 * them; the configuration read as the operator reads it).
 */
import {
  DEFAULT_HELM_NAMESPACE, DEFAULT_HELM_RELEASE_NAME, deriveOperatorSettingsFromHelmValues, mergeHelmValues,
  parseHelmValues, parseOperatorConfiguration,
} from '../src/import';
import { DEFAULT_OPERATOR_SETTINGS, resolveOperatorSettings } from '../src/model';

const derive = (values: unknown, release = {}) => deriveOperatorSettingsFromHelmValues(values, release, 'values.yaml');
const fromYaml = (text: string, release = {}) => derive(parseHelmValues(text, 'values.yaml'), release);
const failure = (values: unknown, release = {}): string => {
  try {
    derive(values, release);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the values to be refused');
};

/** What a default install (`helm install dynamo-platform ... -n dynamo-system`, no values) sets. */
const DEFAULT_INSTALL = {
  restrictedNamespace: '',
  groveAvailable: false,
  kaiSchedulerAvailable: false,
  volcanoSchedulerAvailable: false,
  groveTerminationDelay: '4h',
  discoveryBackend: 'kubernetes',
  natsAddress: '',
  etcdAddress: '',
  modelExpressUrl: '',
  prometheusEndpoint: '',
  virtualServiceGateway: '',
  ingressControllerClassName: '',
  ingressControllerTlsSecretName: '',
  ingressHostSuffix: '',
  serviceMeshProvider: '',
  plannerClusterRoleName: 'dynamo-platform-dynamo-operator-planner',
  eppClusterRoleName: 'dynamo-platform-dynamo-operator-epp',
  mpiSshSecretName: 'mpi-run-ssh-secret',
  mpiSshSecretNamespace: 'dynamo-system',
  checkpointEnabled: false,
  checkpointStorageType: '',
  checkpointStoragePvcName: '',
  checkpointStorageBasePath: '',
  checkpointStoragePvcCreate: false,
  checkpointStoragePvcSize: '',
  checkpointStorageClassName: '',
  checkpointStorageAccessMode: '',
};

/**
 * The ConfigMap a default install writes (the chart's template evaluated by hand for the chart's
 * values, release dynamo-platform in dynamo-system).
 */
const DEFAULT_INSTALL_CONFIG_MAP = `apiVersion: v1
kind: ConfigMap
metadata:
  name: dynamo-platform-dynamo-operator-config
data:
  config.yaml: |
    apiVersion: operator.config.dynamo.nvidia.com/v1alpha1
    kind: OperatorConfiguration
    server:
      metrics:
        bindAddress: "0.0.0.0"
        secure: true
      webhook:
        certProvisionMode: "auto"
        secretName: "webhook-server-cert"
        serviceName: dynamo-platform-dynamo-operator-webhook-service
    leaderElection:
      enabled: true
      id: "dynamo.nvidia.com"
      namespace: "kube-system"
    orchestrators:
      kaiScheduler:
        enabled: false
      volcanoScheduler:
        enabled: false
      grove:
        enabled: false
        terminationDelay: "4h"
    serviceMesh:
      enabled: false
    rbac:
      plannerClusterRoleName: dynamo-platform-dynamo-operator-planner
      dgdrProfilingClusterRoleName: dynamo-platform-dynamo-operator-dgdr-profiling
      eppClusterRoleName: dynamo-platform-dynamo-operator-epp
    mpi:
      sshSecretName: "mpi-run-ssh-secret"
      sshSecretNamespace: "dynamo-system"
`;

describe('a default platform install', () => {
  test('no values: every setting the configuration decides; lws, version and registry secrets are left out', () => {
    expect(derive({})).toEqual(DEFAULT_INSTALL);
    expect(fromYaml('')).toEqual(DEFAULT_INSTALL);
  });

  test('DEFAULT_OPERATOR_SETTINGS is a default install (plus LWS assumed available and the version)', () => {
    expect(resolveOperatorSettings(derive({}))).toEqual(DEFAULT_OPERATOR_SETTINGS);
    expect(DEFAULT_OPERATOR_SETTINGS.lwsAvailable).toBe(true);
  });

  test('the ConfigMap route reads the same operator from the ConfigMap such an install writes', () => {
    expect(resolveOperatorSettings(parseOperatorConfiguration(DEFAULT_INSTALL_CONFIG_MAP, 'cm.yaml'))).toEqual(DEFAULT_OPERATOR_SETTINGS);
  });

  test('the default release is dynamo-platform in dynamo-system, as the install guides name it', () => {
    expect([DEFAULT_HELM_RELEASE_NAME, DEFAULT_HELM_NAMESPACE]).toEqual(['dynamo-platform', 'dynamo-system']);
    expect(derive({ global: { nats: { install: true } } }).natsAddress).toBe('nats://dynamo-platform-nats.dynamo-system.svc.cluster.local:4222');
  });

  test('the output of `helm get values` (with its header line) is accepted', () => {
    expect(fromYaml('USER-SUPPLIED VALUES:\ndynamo-operator:\n  dynamo:\n    groveTerminationDelay: 1h\n').groveTerminationDelay).toBe('1h');
  });
});

describe('values merged over the chart defaults as Helm merges them', () => {
  test('mappings merge key by key; lists and scalars replace; null removes the default', () => {
    const defaults = { a: { b: 1, c: [1, 2], d: { e: 'x' } }, f: 'g' };
    expect(mergeHelmValues({ a: { c: [3], d: { h: 'y' } } }, defaults)).toEqual({ a: { b: 1, c: [3], d: { e: 'x', h: 'y' } }, f: 'g' });
    expect(mergeHelmValues({ a: { b: null }, f: null }, defaults)).toEqual({ a: { c: [1, 2], d: { e: 'x' } } });
    expect(mergeHelmValues({ a: 'scalar' }, defaults)).toEqual({ a: 'scalar', f: 'g' });
    expect(mergeHelmValues({ z: null }, defaults)).toEqual({ a: { b: 1, c: [1, 2], d: { e: 'x' } }, f: 'g', z: null });
  });

  test('a value given in part keeps the chart default of its siblings', () => {
    // dynamo.ingress.tlsSecretName keeps the chart's my-tls-secret when only enabled/className are given
    expect(derive({ 'dynamo-operator': { dynamo: { ingress: { enabled: true, className: 'nginx' } } } })).toMatchObject({
      ingressControllerClassName: 'nginx',
      ingressControllerTlsSecretName: 'my-tls-secret',
    });
  });

  test('a null under global does not remove the default the operator sub-chart sees (helm v4.3.2)', () => {
    // Helm merges the parent's globals into the sub-chart over the parent chart's defaults again:
    // the operator's template still reads Grove's `enabled: false` (test/fixtures/oracle/helm/global-nulls)
    expect(derive({ global: { grove: null } }).groveAvailable).toBe(false);
    expect(derive({ global: { grove: { enabled: null, install: null } } }).groveAvailable).toBe(false);
    expect(derive({ global: { 'kai-scheduler': { install: true, enabled: null } } }).kaiSchedulerAvailable).toBe(true);
    // two empty strings are kept: the template writes an empty toggle, which leaves Grove to detection
    const settings = derive({ global: { grove: { enabled: '', install: '' } } });
    expect(settings).not.toHaveProperty('groveAvailable');
    expect(resolveOperatorSettings(settings).groveAvailable).toBe(false);
  });

  test('global: null fails the install (the chart indexes into it)', () => {
    expect(failure({ global: null })).toBe('values.yaml: global: must be a mapping, got null: the chart reads global.kai-scheduler and the other toggles from it');
  });

  test('without the operator section the operator sub-chart\'s own defaults apply: its 15m delay, but no discovery backend', () => {
    expect(failure({ 'dynamo-operator': null }))
      .toBe('values.yaml: dynamo-operator.discoveryBackend: Unsupported value: null: supported values: "kubernetes", "etcd"');
    expect(derive({ 'dynamo-operator': { dynamo: null, discoveryBackend: 'kubernetes' } }).groveTerminationDelay).toBe('15m');
  });
});

describe('orchestrators', () => {
  test.each([
    [{ grove: { install: true } }, { groveAvailable: true, kaiSchedulerAvailable: false, volcanoSchedulerAvailable: false }],
    [{ grove: { enabled: true } }, { groveAvailable: true, kaiSchedulerAvailable: false, volcanoSchedulerAvailable: false }],
    [{ 'grove': { install: true }, 'kai-scheduler': { install: true } }, { groveAvailable: true, kaiSchedulerAvailable: true, volcanoSchedulerAvailable: false }],
    [{ 'kai-scheduler': { enabled: true } }, { groveAvailable: false, kaiSchedulerAvailable: true, volcanoSchedulerAvailable: false }],
    [{ 'volcano-scheduler': { enabled: true } }, { groveAvailable: false, kaiSchedulerAvailable: false, volcanoSchedulerAvailable: true }],
  ])('global %j', (global, expected) => {
    expect(derive({ global })).toMatchObject(expected);
  });

  test('LeaderWorkerSet is never written by the chart: left to detection', () => {
    expect(derive({ global: { grove: { install: true } } })).not.toHaveProperty('lwsAvailable');
  });

  test('a toggle that is not true or false is refused at its values path', () => {
    expect(failure({ global: { grove: { enabled: 'yes' } } }))
      .toBe('values.yaml: global.grove.enabled: must be true or false (the chart writes it as orchestrators.grove.enabled), got "yes"');
    expect(failure({ global: { 'kai-scheduler': { install: 1 } } }))
      .toBe('values.yaml: global.kai-scheduler.install: must be true or false (the chart writes it as orchestrators.kaiScheduler.enabled), got 1');
  });

  test('KAI and Volcano together are refused', () => {
    expect(failure({ global: { 'kai-scheduler': { install: true }, 'volcano-scheduler': { enabled: true } } }))
      .toBe('values.yaml: global.kai-scheduler.install: the KAI scheduler and the Volcano scheduler integrations (global.volcano-scheduler.enabled) cannot both be on: choose one');
  });
});

describe('Grove termination delay', () => {
  const delay = (value: unknown) => derive({ 'dynamo-operator': { dynamo: { groveTerminationDelay: value } } }).groveTerminationDelay;

  test.each([
    ['4h', '4h'],
    ['15m', '15m'],
    ['1h30m', '1h30m'],
    ['0s', '15m'],
    ['', '15m'],
    [0, '15m'],
    [null, '15m'],
  ])('%j gives %s (zero or unset: the operator\'s fallback 15m)', (value, expected) => {
    expect(delay(value)).toBe(expected);
  });

  test.each([
    ['4 hours', 'must be a duration such as "4h" or "15m" (the chart writes it as orchestrators.grove.terminationDelay), got "4 hours"'],
    [30, 'must be a duration such as "4h" or "15m" (the chart writes it as orchestrators.grove.terminationDelay), got 30'],
    ['-1m', 'must not be negative (the operator refuses orchestrators.grove.terminationDelay), got "-1m"'],
  ])('%j is refused', (value, message) => {
    expect(failure({ 'dynamo-operator': { dynamo: { groveTerminationDelay: value } } }))
      .toBe(`values.yaml: dynamo-operator.dynamo.groveTerminationDelay: ${message}`);
  });
});

describe('infrastructure addresses', () => {
  test('the bundled NATS and etcd: addresses from the release name and namespace', () => {
    expect(derive({ global: { nats: { install: true }, etcd: { install: true } } }, { releaseName: 'dyn', namespace: 'ai-platform' })).toMatchObject({
      natsAddress: 'nats://dyn-nats.ai-platform.svc.cluster.local:4222',
      etcdAddress: 'dyn-etcd.ai-platform.svc.cluster.local:2379',
    });
  });

  test('natsAddr / etcdAddr win over the bundled ones', () => {
    expect(derive({
      'global': { nats: { install: true }, etcd: { install: true } },
      'dynamo-operator': { natsAddr: 'nats://nats.shared:4222', etcdAddr: 'etcd.shared:2379' },
    })).toMatchObject({ natsAddress: 'nats://nats.shared:4222', etcdAddress: 'etcd.shared:2379' });
  });

  test('model express URL and Prometheus endpoint', () => {
    expect(derive({ 'dynamo-operator': { modelExpressURL: 'http://mx:8001', dynamo: { metrics: { prometheusEndpoint: 'http://prom:9090' } } } }))
      .toMatchObject({ modelExpressUrl: 'http://mx:8001', prometheusEndpoint: 'http://prom:9090' });
  });

  test('an address that is not a string is refused', () => {
    expect(failure({ 'dynamo-operator': { natsAddr: ['a'] } }))
      .toBe('values.yaml: dynamo-operator.natsAddr: must be a string (the chart writes it as infrastructure.natsAddress), got ["a"]');
  });
});

describe('namespace restriction and RBAC', () => {
  test('restricted to the release namespace unless targetNamespace names one; no ClusterRoles', () => {
    const restricted = { namespaceRestriction: { enabled: true }, upgradeCRD: false };
    const settings = derive({ 'dynamo-operator': restricted }, { namespace: 'team-a' });
    expect(settings.restrictedNamespace).toBe('team-a');
    expect(settings).not.toHaveProperty('plannerClusterRoleName');
    expect(settings).not.toHaveProperty('eppClusterRoleName');
    expect(derive({ 'dynamo-operator': { ...restricted, namespaceRestriction: { enabled: true, targetNamespace: 'team-b' } } }).restrictedNamespace).toBe('team-b');
  });

  test('the chart refuses a restricted release that installs CRDs', () => {
    expect(failure({ 'dynamo-operator': { namespaceRestriction: { enabled: true } } }))
      .toBe('values.yaml: dynamo-operator.upgradeCRD: must be false when namespaceRestriction.enabled is true (a namespace-restricted release must not install or update CRDs)');
  });

  test('the operator refuses a lease renewed no faster than it expires', () => {
    expect(failure({ 'dynamo-operator': { upgradeCRD: false, namespaceRestriction: { enabled: true, lease: { duration: '10s' } } } }))
      .toBe('values.yaml: dynamo-operator.namespaceRestriction.lease.renewInterval: must be less than the lease duration (10s), got 10s');
  });

  test.each([
    ['dynamo-platform', {}, 'dynamo-platform-dynamo-operator'],
    ['team-dynamo-operator', {}, 'team-dynamo-operator'],
    ['dynamo-platform', { nameOverride: 'op' }, 'dynamo-platform-op'],
    ['dynamo-platform', { fullnameOverride: 'ops' }, 'ops'],
    // <release>-dynamo-operator cut at 63 characters, then one trailing "-" dropped
    ['a'.repeat(53), {}, `${'a'.repeat(53)}-dynamo-op`],
    [`${'a'.repeat(47)}-b`, {}, `${'a'.repeat(47)}-b-dynamo-operat`],
    ['dynamo-platform', { fullnameOverride: `${'x'.repeat(62)}-yyy` }, 'x'.repeat(62)],
  ])('release %s with %j: ClusterRoles <%s>-planner / -epp', (releaseName, operator, fullname) => {
    const settings = derive({ 'dynamo-operator': operator }, { releaseName });
    expect([settings.plannerClusterRoleName, settings.eppClusterRoleName]).toEqual([`${fullname}-planner`, `${fullname}-epp`]);
  });

  test('a release name or namespace Helm or the API server would refuse', () => {
    expect(failure({}, { releaseName: 'Dynamo' }))
      .toBe('values.yaml: release name: "Dynamo" is not a Helm release name: at most 53 characters, lower-case letters, digits, "-" and "." (starting and ending with a letter or digit)');
    expect(failure({}, { releaseName: 'a'.repeat(54) })).toMatch(/^values\.yaml: release name: "a{54}" is not a Helm release name/);
    expect(failure({}, { namespace: 'team.a' }))
      .toBe('values.yaml: release namespace: "team.a" is not a namespace name: at most 63 characters, lower-case letters, digits and "-" (starting and ending with a letter or digit)');
  });
});

describe('ingress and service mesh', () => {
  test('the Istio gateway only when dynamo.istio is enabled; the host suffix always', () => {
    expect(derive({ 'dynamo-operator': { dynamo: { istio: { gateway: 'istio-system/gw' } } } }).virtualServiceGateway).toBe('');
    expect(derive({ 'dynamo-operator': { dynamo: { istio: { enabled: true, gateway: 'istio-system/gw' }, ingressHostSuffix: 'example.com' } } }))
      .toMatchObject({ virtualServiceGateway: 'istio-system/gw', ingressHostSuffix: 'example.com' });
  });

  test('the Ingress class and TLS secret only when dynamo.ingress is enabled', () => {
    expect(derive({ 'dynamo-operator': { dynamo: { ingress: { className: 'nginx' } } } }))
      .toMatchObject({ ingressControllerClassName: '', ingressControllerTlsSecretName: '' });
    expect(derive({ 'dynamo-operator': { dynamo: { ingress: { enabled: true, className: 'nginx', tlsSecretName: '' } } } }))
      .toMatchObject({ ingressControllerClassName: 'nginx', ingressControllerTlsSecretName: '' });
  });

  test('the chart\'s service mesh is off (enabled: false); enabling it gives Istio with SIMPLE TLS, skipping verification', () => {
    expect(derive({}).serviceMeshProvider).toBe('');
    expect(derive({ 'dynamo-operator': { dynamo: { serviceMesh: { provider: 'istio' } } } }).serviceMeshProvider).toBe('');
    expect(derive({ 'dynamo-operator': { dynamo: { serviceMesh: { enabled: true } } } })).toMatchObject({
      serviceMeshProvider: 'istio',
      istioTlsMode: 'SIMPLE',
      istioInsecureSkipVerify: true,
      istioClientCertificate: '',
      istioPrivateKey: '',
      istioCaCertificates: '',
    });
  });

  test('mutual TLS with its certificates; without them the operator refuses', () => {
    const istio = { tlsMode: 'MUTUAL', insecureSkipVerify: false, clientCertificate: '/c.pem', privateKey: '/k.pem', caCertificates: '/ca.pem' };
    expect(derive({ 'dynamo-operator': { dynamo: { serviceMesh: { enabled: true, istio } } } })).toMatchObject({
      serviceMeshProvider: 'istio',
      istioTlsMode: 'MUTUAL',
      istioInsecureSkipVerify: false,
      istioClientCertificate: '/c.pem',
      istioPrivateKey: '/k.pem',
      istioCaCertificates: '/ca.pem',
    });
    expect(failure({ 'dynamo-operator': { dynamo: { serviceMesh: { enabled: true, istio: { tlsMode: 'MUTUAL', privateKey: '/k.pem' } } } } }))
      .toBe('values.yaml: dynamo-operator.dynamo.serviceMesh.istio.clientCertificate: Required value: tlsMode MUTUAL needs a client certificate');
    expect(failure({ 'dynamo-operator': { dynamo: { serviceMesh: { enabled: true, istio: { tlsMode: 'STRICT' } } } } }))
      .toBe('values.yaml: dynamo-operator.dynamo.serviceMesh.istio.tlsMode: Unsupported value: "STRICT": supported values: "DISABLE", "SIMPLE", "ISTIO_MUTUAL", "MUTUAL"');
  });
});

describe('discovery, MPI, checkpoint', () => {
  test('discovery backend etcd; anything else is refused by the chart', () => {
    expect(derive({ 'dynamo-operator': { discoveryBackend: 'etcd' } }).discoveryBackend).toBe('etcd');
    expect(failure({ 'dynamo-operator': { discoveryBackend: 'consul' } }))
      .toBe('values.yaml: dynamo-operator.discoveryBackend: Unsupported value: "consul": supported values: "kubernetes", "etcd"');
  });

  test('the MPI SSH secret name; without one the operator does not start', () => {
    expect(derive({ 'dynamo-operator': { dynamo: { mpiRun: { secretName: 'ssh' } } } }).mpiSshSecretName).toBe('ssh');
    // the chart writes the release namespace as mpi.sshSecretNamespace
    expect(derive({}, { namespace: 'ai' }).mpiSshSecretNamespace).toBe('ai');
    expect(failure({ 'dynamo-operator': { dynamo: { mpiRun: { secretName: '' } } } }))
      .toBe('values.yaml: dynamo-operator.dynamo.mpiRun.secretName: must be set: without it the chart writes no mpi.sshSecretName, and the operator refuses to start');
  });

  test('checkpoint; a PVC storage needs its claim name and base path', () => {
    expect(derive({ 'dynamo-operator': { checkpoint: { enabled: true } } }).checkpointEnabled).toBe(true);
    expect(failure({ 'dynamo-operator': { checkpoint: { enabled: true, storage: { type: 'pvc', pvc: { basePath: '/ckpt' } } } } }))
      .toBe('values.yaml: dynamo-operator.checkpoint.storage.pvc.pvcName: Required value: the chart needs it when dynamo-operator.checkpoint.storage.type is "pvc"');
  });
});

describe('values the chart refuses', () => {
  test.each([
    [{ nats: { enabled: true } }, 'nats.enabled: is no longer accepted by the chart: use global.nats.install'],
    [{ 'dynamo-operator': { webhook: { enabled: true } } }, 'dynamo-operator.webhook.enabled: is no longer accepted by the chart: webhooks are always on; remove it'],
    [{ 'dynamo-operator': { enabled: false } }, 'dynamo-operator.enabled: is false: this release installs no operator, so there is no operator configuration to derive'],
    [{ 'dynamo-operator': 'yes' }, 'dynamo-operator: must be a mapping (the operator sub-chart\'s values), got "yes"'],
    [{ 'dynamo-operator': { dynamo: { ingress: 'on' } } }, 'dynamo-operator.dynamo.ingress: must be a mapping, got "on": the chart reads dynamo-operator.dynamo.ingress.enabled'],
    [{ 'dynamo-operator': { controllerManager: { leaderElection: { id: 'mine' } } } },
      'dynamo-operator.controllerManager.leaderElection.id: must be empty or "dynamo.nvidia.com" for a cluster-wide operator (all of them share one leader election), got "mine"'],
  ])('%j', (values, message) => {
    expect(failure(values)).toBe(`values.yaml: ${message}`);
  });

  test('a values file that is not one mapping', () => {
    expect(() => parseHelmValues('- a\n', 'values.yaml')).toThrow('values.yaml: (document): the values must be a mapping, got ["a"]');
    expect(() => parseHelmValues('a: 1\n---\nb: 2\n', 'values.yaml')).toThrow('values.yaml: (document): expected one values document, found 2');
    expect(() => parseHelmValues('a: [\n', 'values.yaml')).toThrow(/^values\.yaml: \(document\): invalid YAML at line \d+, column \d+: /);
  });
});
