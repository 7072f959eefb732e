/**
 * One operator version at a time: every behaviour that differs between the operator versions this
 * library renders for (src/model/operator-version.ts) is checked on each side of its gate.
 */
import { runCliOn } from './support/cli-in-process';
import { checkAndRender, DgdJson, JsonObject, OperatorSettings, render, renderError, settings } from './support/facade';
import {
  admittedWorkerHash, cliqueMain, cliqueOf, envValue, groveComponent, groveGraph, renderGrove,
  renderPodCliqueSetOf,
} from './support/grove-fixtures';
import {
  OPERATOR_1_4, OPERATOR_1_5, OPERATOR_GATES, OPERATOR_NEWER, operatorBehaviourVersion, operatorHas,
  operatorVersionProblem, parseOperatorVersion, SUPPORTED_OPERATOR_VERSIONS,
} from '../src/model';

const NS = 'ns';
const IMAGE_15 = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0';

interface Broken { readonly path: string; readonly message: string; readonly rule: string }

function rulesOf(violations: readonly Broken[]): string[] {
  return violations.map(v => `${v.path}: ${v.message} (rule ${v.rule})`);
}

/** The rules `doc` breaks as the operator admits it on create (or, with `old`, as the update of the stored `old`). */
function admission(doc: unknown, operator: Partial<OperatorSettings>, old?: unknown): Broken[] {
  const update = old === undefined ? undefined : { olds: [old], oldFile: 'old.yaml' };
  return checkAndRender([{ documents: [doc] }], { settings: settings(operator), update }).problems.map(p => p.violation!);
}

/** The rules `doc` breaks on create. */
const validateDocument = (doc: unknown, operator: Partial<OperatorSettings>): Broken[] => admission(doc, operator);
/** The rules the update of `old` to `doc` breaks. */
const validateUpdate = (old: unknown, doc: unknown, operator: Partial<OperatorSettings>): Broken[] => admission(doc, operator, old);

describe('operator versions', () => {
  test('the default version is the goldens\' operator, 1.5.0', () => {
    expect(settings().version).toBe(OPERATOR_1_5);
    expect(settings().version).toBe('1.5.0');
  });

  test('three rows: 1.4.0 and 1.5.0 verified, 1.6.0 from newer sources', () => {
    expect(SUPPORTED_OPERATOR_VERSIONS.map(v => [v.version, v.verified])).toEqual([['1.4.0', true], ['1.5.0', true], ['1.6.0', false]]);
    expect([OPERATOR_1_4, OPERATOR_1_5, OPERATOR_NEWER]).toEqual(['1.4.0', '1.5.0', '1.6.0']);
  });

  test('a version is read by its MAJOR.MINOR.PATCH; between rows it behaves as the lower row', () => {
    expect(parseOperatorVersion('v1.5.0-rc.2+build.7')).toEqual({ major: 1, minor: 5, patch: 0 });
    expect(parseOperatorVersion('1.5')).toEqual({ major: 1, minor: 5, patch: 0 });
    expect(parseOperatorVersion('dev')).toBeUndefined();
    expect(operatorBehaviourVersion('1.4.7')).toBe('1.4.0');
    expect(operatorBehaviourVersion('1.5.0-rc.1')).toBe('1.5.0');
    expect(operatorBehaviourVersion('1.5.3')).toBe('1.5.0');
    expect(operatorBehaviourVersion('2.0.0')).toBe('1.6.0');
    expect(operatorBehaviourVersion('1.3.9')).toBeUndefined();
  });

  test('versions before 1.4.0 and non-versions are refused with the supported list', () => {
    expect(operatorVersionProblem('1.4.0')).toBeUndefined();
    expect(operatorVersionProblem('1.3.9')).toBe('operator "1.3.9" is not supported: this library renders operators 1.4.0 and later (1.4.0, 1.5.0, 1.6.0)');
    expect(operatorVersionProblem('dev')).toMatch(/^must be a semantic version such as "1\.5\.0"/);
    const err = renderError(() => render([], { settings: { version: '1.3.0' } }));
    expect(err.message).toBe('operator settings: version: operator "1.3.0" is not supported: this library renders operators 1.4.0 and later (1.4.0, 1.5.0, 1.6.0)');
    // the CLI refuses it for validation too
    const { code, stderr } = runCliOn({ 'op.yaml': 'operatorVersion: 1.3.0\n', 'g.yaml': '' }, ['validate', '--operator-config', 'op.yaml', 'g.yaml']);
    expect(code).toBe(1);
    expect(stderr).toBe('operator version: operator "1.3.0" is not supported: this library renders operators 1.4.0 and later (1.4.0, 1.5.0, 1.6.0)\n');
  });

  test('every gate names the first version that has it', () => {
    for (const [name, gate] of Object.entries(OPERATOR_GATES)) {
      expect([OPERATOR_1_5, OPERATOR_NEWER]).toContain(gate.since);
      expect(operatorHas(gate.since, name as keyof typeof OPERATOR_GATES)).toBe(true);
      expect(operatorHas(gate.since === OPERATOR_1_5 ? '1.4.9' : '1.5.9', name as keyof typeof OPERATOR_GATES)).toBe(false);
    }
  });
});

describe('gate groveWorkerHashSuffix (1.5.0): Grove worker cliques carry the worker hash', () => {
  const graph = () => groveGraph([groveComponent('Frontend', 'frontend'), groveComponent('decode', 'decode')]);

  test('1.4.0: no worker-hash label, no DYN_NAMESPACE_WORKER_SUFFIX, no label on the Service', () => {
    const pcs = renderPodCliqueSetOf(graph(), { version: '1.4.0' });
    expect(cliqueOf(pcs, 'decode').labels).not.toHaveProperty(['nvidia.com/dynamo-worker-hash']);
    expect(envValue(cliqueMain(pcs, 'decode'), 'DYN_NAMESPACE_WORKER_SUFFIX')).toBeUndefined();
    const services = renderGrove(graph(), { version: '1.4.0' }).filter(o => o.kind === 'Service');
    expect(services.length).toBeGreaterThan(0);
    for (const service of services) expect(service.metadata.labels ?? {}).not.toHaveProperty(['nvidia.com/dynamo-worker-hash']);
  });

  test('1.5.0: the worker clique and its pods carry the graph\'s worker hash', () => {
    const hash = admittedWorkerHash(graph());
    const pcs = renderPodCliqueSetOf(graph(), { version: '1.5.0' });
    expect(cliqueOf(pcs, 'decode').labels['nvidia.com/dynamo-worker-hash']).toBe(hash);
    expect(envValue(cliqueMain(pcs, 'decode'), 'DYN_NAMESPACE_WORKER_SUFFIX')).toBe(hash);
    // frontends are never tagged
    expect(cliqueOf(pcs, 'frontend').labels).not.toHaveProperty(['nvidia.com/dynamo-worker-hash']);
  });
});

describe('gate elasticEpLeaderService (1.5.0): the headless Service of a single-pod elastic-EP leader', () => {
  const graph = () => groveGraph([
    groveComponent('Frontend', 'frontend'),
    groveComponent('decode', 'decode', {}, { command: ['python3', '-m', 'dynamo.vllm'], args: ['--enable-elastic-ep', '--data-parallel-backend', 'ray'] }),
  ]);
  const leaderServices = (version: string) => renderGrove(graph(), { version }).filter(o => o.kind === 'Service' && String(o.metadata.name).endsWith('-ray'));

  test('1.4.0: none', () => {
    expect(leaderServices('1.4.0')).toEqual([]);
  });

  test('1.5.0: `<component service>-ray`', () => {
    expect(leaderServices('1.5.0').map(s => s.metadata.name)).toEqual(['llm-decode-ray']);
  });
});

describe('gate providerOverride (1.5.0): the field exists from 1.5.0 on', () => {
  const override = { apiVersion: 'grove.io/v1alpha1', value: { topologyConstraint: { pack: { required: 'host' } } } };
  const graph = (): DgdJson => groveGraph([groveComponent('Frontend', 'frontend'), groveComponent('decode', 'decode', { providerOverride: override })],
    {}, { namespace: NS });

  test('1.4.0: an unknown field on create; rendered without admission, the API server would have pruned it', () => {
    const violations = validateDocument(graph(), { version: '1.4.0', groveAvailable: true });
    expect(rulesOf(violations)).toEqual(['spec.components[1].providerOverride: unknown field "spec.components[1].providerOverride" (rule schema)']);
    expect(cliqueOf(renderPodCliqueSetOf(graph(), { version: '1.4.0' }), 'decode')).not.toHaveProperty('topologyConstraint');
  });

  test('1.5.0: admitted and applied to the clique', () => {
    expect(rulesOf(validateDocument(graph(), { version: '1.5.0', groveAvailable: true }))).toEqual([]);
    expect(cliqueOf(renderPodCliqueSetOf(graph(), { version: '1.5.0' }), 'decode').topologyConstraint).toEqual({ pack: { required: 'host' } });
  });
});

/** A single-worker graph on the component provider (`worker` fields merged). */
function componentGraph(worker: JsonObject = {}, metadata: JsonObject = {}): DgdJson {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: NS, ...metadata },
    spec: {
      backendFramework: 'vllm',
      components: [{
        name: 'worker',
        type: 'worker',
        podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE_15, command: ['python3', '-m', 'dynamo.vllm'] }] } },
        ...worker,
      }],
    },
  } as DgdJson;
}

describe('gate runtimeGatedDefaults (1.6.0, unverified): runtime 1.5.0 workers', () => {
  const workerMain = (version: string): JsonObject => {
    const objects = render(componentGraph(), { settings: { version } });
    const deployment = objects.find(o => o.kind === 'Deployment')!;
    return deployment.spec.template.spec.containers.find((c: JsonObject) => c.name === 'main');
  };

  test('1.5.0: one liveness failure, DYN_HEALTH_CHECK_ENABLED=false whatever the runtime version', () => {
    const main = workerMain('1.5.0');
    expect(main.livenessProbe.failureThreshold).toBe(1);
    expect(envValue(main, 'DYN_HEALTH_CHECK_ENABLED')).toBe('false');
  });

  test('1.6.0: three liveness failures and health checks on for runtime 1.5.0', () => {
    const main = workerMain('1.6.0');
    expect(main.livenessProbe.failureThreshold).toBe(3);
    expect(envValue(main, 'DYN_HEALTH_CHECK_ENABLED')).toBe('true');
  });
});

/** A standalone EPP DCD (`spec` fields merged). */
function eppDcd(spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'epp', namespace: NS },
    spec: { name: 'epp', type: 'epp', podTemplate: { spec: { containers: [{ name: 'main', image: 'registry.example/epp:latest' }] } }, ...spec },
  };
}

describe('gates eppRuntimeContract and standaloneEppRuntimeVersion (1.6.0, unverified): EPP admission', () => {
  test('1.5.0: every EPP needs eppConfig (row 51); a standalone DCD may omit runtimeVersionOverride', () => {
    expect(rulesOf(validateDocument(eppDcd(), { version: '1.5.0' }))).toEqual(['spec.eppConfig: Required value: is required for EPP components (rule 51)']);
    const configured = eppDcd({ eppConfig: { configMapRef: { name: 'cfg', key: 'k' } } });
    expect(rulesOf(validateDocument(configured, { version: '1.5.0' }))).toEqual([]);
  });

  test('1.6.0: the runtime contract (row 49) and a runtimeVersionOverride for an unversioned standalone EPP (row 47)', () => {
    expect(rulesOf(validateDocument(eppDcd(), { version: '1.6.0' }))).toEqual([
      'spec.runtimeVersionOverride: Required value: is required when the specified main container image has no parseable semantic-version tag (rule 47)',
    ]);
    const native = eppDcd({ runtimeVersionOverride: '1.5.0', eppConfig: { configMapRef: { name: 'cfg', key: 'k' } } });
    expect(rulesOf(validateDocument(native, { version: '1.6.0' }))[0]).toMatch(/^spec\.eppConfig: Forbidden: must be omitted for native Rust EPP images .* \(rule 49\)$/);
    expect(rulesOf(validateDocument(native, { version: '1.5.0' }))).toEqual([]);
  });
});

describe('gate nodeCountImmutable (1.6.0, unverified): multinode.nodeCount on update', () => {
  const multinode = (nodeCount: number, annotations?: Record<string, string>): JsonObject => componentGraph({
    multinode: { nodeCount },
    podTemplate: {
      ...(annotations ? { metadata: { annotations } } : {}),
      spec: { containers: [{ name: 'main', image: IMAGE_15, command: ['python3', '-m', 'dynamo.vllm'], resources: { limits: { 'nvidia.com/gpu': '8' } } }] },
    },
  }, { uid: 'u1', resourceVersion: '1', generation: 1, annotations: { 'nvidia.com/workload-provider': 'component' } });

  test('1.5.0: a graph component without the GPU power annotation may change its node count', () => {
    expect(rulesOf(validateUpdate(multinode(2), multinode(3), { version: '1.5.0' }))).toEqual([]);
  });

  test('1.5.0: with the GPU power annotation the node count is frozen (row 98)', () => {
    const power = { 'dynamo.nvidia.com/gpu-power-limit': '500' };
    expect(rulesOf(validateUpdate(multinode(2, power), multinode(3, power), { version: '1.5.0' })))
      .toEqual(['spec.components[0].multinode.nodeCount: Invalid value: 3: field is immutable (rule 98)']);
  });

  test('1.6.0: frozen for every component (row 69)', () => {
    expect(rulesOf(validateUpdate(multinode(2), multinode(3), { version: '1.6.0' })))
      .toEqual(['spec.components[0].multinode.nodeCount: Invalid value: 3: field is immutable (rule 69)']);
  });
});

describe('gate typeImmutable (1.6.0, unverified): the component type transition rule', () => {
  const graph = (type: string) => componentGraph({ type }, { uid: 'u1', resourceVersion: '1', annotations: { 'nvidia.com/workload-provider': 'component' } });

  test('1.5.0: type may change', () => {
    expect(rulesOf(validateUpdate(graph('worker'), graph('decode'), { version: '1.5.0' })).filter(r => r.endsWith('(rule 44)'))).toEqual([]);
  });

  test('1.6.0: type is immutable once set', () => {
    expect(rulesOf(validateUpdate(graph('worker'), graph('decode'), { version: '1.6.0' })).filter(r => r.endsWith('(rule 44)')))
      .toEqual(['spec.components[0]: Invalid value: "object": type is immutable after it is set (rule 44)']);
  });
});

describe('gate standaloneWorkerCheckpointRef (1.6.0, unverified): row 145', () => {
  const dcd = {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'w', namespace: NS },
    spec: {
      name: 'w',
      type: 'worker',
      backendFramework: 'vllm',
      experimental: { checkpoint: { enabled: true, checkpointRef: 'ckpt' } },
      podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE_15 }] } },
    },
  };

  test('1.5.0: a standalone worker may name a checkpoint', () => {
    expect(rulesOf(validateDocument(dcd, { version: '1.5.0' })).filter(r => r.endsWith('(rule 145)'))).toEqual([]);
  });

  test('1.6.0: only a DynamoGraphDeployment-managed worker may', () => {
    expect(rulesOf(validateDocument(dcd, { version: '1.6.0' })).filter(r => r.endsWith('(rule 145)'))).toEqual([
      'spec.experimental.checkpoint.checkpointRef: Forbidden: worker-class checkpointRef is supported only on DynamoGraphDeployment-managed components (rule 145)',
    ]);
  });
});

describe('gate vllmFlagSpellings (1.6.0, unverified): how the vLLM multinode launch reads its flags', () => {
  const graph = (args: string[]) => groveGraph([
    groveComponent('Frontend', 'frontend'),
    groveComponent('decode', 'decode', {
      multinode: { nodeCount: 2 },
      podTemplate: {
        metadata: { annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'mp' } },
        spec: { containers: [{ name: 'main', image: IMAGE_15, command: ['python3', '-m', 'dynamo.vllm'], args, resources: { limits: { 'nvidia.com/gpu': '8' } } }] },
      },
    }),
  ]);
  const leaderMain = (args: string[], version: string): JsonObject => cliqueMain(renderPodCliqueSetOf(graph(args), { version }), 'decode-ldr');
  const MP_LEADER = ['--distributed-executor-backend', 'mp', '--nnodes', '2'];

  test('exact long flags are read at every version', () => {
    for (const version of ['1.4.0', '1.5.0', '1.6.0']) {
      expect(leaderMain(['--tensor-parallel-size', '16'], version).args).toEqual(expect.arrayContaining(MP_LEADER));
    }
  });

  test('1.4.0 and 1.5.0: `-tp 16` and `--tensor-parallel-size=16` are not read, TP counts as 1: no multinode launch flags', () => {
    for (const version of ['1.4.0', '1.5.0']) {
      expect(leaderMain(['-tp', '16'], version).args).toEqual(['-tp', '16']);
      expect(leaderMain(['--tensor-parallel-size=16'], version).args).toEqual(['--tensor-parallel-size=16']);
    }
  });

  test('1.6.0: the alias and the `=` form count as TP 16: mp launch flags', () => {
    expect(leaderMain(['-tp', '16'], '1.6.0').args).toEqual(expect.arrayContaining(['-tp', '16', ...MP_LEADER]));
    expect(leaderMain(['--tensor-parallel-size=16'], '1.6.0').args).toEqual(expect.arrayContaining(['--tensor-parallel-size=16', ...MP_LEADER]));
  });
});
