/**
 * Merging user input over the operator's defaults (docs/design/render-core.md §5.4 main container, §5.5 pod
 * spec, §5.6 frontend sidecar), including mergo's IntOrString quirk.
 */
import { DcdJson, OperatorSettings, podTemplateOf } from './support/facade';
import { envOf, mainOf, renderError } from './support/pod-render';
import { mergeIntOrString, mergoMerge } from '../src/go';

const NS = 'team-a';
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function dcd(spec: any, metadata: any = {}): DcdJson {
  return { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'llm-comp', namespace: NS, ...metadata }, spec };
}

/** A DCD of `type` whose pod template has these containers and pod-spec fields. */
function withContainers(type: string | undefined, containers: any[], podSpec: any = {}, extra: any = {}): DcdJson {
  return dcd({ name: 'comp', ...(type ? { type } : {}), ...extra, podTemplate: { spec: { ...podSpec, containers } } });
}

function render(d: DcdJson, settings: Partial<OperatorSettings> = {}, owner = 'llm'): any {
  return podTemplateOf(d, settings, owner);
}

describe('docs/design/render-core.md §5.4 main container merge', () => {
  test('name: always main; the first main container is used, a second one is dropped', () => {
    const t = render(withContainers('frontend', [
      { name: 'main', image: 'first:1' },
      { name: 'side', image: 'side:1' },
      { name: 'main', image: 'second:1' },
    ]));
    expect(t.spec.containers.map((c: any) => c.name)).toEqual(['main', 'side']);
    expect(mainOf(t).image).toBe('first:1');
  });

  test('scalars: user value if non-empty; empty/false/zero never clears a base value', () => {
    const c = mainOf(render(withContainers('frontend', [{ name: 'main', image: IMAGE, workingDir: '/w', imagePullPolicy: 'Always', tty: true, stdin: false }])));
    expect(c).toMatchObject({ image: IMAGE, workingDir: '/w', imagePullPolicy: 'Always', tty: true });
    expect(c.stdin).toBeUndefined();
  });

  test('command/args: a non-empty user list replaces; each independently (frontend command only keeps default args)', () => {
    const c = mainOf(render(withContainers('frontend', [{ name: 'main', image: IMAGE, command: ['python3', '-u'] }])));
    expect(c.command).toEqual(['python3', '-u']);
    expect(c.args).toEqual(['-m', 'dynamo.frontend']);
    const d = mainOf(render(withContainers('frontend', [{ name: 'main', image: IMAGE, args: ['-m', 'custom'] }])));
    expect(d.command).toEqual(['python3']);
    expect(d.args).toEqual(['-m', 'custom']);
  });

  test('command/args: an empty user list keeps the defaults', () => {
    const c = mainOf(render(withContainers('frontend', [{ name: 'main', image: IMAGE, command: [], args: [] }])));
    expect(c.command).toEqual(['python3']);
    expect(c.args).toEqual(['-m', 'dynamo.frontend']);
  });

  test('ports: a non-empty user list replaces the defaults entirely (no merge by name)', () => {
    const c = mainOf(render(withContainers('decode', [{ name: 'main', image: IMAGE, ports: [{ name: 'system', containerPort: 7000 }] }])));
    // the API server defaults the protocol of the stored port
    expect(c.ports).toEqual([{ name: 'system', containerPort: 7000, protocol: 'TCP' }]);
    const d = mainOf(render(withContainers('decode', [{ name: 'main', image: IMAGE, ports: [] }])));
    expect(d.ports.map((p: any) => p.name)).toEqual(['system', 'nixl']);
  });

  test('volumeMounts: a non-empty user list replaces the defaults (EPP default mounts are lost)', () => {
    const t = render(withContainers('epp', [{ name: 'main', image: IMAGE, volumeMounts: [{ name: 'data', mountPath: '/data' }] }], {}, { eppConfig: { configMapRef: { name: 'cm' } } }));
    expect(mainOf(t).volumeMounts).toEqual([{ name: 'data', mountPath: '/data' }, { name: 'shared-memory', mountPath: '/dev/shm' }]);
  });

  test('envFrom, volumeDevices, resizePolicy: taken from the user', () => {
    const c = mainOf(render(withContainers('decode', [{
      name: 'main',
      image: IMAGE,
      envFrom: [{ configMapRef: { name: 'cfg' } }],
      volumeDevices: [{ name: 'blk', devicePath: '/dev/xvda' }],
      resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }],
    }])));
    expect(c.envFrom).toEqual([{ configMapRef: { name: 'cfg' } }]);
    expect(c.volumeDevices).toEqual([{ name: 'blk', devicePath: '/dev/xvda' }]);
    expect(c.resizePolicy).toEqual([{ resourceName: 'cpu', restartPolicy: 'NotRequired' }]);
  });

  test('env: merged by name, user wins, sorted; user order not preserved', () => {
    const c = mainOf(render(withContainers('frontend', [{ name: 'main', image: IMAGE, env: [{ name: 'ZED', value: 'z' }, { name: 'DYN_HTTP_PORT', value: '9999' }, { name: 'ALPHA', value: 'a' }] }])));
    expect(c.env.map((e: any) => e.name)).toEqual(['ALPHA', 'DYNAMO_PORT', 'DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_HTTP_PORT', 'DYN_NAMESPACE',
      'DYN_NAMESPACE_PREFIX', 'DYN_PARENT_DGD_K8S_NAME', 'DYN_PARENT_DGD_K8S_NAMESPACE', 'POD_NAME', 'POD_NAMESPACE', 'POD_UID', 'ZED']);
    expect(envOf(c).DYN_HTTP_PORT).toBe('9999');
  });

  test('env: a user entry with valueFrom replaces a default value entry as a whole', () => {
    const c = mainOf(render(withContainers('frontend', [{ name: 'main', image: IMAGE, env: [{ name: 'DYN_NAMESPACE', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } }] }])));
    expect(c.env.find((e: any) => e.name === 'DYN_NAMESPACE')).toEqual({ name: 'DYN_NAMESPACE', valueFrom: { configMapKeyRef: { name: 'c', key: 'k' } } });
  });

  test('probes: a user probe replaces the default as a whole (no field-level merge)', () => {
    const c = mainOf(render(withContainers('frontend', [{ name: 'main', image: IMAGE, livenessProbe: { httpGet: { path: '/alive', port: 8000 } } }])));
    expect(c.livenessProbe).toEqual({ httpGet: { path: '/alive', port: 8000 } });
    expect(c.readinessProbe.httpGet.path).toBe('/health');
  });

  test('probes: absent keeps the default; a user startup probe is taken for the frontend', () => {
    const c = mainOf(render(withContainers('frontend', [{ name: 'main', image: IMAGE, startupProbe: { tcpSocket: { port: 8000 }, failureThreshold: 30 } }])));
    expect(c.startupProbe).toEqual({ tcpSocket: { port: 8000 }, failureThreshold: 30 });
    expect(c.livenessProbe.initialDelaySeconds).toBe(15);
  });

  test('resources: the user\'s requests/limits/claims as given (quantities canonical)', () => {
    const c = mainOf(render(withContainers('decode', [{ name: 'main', image: IMAGE, resources: { limits: { 'nvidia.com/gpu': '1', 'memory': '1024Mi' }, requests: { cpu: 0.5 } } }])));
    expect(c.resources).toEqual({ limits: { 'memory': '1Gi', 'nvidia.com/gpu': '1' }, requests: { cpu: '500m' } });
  });

  test('securityContext, lifecycle: taken from the user', () => {
    const c = mainOf(render(withContainers('decode', [{
      name: 'main', image: IMAGE, securityContext: { privileged: true }, lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
    }])));
    expect(c.securityContext).toEqual({ privileged: true });
    expect(c.lifecycle).toEqual({ preStop: { exec: { command: ['sleep', '5'] } } });
  });

  test('fields unknown to the Kubernetes Container type are dropped, as Go does', () => {
    const c = mainOf(render(withContainers('decode', [{ name: 'main', image: IMAGE, bogus: 'x' }])));
    expect(c.bogus).toBeUndefined();
  });
});

describe('docs/design/render-core.md §5.4 no main container', () => {
  test('the base container is used as is (named main, no image), placed before the sidecars', () => {
    const t = render(withContainers('frontend', [{ name: 'side', image: 'side:1' }]));
    expect(t.spec.containers.map((c: any) => c.name)).toEqual(['main', 'side']);
    expect(mainOf(t).image).toBeUndefined();
    expect(mainOf(t).command).toEqual(['python3']);
  });

  test('a DCD without any pod template still renders the defaults', () => {
    const t = render(dcd({ name: 'f', type: 'frontend' }));
    expect(t.spec.containers).toHaveLength(1);
    expect(mainOf(t).ports).toEqual([{ name: 'http', containerPort: 8000, protocol: 'TCP' }]);
  });
});

describe('docs/design/render-core.md §5.4 sidecars', () => {
  test('copied untouched: no env, probes or mounts injected, order kept', () => {
    const sideA = { name: 'a', image: 'a:1', args: ['x'] };
    const sideB = { name: 'b', image: 'b:1', env: [{ name: 'Z', value: '1' }, { name: 'A', value: '2' }] };
    const t = render(withContainers('decode', [sideA, { name: 'main', image: IMAGE }, sideB]));
    expect(t.spec.containers.map((c: any) => c.name)).toEqual(['main', 'a', 'b']);
    expect(t.spec.containers[1]).toEqual({ ...sideA, resources: {} });
    expect(t.spec.containers[2]).toEqual({ ...sideB, resources: {} });
  });
});

describe('docs/design/render-core.md §5.5 pod-level merge', () => {
  test('lists replace the base list when non-empty: EPP volumes dropped, dangling mounts become PVCs', () => {
    const t = render(withContainers('epp', [{ name: 'main', image: IMAGE }], { volumes: [{ name: 'extra', emptyDir: {} }] }, { eppConfig: { configMapRef: { name: 'cm' } } }));
    expect(t.spec.volumes).toEqual([
      { name: 'epp-config', persistentVolumeClaim: { claimName: 'epp-config' } },
      { name: 'hf-cache', persistentVolumeClaim: { claimName: 'hf-cache' } },
      { name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } },
      { name: 'extra', emptyDir: {} },
    ]);
  });

  test('an empty user list keeps the base list', () => {
    const t = render(withContainers('epp', [{ name: 'main', image: IMAGE }], { volumes: [] }, { eppConfig: { configMapRef: { name: 'cm' } } }));
    expect(t.spec.volumes.map((v: any) => v.name)).toEqual(['epp-config', 'hf-cache', 'shared-memory']);
  });

  test('other user lists and scalars are taken: tolerations, initContainers, schedulerName, priorityClassName, hostNetwork', () => {
    const t = render(withContainers('decode', [{ name: 'main', image: IMAGE }], {
      tolerations: [{ key: 'gpu', operator: 'Exists' }],
      initContainers: [{ name: 'init', image: 'busybox' }],
      schedulerName: 'kai',
      priorityClassName: 'high',
      hostNetwork: true,
      activeDeadlineSeconds: 0,
    }));
    expect(t.spec.tolerations).toEqual([{ key: 'gpu', operator: 'Exists' }]);
    expect(t.spec.initContainers).toEqual([{ name: 'init', image: 'busybox', resources: {} }]);
    expect(t.spec).toMatchObject({ schedulerName: 'kai', priorityClassName: 'high', hostNetwork: true, activeDeadlineSeconds: 0 });
  });

  test('maps (nodeSelector) are taken key by key', () => {
    const t = render(withContainers('decode', [{ name: 'main', image: IMAGE }], { nodeSelector: { gpu: 'h100', zone: 'a' } }));
    expect(t.spec.nodeSelector).toEqual({ gpu: 'h100', zone: 'a' });
  });

  test('restartPolicy stays Always unless the user sets one', () => {
    expect(render(withContainers('decode', [{ name: 'main', image: IMAGE }], { restartPolicy: '' })).spec.restartPolicy).toBe('Always');
    expect(render(withContainers('decode', [{ name: 'main', image: IMAGE }], { restartPolicy: 'OnFailure' })).spec.restartPolicy).toBe('OnFailure');
  });

  test('an empty user serviceAccountName keeps the type default', () => {
    expect(render(withContainers('planner', [{ name: 'main', image: IMAGE }], { serviceAccountName: '' })).spec.serviceAccountName).toBe('planner-serviceaccount');
  });
});

describe('docs/design/render-core.md §5.5 mergo overlay semantics', () => {
  test('empty values never clear, absent base takes the user value, lists replace, objects merge', () => {
    const base = { s: 'a', n: 5, b: true, list: [1, 2], obj: { x: 1, y: 2 } };
    expect(mergoMerge(base, { s: '', n: 0, b: false, list: [], obj: { y: 0, z: 3 }, extra: 0 }))
      .toEqual({ s: 'a', n: 5, b: true, list: [1, 2], obj: { x: 1, y: 2, z: 3 }, extra: 0 });
    expect(mergoMerge(base, { s: 'b', n: 7, list: [9], obj: { y: 4 } }))
      .toEqual({ s: 'b', n: 7, b: true, list: [9], obj: { x: 1, y: 4 } });
  });

  test('IntOrString merges field by field: a numeric user port over a named default keeps the name', () => {
    expect(mergeIntOrString('http', 8080)).toBe('http');
    expect(mergeIntOrString('http', 'web')).toBe('web');
    expect(mergeIntOrString(8000, 8080)).toBe(8080);
    expect(mergeIntOrString(8000, 0)).toBe(8000);
    expect(mergeIntOrString(undefined, 8080)).toBe(8080);
  });
});

describe('docs/design/render-core.md §5.6 frontendSidecar', () => {
  const sidecarSpec = (sidecar: any, mainExtra: any = {}, extra: any = {}) => withContainers('decode', [
    { name: 'main', image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], ...mainExtra },
    { name: 'fe', image: 'fe:1', ...sidecar },
  ], {}, { backendFramework: 'vllm', frontendSidecar: 'fe', ...extra });

  test('rebuilt from the frontend defaults with the parent namespace, no worker suffix', () => {
    const d = sidecarSpec({});
    d.metadata.labels = { 'nvidia.com/dynamo-worker-hash': 'abcd1234' };
    const t = render(d, {});
    const fe = t.spec.containers[1];
    expect(fe.name).toBe('fe');
    expect(fe.image).toBe('fe:1');
    expect(fe.command).toEqual(['python3']);
    expect(fe.args).toEqual(['-m', 'dynamo.frontend']);
    expect(fe.ports).toEqual([{ name: 'http', containerPort: 8000, protocol: 'TCP' }]);
    expect(fe.livenessProbe.httpGet).toEqual({ path: '/live', port: 'http' });
    expect(envOf(fe)).toMatchObject({ DYN_COMPONENT: 'frontend', DYN_NAMESPACE: 'team-a-llm', DYN_NAMESPACE_PREFIX: 'team-a-llm', DYNAMO_PORT: '8000', DYN_HTTP_PORT: '8000' });
    expect(envOf(fe).DYN_NAMESPACE_WORKER_SUFFIX).toBeUndefined();
    expect(envOf(mainOf(t)).DYN_NAMESPACE_WORKER_SUFFIX).toBe('abcd1234');
  });

  test('user sidecar merged over it; env merged by name and sorted, then the standard env', () => {
    const t = render(sidecarSpec({ args: ['-m', 'dynamo.frontend', '--router-mode', 'kv'], env: [{ name: 'ZZ', value: '1' }, { name: 'DYN_HTTP_PORT', value: '8080' }] }),
      { natsAddress: 'nats://n:4222' });
    const fe = t.spec.containers[1];
    expect(fe.args).toEqual(['-m', 'dynamo.frontend', '--router-mode', 'kv']);
    const names = fe.env.map((e: any) => e.name);
    expect(names).toEqual([...names].sort());
    expect(envOf(fe)).toMatchObject({ DYN_HTTP_PORT: '8080', ZZ: '1', NATS_SERVER: 'nats://n:4222' });
  });

  test('probes merge field by field (unlike the main container)', () => {
    const fe = render(sidecarSpec({ livenessProbe: { httpGet: { path: '/ping' } } })).spec.containers[1];
    expect(fe.livenessProbe).toEqual({ httpGet: { path: '/ping', port: 'http' }, initialDelaySeconds: 15, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3 });
  });

  test('main mounts after the compilation-cache step are appended (not /dev/shm, not duplicates by name)', () => {
    const t = render(sidecarSpec(
      { volumeMounts: [{ name: 'models', mountPath: '/sidecar-models' }] },
      { volumeMounts: [{ name: 'models', mountPath: '/models' }, { name: 'data', mountPath: '/data' }] },
      { compilationCache: { pvcName: 'vllm-cc' } },
    ));
    expect(t.spec.containers[1].volumeMounts).toEqual([
      { name: 'models', mountPath: '/sidecar-models' },
      { name: 'data', mountPath: '/data' },
      { name: 'vllm-cc', mountPath: '/root/.cache/vllm' },
    ]);
    expect(mainOf(t).volumeMounts.map((m: any) => m.name)).toEqual(['models', 'data', 'vllm-cc', 'shared-memory']);
  });

  test('container discovery mode: the sidecar gets CONTAINER_NAME=main', () => {
    const d = sidecarSpec({});
    d.spec.podTemplate!.metadata = { annotations: { 'nvidia.com/dynamo-kube-discovery-mode': 'container' } };
    expect(envOf(render(d).spec.containers[1]).CONTAINER_NAME).toBe('main');
  });

  test('a name matching no container is an error', () => {
    const e = renderError(() => render(withContainers('decode', [{ name: 'main', image: IMAGE }], {}, { frontendSidecar: 'nope' })));
    expect(e.field).toBe('spec.frontendSidecar');
    expect(e.message).toContain('frontendSidecar "nope" does not match any podTemplate container');
  });
});
