/**
 * GPUs per node (render-multinode §2.3).
 */
import { DeviceRequestJson, DraLookup, gpusPerNode, isGpuResourceName, scalarGpuCount } from '../src/engine/multinode/gpu-count';

const pod = (resources: unknown, extra: Record<string, unknown> = {}): unknown => ({
  containers: [{ name: 'sidecar', resources: { limits: { 'nvidia.com/gpu': '4' } } }, { name: 'main', resources }],
  ...extra,
});

describe('render-multinode §2.3 GPU count per node (scalar)', () => {
  test('GPU resource names', () => {
    for (const n of ['nvidia.com/gpu', 'NVIDIA.COM/GPU', 'gpu', 'amd.com/gpu', 'nvidia.com/mig-1g.10gb', 'gpu.intel.com/i915']) expect(isGpuResourceName(n)).toBe(true);
    for (const n of ['cpu', 'memory', 'nvidia.com/gpus', 'example.com/gpu-x']) expect(isGpuResourceName(n)).toBe(false);
  });

  test('limits first, then requests, else 0', () => {
    expect(scalarGpuCount({ limits: { 'nvidia.com/gpu': '8' }, requests: { 'nvidia.com/gpu': '2' } }, 'x')).toBe(8);
    expect(scalarGpuCount({ limits: { cpu: '1' }, requests: { 'nvidia.com/gpu': 2 } }, 'x')).toBe(2);
    expect(scalarGpuCount({ limits: { cpu: '1' } }, 'x')).toBe(0);
    expect(scalarGpuCount(undefined, 'x')).toBe(0);
  });

  test('several GPU names: the byte-wise first wins', () => {
    expect(scalarGpuCount({ limits: { 'nvidia.com/gpu': '8', 'amd.com/gpu': '2' } }, 'x')).toBe(2);
  });

  test('whole numbers only', () => {
    expect(scalarGpuCount({ limits: { 'nvidia.com/gpu': '1k' } }, 'x')).toBe(1000);
    expect(() => scalarGpuCount({ limits: { 'nvidia.com/gpu': '500m' } }, 'dcd/a')).toThrow(/dcd\/a: resources\.limits\[nvidia\.com\/gpu\]: GPU count must be a whole number, got "500m"/);
  });

  test('read from the main container of the pod spec only', () => {
    expect(gpusPerNode(pod({ limits: { 'nvidia.com/gpu': '8' } }), 'x')).toBe(8);
    expect(gpusPerNode(pod(undefined), 'x')).toBe(0);
    expect(gpusPerNode({ containers: [] }, 'x')).toBe(0);
  });
});

describe('render-multinode §2.3 GPU count per node (DRA claims)', () => {
  const templates: Record<string, DeviceRequestJson[]> = {
    'gpu-rct': [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', count: 4 } }, { name: 'nic', exactly: { deviceClassName: 'nic.example.com' } }],
    'zero': [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', count: 0 } }],
    'all': [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'All' } }],
    'alts': [{ name: 'gpus', firstAvailable: [{ deviceClassName: 'gpu.nvidia.com', count: 2 }, { deviceClassName: 'mig.nvidia.com', count: 2 }] }],
    'alts-differ': [{ name: 'gpus', firstAvailable: [{ deviceClassName: 'gpu.nvidia.com', count: 2 }, { deviceClassName: 'mig.nvidia.com', count: 1 }] }],
  };
  const lookup: DraLookup = {
    deviceRequests: (c) => templates[String(c.resourceClaimTemplateName ?? c.resourceClaimName)],
    isGpuDeviceClass: (name) => (name === 'nic.example.com' ? false : name.includes('nvidia') ? true : undefined),
  };
  const claimPod = (template: string, request?: string): unknown =>
    pod({ claims: [{ name: 'gpu', ...(request ? { request } : {}) }] }, { resourceClaims: [{ name: 'gpu', resourceClaimTemplateName: template }] });

  test('exactly.count of GPU device classes, non-GPU requests ignored', () => {
    expect(gpusPerNode(claimPod('gpu-rct'), 'x', lookup)).toBe(4);
  });

  test('count 0 counts as 1; allocationMode All is an error', () => {
    expect(gpusPerNode(claimPod('zero'), 'x', lookup)).toBe(1);
    expect(() => gpusPerNode(claimPod('all'), 'x', lookup)).toThrow(/allocationMode All/);
  });

  test('firstAvailable alternatives must agree on the count', () => {
    expect(gpusPerNode(claimPod('alts'), 'x', lookup)).toBe(2);
    expect(() => gpusPerNode(claimPod('alts-differ'), 'x', lookup)).toThrow(/different counts \(2 and 1\)/);
  });

  test('a container claim naming a request reads only that request', () => {
    expect(gpusPerNode(claimPod('gpu-rct', 'nic'), 'x', lookup)).toBe(0);
    expect(() => gpusPerNode(claimPod('gpu-rct', 'missing'), 'x', lookup)).toThrow(/device request "missing" was not found/);
  });

  test('scalar GPUs take precedence over claims', () => {
    expect(gpusPerNode(pod({ limits: { 'nvidia.com/gpu': '8' }, claims: [{ name: 'gpu' }] }), 'x')).toBe(8);
  });

  test('claims without a lookup or without a pod entry are refused', () => {
    expect(() => gpusPerNode(claimPod('gpu-rct'), 'x')).toThrow(/needs the ResourceClaim\(Template\)/);
    expect(() => gpusPerNode(pod({ claims: [{ name: 'other' }] }), 'x', lookup)).toThrow(/"other" has no matching pod resourceClaims entry/);
  });
});
