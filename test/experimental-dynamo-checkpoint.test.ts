/**
 * Experimental checkpoint of the operators of 1.4.0 and 1.5.0 (docs/design/render-experimental.md §3.8): the
 * graph controller creates a `nvidia.com/v1alpha1` DynamoCheckpoint `checkpoint-<id>` per automatic
 * capture and names it in the generated DCD; `checkpointRef` names a DynamoCheckpoint; a Ready one
 * makes worker pods probe every second. Operators with SnapshotJob checkpoints (1.6.0, newer
 * sources) are covered by experimental-checkpoint.test.ts; here only the switch between the two.
 */
import * as crypto from 'crypto';
import * as path from 'path';
import { DgdJson, JsonObject, render as renderChecked, renderUnchecked, workerHashOf } from './support/facade';
import { oracleFixtureFiles, readOracleRecords, runSettings, stripServerSet, withOracleUids } from './support/oracle-renders';
import { renderError } from './support/pod-render';
// the checkpoint identity hashes, unit-tested on their edge cases
import { dgdCheckpointId, legacyIdentityHash } from '../src/engine';

const NS = 'team-a';
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const sha256 = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

/** A vLLM graph with a frontend and a worker `VllmWorker` carrying `checkpoint` (and `extra`). */
function graph(checkpoint: JsonObject = { enabled: true }, extra: JsonObject = {}, spec: JsonObject = {}): DgdJson {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: NS },
    spec: {
      backendFramework: 'vllm',
      ...spec,
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        {
          name: 'VllmWorker',
          type: 'worker',
          replicas: 2,
          experimental: { checkpoint },
          podTemplate: {
            metadata: { labels: { team: 'a' } },
            spec: {
              containers: [{
                name: 'main',
                image: IMAGE,
                command: ['python3', '-m', 'dynamo.vllm'],
                args: ['--model', 'Qwen/Qwen3-0.6B'],
                resources: { limits: { 'nvidia.com/gpu': '1' } },
              }],
            },
          },
          ...extra,
        },
      ],
    },
  } as DgdJson;
}

function render(docs: unknown[], output: 'components' | 'workloads', operator: JsonObject = {}): JsonObject[] {
  return renderChecked(docs, { output, settings: { version: '1.5.0', checkpointEnabled: true, ...operator } });
}

function only(objects: JsonObject[], kind: string): JsonObject {
  const found = objects.filter(o => o.kind === kind);
  expect(found).toHaveLength(1);
  return found[0];
}

function workerDcd(objects: JsonObject[]): JsonObject {
  return objects.find(o => o.kind === 'DynamoComponentDeployment' && o.spec.name === 'VllmWorker')!;
}

/** The graph's worker hash and its automatic checkpoint ID, as the operator computes them. */
function expectedId(dgd: DgdJson = graph(), version = '1.5.0'): { hash: string; id: string } {
  const hash = workerHashOf(dgd, { version, checkpointEnabled: true });
  const id = sha256(JSON.stringify({ namespace: NS, dgdName: 'llm', componentName: 'VllmWorker', workerHash: hash })).slice(0, 32);
  return { hash, id };
}

/** A DynamoCheckpoint as the cluster returns it. */
function observed(name: string, phase: string | undefined, labels: Record<string, string> = {}, spec: JsonObject = {}): JsonObject {
  return {
    apiVersion: 'nvidia.com/v1alpha1',
    kind: 'DynamoCheckpoint',
    metadata: { name, namespace: NS, uid: `${name}-uid`, labels },
    spec,
    status: phase === undefined ? {} : { phase },
  };
}

describe('docs/design/render-experimental.md §3.8 automatic capture: the DynamoCheckpoint (operators 1.4.0 and 1.5.0)', () => {
  test('the checkpoint ID: first 32 hex of SHA-256 over {namespace?, dgdName, dgdUID?, componentName, workerHash?}', () => {
    expect(dgdCheckpointId({ namespace: 'ns', dgdName: 'g', dgdUid: '', componentName: 'c', workerHash: '' }))
      .toBe(sha256('{"namespace":"ns","dgdName":"g","componentName":"c"}').slice(0, 32));
    expect(dgdCheckpointId({ namespace: '', dgdName: 'g', dgdUid: 'u', componentName: 'c', workerHash: 'h' }))
      .toBe(sha256('{"dgdName":"g","dgdUID":"u","componentName":"c","workerHash":"h"}').slice(0, 32));
  });

  test.each(['1.4.0', '1.5.0'])('operator %s: checkpoint-<id> with the capture job, no SnapshotJob', version => {
    // the worker hash covers the stamped origin version, so each operator has its own ID
    const { hash, id } = expectedId(graph(), version);
    const objects = render([graph()], 'workloads', { version });
    expect(objects.filter(o => o.kind === 'SnapshotJob')).toEqual([]);
    const ckpt = only(objects, 'DynamoCheckpoint');
    expect(ckpt.apiVersion).toBe('nvidia.com/v1alpha1');
    expect(ckpt.metadata).toEqual({
      name: `checkpoint-${id}`,
      namespace: NS,
      labels: {
        'nvidia.com/dynamo-component': 'VllmWorker',
        'nvidia.com/dynamo-graph-deployment-name': 'llm',
        'nvidia.com/dynamo-worker-hash': hash,
        'nvidia.com/snapshot-checkpoint-id': id,
      },
      annotations: {
        'nvidia.com/dynamo-auto-checkpoint': 'true',
        'nvidia.com/dynamo-checkpoint-deletion-policy': 'Delete',
        'nvidia.com/snapshot-artifact-version': '1',
      },
      finalizers: ['nvidia.com/finalizer'],
    });
    expect(ckpt.spec.identity).toEqual({ model: `${NS}/llm`, backendFramework: 'vllm', extraParameters: { checkpointID: id, component: 'VllmWorker', dgdUID: '' } });
    expect(ckpt.spec).not.toHaveProperty('gpuMemoryService');
    expect(ckpt.spec.job.targetContainerName).toBe('main');
    const template = ckpt.spec.job.podTemplateSpec;
    expect(template.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'VllmWorker', 'nvidia.com/dynamo-graph-deployment-name': 'llm', 'nvidia.com/dynamo-worker-hash': hash, 'team': 'a',
    });
    expect(template.spec.restartPolicy).toBe('Never');
    expect(template.spec.containers.map((c: JsonObject) => c.name)).toEqual(['main']);
    expect(template.spec.serviceAccountName).toBe('llm-k8s-service-discovery');
  });

  test('operator 1.6.0 (newer sources): a SnapshotJob instead', () => {
    const objects = render([graph()], 'workloads', { version: '1.6.0' });
    expect(objects.filter(o => o.kind === 'DynamoCheckpoint')).toEqual([]);
    expect(only(objects, 'SnapshotJob').metadata.name).toMatch(/^checkpoint-[0-9a-f]{32}$/);
  });

  test('Retain is recorded in the annotation', () => {
    const ckpt = only(render([graph({ enabled: true, deletionPolicy: 'Retain' })], 'workloads'), 'DynamoCheckpoint');
    expect(ckpt.metadata.annotations['nvidia.com/dynamo-checkpoint-deletion-policy']).toBe('Retain');
  });

  test('the GPU memory service: the v1alpha1 record, a capture claim template, wiring without the V1 protocol env', () => {
    const dgd = graph({ enabled: true }, { experimental: { checkpoint: { enabled: true }, gpuMemoryService: {} } });
    const objects = render([dgd], 'workloads');
    const ckpt = only(objects, 'DynamoCheckpoint');
    const id = ckpt.metadata.labels['nvidia.com/snapshot-checkpoint-id'];
    expect(ckpt.spec.gpuMemoryService).toEqual({ enabled: true, mode: 'intraPod', deviceClassName: 'gpu.nvidia.com' });
    expect(objects.some(o => o.kind === 'ResourceClaimTemplate' && o.metadata.name === `checkpoint-${id}-worker-gpu`)).toBe(true);
    const spec = ckpt.spec.job.podTemplateSpec.spec;
    expect(spec.resourceClaims).toEqual([{ name: 'intrapod-shared-gpu', resourceClaimTemplateName: `checkpoint-${id}-worker-gpu` }]);
    expect(spec.initContainers.map((c: JsonObject) => c.name)).toContain('gms-server');
    const env = [...spec.containers, ...spec.initContainers].flatMap((c: JsonObject) => (c.env ?? []).map((e: JsonObject) => e.name));
    expect(env).not.toContain('DYN_GMS_USE_V1');
  });
});

describe('docs/design/render-experimental.md §3.8 the generated DCD and the startup policy', () => {
  test('Immediate: the DCD names the DynamoCheckpoint at once and carries the candidate metadata', () => {
    const { id } = expectedId();
    const dcd = workerDcd(render([graph()], 'components'));
    expect(dcd.spec.experimental.checkpoint).toMatchObject({ enabled: true, checkpointRef: `checkpoint-${id}`, startupPolicy: 'Immediate' });
    expect(dcd.spec.replicas).toBe(2);
    expect(dcd.spec.podTemplate.metadata.annotations).toMatchObject({
      'nvidia.com/dynamo-checkpoint-restore-candidate': 'true',
      'nvidia.com/dynamo-checkpoint-name': `checkpoint-${id}`,
      'nvidia.com/dynamo-checkpoint-startup-policy': 'Immediate',
      'nvidia.com/snapshot-target-containers': 'main',
    });
  });

  test('operator 1.6.0: a pending automatic capture leaves checkpointRef unset', () => {
    const dcd = workerDcd(render([graph()], 'components', { version: '1.6.0' }));
    expect(dcd.spec.experimental.checkpoint).not.toHaveProperty('checkpointRef');
  });

  test('WaitForCheckpoint without a Ready checkpoint: zero replicas, no candidate metadata', () => {
    const dcd = workerDcd(render([graph({ enabled: true, startupPolicy: 'WaitForCheckpoint' })], 'components'));
    expect(dcd.spec.replicas).toBe(0);
    expect(dcd.spec.podTemplate.metadata.annotations).not.toHaveProperty(['nvidia.com/dynamo-checkpoint-restore-candidate']);
  });

  test('a Ready observed checkpoint: worker pods probe readiness and startup every second', () => {
    const { id } = expectedId();
    const ready = observed(`checkpoint-${id}`, 'Ready', { 'nvidia.com/snapshot-checkpoint-id': id });
    const objects = render([graph(), ready], 'workloads');
    expect(objects.filter(o => o.kind === 'DynamoCheckpoint' && o.status !== undefined)).toEqual([]);
    const deployment = objects.find(o => o.kind === 'Deployment' && String(o.metadata.name).startsWith('llm-vllmworker'))!;
    const main = deployment.spec.template.spec.containers.find((c: JsonObject) => c.name === 'main');
    expect(main.readinessProbe.periodSeconds).toBe(1);
    expect(main.startupProbe.periodSeconds).toBe(1);
    expect(main.livenessProbe.periodSeconds).toBe(5);
    // not ready: the worker defaults
    const pending = render([graph(), observed(`checkpoint-${id}`, 'Creating', { 'nvidia.com/snapshot-checkpoint-id': id })], 'workloads');
    const pendingMain = pending.find(o => o.kind === 'Deployment' && String(o.metadata.name).startsWith('llm-vllmworker'))!
      .spec.template.spec.containers[0];
    expect(pendingMain.readinessProbe.periodSeconds).toBe(10);
  });

  test('on Grove the worker clique carries the candidate metadata and, once Ready, the probe cadence', () => {
    const { id } = expectedId();
    const grove = { groveAvailable: true };
    const clique = (objects: JsonObject[]) => only(objects, 'PodCliqueSet').spec.template.cliques.find((c: JsonObject) => c.name === 'vllmworker');
    const pending = clique(render([graph()], 'workloads', grove));
    expect(pending.annotations).toMatchObject({ 'nvidia.com/dynamo-checkpoint-name': `checkpoint-${id}`, 'nvidia.com/snapshot-target-containers': 'main' });
    expect(pending.spec.podSpec.containers[0].readinessProbe.periodSeconds).toBe(10);
    const ready = clique(render([graph(), observed(`checkpoint-${id}`, 'Ready', { 'nvidia.com/snapshot-checkpoint-id': id })], 'workloads', grove));
    expect(ready.spec.podSpec.containers[0].readinessProbe.periodSeconds).toBe(1);
    const gated = clique(render([graph({ enabled: true, startupPolicy: 'WaitForCheckpoint' })], 'workloads', grove));
    expect(gated.spec.replicas).toBe(0);
  });

  test('a Ready checkpoint with WaitForCheckpoint is refused: restore pods are shaped with cluster storage', () => {
    const waiting = graph({ enabled: true, startupPolicy: 'WaitForCheckpoint' });
    const { id } = expectedId(waiting);
    const err = renderError(() => render([waiting, observed(`checkpoint-${id}`, 'Ready', {
      'nvidia.com/snapshot-checkpoint-id': id,
    })], 'workloads'));
    expect(err.message).toContain('is Ready and startupPolicy is WaitForCheckpoint');
  });

  test('an existing checkpoint of that name with another ID is an error', () => {
    const { id } = expectedId();
    const err = renderError(() => render([graph(), observed(`checkpoint-${id}`, undefined, { 'nvidia.com/snapshot-checkpoint-id': 'other' })], 'workloads'));
    expect(err.message).toContain(`failed to create checkpoint for component VllmWorker: checkpoint checkpoint-${id} already exists with checkpoint ID other`);
  });
});

describe('docs/design/render-experimental.md §3.8 checkpointRef names a DynamoCheckpoint', () => {
  test('not given: a RenderError that says to pass it', () => {
    const err = renderError(() => render([graph({ enabled: true, checkpointRef: 'warm' })], 'workloads'));
    expect(err.message).toContain('failed to resolve checkpoint for component VllmWorker: failed to get referenced checkpoint warm');
    expect(err.message).toContain('pass the DynamoCheckpoint document');
  });

  test('given: nothing is created, the DCD names it, a Ready one is restored', () => {
    const objects = render([graph({ enabled: true, checkpointRef: 'warm' }), observed('warm', 'Ready')], 'workloads');
    expect(objects.filter(o => o.kind === 'DynamoCheckpoint')).toEqual([]);
    const dcd = workerDcd(objects);
    expect(dcd.spec.experimental.checkpoint.checkpointRef).toBe('warm');
    expect(dcd.spec.podTemplate.metadata.annotations['nvidia.com/dynamo-checkpoint-name']).toBe('warm');
  });

  test('a GPU memory service component needs a checkpoint that records one', () => {
    const dgd = graph({ enabled: true, checkpointRef: 'warm' }, { experimental: { checkpoint: { enabled: true, checkpointRef: 'warm' }, gpuMemoryService: {} } });
    const err = renderError(() => render([dgd, observed('warm', 'Ready')], 'workloads'));
    expect(err.message).toContain('gpuMemoryService restore requires resolved checkpoint "warm" to enable gpuMemoryService');
  });

  test('the legacy identity hash: 16 hex, sizes default to 1, empty extra parameters left out', () => {
    expect(legacyIdentityHash({ model: 'm', backendFramework: 'vllm' }))
      .toBe(sha256('{"model":"m","backendFramework":"vllm","tensorParallelSize":1,"pipelineParallelSize":1}').slice(0, 16));
  });
});

describe('docs/design/render-experimental.md §3.8 a standalone DCD', () => {
  const dcd = (checkpoint: JsonObject): JsonObject => ({
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'w', namespace: NS },
    spec: {
      name: 'w',
      type: 'worker',
      backendFramework: 'vllm',
      experimental: { checkpoint },
      podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'] }] } },
    },
  });

  test('operator 1.5.0: checkpointRef is resolved against the given DynamoCheckpoint', () => {
    expect(renderError(() => render([dcd({ enabled: true, checkpointRef: 'warm' })], 'workloads')).message)
      .toContain('failed to resolve checkpoint: failed to get referenced checkpoint warm');
    const objects = render([dcd({ enabled: true, checkpointRef: 'warm' }), observed('warm', 'Ready')], 'workloads');
    const template = only(objects, 'Deployment').spec.template;
    expect(template.metadata.annotations).toMatchObject({ 'nvidia.com/dynamo-checkpoint-name': 'warm', 'nvidia.com/dynamo-checkpoint-restore-candidate': 'true' });
    expect(template.spec.containers[0].readinessProbe.periodSeconds).toBe(1);
  });

  test('operator 1.6.0: refused by admission (row 145) and by the component controller (no compatibility hash without a graph)', () => {
    const standalone = dcd({ enabled: true, checkpointRef: 'warm' });
    expect(renderError(() => render([standalone], 'workloads', { version: '1.6.0' })).message).toContain('(rule 145)');
    const unchecked = () => renderUnchecked(standalone, { settings: { version: '1.6.0', checkpointEnabled: true } });
    expect(renderError(unchecked).message).toContain('needs the owning DynamoGraphDeployment');
  });
});

describe('docs/design/render-experimental.md §3.8 the first reconcile on Grove, and scaling adapters while waiting (operators 1.4.0 and 1.5.0)', () => {
  const grove = { groveAvailable: true };
  const names = (objects: JsonObject[], kind: string) => objects.filter(o => o.kind === kind).map(o => o.metadata.name).sort();
  /** The automatic checkpoint ID of `VllmWorker` with no worker hash (the graph has no UID here). */
  const hashlessId = sha256(JSON.stringify({ namespace: NS, dgdName: 'llm', componentName: 'VllmWorker' })).slice(0, 32);

  test('Grove, operator 1.5.0: a worker also keeps the checkpoint its first reconcile named without the worker hash', () => {
    const { id } = expectedId();
    const objects = render([graph()], 'workloads', grove);
    expect(names(objects, 'DynamoCheckpoint')).toEqual([`checkpoint-${hashlessId}`, `checkpoint-${id}`].sort());
    const first = objects.find(o => o.kind === 'DynamoCheckpoint' && o.metadata.name === `checkpoint-${hashlessId}`)!;
    expect(first.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'VllmWorker', 'nvidia.com/dynamo-graph-deployment-name': 'llm', 'nvidia.com/snapshot-checkpoint-id': hashlessId,
    });
    expect(first.spec.identity.extraParameters.checkpointID).toBe(hashlessId);
    expect(first.spec.job.podTemplateSpec.metadata.labels).not.toHaveProperty(['nvidia.com/dynamo-worker-hash']);
    // created first; the workloads name the one with the hash
    const kinds = objects.map(o => `${o.kind}/${o.metadata.name}`);
    expect(kinds.indexOf(`DynamoCheckpoint/checkpoint-${hashlessId}`)).toBeLessThan(kinds.indexOf(`DynamoCheckpoint/checkpoint-${id}`));
    const clique = only(objects, 'PodCliqueSet').spec.template.cliques.find((c: JsonObject) => c.name === 'vllmworker');
    expect(clique.annotations['nvidia.com/dynamo-checkpoint-name']).toBe(`checkpoint-${id}`);
  });

  test('the first-reconcile checkpoint only on the Grove path of 1.5.0, only for automatic captures', () => {
    expect(names(render([graph()], 'workloads', { ...grove, version: '1.4.0' }), 'DynamoCheckpoint')).toEqual([`checkpoint-${expectedId(graph(), '1.4.0').id}`]);
    expect(names(render([graph()], 'workloads'), 'DynamoCheckpoint')).toEqual([`checkpoint-${expectedId().id}`]);
    const explicit = render([graph({ enabled: true, checkpointRef: 'warm' }), observed('warm', 'Ready')], 'workloads', grove);
    expect(names(explicit, 'DynamoCheckpoint')).toEqual([]);
  });

  test('Grove, operator 1.5.0, the GPU memory service: each checkpoint has its capture claim template', () => {
    const dgd = graph({ enabled: true }, { experimental: { checkpoint: { enabled: true }, gpuMemoryService: {} } });
    const objects = render([dgd], 'workloads', grove);
    const ids = objects.filter(o => o.kind === 'DynamoCheckpoint').map(o => o.metadata.labels['nvidia.com/snapshot-checkpoint-id']);
    expect(ids).toHaveLength(2);
    expect(ids).toContain(hashlessId);
    for (const id of ids) expect(names(objects, 'ResourceClaimTemplate')).toContain(`checkpoint-${id}-worker-gpu`);
  });

  describe.each([
    ['1.4.0', 'component path', {}], ['1.5.0', 'component path', {}], ['1.4.0', 'Grove', grove], ['1.5.0', 'Grove', grove],
  ])('operator %s, %s', (version, _path, mode) => {
    const withAdapters = (checkpoint: JsonObject) => {
      const dgd = graph(checkpoint, { scalingAdapter: {} });
      (dgd.spec.components![0] as JsonObject).scalingAdapter = {};
      return dgd;
    };

    test('a component waiting for its checkpoint: no scaling adapter for any component', () => {
      const objects = render([withAdapters({ enabled: true, startupPolicy: 'WaitForCheckpoint' })], 'workloads', { version, ...mode });
      expect(names(objects, 'DynamoGraphDeploymentScalingAdapter')).toEqual([]);
      // an explicit reference that is not Ready waits as well
      const ref = render([withAdapters({ enabled: true, startupPolicy: 'WaitForCheckpoint', checkpointRef: 'warm' }), observed('warm', 'Creating')],
        'workloads', { version, ...mode });
      expect(names(ref, 'DynamoGraphDeploymentScalingAdapter')).toEqual([]);
    });

    test('Immediate, or a Ready reference: the adapters', () => {
      const immediate = render([withAdapters({ enabled: true })], 'workloads', { version, ...mode });
      expect(names(immediate, 'DynamoGraphDeploymentScalingAdapter')).toEqual(['llm-frontend', 'llm-vllmworker']);
      const ready = render([withAdapters({ enabled: true, checkpointRef: 'warm' }), observed('warm', 'Ready')], 'workloads', { version, ...mode });
      expect(names(ready, 'DynamoGraphDeploymentScalingAdapter')).toEqual(['llm-frontend', 'llm-vllmworker']);
    });
  });

  describe.each([['1.4.0', 'grove'], ['1.4.0', 'nogrove'], ['1.5.0', 'grove'], ['1.5.0', 'nogrove']])('recorded operator render, seed 20261312, %s %s', (version, runMode) => {
    test('the operator\'s DynamoCheckpoints, and no scaling adapters while the worker waits', () => {
      const file = oracleFixtureFiles().find(f => path.basename(f) === `renders-${version}.jsonl.gz`)!;
      const record = readOracleRecords(file).find(r => r.seed === 20261312 && r.settings === 'checkpoint')!;
      const run = record.runs.find(r => r.mode === runMode && r.version === version)!;
      const ours = renderChecked(withOracleUids(record.input), { namespace: record.namespace, settings: runSettings(record.settings, run) });
      const recorded = (run.objects ?? []) as JsonObject[];
      const expected: Record<string, string[]> = {
        '1.4.0': ['checkpoint-4231dfc5000a1091c6401a899892f42a'],
        '1.5.0 nogrove': ['checkpoint-ba79debefce9dff5a4d78ee9e773cf37'],
        '1.5.0 grove': ['checkpoint-38b6c9589fee2703c7afa695e179912c', 'checkpoint-ba79debefce9dff5a4d78ee9e773cf37'],
      };
      expect(names(recorded, 'DynamoCheckpoint')).toEqual(expected[version === '1.4.0' ? version : `${version} ${runMode}`]);
      expect(names(ours, 'DynamoCheckpoint')).toEqual(names(recorded, 'DynamoCheckpoint'));
      for (const ckpt of recorded.filter(o => o.kind === 'DynamoCheckpoint')) {
        expect(stripServerSet(ours.find(o => o.kind === 'DynamoCheckpoint' && o.metadata.name === ckpt.metadata.name))).toEqual(stripServerSet(ckpt));
      }
      // components fe and worker set scalingAdapter; worker waits for its automatic checkpoint
      const components = (record.input[0] as DgdJson).spec.components ?? [];
      expect(components.filter(c => c.scalingAdapter !== undefined).map(c => c.name)).toEqual(['fe', 'worker']);
      expect(names(recorded, 'DynamoGraphDeploymentScalingAdapter')).toEqual([]);
      expect(names(ours, 'DynamoGraphDeploymentScalingAdapter')).toEqual([]);
    });
  });
});
