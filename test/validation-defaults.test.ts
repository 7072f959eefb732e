/**
 * The defaulting rows of docs/design/validation-rules.md that only the admission pipeline shows: what the
 * operator's mutating webhook and the CRD defaults write into a new graph or DCD before the
 * validating rules see it.
 */
import { defaultComponentDeployment, defaultGraphDeployment } from '../src/admission';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function graph(components: any[]): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'g' },
    spec: { backendFramework: 'vllm', components },
  };
}

function worker(extra: Record<string, unknown> = {}): any {
  return {
    name: 'w',
    type: 'worker',
    podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm'] }] } },
    ...extra,
  };
}

describe('docs/design/validation-rules.md row 65 minAvailable defaulted to 1 on the Grove provider only', () => {
  test('Grove: a nil minAvailable becomes 1; a given one is kept', () => {
    const { doc } = defaultGraphDeployment(graph([worker(), { ...worker({ minAvailable: 3 }), name: 'x' }]), { groveAvailable: true });
    expect((doc as any).spec.components.map((c: any) => c.minAvailable)).toEqual([1, 3]);
  });

  test('component provider: minAvailable stays unset', () => {
    const { doc, provider } = defaultGraphDeployment(graph([worker()]), { groveAvailable: false });
    expect(provider).toBe('component');
    expect((doc as any).spec.components[0].minAvailable).toBeUndefined();
  });
});

describe('docs/design/validation-rules.md row 74 role replicas defaulted from nodeCount', () => {
  test('leader 1, worker nodeCount - 1 when omitted; given values are kept for validation', () => {
    const multinode = worker({ multinode: { nodeCount: 4 }, roles: [{ name: 'leader' }, { name: 'worker' }] });
    const { doc } = defaultGraphDeployment(graph([multinode]), { groveAvailable: true });
    expect((doc as any).spec.components[0].roles).toEqual([{ name: 'leader', replicas: 1 }, { name: 'worker', replicas: 3 }]);
    const given = worker({ multinode: { nodeCount: 4 }, roles: [{ name: 'leader', replicas: 2 }, { name: 'worker' }] });
    expect((defaultGraphDeployment(graph([given]), { groveAvailable: true }).doc as any).spec.components[0].roles[0].replicas).toBe(2);
  });

  test('single-node components keep their roles as written', () => {
    const single = worker({ roles: [{ name: 'leader' }] });
    expect((defaultGraphDeployment(graph([single]), { groveAvailable: true }).doc as any).spec.components[0].roles).toEqual([{ name: 'leader' }]);
  });
});

describe('docs/design/validation-rules.md row 108 gpuMemoryService.deviceClassName defaults to gpu.nvidia.com', () => {
  test('on graph components and on a standalone DCD', () => {
    const gms = worker({ experimental: { gpuMemoryService: {} } });
    const { doc } = defaultGraphDeployment(graph([gms]), { groveAvailable: false });
    expect((doc as any).spec.components[0].experimental.gpuMemoryService.deviceClassName).toBe('gpu.nvidia.com');
    const dcd: any = defaultComponentDeployment({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'd' }, spec: gms });
    expect(dcd.spec.experimental.gpuMemoryService.deviceClassName).toBe('gpu.nvidia.com');
  });

  test('a given device class is kept', () => {
    const gms = worker({ experimental: { gpuMemoryService: { deviceClassName: 'mig.nvidia.com' } } });
    const { doc } = defaultGraphDeployment(graph([gms]), { groveAvailable: false });
    expect((doc as any).spec.components[0].experimental.gpuMemoryService.deviceClassName).toBe('mig.nvidia.com');
  });
});
