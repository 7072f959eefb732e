/**
 * One targeted mutation of an admissible graph per case, each breaking a known create-time rule of
 * docs/design/validation-rules.md: a value of the wrong type, a bad enum value, a bad name, a missing required
 * field, or a value a rule forbids. Each mutation names the rows whose violation proves the
 * rejection (any one of them suffices: a wrong type, for example, may be reported under its row or
 * as a schema error).
 */
import * as fc from 'fast-check';
import { anyFuzzGraph } from './fuzz-graphs';
import { ComponentSpecJson, DgdJson } from '../../src/model';

/** A mutated graph and what validation must say about it. */
export interface MutatedGraph {
  readonly mutation: string;
  readonly graph: DgdJson;
  /** The operator validates with Grove on or off. */
  readonly grove: boolean;
  /** Rows (or `schema`) of which at least one must be reported. */
  readonly expectRules: readonly string[];
}

/** Random picks a mutation uses to choose what to break. */
export interface MutationPicks {
  readonly index: number;
  readonly amount: number;
  readonly grove: boolean;
}

interface MutationResult {
  readonly rules: readonly string[];
  /** Forces the operator's Grove setting (rules that need Grove on or off). */
  readonly grove?: boolean;
}

type Mutate = (graph: DgdJson, picks: MutationPicks) => MutationResult;

function components(graph: DgdJson): ComponentSpecJson[] {
  return graph.spec.components!;
}

/** A component picked by `picks.index`, preferring non-EPP components when `nonEpp`. */
function pick(graph: DgdJson, picks: MutationPicks, nonEpp = false): ComponentSpecJson {
  const all = components(graph);
  const pool = nonEpp ? all.filter(c => c.type !== 'epp') : all;
  const from = pool.length > 0 ? pool : all;
  return from[picks.index % from.length];
}

function mainContainer(c: ComponentSpecJson): { [key: string]: unknown } {
  return c.podTemplate!.spec.containers[0];
}

function annotate(graph: DgdJson, key: string, value: string): void {
  graph.metadata.annotations = { ...(graph.metadata.annotations ?? {}), [key]: value };
}

function swapCase(name: string): string {
  return name.split('').map(ch => (ch === ch.toLowerCase() ? ch.toUpperCase() : ch.toLowerCase())).join('');
}

function eppLike(name: string, image = 'nvcr.io/nvidia/ai-dynamo/dynamo-epp:1.6.0'): ComponentSpecJson {
  return { name, type: 'epp', podTemplate: { spec: { containers: [{ name: 'main', image }] } } };
}

/** The mutations, by name. */
export const MUTATIONS: { readonly [name: string]: Mutate } = {
  // wrong types
  'replicas-string': (g, p) => { pick(g, p).replicas = String(p.amount) as any; return { rules: ['59', 'schema'] }; },
  'replicas-fraction': (g, p) => { pick(g, p).replicas = p.amount + 0.5; return { rules: ['59', 'schema'] }; },
  'components-map': g => { (g.spec as any).components = { a: components(g)[0] }; return { rules: ['14', 'schema'] }; },
  'pod-template-string': (g, p) => { pick(g, p).podTemplate = 'main' as any; return { rules: ['89', 'schema'] }; },
  'env-map': g => { (g.spec as any).env = { NAME: 'value' }; return { rules: ['schema'] }; },
  'container-env-string': (g, p) => { mainContainer(pick(g, p)).env = 'A=1'; return { rules: ['89', 'schema'] }; },
  'annotations-number': g => { (g.metadata as any).annotations = { 'example.com/n': 1 }; return { rules: ['schema'] }; },
  'spec-array': g => { (g as any).spec = [components(g)[0]]; return { rules: ['schema', '11'] }; },
  'multinode-node-count-string': (g, p) => { pick(g, p, true).multinode = { nodeCount: '2' as any }; return { rules: ['67', 'schema'] }; },
  // bad enum values
  'backend-framework-enum': g => { (g.spec as any).backendFramework = 'pytorch'; return { rules: ['12'] }; },
  'component-type-enum': (g, p) => { (pick(g, p) as any).type = 'router'; return { rules: ['43'] }; },
  'restart-strategy-enum': g => { g.spec.restart = { id: 'r1', strategy: { type: 'Random' as any } }; return { rules: ['22', '11'] }; },
  'grove-update-strategy': g => { annotate(g, 'nvidia.com/grove-update-strategy', 'Always'); return { rules: ['3'] }; },
  'discovery-mode': g => { annotate(g, 'nvidia.com/dynamo-kube-discovery-mode', 'dns'); return { rules: ['4'] }; },
  'executor-backend': g => { annotate(g, 'nvidia.com/vllm-distributed-executor-backend', 'threads'); return { rules: ['2'] }; },
  'pod-executor-backend': (g, p) => {
    const c = pick(g, p);
    c.podTemplate!.metadata = { ...(c.podTemplate!.metadata ?? {}), annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'threads' } };
    return { rules: ['92'] };
  },
  // bad names
  'component-name-pattern': (g, p) => { const c = pick(g, p); c.name = `${c.name}_x`; return { rules: ['41'] }; },
  'component-name-leading-dash': (g, p) => { const c = pick(g, p); c.name = `-${c.name}`; return { rules: ['41'] }; },
  'component-name-too-long': (g, p) => { pick(g, p).name = 'a'.repeat(64 + (p.amount % 4)); return { rules: ['41'] }; },
  'component-name-empty': (g, p) => { pick(g, p).name = ''; return { rules: ['41'] }; },
  'component-name-duplicate': (g, p) => {
    const c = pick(g, p);
    const twin = JSON.parse(JSON.stringify(c)) as ComponentSpecJson;
    twin.name = /[a-z]/i.test(c.name!) ? swapCase(c.name!) : c.name;
    twin.type = 'worker';
    delete twin.eppConfig;
    components(g).push(twin);
    return { rules: ['14', '16'] };
  },
  'role-name-pattern': (g, p) => {
    const c = pick(g, p, true);
    c.multinode = { nodeCount: 2 };
    c.roles = [{ name: 'leader' }, { name: 'Worker_1' }];
    return { rules: ['70', '72'] };
  },
  'metadata-name-pattern': g => { g.metadata.name = `${g.metadata.name}_graph`; return { rules: ['schema', 'metadata'] }; },
  // missing required fields
  'main-image-missing': (g, p) => { delete mainContainer(pick(g, p)).image; return { rules: ['46'] }; },
  'main-container-missing': (g, p) => { mainContainer(pick(g, p)).name = 'engine'; return { rules: ['46', '90'] }; },
  'containers-missing': (g, p) => { delete pick(g, p).podTemplate!.spec.containers; return { rules: ['89', '46'] }; },
  'pod-template-missing': (g, p) => { delete pick(g, p).podTemplate; return { rules: ['46'] }; },
  'component-name-missing': (g, p) => { delete pick(g, p).name; return { rules: ['41'] }; },
  'components-empty': g => { g.spec.components = []; return { rules: ['17'] }; },
  'components-missing': g => { delete g.spec.components; return { rules: ['17'] }; },
  'metadata-name-missing': g => { delete g.metadata.name; return { rules: ['schema'] }; },
  'restart-id-missing': g => { g.spec.restart = { strategy: { type: 'Parallel' } } as any; return { rules: ['21', '11'] }; },
  'model-ref-name-missing': (g, p) => { pick(g, p).modelRef = { revision: 'main' } as any; return { rules: ['102'] }; },
  'compilation-cache-pvc-missing': (g, p) => { pick(g, p).compilationCache = { mountPath: '/cache' } as any; return { rules: ['101'] }; },
  'component-topology-pack-domain-missing': (g, p) => { pick(g, p).topologyConstraint = {} as any; return { rules: ['104'] }; },
  'topology-pack-domain-missing': g => { g.spec.topologyConstraint = { clusterTopologyName: 'cluster' }; return { rules: ['30'] }; },
  // values a rule forbids
  'replicas-negative': (g, p) => { pick(g, p).replicas = -1 - (p.amount % 5); return { rules: ['59'] }; },
  'too-many-components': g => {
    const base = components(g)[0];
    g.spec.components = Array.from({ length: 26 }, (_, i) => ({ ...JSON.parse(JSON.stringify(base)), name: `c${i}`, type: 'worker', eppConfig: undefined }));
    return { rules: ['14'] };
  },
  'two-epps': g => { components(g).push(eppLike('eppone'), eppLike('epptwo')); return { rules: ['15'] }; },
  'epp-replicas': (g, p) => { const c = eppLike('eppx'); c.replicas = 2 + (p.amount % 3); components(g).push(c); return { rules: ['58', '15'] }; },
  'epp-multinode': g => { const c = eppLike('eppy'); c.multinode = { nodeCount: 2 }; components(g).push(c); return { rules: ['57', '15'] }; },
  // the default operator (1.5.0) asks every EPP for eppConfig (row 51), old or native image
  'epp-legacy-without-config': g => { components(g).push(eppLike('eppz', 'nvcr.io/nvidia/ai-dynamo/dynamo-epp:1.2.0')); return { rules: ['51', '15'] }; },
  'epp-native-without-config': g => { components(g).push(eppLike('eppw', 'nvcr.io/nvidia/ai-dynamo/dynamo-epp:1.7.0')); return { rules: ['51', '15'] }; },
  'node-count-one': (g, p) => { const c = pick(g, p, true); c.multinode = { nodeCount: 1 }; delete c.roles; return { rules: ['67'] }; },
  'roles-single-node': (g, p) => { const c = pick(g, p, true); delete c.multinode; c.roles = [{ name: 'leader' }, { name: 'worker' }]; return { rules: ['71'] }; },
  'role-missing': (g, p) => { const c = pick(g, p, true); c.multinode = { nodeCount: 3 }; c.roles = [{ name: 'leader' }]; return { rules: ['72'] }; },
  'role-replicas': (g, p) => {
    const c = pick(g, p, true);
    c.multinode = { nodeCount: 2 + (p.amount % 3) };
    c.roles = [{ name: 'leader', replicas: 2 }, { name: 'worker' }];
    return { rules: ['73'] };
  },
  'origin-version': g => { annotate(g, 'nvidia.com/dynamo-operator-origin-version', 'one.two'); return { rules: ['1'] }; },
  'shared-memory-negative': (g, p) => { pick(g, p).sharedMemorySize = '-1Gi'; return { rules: ['100'] }; },
  'shared-memory-garbage': (g, p) => { pick(g, p).sharedMemorySize = 'lots'; return { rules: ['99'] }; },
  'runtime-version-pattern': (g, p) => { pick(g, p).runtimeVersionOverride = 'v1.2'; return { rules: ['45'] }; },
  'image-tag-without-override': (g, p) => {
    const c = pick(g, p, true);
    const main = mainContainer(c);
    main.image = `${String(main.image).replace(/:[^:/]*$/, '')}:latest`;
    delete c.runtimeVersionOverride;
    return { rules: ['47'] };
  },
  'sidecar-without-image': (g, p) => { pick(g, p).podTemplate!.spec.containers.push({ name: 'sidecar' }); return { rules: ['90'] }; },
  'init-container-without-image': (g, p) => { pick(g, p).podTemplate!.spec.initContainers = [{ name: 'init' }]; return { rules: ['91'] }; },
  'frontend-sidecar-unknown': (g, p) => { pick(g, p).frontendSidecar = 'no-such-container'; return { rules: ['103'] }; },
  'min-available-above-replicas': (g, p) => {
    const c = pick(g, p, true);
    c.replicas = 1;
    c.minAvailable = 2 + (p.amount % 3);
    return { rules: ['62', '64'] };
  },
  'min-available-without-grove': (g, p) => { pick(g, p).minAvailable = 1; return { rules: ['64'], grove: false }; },
  'priority-class-without-grove': g => { g.spec.priorityClassName = 'high'; return { rules: ['20'], grove: false }; },
  'force-scaling-group-without-grove': (g, p) => { pick(g, p).experimental = { grove: { forceScalingGroup: true } }; return { rules: ['129'], grove: false }; },
  'restart-parallel-with-order': g => {
    g.spec.restart = { id: 'r', strategy: { type: 'Parallel', order: components(g).map(c => c.name!) } };
    return { rules: ['23', '11'] };
  },
  'restart-order-duplicate': g => {
    const names = components(g).map(c => c.name!);
    g.spec.restart = { id: 'r', strategy: { type: 'Sequential', order: [...names, names[0]] } };
    return { rules: ['24', '11'] };
  },
  'restart-order-unknown': g => {
    g.spec.restart = { id: 'r', strategy: { type: 'Sequential', order: [...components(g).slice(1).map(c => c.name!), 'zz-unknown'] } };
    return { rules: ['26', '25', '11'] };
  },
  'restart-order-incomplete': g => {
    if (components(g).length < 2) components(g).push({ ...JSON.parse(JSON.stringify(components(g)[0])), name: 'zzextra', type: 'worker', eppConfig: undefined });
    g.spec.restart = { id: 'r', strategy: { type: 'Sequential', order: [components(g)[0].name!] } };
    return { rules: ['25', '11'] };
  },
  'unknown-component-field': (g, p) => { (pick(g, p) as any).replica = 1; return { rules: ['schema'] }; },
  'unknown-spec-field': g => { (g.spec as any).component = []; return { rules: ['schema'] }; },
};

/** Names of the mutations, sorted. */
export const MUTATION_NAMES = Object.keys(MUTATIONS).sort();

/** A mutated admissible graph: one mutation chosen at random, applied to a deep copy. */
export const mutatedGraph: fc.Arbitrary<MutatedGraph> = fc.record({
  base: anyFuzzGraph,
  mutation: fc.constantFrom(...MUTATION_NAMES),
  picks: fc.record({ index: fc.nat(30), amount: fc.nat(100), grove: fc.boolean() }),
}).map(({ base, mutation, picks }) => {
  const graph = JSON.parse(JSON.stringify(base.graph)) as DgdJson;
  const result = MUTATIONS[mutation](graph, picks);
  const grove = result.grove ?? (base.groveOnly || picks.grove);
  // a document as read from YAML: no undefined members
  return { mutation, graph: JSON.parse(JSON.stringify(graph)) as DgdJson, grove, expectRules: result.rules };
});
