/**
 * The pod template of a DCD's workload (docs/design/render-core.md §5.1–§5.3, §5.9–§5.11, §6, §9, §10.1, §12.3,
 * §16, §17): goldens, component-type defaults, env, labels, annotations, service account,
 * security context, image pull secrets.
 */
import { DcdJson, OperatorSettings, podTemplateOf, render as renderAll } from './support/facade';
import { envNames, envOf, mainOf, renderError } from './support/pod-render';
import { goldenScenario, testNeeding } from './support/shared';

const NS = 'team-a';
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const IMAGE_15 = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0';

function dcd(spec: any, metadata: any = {}): DcdJson {
  return { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'llm-comp', namespace: NS, ...metadata }, spec };
}

function withMain(spec: any, main: any = {}): any {
  return { ...spec, podTemplate: { ...(spec.podTemplate ?? {}), spec: { containers: [{ name: 'main', image: IMAGE, ...main }] } } };
}

function render(d: DcdJson, settings: Partial<OperatorSettings> = {}, owner?: string): any {
  return podTemplateOf(d, settings, owner);
}

// ---------------------------------------------------------------------------------------------
// Goldens: API-server defaults removed, matcher directives resolved against the rendered value
// ---------------------------------------------------------------------------------------------

const API_SERVER_DEFAULTS: Record<string, string[]> = {
  pod: ['dnsPolicy', 'schedulerName', 'serviceAccount'],
  container: ['imagePullPolicy', 'terminationMessagePath', 'terminationMessagePolicy'],
  probe: ['successThreshold'],
};

/** The expected pod template with the fields the API server fills in removed. */
function withoutApiServerDefaults(template: any): any {
  const t = JSON.parse(JSON.stringify(template));
  for (const k of API_SERVER_DEFAULTS.pod) delete t.spec[k];
  for (const c of t.spec.containers) {
    for (const k of API_SERVER_DEFAULTS.container) delete c[k];
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) {
      if (!c[probe]) continue;
      for (const k of API_SERVER_DEFAULTS.probe) delete c[probe][k];
      if (c[probe].httpGet) delete c[probe].httpGet.scheme;
    }
    for (const e of c.env ?? []) if (e.valueFrom?.fieldRef) delete e.valueFrom.fieldRef.apiVersion;
  }
  return t;
}

/** `expected` with each `$glob:`/`$pattern:`/`$var:` string replaced by the rendered value it matches. */
function resolveDirectives(expected: any, rendered: any, vars: Map<string, unknown> = new Map()): any {
  if (typeof expected === 'string') {
    const glob = /^\$glob:(.*)$/.exec(expected);
    const pattern = /^\$pattern:(.*)$/.exec(expected);
    const variable = /^\$var:(.*)$/.exec(expected);
    if (glob) {
      const re = new RegExp('^' + glob[1].split('*').map(s => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
      expect(rendered).toMatch(re);
      return rendered;
    }
    if (pattern) {
      expect(rendered).toMatch(new RegExp(`^(?:${pattern[1]})$`));
      return rendered;
    }
    if (variable) {
      if (vars.has(variable[1])) expect(rendered).toBe(vars.get(variable[1]));
      vars.set(variable[1], rendered);
      return rendered;
    }
    return expected;
  }
  if (Array.isArray(expected)) return expected.map((x, i) => resolveDirectives(x, Array.isArray(rendered) ? rendered[i] : undefined, vars));
  if (expected && typeof expected === 'object') {
    const out: any = {};
    for (const [k, v] of Object.entries(expected)) out[k] = resolveDirectives(v, rendered?.[k], vars);
    return out;
  }
  return expected;
}

function goldenDocs(scenario: string): any[] {
  return goldenScenario(scenario).expected;
}

function goldenInput(scenario: string): any {
  return goldenScenario(scenario).input[0];
}

const GOLDEN_NS = 'clusterenv-conformance';
const goldenTest = testNeeding('conformance');

describe('docs/design/render-core.md §16.1 golden dcd/deployment pod template', () => {
  goldenTest('equals the golden Deployment spec.template minus API-server defaults', () => {
    const input = goldenInput('dcd/deployment');
    input.metadata.namespace = GOLDEN_NS;
    const rendered = render(input);
    const expected = goldenDocs('dcd/deployment').find(d => d.kind === 'Deployment').spec.template;
    expect(rendered).toEqual(withoutApiServerDefaults(resolveDirectives(expected, rendered)));
    expect(rendered.metadata.labels['nvidia.com/dynamo-namespace']).toBe(`${GOLDEN_NS}-deployment-manifest`);
    expect(rendered.spec.serviceAccountName).toBe('deployment-manifest-k8s-service-discovery');
  });
});

describe('docs/design/render-core.md §16.2 golden dgd/components pod templates', () => {
  goldenTest('the decode and frontend Deployment templates equal the goldens minus API-server defaults', () => {
    const dgd = goldenInput('dgd/components');
    const dcds = renderAll(dgd, { output: 'components', namespace: GOLDEN_NS, settings: { groveAvailable: true } }) as DcdJson[];
    const deployments = goldenDocs('dgd/components').filter(d => d.kind === 'Deployment');
    expect(dcds).toHaveLength(2);
    const vars = new Map<string, unknown>();
    for (const generated of dcds) {
      const rendered = render(generated, { groveAvailable: true }, 'component-manifests');
      const expected = deployments.find(d => rendered.metadata.labels['nvidia.com/selector'].startsWith(d.metadata.name.replace('$glob:', '').replace('*', '')));
      expect(expected).toBeDefined();
      expect(rendered).toEqual(withoutApiServerDefaults(resolveDirectives(expected.spec.template, rendered, vars)));
    }
    const decode = dcds.find(d => d.spec.type === 'decode')!;
    expect(vars.get('worker-hash')).toBe(decode.metadata.labels!['nvidia.com/dynamo-worker-hash']);
  });
});

// ---------------------------------------------------------------------------------------------
// docs/design/render-core.md §5.3 / §6 component-type defaults
// ---------------------------------------------------------------------------------------------

describe('docs/design/render-core.md §5.3 §6.2 frontend defaults', () => {
  const t = render(dcd(withMain({ name: 'Frontend', type: 'frontend' })));
  const c = mainOf(t);

  test('python3 -m dynamo.frontend on http:8000', () => {
    expect(c.command).toEqual(['python3']);
    expect(c.args).toEqual(['-m', 'dynamo.frontend']);
    expect(c.ports).toEqual([{ name: 'http', containerPort: 8000, protocol: 'TCP' }]);
  });

  test('liveness /live and readiness /health on http, no startup probe', () => {
    expect(c.livenessProbe).toEqual({ httpGet: { path: '/live', port: 'http' }, initialDelaySeconds: 15, periodSeconds: 10, timeoutSeconds: 1, failureThreshold: 3 });
    expect(c.readinessProbe).toEqual({ httpGet: { path: '/health', port: 'http' }, initialDelaySeconds: 10, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 3 });
    expect(c.startupProbe).toBeUndefined();
  });

  test('env docs/design/render-core.md §6.5 frontend list, sorted', () => {
    expect(envNames(c)).toEqual(['DYNAMO_PORT', 'DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_HTTP_PORT', 'DYN_NAMESPACE',
      'DYN_NAMESPACE_PREFIX', 'DYN_PARENT_DGD_K8S_NAME', 'DYN_PARENT_DGD_K8S_NAMESPACE', 'POD_NAME', 'POD_NAMESPACE', 'POD_UID']);
    expect(envOf(c)).toMatchObject({ DYNAMO_PORT: '8000', DYN_HTTP_PORT: '8000', DYN_COMPONENT: 'frontend', DYN_NAMESPACE_PREFIX: 'team-a-llm-comp' });
  });

  test('pod: grace 60, restartPolicy Always, no default resources', () => {
    expect(t.spec.terminationGracePeriodSeconds).toBe(60);
    expect(t.spec.restartPolicy).toBe('Always');
    expect(c.resources).toEqual({});
  });
});

describe('docs/design/render-core.md §5.3 §6.2 worker defaults (worker, prefill, decode)', () => {
  test.each(['worker', 'prefill', 'decode'])('%s: /bin/sh -c without args, system and nixl ports, worker probes', (type) => {
    const c = mainOf(render(dcd({ name: 'w', type, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } })));
    expect(c.command).toEqual(['/bin/sh', '-c']);
    expect(c.args).toBeUndefined();
    expect(c.ports).toEqual([{ name: 'system', containerPort: 9090, protocol: 'TCP' }, { name: 'nixl', containerPort: 19090, protocol: 'TCP' }]);
    expect(c.livenessProbe).toEqual({ httpGet: { path: '/live', port: 'system' }, periodSeconds: 5, timeoutSeconds: 4, failureThreshold: 1 });
    expect(c.readinessProbe).toEqual({ httpGet: { path: '/health', port: 'system' }, periodSeconds: 10, timeoutSeconds: 4, failureThreshold: 3 });
    expect(c.startupProbe).toEqual({ httpGet: { path: '/live', port: 'system' }, periodSeconds: 10, timeoutSeconds: 5, failureThreshold: 720 });
    expect(envOf(c)).toMatchObject({
      DYN_COMPONENT: type,
      DYN_SYSTEM_ENABLED: 'true',
      DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS: '["generate"]',
      DYN_SYSTEM_PORT: '9090',
      DYN_HEALTH_CHECK_ENABLED: 'false',
      NIXL_TELEMETRY_ENABLE: 'n',
      NIXL_TELEMETRY_EXPORTER: 'prometheus',
      NIXL_TELEMETRY_PROMETHEUS_PORT: '19090',
      DYN_FORWARDPASS_METRIC_PORT: '20380',
    });
  });
});

describe('docs/design/render-core.md §3 DYN_NAMESPACE_WORKER_SUFFIX', () => {
  test('worker-class DCD with a worker-hash label gets the suffix; DYN_NAMESPACE is not suffixed', () => {
    const c = mainOf(render(dcd(withMain({ name: 'decode', type: 'decode' }), { labels: { 'nvidia.com/dynamo-worker-hash': 'abcd1234' } }), {}, 'llm'));
    expect(envOf(c).DYN_NAMESPACE_WORKER_SUFFIX).toBe('abcd1234');
    expect(envOf(c).DYN_NAMESPACE).toBe('team-a-llm');
  });

  test('the pod-template label counts when the DCD has none', () => {
    const spec = withMain({ name: 'decode', type: 'decode' });
    spec.podTemplate.metadata = { labels: { 'nvidia.com/dynamo-worker-hash': 'feedbeef' } };
    expect(envOf(mainOf(render(dcd(spec)))).DYN_NAMESPACE_WORKER_SUFFIX).toBe('feedbeef');
  });

  test('non-worker types never get the suffix', () => {
    const c = mainOf(render(dcd(withMain({ name: 'f', type: 'frontend' }), { labels: { 'nvidia.com/dynamo-worker-hash': 'abcd1234' } })));
    expect(envOf(c).DYN_NAMESPACE_WORKER_SUFFIX).toBeUndefined();
  });
});

describe('docs/design/render-core.md §5.3 §6.2 §9 planner defaults', () => {
  const t = render(dcd(withMain({ name: 'planner', type: 'planner' })));
  const c = mainOf(t);

  test('metrics:9085 and system:9090, worker-style probes, /bin/sh -c without args', () => {
    expect(c.command).toEqual(['/bin/sh', '-c']);
    expect(c.args).toBeUndefined();
    expect(c.ports).toEqual([{ name: 'metrics', containerPort: 9085, protocol: 'TCP' }, { name: 'system', containerPort: 9090, protocol: 'TCP' }]);
    expect(c.livenessProbe.failureThreshold).toBe(1);
    expect(c.startupProbe.failureThreshold).toBe(720);
  });

  test('env docs/design/render-core.md §6.5 planner list and the planner service account', () => {
    expect(envNames(c)).toEqual(['DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_NAMESPACE', 'DYN_PARENT_DGD_K8S_NAME',
      'DYN_PARENT_DGD_K8S_NAMESPACE', 'DYN_SYSTEM_PORT', 'PLANNER_PROMETHEUS_PORT', 'POD_NAME', 'POD_NAMESPACE', 'POD_UID']);
    expect(envOf(c).PLANNER_PROMETHEUS_PORT).toBe('9085');
    expect(t.spec.serviceAccountName).toBe('planner-serviceaccount');
  });

  test('planner uses the noop backend: compilationCache without mountPath is an error', () => {
    const e = renderError(() => render(dcd({ ...withMain({ name: 'planner', type: 'planner' }), backendFramework: 'vllm', compilationCache: { pvcName: 'cc' } })));
    expect(e.message).toContain('compilationCache.mountPath is required for backend framework noop (no default available)');
  });
});

describe('docs/design/render-core.md §5.3 untyped defaults', () => {
  const t = render(dcd(withMain({ name: 'tool' })));
  const c = mainOf(t);

  test('/bin/sh -c, no ports, no probes, common env with an empty DYN_COMPONENT', () => {
    expect(c.command).toEqual(['/bin/sh', '-c']);
    expect(c.ports).toBeUndefined();
    expect(c.livenessProbe).toBeUndefined();
    expect(c.readinessProbe).toBeUndefined();
    expect(c.startupProbe).toBeUndefined();
    expect(c.env.find((e: any) => e.name === 'DYN_COMPONENT')).toEqual({ name: 'DYN_COMPONENT' });
    expect(t.metadata.labels['nvidia.com/dynamo-component-type']).toBeUndefined();
    expect(t.spec.terminationGracePeriodSeconds).toBe(60);
  });
});

describe('docs/design/render-core.md §5.3 §10.1 EPP defaults (operator 1.4, legacy Go EPP)', () => {
  const spec = { ...withMain({ name: 'epp', type: 'epp' }), eppConfig: { configMapRef: { name: 'my-epp', key: 'cfg.yaml' } } };
  const t = render(dcd(spec, { name: 'llm-epp' }), {}, 'llm');
  const c = mainOf(t);

  test('command empty, pool/config args, grpc ports and probes', () => {
    expect(c.command).toBeUndefined();
    expect(c.args).toEqual(['--pool-name', 'llm-pool', '--pool-namespace', NS, '--pool-group', 'inference.networking.k8s.io', '-v', '4',
      '--zap-encoder', 'json', '--grpc-port', '9002', '--grpc-health-port', '9003', '--config-file', '/etc/epp/epp-config-dynamo.yaml']);
    expect(c.ports).toEqual([
      { name: 'grpc', containerPort: 9002, protocol: 'TCP' },
      { name: 'grpc-health', containerPort: 9003, protocol: 'TCP' },
      { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
    ]);
    expect(c.livenessProbe).toEqual({ grpc: { port: 9003, service: 'inference-extension' }, initialDelaySeconds: 5, periodSeconds: 10 });
    expect(c.readinessProbe).toEqual(c.livenessProbe);
    expect(c.startupProbe).toEqual({ grpc: { port: 9003, service: 'inference-extension' }, periodSeconds: 10, failureThreshold: 180 });
  });

  test('env docs/design/render-core.md §6.5 EPP list', () => {
    expect(envNames(c)).toEqual(['DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_ENFORCE_DISAGG', 'DYN_NAMESPACE', 'DYN_NAMESPACE_PREFIX',
      'DYN_PARENT_DGD_K8S_NAME', 'DYN_PARENT_DGD_K8S_NAMESPACE', 'POD_NAME', 'POD_NAMESPACE', 'POD_UID', 'RUST_LOG', 'USE_STREAMING']);
    expect(envOf(c)).toMatchObject({ RUST_LOG: 'info', USE_STREAMING: 'true', DYN_ENFORCE_DISAGG: 'false', DYN_NAMESPACE_PREFIX: 'team-a-llm' });
  });

  test('config and HF cache mounts before /dev/shm; volumes in mount order', () => {
    expect(c.volumeMounts).toEqual([
      { name: 'epp-config', mountPath: '/etc/epp', readOnly: true },
      { name: 'hf-cache', mountPath: '/home/nonroot/.cache' },
      { name: 'shared-memory', mountPath: '/dev/shm' },
    ]);
    expect(t.spec.volumes).toEqual([
      { name: 'epp-config', configMap: { name: 'my-epp', items: [{ key: 'cfg.yaml', path: 'epp-config-dynamo.yaml' }] } },
      { name: 'hf-cache', emptyDir: {} },
      { name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } },
    ]);
  });

  test('epp service account and grace period 130', () => {
    expect(t.spec.serviceAccountName).toBe('epp-serviceaccount');
    expect(t.spec.terminationGracePeriodSeconds).toBe(130);
  });

  test('eppConfig.config: ConfigMap <parent>-epp-config with the default key', () => {
    const inline = render(dcd({ ...withMain({ name: 'epp', type: 'epp' }), eppConfig: { config: { plugins: [] } } }), {}, 'llm');
    expect(inline.spec.volumes[0]).toEqual({ name: 'epp-config', configMap: { name: 'llm-epp-config', items: [{ key: 'epp-config-dynamo.yaml', path: 'epp-config-dynamo.yaml' }] } });
  });

  test('without eppConfig the operator refuses the EPP', () => {
    const e = renderError(() => render(dcd(withMain({ name: 'epp', type: 'epp' })), {}, 'llm'));
    expect(e.field).toBe('spec.eppConfig');
    expect(e.message).toContain('EPP configuration is required: either eppConfig.configMapRef or eppConfig.config must be specified');
  });
});

describe('docs/design/render-core.md §17 runtime-gated defaults (operator 1.6.0 and later: newer sources, unverified)', () => {
  const op15 = { version: '1.6.0' };

  test('worker runtime ≥ 1.5.0: liveness failureThreshold 3 and DYN_HEALTH_CHECK_ENABLED true', () => {
    const c = mainOf(render(dcd({ name: 'w', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE_15 }] } } }), op15));
    expect(c.livenessProbe.failureThreshold).toBe(3);
    expect(envOf(c).DYN_HEALTH_CHECK_ENABLED).toBe('true');
  });

  test('worker runtime < 1.5.0 under operator 1.6: snapshot values', () => {
    const c = mainOf(render(dcd(withMain({ name: 'w', type: 'worker' })), op15));
    expect(c.livenessProbe.failureThreshold).toBe(1);
    expect(envOf(c).DYN_HEALTH_CHECK_ENABLED).toBe('false');
  });

  test('runtimeVersionOverride decides over the image tag', () => {
    const c = mainOf(render(dcd({ ...withMain({ name: 'w', type: 'worker' }), runtimeVersionOverride: '1.6.0' }), op15));
    expect(c.livenessProbe.failureThreshold).toBe(3);
  });

  test('operator 1.4 ignores a 1.5 runtime', () => {
    const c = mainOf(render(dcd({ name: 'w', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE_15 }] } } })));
    expect(c.livenessProbe.failureThreshold).toBe(1);
    expect(envOf(c).DYN_HEALTH_CHECK_ENABLED).toBe('false');
  });

  test('an image tag that is not a version leaves the gates off', () => {
    const c = mainOf(render(dcd({ name: 'w', type: 'worker', podTemplate: { spec: { containers: [{ name: 'main', image: 'x/y:latest' }] } } }), op15));
    expect(c.livenessProbe.failureThreshold).toBe(1);
  });

  test('the planner keeps failureThreshold 1 on a 1.5 runtime', () => {
    const c = mainOf(render(dcd({ name: 'p', type: 'planner', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE_15 }] } } }), op15));
    expect(c.livenessProbe.failureThreshold).toBe(1);
  });

  test('native Rust EPP (no eppConfig): no args, HOME=/home/dynamo, HF cache at /home/dynamo/.cache, no config volume', () => {
    const t = render(dcd({ name: 'epp', type: 'epp', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE_15 }] } } }), op15, 'llm');
    const c = mainOf(t);
    expect(c.command).toBeUndefined();
    expect(c.args).toBeUndefined();
    expect(envOf(c).HOME).toBe('/home/dynamo');
    expect(c.volumeMounts).toEqual([{ name: 'hf-cache', mountPath: '/home/dynamo/.cache' }, { name: 'shared-memory', mountPath: '/dev/shm' }]);
    expect(t.spec.volumes.map((v: any) => v.name)).toEqual(['hf-cache', 'shared-memory']);
    expect(t.spec.serviceAccountName).toBe('epp-serviceaccount');
    expect(t.spec.terminationGracePeriodSeconds).toBe(130);
  });

  test('native EPP: a user HOME wins through the env merge', () => {
    const c = mainOf(render(dcd({ name: 'epp', type: 'epp', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE_15, env: [{ name: 'HOME', value: '/x' }] }] } } }), op15, 'llm'));
    expect(envOf(c).HOME).toBe('/x');
  });

  test('legacy Go EPP under operator 1.6 (eppConfig set): args and config mount, no HF cache', () => {
    const t = render(dcd({ ...withMain({ name: 'epp', type: 'epp' }), eppConfig: { configMapRef: { name: 'cm' } } }), op15, 'llm');
    const c = mainOf(t);
    expect(c.args[0]).toBe('--pool-name');
    expect(c.volumeMounts.map((m: any) => m.name)).toEqual(['epp-config', 'shared-memory']);
    expect(t.spec.volumes.map((v: any) => v.name)).toEqual(['epp-config', 'shared-memory']);
    expect(envOf(c).HOME).toBeUndefined();
  });

  test('an override that is not a version is refused', () => {
    const e = renderError(() => render(dcd({ ...withMain({ name: 'w', type: 'worker' }), runtimeVersionOverride: 'next' }), op15));
    expect(e.field).toBe('spec.runtimeVersionOverride');
  });
});

// ---------------------------------------------------------------------------------------------
// docs/design/render-core.md §6 env
// ---------------------------------------------------------------------------------------------

describe('docs/design/render-core.md §6 env order and precedence', () => {
  test('one name-sorted block: defaults, DGD env, user env and standard env merged; user wins over defaults', () => {
    const c = mainOf(render(dcd(withMain({ name: 'decode', type: 'decode' }, {
      env: [{ name: 'ZZ_LAST', value: '1' }, { name: 'DYN_SYSTEM_PORT', value: '7777' }, { name: 'AA_FIRST', value: '2' }],
    })), { natsAddress: 'nats://n:4222', etcdAddress: 'http://e:2379', modelExpressUrl: 'http://mx', prometheusEndpoint: 'http://prom' }));
    const names = envNames(c);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(names[0]).toBe('AA_FIRST');
    expect(names[names.length - 1]).toBe('ZZ_LAST');
    expect(envOf(c).DYN_SYSTEM_PORT).toBe('7777');
    expect(envOf(c)).toMatchObject({ NATS_SERVER: 'nats://n:4222', ETCD_ENDPOINTS: 'http://e:2379', MODEL_EXPRESS_URL: 'http://mx', PROMETHEUS_ENDPOINT: 'http://prom' });
    // docs/design/render-core.md §6.5: ETCD_ENDPOINTS between DYN_* and NIXL_*, NATS_SERVER after MODEL_EXPRESS_URL, PROMETHEUS_ENDPOINT after POD_UID
    expect(names.indexOf('ETCD_ENDPOINTS')).toBeGreaterThan(names.indexOf('DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS'));
    expect(names.indexOf('NATS_SERVER')).toBe(names.indexOf('MODEL_EXPRESS_URL') + 1);
    expect(names.indexOf('PROMETHEUS_ENDPOINT')).toBe(names.indexOf('POD_UID') + 1);
  });

  test('user/DGD values win over the standard env', () => {
    const c = mainOf(render(dcd(withMain({ name: 'f', type: 'frontend' }, { env: [{ name: 'NATS_SERVER', value: 'mine' }] })), { natsAddress: 'nats://n:4222' }));
    expect(envOf(c).NATS_SERVER).toBe('mine');
    expect(envNames(c).filter(n => n === 'NATS_SERVER')).toHaveLength(1);
  });

  test('DGD spec.env reaches the sorted block through the generated DCD: below component env, above the standard env', () => {
    const dgd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'llm' },
      spec: {
        backendFramework: 'vllm',
        env: [{ name: 'HF_HOME', value: '/models' }, { name: 'SHARED', value: 'graph' }, { name: 'NATS_SERVER', value: 'nats://graph:4222' }],
        components: [{ name: 'decode', type: 'decode', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, env: [{ name: 'SHARED', value: 'component' }] }] } } }],
      },
    };
    const [generated] = renderAll(dgd, { output: 'components', namespace: NS }) as DcdJson[];
    const c = mainOf(render(generated, { natsAddress: 'nats://operator:4222' }, 'llm'));
    expect(envOf(c)).toMatchObject({ HF_HOME: '/models', SHARED: 'component', NATS_SERVER: 'nats://graph:4222' });
    const names = envNames(c);
    expect(names.indexOf('HF_HOME')).toBe(names.indexOf('DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS') + 1);
  });

  test('docs/design/render-core.md §6.1 parent name/namespace: owner graph, else the DCD name', () => {
    expect(envOf(mainOf(render(dcd(withMain({ name: 'f', type: 'frontend' })), {}, 'llm')))).toMatchObject({ DYN_PARENT_DGD_K8S_NAME: 'llm', DYN_PARENT_DGD_K8S_NAMESPACE: NS, DYN_NAMESPACE: 'team-a-llm' });
    expect(envOf(mainOf(render(dcd(withMain({ name: 'f', type: 'frontend' }), { name: 'solo.v2' }))))).toMatchObject({ DYN_PARENT_DGD_K8S_NAME: 'solo.v2', DYN_NAMESPACE: 'team-a-solo-v2' });
  });

  test('docs/design/render-core.md §3 globalDynamoNamespace: DYN_NAMESPACE is "dynamo"', () => {
    expect(envOf(mainOf(render(dcd({ ...withMain({ name: 'f', type: 'frontend' }), globalDynamoNamespace: true }), {}, 'llm'))).DYN_NAMESPACE).toBe('dynamo');
  });

  test('docs/design/render-core.md §6.1 POD_* env read pod fields', () => {
    const e = envOf(mainOf(render(dcd(withMain({ name: 'f', type: 'frontend' })))));
    expect(e.POD_NAME).toEqual({ fieldRef: { fieldPath: 'metadata.name' } });
    expect(e.POD_NAMESPACE).toEqual({ fieldRef: { fieldPath: 'metadata.namespace' } });
    expect(e.POD_UID).toEqual({ fieldRef: { fieldPath: 'metadata.uid' } });
  });
});

describe('docs/design/render-core.md §6.1 discovery env', () => {
  test('etcd backend: no DYN_DISCOVERY_BACKEND', () => {
    expect(envOf(mainOf(render(dcd(withMain({ name: 'f', type: 'frontend' })), { discoveryBackend: 'etcd' }))).DYN_DISCOVERY_BACKEND).toBeUndefined();
  });

  test('any backend other than etcd (even unknown) gives DYN_DISCOVERY_BACKEND=kubernetes', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.metadata = { annotations: { 'nvidia.com/dynamo-discovery-backend': 'consul' } };
    const t = render(dcd(spec));
    expect(envOf(mainOf(t)).DYN_DISCOVERY_BACKEND).toBe('kubernetes');
    // but Kubernetes discovery proper (labels, service account) needs exactly "kubernetes"
    expect(t.metadata.labels['nvidia.com/dynamo-discovery-enabled']).toBeUndefined();
    expect(t.spec.serviceAccountName).toBe('default');
  });

  test('container discovery mode: CONTAINER_NAME=main and DYN_KUBE_DISCOVERY_MODE=container', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.metadata = { annotations: { 'nvidia.com/dynamo-kube-discovery-mode': 'container' } };
    expect(envOf(mainOf(render(dcd(spec))))).toMatchObject({ CONTAINER_NAME: 'main', DYN_KUBE_DISCOVERY_MODE: 'container' });
  });
});

// ---------------------------------------------------------------------------------------------
// docs/design/render-core.md §5.9 labels and annotations, §12.3 metrics
// ---------------------------------------------------------------------------------------------

describe('docs/design/render-core.md §5.9 pod template labels', () => {
  test('workload labels plus type, component, namespace, selector, discovery and metrics labels', () => {
    const spec = { ...withMain({ name: 'Decode', type: 'decode' }), modelRef: { name: 'Qwen/Qwen3-0.6B' } };
    spec.podTemplate.metadata = { labels: { team: 'a' } };
    const t = render(dcd(spec, { name: 'llm-decode-abcd1234', labels: { 'nvidia.com/dynamo-worker-hash': 'abcd1234', 'nvidia.com/dynamo-graph-deployment-name': 'llm' } }));
    expect(t.metadata.labels).toEqual({
      'team': 'a',
      'nvidia.com/dynamo-base-model-hash': 'fb68f5a6',
      'nvidia.com/dynamo-sub-component-type': 'decode',
      'nvidia.com/dynamo-component': 'Decode',
      'nvidia.com/dynamo-component-type': 'decode',
      'nvidia.com/dynamo-namespace': 'team-a-llm',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-worker-hash': 'abcd1234',
      'nvidia.com/metrics-enabled': 'true',
      'nvidia.com/selector': 'llm-decode-abcd1234',
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'nvidia.com/dynamo-discovery-enabled': 'true',
    });
  });

  test('graph-name label: owner graph when the DCD has no label; absent for a standalone DCD', () => {
    expect(render(dcd(withMain({ name: 'f', type: 'frontend' })), {}, 'llm').metadata.labels['nvidia.com/dynamo-graph-deployment-name']).toBe('llm');
    expect(render(dcd(withMain({ name: 'f', type: 'frontend' }))).metadata.labels['nvidia.com/dynamo-graph-deployment-name']).toBeUndefined();
  });

  test('no discovery labels with the etcd backend', () => {
    const labels = render(dcd(withMain({ name: 'f', type: 'frontend' })), { discoveryBackend: 'etcd' }).metadata.labels;
    expect(labels['nvidia.com/dynamo-discovery-backend']).toBeUndefined();
    expect(labels['nvidia.com/dynamo-discovery-enabled']).toBeUndefined();
  });
});

describe('docs/design/render-core.md §12.3 metrics label', () => {
  test('nvidia.com/enable-metrics: "false" on the pod template drops nvidia.com/metrics-enabled', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.metadata = { annotations: { 'nvidia.com/enable-metrics': 'false' } };
    const t = render(dcd(spec));
    expect(t.metadata.labels['nvidia.com/metrics-enabled']).toBeUndefined();
    expect(t.metadata.annotations).toEqual({ 'nvidia.com/enable-metrics': 'false' });
  });

  test('any other value keeps it', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.metadata = { annotations: { 'nvidia.com/enable-metrics': 'no' } };
    expect(render(dcd(spec)).metadata.labels['nvidia.com/metrics-enabled']).toBe('true');
  });
});

describe('docs/design/render-core.md §5.9 pod template annotations', () => {
  test('pod-template annotations and base model kept; origin version stripped; no annotations → none', () => {
    const spec = { ...withMain({ name: 'f', type: 'frontend' }), modelRef: { name: 'Qwen/Qwen3-0.6B' } };
    spec.podTemplate.metadata = { annotations: { 'nvidia.com/dynamo-operator-origin-version': '1.4.0', 'example.com/owner': 'ml' } };
    expect(render(dcd(spec)).metadata.annotations).toEqual({ 'example.com/owner': 'ml', 'nvidia.com/dynamo-base-model': 'Qwen/Qwen3-0.6B' });
    const bare = withMain({ name: 'f', type: 'frontend' });
    bare.podTemplate.metadata = { annotations: { 'nvidia.com/dynamo-operator-origin-version': '1.4.0' } };
    expect(render(dcd(bare)).metadata.annotations).toBeUndefined();
  });

  test('topology annotations come from the DCD metadata', () => {
    const t = render(dcd(withMain({ name: 'w', type: 'worker' }), { annotations: { 'nvidia.com/topology-label-key': 'zone' } }));
    expect(t.metadata.annotations).toEqual({ 'nvidia.com/topology-label-key': 'zone' });
  });
});

// ---------------------------------------------------------------------------------------------
// docs/design/render-core.md §5.10 security context, §5.5 grace period, §5.11 service account, §5.10 pull secrets
// ---------------------------------------------------------------------------------------------

describe('docs/design/render-core.md §5.10 security context', () => {
  test('none written → fsGroup 1000', () => {
    expect(render(dcd(withMain({ name: 'f', type: 'frontend' }))).spec.securityContext).toEqual({ fsGroup: 1000 });
  });

  test('an empty one written → kept empty, nothing added', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.spec.securityContext = {};
    expect(render(dcd(spec)).spec.securityContext).toEqual({});
  });

  test('a partial one → kept as written, no fsGroup added', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.spec.securityContext = { runAsUser: 0 };
    expect(render(dcd(spec)).spec.securityContext).toEqual({ runAsUser: 0 });
  });

  test('containers get no security context', () => {
    expect(mainOf(render(dcd(withMain({ name: 'f', type: 'frontend' })))).securityContext).toBeUndefined();
  });
});

/**
 * graph_test.go TestGenerateBasePodSpec_SecurityContext: a user security context, even a partial
 * one, replaces the default (fsGroup 1000) whole. An empty one written by the user is a set pointer
 * in the operator's pod spec: it counts as given (no fsGroup added), survives the merge of the
 * user's pod spec and container, and is written as `{}` (the field is a pointer with omitempty, and
 * only a nil pointer is left out); `null` is no security context at all.
 */
describe('graph_test.go TestGenerateBasePodSpec_SecurityContext', () => {
  const frontend = (securityContext?: unknown) => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    if (securityContext !== undefined) spec.podTemplate.spec.securityContext = securityContext;
    return render(dcd(spec)).spec.securityContext;
  };
  const cases: Array<[string, unknown, unknown]> = [
    ['no security context provided - should apply fsGroup default only', undefined, { fsGroup: 1000 }],
    ['full security context override - should use user values',
      { runAsNonRoot: true, runAsUser: 5000, runAsGroup: 5000, fsGroup: 5000 },
      { runAsNonRoot: true, runAsUser: 5000, runAsGroup: 5000, fsGroup: 5000 }],
    ['partial security context override - user gets full control', { runAsUser: 2000, runAsGroup: 3000 }, { runAsUser: 2000, runAsGroup: 3000 }],
    ['only fsGroup override - user gets full control', { fsGroup: 7000 }, { fsGroup: 7000 }],
    ['fsGroup 2000 example - exactly what user requested', { fsGroup: 2000 }, { fsGroup: 2000 }],
    ['OpenShift-style namespace range - should use user values',
      { runAsNonRoot: true, runAsUser: 1000700001, runAsGroup: 1000700001, fsGroup: 1000700001 },
      { runAsNonRoot: true, runAsUser: 1000700001, runAsGroup: 1000700001, fsGroup: 1000700001 }],
  ];
  test.each(cases)('%s', (_name, given, expected) => {
    expect(frontend(given)).toEqual(expected);
  });

  test('securityContext: {} on the pod, main and a sidecar is kept as {} through the graph, its DCD and every workload', () => {
    const podSpec = {
      securityContext: {},
      containers: [
        { name: 'main', image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm'], securityContext: {} },
        { name: 'side', image: IMAGE, securityContext: {} },
      ],
    };
    const graph = (multinode: boolean) => ({
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'llm', namespace: NS },
      spec: {
        backendFramework: 'vllm',
        components: [{ name: 'decode', type: 'decode', ...(multinode ? { multinode: { nodeCount: 2 } } : {}), podTemplate: { spec: podSpec } }],
      },
    });
    const [generated] = renderAll(graph(false), { output: 'components' });
    expect(generated.spec.podTemplate.spec).toEqual(podSpec);
    const templates: any[] = [];
    const deployment = renderAll(graph(false)).find(o => o.kind === 'Deployment');
    templates.push(deployment.spec.template.spec);
    const lws = renderAll(graph(true)).find(o => o.kind === 'LeaderWorkerSet');
    templates.push(lws.spec.leaderWorkerTemplate.leaderTemplate.spec, lws.spec.leaderWorkerTemplate.workerTemplate.spec);
    const pcs = renderAll(graph(true), { settings: { groveAvailable: true } }).find(o => o.kind === 'PodCliqueSet');
    templates.push(...pcs.spec.template.cliques.map((c: any) => c.spec.podSpec));
    expect(templates).toHaveLength(5);
    for (const spec of templates) {
      expect(spec.securityContext).toEqual({});
      expect(spec.containers.map((c: any) => [c.name, c.securityContext])).toEqual([['main', {}], ['side', {}]]);
    }
  });

  test('securityContext: null is none: the pod gets fsGroup 1000, the containers none', () => {
    const spec = withMain({ name: 'f', type: 'frontend' }, { securityContext: null });
    spec.podTemplate.spec.securityContext = null;
    const template = render(dcd(spec));
    expect(template.spec.securityContext).toEqual({ fsGroup: 1000 });
    expect(mainOf(template)).not.toHaveProperty('securityContext');
  });
});

describe('docs/design/render-core.md §5.5 termination grace period', () => {
  test('user value overrides the default', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.spec.terminationGracePeriodSeconds = 300;
    expect(render(dcd(spec)).spec.terminationGracePeriodSeconds).toBe(300);
  });

  test('user 0 cannot override (zero counts as empty): 60, and 130 for EPP', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.spec.terminationGracePeriodSeconds = 0;
    expect(render(dcd(spec)).spec.terminationGracePeriodSeconds).toBe(60);
    const epp = { ...withMain({ name: 'e', type: 'epp' }), eppConfig: { configMapRef: { name: 'cm' } } };
    epp.podTemplate.spec.terminationGracePeriodSeconds = 0;
    expect(render(dcd(epp), {}, 'llm').spec.terminationGracePeriodSeconds).toBe(130);
  });
});

describe('docs/design/render-core.md §5.11 service account', () => {
  test('step 1: a user value wins over the type default (epp) and over discovery', () => {
    const epp = { ...withMain({ name: 'e', type: 'epp' }), eppConfig: { configMapRef: { name: 'cm' } } };
    epp.podTemplate.spec.serviceAccountName = 'mine';
    expect(render(dcd(epp), {}, 'llm').spec.serviceAccountName).toBe('mine');
    const f = withMain({ name: 'f', type: 'frontend' });
    f.podTemplate.spec.serviceAccountName = 'mine';
    expect(render(dcd(f), {}, 'llm').spec.serviceAccountName).toBe('mine');
  });

  test('step 1: the planner default; a standalone planner DCD keeps a user value', () => {
    expect(render(dcd(withMain({ name: 'p', type: 'planner' }))).spec.serviceAccountName).toBe('planner-serviceaccount');
    const p = withMain({ name: 'p', type: 'planner' });
    p.podTemplate.spec.serviceAccountName = 'mine';
    expect(render(dcd(p)).spec.serviceAccountName).toBe('mine');
  });

  test('step 2: Kubernetes discovery → <parent>-k8s-service-discovery (owner graph, else the DCD)', () => {
    expect(render(dcd(withMain({ name: 'f', type: 'frontend' })), {}, 'llm').spec.serviceAccountName).toBe('llm-k8s-service-discovery');
    expect(render(dcd(withMain({ name: 'f', type: 'frontend' }), { name: 'solo' })).spec.serviceAccountName).toBe('solo-k8s-service-discovery');
  });

  test('step 3: discovery disabled → default', () => {
    expect(render(dcd(withMain({ name: 'f', type: 'frontend' })), { discoveryBackend: 'etcd' }, 'llm').spec.serviceAccountName).toBe('default');
  });

  test('discovery annotation on the pod template overrides the operator setting', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.metadata = { annotations: { 'nvidia.com/dynamo-discovery-backend': 'kubernetes' } };
    expect(render(dcd(spec), { discoveryBackend: 'etcd' }, 'llm').spec.serviceAccountName).toBe('llm-k8s-service-discovery');
  });
});

describe('docs/design/render-core.md §5.10 image pull secrets', () => {
  const registrySecrets = [
    { name: 'nvcr-b', registries: ['nvcr.io'] },
    { name: 'nvcr-a', registries: ['nvcr.io', 'ghcr.io'] },
    { name: 'local', registries: ['localhost:5000'] },
    { name: 'by-url', registries: ['https://quay.io/v2/'] },
  ];

  test('registry host of dummy://<image>', () => {
    /** The pull secrets of a frontend whose main image is `image`, with one secret per registry host. */
    const secretsFor = (image: string): unknown => {
      const hosts = ['nvcr.io', 'localhost:5000', 'ubuntu', 'quay.io', 'ubuntu:22.04'];
      const secrets = hosts.map(host => ({ name: `for-${host.replace(/[:.]/g, '-')}`, registries: [host] }));
      return render(dcd(withMain({ name: 'f', type: 'frontend' }, { image })), { registrySecrets: secrets }).spec.imagePullSecrets;
    };
    expect(secretsFor('nvcr.io/nvidia/x:1.0')).toEqual([{ name: 'for-nvcr-io' }]);
    expect(secretsFor('localhost:5000/x')).toEqual([{ name: 'for-localhost-5000' }]);
    // a tag alone names no registry
    expect(secretsFor('ubuntu:22.04')).toBeUndefined();
    expect(secretsFor('ubuntu')).toEqual([{ name: 'for-ubuntu' }]);
    expect(secretsFor('nvcr.io/x@sha256:abc')).toEqual([{ name: 'for-nvcr-io' }]);
    expect(secretsFor('https://quay.io/v2/')).toEqual([{ name: 'for-quay-io' }]);
  });

  test('secrets of the main and sidecar images, sorted per image, unique, after the user\'s, skipping present names', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.spec.containers.push({ name: 'side', image: 'localhost:5000/side:1' }, { name: 'side2', image: 'quay.io/x:1' });
    spec.podTemplate.spec.imagePullSecrets = [{ name: 'mine' }, { name: 'nvcr-b' }];
    const t = render(dcd(spec), { registrySecrets });
    expect(t.spec.imagePullSecrets).toEqual([{ name: 'mine' }, { name: 'nvcr-b' }, { name: 'nvcr-a' }, { name: 'local' }, { name: 'by-url' }]);
  });

  test('none configured or no match → no imagePullSecrets', () => {
    expect(render(dcd(withMain({ name: 'f', type: 'frontend' }))).spec.imagePullSecrets).toBeUndefined();
    const spec = withMain({ name: 'f', type: 'frontend' }, { image: 'ubuntu:22.04' });
    expect(render(dcd(spec), { registrySecrets }).spec.imagePullSecrets).toBeUndefined();
  });

  test('init containers are not looked at', () => {
    const spec = withMain({ name: 'f', type: 'frontend' }, { image: 'docker.io/x:1' });
    spec.podTemplate.spec.initContainers = [{ name: 'init', image: 'nvcr.io/x:1' }];
    expect(render(dcd(spec), { registrySecrets }).spec.imagePullSecrets).toBeUndefined();
  });

  test('nvidia.com/disable-image-pull-secret-discovery: "true" turns discovery off', () => {
    const spec = withMain({ name: 'f', type: 'frontend' });
    spec.podTemplate.metadata = { annotations: { 'nvidia.com/disable-image-pull-secret-discovery': 'true' } };
    expect(render(dcd(spec), { registrySecrets }).spec.imagePullSecrets).toBeUndefined();
  });
});
