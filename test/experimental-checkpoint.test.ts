/**
 * Experimental checkpoint (docs/design/render-experimental.md §3) of the operators with SnapshotJob checkpoints
 * (operator version 1.6.0, from newer sources): automatic capture (SnapshotJob, capture pod,
 * identity and compatibility hashes), explicit `checkpointRef` PodSnapshot resolution, restore
 * candidate metadata and the `startupPolicy` replica gate. The module's functions are called
 * directly. The DynamoCheckpoint generation (1.4.0, 1.5.0) is in experimental-dynamo-checkpoint.test.ts.
 */
import * as crypto from 'crypto';
import { DcdJson, DgdJson, renderUnchecked, settings, storedGraph, workerHashOf } from './support/facade';
import { envOf, renderError } from './support/pod-render';
import { corpusFiles } from './support/shared';
import {
  ANNOTATION_CHECKPOINT_NAME, ANNOTATION_CHECKPOINT_STARTUP_POLICY, ANNOTATION_RESTORE_CANDIDATE,
  ANNOTATION_RESTORE_COMPATIBILITY_HASH, ANNOTATION_RESTORE_SNAPSHOT_CONTENT,
  ANNOTATION_RESTORE_SNAPSHOT_JOB_UID, ANNOTATION_RESTORE_SNAPSHOT_UID, ANNOTATION_RESTORE_SOURCE_KIND,
  ANNOTATION_RESTORE_TARGET_CONTAINERS, applyCheckpointToGeneratedDcd, applyRestoreCandidateAnnotations,
  captureClaimTemplateName, checkpointId, ComponentCheckpoint, gatedByCheckpoint, isCheckpointClusterObject,
  renderCheckpointObjects, resolveGraphCheckpoints, restoreCandidateAnnotations, restoreCandidateLabels,
  snapshotCompatibilityHash, snapshotJobName,
} from '../src/engine';

const NS = 'team-a';
const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const OPERATOR = { checkpointEnabled: true, version: '1.6.0' };
const SETTINGS = settings(OPERATOR);
type PodSpecJson = Parameters<typeof snapshotCompatibilityHash>[0];
/** The worker hash of a stored graph (its worker DCDs carry it). */
const graphWorkerHash = (dgd: DgdJson): string => workerHashOf(dgd, OPERATOR);

const sha256 = (s: string) => crypto.createHash('sha256').update(s, 'utf8').digest('hex');

/** A vLLM graph with a frontend and one worker `VllmWorker` carrying `checkpoint` (and `extra` on the worker). */
function graph(checkpoint: any = { enabled: true }, extra: any = {}, metadata: any = {}): DgdJson {
  const input: any = {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: NS, ...metadata },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', replicas: 1, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        {
          name: 'VllmWorker',
          type: 'worker',
          replicas: 2,
          experimental: { checkpoint },
          podTemplate: {
            metadata: { labels: { team: 'a' }, annotations: { 'example.com/note': 'kept' } },
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
        },
      ],
    },
  };
  return storedGraph(input, OPERATOR);
}

function only<T>(items: readonly T[]): T {
  expect(items).toHaveLength(1);
  return items[0];
}

function snapshotJobOf(dgd: DgdJson, state?: any): any {
  return renderCheckpointObjects(dgd, SETTINGS, state).find(o => o.kind === 'SnapshotJob');
}

/** A PodSnapshot as the cluster returns it. */
function podSnapshot(name: string, annotations: Record<string, string>, status: any = {}, extra: any = {}): any {
  return {
    apiVersion: 'nvidia.com/v1alpha1',
    kind: 'PodSnapshot',
    metadata: { name, namespace: NS, uid: `${name}-uid`, annotations },
    spec: { source: { podRef: { name: 'capture-pod', containers: ['main'] } } },
    status,
    ...extra,
  };
}

const READY = { boundSnapshotContentName: 'content-1', conditions: [{ type: 'Ready', status: 'True' }] };

/** Annotations of a PodSnapshot compatible with `hash`. */
function compatible(hash: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    'nvidia.com/dynamo-snapshot-compatibility-version': 'v2',
    'nvidia.com/dynamo-snapshot-compatibility-hash': hash,
    'nvidia.com/dynamo-snapshot-gms-mode': 'disabled',
    ...extra,
  };
}

/** The compatibility hash an explicit reference of the test graph is checked against. */
function expectedHash(checkpoint: any = { enabled: true, checkpointRef: 'snap' }): string {
  const err = renderError(() => resolveGraphCheckpoints(graph(checkpoint), SETTINGS, { objects: [podSnapshot('snap', compatible('x'))] }));
  return /does not match expected hash "([0-9a-f]{64})"/.exec(err.message)![1];
}

describe('docs/design/render-experimental.md §3 corpus graphs with checkpointing', () => {
  const files = corpusFiles().filter(f => f.docs.some(d => d?.kind === 'DynamoGraphDeployment'
    && (d.spec?.components ?? []).some((c: any) => c.experimental?.checkpoint?.enabled)));

  test('the corpus has checkpoint graphs', () => {
    if (corpusFiles().length === 0) return;
    expect(files.map(f => f.file)).toContain('examples__backends__trtllm__deploy__snapshot-restore.yaml');
  });

  for (const { file, docs } of files) {
    test(`${file}: one SnapshotJob per automatic component, gated WaitForCheckpoint workers`, () => {
      for (const doc of docs.filter(d => d?.kind === 'DynamoGraphDeployment')) {
        const dgd = storedGraph({ ...doc, metadata: { ...doc.metadata, namespace: NS } }, OPERATOR);
        const checkpoints = resolveGraphCheckpoints(dgd, SETTINGS);
        const automatic = checkpoints.filter(c => c.automatic);
        const jobs = renderCheckpointObjects(dgd, SETTINGS).filter(o => o.kind === 'SnapshotJob');
        expect(jobs.map(j => j.metadata.labels['nvidia.com/dynamo-component'])).toEqual(automatic.map(c => c.config.componentName));
        for (const job of jobs) {
          expect(job.metadata.name).toMatch(/^checkpoint-[0-9a-f]{32}$/);
          expect(job.spec.podTemplate.spec.restartPolicy).toBe('Never');
        }
        for (const c of checkpoints) expect(gatedByCheckpoint(c)).toBe(c.startupPolicy === 'WaitForCheckpoint');
      }
    });
  }

  test('snapshot-restore.yaml: the TRT-LLM worker capture', () => {
    const file = files.find(f => f.file === 'examples__backends__trtllm__deploy__snapshot-restore.yaml');
    if (!file) return;
    const doc = file.docs.find(d => d.kind === 'DynamoGraphDeployment');
    const dgd = storedGraph({ ...doc, metadata: { ...doc.metadata, namespace: 'default' } }, OPERATOR);
    const job = only(renderCheckpointObjects(dgd, SETTINGS));
    const pod = job.spec.podTemplate;
    expect(pod.spec.containers.map((c: any) => c.name)).toEqual(['main']);
    expect(pod.spec.runtimeClassName).toBe('nvidia');
    expect(pod.spec.volumes.map((v: any) => v.name)).toEqual(['hf-cache', 'criu-work', 'dev-net-tun', 'shared-memory']);
    expect(envOf(pod.spec.containers[0]).UCX_TLS).toBe('tcp,self');
    expect(job.metadata.labels['nvidia.com/dynamo-worker-hash']).toBe(graphWorkerHash(dgd));
    expect(job.spec.podSnapshotTemplate.targetContainers).toEqual(['main']);
  });
});

describe('docs/design/render-experimental.md §3.1 decision per component', () => {
  test('no checkpointRef (or a blank one) is automatic capture; a checkpointRef is an explicit PodSnapshot', () => {
    expect(only(resolveGraphCheckpoints(graph({ enabled: true }), SETTINGS)).automatic).toBe(true);
    expect(only(resolveGraphCheckpoints(graph({ enabled: true, checkpointRef: '  ' }), SETTINGS)).automatic).toBe(true);
    const hash = expectedHash();
    const explicit = only(resolveGraphCheckpoints(graph({ enabled: true, checkpointRef: ' snap ' }), SETTINGS,
      { objects: [podSnapshot('snap', compatible(hash), READY)] }));
    expect(explicit.automatic).toBe(false);
    expect(explicit.objects).toEqual([]);
  });

  test('components without enabled checkpointing are skipped', () => {
    expect(resolveGraphCheckpoints(graph({ enabled: false }), SETTINGS)).toEqual([]);
  });

  test('the operator checkpoint gate off is an error naming the component', () => {
    const err = renderError(() => resolveGraphCheckpoints(graph(), settings({ checkpointEnabled: false })));
    expect(err.message).toContain('component VllmWorker: checkpoint functionality is disabled in the operator configuration');
  });
});

describe('docs/design/render-experimental.md §3.2.1 names and identity hash', () => {
  test('checkpoint ID: first 32 hex of SHA-256 over the Go JSON of the identity, empty values omitted', () => {
    const input = { namespace: 'ns', dgdName: 'g', dgdUid: '', componentName: 'w', workerHash: 'abcd1234', compatibilityHash: 'h' };
    expect(checkpointId(input)).toBe(sha256(
      '{"namespace":"ns","dgdName":"g","componentName":"w","workerHash":"abcd1234","compatibilityHash":"h","compatibilityVersion":"v2"}').slice(0, 32));
    expect(checkpointId({ ...input, namespace: '', dgdUid: 'u-1', workerHash: '' })).toBe(sha256(
      '{"dgdName":"g","dgdUID":"u-1","componentName":"w","compatibilityHash":"h","compatibilityVersion":"v2"}').slice(0, 32));
    expect(snapshotJobName('0123')).toBe('checkpoint-0123');
  });

  test('the SnapshotJob name is checkpoint-<ID> of namespace, graph, UID, component, worker hash and compatibility hash', () => {
    const dgd = graph({ enabled: true }, {}, { uid: 'graph-uid' });
    const c = only(resolveGraphCheckpoints(dgd, SETTINGS));
    const job = snapshotJobOf(dgd);
    expect(job.metadata.name).toBe(snapshotJobName(checkpointId({
      namespace: NS,
      dgdName: 'llm',
      dgdUid: 'graph-uid',
      componentName: 'VllmWorker',
      workerHash: graphWorkerHash(dgd),
      compatibilityHash: c.compatibilityHash,
    })));
    expect(snapshotJobOf(graph()).metadata.name).not.toBe(job.metadata.name);
  });

  test('a non-worker component has no worker hash in its identity or labels', () => {
    const dgd = graph({ enabled: true }, { type: 'prefill' });
    expect(snapshotJobOf(dgd).metadata.labels['nvidia.com/dynamo-worker-hash']).toBe(graphWorkerHash(dgd));
    const frontendOnly = storedGraph({
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'fe', namespace: NS },
      spec: {
        backendFramework: 'vllm',
        components: [{
          name: 'Frontend',
          type: 'frontend',
          experimental: { checkpoint: { enabled: true } },
          podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } },
        }],
      },
    } as any, SETTINGS);
    const err = renderError(() => renderCheckpointObjects(frontendOnly, SETTINGS));
    expect(err.message).toContain('checkpoint backend framework for component Frontend could not be determined');
  });
});

describe('docs/design/render-experimental.md §3.2.2 SnapshotJob object', () => {
  test('kind, metadata, spec and the PodSnapshot template metadata', () => {
    const dgd = graph({ enabled: true }, {}, { uid: 'graph-uid' });
    const c = only(resolveGraphCheckpoints(dgd, SETTINGS));
    const job = snapshotJobOf(dgd);
    const labels = {
      'nvidia.com/dynamo-component': 'VllmWorker',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-worker-hash': graphWorkerHash(dgd),
    };
    expect(job.apiVersion).toBe('nvidia.com/v1alpha1');
    expect(job.kind).toBe('SnapshotJob');
    expect(job.metadata.namespace).toBe(NS);
    expect(job.metadata.labels).toEqual(labels);
    expect(job.metadata.annotations).toEqual({
      'nvidia.com/dynamo-auto-checkpoint': 'true',
      'nvidia.com/dynamo-checkpoint-deletion-policy': 'Delete',
      'nvidia.com/dynamo-checkpoint-owner-uid': 'graph-uid',
    });
    expect(job.metadata.ownerReferences).toBeUndefined();
    expect(job.spec.activeDeadlineSeconds).toBe(3600);
    expect(job.spec.podSnapshotTemplate).toEqual({
      metadata: {
        labels,
        annotations: {
          'nvidia.com/dynamo-auto-checkpoint': 'true',
          'nvidia.com/dynamo-checkpoint-deletion-policy': 'Delete',
          'nvidia.com/dynamo-checkpoint-owner-uid': 'graph-uid',
          'nvidia.com/dynamo-snapshot-compatibility-hash': c.compatibilityHash,
          'nvidia.com/dynamo-snapshot-compatibility-version': 'v2',
          'nvidia.com/dynamo-snapshot-gms-mode': 'disabled',
        },
      },
      targetContainers: ['main'],
    });
  });

  test('deletionPolicy Retain is carried; the deprecated mode and identity change neither the capture pod nor its compatibility', () => {
    const retained = snapshotJobOf(graph({ enabled: true, deletionPolicy: 'Retain' }));
    expect(retained.metadata.annotations['nvidia.com/dynamo-checkpoint-deletion-policy']).toBe('Retain');
    expect(retained.spec.podSnapshotTemplate.metadata.annotations['nvidia.com/dynamo-checkpoint-deletion-policy']).toBe('Retain');
    const plain = snapshotJobOf(graph({ enabled: true }));
    const deprecatedGraph = graph({
      enabled: true, mode: 'Auto', identity: { model: 'Qwen/Qwen3-0.6B', backendFramework: 'vllm', tensorParallelSize: 2 },
    });
    const deprecated = snapshotJobOf(deprecatedGraph);
    expect(deprecated.spec.podTemplate.spec).toEqual(plain.spec.podTemplate.spec);
    expect(deprecated.spec.podSnapshotTemplate.metadata.annotations['nvidia.com/dynamo-snapshot-compatibility-hash'])
      .toBe(plain.spec.podSnapshotTemplate.metadata.annotations['nvidia.com/dynamo-snapshot-compatibility-hash']);
    // they are part of the component spec, so (like any spec field) they enter the worker hash and with it the job name
    expect(deprecated.metadata.labels['nvidia.com/dynamo-worker-hash']).toBe(graphWorkerHash(deprecatedGraph));
  });

  test('a new graph\'s capture is pending: no SnapshotJob UID, not ready, no PodSnapshot name', () => {
    const c = only(resolveGraphCheckpoints(graph(), SETTINGS));
    expect(c.snapshotJob).toEqual({ name: snapshotJobOf(graph()).metadata.name, uid: '' });
    expect([c.ready, c.exists, c.checkpointName]).toEqual([false, false, '']);
  });

  test('an observed job of another graph incarnation and a failed job are errors', () => {
    const name = snapshotJobOf(graph()).metadata.name;
    const foreign = { apiVersion: 'nvidia.com/v1alpha1', kind: 'SnapshotJob', metadata: { name, namespace: NS, uid: 'j', annotations: {} } };
    expect(renderError(() => resolveGraphCheckpoints(graph(), SETTINGS, { objects: [foreign] })).message)
      .toContain(`SnapshotJob ${NS}/${name} already exists and is not managed by DGD uid ""`);
    const failed = {
      ...foreign,
      metadata: { ...foreign.metadata, annotations: { 'nvidia.com/dynamo-auto-checkpoint': 'true', 'nvidia.com/dynamo-checkpoint-owner-uid': '' } },
      status: { conditions: [{ type: 'Failed', status: 'True', reason: 'DeadlineExceeded', message: 'took too long' }] },
    };
    expect(renderError(() => resolveGraphCheckpoints(graph(), SETTINGS, { objects: [failed] })).message)
      .toContain(`automatic SnapshotJob ${NS}/${name} failed: DeadlineExceeded: took too long`);
  });
});

describe('docs/design/render-experimental.md §3.2.3 capture pod template', () => {
  test('the target container only, restartPolicy Never, discovery service account, component metadata and capture labels', () => {
    const dgd = graph({ enabled: true }, { frontendSidecar: 'sidecar' });
    dgd.spec.components![1].podTemplate!.spec.containers.push({ name: 'sidecar', image: IMAGE });
    const pod = snapshotJobOf(dgd).spec.podTemplate;
    expect(pod.spec.containers.map((c: any) => c.name)).toEqual(['main']);
    expect(pod.spec.restartPolicy).toBe('Never');
    expect(pod.spec.serviceAccountName).toBe('llm-k8s-service-discovery');
    expect(pod.metadata.labels).toEqual({
      'nvidia.com/dynamo-component': 'VllmWorker',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-worker-hash': graphWorkerHash(dgd),
      'team': 'a',
    });
    expect(pod.metadata.annotations).toEqual({ 'example.com/note': 'kept' });
  });

  test('rendered like a serving pod of the graph (graph env, backend defaults) but without the worker suffix env', () => {
    const dgd = graph();
    dgd.spec.env = [{ name: 'GRAPH_ENV', value: 'g' }];
    const env = envOf(snapshotJobOf(dgd).spec.podTemplate.spec.containers[0]);
    expect(env.GRAPH_ENV).toBe('g');
    expect(env.DYN_PARENT_DGD_K8S_NAME).toBe('llm');
    expect(env.DYN_NAMESPACE_WORKER_SUFFIX).toBeUndefined();
  });

  test('checkpoint.job.podTemplate: metadata merged, same-named container merged (env by name), new containers and volumes appended', () => {
    const pod = snapshotJobOf(graph({
      enabled: true,
      job: {
        podTemplate: {
          metadata: { labels: { team: 'b', capture: 'yes' }, annotations: { 'example.com/job': 'j' } },
          spec: {
            priorityClassName: 'capture',
            volumes: [{ name: 'scratch', emptyDir: {} }],
            containers: [
              { name: 'main', env: [{ name: 'CAPTURE', value: '1' }], readinessProbe: { exec: { command: ['true'] } } },
              { name: 'gms-saver', image: 'saver:1' },
            ],
          },
        },
      },
    })).spec.podTemplate;
    expect(pod.metadata.labels.team).toBe('b');
    expect(pod.metadata.labels.capture).toBe('yes');
    expect(pod.metadata.annotations['example.com/job']).toBe('j');
    expect(pod.spec.priorityClassName).toBe('capture');
    expect(pod.spec.containers.map((c: any) => c.name)).toEqual(['main', 'gms-saver']);
    const main = pod.spec.containers[0];
    expect(envOf(main).CAPTURE).toBe('1');
    expect(envOf(main).DYN_SYSTEM_PORT).toBe('9090');
    expect(main.readinessProbe).toEqual({ exec: { command: ['true'] } });
    expect(main.image).toBe(IMAGE);
    expect(pod.spec.volumes.map((v: any) => v.name)).toContain('scratch');
  });

  test('a target container the pod does not have is an error', () => {
    const err = renderError(() => renderCheckpointObjects(graph({ enabled: true, targetContainerName: 'engine' }), SETTINGS));
    expect(err.field).toBe('spec.components[1].experimental.checkpoint.targetContainerName');
    expect(err.message).toContain('checkpoint target container "engine" not found');
  });
});

describe('docs/design/render-experimental.md §3.2.4 GMS in the capture pod', () => {
  const gmsGraph = (checkpoint: any = { enabled: true }, gms: any = {}) => graph(checkpoint, { experimental: { checkpoint, gpuMemoryService: gms } });

  test('a capture ResourceClaimTemplate before the job; claim, toleration, V1 gms-server sidecar and client wiring', () => {
    const dgd = gmsGraph({ enabled: true, job: { podTemplate: { spec: { containers: [{ name: 'saver', image: 'saver:1' }] } }, gmsClientContainers: ['saver'] } });
    const [rct, job] = renderCheckpointObjects(dgd, SETTINGS);
    const id = job.metadata.name.slice('checkpoint-'.length);
    expect(rct.kind).toBe('ResourceClaimTemplate');
    expect(rct.metadata.name).toBe(captureClaimTemplateName(id));
    expect(rct.metadata.name).toBe(`checkpoint-${id}-worker-gpu`);
    expect(rct.spec.spec.devices.requests).toEqual([{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', allocationMode: 'ExactCount', count: 1 } }]);
    expect(rct.metadata.annotations['nvidia.com/last-applied-generation']).toBe('1');
    const spec = job.spec.podTemplate.spec;
    expect(spec.resourceClaims).toEqual([{ name: 'intrapod-shared-gpu', resourceClaimTemplateName: rct.metadata.name }]);
    expect(spec.tolerations).toContainEqual({ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' });
    const server = spec.initContainers.find((c: any) => c.name === 'gms-server');
    expect(server.restartPolicy).toBe('Always');
    expect(envOf(server)).toEqual({ GMS_SOCKET_DIR: '/gms-intrapod-control', DYN_GMS_USE_V1: 'true' });
    for (const name of ['main', 'saver']) {
      const c = spec.containers.find((x: any) => x.name === name);
      expect(envOf(c).DYN_GMS_USE_V1).toBe('true');
      expect(envOf(c).GMS_SOCKET_DIR).toBe('/gms-intrapod-control');
      expect(c.resources.claims).toEqual([{ name: 'intrapod-shared-gpu' }]);
    }
    expect(spec.containers[0].resources.limits?.['nvidia.com/gpu']).toBeUndefined();
    expect(job.spec.podSnapshotTemplate.metadata.annotations['nvidia.com/dynamo-snapshot-gms-mode']).toBe('IntraPod');
  });

  test('a client the capture pod lacks and an InterPod GMS are errors', () => {
    expect(renderError(() => renderCheckpointObjects(gmsGraph({ enabled: true, job: { gmsClientContainers: ['saver'] } }), SETTINGS)).message)
      .toContain('gpuMemoryService client container "saver"');
    expect(renderError(() => renderCheckpointObjects(gmsGraph({ enabled: true }, { mode: 'InterPod' }), SETTINGS)).message)
      .toContain('snapshot has unsupported gpuMemoryService mode "InterPod"');
  });
});

describe('docs/design/render-experimental.md §3.3 snapshot compatibility hash', () => {
  const pod = (main: any, extra: any = {}): PodSpecJson => ({ containers: [{ name: 'main', image: 'img', ...main }], ...extra });
  const gms = { mode: 'disabled', deviceClassName: '' };
  const hash = (spec: PodSpecJson) => snapshotCompatibilityHash(spec, 'main', 'vllm', gms, 'test');

  test('the full SHA-256 of the Go JSON of the contract (target container unnamed, restore-time env and probes dropped)', () => {
    const spec = pod({
      env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }, { name: 'A', value: '1' }],
      ports: [{ name: 'system', containerPort: 9090 }],
      livenessProbe: { httpGet: { path: '/live', port: 9090 } },
    });
    expect(hash(spec)).toBe(sha256('{"version":"v2","backendFramework":"vllm","gmsMode":"disabled",'
      + '"targetContainer":{"name":"","image":"img","env":[{"name":"A","value":"1"}],"resources":{}}}'));
  });

  test('restore-time env, probes, ports and unused volumes do not change it; image, other env and used volumes do', () => {
    const base = hash(pod({ env: [{ name: 'A', value: '1' }] }));
    expect(hash(pod({ env: [{ name: 'A', value: '1' }, { name: 'DYN_NAMESPACE', value: 'x' }], readinessProbe: { exec: { command: ['x'] } } }))).toBe(base);
    expect(hash(pod({ env: [{ name: 'A', value: '1' }] }, { volumes: [{ name: 'unused', emptyDir: {} }] }))).toBe(base);
    expect(hash(pod({ env: [{ name: 'A', value: '2' }] }))).not.toBe(base);
    expect(hash(pod({ env: [{ name: 'A', value: '1' }], image: 'other' }))).not.toBe(base);
    expect(hash(pod({ env: [{ name: 'A', value: '1' }], volumeMounts: [{ name: 'v', mountPath: '/v' }] }, { volumes: [{ name: 'v', emptyDir: {} }] })))
      .not.toBe(hash(pod({ env: [{ name: 'A', value: '1' }], volumeMounts: [{ name: 'v', mountPath: '/v' }] }, { volumes: [{ name: 'v', hostPath: { path: '/v' } }] })));
  });

  test('mount order does not matter (sorted by path, then name); GMS mode and backend do', () => {
    const m1 = { name: 'a', mountPath: '/a' };
    const m2 = { name: 'b', mountPath: '/b' };
    expect(hash(pod({ volumeMounts: [m1, m2] }))).toBe(hash(pod({ volumeMounts: [m2, m1] })));
    expect(snapshotCompatibilityHash(pod({}), 'main', 'sglang', gms, 't')).not.toBe(hash(pod({})));
    expect(snapshotCompatibilityHash(pod({}), 'main', 'vllm', { mode: 'IntraPod', deviceClassName: 'gpu.nvidia.com' }, 't')).not.toBe(hash(pod({})));
  });

  test('serving-only settings do not change a graph\'s hash: replicas, the frontend sidecar, the job template', () => {
    const h = (g: DgdJson) => only(resolveGraphCheckpoints(g, SETTINGS)).compatibilityHash;
    expect(h(graph({ enabled: true }, { replicas: 5 }))).toBe(h(graph()));
    expect(h(graph({ enabled: true, startupPolicy: 'WaitForCheckpoint' }))).toBe(h(graph()));
  });
});

describe('docs/design/render-experimental.md §3.4 explicit checkpointRef → PodSnapshot resolution', () => {
  const ref = { enabled: true, checkpointRef: 'snap' };
  const resolve = (objects: any[], checkpoint: any = ref) => resolveGraphCheckpoints(graph(checkpoint), SETTINGS, { objects });

  test('PodSnapshot, SnapshotJob and DynamoCheckpoint documents are the cluster state a caller passes; other documents are not', () => {
    expect(isCheckpointClusterObject(podSnapshot('snap', {}))).toBe(true);
    expect(isCheckpointClusterObject({ apiVersion: 'nvidia.com/v1alpha1', kind: 'SnapshotJob', metadata: { name: 'j' } })).toBe(true);
    // the DynamoCheckpoints operators 1.4.0 and 1.5.0 read are cluster state too
    expect(isCheckpointClusterObject({ apiVersion: 'nvidia.com/v1alpha1', kind: 'DynamoCheckpoint', metadata: { name: 'c' } })).toBe(true);
    expect(isCheckpointClusterObject({ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoCheckpoint', metadata: { name: 'c' } })).toBe(false);
    expect(isCheckpointClusterObject(graph())).toBe(false);
  });

  test('a PodSnapshot the caller did not pass is a RenderError that says to pass it', () => {
    const err = renderError(() => resolve([]));
    expect(err.field).toBe('spec.components[1].experimental.checkpoint.checkpointRef');
    expect(err.message).toContain(`failed to resolve checkpoint for component VllmWorker: get referenced PodSnapshot ${NS}/snap: not found`);
    expect(err.message).toContain('pass the PodSnapshot document');
  });

  test('the operator\'s rejections, in order', () => {
    const hash = expectedHash();
    expect(renderError(() => resolve([podSnapshot('snap', compatible(hash), {}, { metadata: { name: 'snap', namespace: NS, annotations: compatible(hash) } })])).message)
      .toContain(`referenced PodSnapshot ${NS}/snap has no UID`);
    expect(renderError(() => resolve([podSnapshot('snap', compatible(hash), { conditions: [{ type: 'Failed', status: 'True' }] })])).message)
      .toContain(`referenced PodSnapshot ${NS}/snap has failed`);
    expect(renderError(() => resolve([podSnapshot('snap', compatible(hash), {}, { spec: { source: { podRef: { name: 'p', containers: [] } } } })])).message)
      .toContain('must identify exactly one source container');
    expect(renderError(() => resolve([podSnapshot('snap', compatible(hash, {
      'nvidia.com/dynamo-auto-checkpoint': 'true', 'nvidia.com/dynamo-checkpoint-deletion-policy': 'Retain',
    }))])).message).toContain('is a retained automatic checkpoint and cannot be used as checkpointRef');
    expect(renderError(() => resolve([podSnapshot('snap', compatible(hash, { 'nvidia.com/dynamo-snapshot-compatibility-version': 'v1' }))])).message)
      .toContain('has unsupported Dynamo compatibility version "v1"');
    expect(renderError(() => resolve([podSnapshot('snap', compatible('other'))])).message)
      .toContain(`compatibility hash "other" does not match expected hash "${hash}"; compare the target image`);
    expect(renderError(() => resolve([podSnapshot('snap', compatible(hash, { 'nvidia.com/dynamo-snapshot-gms-mode': 'weird' }))])).message)
      .toContain('Dynamo GMS mode "weird" is unsupported');
    expect(renderError(() => resolve([podSnapshot('snap', compatible(hash), { conditions: [{ type: 'Ready', status: 'True' }] })])).message)
      .toContain(`Ready PodSnapshot ${NS}/snap has no bound PodSnapshotContent`);
  });

  test('a compatible Ready PodSnapshot resolves: exists, ready, pinned UID and content; nothing is created', () => {
    const c = only(resolve([podSnapshot('snap', compatible(expectedHash()), READY)]));
    expect([c.exists, c.ready, c.checkpointName]).toEqual([true, true, 'snap']);
    expect(c.podSnapshot).toMatchObject({ uid: 'snap-uid', boundContentName: 'content-1', sourceContainer: 'main', gmsMode: 'disabled' });
    expect(renderCheckpointObjects(graph(ref), SETTINGS, { objects: [podSnapshot('snap', compatible(expectedHash()), READY)] })).toEqual([]);
  });
});

describe('docs/design/render-experimental.md §3.5 restore: what changes on the worker pod', () => {
  const explicitReady = (startupPolicy = 'Immediate') => only(resolveGraphCheckpoints(
    graph({ enabled: true, checkpointRef: 'snap', startupPolicy }), SETTINGS,
    { objects: [podSnapshot('snap', compatible(expectedHash({ enabled: true, checkpointRef: 'snap', startupPolicy })), READY)] }));

  /** The automatic capture of the test graph with its SnapshotJob observed (UID, optional status). */
  function observedAutomatic(status: any = {}, extraObjects: any[] = [], checkpoint: any = { enabled: true }): ComponentCheckpoint {
    const dgd = graph(checkpoint, {}, { uid: 'graph-uid' });
    const name = snapshotJobOf(dgd).metadata.name;
    const job = {
      apiVersion: 'nvidia.com/v1alpha1',
      kind: 'SnapshotJob',
      metadata: { name, namespace: NS, uid: 'job-uid', annotations: { 'nvidia.com/dynamo-auto-checkpoint': 'true', 'nvidia.com/dynamo-checkpoint-owner-uid': 'graph-uid' } },
      status,
    };
    return only(resolveGraphCheckpoints(dgd, SETTINGS, { objects: [job, ...extraObjects] }));
  }

  test('a pending automatic capture without a SnapshotJob UID stamps only the expected compatibility hash', () => {
    const c = only(resolveGraphCheckpoints(graph(), SETTINGS));
    expect(restoreCandidateAnnotations(c)).toEqual({ [ANNOTATION_RESTORE_COMPATIBILITY_HASH]: c.compatibilityHash });
  });

  test('an automatic capture with a SnapshotJob UID pins the job (stable until and after completion)', () => {
    const c = observedAutomatic();
    expect(restoreCandidateAnnotations(c)).toEqual({
      [ANNOTATION_RESTORE_COMPATIBILITY_HASH]: c.compatibilityHash,
      [ANNOTATION_RESTORE_CANDIDATE]: 'true',
      [ANNOTATION_CHECKPOINT_NAME]: c.snapshotJob!.name,
      [ANNOTATION_RESTORE_SOURCE_KIND]: 'SnapshotJob',
      [ANNOTATION_RESTORE_SNAPSHOT_JOB_UID]: 'job-uid',
      [ANNOTATION_RESTORE_TARGET_CONTAINERS]: 'main',
      [ANNOTATION_CHECKPOINT_STARTUP_POLICY]: 'Immediate',
    });
  });

  test('a completed capture whose PodSnapshot is Ready makes the checkpoint ready, with the same candidate metadata', () => {
    const pending = observedAutomatic();
    const snapshot = podSnapshot('produced', compatible(pending.compatibilityHash, {
      'nvidia.com/dynamo-auto-checkpoint': 'true', 'nvidia.com/dynamo-checkpoint-owner-uid': 'graph-uid',
    }), READY);
    const status = { podSnapshotName: 'produced', podSnapshotUID: 'produced-uid', conditions: [{ type: 'Completed', status: 'True' }] };
    const done = observedAutomatic(status, [snapshot]);
    expect([done.ready, done.exists, done.checkpointName]).toEqual([true, true, 'produced']);
    expect(restoreCandidateAnnotations(done)).toEqual(restoreCandidateAnnotations(pending));
    // a produced PodSnapshot of another graph incarnation is refused
    const foreign = podSnapshot('produced', compatible(pending.compatibilityHash, {
      'nvidia.com/dynamo-auto-checkpoint': 'true', 'nvidia.com/dynamo-checkpoint-owner-uid': 'other',
    }), READY);
    expect(renderError(() => observedAutomatic(status, [foreign])).message)
      .toContain(`automatic PodSnapshot ${NS}/produced belongs to DGD uid "other", not "graph-uid"`);
  });

  test('an explicit Ready PodSnapshot pins the snapshot; stale candidate keys are removed first', () => {
    const annotations: Record<string, string> = { [ANNOTATION_RESTORE_SNAPSHOT_JOB_UID]: 'stale', other: 'kept' };
    const c = explicitReady();
    applyRestoreCandidateAnnotations(annotations, c);
    expect(annotations).toEqual({
      'other': 'kept',
      [ANNOTATION_RESTORE_COMPATIBILITY_HASH]: c.compatibilityHash,
      [ANNOTATION_RESTORE_CANDIDATE]: 'true',
      [ANNOTATION_CHECKPOINT_NAME]: 'snap',
      [ANNOTATION_RESTORE_SOURCE_KIND]: 'PodSnapshot',
      [ANNOTATION_RESTORE_SNAPSHOT_UID]: 'snap-uid',
      [ANNOTATION_RESTORE_SNAPSHOT_CONTENT]: 'content-1',
      'nvidia.com/dynamo-restore-snapshot-gms-mode': 'disabled',
      'nvidia.com/dynamo-restore-snapshot-version': 'v2',
      [ANNOTATION_RESTORE_TARGET_CONTAINERS]: 'main',
      [ANNOTATION_CHECKPOINT_STARTUP_POLICY]: 'Immediate',
    });
    applyRestoreCandidateAnnotations(annotations, undefined);
    expect(annotations).toEqual({ other: 'kept' });
    expect(restoreCandidateLabels(c)).toEqual({});
  });

  test('the generated DCD: a resolved PodSnapshot becomes its checkpointRef (identity and job cleared) with candidate annotations', () => {
    const dcd: DcdJson = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'llm-vllmworker-abcd', namespace: NS },
      spec: { replicas: 2, experimental: { checkpoint: { enabled: true, checkpointRef: 'snap', targetContainerName: 'main', job: { gmsClientContainers: [] } } } },
    };
    applyCheckpointToGeneratedDcd(dcd, explicitReady());
    expect(dcd.spec.experimental!.checkpoint).toEqual({ enabled: true, checkpointRef: 'snap', startupPolicy: 'Immediate', targetContainerName: 'main' });
    expect(dcd.spec.replicas).toBe(2);
    expect(dcd.spec.podTemplate!.metadata.annotations[ANNOTATION_RESTORE_SOURCE_KIND]).toBe('PodSnapshot');
  });

  test('the restore hook leaves the worker pod spec unchanged (restore is shaped at pod creation)', () => {
    /** The worker's pod spec, its worker hash written as HASH. */
    const podSpec = (dgd: DgdJson): string => {
      const objects = renderUnchecked(dgd, { settings: OPERATOR });
      const worker = objects.find(o => o.kind === 'Deployment' && o.metadata.name.startsWith('llm-vllmworker-'));
      return JSON.stringify(worker.spec.template.spec).split(worker.metadata.labels['nvidia.com/dynamo-worker-hash']).join('HASH');
    };
    const plain = graph({ enabled: false });
    expect(podSpec(graph())).toBe(podSpec(plain));
  });
});

describe('docs/design/render-experimental.md §3.6 startupPolicy', () => {
  test('WaitForCheckpoint without a ready checkpoint gates the component at zero; Immediate never does', () => {
    expect(gatedByCheckpoint(only(resolveGraphCheckpoints(graph({ enabled: true, startupPolicy: 'WaitForCheckpoint' }), SETTINGS)))).toBe(true);
    expect(gatedByCheckpoint(only(resolveGraphCheckpoints(graph(), SETTINGS)))).toBe(false);
    expect(gatedByCheckpoint(undefined)).toBe(false);
  });

  test('a ready explicit checkpoint lifts the gate', () => {
    const checkpoint = { enabled: true, checkpointRef: 'snap', startupPolicy: 'WaitForCheckpoint' };
    const c = only(resolveGraphCheckpoints(graph(checkpoint), SETTINGS, { objects: [podSnapshot('snap', compatible(expectedHash(checkpoint)), READY)] }));
    expect(gatedByCheckpoint(c)).toBe(false);
  });

  test('the generated DCD of a gated component gets spec.replicas 0 and no candidate annotations', () => {
    const c = only(resolveGraphCheckpoints(graph({ enabled: true, startupPolicy: 'WaitForCheckpoint' }), SETTINGS));
    const dcd: DcdJson = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'd', namespace: NS }, spec: { replicas: 3 } };
    applyCheckpointToGeneratedDcd(dcd, c);
    expect(dcd.spec).toEqual({ replicas: 0 });
    const immediate: DcdJson = { ...dcd, spec: { replicas: 3 } };
    applyCheckpointToGeneratedDcd(immediate, only(resolveGraphCheckpoints(graph(), SETTINGS)));
    expect(immediate.spec.replicas).toBe(3);
    expect(Object.keys(immediate.spec.podTemplate!.metadata.annotations)).toEqual([ANNOTATION_RESTORE_COMPATIBILITY_HASH]);
  });
});
