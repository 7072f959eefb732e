/**
 * Operator settings the seeded oracle recordings vary only in renders-variants-<version>.jsonl.gz
 * (test/fixtures/oracle/README.md): DRA unavailable (`dra.enabled: false`), LeaderWorkerSet unavailable
 * (`orchestrators.lws.enabled: false`) and checkpoint storage in a PVC (`checkpoint.storage`). The
 * operator facts: deploy/operator/internal/controller/dgd_gms_resource_claims_reconciler.go,
 * internal/controller/dgd_component_program.go and dynamocomponentdeployment_controller.go,
 * internal/checkpoint/storage.go (the same in 1.4.0 and 1.5.0).
 */
import { runCliOn } from './support/cli-in-process';
import { DgdJson, JsonObject, OperatorSettings, render as renderChecked, renderError, settings } from './support/facade';
import { OperatorConfiguration } from '../src/index';

const NS = 'team-a';
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.5.0';

/** A vLLM worker with one GPU, the given experimental block and extra fields. */
function worker(experimental: JsonObject | undefined, extra: JsonObject = {}): JsonObject {
  return {
    name: 'VllmWorker',
    type: 'worker',
    replicas: 1,
    ...(experimental ? { experimental } : {}),
    podTemplate: {
      spec: {
        containers: [{
          name: 'main',
          image: IMAGE,
          command: ['python3', '-m', 'dynamo.vllm'],
          args: ['--model', 'Qwen/Qwen3-0.6B'],
          resources: { limits: { 'nvidia.com/gpu': '1' }, requests: { 'nvidia.com/gpu': '1' } },
        }],
      },
    },
    ...extra,
  };
}

function graph(...components: JsonObject[]): DgdJson {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: NS },
    spec: {
      backendFramework: 'vllm',
      components: [{ name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } }, ...components],
    },
  } as DgdJson;
}

function render(doc: unknown, output: 'components' | 'workloads', operator: Partial<OperatorSettings> = {}): any[] {
  return renderChecked(doc, { output, settings: { version: '1.5.0', ...operator } });
}

const kinds = (objects: any[]) => objects.map(o => `${o.kind}/${o.metadata.name}`);

describe('DRA unavailable (dra.enabled: false)', () => {
  const NO_DRA = { draAvailable: false };

  test('the operator configuration and its default: DRA is available unless turned off', () => {
    expect(OperatorConfiguration.fromYaml('dra:\n  enabled: false\n', 'config.yaml').draAvailable).toBe(false);
    expect(OperatorConfiguration.fromYaml('dra:\n  enabled: true\n', 'config.yaml').draAvailable).toBe(true);
    // unset: the operator detects resource.k8s.io/v1, assumed served
    expect(OperatorConfiguration.fromYaml('dra: {}\n', 'config.yaml').draAvailable).toBeUndefined();
    expect(settings().draAvailable).toBe(true);
    expect(() => OperatorConfiguration.fromYaml('dra:\n  enabled: "no"\n', 'config.yaml')).toThrow('config.yaml: dra.enabled: must be a boolean (true or false), got "no"');
  });

  test.each([
    ['component path', false],
    ['Grove', true],
  ])('a graph with a GPU memory service is refused on the %s, with the component, the field and the fix', (_path, groveAvailable) => {
    const dgd = graph(worker({ gpuMemoryService: {} }));
    // with DRA it renders the GMS ResourceClaimTemplate
    expect(kinds(render(dgd, 'workloads', { groveAvailable }))).toContain('ResourceClaimTemplate/llm-vllmworker-gpu');
    const e = renderError(() => render(dgd, 'workloads', { groveAvailable, ...NO_DRA }));
    expect(e.objectRef).toBe('DynamoGraphDeployment/llm');
    expect(e.field).toBe('spec.components[1].experimental.gpuMemoryService');
    expect(e.message).toContain('Forbidden: a GPU memory service shares GPUs through DRA ResourceClaimTemplates, but DRA is unavailable');
    expect(e.message).toContain('enable DRA (set dra.enabled to true or leave it unset on a cluster that serves resource.k8s.io/v1) '
      + 'or remove experimental.gpuMemoryService from the component');
  });

  test('the graph controller creates no DCD either (components output refused)', () => {
    const e = renderError(() => render(graph(worker({ gpuMemoryService: {} })), 'components', NO_DRA));
    expect(e.field).toBe('spec.components[1].experimental.gpuMemoryService');
  });

  test('a graph without GPU memory service or inter-pod failover renders as with DRA', () => {
    const dgd = graph(worker(undefined));
    expect(render(dgd, 'workloads', NO_DRA)).toEqual(render(dgd, 'workloads'));
  });
});

describe('LeaderWorkerSet unavailable (orchestrators.lws.enabled: false)', () => {
  const multinode = { multinode: { nodeCount: 2 } };

  test('a multinode graph on the component path is refused; on Grove it renders as with LeaderWorkerSet', () => {
    const dgd = graph(worker(undefined, multinode));
    const e = renderError(() => render(dgd, 'workloads', { lwsAvailable: false }));
    expect(e.field).toBe('spec.components[1].multinode');
    expect(e.message).toContain('no multinode orchestrator available');
    expect(render(dgd, 'workloads', { lwsAvailable: false, groveAvailable: true })).toEqual(render(dgd, 'workloads', { groveAvailable: true }));
  });

  test('a standalone multinode DCD gets a Deployment (the component controller\'s fallback) instead of a LeaderWorkerSet', () => {
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'llm-worker', namespace: NS },
      spec: { backendFramework: 'vllm', ...worker(undefined, multinode) },
    };
    expect(kinds(render(dcd, 'workloads')).some(k => k.startsWith('LeaderWorkerSet/'))).toBe(true);
    const objects = render(dcd, 'workloads', { lwsAvailable: false });
    expect(kinds(objects).some(k => k.startsWith('LeaderWorkerSet/'))).toBe(false);
    expect(kinds(objects)).toContain('Deployment/llm-worker');
  });
});

describe('checkpoint storage (checkpoint.storage)', () => {
  const STORAGE: Partial<OperatorSettings> = {
    checkpointEnabled: true,
    checkpointStorageType: 'pvc',
    checkpointStoragePvcName: 'snapshot-pvc',
    checkpointStorageBasePath: '/checkpoints/',
    checkpointStoragePvcCreate: true,
    checkpointStoragePvcSize: '1Ti',
    checkpointStorageClassName: 'shared-rwx',
  };
  const withCheckpoint = graph(worker({ checkpoint: { enabled: true } }));

  test('the operator configuration and the Helm values carry every field', () => {
    const config = 'checkpoint:\n  enabled: true\n  storage:\n    type: pvc\n    pvc:\n      pvcName: ckpt\n      basePath: /data\n'
      + '      create: true\n      size: 100Gi\n      storageClassName: fast\n      accessMode: ReadWriteOnce\n';
    const expected = {
      checkpointEnabled: true,
      checkpointStorageType: 'pvc',
      checkpointStoragePvcName: 'ckpt',
      checkpointStorageBasePath: '/data',
      checkpointStoragePvcCreate: true,
      checkpointStoragePvcSize: '100Gi',
      checkpointStorageClassName: 'fast',
      checkpointStorageAccessMode: 'ReadWriteOnce',
    };
    expect(OperatorConfiguration.fromYaml(config, 'config.yaml')).toEqual(expected);
    const values = {
      'dynamo-operator': {
        checkpoint: {
          enabled: true,
          storage: { type: 'pvc', pvc: { pvcName: 'ckpt', basePath: '/data', create: true, size: '100Gi', storageClassName: 'fast', accessMode: 'ReadWriteOnce' } },
        },
      },
    };
    expect(OperatorConfiguration.fromHelmValues(JSON.stringify(values), {}, 'values.yaml')).toMatchObject(expected);
    // the chart writes storage only with a type, and for another type only the type
    expect(OperatorConfiguration.fromHelmValues(JSON.stringify({ 'dynamo-operator': { checkpoint: { enabled: true, storage: { type: 's3' } } } }), {}, 'values.yaml'))
      .toMatchObject({ checkpointStorageType: 's3' });
    expect(OperatorConfiguration.fromHelmValues(JSON.stringify({ 'dynamo-operator': { checkpoint: { enabled: true, storage: { pvc: { pvcName: 'x' } } } } }), {}, 'values.yaml')
      .checkpointStoragePvcName).toBe('');
  });

  test('create: the graph gets the PVC the operator creates in its namespace (labels, ReadWriteMany, Filesystem, size, class)', () => {
    for (const groveAvailable of [false, true]) {
      const pvc = render(withCheckpoint, 'workloads', { ...STORAGE, groveAvailable }).find(o => o.kind === 'PersistentVolumeClaim');
      expect(pvc).toEqual({
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: 'snapshot-pvc',
          namespace: NS,
          labels: { 'app.kubernetes.io/name': 'dynamo', 'app.kubernetes.io/component': 'checkpoint-storage', 'app.kubernetes.io/managed-by': 'dynamo-operator' },
        },
        spec: { accessModes: ['ReadWriteMany'], resources: { requests: { storage: '1Ti' } }, storageClassName: 'shared-rwx', volumeMode: 'Filesystem' },
      });
    }
    const once = render(withCheckpoint, 'workloads', { ...STORAGE, checkpointStorageAccessMode: 'ReadWriteOnce', checkpointStorageClassName: '' })
      .find(o => o.kind === 'PersistentVolumeClaim');
    expect(once.spec).toEqual({ accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Ti' } }, volumeMode: 'Filesystem' });
  });

  test('no PVC without create (it must exist: said to the user), or without a checkpoint component', () => {
    const existing = { ...STORAGE, checkpointStoragePvcCreate: false };
    expect(kinds(render(withCheckpoint, 'workloads', existing)).filter(k => k.startsWith('PersistentVolumeClaim/'))).toEqual([]);
    // what the user is told about the claim that must exist: the next test, through the command line
    expect(kinds(render(graph(worker(undefined)), 'workloads', STORAGE)).filter(k => k.startsWith('PersistentVolumeClaim/'))).toEqual([]);
    // s3 or oci without PVC fields: no configured storage
    expect(kinds(render(withCheckpoint, 'workloads', { checkpointEnabled: true, checkpointStorageType: 's3' })).filter(k => k.startsWith('PersistentVolumeClaim/'))).toEqual([]);
  });

  test('the CLI says which claim must exist (create false), once per graph, on stderr; none when the operator creates it', () => {
    const op = (create: boolean) => 'apiVersion: operator.config.dynamo.nvidia.com/v1alpha1\nkind: OperatorConfiguration\nrbac:\n'
      + '  plannerClusterRoleName: p\n  eppClusterRoleName: e\nmpi:\n  sshSecretName: s\n  sshSecretNamespace: d\n'
      + `checkpoint:\n  enabled: true\n  storage:\n    pvc:\n      pvcName: ckpt\n      basePath: /ckpt\n      create: ${create}\n      size: 10Gi\n`;
    const files = { 'graph.json': JSON.stringify(withCheckpoint), 'existing.yaml': op(false), 'create.yaml': op(true) };
    const existing = runCliOn(files, ['render', '--quiet', '--output', 'workloads', '--operator-config', 'existing.yaml', 'graph.json']);
    expect(existing.code).toBe(0);
    expect(existing.stderr).toBe('graph.json:1:1: nvidia.com/v1beta1 DynamoGraphDeployment/llm: the operator expects the checkpoint storage PVC ckpt '
      + '(checkpoint.storage.pvc.pvcName) in namespace team-a and does not create it (checkpoint.storage.pvc.create is false): until it exists '
      + 'every reconcile fails; create the claim, or set checkpoint.storage.pvc.create with a size\n');
    expect(existing.stdout).not.toContain('kind: PersistentVolumeClaim');
    const created = runCliOn(files, ['render', '--quiet', '--output', 'workloads', '--operator-config', 'create.yaml', 'graph.json']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain('kind: PersistentVolumeClaim');
  });

  test('a claim of that name given with the input exists: the operator creates none, and expects none', () => {
    const claim = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'snapshot-pvc', namespace: NS }, spec: { accessModes: ['ReadWriteOnce'] } };
    const objects = renderChecked([withCheckpoint, claim], { settings: { version: '1.5.0', ...STORAGE } });
    // the input's claim passes through; no second one is rendered
    expect(objects.filter(o => o.kind === 'PersistentVolumeClaim')).toEqual([claim]);
    const files = {
      'graph.yaml': `${JSON.stringify(withCheckpoint)}\n---\n${JSON.stringify({ ...claim, metadata: { name: 'snapshot-pvc' } })}\n`,
      'op.yaml': 'checkpoint:\n  enabled: true\n  storage:\n    pvc:\n      pvcName: snapshot-pvc\n      basePath: /ckpt\n',
    };
    // without create the CLI says nothing when the claim is given (in the namespace rendered for)
    const given = runCliOn(files, ['render', '--output', 'workloads', '--namespace', NS, '--operator-config', 'op.yaml', 'graph.yaml']);
    expect(given.code).toBe(0);
    expect(given.stderr).not.toContain('checkpoint storage PVC');
    const missing = runCliOn({ ...files, 'graph.yaml': JSON.stringify(withCheckpoint) }, ['render', '--output', 'workloads', '--operator-config', 'op.yaml', 'graph.yaml']);
    expect(missing.stderr).toContain('the operator expects the checkpoint storage PVC snapshot-pvc');
  });

  test('a standalone DCD with a checkpoint gets the PVC from the component controller', () => {
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'llm-worker', namespace: NS },
      spec: { backendFramework: 'vllm', ...worker({ checkpoint: { enabled: true } }) },
    };
    expect(kinds(render(dcd, 'workloads', STORAGE))).toContain('PersistentVolumeClaim/snapshot-pvc');
  });

  test.each([
    [{ checkpointStorageType: 'gcs' }, 'checkpoint.storage.type', 'Unsupported value: "gcs": supported values: "pvc"'],
    [{ checkpointStoragePvcName: '' }, 'checkpoint.storage.pvc.pvcName', 'Required value'],
    [{ checkpointStorageBasePath: 'checkpoints' }, 'checkpoint.storage.pvc.basePath', 'Invalid value: "checkpoints": must be an absolute path'],
    [{ checkpointStorageAccessMode: 'ReadWriteOncePod' }, 'checkpoint.storage.pvc.accessMode', 'Unsupported value: "ReadWriteOncePod": supported values: "ReadWriteOnce", "ReadWriteMany"'],
    [{ checkpointStoragePvcSize: '' }, 'checkpoint.storage.pvc.size', 'Required value'],
    [{ checkpointStoragePvcSize: '0' }, 'checkpoint.storage.pvc.size', 'Invalid value: "0": must be greater than zero'],
    [{ checkpointStoragePvcSize: 'lots' }, 'checkpoint.storage.pvc.size', 'Invalid value: "lots": must be a quantity such as "1Ti"'],
  ])('a configuration the operator cannot use fails the graph\'s reconciles: %j', (change, field, rule) => {
    for (const output of ['workloads', 'components'] as const) {
      if (output === 'components' && field === 'checkpoint.storage.pvc.size') continue; // only the claim's creation reads the size
      const e = renderError(() => render(withCheckpoint, output, { ...STORAGE, ...change }));
      expect(e.objectRef).toBe('operator settings');
      expect(e.field).toBe(field);
      expect(e.message).toContain(rule);
      expect(e.message).toContain('the operator fails every reconcile of DynamoGraphDeployment/llm, which has a checkpoint-enabled component, until checkpoint.storage is fixed');
    }
    // a graph without a checkpoint does not read it
    expect(() => render(graph(worker(undefined)), 'workloads', { ...STORAGE, ...change })).not.toThrow();
  });
});
