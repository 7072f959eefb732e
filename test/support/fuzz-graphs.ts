/**
 * fast-check generators of admissible DynamoGraphDeployments (nvidia.com/v1beta1): arbitrary
 * graphs built from the CRD schema and the create-time rules of docs/design/validation-rules.md, so that the
 * operator would admit every one of them.
 *
 * A generated case is a graph plus whether it uses Grove-only features (rows 20, 64, 129): those
 * graphs are admissible only by an operator with Grove; every other graph is admissible with and
 * without Grove. `spec.restart` is never set: it may not be set on create (row 11). Experimental features (GPU memory service, failover, checkpoint) are left out:
 * workloads output refuses them until a later stage, and they would make every case a refusal.
 */
import * as fc from 'fast-check';
import { ComponentSpecJson, ComponentTypeValue, DgdJson } from '../../src/model';

/** A generated graph and the operators that admit it. */
export interface FuzzGraph {
  readonly graph: DgdJson;
  /** True when the graph uses Grove-only features: only an operator with Grove admits it. */
  readonly groveOnly: boolean;
}

const LOWER_ALNUM = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');
const MIXED_ALNUM = [...LOWER_ALNUM, ...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.split('')];

function label(chars: string[], minLength: number, maxLength: number): fc.Arbitrary<string> {
  const ends = fc.constantFrom(...chars);
  const inner = fc.array(fc.constantFrom(...chars, '-'), { maxLength: Math.max(0, maxLength - 2) }).map(a => a.join(''));
  const long = fc.tuple(ends, inner, ends).map(([a, b, c]) => `${a}${b}${c}`);
  return (minLength <= 1 ? fc.oneof(ends, long) : long).filter(s => s.length >= minLength && s.length <= maxLength);
}

/**
 * Graph names: DNS-1123 labels short enough that every Grove pod name stays within 45 characters
 * (row 19) whatever the component names below, starting with a letter (the component Services are
 * named after the graph, and a Service name is a DNS-1035 label).
 */
export const graphName = label(LOWER_ALNUM, 1, 12).filter(n => /^[a-z]/.test(n));

/** Component names (row 41 pattern, any case), short for the same reason. */
export const componentName = label(MIXED_ALNUM, 1, 10);

/** Semantic versions as image tags and `runtimeVersionOverride` values (rows 45, 47). */
const semverCore = fc.tuple(fc.nat(20), fc.nat(20), fc.nat(30)).map(([a, b, c]) => `${a}.${b}.${c}`);
const semverTag = fc.tuple(
  fc.constantFrom('', 'v'),
  semverCore,
  fc.constantFrom('', '-rc1', '-alpha.2', '+build.7', '-dev+sha.1'),
).map(([v, core, suffix]) => `${v}${core}${suffix}`);

const REPOSITORIES = [
  'nvcr.io/nvidia/ai-dynamo/vllm-runtime', 'nvcr.io/nvidia/ai-dynamo/sglang-runtime', 'nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime',
  'registry.example.com:5000/team/dynamo', 'localhost/dynamo', 'dynamo',
];

/** A main image and the override it needs: a semantic-version tag, or another tag plus an override (row 47). */
const mainImage = fc.oneof(
  fc.tuple(fc.constantFrom(...REPOSITORIES), semverTag).map(([repo, tag]) => ({ image: `${repo}:${tag}`, override: undefined as string | undefined })),
  fc.tuple(fc.constantFrom(...REPOSITORIES), fc.constantFrom('latest', 'nightly', 'main-2026'), semverCore)
    .map(([repo, tag, override]) => ({ image: `${repo}:${tag}`, override })),
);

const quantityCpu = fc.constantFrom('100m', '250m', '1', '2', '4', '0.5', '8');
const quantityMemory = fc.constantFrom('128Mi', '1Gi', '4Gi', '16Gi', '512M', '2G', '1000000');
const gpuCount = fc.constantFrom('1', '2', '4', '8');

/**
 * Container resources the API server accepts in the workloads the operator creates: a request is
 * not above its limit, and GPUs (an extended resource, which cannot be overcommitted) are requested
 * only with an equal limit.
 */
const resources = fc.tuple(
  fc.record({ 'cpu': quantityCpu, 'memory': quantityMemory, 'nvidia.com/gpu': gpuCount }, { requiredKeys: [] }),
  fc.constantFrom('none', 'limits', 'requests', 'both'),
).map(([quantities, where]): object => {
  if (where === 'none') return {};
  if (where === 'limits') return { limits: quantities };
  if (where === 'both') return { requests: quantities, limits: quantities };
  const gpu = quantities['nvidia.com/gpu'];
  return gpu === undefined ? { requests: quantities } : { requests: quantities, limits: { 'nvidia.com/gpu': gpu } };
});

const envName = fc.stringMatching(/^[A-Z][A-Z0-9_]{0,15}$/);
const envVar = fc.oneof(
  fc.record({ name: envName, value: fc.string({ maxLength: 20 }) }),
  fc.record({ name: envName, valueFrom: fc.record({ secretKeyRef: fc.record({ name: label(LOWER_ALNUM, 1, 20), key: fc.constantFrom('token', 'HF_TOKEN') }) }) }),
);
/** Env lists with unique names (the operator merges by name). */
const envList = fc.uniqueArray(envVar, { maxLength: 4, selector: e => e.name });

const annotationKey = fc.tuple(fc.constantFrom('example.com/', 'team.example.org/', ''), label(LOWER_ALNUM, 1, 16)).map(([p, n]) => `${p}${n}`);
const customAnnotations = fc.dictionary(annotationKey, fc.string({ maxLength: 24 }), { maxKeys: 3 });
const customLabels = fc.dictionary(annotationKey, label(MIXED_ALNUM, 1, 12), { maxKeys: 3 });

const sidecar = fc.record({
  name: label(LOWER_ALNUM, 1, 12).filter(n => n !== 'main'),
  image: fc.constantFrom('busybox:1.36', 'envoyproxy/envoy:v1.30.0', 'ghcr.io/example/agent:2.1.0'),
});

/** Component types other than EPP, which gets its own generator. */
const NON_EPP_TYPES: ComponentTypeValue[] = ['frontend', 'worker', 'prefill', 'decode', 'planner'];

interface ComponentDraft {
  readonly name: string;
  /**
   * The component for the framework the graph's workers run (`python3 -m dynamo.<framework>`):
   * one framework per graph, equal to `spec.backendFramework` when set, since the operator fails to
   * reconcile a graph whose command lines disagree with it or with each other (docs/design/render-multinode.md §2.4).
   */
  readonly build: (framework: string) => ComponentSpecJson;
  /** Whether the component uses a Grove-only feature. */
  readonly groveOnly: boolean;
}

/** Multinode layout: node count and, optionally, explicit roles in either order (rows 67, 70-74). */
const multinode = fc.record({
  nodeCount: fc.integer({ min: 2, max: 4 }),
  roles: fc.constantFrom('none', 'leader-first', 'worker-first'),
  roleReplicas: fc.boolean(),
});

/** What a generated pod template holds besides the main image. */
interface PodTemplateParts {
  readonly command?: readonly string[];
  readonly args?: readonly string[];
  readonly env: unknown[];
  readonly resources: object;
  readonly sidecars: Array<{ name: string; image: string }>;
  readonly annotations: Record<string, string>;
  readonly labels: Record<string, string>;
  readonly executorBackend?: string;
}

function podTemplate(main: { image: string }, extra: PodTemplateParts): object {
  const container: { [key: string]: unknown } = { name: 'main', image: main.image };
  if (extra.command) container.command = extra.command;
  if (extra.args) container.args = extra.args;
  if (extra.env.length > 0) container.env = extra.env;
  if (Object.keys(extra.resources).length > 0) container.resources = extra.resources;
  const annotations = { ...extra.annotations };
  if (extra.executorBackend !== undefined) annotations['nvidia.com/vllm-distributed-executor-backend'] = extra.executorBackend;
  const metadata: { [key: string]: unknown } = {};
  if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
  if (Object.keys(extra.labels).length > 0) metadata.labels = extra.labels;
  const spec = { containers: [container, ...extra.sidecars] };
  return Object.keys(metadata).length > 0 ? { metadata, spec } : { spec };
}

/** How the main container starts: image entrypoint, `python3 -m dynamo.<framework>`, or a shell. */
type CommandStyle = 'entrypoint' | 'module' | 'shell';

function commandLine(
  style: CommandStyle, framework: string, args: readonly string[] | undefined, isMultinode: boolean,
): { command?: string[]; args?: string[] } {
  // the LeaderWorkerSet pods of a multinode component need a command and args (docs/design/render-multinode.md §3.2)
  const effective = style === 'entrypoint' && isMultinode ? 'module' : style;
  const withArgs = isMultinode && (args === undefined || args.length === 0) ? ['--model', 'Qwen/Qwen3-0.6B'] : args;
  if (effective === 'module') return { command: ['python3', '-m', `dynamo.${framework}`], args: withArgs === undefined ? undefined : [...withArgs] };
  if (effective === 'shell') return { command: ['/bin/sh', '-c'], args: [`python3 -m dynamo.${framework} ${(withArgs ?? []).join(' ')}`.trim()] };
  return { args: withArgs === undefined ? undefined : [...withArgs] };
}

const podTemplateParts = fc.record({
  commandStyle: fc.constantFrom<CommandStyle>('entrypoint', 'module', 'shell'),
  args: fc.option(fc.array(fc.constantFrom('--model', 'Qwen/Qwen3-0.6B', '--tp-size', '2', '--enforce-eager'), { maxLength: 4 }), { nil: undefined }),
  env: envList,
  resources,
  sidecars: fc.uniqueArray(sidecar, { maxLength: 2, selector: s => s.name }),
  annotations: customAnnotations,
  labels: customLabels,
  executorBackend: fc.option(fc.constantFrom('mp', 'ray', 'MP', 'Ray'), { nil: undefined }),
});

/** A non-EPP component; `grove` says whether Grove-only fields may be used. */
function component(grove: boolean): fc.Arbitrary<ComponentDraft> {
  return componentValues(grove).map(d => ({
    name: d.name,
    groveOnly: d.minAvailable !== undefined || d.forceScalingGroup,
    build: (framework: string) => buildComponent(d, framework),
  }));
}

/** The values drawn for a non-EPP component; `grove` says whether Grove-only fields may be used. */
function componentValues(grove: boolean) {
  return fc.record({
    name: componentName,
    type: fc.option(fc.constantFrom(...NON_EPP_TYPES), { nil: undefined }),
    replicas: fc.option(fc.integer({ min: 0, max: 5 }), { nil: undefined }),
    minAvailable: grove ? fc.option(fc.integer({ min: 1, max: 5 }), { nil: undefined }) : fc.constant(undefined),
    forceScalingGroup: grove ? fc.boolean() : fc.constant(false),
    multinode: fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: multinode, weight: 1 }),
    main: mainImage,
    parts: podTemplateParts,
    sharedMemorySize: fc.option(fc.constantFrom('0', '1Gi', '512Mi', '8Gi', '64M'), { nil: undefined }),
    globalDynamoNamespace: fc.option(fc.boolean(), { nil: undefined }),
    modelRef: fc.option(fc.record({ name: label(LOWER_ALNUM, 1, 20) }), { nil: undefined }),
    // a mount path is given: only vLLM workers have a default one; without it reconciling fails (docs/design/render-core.md §5.7.2)
    compilationCache: fc.option(fc.record({ pvcName: label(LOWER_ALNUM, 1, 20), mountPath: fc.constantFrom('/cache', '/root/.cache/vllm') }), { nil: undefined }),
  });
}

/** The drawn values of a non-EPP component. */
type ComponentValues = typeof componentValues extends (grove: boolean) => fc.Arbitrary<infer V> ? V : never;

/** The component of the drawn values, for the graph's worker framework. */
function buildComponent(d: ComponentValues, framework: string): ComponentSpecJson {
  const c: ComponentSpecJson = { name: d.name };
  if (d.type !== undefined) c.type = d.type;
  if (d.replicas !== undefined) c.replicas = d.replicas;
  // row 62: minAvailable <= replicas (1 when unset) unless replicas is 0
  if (d.minAvailable !== undefined) {
    const ceiling = d.replicas ?? 1;
    c.minAvailable = ceiling === 0 ? d.minAvailable : Math.min(d.minAvailable, ceiling);
  }
  if (d.multinode !== undefined) {
    c.multinode = { nodeCount: d.multinode.nodeCount };
    if (d.multinode.roles !== 'none') {
      const leader = d.multinode.roleReplicas ? { name: 'leader', replicas: 1 } : { name: 'leader' };
      const worker = d.multinode.roleReplicas ? { name: 'worker', replicas: d.multinode.nodeCount - 1 } : { name: 'worker' };
      c.roles = d.multinode.roles === 'leader-first' ? [leader, worker] : [worker, leader];
    }
  }
  if (d.main.override !== undefined) c.runtimeVersionOverride = d.main.override;
  const { commandStyle, args, ...parts } = d.parts;
  c.podTemplate = podTemplate(d.main, { ...parts, ...commandLine(commandStyle, framework, args, d.multinode !== undefined) });
  if (d.sharedMemorySize !== undefined) c.sharedMemorySize = d.sharedMemorySize;
  if (d.globalDynamoNamespace !== undefined) c.globalDynamoNamespace = d.globalDynamoNamespace;
  if (d.modelRef !== undefined) c.modelRef = d.modelRef;
  if (d.compilationCache !== undefined) c.compilationCache = d.compilationCache;
  if (d.forceScalingGroup) c.experimental = { grove: { forceScalingGroup: true } };
  return c;
}

/**
 * An EPP component (rows 15, 51-58): single-node, replicas unset or 1, with `eppConfig` (a ConfigMap
 * reference here), which the default operator (1.5.0, without the runtime contract of rows 49-50)
 * asks of every EPP, whatever its runtime version.
 */
const eppComponent: fc.Arbitrary<ComponentDraft> = fc.record({
  name: componentName,
  replicas: fc.option(fc.constant(1), { nil: undefined }),
  native: fc.boolean(),
  minor: fc.nat(9),
}).map(d => {
  const version = d.native ? `1.${5 + d.minor}.0` : `1.${d.minor % 5}.0`;
  const c: ComponentSpecJson = {
    name: d.name,
    type: 'epp',
    podTemplate: { spec: { containers: [{ name: 'main', image: `nvcr.io/nvidia/ai-dynamo/dynamo-epp:${version}` }] } },
  };
  if (d.replicas !== undefined) c.replicas = d.replicas;
  c.eppConfig = { configMapRef: { name: 'epp-config', key: 'config.yaml' } };
  return { name: d.name, build: () => c, groveOnly: false };
});

const graphAnnotations = fc.record({
  'nvidia.com/dynamo-operator-origin-version': semverTag,
  'nvidia.com/vllm-distributed-executor-backend': fc.constantFrom('mp', 'ray', 'RAY'),
  'nvidia.com/grove-update-strategy': fc.constantFrom('RollingRecreate', 'OnDelete'),
  'nvidia.com/dynamo-kube-discovery-mode': fc.constantFrom('pod', 'container'),
  'nvidia.com/enable-grove': fc.constantFrom('true', 'false', 'False'),
}, { requiredKeys: [] });

/** Components with names unique case-insensitively (rows 14, 16), at most one EPP (row 15). */
function components(grove: boolean): fc.Arbitrary<ComponentDraft[]> {
  return fc.tuple(
    fc.uniqueArray(component(grove), { minLength: 1, maxLength: 4, selector: c => c.name.toLowerCase() }),
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: eppComponent, weight: 1 }),
  ).map(([regular, epp]) => {
    if (epp === undefined || regular.some(c => c.name.toLowerCase() === epp.name.toLowerCase())) return regular;
    return [...regular, epp];
  });
}

/** An admissible graph; with `grove`, possibly using Grove-only features. */
export function fuzzGraph(grove: boolean): fc.Arbitrary<FuzzGraph> {
  return fc.record({
    name: graphName,
    annotations: graphAnnotations,
    customAnnotations,
    backendFramework: fc.option(fc.constantFrom('vllm', 'sglang', 'trtllm'), { nil: undefined }),
    commandFramework: fc.constantFrom('vllm', 'sglang', 'trtllm'),
    components: components(grove),
    env: envList,
    specAnnotations: customAnnotations,
    specLabels: customLabels,
    priorityClassName: grove ? fc.option(label(LOWER_ALNUM, 1, 20), { nil: undefined }) : fc.constant(undefined),
  }).map(d => {
    const annotations = { ...d.customAnnotations, ...d.annotations };
    const metadata: DgdJson['metadata'] = { name: d.name };
    if (Object.keys(annotations).length > 0) metadata.annotations = annotations;
    const framework = d.backendFramework ?? d.commandFramework;
    const spec: DgdJson['spec'] = { components: d.components.map(c => c.build(framework)) };
    if (d.backendFramework !== undefined) spec.backendFramework = d.backendFramework as 'vllm' | 'sglang' | 'trtllm';
    if (d.env.length > 0) spec.env = d.env;
    if (Object.keys(d.specAnnotations).length > 0) spec.annotations = d.specAnnotations;
    if (Object.keys(d.specLabels).length > 0) spec.labels = d.specLabels;
    let groveOnly = d.components.some(c => c.groveOnly);
    if (d.priorityClassName !== undefined) {
      spec.priorityClassName = d.priorityClassName;
      groveOnly = true;
    }
    // Grove-only features need the Grove pathway: Grove must not be turned off for the graph
    if (groveOnly && /^false$/i.test(annotations['nvidia.com/enable-grove'] ?? '')) {
      annotations['nvidia.com/enable-grove'] = 'true';
      metadata.annotations = annotations;
    }
    const graph: DgdJson = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata, spec };
    return { graph, groveOnly };
  });
}

/** Graphs admissible with and without Grove, and graphs using Grove-only features. */
export const anyFuzzGraph: fc.Arbitrary<FuzzGraph> = fc.oneof(fuzzGraph(false), fuzzGraph(true));
