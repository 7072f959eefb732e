/**
 * The public surface of synth-time validation: formatting, the rule catalog, robustness against
 * malformed input, input immutability, document order, and the create-time defaulting.
 */
import {
  defaultComponentDeployment, defaultGraphDeployment, formatViolation, IMPLEMENTED_RULES,
  NOT_APPLICABLE_RULES, validateDocument, type ValidateOptions,
} from '../src/admission';
import { parseQuantity, schemaQuantity } from '../src/go';
import { DEFAULT_OPERATOR_VERSION } from '../src/model';
import { dcd, dgd, dgdWith, found, frontend, FULL_PLATFORM, worker } from './fixtures/validation/builders';

describe('formatViolation', () => {
  test('Kind/name: path: message (rule N)', () => {
    const [v] = validateDocument(dgdWith(frontend(), worker({ replicas: 2, minAvailable: 3 })));
    expect(formatViolation(v)).toBe(
      'DynamoGraphDeployment/demo: spec.components[1] (component "worker"): Invalid value: "object": minAvailable must be less than or equal to replicas unless replicas is 0 (rule 62)',
    );
  });

  test('a field inside a graph component names the component; the path stays the plain field path', () => {
    const v = validateDocument(dgdWith(frontend(), worker({ replicas: -1 }))).find((x) => x.rule === '59')!;
    expect(v).toMatchObject({ path: 'spec.components[1].replicas', component: 'worker', rule: '59' });
    expect(formatViolation(v)).toBe(
      'DynamoGraphDeployment/demo: spec.components[1].replicas (component "worker"): Invalid value: -1: should be greater than or equal to 0 (rule 59)',
    );
    const [unnamed] = validateDocument(dgdWith(frontend(), worker({ name: undefined, replicas: -1 }))).filter((x) => x.path === 'spec.components[1].replicas');
    expect(unnamed).not.toHaveProperty('component');
    const [standalone] = validateDocument(dcd({ replicas: -1 }));
    expect(standalone).not.toHaveProperty('component');
  });

  test('the example of the issue', () => {
    const [v] = validateDocument(dcd({ replicas: -1 }));
    expect(formatViolation(v)).toBe(
      'DynamoComponentDeployment/my-worker: spec.replicas: Invalid value: -1: should be greater than or equal to 0 (rule 59)',
    );
  });

  test('a violation without path', () => {
    expect(formatViolation({ kind: 'DynamoGraphDeployment', name: 'x', path: '', message: 'Invalid value: 1: bad', rule: 'schema' })).toBe(
      'DynamoGraphDeployment/x: Invalid value: 1: bad (rule schema)',
    );
  });

  test('violations carry kind, name and the offending value', () => {
    expect(validateDocument(dcd({ replicas: -1 }))).toEqual([
      {
        kind: 'DynamoComponentDeployment',
        name: 'my-worker',
        path: 'spec.replicas',
        value: -1,
        message: 'Invalid value: -1: should be greater than or equal to 0',
        rule: '59',
      },
    ]);
    const [required] = validateDocument(dgd({ components: [] }));
    expect(required).not.toHaveProperty('value');
  });

  test('long values are shortened in messages', () => {
    const pattern = found(dgdWith(frontend(), worker({ name: `a_${'b'.repeat(200)}` }))).find((v) => v.message.includes('should match'));
    expect(pattern?.message.length).toBeLessThan(220);
    expect(pattern?.message).toMatch(/^Invalid value: "a_b+\.\.\.: should match/);
  });
});

describe('structural violations', () => {
  const flagged = (doc: unknown): unknown[] => validateDocument(doc).map((v) => [v.path, v.rule, v.structural]);

  test('wrong types and unknown fields are structural, whatever their row', () => {
    expect(flagged(dcd({ replicas: '2', foo: 1, providerOverride: { apiVersion: 'grove.io/v1alpha1', value: {} } }))).toEqual([
      ['spec.replicas', '59', true],
      ['spec.foo', 'schema', true],
      ['spec.providerOverride', '79', true],
    ]);
    expect(flagged(dgdWith(frontend({ globalDynamoNamespace: 'yes' }), worker(), null))).toEqual([
      ['spec.components[0].globalDynamoNamespace', 'schema', true],
      ['spec.components[2]', 'schema', true],
    ]);
    expect(flagged('hello')).toEqual([['', 'schema', true]]);
  });

  test('other violations are not', () => {
    const violations = [...validateDocument(dcd({ replicas: -1 })), ...validateDocument({ ...dgd(), apiVersion: 'v1' }), ...validateDocument(dgd({ components: [] }))];
    expect(violations.length).toBeGreaterThan(2);
    for (const v of violations) expect(v).not.toHaveProperty('structural');
  });
});

describe('rule catalog', () => {
  const all = Array.from({ length: 148 }, (_, i) => String(i + 1));

  test('every row is either implemented or explained', () => {
    const notApplicable = Object.keys(NOT_APPLICABLE_RULES);
    expect([...IMPLEMENTED_RULES, ...notApplicable].sort()).toEqual([...all].sort());
    expect(IMPLEMENTED_RULES.filter((r) => notApplicable.includes(r))).toEqual([]);
    expect(new Set(IMPLEMENTED_RULES).size).toBe(IMPLEMENTED_RULES.length);
    for (const reason of Object.values(NOT_APPLICABLE_RULES)) expect(reason.length).toBeGreaterThan(10);
  });
});

describe('document order', () => {
  test('violations follow the order of fields in the document', () => {
    const doc = dgd({
      foo: 1,
      components: [frontend({ replicas: -1 }), worker({ type: 'router', sharedMemorySize: '-1Gi' })],
    }, { annotations: { 'nvidia.com/grove-update-strategy': 'x' } });
    expect(found(doc).map((v) => `${v.path} ${v.rule}`)).toEqual([
      'metadata.annotations[nvidia.com/grove-update-strategy] 3',
      'spec.components[0] 62',
      'spec.components[0].replicas 59',
      'spec.components[1].type 43',
      'spec.components[1].sharedMemorySize 100',
      'spec.foo schema',
    ]);
  });
});

describe('malformed input never throws', () => {
  const weird: unknown[] = [null, undefined, 0, -1, 1.5, '', 'x', true, [], [null], {}, { a: null }, [1, 'a', {}]];

  test('top-level values', () => {
    for (const value of weird) {
      const violations = validateDocument(value);
      expect(Array.isArray(violations)).toBe(true);
      expect(violations.filter((v) => v.rule === 'internal')).toEqual([]);
    }
  });

  /** Every path of a JSON value. */
  function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
    const out: Array<Array<string | number>> = [prefix];
    if (Array.isArray(value)) {value.forEach((item, i) => out.push(...paths(item, [...prefix, i])));} else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) out.push(...paths(child, [...prefix, key]));
    }
    return out;
  }

  function replaced(doc: any, at: Array<string | number>, value: unknown): any {
    const copy = JSON.parse(JSON.stringify(doc));
    let parent = copy;
    for (const step of at.slice(0, -1)) parent = parent[step];
    parent[at[at.length - 1]] = value;
    return copy;
  }

  const rich = (): any => {
    const roles = [{ name: 'leader', providerOverride: { apiVersion: 'grove.io/v1alpha1', value: { topologyConstraint: {} } } }, { name: 'worker' }];
    return dgd({
      restart: { id: 'r', strategy: { type: 'Sequential', order: ['Frontend', 'worker'] } },
      topologyConstraint: { clusterTopologyName: 'topo', packDomain: 'rack' },
      experimental: { kvTransferPolicy: { labelKey: 'k', domain: 'zone', enforcement: 'preferred', preferredWeight: 0.5 } },
      providerOverride: { apiVersion: 'grove.io/v1alpha1', value: { spec: { template: { topologyConstraint: {} } } } },
      components: [
        frontend({ frontendSidecar: 'main', eppConfig: { config: { plugins: [{ type: 't' }], schedulingProfiles: [{ name: 'p', plugins: [{ pluginRef: 't' }] }] } } }),
        worker({
          multinode: { nodeCount: 2 },
          roles,
          sharedMemorySize: '1Gi',
          topologyConstraint: { packDomain: 'rack' },
          experimental: {
            gpuMemoryService: { mode: 'IntraPod', extraClientContainers: ['main'] },
            failover: { mode: 'IntraPod', numShadows: 1 },
            grove: { forceScalingGroup: true },
            checkpoint: { enabled: true, job: { gmsClientContainers: ['main'] }, identity: { model: 'm', backendFramework: 'vllm' } },
          },
          podTemplate: {
            metadata: { annotations: { 'dynamo.nvidia.com/gpu-power-limit': '300' } },
            spec: {
              containers: [{ name: 'main', image: 'repo/x:1.4.0', args: ['--enable-elastic-ep'], resources: { limits: { 'nvidia.com/gpu': '1' }, claims: [] } }],
              initContainers: [{ name: 'init', image: 'busybox' }],
            },
          },
        }),
      ],
    }, { annotations: { 'nvidia.com/dynamo-kube-discovery-mode': 'container' }, ownerReferences: [{ kind: 'x' }] });
  };

  test('any field of a DGD replaced by a value of any type', () => {
    const base = rich();
    const replacements: unknown[] = [null, 1, -1, 'x', '', true, [], [null, 1], {}, { a: 1 }];
    for (const at of paths(base).filter((p) => p.length > 0)) {
      for (const value of replacements) {
        const violations = validateDocument(replaced(base, at, value));
        expect(violations.filter((v) => v.rule === 'internal')).toEqual([]);
      }
    }
  });

  test('any field of a DCD replaced by a value of any type', () => {
    const base = dcd({ type: 'epp', eppConfig: { configMapRef: { key: 'k' } }, experimental: { checkpoint: { enabled: true, checkpointRef: 'x' } } });
    for (const at of paths(base).filter((p) => p.length > 0)) {
      for (const value of [null, 1, 'x', [], {}]) {
        expect(validateDocument(replaced(base, at, value)).filter((v) => v.rule === 'internal')).toEqual([]);
      }
    }
  });

  test('reference cycles and shared references', () => {
    const doc = dgd();
    doc.spec.components[0].podTemplate.spec.self = doc.spec.components[0].podTemplate.spec;
    doc.spec.components.push(doc.spec.components[1]);
    const violations = validateDocument(doc);
    expect(violations.filter((v) => v.rule === 'internal')).toEqual([]);
    expect(violations.map((v) => v.rule)).toContain('14');
  });
});

describe('input is not modified', () => {
  test('defaults apply to a copy', () => {
    const doc = dgdWith(frontend(), worker({ multinode: {}, roles: [{ name: 'leader' }, { name: 'worker' }] }));
    const before = JSON.stringify(doc);
    validateDocument(Object.freeze(doc), { version: '1.4.0' });
    expect(JSON.stringify(doc)).toBe(before);
  });
});

/** The defaulted copy of a DGD, untyped for the assertions. */
const defaultedGraph = (doc: unknown, options: ValidateOptions = {}): any => defaultGraphDeployment(doc as any, { ...FULL_PLATFORM, ...options }).doc;
const defaultedComponent = (doc: unknown): any => defaultComponentDeployment(doc as any);

describe('create-time defaulting', () => {
  test('workload provider (row 9) overwrites any user value', () => {
    const user = dgd({}, { annotations: { 'nvidia.com/workload-provider': 'something' } });
    expect(defaultedGraph(user).metadata.annotations['nvidia.com/workload-provider']).toBe('grove');
    expect(defaultGraphDeployment(user, { groveAvailable: false }).provider).toBe('component');
    const optOut = dgd({}, { annotations: { 'nvidia.com/enable-grove': 'FALSE' } });
    expect(defaultGraphDeployment(optOut, {}).provider).toBe('component');
    expect(found(user)).toEqual([]);
  });

  test('origin version (row 10): the operator\'s version, by default the default operator version; one already set is kept', () => {
    expect(defaultedGraph(dgd()).metadata.annotations['nvidia.com/dynamo-operator-origin-version']).toBe(DEFAULT_OPERATOR_VERSION);
    expect(defaultedGraph(dgd({}, { annotations: { 'nvidia.com/dynamo-operator-origin-version': '1.2.0' } })).metadata.annotations['nvidia.com/dynamo-operator-origin-version'])
      .toBe('1.2.0');
    expect(defaultedGraph(dgd(), { version: '1.4.0' }).metadata.annotations['nvidia.com/dynamo-operator-origin-version']).toBe('1.4.0');
    // an operator of a version that is not semver stamps one the webhook refuses (the pipeline refuses to render for such an operator at all)
    expect(validateDocument(dgd(), { ...FULL_PLATFORM, version: 'dev' }).map(({ path, message, rule }) => ({ path, message, rule }))).toEqual([
      { path: 'metadata.annotations[nvidia.com/dynamo-operator-origin-version]', message: 'Invalid value: "dev": must be valid semver', rule: '1' },
    ]);
  });

  test('replicas (60), minAvailable on Grove (65), role replicas (74), CRD defaults', () => {
    const doc = defaultedGraph(dgdWith(frontend(), worker({
      multinode: {},
      roles: [{ name: 'leader' }, { name: 'worker' }],
      experimental: { gpuMemoryService: {}, failover: {}, checkpoint: { enabled: false, identity: { model: 'm', backendFramework: 'vllm' } } },
    })));
    const w = doc.spec.components[1];
    expect(doc.spec.components[0]).toMatchObject({ replicas: 1, minAvailable: 1 });
    expect(w).toMatchObject({ replicas: 1, minAvailable: 1, multinode: { nodeCount: 2 } });
    expect(w.roles).toEqual([{ name: 'leader', replicas: 1 }, { name: 'worker', replicas: 1 }]);
    expect(w.experimental).toEqual({
      gpuMemoryService: { mode: 'IntraPod', deviceClassName: 'gpu.nvidia.com' },
      failover: { mode: 'IntraPod', numShadows: 1 },
      checkpoint: {
        enabled: false,
        identity: { model: 'm', backendFramework: 'vllm', tensorParallelSize: 1, pipelineParallelSize: 1 },
        startupPolicy: 'Immediate',
        deletionPolicy: 'Delete',
        targetContainerName: 'main',
      },
    });
    const componentProvider = defaultedGraph(dgd({}, { annotations: { 'nvidia.com/enable-grove': 'false' } }));
    expect(componentProvider.spec.components[1]).not.toHaveProperty('minAvailable');
  });

  test('spec-level CRD defaults (rows 22, 35)', () => {
    const doc = defaultedGraph(dgd({
      restart: { id: 'r', strategy: {} },
      experimental: { kvTransferPolicy: { labelKey: 'k', domain: 'zone' } },
    }));
    expect(doc.spec.restart.strategy.type).toBe('Sequential');
    expect(doc.spec.experimental.kvTransferPolicy.enforcement).toBe('required');
  });

  test('provider override targets (row 87)', () => {
    const override = (): any => ({ apiVersion: 'grove.io/v1alpha1', value: {} });
    const doc = defaultedGraph(dgd({
      providerOverride: override(),
      components: [
        frontend({ providerOverride: override() }),
        worker({ multinode: { nodeCount: 3 }, providerOverride: override(), roles: [{ name: 'leader', providerOverride: override() }, { name: 'worker' }] }),
      ],
    }));
    expect(doc.spec.providerOverride.target).toBe('PodCliqueSet');
    expect(doc.spec.components[0].providerOverride.target).toBe('PodCliqueTemplateSpec');
    expect(doc.spec.components[1].providerOverride.target).toBe('PodCliqueScalingGroupConfig');
    expect(doc.spec.components[1].roles[0].providerOverride.target).toBe('PodCliqueTemplateSpec');
    expect(doc.spec.components[1].roles[1].replicas).toBe(2);
    const component = defaultedGraph(dgd({ providerOverride: override() }), { groveAvailable: false });
    expect(component.spec.providerOverride).not.toHaveProperty('target');
  });

  test('DCD spec.name from metadata.name (row 42)', () => {
    expect(defaultedComponent(dcd()).spec.name).toBe('my-worker');
    expect(defaultedComponent(dcd({ name: 'explicit' })).spec.name).toBe('explicit');
    expect(found(dcd({}, { name: 'my.worker' }))).toEqual([
      { path: 'spec.name', message: "Invalid value: \"my.worker\": should match '^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?$'", rule: '41' },
    ]);
  });

  test('DCD defaults: no replicas, no role replicas', () => {
    const doc = defaultedComponent(dcd({ multinode: {}, roles: [{ name: 'leader' }, { name: 'worker' }] }));
    expect(doc.spec).not.toHaveProperty('replicas');
    expect(doc.spec.multinode).toEqual({ nodeCount: 2 });
    expect(doc.spec.roles).toEqual([{ name: 'leader' }, { name: 'worker' }]);
  });
});

describe('parsing helpers', () => {
  test('quantities', () => {
    expect(schemaQuantity('1e3')?.value).toBe(1000);
    expect(schemaQuantity('1E')?.value).toBe(1e18);
    expect(schemaQuantity('3000m')?.value).toBe(3);
    expect(schemaQuantity('1.5Gi')?.value).toBe(1.5 * 2 ** 30);
    expect(schemaQuantity('-0')?.sign).toBe(0);
    expect(schemaQuantity('-1Mi')?.sign).toBe(-1);
    expect(schemaQuantity(8)?.value).toBe(8);
    expect(schemaQuantity('1 Gi')).toBeUndefined();
    expect(schemaQuantity('abc')).toBeUndefined();
    expect(schemaQuantity(true)).toBeUndefined();
    // the CRD pattern lets an exponent carry a fraction, which Go's parser refuses
    expect(schemaQuantity('1E.5')?.value).toBe(Math.pow(10, 0.5));
    expect(schemaQuantity('-1e2.5')?.sign).toBe(-1);
    expect(() => parseQuantity('1e2.5')).toThrow('invalid quantity "1e2.5": unexpected characters');
  });

  test('image tag versions: a tag that is a semantic version needs no runtimeVersionOverride (rule 47)', () => {
    const needsOverride = (image: string): boolean =>
      found(dgdWith(frontend(), worker({ podTemplate: { spec: { containers: [{ name: 'main', image, resources: { limits: { 'nvidia.com/gpu': '1' } } }] } } })))
        .some((v) => v.rule === '47');
    for (const parsed of ['repo/x:V1.2.3', 'repo/x:1.5.0-rc.1+b7']) expect([parsed, needsOverride(parsed)]).toEqual([parsed, false]);
    for (const unparsed of ['repo/x:1.02.3', 'repo/x:1.2.3-01', 'repo/x:1.3.0rc21', 'repo/x', 'registry:5000/x']) {
      expect([unparsed, needsOverride(unparsed)]).toEqual([unparsed, true]);
    }
  });

  test('lenient semantic versions (origin-version annotation, rule 1)', () => {
    const refused = (origin: string): boolean =>
      found(dgd({}, { annotations: { 'nvidia.com/dynamo-operator-origin-version': origin } })).some((v) => v.rule === '1');
    for (const ok of ['1', '1.2', '1.2.3', 'v1.2.3-rc.1', '1.2.3+build.7']) expect([ok, refused(ok)]).toEqual([ok, false]);
    for (const bad of ['one', '', '1.2.3.4', '1.2.3-01', 'v']) expect([bad, refused(bad)]).toEqual([bad, true]);
  });
});
