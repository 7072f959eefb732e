/**
 * The seeded inputs of the oracle recordings (test/fixtures/oracle/): one case per seed, a
 * DynamoGraphDeployment (plus the cluster objects it reads: a DeviceClass and ResourceClaimTemplate
 * for DRA claims) and the named operator configuration it is rendered with.
 *
 * Two sources, chosen by the seed: the project's admissible-graph generator (test/support/fuzz-graphs.ts,
 * one case in four, for its wide variety of names, labels, annotations and pod template parts), and the
 * generator below, shaped like real recipes, which covers what that one leaves out: every backend
 * aggregated and disaggregated, multinode (LWS or Grove), the GPU memory service and failover on every
 * backend, checkpointing, planner, EPP, frontend variants, scaling adapters, DRA claims, env / args /
 * resources / volumes / probes / pod-template overrides, and annotations that steer the operator.
 * Some inputs are inadmissible on purpose (the oracle then records the refusal).
 *
 * A case depends only on its seed: `oracleCase(seed)` is `fc.sample(arbitrary, { seed, numRuns: 1 })`.
 */
import * as fc from 'fast-check';
import { fuzzGraph } from '../../test/support/fuzz-graphs';

/** The operator configuration files of test/fixtures/oracle/settings/, by name. */
export const SETTINGS_NAMES = ['default', 'checkpoint', 'restricted', 'kai', 'volcano', 'ingress-istio', 'etcd-nats'] as const;
export type SettingsName = typeof SETTINGS_NAMES[number];

/**
 * The operator configuration files of the variant recordings (test/fixtures/oracle/renders-variants-<version>.jsonl.gz):
 * settings the seeded cases above never take, each recorded on the seeds of `ORACLE_VARIANTS`.
 */
export const VARIANT_SETTINGS_NAMES = ['no-dra', 'no-lws', 'checkpoint-storage', 'checkpoint-storage-existing', 'checkpoint-storage-invalid'] as const;
export type VariantSettingsName = typeof VARIANT_SETTINGS_NAMES[number];

/** The namespace every case is rendered in (and the one the restricted operator manages). */
export const ORACLE_NAMESPACE = 'dynamo';

/** KAI scheduler queues the recording's cluster holds (any other queue fails the operator's reconcile). */
export const KAI_QUEUES = ['dynamo', 'team-a'];

export interface OracleCase {
  readonly seed: number;
  readonly settings: SettingsName | VariantSettingsName;
  /** Which generator made the graph. */
  readonly generator: 'fuzz-graphs' | 'recipes';
  readonly documents: unknown[];
}

/** `arb` one time in `n`, otherwise undefined. */
function rarely<T>(arb: fc.Arbitrary<T>, n: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: n - 1, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: arb });
}

type Backend = 'vllm' | 'sglang' | 'trtllm';
const BACKENDS: Backend[] = ['vllm', 'sglang', 'trtllm'];
const IMAGES: Record<Backend, string> = {
  vllm: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime',
  sglang: 'nvcr.io/nvidia/ai-dynamo/sglang-runtime',
  trtllm: 'nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime',
};
const MODELS = ['Qwen/Qwen3-0.6B', 'meta-llama/Llama-3.1-8B-Instruct', 'deepseek-ai/DeepSeek-R1'];

/** An image with a semantic-version tag, or another tag with `runtimeVersionOverride` (the runtime-version rules need one of them). */
const imageChoice = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('1.4.0', '1.5.0', '1.5.1', '1.4.0-rc1', '1.6.0').map(tag => ({ tag, override: undefined as string | undefined })) },
  { weight: 1, arbitrary: fc.constantFrom('latest', 'my-build').chain(tag => fc.constantFrom('1.4.0', '1.5.0').map(override => ({ tag, override: override as string | undefined }))) },
);

const envEntries = fc.subarray([
  { name: 'HF_HOME', value: '/model-cache' },
  { name: 'DYN_LOG', value: 'debug' },
  { name: 'POD_UID', valueFrom: { fieldRef: { fieldPath: 'metadata.uid' } } },
  { name: 'HF_TOKEN', valueFrom: { secretKeyRef: { name: 'hf-token-secret', key: 'HF_TOKEN' } } },
  { name: 'NCCL_DEBUG', value: 'INFO' },
  { name: 'DYN_SYSTEM_PORT', value: '9345' },
]);

/** Pod-template parts a recipe overrides. */
const podExtras = fc.record({
  env: envEntries,
  envFrom: fc.boolean(),
  volume: fc.constantFrom('none', 'pvc', 'emptyDir', 'configMap'),
  tolerations: fc.boolean(),
  nodeSelector: fc.boolean(),
  securityContext: fc.boolean(),
  startupProbe: fc.boolean(),
  livenessProbe: fc.boolean(),
  sidecar: fc.boolean(),
  initContainer: fc.boolean(),
  podLabels: fc.boolean(),
  podAnnotations: fc.boolean(),
  imagePullSecrets: fc.boolean(),
  serviceAccount: fc.boolean(),
  workingDir: fc.boolean(),
  memory: fc.option(fc.constantFrom('64Gi', '200Gi'), { nil: undefined }),
  cpu: fc.option(fc.constantFrom('4', '16'), { nil: undefined }),
}, { requiredKeys: [] });
type PodExtras = Partial<{ [K in keyof typeof podExtras extends fc.Arbitrary<infer V> ? V : never]: any }> & { [key: string]: any };

function applyExtras(pod: any, main: any, x: PodExtras): void {
  if (x.env && x.env.length > 0) main.env = [...(main.env ?? []), ...x.env];
  if (x.envFrom) main.envFrom = [{ secretRef: { name: 'hf-token-secret' } }];
  if (x.volume === 'pvc') {
    pod.volumes = [{ name: 'model-cache', persistentVolumeClaim: { claimName: 'model-cache' } }];
    main.volumeMounts = [{ name: 'model-cache', mountPath: '/model-cache' }];
  } else if (x.volume === 'emptyDir') {
    pod.volumes = [{ name: 'scratch', emptyDir: { sizeLimit: '10Gi' } }];
    main.volumeMounts = [{ name: 'scratch', mountPath: '/scratch' }];
  } else if (x.volume === 'configMap') {
    pod.volumes = [{ name: 'engine-config', configMap: { name: 'engine-config' } }];
    main.volumeMounts = [{ name: 'engine-config', mountPath: '/config', readOnly: true }];
  }
  if (x.tolerations) pod.tolerations = [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }];
  if (x.nodeSelector) pod.nodeSelector = { 'nvidia.com/gpu.product': 'NVIDIA-H200' };
  if (x.securityContext) main.securityContext = { capabilities: { add: ['IPC_LOCK'] } };
  if (x.startupProbe) main.startupProbe = { httpGet: { path: '/live', port: 9090 }, periodSeconds: 10, failureThreshold: 60 };
  if (x.livenessProbe) main.livenessProbe = { httpGet: { path: '/health', port: 9090 }, initialDelaySeconds: 30 };
  if (x.sidecar) pod.containers.push({ name: 'log-agent', image: 'busybox:1.36', args: ['sleep', 'infinity'] });
  if (x.initContainer) pod.initContainers = [{ name: 'fetch-model', image: 'busybox:1.36', command: ['sh', '-c', 'true'] }];
  if (x.imagePullSecrets) pod.imagePullSecrets = [{ name: 'ngc-secret' }];
  if (x.serviceAccount) pod.serviceAccountName = 'custom-sa';
  if (x.workingDir) main.workingDir = '/workspace';
  if (x.memory || x.cpu) {
    const add = { ...(x.memory ? { memory: x.memory } : {}), ...(x.cpu ? { cpu: x.cpu } : {}) };
    const r = main.resources ?? {};
    main.resources = { ...r, requests: { ...(r.requests ?? {}), ...add }, limits: { ...(r.limits ?? {}), ...add } };
  }
}

/** Parallelism and disaggregation flags of a worker, as recipes spell them. */
function workerArgs(backend: Backend, role: string, disagg: boolean, tp: number, model: string, style: number): string[] {
  const a: string[] = [backend === 'vllm' ? '--model' : '--model-path', model];
  if (backend === 'vllm') {
    a.push(...(style % 2 === 0 ? ['--tensor-parallel-size', String(tp)] : [`--tensor-parallel-size=${tp}`]));
    if (disagg && role === 'prefill') a.push('--is-prefill-worker');
  } else if (backend === 'sglang') {
    a.push('--tp-size', String(tp));
    if (disagg) a.push('--disaggregation-mode', role === 'prefill' ? 'prefill' : 'decode', '--disaggregation-transfer-backend', 'nixl');
  } else {
    a.push('--tensor-parallel-size', String(tp));
    if (disagg) a.push('--disaggregation-mode', role === 'prefill' ? 'prefill' : 'decode');
  }
  return a;
}

const workerShape = fc.record({
  replicas: fc.option(fc.constantFrom(0, 1, 1, 2, 3), { nil: undefined }),
  multinode: rarely(fc.integer({ min: 2, max: 4 }), 3),
  roles: fc.constantFrom('none', 'none', 'none', 'none', 'none', 'none', 'none', 'none', 'none', 'leader-first'),
  gpus: fc.constantFrom(1, 2, 4, 8),
  gpuRequests: fc.boolean(),
  commandStyle: fc.constantFrom('module', 'module', 'shell', 'python3-args', 'args-only'),
  argStyle: fc.nat(3),
  model: fc.constantFrom(...MODELS),
  image: imageChoice,
  gms: rarely(fc.record({
    mode: fc.constantFrom(undefined, 'IntraPod', 'IntraPod', 'InterPod'),
    deviceClassName: rarely(fc.constant('gpu.nvidia.com'), 4),
  }), 6),
  failover: rarely(fc.record({ mode: fc.constantFrom('IntraPod', 'IntraPod', 'InterPod'), numShadows: fc.constant(1) }), 8),
  checkpoint: rarely(fc.oneof(
    fc.constant({ enabled: true }),
    fc.record({ enabled: fc.constant(true), startupPolicy: fc.constantFrom('Immediate', 'WaitForCheckpoint') }),
    fc.record({ enabled: fc.constant(true), checkpointRef: fc.constant('ckpt-qwen') }),
  ), 3),
  scalingAdapter: fc.boolean(),
  sharedMemorySize: fc.option(fc.constantFrom('8Gi', '64Gi', '0'), { nil: undefined }),
  dra: fc.boolean(),
  compilationCache: fc.boolean(),
  extras: podExtras,
  minAvailable: fc.constantFrom(false, false, false, false, false, false, false, true),
  annotations: fc.boolean(),
});

const frontendShape = fc.record({
  present: fc.constantFrom(true, true, true, true, false),
  name: fc.constantFrom('Frontend', 'frontend', 'fe'),
  replicas: fc.option(fc.constantFrom(1, 2, 3), { nil: undefined }),
  withCommand: fc.boolean(),
  args: fc.constantFrom([], ['--router-mode', 'kv'], ['--http-port', '8000'], ['--router-mode', 'round-robin']),
  env: fc.boolean(),
  scalingAdapter: fc.boolean(),
  image: imageChoice,
  extras: podExtras,
});

const graphShape = fc.record({
  backend: fc.constantFrom(...BACKENDS),
  setBackendFramework: fc.constantFrom(true, true, true, false),
  disagg: fc.boolean(),
  name: fc.tuple(fc.constantFrom('llm', 'qwen', 'ds', 'chat', 'g'), fc.nat(99)).map(([p, n]) => `${p}${n}`),
  frontend: frontendShape,
  workers: fc.tuple(workerShape, workerShape),
  planner: rarely(fc.record({ args: fc.constantFrom(['--environment=kubernetes'], ['--environment=kubernetes', '--adjustment-interval=60']) }), 5),
  epp: rarely(fc.record({
    config: fc.constantFrom('ref', 'inline'),
    tag: fc.constantFrom('1.4.0', '1.5.0', '1.6.0'),
  }), 5),
  annotations: fc.record({
    'nvidia.com/enable-grove': fc.constantFrom('true', 'false'),
    'nvidia.com/dynamo-kube-discovery-mode': fc.constantFrom('pod', 'container'),
    'nvidia.com/kai-scheduler-queue': fc.constantFrom(...KAI_QUEUES),
    'nvidia.com/volcano-queue': fc.constant('default'),
    'nvidia.com/vllm-distributed-executor-backend': fc.constantFrom('mp', 'ray'),
    'example.com/owner': fc.constant('team-a'),
  }, { requiredKeys: [] }),
  labels: fc.boolean(),
  specEnv: fc.boolean(),
  specLabels: fc.boolean(),
  specAnnotations: fc.boolean(),
});

type GraphShape = typeof graphShape extends fc.Arbitrary<infer V> ? V : never;
type WorkerShape = typeof workerShape extends fc.Arbitrary<infer V> ? V : never;

function versionedImage(repo: string, image: { tag: string; override?: string }, c: any): string {
  if (image.override !== undefined) c.runtimeVersionOverride = image.override;
  return `${repo}:${image.tag}`;
}

function mainCommand(style: string, module: string, args: string[]): { command?: string[]; args: string[] } {
  if (style === 'shell') return { command: ['/bin/sh', '-c'], args: [['python3', '-m', module, ...args].join(' ')] };
  if (style === 'python3-args') return { command: ['python3'], args: ['-m', module, ...args] };
  if (style === 'args-only') return { args: ['python3', '-m', module, ...args] };
  return { command: ['python3', '-m', module], args };
}

/** A worker component and the cluster objects it reads. */
function worker(g: GraphShape, w: WorkerShape, role: string, needs: { dra: boolean }): any {
  const name = { prefill: 'prefill', decode: 'decode', worker: 'worker' }[role] ?? role;
  const vllmName = role === 'worker' ? 'VllmWorker' : `Vllm${name[0].toUpperCase()}${name.slice(1)}Worker`;
  const c: any = { name: g.backend === 'vllm' && w.argStyle === 3 ? vllmName : name, type: role };
  if (w.replicas !== undefined) c.replicas = w.replicas;
  if (w.multinode !== undefined) {
    c.multinode = { nodeCount: w.multinode };
    if (w.roles === 'leader-first') c.roles = [{ name: 'leader' }, { name: 'worker' }];
  }
  const tp = w.gpus * (w.multinode ?? 1);
  const args = workerArgs(g.backend, role, g.disagg, tp, w.model, w.argStyle);
  const style = w.multinode !== undefined && w.commandStyle === 'args-only' ? 'module' : w.commandStyle;
  const main: any = { name: 'main', image: versionedImage(IMAGES[g.backend], w.image, c), ...mainCommand(style, `dynamo.${g.backend}`, args) };
  const pod: any = { containers: [main] };
  if (w.dra && w.gms === undefined) {
    main.resources = { claims: [{ name: 'gpus' }] };
    pod.resourceClaims = [{ name: 'gpus', resourceClaimTemplateName: 'gpus-template' }];
    needs.dra = true;
  } else {
    const gpu = String(w.gpus);
    main.resources = w.gpuRequests ? { requests: { 'nvidia.com/gpu': gpu }, limits: { 'nvidia.com/gpu': gpu } } : { limits: { 'nvidia.com/gpu': gpu } };
  }
  applyExtras(pod, main, w.extras);
  c.podTemplate = { spec: pod };
  if (w.annotations) c.podTemplate.metadata = { annotations: { 'example.com/worker': role } };
  const experimental: any = {};
  if (w.gms !== undefined) {
    const gms: any = {};
    // the inter-pod layout is vLLM's only: mostly asked of vLLM workers
    if (w.gms.mode !== undefined && (w.gms.mode !== 'InterPod' || g.backend === 'vllm' || w.argStyle === 0)) gms.mode = w.gms.mode;
    if (w.gms.deviceClassName !== undefined) gms.deviceClassName = w.gms.deviceClassName;
    experimental.gpuMemoryService = gms;
    needs.dra = true;
  }
  // failover is vLLM's only (other backends fail to reconcile): mostly asked of vLLM workers
  if (w.failover !== undefined && (g.backend === 'vllm' || w.argStyle === 0)) {
    experimental.failover = w.failover;
    // failover runs on the GPU memory service, in the same mode
    experimental.gpuMemoryService = { ...(experimental.gpuMemoryService ?? {}), mode: w.failover.mode };
    needs.dra = true;
  }
  if (w.checkpoint !== undefined) experimental.checkpoint = w.checkpoint;
  if (Object.keys(experimental).length > 0) c.experimental = experimental;
  if (w.scalingAdapter) c.scalingAdapter = {};
  if (w.sharedMemorySize !== undefined) c.sharedMemorySize = w.sharedMemorySize;
  if (w.compilationCache) c.compilationCache = { pvcName: 'compile-cache', mountPath: '/root/.cache/compile' };
  if (w.minAvailable) c.minAvailable = 1;
  return c;
}

function recipeDocuments(g: GraphShape): unknown[] {
  const needs = { dra: false };
  const components: any[] = [];
  const f = g.frontend;
  if (f.present) {
    const c: any = { name: f.name, type: 'frontend' };
    if (f.replicas !== undefined) c.replicas = f.replicas;
    const main: any = { name: 'main', image: versionedImage(IMAGES[g.backend], f.image, c) };
    if (f.withCommand) Object.assign(main, { command: ['python3', '-m', 'dynamo.frontend'], args: f.args });
    if (f.env) main.env = [{ name: 'DYN_ROUTER_MODE', value: 'kv' }];
    const pod: any = { containers: [main] };
    applyExtras(pod, main, { ...f.extras, volume: 'none', sidecar: false });
    c.podTemplate = { spec: pod };
    if (f.scalingAdapter) c.scalingAdapter = {};
    components.push(c);
  }
  const roles = g.disagg ? ['prefill', 'decode'] : ['worker'];
  roles.forEach((role, i) => components.push(worker(g, g.workers[i], role, needs)));
  if (g.planner !== undefined) {
    const c: any = { name: 'planner', type: 'planner', replicas: 1 };
    c.podTemplate = { spec: { containers: [{ name: 'main', image: `${IMAGES[g.backend]}:1.5.0`, command: ['python3', '-m', 'dynamo.planner'], args: [...g.planner.args, `--backend=${g.backend}`] }] } };
    components.push(c);
  }
  if (g.epp !== undefined) {
    const c: any = { name: 'epp', type: 'epp', podTemplate: { spec: { containers: [{ name: 'main', image: `nvcr.io/nvidia/ai-dynamo/dynamo-epp:${g.epp.tag}` }] } } };
    c.eppConfig = g.epp.config === 'ref'
      ? { configMapRef: { name: 'epp-config', key: 'config.yaml' } }
      : { config: { plugins: [{ type: 'single-profile-handler' }, { type: 'dyn-kv', name: 'dyn-kv' }], schedulingProfiles: [{ name: 'default', plugins: [{ pluginRef: 'dyn-kv' }] }] } };
    components.push(c);
  }
  const metadata: any = { name: `${g.name}-${g.backend.slice(0, 2)}` };
  const annotations: Record<string, string> = { ...g.annotations };
  // intra-pod failover needs container-level discovery (the webhook refuses it otherwise): set so in most cases
  if (components.some(c => c.experimental?.failover?.mode === 'IntraPod') && g.name.length % 5 !== 0) annotations['nvidia.com/dynamo-kube-discovery-mode'] = 'container';
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (g.labels) metadata.labels = { 'app.kubernetes.io/part-of': 'demo' };
  const spec: any = { components };
  if (g.setBackendFramework) spec.backendFramework = g.backend;
  if (g.specEnv) spec.env = [{ name: 'HF_HUB_OFFLINE', value: '1' }];
  if (g.specLabels) spec.labels = { 'example.com/graph-label': 'v' };
  if (g.specAnnotations) spec.annotations = { 'example.com/graph-annotation': 'v' };
  const docs: unknown[] = [{ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata, spec }];
  if (needs.dra) {
    docs.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'DeviceClass',
      metadata: { name: 'gpu.nvidia.com' },
      spec: { selectors: [{ cel: { expression: "device.driver == 'gpu.nvidia.com'" } }] },
    });
    docs.push({
      apiVersion: 'resource.k8s.io/v1',
      kind: 'ResourceClaimTemplate',
      metadata: { name: 'gpus-template', namespace: ORACLE_NAMESPACE },
      spec: { spec: { devices: { requests: [{ name: 'gpus', exactly: { deviceClassName: 'gpu.nvidia.com', count: 4 } }] } } },
    });
  }
  return docs;
}

/** The case of one seed. */
export function oracleCase(seed: number): OracleCase {
  const settings = SETTINGS_NAMES[Math.abs(seed) % SETTINGS_NAMES.length];
  // one case in four from the project's admissible-graph generator (with Grove-only features half the time)
  const useFuzz = Math.floor(Math.abs(seed) / SETTINGS_NAMES.length) % 4 === 3;
  if (useFuzz) {
    const [{ graph }] = fc.sample(fuzzGraph(seed % 2 === 0), { seed, numRuns: 1 });
    return { seed, settings, generator: 'fuzz-graphs', documents: [graph] };
  }
  const [shape] = fc.sample(graphShape, { seed, numRuns: 1 });
  // checkpointing needs the operator's checkpoint gate: kept with the other settings in one case in 13 (the refusal)
  if (settings !== 'checkpoint' && seed % 13 !== 0) {
    for (const w of shape.workers) (w as { checkpoint?: unknown }).checkpoint = undefined;
  }
  return { seed, settings, generator: 'recipes', documents: recipeDocuments(shape) };
}

/** The features an input uses, for the coverage counts of the fixture README. */
export function featuresOf(documents: readonly unknown[]): string[] {
  const graph = documents[0] as any;
  const components: any[] = graph?.spec?.components ?? [];
  const text = JSON.stringify(graph);
  const framework = graph?.spec?.backendFramework ?? /dynamo\.(vllm|sglang|trtllm)/.exec(text)?.[1] ?? 'none';
  const out = new Set<string>([`backend ${framework}`]);
  const types = new Set(components.map(c => c.type));
  out.add(types.has('prefill') && types.has('decode') ? 'disaggregated' : 'aggregated');
  const flags: [string, (c: any) => boolean][] = [
    ['multinode', c => c.multinode !== undefined],
    ['GPU memory service', c => c.experimental?.gpuMemoryService !== undefined],
    ['failover', c => c.experimental?.failover !== undefined],
    ['checkpoint', c => c.experimental?.checkpoint !== undefined],
    ['scaling adapter', c => c.scalingAdapter !== undefined],
    ['planner', c => c.type === 'planner'],
    ['EPP', c => c.type === 'epp'],
    ['frontend', c => c.type === 'frontend'],
    ['DRA claims', c => (c.podTemplate?.spec?.resourceClaims ?? []).length > 0],
    ['volumes', c => (c.podTemplate?.spec?.volumes ?? []).length > 0],
    ['sidecars', c => (c.podTemplate?.spec?.containers ?? []).length > 1],
    ['env', c => (c.podTemplate?.spec?.containers?.[0]?.env ?? []).length > 0],
    ['runtimeVersionOverride', c => c.runtimeVersionOverride !== undefined],
    ['minAvailable', c => c.minAvailable !== undefined],
    ['roles', c => c.roles !== undefined],
  ];
  for (const [name, test] of flags) if (components.some(test)) out.add(name);
  for (const [name, test] of flags.filter(([n]) => n === 'GPU memory service' || n === 'failover' || n === 'multinode')) {
    if (components.some(test)) out.add(`${name} on ${framework}`);
  }
  const annotations = graph?.metadata?.annotations ?? {};
  if (annotations['nvidia.com/enable-grove'] === 'false') out.add('Grove turned off by annotation');
  if (annotations['nvidia.com/kai-scheduler-queue']) out.add('KAI queue annotation');
  if (graph?.spec?.env) out.add('graph env');
  return [...out];
}

/**
 * The seeds each variant settings file is recorded on, chosen for what the variant changes: GPU memory
 * service and inter-pod failover on every backend (no-dra), multinode on every backend (no-lws),
 * checkpointing (checkpoint-storage*), with a few graphs the variant should leave alone.
 */
export const ORACLE_VARIANTS: readonly { readonly settings: VariantSettingsName; readonly seeds: readonly number[] }[] = [
  // GPU memory service on each backend (multinode, Grove turned off), inter-pod and intra-pod failover, with checkpointing; no GMS
  { settings: 'no-dra', seeds: [20261203, 20261209, 20261220, 20261230, 20261234, 20261252, 20261255, 20261285, 20261297, 20261367, 20261423] },
  // multinode on each backend (Grove turned off by annotation on some), with GMS; single-node graphs
  { settings: 'no-lws', seeds: [20261209, 20261215, 20261217, 20261220, 20261236, 20261237, 20261238, 20261276, 20261288, 20261297, 20261416] },
  // checkpointing on each backend (multinode, GMS), a checkpointRef without its DynamoCheckpoint; no checkpoint
  { settings: 'checkpoint-storage', seeds: [20261221, 20261305, 20261312, 20261389, 20261403, 20261416, 20261424] },
  { settings: 'checkpoint-storage-existing', seeds: [20261221, 20261305, 20261312, 20261424] },
  { settings: 'checkpoint-storage-invalid', seeds: [20261305, 20261312, 20261416] },
];
/** The PVC a variant expects to find in the namespace (`checkpoint.storage.pvc`, not created by the operator). */
const EXISTING_PVCS: Partial<Record<VariantSettingsName, string>> = { 'checkpoint-storage-existing': 'checkpoints' };

/**
 * The case of one seed under a variant settings file: the seed's graph, with the cluster objects the
 * variant expects (the existing checkpoint PVC) among its documents.
 */
export function oracleVariantCase(seed: number, settings: VariantSettingsName): OracleCase {
  const base = oracleCase(seed);
  const pvc = EXISTING_PVCS[settings];
  const documents = pvc === undefined ? base.documents : [...base.documents, {
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: pvc, namespace: ORACLE_NAMESPACE },
    spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '100Gi' } } },
  }];
  return { ...base, settings, documents };
}
