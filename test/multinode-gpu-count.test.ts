/**
 * GPUs per node (docs/design/render-multinode.md §2.3).
 */
import { renderUnchecked } from './support/facade';
import { IMAGE, standalone } from './support/graphs';
import { deviceClassGivesGpus, DeviceRequestJson, gpusPerNode, looksLikeGpuIdentifier } from '../src/engine';

/**
 * The GPUs per node the operator counts for a pod with this spec (a TensorRT-LLM leader on two
 * nodes, whose mpirun starts nodes × GPUs processes), `objects` given with the input as the
 * cluster's DRA objects, rendered in `namespace` (the DCD's own when `dcdNamespace` is given).
 */
function renderedGpus(podSpec: any, objects: unknown[] = [], namespace = 'default', dcdNamespace?: string): number {
  const containers = podSpec.containers.map((c: any) => (c.name === 'main'
    ? { image: IMAGE, command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model', 'm'], ...c }
    : { image: IMAGE, ...c }));
  const dcd = standalone({
    backendFramework: 'trtllm', name: 'decode', type: 'decode', multinode: { nodeCount: 2 }, podTemplate: { spec: { ...podSpec, containers } },
  }, { name: 'llm', ...(dcdNamespace ? { namespace: dcdNamespace } : {}) });
  const lws = renderUnchecked([dcd, ...objects], { namespace }).find(o => o.kind === 'LeaderWorkerSet');
  const script: string = lws.spec.leaderWorkerTemplate.leaderTemplate.spec.containers.find((c: any) => c.name === 'main').args[0];
  return Number(/ -n (\d+) -H /.exec(script)![1]) / 2;
}

const pod = (resources: unknown, extra: Record<string, unknown> = {}): unknown => ({
  containers: [{ name: 'sidecar', resources: { limits: { 'nvidia.com/gpu': '4' } } }, { name: 'main', resources }],
  ...extra,
});

const driverSelector = (driver: string): unknown[] => [{ cel: { expression: `device.driver == '${driver}'` } }];
const deviceClass = (name: string, selectors?: unknown[], spec: Record<string, unknown> = {}) =>
  ({ apiVersion: 'resource.k8s.io/v1', kind: 'DeviceClass', metadata: { name }, spec: { ...spec, ...(selectors ? { selectors } : {}) } });
const claimTemplate = (name: string, requests: DeviceRequestJson[]) =>
  ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaimTemplate', metadata: { name, namespace: 'default' }, spec: { spec: { devices: { requests } } } });
const resourceClaim = (name: string, requests: DeviceRequestJson[]) =>
  ({ apiVersion: 'resource.k8s.io/v1', kind: 'ResourceClaim', metadata: { name, namespace: 'default' }, spec: { devices: { requests } } });
const claimSpec = (template: string): unknown =>
  ({ containers: [{ name: 'main', resources: { claims: [{ name: 'gpu' }] } }], resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: template }] });

describe('docs/design/render-multinode.md §2.3 GPU count per node (scalar)', () => {
  /** The GPUs per node of a main container with these resources. */
  const scalarGpuCount = (resources: unknown): number => renderedGpus({ containers: [{ name: 'main', ...(resources ? { resources } : {}) }] });

  test('GPU resource names', () => {
    for (const n of ['nvidia.com/gpu', 'NVIDIA.COM/GPU', 'gpu', 'amd.com/gpu', 'nvidia.com/mig-1g.10gb', 'gpu.intel.com/i915']) {
      expect([n, scalarGpuCount({ limits: { [n]: '4' } })]).toEqual([n, 4]);
    }
    for (const n of ['cpu', 'memory', 'nvidia.com/gpus', 'example.com/gpu-x']) expect([n, scalarGpuCount({ limits: { [n]: '4' } })]).toEqual([n, 0]);
  });

  test('limits first, then requests, else 0', () => {
    expect(scalarGpuCount({ limits: { 'nvidia.com/gpu': '8' }, requests: { 'nvidia.com/gpu': '2' } })).toBe(8);
    expect(scalarGpuCount({ limits: { cpu: '1' }, requests: { 'nvidia.com/gpu': 2 } })).toBe(2);
    expect(scalarGpuCount({ limits: { cpu: '1' } })).toBe(0);
    expect(scalarGpuCount(undefined)).toBe(0);
  });

  test('several GPU names: the byte-wise first wins', () => {
    expect(scalarGpuCount({ limits: { 'nvidia.com/gpu': '8', 'amd.com/gpu': '2' } })).toBe(2);
  });

  test('whole numbers only', () => {
    expect(scalarGpuCount({ limits: { 'nvidia.com/gpu': '1k' } })).toBe(1000);
    expect(() => scalarGpuCount({ limits: { 'nvidia.com/gpu': '500m' } }))
      .toThrow(/DynamoComponentDeployment\/llm: spec\.podTemplate\.spec\.containers\[0\]\.resources\.limits\[nvidia\.com\/gpu\]: GPU count must be a whole number, got "500m"/);
  });

  test('read from the main container of the pod spec only', () => {
    expect(renderedGpus(pod({ limits: { 'nvidia.com/gpu': '8' } }))).toBe(8);
    expect(renderedGpus(pod(undefined))).toBe(0);
    expect(gpusPerNode({ containers: [] }, 'x')).toBe(0);
  });
});

describe('docs/design/render-multinode.md §2.3 GPU count per node (DRA claims)', () => {
  const requests: Record<string, DeviceRequestJson[]> = {
    'gpu-rct': [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', count: 4 } }, { name: 'nic', exactly: { deviceClassName: 'rdma-dranet' } }],
    'zero': [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', count: 0 } }],
    'all': [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'All' } }],
    'alts': [{ name: 'gpus', firstAvailable: [{ deviceClassName: 'gpu.nvidia.com', count: 2 }, { deviceClassName: 'gpu.intel.com', count: 2 }] }],
    'alts-differ': [{ name: 'gpus', firstAvailable: [{ deviceClassName: 'gpu.nvidia.com', count: 2 }, { deviceClassName: 'gpu.intel.com', count: 1 }] }],
  };
  const objects = [
    ...['gpu.nvidia.com', 'gpu.intel.com'].map(name => deviceClass(name, driverSelector(name))),
    deviceClass('rdma-dranet', driverSelector('dra.net.example.com')),
    ...Object.entries(requests).map(([name, r]) => claimTemplate(name, r)),
  ];
  const claimPod = (template: string, request?: string): unknown =>
    pod({ claims: [{ name: 'gpu', ...(request ? { request } : {}) }] }, { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: template }] });

  test('exactly.count of GPU device classes, non-GPU requests ignored', () => {
    expect(renderedGpus(claimPod('gpu-rct'), objects)).toBe(4);
  });

  test('count 0 counts as 1; allocationMode All is an error', () => {
    expect(renderedGpus(claimPod('zero'), objects)).toBe(1);
    expect(() => renderedGpus(claimPod('all'), objects)).toThrow(/allocationMode All/);
  });

  test('firstAvailable alternatives must agree on the count', () => {
    expect(renderedGpus(claimPod('alts'), objects)).toBe(2);
    expect(() => renderedGpus(claimPod('alts-differ'), objects)).toThrow(/different counts \(2 and 1\)/);
  });

  test('a container claim naming a request reads only that request', () => {
    expect(renderedGpus(claimPod('gpu-rct', 'nic'), objects)).toBe(0);
    expect(() => renderedGpus(claimPod('gpu-rct', 'missing'), objects))
      .toThrow('DynamoComponentDeployment/llm: spec.podTemplate.spec.containers[1].resources.claims[0]: device request "missing" was not found in ResourceClaimTemplate default/gpu-rct');
  });

  test('scalar GPUs take precedence over claims', () => {
    expect(gpusPerNode(pod({ limits: { 'nvidia.com/gpu': '8' }, claims: [{ name: 'gpu' }] }), 'x')).toBe(8);
  });

  test('claims without a lookup or without a pod entry are refused', () => {
    expect(() => gpusPerNode(claimPod('gpu-rct'), 'x')).toThrow(/needs the ResourceClaimTemplate \(or ResourceClaim\) and DeviceClass objects/);
    // rendered, the input's objects are the cluster: without them the template is missing
    expect(() => renderedGpus(claimPod('gpu-rct'))).toThrow(/ResourceClaimTemplate default\/gpu-rct/);
    expect(() => renderedGpus(pod({ claims: [{ name: 'other' }] }), objects)).toThrow(/"other" has no matching pod resourceClaims entry/);
  });
});

/**
 * dra_test.go TestResolveGPUCountFromResourceClaims: every case, with the same cluster (DeviceClasses
 * gpu.nvidia.com, gpu.intel.com, rdma-dranet restricted to drivers of their name / dra.net.example.com)
 * plus the case's objects; the main container claims the pod claim (and names `request` when given).
 */
describe('dra_test.go TestResolveGPUCountFromResourceClaims', () => {
  const exact = (name: string, deviceClassName: string, count: number, allocationMode = '', selectors?: unknown[]): DeviceRequestJson =>
    ({ name, exactly: { deviceClassName, allocationMode, count, ...(selectors ? { selectors } : {}) } });
  const cluster = [
    deviceClass('gpu.nvidia.com', driverSelector('gpu.nvidia.com')),
    deviceClass('gpu.intel.com', driverSelector('gpu.intel.com')),
    deviceClass('rdma-dranet', driverSelector('dra.net.example.com')),
  ];
  const templateClaim = (name: string, template: string) => ({ name, resourceClaimTemplateName: template });
  interface Case { objects?: unknown[]; podClaim: Record<string, string>; request?: string; want?: number; error?: string }
  const cases: Record<string, Case> = {
    'ResourceClaimTemplate exact NVIDIA GPU count': {
      objects: [claimTemplate('gpu-template', [exact('gpus', 'gpu.nvidia.com', 4, 'ExactCount')])],
      podClaim: templateClaim('accelerators', 'gpu-template'),
      want: 4,
    },
    'ResourceClaim request selector excludes non-GPU devices': {
      objects: [resourceClaim('devices', [exact('gpus', 'gpu.intel.com', 2), exact('network', 'rdma-dranet', 1)])],
      podClaim: { name: 'accelerators', resourceClaimName: 'devices' },
      request: 'gpus',
      want: 2,
    },
    'default exact count is one': {
      objects: [claimTemplate('gpu-template', [exact('gpus', 'gpu.nvidia.com', 0)])],
      podClaim: templateClaim('accelerators', 'gpu-template'),
      want: 1,
    },
    'custom DeviceClass name uses its GPU driver selector': {
      objects: [deviceClass('shared-h100.example.com', driverSelector('gpu.nvidia.com')), claimTemplate('gpu-template', [exact('gpus', 'shared-h100.example.com', 8, 'ExactCount')])],
      podClaim: templateClaim('accelerators', 'gpu-template'),
      want: 8,
    },
    'custom DeviceClass name uses its extended GPU resource': {
      objects: [deviceClass('shared-gpus.example.com', undefined, { extendedResourceName: 'nvidia.com/gpu' }), claimTemplate('gpu-template', [exact('gpus', 'shared-gpus.example.com', 4, 'ExactCount')])],
      podClaim: templateClaim('accelerators', 'gpu-template'),
      want: 4,
    },
    'request selector overrides a GPU-like empty DeviceClass': {
      objects: [deviceClass('gpu.example.com'), claimTemplate('network-template', [exact('network', 'gpu.example.com', 1, 'ExactCount', driverSelector('dra.net.example.com'))])],
      podClaim: templateClaim('network', 'network-template'),
      want: 0,
    },
    'request selector classifies an otherwise unknown DeviceClass as GPU': {
      objects: [deviceClass('accelerators.example.com'), claimTemplate('gpu-template', [exact('gpus', 'accelerators.example.com', 2, 'ExactCount', driverSelector('gpu.nvidia.com'))])],
      podClaim: templateClaim('accelerators', 'gpu-template'),
      want: 2,
    },
    'same DeviceClass is classified independently for each request': {
      objects: [deviceClass('devices.example.com'), claimTemplate('devices-template', [
        exact('gpus', 'devices.example.com', 2, 'ExactCount', driverSelector('gpu.nvidia.com')),
        exact('network', 'devices.example.com', 1, 'ExactCount', driverSelector('dra.net.example.com')),
      ])],
      podClaim: templateClaim('devices', 'devices-template'),
      want: 2,
    },
    'conflicting class and request driver selectors are rejected': {
      objects: [deviceClass('shared-gpus.example.com', driverSelector('gpu.nvidia.com')),
        claimTemplate('conflicting-template', [exact('devices', 'shared-gpus.example.com', 1, 'ExactCount', driverSelector('dra.net.example.com'))])],
      podClaim: templateClaim('devices', 'conflicting-template'),
      error: 'DeviceClass "shared-gpus.example.com" and the request\'s selectors restrict device.driver to GPU and non-GPU drivers at once',
    },
    'non-GPU claim is ignored': {
      objects: [claimTemplate('network-template', [exact('network', 'rdma-dranet', 1)])],
      podClaim: templateClaim('network', 'network-template'),
      want: 0,
    },
    'allocation mode All is rejected': {
      objects: [claimTemplate('gpu-template', [exact('gpus', 'gpu.nvidia.com', 0, 'All')])],
      podClaim: templateClaim('accelerators', 'gpu-template'),
      error: 'GPU count cannot be derived from a device request with allocationMode All',
    },
    'mixed firstAvailable alternatives are rejected': {
      objects: [claimTemplate('mixed-template', [{
        name: 'devices',
        firstAvailable: [
          { name: 'gpu', deviceClassName: 'gpu.nvidia.com', count: 1 }, { name: 'network', deviceClassName: 'rdma-dranet', count: 1 },
        ],
      }])],
      podClaim: templateClaim('devices', 'mixed-template'),
      error: 'device request "devices" mixes GPU and non-GPU alternatives',
    },
    'equal-count GPU firstAvailable alternatives are supported': {
      objects: [deviceClass('nvidia.example.com'), deviceClass('intel.example.com'), claimTemplate('gpu-template', [{
        name: 'gpus',
        firstAvailable: [
          { name: 'nvidia', deviceClassName: 'nvidia.example.com', selectors: driverSelector('gpu.nvidia.com'), count: 2 },
          { name: 'intel', deviceClassName: 'intel.example.com', selectors: driverSelector('gpu.intel.com'), count: 2 },
        ],
      }])],
      podClaim: templateClaim('accelerators', 'gpu-template'),
      want: 2,
    },
    'unclassifiable DeviceClass is actionable': {
      objects: [deviceClass('accelerators.example.com'), claimTemplate('accelerator-template', [exact('accelerators', 'accelerators.example.com', 1)])],
      podClaim: templateClaim('accelerators', 'accelerator-template'),
      error: 'cannot tell whether DeviceClass "accelerators.example.com" provides GPUs: give it spec.extendedResourceName, '
        + 'or restrict device.driver (device.driver == "<driver>") in a selector of the class or of the request',
    },
    'unsupported selector does not fall back to GPU-like class name': {
      objects: [deviceClass('gpu.example.com', [{ cel: { expression: 'device.driver != "cpu.example.com"' } }]),
        claimTemplate('gpu-template', [exact('gpus', 'gpu.example.com', 1)])],
      podClaim: templateClaim('accelerators', 'gpu-template'),
      error: 'cannot tell whether DeviceClass "gpu.example.com" provides GPUs',
    },
    'missing DeviceClass is actionable': {
      objects: [claimTemplate('missing-class-template', [exact('accelerators', 'missing.example.com', 1)])],
      podClaim: templateClaim('accelerators', 'missing-class-template'),
      error: 'the operator reads DeviceClass "missing.example.com" from the cluster to tell whether the request asks for GPUs; '
        + 'add it to the input (resource.k8s.io/v1 DeviceClass, e.g. kubectl get deviceclass missing.example.com -o yaml)',
    },
    'request without a supported shape is rejected': {
      objects: [claimTemplate('invalid-template', [{ name: 'devices' }])],
      podClaim: templateClaim('devices', 'invalid-template'),
      error: 'device request "devices" must set exactly or firstAvailable',
    },
    'missing ResourceClaimTemplate is actionable': {
      podClaim: templateClaim('accelerators', 'missing'),
      error: 'from the ResourceClaimTemplate default/missing and the DeviceClass of each of its device requests, which it reads from the cluster; '
        + 'add them to the input (resource.k8s.io/v1 ResourceClaimTemplate in namespace default, and DeviceClass)',
    },
  };

  test.each(Object.entries(cases))('%s', (_name, c) => {
    const podSpec = { containers: [{ name: 'main', resources: { claims: [{ name: c.podClaim.name, ...(c.request ? { request: c.request } : {}) }] } }], resourceClaims: [c.podClaim] };
    const count = () => renderedGpus(podSpec, [...cluster, ...(c.objects ?? [])]);
    if (c.error !== undefined) expect(count).toThrow(c.error);
    else expect(count()).toBe(c.want);
  });

  // dra_test.go TestResolveGPUCountPrefersScalarResources
  test('scalar GPUs win over an unresolvable claim, without any cluster objects', () => {
    expect(gpusPerNode({ containers: [{ name: 'main', resources: { limits: { 'nvidia.com/gpu': '8' }, claims: [{ name: 'missing' }] } }] }, 'x')).toBe(8);
  });

  test('objects of other namespaces are not read; one without a namespace is in the default namespace given', () => {
    const podSpec = claimSpec('gpu-template');
    const template = claimTemplate('gpu-template', [exact('gpus', 'gpu.nvidia.com', 4)]);
    const elsewhere = { ...template, metadata: { name: 'gpu-template', namespace: 'team-b' } };
    expect(() => renderedGpus(podSpec, [...cluster, elsewhere], 'team-a')).toThrow(/ResourceClaimTemplate team-a\/gpu-template/);
    const bare = { ...template, metadata: { name: 'gpu-template' } };
    expect(renderedGpus(podSpec, [...cluster, bare], 'team-a')).toBe(4);
    // a DCD of namespace team-a rendered with objects that take the namespace default does not read them
    expect(() => renderedGpus(podSpec, [...cluster, bare], 'default', 'team-a')).toThrow(/team-a\/gpu-template/);
  });

  test('a pod claim naming no object is refused', () => {
    const podSpec = { containers: [{ name: 'main', resources: { claims: [{ name: 'gpu' }] } }], resourceClaims: [{ name: 'gpu' }] };
    expect(() => renderedGpus(podSpec, cluster))
      .toThrow('pod resourceClaims entry "gpu" names neither a resourceClaimTemplateName nor a resourceClaimName');
  });
});

describe('DeviceClass classification', () => {
  test('GPU-like identifiers', () => {
    for (const n of ['gpu', 'GPU.nvidia.com', 'gpu/x', 'example.com/gpu', 'example.com/gpu.a', 'example.com/gpu-a']) expect(looksLikeGpuIdentifier(n)).toBe(true);
    for (const n of ['gpus', 'nvidia.com', 'example.com/gpux', 'agpu.com', 'mig.nvidia.com']) expect(looksLikeGpuIdentifier(n)).toBe(false);
  });

  test('driver terms count only at the top of a conjunction, never in a disjunction', () => {
    const classify = (expression: string) => deviceClassGivesGpus(deviceClass('c', [{ cel: { expression } }]), [], 'x', 'f');
    expect(classify('device.driver == "gpu.nvidia.com"')).toBe(true);
    expect(classify("(device.driver == 'gpu.nvidia.com') && device.attributes['x'].y")).toBe(true);
    expect(classify('device.attributes["a"].b && ((device.driver=="dra.net.example.com"))')).toBe(false);
    expect(() => classify('device.driver == "gpu.nvidia.com" || device.driver == "gpu.intel.com"')).toThrow(/cannot tell/);
    expect(() => classify('!(device.driver == "gpu.nvidia.com")')).toThrow(/cannot tell/);
  });

  test('a class selector that names no driver leaves a GPU-like class name unclassified; extendedResourceName decides before the name', () => {
    expect(deviceClassGivesGpus(deviceClass('gpu.nvidia.com'), [], 'x', 'f')).toBe(true);
    expect(deviceClassGivesGpus(deviceClass('gpu.nvidia.com', undefined, { extendedResourceName: 'example.com/nic' }), [], 'x', 'f')).toBe(false);
    expect(() => deviceClassGivesGpus(deviceClass('gpu.nvidia.com', [{ cel: { expression: 'true' } }]), [], 'x', 'f')).toThrow(/cannot tell/);
  });
});
