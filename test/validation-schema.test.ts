/**
 * Structural (Schema) and CEL rows of docs/design/validation-rules.md: one minimal invalid object per message.
 */
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA } from '../imports/nvidia.com.schema';
import { validateDocument, type Violation } from '../src/admission';
import { dcd, dgd, dgdWith, found, frontend, IMAGE, podTemplate, worker } from './fixtures/validation/builders';

const NO_GROVE = { 'nvidia.com/enable-grove': 'false' };
const EPP_CONFIG = { configMapRef: { name: 'epp-config', key: 'config.yaml' } };
const epp = (extra: Record<string, any> = {}): any => ({ name: 'epp', type: 'epp', eppConfig: EPP_CONFIG, podTemplate: podTemplate(), ...extra });

describe('valid baselines', () => {
  test('the DGD and DCD builders are valid', () => {
    expect(found(dgd())).toEqual([]);
    expect(found(dcd())).toEqual([]);
    expect(found(dgdWith(frontend(), worker(), epp()))).toEqual([]);
  });
});

describe('document shape', () => {
  // what validateDocument says of a document that is no Dynamo document (the pipeline never hands it one)
  const shapeOf = (doc: unknown) => validateDocument(doc).map(({ path, message, rule }) => ({ path, message, rule }));

  test('not an object', () => {
    expect(shapeOf('hello')).toEqual([{ path: '', message: 'Invalid value: "hello": must be of type object', rule: 'schema' }]);
  });

  test('wrong apiVersion', () => {
    expect(shapeOf({ ...dgd(), apiVersion: 'nvidia.com/v1alpha1' })).toEqual([
      { path: 'apiVersion', message: 'Unsupported value: "nvidia.com/v1alpha1": supported values: "nvidia.com/v1beta1"', rule: 'schema' },
    ]);
  });

  test('wrong kind', () => {
    expect(shapeOf({ ...dgd(), kind: 'ConfigMap' })).toEqual([
      { path: 'kind', message: 'Unsupported value: "ConfigMap": supported values: "DynamoGraphDeployment", "DynamoComponentDeployment"', rule: 'schema' },
    ]);
  });

  test('metadata.name missing', () => {
    const doc = dgd();
    delete doc.metadata.name;
    expect(found(doc)).toEqual([{ path: 'metadata.name', message: 'Required value: name or generateName is required', rule: 'schema' }]);
  });

  test('metadata.name must be a DNS-1123 subdomain, as the API server requires of a custom resource name', () => {
    const subdomain =
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character " +
      "(e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    const named = (name: string, base: any = dgd()): any => ({ ...base, metadata: { ...base.metadata, name } });
    expect(found(named('g_graph'))).toEqual([{ path: 'metadata.name', message: `Invalid value: "g_graph": ${subdomain}`, rule: 'schema' }]);
    expect(found(named('Graph', dcd())).map((v) => v.rule)).toEqual(['schema']);
    expect(found(named('-graph')).map((v) => v.path)).toEqual(['metadata.name']);
    const long = `${'a'.repeat(250)}.b_c`;
    const longName = found(named(long)).filter((v) => v.path === 'metadata.name');
    expect(longName).toHaveLength(2);
    expect(longName[0].message).toMatch(/^Invalid value: "a+\.\.\.: must be no more than 253 characters$/);
    expect(longName[1].message.endsWith(`: ${subdomain}`)).toBe(true);
    expect(found(named('my-graph.v2'))).toEqual([]);
  });

  test('unknown field in spec', () => {
    expect(found(dgd({ foo: 1 }))).toEqual([{ path: 'spec.foo', message: 'unknown field "spec.foo"', rule: 'schema' }]);
  });

  test('unknown field in a component', () => {
    expect(found(dgdWith(frontend({ replica: 2 }), worker()))).toEqual([
      { path: 'spec.components[0].replica', message: 'unknown field "spec.components[0].replica"', rule: 'schema' },
    ]);
  });

  test('scalingAdapter has no fields', () => {
    expect(found(dgdWith(frontend(), worker({ scalingAdapter: { minReplicas: 1 } })))).toEqual([
      { path: 'spec.components[1].scalingAdapter.minReplicas', message: 'unknown field "spec.components[1].scalingAdapter.minReplicas"', rule: 'schema' },
    ]);
  });

  test('wrong type of a field without a row', () => {
    expect(found(dgdWith(frontend({ globalDynamoNamespace: 'yes' }), worker()))).toEqual([
      { path: 'spec.components[0].globalDynamoNamespace', message: 'Invalid value: "yes": must be of type boolean', rule: 'schema' },
    ]);
  });

  test('null list item', () => {
    expect(found(dgdWith(frontend(), worker(), null))).toEqual([
      { path: 'spec.components[2]', message: 'Invalid value: null: must be of type object', rule: 'schema' },
    ]);
  });

  test('wrong type of metadata annotations', () => {
    expect(found(dgd({}, { annotations: { a: 1 } }))).toEqual([
      { path: 'metadata.annotations[a]', message: 'Invalid value: 1: must be of type string', rule: 'schema' },
    ]);
  });
});

describe('DGD spec (rows 11-40)', () => {
  test('row 11: restart must be unset on create', () => {
    expect(found(dgd({ restart: { id: 'r1' } }))).toEqual([
      {
        path: 'spec',
        message: 'Invalid value: "object": spec.restart must be unset on create; set spec.restart.id after creation to request a restart',
        rule: '11',
      },
    ]);
  });

  test('row 12: backendFramework enum', () => {
    expect(found(dgd({ backendFramework: 'tensorflow' }))).toEqual([
      { path: 'spec.backendFramework', message: 'Unsupported value: "tensorflow": supported values: "sglang", "vllm", "trtllm"', rule: '12' },
    ]);
  });

  test('row 14: at most 25 components', () => {
    const components = Array.from({ length: 26 }, (_, i) => frontend({ name: `c${i}` }));
    expect(found(dgdWith(...components))).toEqual([
      { path: 'spec.components', message: 'Too many: 26: must have at most 25 items', rule: '14' },
    ]);
  });

  test('rows 14 and 16: duplicate component names', () => {
    expect(found(dgdWith(frontend(), worker(), worker()))).toEqual([
      { path: 'spec.components', message: 'Invalid value: "array": component names must be unique case-insensitively', rule: '16' },
      { path: 'spec.components[2]', message: 'Duplicate value: {"name":"worker"}', rule: '14' },
    ]);
  });

  test('row 16: names differing only in case', () => {
    expect(found(dgdWith(frontend(), worker(), worker({ name: 'Worker' })))).toEqual([
      { path: 'spec.components', message: 'Invalid value: "array": component names must be unique case-insensitively', rule: '16' },
    ]);
  });

  test('row 15: at most one EPP component', () => {
    expect(found(dgdWith(frontend(), worker(), epp(), epp({ name: 'epp2' })))).toEqual([
      { path: 'spec.components', message: 'Invalid value: "array": at most one component may have type epp', rule: '15' },
    ]);
  });

  test('row 21: restart.id required', () => {
    expect(found(dgd({ restart: {} }))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '11' }),
      { path: 'spec.restart.id', message: 'Required value', rule: '21' },
    ]);
  });

  test('row 21: restart.id not empty', () => {
    expect(found(dgd({ restart: { id: '' } }))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '11' }),
      { path: 'spec.restart.id', message: 'Invalid value: "": should be at least 1 chars long', rule: '21' },
    ]);
  });

  test('row 22: restart strategy type enum', () => {
    expect(found(dgd({ restart: { id: 'r1', strategy: { type: 'Random' } } }))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '11' }),
      { path: 'spec.restart.strategy.type', message: 'Unsupported value: "Random": supported values: "Sequential", "Parallel"', rule: '22' },
    ]);
  });

  test('row 28: topologyConstraint needs clusterTopologyName and a valid packDomain', () => {
    expect(found(dgd({ topologyConstraint: { packDomain: 'Rack' } }))).toEqual([
      { path: 'spec.topologyConstraint.packDomain', message: "Invalid value: \"Rack\": should match '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$'", rule: '28' },
      { path: 'spec.topologyConstraint.clusterTopologyName', message: 'Required value', rule: '28' },
    ]);
  });

  test('row 35: kvTransferPolicy domain pattern', () => {
    expect(found(dgd({ experimental: { kvTransferPolicy: { clusterTopologyName: 'topo', domain: 'Zone' } } }))).toEqual([
      {
        path: 'spec.experimental.kvTransferPolicy.domain',
        message: "Invalid value: \"Zone\": should match '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$'",
        rule: '35',
      },
    ]);
  });

  test('row 35: kvTransferPolicy domain required', () => {
    expect(found(dgd({ experimental: { kvTransferPolicy: { clusterTopologyName: 'topo' } } }))).toEqual([
      { path: 'spec.experimental.kvTransferPolicy.domain', message: 'Required value', rule: '35' },
    ]);
  });

  test('row 35: preferredWeight at most 1', () => {
    const policy = { labelKey: 'topology.kubernetes.io/zone', domain: 'zone', enforcement: 'preferred', preferredWeight: 1.5 };
    expect(found(dgd({ experimental: { kvTransferPolicy: policy } }))).toEqual([
      { path: 'spec.experimental.kvTransferPolicy.preferredWeight', message: 'Invalid value: 1.5: should be less than or equal to 1', rule: '35' },
    ]);
  });

  test('row 36: exactly one of labelKey or clusterTopologyName', () => {
    expect(found(dgd({ experimental: { kvTransferPolicy: { domain: 'zone' } } }))).toEqual([
      { path: 'spec.experimental.kvTransferPolicy', message: 'Invalid value: "object": exactly one of labelKey or clusterTopologyName is required', rule: '36' },
    ]);
  });

  test('row 37: preferredWeight required when enforcement is preferred', () => {
    const policy = { labelKey: 'topology.kubernetes.io/zone', domain: 'zone', enforcement: 'preferred' };
    expect(found(dgd({ experimental: { kvTransferPolicy: policy } }))).toEqual([
      { path: 'spec.experimental.kvTransferPolicy', message: 'Invalid value: "object": preferredWeight is required when enforcement is preferred', rule: '37' },
    ]);
  });

  test('row 37: preferredWeight only with enforcement preferred (enforcement defaults to required)', () => {
    const policy = { labelKey: 'topology.kubernetes.io/zone', domain: 'zone', preferredWeight: 0.5 };
    expect(found(dgd({ experimental: { kvTransferPolicy: policy } }))).toEqual([
      { path: 'spec.experimental.kvTransferPolicy', message: 'Invalid value: "object": preferredWeight may only be set when enforcement is preferred', rule: '37' },
    ]);
  });

  test('row 38: labelKey prefix at most 253 characters', () => {
    const prefix = `${`${'a'.repeat(63)}.`.repeat(3)}${'a'.repeat(62)}`;
    expect(prefix.length).toBe(254);
    const policy = { labelKey: `${prefix}/zone`, domain: 'zone' };
    expect(found(dgd({ experimental: { kvTransferPolicy: policy } }))).toEqual([
      { path: 'spec.experimental.kvTransferPolicy.labelKey', message: 'Invalid value: "string": labelKey prefix must be 253 characters or less', rule: '38' },
    ]);
  });
});

describe('component identity, image, runtime version (rows 41-58)', () => {
  test('row 41: component name pattern', () => {
    expect(found(dgdWith(frontend(), worker({ name: 'my_worker' })))).toEqual([
      {
        path: 'spec.components[1].name',
        message: "Invalid value: \"my_worker\": should match '^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$'",
        rule: '41',
      },
    ]);
  });

  test('row 41: component name at most 63 characters', () => {
    const doc = dgd({ components: [frontend(), worker({ name: 'w'.repeat(64) })] }, { annotations: NO_GROVE });
    expect(found(doc)).toEqual([{ path: 'spec.components[1].name', message: 'Too long: may not be longer than 63', rule: '41' }]);
  });

  test('row 41: component name required in a DGD', () => {
    const nameless = worker();
    delete nameless.name;
    expect(found(dgdWith(frontend(), nameless))).toEqual([{ path: 'spec.components[1].name', message: 'Required value', rule: '41' }]);
  });

  test('row 43: component type enum', () => {
    expect(found(dgdWith(frontend(), worker({ type: 'router' })))).toEqual([
      {
        path: 'spec.components[1].type',
        message: 'Unsupported value: "router": supported values: "frontend", "worker", "prefill", "decode", "planner", "epp"',
        rule: '43',
      },
    ]);
  });

  test('row 45: runtimeVersionOverride pattern', () => {
    expect(found(dgdWith(frontend(), worker({ runtimeVersionOverride: '1.4' })))).toEqual([
      {
        path: 'spec.components[1].runtimeVersionOverride',
        message: "Invalid value: \"1.4\": should match '^(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})\\.(0|[1-9][0-9]{0,3})$'",
        rule: '45',
      },
    ]);
  });

  test('row 52: eppConfig only on EPP components', () => {
    expect(found(dgdWith(frontend(), worker({ eppConfig: EPP_CONFIG })))).toEqual([
      { path: 'spec.components[1]', message: 'Invalid value: "object": eppConfig may only be set when type is epp', rule: '52' },
    ]);
  });

  test('row 53: exactly one of configMapRef or config', () => {
    expect(found(dgdWith(frontend(), worker(), epp({ eppConfig: {} })))).toEqual([
      { path: 'spec.components[2].eppConfig', message: 'Invalid value: "object": exactly one of configMapRef or config must be specified', rule: '53' },
    ]);
  });

  test('row 54: configMapRef.key required', () => {
    expect(found(dgdWith(frontend(), worker(), epp({ eppConfig: { configMapRef: { name: 'epp-config' } } })))).toEqual([
      { path: 'spec.components[2].eppConfig.configMapRef.key', message: 'Required value', rule: '54' },
    ]);
  });

  test('row 54: config requires plugins and schedulingProfiles', () => {
    expect(found(dgdWith(frontend(), worker(), epp({ eppConfig: { config: { schedulingProfiles: [] } } })))).toEqual([
      { path: 'spec.components[2].eppConfig.config.plugins', message: 'Required value', rule: '54' },
    ]);
  });
});

describe('replicas and minAvailable (rows 59-65)', () => {
  test('row 59: replicas at least 0', () => {
    expect(found(dcd({ replicas: -1 }))).toEqual([
      { path: 'spec.replicas', message: 'Invalid value: -1: should be greater than or equal to 0', rule: '59' },
    ]);
  });

  test('row 59: replicas is an integer', () => {
    expect(found(dcd({ replicas: '2' }))).toEqual([
      { path: 'spec.replicas', message: 'Invalid value: "2": must be of type integer', rule: '59' },
    ]);
  });

  test('row 61: minAvailable at least 1', () => {
    expect(found(dgdWith(frontend(), worker({ minAvailable: 0 })))).toEqual([
      { path: 'spec.components[1].minAvailable', message: 'Invalid value: 0: should be greater than or equal to 1', rule: '61' },
    ]);
  });

  test('row 62: minAvailable at most replicas', () => {
    expect(found(dgdWith(frontend(), worker({ replicas: 2, minAvailable: 3 })))).toEqual([
      { path: 'spec.components[1]', message: 'Invalid value: "object": minAvailable must be less than or equal to replicas unless replicas is 0', rule: '62' },
    ]);
  });

  test('row 62: replicas defaults to 1 before the CEL rule runs (row 60)', () => {
    expect(found(dgdWith(frontend(), worker({ minAvailable: 2 })))).toEqual([
      expect.objectContaining({ path: 'spec.components[1]', rule: '62' }),
    ]);
  });

  test('row 62: replicas 0 allows any minAvailable', () => {
    expect(found(dgdWith(frontend(), worker({ replicas: 0, minAvailable: 3 })))).toEqual([]);
  });
});

describe('multinode and roles (rows 67-79)', () => {
  const multinodeWorker = (extra: Record<string, any> = {}): any => worker({ multinode: { nodeCount: 2 }, ...extra });

  test('row 67: nodeCount at least 2', () => {
    expect(found(dgdWith(frontend(), worker({ multinode: { nodeCount: 1 } })))).toEqual([
      { path: 'spec.components[1].multinode.nodeCount', message: 'Invalid value: 1: should be greater than or equal to 2', rule: '67' },
    ]);
  });

  test('rows 70 and 73: role replicas at least 1 and fixed by the role', () => {
    expect(found(dgdWith(frontend(), multinodeWorker({ roles: [{ name: 'leader', replicas: 0 }, { name: 'worker' }] })))).toEqual([
      { path: 'spec.components[1].roles[0].replicas', message: 'Invalid value: 0: should be greater than or equal to 1', rule: '70' },
      { path: 'spec.components[1].roles[0].replicas', message: 'Invalid value: 0: must equal 1 for multinode role "leader"', rule: '73' },
    ]);
  });

  test('row 70: role name pattern and duplicates', () => {
    expect(found(dgdWith(frontend(), multinodeWorker({ roles: [{ name: 'leader' }, { name: 'worker' }, { name: 'worker' }] })))).toEqual([
      { path: 'spec.components[1].roles[2]', message: 'Duplicate value: {"name":"worker"}', rule: '70' },
    ]);
  });

  test('row 70: role name required', () => {
    expect(found(dgdWith(frontend(), multinodeWorker({ roles: [{ replicas: 1 }, { name: 'worker' }] })))).toEqual([
      { path: 'spec.components[1].roles', message: 'Required value: must contain the "leader" role', rule: '72' },
      { path: 'spec.components[1].roles[0].name', message: 'Required value', rule: '70' },
    ]);
  });

  test('row 79: no providerOverride in a standalone DCD', () => {
    expect(found(dcd({ providerOverride: { apiVersion: 'grove.io/v1alpha1', value: {} } }))).toEqual([
      { path: 'spec.providerOverride', message: 'unknown field "spec.providerOverride"', rule: '79' },
    ]);
  });

  test('row 79: no multinode.leader in a standalone DCD', () => {
    expect(found(dcd({ multinode: { nodeCount: 2, leader: {} } }))).toEqual([
      { path: 'spec.multinode.leader', message: 'unknown field "spec.multinode.leader"', rule: '79' },
    ]);
  });

  test('row 79: no role providerOverride in a standalone DCD', () => {
    const roles = [{ name: 'leader', providerOverride: { apiVersion: 'grove.io/v1alpha1', value: {} } }, { name: 'worker' }];
    expect(found(dcd({ multinode: { nodeCount: 2 }, roles }))).toEqual([
      { path: 'spec.roles[0].providerOverride', message: 'unknown field "spec.roles[0].providerOverride"', rule: '79' },
    ]);
  });
});

describe('providerOverride schema (row 78)', () => {
  test('apiVersion and value required', () => {
    expect(found(dgd({ providerOverride: { target: 'PodCliqueSet' } }))).toEqual([
      { path: 'spec.providerOverride.apiVersion', message: 'Required value', rule: '78' },
      { path: 'spec.providerOverride.apiVersion', message: 'Required value: is required', rule: '83' },
      { path: 'spec.providerOverride.value', message: 'Required value', rule: '78' },
    ]);
  });
});

describe('pod template (rows 89-104)', () => {
  test('row 89: containers required', () => {
    expect(found(dgdWith(frontend(), worker({ podTemplate: { spec: {} } })))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers', message: 'Required value', rule: '89' },
      { path: 'spec.components[1].podTemplate.spec.containers', message: 'Required value: is required', rule: '46' },
    ]);
  });

  test('row 89: container name required', () => {
    const template = { spec: { containers: [{ name: 'main', image: IMAGE }, { image: IMAGE }] } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers[1].name', message: 'Required value', rule: '89' },
    ]);
  });

  test('row 89: container names unique', () => {
    const template = { spec: { containers: [{ name: 'main', image: IMAGE }, { name: 'main', image: IMAGE }] } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers[1]', message: 'Duplicate value: {"name":"main"}', rule: '89' },
    ]);
  });

  test('row 90: sidecars need an image', () => {
    const template = { spec: { containers: [{ name: 'main', image: IMAGE }, { name: 'proxy' }] } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers[1]', message: 'Invalid value: "object": sidecar containers must specify a non-empty image', rule: '90' },
    ]);
  });

  test('row 91: init containers need an image', () => {
    const template = { spec: { containers: [{ name: 'main', image: IMAGE }], initContainers: [{ name: 'setup', image: '' }] } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.initContainers[0]', message: 'Invalid value: "object": init containers must specify a non-empty image', rule: '91' },
    ]);
  });

  test('row 92: backend annotation mp or ray', () => {
    const template = { ...podTemplate(), metadata: { annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'gloo' } } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([
      { path: 'spec.components[1].podTemplate.metadata.annotations', message: 'Invalid value: "object": podTemplate backend annotation must be mp or ray, case-insensitively', rule: '92' },
    ]);
  });

  test('row 92: backend annotation accepted case-insensitively', () => {
    const template = { ...podTemplate(), metadata: { annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'RAY' } } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([]);
  });

  test('row 92: annotation values at most 262144 characters', () => {
    const template = { ...podTemplate(), metadata: { annotations: { note: 'x'.repeat(262145) } } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([
      { path: 'spec.components[1].podTemplate.metadata.annotations[note]', message: 'Too long: may not be longer than 262144', rule: '92' },
    ]);
  });

  test('row 99: sharedMemorySize is a quantity', () => {
    expect(found(dgdWith(frontend(), worker({ sharedMemorySize: '8 GB' })))).toEqual([
      expect.objectContaining({ path: 'spec.components[1].sharedMemorySize', rule: '99' }),
    ]);
    expect(found(dgdWith(frontend(), worker({ sharedMemorySize: '8 GB' })))[0].message).toMatch(/^Invalid value: "8 GB": should match '/);
  });

  test('row 101: compilationCache.pvcName required', () => {
    expect(found(dgdWith(frontend(), worker({ compilationCache: { mountPath: '/cache' } })))).toEqual([
      { path: 'spec.components[1].compilationCache.pvcName', message: 'Required value', rule: '101' },
    ]);
  });

  test('row 102: modelRef.name not empty', () => {
    expect(found(dgdWith(frontend(), worker({ modelRef: { name: '' } })))).toEqual([
      { path: 'spec.components[1].modelRef.name', message: 'Invalid value: "": should be at least 1 chars long', rule: '102' },
    ]);
  });

  test('row 104: component topologyConstraint.packDomain required', () => {
    const doc = dgd({ topologyConstraint: { clusterTopologyName: 'topo', packDomain: 'rack' }, components: [frontend(), worker({ topologyConstraint: {} })] });
    expect(found(doc)).toEqual([
      { path: 'spec.components[1].topologyConstraint.packDomain', message: 'Required value', rule: '104' },
    ]);
  });
});

describe('experimental (rows 107-139)', () => {
  const DISCOVERY = { 'nvidia.com/dynamo-kube-discovery-mode': 'container' };

  test('row 107: gpuMemoryService mode enum', () => {
    expect(found(dgdWith(frontend(), worker({ experimental: { gpuMemoryService: { mode: 'Remote' } } })))).toEqual([
      { path: 'spec.components[1].experimental.gpuMemoryService.mode', message: 'Unsupported value: "Remote": supported values: "IntraPod", "InterPod"', rule: '107' },
    ]);
  });

  test('row 109: extraClientContainers is a set', () => {
    const template = { spec: { containers: [{ name: 'main', image: IMAGE, resources: { limits: { 'nvidia.com/gpu': 1 } } }, { name: 'helper', image: IMAGE }] } };
    const gms = { extraClientContainers: ['helper', 'helper'] };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template, experimental: { gpuMemoryService: gms } })))).toEqual([
      { path: 'spec.components[1].experimental.gpuMemoryService.extraClientContainers[1]', message: 'Duplicate value: "helper"', rule: '109' },
    ]);
  });

  test('rows 110: extraClientContainers only with IntraPod', () => {
    const gms = { mode: 'InterPod', extraClientContainers: ['helper'] };
    expect(found(dgdWith(frontend(), worker({ experimental: { gpuMemoryService: gms } })))).toEqual([
      { path: 'spec.components[1].experimental.gpuMemoryService', message: 'Invalid value: "object": extraClientContainers is only supported with mode=IntraPod', rule: '110' },
    ]);
  });

  test('rows 111 and 112: extraClientPods', () => {
    const gms = { extraClientPods: [{ name: 'client', podTemplate: {} }] };
    expect(found(dgdWith(frontend(), worker({ experimental: { gpuMemoryService: gms } })))).toEqual([
      { path: 'spec.components[1].experimental.gpuMemoryService', message: 'Invalid value: "object": extraClientPods is only supported with mode=InterPod', rule: '111' },
      {
        path: 'spec.components[1].experimental.gpuMemoryService',
        message: 'Invalid value: "object": extraClientPods is reserved for inter-pod GMS and is not implemented yet',
        rule: '112',
      },
    ]);
  });

  test('row 113: extraClientPods need a podTemplate', () => {
    const gms = { mode: 'InterPod', extraClientPods: [{ name: 'client' }] };
    expect(found(dgdWith(frontend(), worker({ experimental: { gpuMemoryService: gms } })))).toEqual([
      expect.objectContaining({ rule: '112' }),
      { path: 'spec.components[1].experimental.gpuMemoryService.extraClientPods[0].podTemplate', message: 'Required value', rule: '113' },
    ]);
  });

  test('row 120: failover mode enum', () => {
    const experimental = { gpuMemoryService: {}, failover: { mode: 'Active' } };
    expect(found(dgdWith(frontend(), worker({ experimental })))).toEqual([
      { path: 'spec.components[1].experimental.failover.mode', message: 'Unsupported value: "Active": supported values: "IntraPod", "InterPod"', rule: '120' },
      { path: 'spec.components[1].experimental.failover.mode', message: 'Invalid value: "Active": must match gpuMemoryService.mode "IntraPod"', rule: '123' },
    ]);
  });

  test('row 121: numShadows is 1', () => {
    const experimental = { gpuMemoryService: {}, failover: { numShadows: 2 } };
    expect(found(dgd({ components: [frontend(), worker({ experimental })] }, { annotations: DISCOVERY }))).toEqual([
      { path: 'spec.components[1].experimental.failover.numShadows', message: 'Invalid value: 2: should be less than or equal to 1', rule: '121' },
    ]);
  });

  test('row 131: checkpoint.enabled required', () => {
    expect(found(dgdWith(frontend(), worker({ experimental: { checkpoint: {} } })))).toEqual([
      { path: 'spec.components[1].experimental.checkpoint.enabled', message: 'Required value', rule: '131' },
    ]);
  });

  test('rows 132-135: checkpoint enums and container name', () => {
    const checkpoint = { enabled: false, mode: 'Sometimes', startupPolicy: 'Later', deletionPolicy: 'Keep', targetContainerName: 'Main' };
    expect(found(dgdWith(frontend(), worker({ experimental: { checkpoint } })))).toEqual([
      { path: 'spec.components[1].experimental.checkpoint.mode', message: 'Unsupported value: "Sometimes": supported values: "Auto", "Manual"', rule: '132' },
      {
        path: 'spec.components[1].experimental.checkpoint.startupPolicy',
        message: 'Unsupported value: "Later": supported values: "Immediate", "WaitForCheckpoint"',
        rule: '133',
      },
      { path: 'spec.components[1].experimental.checkpoint.deletionPolicy', message: 'Unsupported value: "Keep": supported values: "Delete", "Retain"', rule: '134' },
      {
        path: 'spec.components[1].experimental.checkpoint.targetContainerName',
        message: "Invalid value: \"Main\": should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'",
        rule: '135',
      },
    ]);
  });

  test('row 136: checkpointRef is a string', () => {
    expect(found(dgdWith(frontend(), worker({ experimental: { checkpoint: { enabled: false, checkpointRef: 5 } } })))).toEqual([
      { path: 'spec.components[1].experimental.checkpoint.checkpointRef', message: 'Invalid value: 5: must be of type string', rule: '136' },
    ]);
  });

  test('row 137: gmsClientContainers is a set of DNS labels', () => {
    const template = { spec: { containers: [{ name: 'main', image: IMAGE, resources: { limits: { 'nvidia.com/gpu': 1 } } }] } };
    const experimental = { gpuMemoryService: {}, checkpoint: { enabled: false, job: { gmsClientContainers: ['saver', 'Saver_2', 'saver'] } } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template, experimental })))).toEqual([
      {
        path: 'spec.components[1].experimental.checkpoint.job.gmsClientContainers[1]',
        message: "Invalid value: \"Saver_2\": should match '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$'",
        rule: '137',
      },
      { path: 'spec.components[1].experimental.checkpoint.job.gmsClientContainers[2]', message: 'Duplicate value: "saver"', rule: '137' },
    ]);
  });

  test('row 138: checkpoint identity', () => {
    const checkpoint = { enabled: false, identity: { model: '', tensorParallelSize: 0 } };
    expect(found(dgdWith(frontend(), worker({ experimental: { checkpoint } })))).toEqual([
      { path: 'spec.components[1].experimental.checkpoint.identity.model', message: 'Invalid value: "": should be at least 1 chars long', rule: '138' },
      { path: 'spec.components[1].experimental.checkpoint.identity.tensorParallelSize', message: 'Invalid value: 0: should be greater than or equal to 1', rule: '138' },
      { path: 'spec.components[1].experimental.checkpoint.identity.backendFramework', message: 'Required value', rule: '138' },
    ]);
  });

  test('row 139: job and checkpointRef are exclusive', () => {
    const checkpoint = { enabled: false, checkpointRef: 'snap', job: {} };
    expect(found(dgdWith(frontend(), worker({ experimental: { checkpoint } })))).toEqual([
      { path: 'spec.components[1].experimental.checkpoint', message: 'Invalid value: "object": checkpoint.job cannot be set when checkpointRef is specified', rule: '139' },
    ]);
  });
});

describe('the structural check reads the generated CRD schema', () => {
  const componentType = DGD_V1BETA1_SCHEMA.properties?.spec.properties?.components.items?.properties?.type;

  test('supported values come from the generated enum', () => {
    const supported = (componentType?.enum ?? []).map((value) => JSON.stringify(value)).join(', ');
    expect(supported).not.toBe('');
    expect(found(dgdWith(frontend(), worker({ type: 'router' })))[0].message).toBe(`Unsupported value: "router": supported values: ${supported}`);
    expect(DCD_V1BETA1_SCHEMA.properties?.spec.properties?.type.enum).toEqual(componentType?.enum);
  });

  /** validateDocument over a copy of the generated schema that `change` edits. */
  function validateWithSchema(change: (schema: any) => void): (doc: unknown) => Violation[] {
    let validate: ((doc: unknown) => Violation[]) | undefined;
    jest.isolateModules(() => {
      jest.doMock('../imports/nvidia.com.schema', () => {
        const actual = jest.requireActual('../imports/nvidia.com.schema');
        const schema = JSON.parse(JSON.stringify(actual.DGD_V1BETA1_SCHEMA));
        change(schema);
        return { ...actual, DGD_V1BETA1_SCHEMA: schema };
      });
      validate = jest.requireActual('../src/admission').validateDocument;
    });
    jest.dontMock('../imports/nvidia.com.schema');
    return validate as (doc: unknown) => Violation[];
  }

  const triples = (violations: Violation[]): unknown[] => violations.map(({ path, message, rule }) => ({ path, message, rule }));

  test('a field only the generated schema has is accepted and checked, with its overlay row', () => {
    const validate = validateWithSchema((schema) => {
      const component = schema.properties.spec.properties.components.items.properties;
      component.maxRestarts = { type: 'integer', minimum: 0 };
      component.replicas.maximum = 10;
    });
    expect(found(dgdWith(frontend(), worker({ maxRestarts: 3 })))).toEqual([
      { path: 'spec.components[1].maxRestarts', message: 'unknown field "spec.components[1].maxRestarts"', rule: 'schema' },
    ]);
    expect(validate(dgdWith(frontend(), worker({ maxRestarts: 3 })))).toEqual([]);
    expect(triples(validate(dgdWith(frontend(), worker({ maxRestarts: -1, replicas: 11 }))))).toEqual([
      { path: 'spec.components[1].maxRestarts', message: 'Invalid value: -1: should be greater than or equal to 0', rule: 'schema' },
      { path: 'spec.components[1].replicas', message: 'Invalid value: 11: should be less than or equal to 10', rule: '59' },
    ]);
  });

  test('list types, int-or-string, minItems and open objects come from the generated schema', () => {
    const validate = validateWithSchema((schema) => {
      const spec = schema.properties.spec.properties;
      spec.order = { 'type': 'array', 'minItems': 1, 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } };
      spec.budget = { 'x-kubernetes-int-or-string': true };
      spec.extra = { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true };
      spec.restart.properties.strategy.properties.type.enum = ['Sequential', 'Parallel', 'Random'];
    });
    expect(triples(validate(dgd({ order: ['a', 'a'], budget: '10%', extra: { anything: 1 } })))).toEqual([
      { path: 'spec.order[1]', message: 'Duplicate value: "a"', rule: 'schema' },
    ]);
    expect(triples(validate(dgd({ order: [], budget: 1.5 })))).toEqual([
      { path: 'spec.order', message: 'Invalid value: []: should have at least 1 items', rule: 'schema' },
      { path: 'spec.budget', message: 'Invalid value: 1.5: must be of type integer or string', rule: 'schema' },
    ]);
    expect(triples(validate(dgd({ restart: { id: 'r', strategy: { type: 'Random' } } })))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '11' }),
    ]);
  });
});
