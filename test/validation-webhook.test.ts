/**
 * Validating-webhook (WH) rows of docs/design/validation-rules.md evaluated on create: one minimal invalid
 * object per message.
 */
import { dcd, dgd, dgdWith, found, frontend, IMAGE, podTemplate, worker } from './fixtures/validation/builders';

const NO_GROVE = { 'nvidia.com/enable-grove': 'false' };
const DISCOVERY = { 'nvidia.com/dynamo-kube-discovery-mode': 'container' };
const GROVE_REQUIRED = 'Forbidden: requires the Grove pathway, but workload provider "component" is selected';
const EPP_CONFIG = { configMapRef: { name: 'epp-config', key: 'config.yaml' } };
const epp = (extra: Record<string, any> = {}): any => ({ name: 'epp', type: 'epp', eppConfig: EPP_CONFIG, podTemplate: podTemplate(), ...extra });
const withImage = (image: string, gpus?: string): any => ({ spec: { containers: [{ name: 'main', image, ...(gpus ? { resources: { limits: { 'nvidia.com/gpu': gpus } } } : {}) }] } });
/** The rules of operators with the newer EPP runtime contract and row 145 (1.6.0, newer sources). */
const NEWER = { version: '1.6.0' };

describe('DGD metadata annotations (rows 1-6)', () => {
  test('row 1: origin version must be semver', () => {
    expect(found(dgd({}, { annotations: { 'nvidia.com/dynamo-operator-origin-version': 'one' } }))).toEqual([
      { path: 'metadata.annotations[nvidia.com/dynamo-operator-origin-version]', message: 'Invalid value: "one": must be valid semver', rule: '1' },
    ]);
    expect(found(dgd({}, { annotations: { 'nvidia.com/dynamo-operator-origin-version': 'v1.2' } }))).toEqual([]);
  });

  test('row 2: vLLM executor backend', () => {
    expect(found(dgd({}, { annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'nccl' } }))).toEqual([
      { path: 'metadata.annotations[nvidia.com/vllm-distributed-executor-backend]', message: 'Invalid value: "nccl": must be "mp" or "ray"', rule: '2' },
    ]);
    expect(found(dgd({}, { annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'Ray' } }))).toEqual([]);
  });

  test('row 3: Grove update strategy', () => {
    expect(found(dgd({}, { annotations: { 'nvidia.com/grove-update-strategy': 'Rolling' } }))).toEqual([
      {
        path: 'metadata.annotations[nvidia.com/grove-update-strategy]',
        message: 'Unsupported value: "Rolling": supported values: "RollingRecreate", "OnDelete"',
        rule: '3',
      },
    ]);
  });

  test('row 4: discovery mode', () => {
    expect(found(dgd({}, { annotations: { 'nvidia.com/dynamo-kube-discovery-mode': 'node' } }))).toEqual([
      { path: 'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]', message: 'Unsupported value: "node": supported values: "pod", "container"', rule: '4' },
    ]);
  });

  test('row 6: intra-pod failover needs container discovery', () => {
    const experimental = { gpuMemoryService: {}, failover: {} };
    expect(found(dgdWith(frontend(), worker({ experimental })))).toEqual([
      {
        path: 'metadata.annotations[nvidia.com/dynamo-kube-discovery-mode]',
        message: 'Invalid value: "": must be "container" when intra-pod failover is configured',
        rule: '6',
      },
    ]);
    expect(found(dgd({ components: [frontend(), worker({ experimental })] }, { annotations: DISCOVERY }))).toEqual([]);
  });
});

describe('DGD spec (rows 17-39)', () => {
  test('row 17: at least one component', () => {
    const expected = [{ path: 'spec.components', message: 'Required value: must have at least one component', rule: '17' }];
    expect(found(dgd({ components: [] }))).toEqual(expected);
    const doc = dgd();
    delete doc.spec.components;
    expect(found(doc)).toEqual(expected);
  });

  test('row 19: single-node component name too long for Grove pod names', () => {
    const doc = dgd({ components: [frontend({ name: 'f'.repeat(40) })] }, {});
    doc.metadata.name = 'graph-name';
    expect(found(doc)).toEqual([
      {
        path: 'spec.components[0].name',
        message: `Invalid value: "${'f'.repeat(40)}": combined resource name length 48 exceeds the 45-character pod-name limit (PCS name + component name); ` +
          `shorten DynamoGraphDeployment name "graph-name" or component name "${'f'.repeat(40)}"`,
        rule: '19',
      },
    ]);
  });

  test('row 19: multinode component counted with its longest clique name', () => {
    const doc = dgdWith(frontend(), worker({ name: 'VllmPrefillWorker', multinode: { nodeCount: 2 } }));
    doc.metadata.name = 'my-deployment-dgd';
    expect(found(doc)).toEqual([
      {
        path: 'spec.components[1].name',
        message: 'Invalid value: "VllmPrefillWorker": combined resource name length 46 exceeds the 45-character pod-name limit ' +
          '(PCS name + PCSG name + longest PodClique name "vllmprefillworker-ldr"); ' +
          'shorten DynamoGraphDeployment name "my-deployment-dgd" or component name "VllmPrefillWorker"',
        rule: '19',
      },
    ]);
  });

  test('row 19: not checked off the Grove pathway', () => {
    const doc = dgd({ components: [frontend({ name: 'f'.repeat(40) })] }, { annotations: NO_GROVE });
    expect(found(doc)).toEqual([]);
  });

  test('row 20: priorityClassName needs Grove', () => {
    expect(found(dgd({ priorityClassName: 'high' }, { annotations: NO_GROVE }))).toEqual([
      { path: 'spec.priorityClassName', message: GROVE_REQUIRED, rule: '20' },
    ]);
    expect(found(dgd({ priorityClassName: 'high' }), { groveAvailable: false })).toEqual([
      { path: 'spec.priorityClassName', message: GROVE_REQUIRED, rule: '20' },
    ]);
    expect(found(dgd({ priorityClassName: 'high' }))).toEqual([]);
  });

  test('row 23: no order with the parallel strategy', () => {
    expect(found(dgd({ restart: { id: 'r1', strategy: { type: 'Parallel', order: ['Frontend', 'worker'] } } }))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '11' }),
      { path: 'spec.restart.strategy.order', message: 'Forbidden: cannot be specified when strategy is parallel', rule: '23' },
    ]);
  });

  test('row 24: order entries unique', () => {
    expect(found(dgd({ restart: { id: 'r1', strategy: { order: ['worker', 'worker', 'Frontend'] } } }))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '11' }),
      { path: 'spec.restart.strategy.order', message: 'Invalid value: ["worker","worker","Frontend"]: must be unique', rule: '24' },
    ]);
  });

  test('row 25: order names every component', () => {
    expect(found(dgd({ restart: { id: 'r1', strategy: { order: ['worker'] } } }))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '11' }),
      { path: 'spec.restart.strategy.order', message: 'Invalid value: ["worker"]: must have the same number of unique components as the deployment', rule: '25' },
    ]);
  });

  test('row 26: order entries are component names', () => {
    expect(found(dgd({ restart: { id: 'r1', strategy: { order: ['worker', 'planner'] } } }))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '11' }),
      { path: 'spec.restart.strategy.order[1]', message: 'Unsupported value: "planner": supported values: "Frontend", "worker"', rule: '26' },
    ]);
  });

  test('row 29: spec.topologyConstraint required with component constraints', () => {
    expect(found(dgdWith(frontend(), worker({ topologyConstraint: { packDomain: 'rack' } })))).toEqual([
      { path: 'spec.topologyConstraint', message: 'Required value: is required when any component topology constraint is set', rule: '29' },
    ]);
  });

  test('row 30: packDomain required without component constraints', () => {
    expect(found(dgd({ topologyConstraint: { clusterTopologyName: 'topo' } }))).toEqual([
      { path: 'spec.topologyConstraint.packDomain', message: 'Required value: is required when no component topologyConstraint is set', rule: '30' },
    ]);
  });

  test('row 33: typed topology and topology overrides are exclusive', () => {
    const providerOverride = { apiVersion: 'grove.io/v1alpha1', value: { spec: { template: { topologyConstraint: { pack: { required: 'rack' } } } } } };
    expect(found(dgd({ topologyConstraint: { clusterTopologyName: 'topo', packDomain: 'rack' }, providerOverride }))).toEqual([
      {
        path: 'spec.providerOverride.value',
        message: 'Forbidden: cannot be combined with spec.topologyConstraint or components[].topologyConstraint; ' +
          'use either the typed topology API or provider-native Grove topology overrides',
        rule: '33',
      },
    ]);
    expect(found(dgd({ providerOverride }))).toEqual([]);
  });

  test('row 39: KV transfer clusterTopologyName is a DNS subdomain', () => {
    const policy = { clusterTopologyName: 'Topo_1', domain: 'zone' };
    expect(found(dgd({ experimental: { kvTransferPolicy: policy } }))).toEqual([
      {
        path: 'spec.experimental.kvTransferPolicy.clusterTopologyName',
        message: 'Invalid value: "Topo_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, \'-\' or \'.\', ' +
          "and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is " +
          "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
        rule: '39',
      },
    ]);
  });

  test('row 39: KV transfer clusterTopologyName needs Grove', () => {
    const policy = { clusterTopologyName: 'topo', domain: 'zone' };
    expect(found(dgd({ experimental: { kvTransferPolicy: policy } }, { annotations: NO_GROVE }))).toEqual([
      { path: 'spec.experimental.kvTransferPolicy.clusterTopologyName', message: GROVE_REQUIRED, rule: '39' },
    ]);
  });
});

describe('main image and runtime version (rows 46-49)', () => {
  const RVO_REQUIRED = 'Required value: is required when the specified main container image has no parseable semantic-version tag';

  test('row 46: main container image required', () => {
    expect(found(dgdWith(frontend(), worker({ podTemplate: { spec: { containers: [{ name: 'main' }] } } })))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers[0].image', message: 'Required value: is required', rule: '46' },
    ]);
  });

  test('row 46: main container required', () => {
    const template = { spec: { containers: [{ name: 'proxy', image: IMAGE }] } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers', message: 'Required value: is required', rule: '46' },
    ]);
    const noTemplate = worker();
    delete noTemplate.podTemplate;
    expect(found(dgdWith(frontend(), noTemplate))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers', message: 'Required value: is required', rule: '46' },
    ]);
    expect(found(dcd({ podTemplate: undefined }))).toEqual([
      { path: 'spec.podTemplate.spec.containers', message: 'Required value: is required', rule: '46' },
    ]);
  });

  test('row 47: placeholder tag needs runtimeVersionOverride', () => {
    expect(found(dgdWith(frontend(), worker({ podTemplate: withImage('nvcr.io/nvidia/ai-dynamo/vllm-runtime:my-tag', '1') })))).toEqual([
      { path: 'spec.components[1].runtimeVersionOverride', message: RVO_REQUIRED, rule: '47' },
    ]);
    expect(found(dgdWith(frontend(), worker({ podTemplate: withImage('${DYNAMO_IMAGE}', '1') })))).toEqual([
      { path: 'spec.components[1].runtimeVersionOverride', message: RVO_REQUIRED, rule: '47' },
    ]);
    expect(found(dgdWith(frontend(), worker({ podTemplate: withImage('localhost:5000/vllm-runtime', '1') })))).toEqual([
      { path: 'spec.components[1].runtimeVersionOverride', message: RVO_REQUIRED, rule: '47' },
    ]);
  });

  test('row 47: accepted tags and overrides', () => {
    for (const image of ['repo/vllm-runtime:v1.4.0', 'repo/vllm-runtime:1.3.0-efa', 'repo/vllm-runtime:1.4.0+build.5', 'localhost:5000/r:1.4.0@sha256:abcd']) {
      expect(found(dgdWith(frontend(), worker({ podTemplate: withImage(image, '1') })))).toEqual([]);
    }
    expect(found(dgdWith(frontend(), worker({ runtimeVersionOverride: '1.4.0', podTemplate: withImage('repo/vllm-runtime:my-tag', '1') })))).toEqual([]);
  });

  test('row 47: standalone DCDs may omit the override, except EPP (operator 1.6.0)', () => {
    expect(found(dcd({ podTemplate: withImage('repo/vllm-runtime:my-tag', '1') }), NEWER)).toEqual([]);
    expect(found(dcd({ type: 'epp', eppConfig: EPP_CONFIG, podTemplate: withImage('repo/epp:my-tag') }), NEWER)).toEqual([
      { path: 'spec.runtimeVersionOverride', message: RVO_REQUIRED, rule: '47' },
    ]);
    // operators 1.4.0 and 1.5.0: every standalone DCD may omit it
    expect(found(dcd({ type: 'epp', eppConfig: EPP_CONFIG, podTemplate: withImage('repo/epp:my-tag') }))).toEqual([]);
  });

  test('row 49: native Rust EPP takes no eppConfig (operator 1.6.0)', () => {
    expect(found(dgdWith(frontend(), worker(), epp({ podTemplate: withImage('repo/epp:1.5.0') })), NEWER)).toEqual([
      {
        path: 'spec.components[2].eppConfig',
        message: 'Forbidden: must be omitted for native Rust EPP images with runtime version 1.5.0 or later',
        rule: '49',
      },
    ]);
    expect(found(dgdWith(frontend(), worker(), epp({ eppConfig: undefined, podTemplate: withImage('repo/epp:1.5.0-rc1') })), NEWER)).toEqual([]);
  });

  test('row 49: legacy Go EPP needs eppConfig (operator 1.6.0)', () => {
    expect(found(dgdWith(frontend(), worker(), epp({ eppConfig: undefined })), NEWER)).toEqual([
      { path: 'spec.components[2].eppConfig', message: 'Required value: is required for legacy Go EPP images with runtime version earlier than 1.5.0', rule: '49' },
    ]);
    expect(found(dgdWith(frontend(), worker(), epp({ eppConfig: undefined, runtimeVersionOverride: '1.5.0', podTemplate: withImage('repo/epp:my-tag') })), NEWER))
      .toEqual([]);
  });

  test('row 51: operators 1.4.0 and 1.5.0 ask every EPP for eppConfig, whatever its runtime version', () => {
    for (const operatorVersion of ['1.4.0', '1.5.0']) {
      expect(found(dgdWith(frontend(), worker(), epp({ eppConfig: undefined, podTemplate: withImage('repo/epp:1.5.0') })), { version: operatorVersion })).toEqual([
        { path: 'spec.components[2].eppConfig', message: 'Required value: is required for EPP components', rule: '51' },
      ]);
      expect(found(dgdWith(frontend(), worker(), epp({ podTemplate: withImage('repo/epp:1.5.0') })), { version: operatorVersion })).toEqual([]);
    }
  });
});

describe('EPP components (rows 55-58)', () => {
  test('row 55: configMapRef.name required', () => {
    expect(found(dgdWith(frontend(), worker(), epp({ eppConfig: { configMapRef: { key: 'config.yaml' } } })))).toEqual([
      { path: 'spec.components[2].eppConfig.configMapRef.name', message: 'Required value: is required', rule: '55' },
    ]);
  });

  test('row 57: EPP cannot be multinode', () => {
    expect(found(dgdWith(frontend(), worker(), epp({ multinode: { nodeCount: 2 } })))).toEqual([
      { path: 'spec.components[2].multinode', message: 'Forbidden: EPP component cannot be multinode', rule: '57' },
    ]);
  });

  test('row 58: EPP has one replica', () => {
    expect(found(dgdWith(frontend(), worker(), epp({ replicas: 2 })))).toEqual([
      { path: 'spec.components[2].replicas', message: 'Invalid value: 2: EPP component must have exactly 1 replica', rule: '58' },
    ]);
  });
});

describe('minAvailable (row 64)', () => {
  const MESSAGE = 'Forbidden: is currently supported only for Grove-backed DynamoGraphDeployment components';

  test('needs a Grove-backed DGD', () => {
    expect(found(dgd({ components: [frontend(), worker({ minAvailable: 1 })] }, { annotations: NO_GROVE }))).toEqual([
      { path: 'spec.components[1].minAvailable', message: MESSAGE, rule: '64' },
    ]);
    expect(found(dgdWith(frontend(), worker({ minAvailable: 1 })))).toEqual([]);
  });

  test('never on a standalone DCD', () => {
    expect(found(dcd({ minAvailable: 1 }))).toEqual([{ path: 'spec.minAvailable', message: MESSAGE, rule: '64' }]);
    expect(found(dcd({ minAvailable: 2 }))).toEqual([
      expect.objectContaining({ path: 'spec', rule: '62' }),
      { path: 'spec.minAvailable', message: MESSAGE, rule: '64' },
    ]);
  });
});

describe('roles (rows 71-73)', () => {
  test('row 71: roles only on multinode components', () => {
    expect(found(dgdWith(frontend(), worker({ roles: [{ name: 'leader' }, { name: 'worker' }] })))).toEqual([
      {
        path: 'spec.components[1].roles',
        message: 'Forbidden: roles are supported only for component shapes that define a role schema; this release supports multinode components',
        rule: '71',
      },
    ]);
  });

  test('row 72: leader and worker roles only, both present', () => {
    expect(found(dgdWith(frontend(), worker({ multinode: { nodeCount: 2 }, roles: [{ name: 'leader' }, { name: 'head' }] })))).toEqual([
      { path: 'spec.components[1].roles', message: 'Required value: must contain the "worker" role', rule: '72' },
      { path: 'spec.components[1].roles[1].name', message: 'Unsupported value: "head": supported values: "leader", "worker"', rule: '72' },
    ]);
  });

  test('row 73: worker replicas equal nodeCount - 1', () => {
    expect(found(dgdWith(frontend(), worker({ multinode: { nodeCount: 2 }, roles: [{ name: 'leader' }, { name: 'worker', replicas: 3 }] })))).toEqual([
      { path: 'spec.components[1].roles[1].replicas', message: 'Invalid value: 3: must equal 1 for multinode role "worker"', rule: '73' },
    ]);
    expect(found(dgdWith(frontend(), worker({ multinode: { nodeCount: 4 }, roles: [{ name: 'leader' }, { name: 'worker', replicas: 3 }] })))).toEqual([]);
  });
});

describe('provider overrides (rows 82-86)', () => {
  const override = (extra: Record<string, any> = {}): any => ({ apiVersion: 'grove.io/v1alpha1', value: { topologyConstraint: { pack: { required: 'rack' } } }, ...extra });

  test('valid overrides on the root, a component and a role', () => {
    const root = { apiVersion: 'grove.io/v1alpha1', value: { spec: { template: { topologyConstraint: { packDomain: 'rack' } } } } };
    const roles = [{ name: 'leader', providerOverride: override() }, { name: 'worker' }];
    const components = [frontend({ providerOverride: override() }), worker({ multinode: { nodeCount: 2 }, roles })];
    expect(found(dgd({ providerOverride: root, components }))).toEqual([]);
  });

  test('row 82: needs the Grove provider', () => {
    expect(found(dgd({ components: [frontend({ providerOverride: override() }), worker()] }, { annotations: NO_GROVE }))).toEqual([
      { path: 'spec.components[0].providerOverride', message: 'Forbidden: requires workload provider "grove", but "component" is selected', rule: '82' },
    ]);
  });

  test('row 83: apiVersion is grove.io/v1alpha1', () => {
    expect(found(dgdWith(frontend({ providerOverride: override({ apiVersion: 'grove.io/v1' }) }), worker()))).toEqual([
      { path: 'spec.components[0].providerOverride.apiVersion', message: 'Unsupported value: "grove.io/v1": supported values: "grove.io/v1alpha1"', rule: '83' },
    ]);
  });

  test('row 84: role overrides need a multinode component without inter-pod GMS', () => {
    const roles = [{ name: 'leader', providerOverride: override() }, { name: 'worker' }];
    const interPod = worker({ multinode: { nodeCount: 2 }, roles, experimental: { gpuMemoryService: { mode: 'InterPod' } } });
    expect(found(dgdWith(frontend(), interPod))).toEqual([
      { path: 'spec.components[1].roles[0].providerOverride', message: 'Forbidden: scope "roles.leader" is not supported for inter-pod GMS components', rule: '84' },
    ]);
    expect(found(dgdWith(frontend(), worker({ multinode: { nodeCount: 1 }, roles })))).toEqual([
      expect.objectContaining({ path: 'spec.components[1].multinode.nodeCount', rule: '67' }),
      { path: 'spec.components[1].roles[0].providerOverride', message: 'Forbidden: scope "roles.leader" requires a multinode component', rule: '84' },
    ]);
  });

  test('row 85: target matches the provider context', () => {
    expect(found(dgdWith(frontend({ providerOverride: override({ target: 'PodCliqueSet' }) }), worker()))).toEqual([
      {
        path: 'spec.components[0].providerOverride.target',
        message: 'Invalid value: "PodCliqueSet": must match the provider-context target "PodCliqueTemplateSpec"',
        rule: '85',
      },
    ]);
    // a scaling-group component resolves to the PodCliqueScalingGroupConfig target
    expect(found(dgdWith(frontend(), worker({ multinode: { nodeCount: 2 }, providerOverride: override({ target: 'PodCliqueScalingGroupConfig' }) })))).toEqual([]);
  });

  test('row 86: only the topology constraint may be overridden', () => {
    const value = { topologyConstraint: { pack: { required: 'rack' } }, replicas: 2 };
    expect(found(dgdWith(frontend({ providerOverride: override({ value }) }), worker()))).toEqual([
      { path: 'spec.components[0].providerOverride.value.replicas', message: 'Forbidden: is Dynamo-owned or not enabled for provider override', rule: '86' },
    ]);
  });

  test('row 86: the topology constraint is required', () => {
    expect(found(dgdWith(frontend({ providerOverride: override({ value: {} }) }), worker()))).toEqual([
      { path: 'spec.components[0].providerOverride.value.topologyConstraint', message: 'Invalid value: null: is required', rule: '86' },
    ]);
    expect(found(dgd({ providerOverride: { apiVersion: 'grove.io/v1alpha1', value: { spec: { template: {} } } } }))).toEqual([
      { path: 'spec.providerOverride.value.spec.template.topologyConstraint', message: 'Invalid value: null: is required', rule: '86' },
    ]);
  });

  test('row 86: the value matches the Grove type', () => {
    expect(found(dgdWith(frontend({ providerOverride: override({ value: { topologyConstraint: 'rack' } }) }), worker()))).toEqual([
      {
        path: 'spec.components[0].providerOverride.value',
        message: 'Invalid value: null: does not match the registered PodCliqueTemplateSpec schema: topologyConstraint must be an object',
        rule: '86',
      },
    ]);
    expect(found(dgd({ providerOverride: { apiVersion: 'grove.io/v1alpha1', value: { spec: { template: { topologyConstraint: { pack: { required: 3 } } } } } } }))).toEqual([
      {
        path: 'spec.providerOverride.value',
        message: 'Invalid value: null: does not match the registered PodCliqueSet schema: spec.template.topologyConstraint.pack.required must be a string',
        rule: '86',
      },
    ]);
  });

  test('row 86: the value is an object', () => {
    expect(found(dgdWith(frontend({ providerOverride: override({ value: 'rack' }) }), worker()))).toEqual([
      { path: 'spec.components[0].providerOverride.value', message: 'Invalid value: "rack": must be of type object', rule: '78' },
      { path: 'spec.components[0].providerOverride.value', message: 'Invalid value: null: must be a JSON object', rule: '86' },
    ]);
  });
});

describe('pod template (rows 93-103)', () => {
  test('row 93: elastic EP with Ray needs an explicit command', () => {
    const template = podTemplate('8', { args: ['python3 -m dynamo.vllm --enable-elastic-ep --data-parallel-backend ray'] });
    expect(found(dgdWith(frontend(), worker({ podTemplate: template })))).toEqual([
      {
        path: 'spec.components[1].podTemplate.spec.containers[0].command',
        message: 'Required value: elastic expert parallelism (--enable-elastic-ep with --data-parallel-backend ray) requires an explicit container command; ' +
          'the operator starts the single-pod Ray head by wrapping that command and cannot start it from the image ENTRYPOINT',
        rule: '93',
      },
    ]);
    const shortFlag = podTemplate('8', { args: ['--enable-elastic-ep', '-dpb=ray'] });
    expect(found(dgdWith(frontend(), worker({ podTemplate: shortFlag })))).toEqual([expect.objectContaining({ rule: '93' })]);
    const withCommand = podTemplate('8', { command: ['python3', '-m', 'dynamo.vllm'], args: ['--enable-elastic-ep', '-dpb', 'ray'] });
    expect(found(dgdWith(frontend(), worker({ podTemplate: withCommand })))).toEqual([]);
    expect(found(dgd({ backendFramework: 'sglang', components: [frontend(), worker({ podTemplate: template })] }))).toEqual([]);
  });

  test('row 95: GPU power limit is a positive decimal integer', () => {
    const template = (limit: string): any => ({ ...podTemplate('2'), metadata: { annotations: { 'dynamo.nvidia.com/gpu-power-limit': limit } } });
    const path = 'spec.components[1].podTemplate.metadata.annotations[dynamo.nvidia.com/gpu-power-limit]';
    expect(found(dgdWith(frontend(), worker({ podTemplate: template('350W') })))).toEqual([
      { path, message: 'Invalid value: "350W": must be a decimal integer', rule: '95' },
    ]);
    expect(found(dgdWith(frontend(), worker({ podTemplate: template('0') })))).toEqual([
      { path, message: 'Invalid value: "0": must be greater than zero', rule: '95' },
    ]);
    expect(found(dgdWith(frontend(), worker({ podTemplate: template('350') })))).toEqual([]);
  });

  test('row 96: GPU power limit excludes DRA', () => {
    const detail = 'Forbidden: cannot be combined with annotation "dynamo.nvidia.com/gpu-power-limit": power-aware planning does not support DRA-backed device allocation';
    const template = {
      metadata: { annotations: { 'dynamo.nvidia.com/gpu-power-limit': '300' } },
      spec: { containers: [{ name: 'main', image: IMAGE, resources: { limits: { 'nvidia.com/gpu': '1' }, claims: [{ name: 'gpu' }] } }] },
    };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template, experimental: { gpuMemoryService: {} } })))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers[0].resources.claims', message: detail, rule: '96' },
      { path: 'spec.components[1].experimental.gpuMemoryService', message: detail, rule: '96' },
    ]);
  });

  test('row 100: sharedMemorySize not negative', () => {
    expect(found(dgdWith(frontend(), worker({ sharedMemorySize: '-1Gi' })))).toEqual([
      { path: 'spec.components[1].sharedMemorySize', message: 'Invalid value: "-1Gi": must be non-negative', rule: '100' },
    ]);
    expect(found(dgdWith(frontend(), worker({ sharedMemorySize: '0' })))).toEqual([]);
  });

  test('row 103: frontendSidecar names a container', () => {
    expect(found(dgdWith(frontend(), worker({ frontendSidecar: 'sidecar-frontend' })))).toEqual([
      { path: 'spec.components[1].frontendSidecar', message: 'Invalid value: "sidecar-frontend": must match a podTemplate.spec.containers name', rule: '103' },
    ]);
    expect(found(dgdWith(frontend(), worker({ frontendSidecar: '' })))).toEqual([
      { path: 'spec.components[1].frontendSidecar', message: 'Invalid value: "": must not be empty', rule: '103' },
    ]);
    const noTemplate = worker({ frontendSidecar: 'sidecar-frontend' });
    delete noTemplate.podTemplate;
    expect(found(dgdWith(frontend(), noTemplate))).toEqual([
      { path: 'spec.components[1].podTemplate.spec.containers', message: 'Required value: is required when frontendSidecar is set', rule: '103' },
      { path: 'spec.components[1].podTemplate.spec.containers', message: 'Required value: is required', rule: '46' },
    ]);
  });
});

describe('GPU memory service (rows 114-118)', () => {
  test('row 114: worker-class components only', () => {
    expect(found(dgdWith(frontend({ podTemplate: podTemplate('1'), experimental: { gpuMemoryService: {} } }), worker()))).toEqual([
      { path: 'spec.components[0].experimental.gpuMemoryService', message: 'Forbidden: GPU memory service is only supported for worker, prefill, or decode components', rule: '114' },
    ]);
  });

  test('row 115: the main container needs a GPU', () => {
    expect(found(dgdWith(frontend(), worker({ podTemplate: podTemplate(), experimental: { gpuMemoryService: {} } })))).toEqual([
      {
        path: 'spec.components[1].experimental.gpuMemoryService',
        message: 'Forbidden: GPU memory service requires podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu >= 1',
        rule: '115',
      },
    ]);
  });

  test('row 115: GPU requests count when there are no GPU limits', () => {
    const template = { spec: { containers: [{ name: 'main', image: IMAGE, resources: { requests: { 'nvidia.com/gpu': '2' } } }] } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: template, experimental: { gpuMemoryService: {} } })))).toEqual([]);
  });

  test('row 116: extra clients name containers of the pod', () => {
    expect(found(dgdWith(frontend(), worker({ experimental: { gpuMemoryService: { extraClientContainers: ['helper'] } } })))).toEqual([
      {
        path: 'spec.components[1].experimental.gpuMemoryService.extraClientContainers[0]',
        message: 'Invalid value: "helper": does not name a container in podTemplate.spec.containers',
        rule: '116',
      },
    ]);
  });

  test('row 117: inter-pod GMS needs Grove', () => {
    const doc = dgd({ components: [frontend(), worker({ experimental: { gpuMemoryService: { mode: 'InterPod' } } })] }, { annotations: NO_GROVE });
    expect(found(doc)).toEqual([{ path: 'spec.components[1].experimental.gpuMemoryService.mode', message: GROVE_REQUIRED, rule: '117' }]);
  });

  test('row 118: inter-pod GMS needs vLLM', () => {
    const component = worker({ experimental: { gpuMemoryService: { mode: 'InterPod' } } });
    expect(found(dgd({ backendFramework: 'sglang', components: [frontend(), component] }))).toEqual([
      {
        path: 'spec.components[1].experimental.gpuMemoryService.mode',
        message: 'Invalid value: "InterPod": the inter-pod GMS layout is currently supported only for vLLM (detected backend: sglang)',
        rule: '118',
      },
    ]);
    expect(found(dgd({ backendFramework: undefined, components: [frontend(), component] }))).toEqual([
      {
        path: 'spec.components[1].experimental.gpuMemoryService.mode',
        message: 'Invalid value: "InterPod": the inter-pod GMS layout is currently supported only for vLLM (detected backend: <unset>)',
        rule: '118',
      },
    ]);
  });
});

describe('failover (rows 122-125)', () => {
  test('row 122: failover needs the GPU memory service', () => {
    expect(found(dgd({ components: [frontend(), worker({ experimental: { failover: {} } })] }, { annotations: DISCOVERY }))).toEqual([
      { path: 'spec.components[1].experimental.failover', message: 'Forbidden: gpuMemoryService is required when failover mode is "IntraPod"', rule: '122' },
    ]);
  });

  test('row 123: failover mode matches the GMS mode', () => {
    const experimental = { gpuMemoryService: {}, failover: { mode: 'InterPod' } };
    expect(found(dgdWith(frontend(), worker({ experimental })))).toEqual([
      { path: 'spec.components[1].experimental.failover.mode', message: 'Invalid value: "InterPod": must match gpuMemoryService.mode "IntraPod"', rule: '123' },
    ]);
  });

  test('row 124: inter-pod failover needs a readable GPU count of at least 1', () => {
    const experimental = { gpuMemoryService: { mode: 'InterPod' }, failover: { mode: 'InterPod' } };
    expect(found(dgdWith(frontend(), worker({ podTemplate: podTemplate(), experimental })))).toEqual([
      expect.objectContaining({ rule: '115' }),
      {
        path: 'spec.components[1].experimental.failover',
        message: 'Forbidden: GMS failover requires at least 1 GPU in podTemplate.spec.containers[main].resources.limits.nvidia.com/gpu',
        rule: '124',
      },
    ]);
    expect(found(dgdWith(frontend(), worker({ podTemplate: podTemplate('1.5'), experimental })))).toEqual([
      expect.objectContaining({ rule: '115' }),
      {
        path: 'spec.components[1].experimental.failover',
        message: 'Forbidden: failed to read main-container GPU limit: resource "nvidia.com/gpu" quantity "1.5" is not a whole number',
        rule: '124',
      },
    ]);
  });

  test('row 125: no inter-pod failover for frontend, planner, epp', () => {
    const planner = { name: 'planner', type: 'planner', podTemplate: podTemplate('1'), experimental: { gpuMemoryService: { mode: 'InterPod' }, failover: { mode: 'InterPod' } } };
    expect(found(dgdWith(frontend(), worker(), planner))).toEqual([
      expect.objectContaining({ path: 'spec.components[2].experimental.gpuMemoryService', rule: '114' }),
      { path: 'spec.components[2].experimental.failover', message: 'Forbidden: GMS failover is not supported for component type "planner"', rule: '125' },
    ]);
  });
});

describe('Grove scaling group (row 129)', () => {
  const MESSAGE = 'Forbidden: is currently supported only for Grove-backed DynamoGraphDeployment components';

  test('forceScalingGroup needs a Grove-backed DGD', () => {
    const experimental = { grove: { forceScalingGroup: true } };
    expect(found(dcd({ experimental }))).toEqual([{ path: 'spec.experimental.grove.forceScalingGroup', message: MESSAGE, rule: '129' }]);
    expect(found(dgd({ components: [frontend(), worker({ experimental })] }, { annotations: NO_GROVE }))).toEqual([
      { path: 'spec.components[1].experimental.grove.forceScalingGroup', message: MESSAGE, rule: '129' },
    ]);
    expect(found(dgdWith(frontend(), worker({ experimental })))).toEqual([]);
  });
});

describe('checkpoint (rows 140-145)', () => {
  test('row 140: the checkpoint gate', () => {
    const doc = dgdWith(frontend(), worker({ experimental: { checkpoint: { enabled: true } } }));
    expect(found(doc)).toEqual([]);
    expect(found(doc, { checkpointEnabled: false })).toEqual([
      { path: 'spec.components[1].experimental.checkpoint', message: 'Forbidden: checkpoint functionality is disabled in the operator configuration', rule: '140' },
    ]);
  });

  test('row 141: GMS clients of the capture pod need the GPU memory service', () => {
    const checkpoint = { enabled: true, job: { gmsClientContainers: ['saver'] } };
    expect(found(dgdWith(frontend(), worker({ experimental: { checkpoint } })))).toEqual([
      { path: 'spec.components[1].experimental.checkpoint.job.gmsClientContainers', message: 'Forbidden: requires gpuMemoryService to be set', rule: '141' },
    ]);
  });

  test('rows 142 and 143: no inter-pod GMS with checkpoints', () => {
    const checkpoint = { enabled: true, job: { gmsClientContainers: ['saver'] } };
    const experimental = { gpuMemoryService: { mode: 'InterPod' }, checkpoint };
    expect(found(dgdWith(frontend(), worker({ experimental })))).toEqual([
      { path: 'spec.components[1].experimental.checkpoint', message: 'Forbidden: Snapshot with gpuMemoryService.mode=InterPod is unsupported', rule: '143' },
      {
        path: 'spec.components[1].experimental.checkpoint.job.gmsClientContainers',
        message: 'Forbidden: is only supported with gpuMemoryService.mode=IntraPod',
        rule: '142',
      },
    ]);
  });

  test('row 144: no failover with checkpoints', () => {
    const experimental = { gpuMemoryService: {}, failover: {}, checkpoint: { enabled: true } };
    expect(found(dgd({ components: [frontend(), worker({ experimental })] }, { annotations: DISCOVERY }))).toEqual([
      { path: 'spec.components[1].experimental.checkpoint', message: 'Forbidden: Snapshot with active/passive failover is temporarily unsupported', rule: '144' },
    ]);
  });

  test('row 145: worker-class checkpointRef only on DGD-managed DCDs (operator 1.6.0)', () => {
    const experimental = { checkpoint: { enabled: true, checkpointRef: 'snap' } };
    // operators 1.4.0 and 1.5.0 have no such rule
    expect(found(dcd({ experimental }))).toEqual([]);
    expect(found(dcd({ experimental }), NEWER)).toEqual([
      {
        path: 'spec.experimental.checkpoint.checkpointRef',
        message: 'Forbidden: worker-class checkpointRef is supported only on DynamoGraphDeployment-managed components',
        rule: '145',
      },
    ]);
    const owner = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: 'demo', uid: 'u', controller: true };
    expect(found(dcd({ experimental }, { ownerReferences: [owner] }), NEWER)).toEqual([]);
    expect(found(dcd({ type: 'frontend', podTemplate: podTemplate(), experimental }), NEWER)).toEqual([]);
  });
});
