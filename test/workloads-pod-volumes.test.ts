/**
 * Volumes and mounts of the pod (docs/design/render-core.md §5.2 step 6, §5.7.1 shared memory, §5.7.2
 * compilation cache, §5.7.3 ordering and implicit PVCs, §12.1 KV-transfer topology volume).
 */
import { DcdJson, OperatorSettings, podTemplateOf, render as renderAll } from './support/facade';
import { component as graphComponent, graph } from './support/graphs';
import { mainOf, renderError } from './support/pod-render';

const NS = 'team-a';
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const SHM = { name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } };
const SHM_MOUNT = { name: 'shared-memory', mountPath: '/dev/shm' };

function dcd(spec: any): DcdJson {
  return { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'llm-comp', namespace: NS }, spec };
}

/** A DCD of `type` with one main container (extra container fields in `main`), extra pod-spec fields and spec fields. */
function component(type: string, main: any = {}, podSpec: any = {}, extra: any = {}): DcdJson {
  return dcd({ name: 'comp', type, ...extra, podTemplate: { spec: { ...podSpec, containers: [{ name: 'main', image: IMAGE, ...main }] } } });
}

function render(d: DcdJson, settings: Partial<OperatorSettings> = {}): any {
  return podTemplateOf(d, settings, 'llm');
}

describe('docs/design/render-core.md §5.7.1 shared memory', () => {
  test('default: 8Gi memory emptyDir mounted at /dev/shm, for every type', () => {
    for (const type of ['frontend', 'decode', 'planner']) {
      const t = render(component(type));
      expect(t.spec.volumes).toEqual([SHM]);
      expect(mainOf(t).volumeMounts).toEqual([SHM_MOUNT]);
    }
  });

  test('sharedMemorySize sets the size in canonical form', () => {
    expect(render(component('decode', {}, {}, { sharedMemorySize: '16Gi' })).spec.volumes).toEqual([{ ...SHM, emptyDir: { medium: 'Memory', sizeLimit: '16Gi' } }]);
    expect(render(component('decode', {}, {}, { sharedMemorySize: '2048Mi' })).spec.volumes[0].emptyDir.sizeLimit).toBe('2Gi');
  });

  test.each(['0', '0Gi', 0])('size %p disables: no volume, no mount', (size) => {
    const t = render(component('decode', {}, {}, { sharedMemorySize: size }));
    expect(t.spec.volumes).toBeUndefined();
    expect(mainOf(t).volumeMounts).toBeUndefined();
  });

  test('zero size leaves a user shared-memory volume and /dev/shm mount alone', () => {
    const t = render(component('decode', { volumeMounts: [{ name: 'shm', mountPath: '/dev/shm' }] }, { volumes: [{ name: 'shm', emptyDir: {} }] }, { sharedMemorySize: '0' }));
    expect(t.spec.volumes).toEqual([{ name: 'shm', emptyDir: {} }]);
    expect(mainOf(t).volumeMounts).toEqual([{ name: 'shm', mountPath: '/dev/shm' }]);
  });

  test('replaces a user volume named shared-memory and mounts named so or at /dev/shm; the mount goes last', () => {
    const t = render(component('decode',
      { volumeMounts: [{ name: 'mine', mountPath: '/dev/shm' }, { name: 'data', mountPath: '/data' }, { name: 'shared-memory', mountPath: '/elsewhere' }] },
      { volumes: [{ name: 'shared-memory', emptyDir: {} }, { name: 'data', emptyDir: {} }, { name: 'mine', emptyDir: {} }] }));
    expect(mainOf(t).volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }, SHM_MOUNT]);
    expect(t.spec.volumes).toEqual([{ name: 'data', emptyDir: {} }, SHM, { name: 'mine', emptyDir: {} }]);
  });

  test('sidecars get no /dev/shm mount', () => {
    const d = component('decode');
    d.spec.podTemplate!.spec.containers.push({ name: 'side', image: 'side:1' });
    expect(render(d).spec.containers[1].volumeMounts).toBeUndefined();
  });

  test('an invalid quantity is refused', () => {
    const e = renderError(() => render(component('decode', {}, {}, { sharedMemorySize: 'lots' })));
    expect(e.field).toBe('spec.sharedMemorySize');
  });
});

describe('docs/design/render-core.md §5.7.2 compilation cache', () => {
  const vllm = (extra: any, main: any = {}, podSpec: any = {}) => component('decode', { command: ['python3', '-m', 'dynamo.vllm'], ...main }, podSpec, { backendFramework: 'vllm', ...extra });

  test('vllm default path /root/.cache/vllm: mount, PVC volume, VLLM_CACHE_ROOT after the sorted block', () => {
    const t = render(vllm({ compilationCache: { pvcName: 'vllm-cc' } }, { env: [{ name: 'ZZZ', value: '1' }] }));
    const c = mainOf(t);
    expect(c.volumeMounts).toEqual([{ name: 'vllm-cc', mountPath: '/root/.cache/vllm' }, SHM_MOUNT]);
    expect(t.spec.volumes).toEqual([{ name: 'vllm-cc', persistentVolumeClaim: { claimName: 'vllm-cc' } }, SHM]);
    expect(c.env[c.env.length - 1]).toEqual({ name: 'VLLM_CACHE_ROOT', value: '/root/.cache/vllm' });
    expect(c.env[c.env.length - 2].name).toBe('ZZZ');
  });

  test('explicit mountPath is used for the mount and VLLM_CACHE_ROOT', () => {
    const c = mainOf(render(vllm({ compilationCache: { pvcName: 'cc', mountPath: '/cache' } })));
    expect(c.volumeMounts[0]).toEqual({ name: 'cc', mountPath: '/cache' });
    expect(c.env[c.env.length - 1]).toEqual({ name: 'VLLM_CACHE_ROOT', value: '/cache' });
  });

  test('a user VLLM_CACHE_ROOT stays in the sorted block and the appended one follows (listed twice)', () => {
    const c = mainOf(render(vllm({ compilationCache: { pvcName: 'cc' } }, { env: [{ name: 'VLLM_CACHE_ROOT', value: '/mine' }] })));
    expect(c.env.filter((e: any) => e.name === 'VLLM_CACHE_ROOT')).toEqual([
      { name: 'VLLM_CACHE_ROOT', value: '/mine' },
      { name: 'VLLM_CACHE_ROOT', value: '/root/.cache/vllm' },
    ]);
  });

  test.each(['sglang', 'trtllm'])('%s has no default: mountPath required', (fw) => {
    const e = renderError(() => render(component('decode', { command: ['python3', '-m', `dynamo.${fw}`] }, {}, { backendFramework: fw, compilationCache: { pvcName: 'cc' } })));
    expect(e.field).toBe('spec.compilationCache.mountPath');
    expect(e.message).toContain(`compilationCache.mountPath is required for backend framework ${fw} (no default available)`);
  });

  test('noop backend (frontend) has no default: mountPath required', () => {
    const e = renderError(() => render(component('frontend', {}, {}, { compilationCache: { pvcName: 'cc' } })));
    expect(e.message).toContain('compilationCache.mountPath is required for backend framework noop (no default available)');
  });

  test('sglang with a mountPath: mount and volume, no env', () => {
    const t = render(component('decode', { command: ['python3', '-m', 'dynamo.sglang'] }, {}, { backendFramework: 'sglang', compilationCache: { pvcName: 'cc', mountPath: '/c' } }));
    expect(mainOf(t).volumeMounts[0]).toEqual({ name: 'cc', mountPath: '/c' });
    expect(mainOf(t).env.some((e: any) => e.name === 'VLLM_CACHE_ROOT')).toBe(false);
    expect(t.spec.volumes[0]).toEqual({ name: 'cc', persistentVolumeClaim: { claimName: 'cc' } });
  });

  test('pvcName is required', () => {
    const e = renderError(() => render(vllm({ compilationCache: { mountPath: '/c' } })));
    expect(e.field).toBe('spec.compilationCache.pvcName');
  });

  test('an existing writable mount of the PVC at the path is kept in place; one without a path is repaired', () => {
    const c = mainOf(render(vllm({ compilationCache: { pvcName: 'cc' } }, { volumeMounts: [{ name: 'cc', mountPath: '/root/.cache/vllm' }, { name: 'data', mountPath: '/data' }] })));
    expect(c.volumeMounts.map((m: any) => m.name)).toEqual(['cc', 'data', 'shared-memory']);
    const repaired = mainOf(render(vllm({ compilationCache: { pvcName: 'cc' } }, { volumeMounts: [{ name: 'data', mountPath: '/data' }, { name: 'cc' }] })));
    expect(repaired.volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }, { name: 'cc', mountPath: '/root/.cache/vllm' }, SHM_MOUNT]);
  });

  test('another volume at the cache path is an error', () => {
    const e = renderError(() => render(vllm({ compilationCache: { pvcName: 'cc' } }, { volumeMounts: [{ name: 'other', mountPath: '/root/.cache/vllm' }] })));
    expect(e.message).toContain('compilationCache.mountPath "/root/.cache/vllm" is already used by volume "other"');
  });

  test('a readOnly cache mount is an error', () => {
    const e = renderError(() => render(vllm({ compilationCache: { pvcName: 'cc' } }, { volumeMounts: [{ name: 'cc', mountPath: '/root/.cache/vllm', readOnly: true }] })));
    expect(e.message).toContain('compilation cache volume "cc" at "/root/.cache/vllm" must be writable');
  });

  test('an existing volume of that name must be the writable PVC, defined once', () => {
    const ok = render(vllm({ compilationCache: { pvcName: 'cc' } }, {}, { volumes: [{ name: 'cc', persistentVolumeClaim: { claimName: 'cc' } }] }));
    expect(ok.spec.volumes.filter((v: any) => v.name === 'cc')).toHaveLength(1);
    expect(renderError(() => render(vllm({ compilationCache: { pvcName: 'cc' } }, {}, { volumes: [{ name: 'cc', emptyDir: {} }] }))).message)
      .toContain('compilation cache volume "cc" must reference PVC "cc"');
    expect(renderError(() => render(vllm({ compilationCache: { pvcName: 'cc' } }, {}, { volumes: [{ name: 'cc', persistentVolumeClaim: { claimName: 'x' } }] }))).message)
      .toContain('references PVC "x" instead of "cc"');
    expect(renderError(() => render(vllm({ compilationCache: { pvcName: 'cc' } }, {}, { volumes: [{ name: 'cc', persistentVolumeClaim: { claimName: 'cc', readOnly: true } }] }))).message)
      .toContain('compilation cache PVC "cc" must be writable');
    const twice = [{ name: 'cc', persistentVolumeClaim: { claimName: 'cc' } }, { name: 'cc', persistentVolumeClaim: { claimName: 'cc' } }];
    expect(renderError(() => render(vllm({ compilationCache: { pvcName: 'cc' } }, {}, { volumes: twice }))).message)
      .toContain('compilation cache volume "cc" is defined more than once');
  });
});

describe('docs/design/render-core.md §5.2 step 6 main-container mounts need a name and a path', () => {
  test('a mount without mountPath is refused', () => {
    const e = renderError(() => render(component('decode', { volumeMounts: [{ name: 'data' }] })));
    expect(e.field).toBe('spec.podTemplate.spec.containers[main].volumeMounts[0].mountPath');
    expect(e.message).toContain('volumeMount.mountPath is required for data');
  });

  test('a mount without name is refused', () => {
    const e = renderError(() => render(component('decode', { volumeMounts: [{ mountPath: '/x' }] })));
    expect(e.message).toContain('volumeMount.name is required');
  });
});

describe('docs/design/render-core.md §5.7.3 volume ordering and implicit PVC volumes', () => {
  test('vllm worker with a user PVC mount and a compilation cache: [model-cache, vllm-cc, shared-memory]', () => {
    const t = render(component('decode', { command: ['python3', '-m', 'dynamo.vllm'], volumeMounts: [{ name: 'model-cache', mountPath: '/models' }] },
      { volumes: [{ name: 'model-cache', persistentVolumeClaim: { claimName: 'models' } }] },
      { backendFramework: 'vllm', compilationCache: { pvcName: 'vllm-cc' } }));
    expect(t.spec.volumes.map((v: any) => v.name)).toEqual(['model-cache', 'vllm-cc', 'shared-memory']);
    expect(mainOf(t).volumeMounts.map((m: any) => m.name)).toEqual(['model-cache', 'vllm-cc', 'shared-memory']);
    expect(t.spec.volumes[0]).toEqual({ name: 'model-cache', persistentVolumeClaim: { claimName: 'models' } });
  });

  test('a mount without a volume gets a PVC of its name; unmounted volumes follow in their order', () => {
    const t = render(component('decode',
      { volumeMounts: [{ name: 'weights', mountPath: '/w' }, { name: 'cfg', mountPath: '/c' }, { name: 'weights', mountPath: '/w2' }] },
      { volumes: [{ name: 'spare', emptyDir: {} }, { name: 'cfg', configMap: { name: 'c' } }] }));
    expect(t.spec.volumes).toEqual([
      { name: 'weights', persistentVolumeClaim: { claimName: 'weights' } },
      { name: 'cfg', configMap: { name: 'c' } },
      SHM,
      { name: 'spare', emptyDir: {} },
    ]);
  });

  test('only the main container\'s mounts are considered', () => {
    const d = component('decode');
    d.spec.podTemplate!.spec.containers.push({ name: 'side', image: 'side:1', volumeMounts: [{ name: 'sidevol', mountPath: '/s' }] });
    expect(render(d).spec.volumes).toEqual([SHM]);
  });
});

describe('docs/design/render-core.md §12.1 KV-transfer topology volume', () => {
  test('the env, mount and downward-API volume the graph puts into the DCD reach the pod once', () => {
    const dgd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'llm' },
      spec: {
        backendFramework: 'vllm',
        experimental: { kvTransferPolicy: { labelKey: 'topology.kubernetes.io/zone', domain: 'zone' } },
        components: [{ name: 'decode', type: 'decode', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } }],
      },
    };
    const [generated] = renderAll(dgd, { output: 'components', namespace: NS }) as DcdJson[];
    const t = podTemplateOf(generated, {}, 'llm') as any;
    const c = mainOf(t);
    expect(c.volumeMounts).toEqual([{ name: 'topology-labels', mountPath: '/etc/dynamo/topology', readOnly: true }, SHM_MOUNT]);
    expect(t.spec.volumes).toEqual([
      { name: 'topology-labels', downwardAPI: { items: [{ path: 'zone', fieldRef: { fieldPath: "metadata.labels['topology.kubernetes.io/zone']" } }] } },
      SHM,
    ]);
    const env = Object.fromEntries(c.env.map((e: any) => [e.name, e.value]));
    expect(env).toMatchObject({ DYN_KV_TRANSFER_DOMAIN: 'zone', DYN_KV_TRANSFER_ENFORCEMENT: 'required', DYN_TOPOLOGY_ENABLED: 'true', DYN_TOPOLOGY_MOUNT_PATH: '/etc/dynamo/topology' });
    expect(t.metadata.annotations).toEqual({ 'nvidia.com/topology-label-key': 'topology.kubernetes.io/zone' });
  });

  // graph_test.go TestGeneratePodSpecForComponent_KvTransferPolicyEnvVars
  // "worker policy env vars override user-supplied transfer and topology env vars"
  test('the policy owns all five of its env names: user values of any of them are dropped, other env kept', () => {
    const dgd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'llm' },
      spec: {
        backendFramework: 'vllm',
        env: [
          { name: 'DYN_KV_TRANSFER_PREFERRED_WEIGHT', value: '1' },
          { name: 'DYN_TOPOLOGY_ENABLED', value: 'false' },
          { name: 'GLOBAL_ENV', value: 'global' },
        ],
        experimental: { kvTransferPolicy: { labelKey: 'topology.kubernetes.io/zone', domain: 'zone', enforcement: 'required' } },
        components: [{
          name: 'worker',
          type: 'worker',
          podTemplate: {
            spec: {
              containers: [{
                name: 'main',
                image: IMAGE,
                env: [
                  { name: 'DYN_KV_TRANSFER_DOMAIN', value: 'wrong-domain' },
                  { name: 'DYN_KV_TRANSFER_ENFORCEMENT', value: 'preferred' },
                  { name: 'DYN_TOPOLOGY_MOUNT_PATH', value: '/tmp/wrong-topology' },
                  { name: 'USER_ENV', value: 'user' },
                ],
              }],
            },
          },
        }],
      },
    };
    const [generated] = renderAll(dgd, { output: 'components', namespace: NS }) as DcdJson[];
    expect((generated.spec.podTemplate as any).spec.containers[0].env).toEqual([
      { name: 'DYN_KV_TRANSFER_DOMAIN', value: 'zone' },
      { name: 'DYN_KV_TRANSFER_ENFORCEMENT', value: 'required' },
      { name: 'DYN_TOPOLOGY_ENABLED', value: 'true' },
      { name: 'DYN_TOPOLOGY_MOUNT_PATH', value: '/etc/dynamo/topology' },
      { name: 'GLOBAL_ENV', value: 'global' },
      { name: 'USER_ENV', value: 'user' },
    ]);
    const env = Object.fromEntries(mainOf(podTemplateOf(generated, {}, 'llm')).env
      .map((e: any) => [e.name, e.value]));
    expect(env).not.toHaveProperty('DYN_KV_TRANSFER_PREFERRED_WEIGHT');
    expect(env).toMatchObject({
      DYN_KV_TRANSFER_DOMAIN: 'zone',
      DYN_KV_TRANSFER_ENFORCEMENT: 'required',
      DYN_TOPOLOGY_ENABLED: 'true',
      DYN_TOPOLOGY_MOUNT_PATH: '/etc/dynamo/topology',
      GLOBAL_ENV: 'global',
      USER_ENV: 'user',
    });
  });

  // graph_test.go TestGeneratePodSpecForComponent_KvTransferPolicyEnvVars "worker gets preferred transfer policy env vars"
  test('the preferred weight is written as the shortest single-precision decimal', () => {
    const weights: Array<[number, string]> = [[0.85, '0.85'], [1, '1'], [0, '0'], [0.123456789, '0.12345679'], [1e-7, '0.0000001']];
    for (const [preferredWeight, written] of weights) {
      const dgd = graph([graphComponent('decode', 'decode')], {
        experimental: { kvTransferPolicy: { labelKey: 'nvidia.com/rack', domain: 'rack', enforcement: 'preferred', preferredWeight } },
      });
      const [generated] = renderAll(dgd, { output: 'components', namespace: NS }) as DcdJson[];
      const env = Object.fromEntries(mainOf(podTemplateOf(generated, {}, 'llm')).env.map((e: any) => [e.name, e.value]));
      expect(env).toMatchObject({ DYN_KV_TRANSFER_DOMAIN: 'rack', DYN_KV_TRANSFER_ENFORCEMENT: 'preferred', DYN_KV_TRANSFER_PREFERRED_WEIGHT: written });
    }
  });
});
