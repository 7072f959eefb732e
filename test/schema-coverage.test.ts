/**
 * Schema coverage of the constructs: every property path of the v1beta1 CRD schemas (outside the
 * embedded core Kubernetes types) must be settable through the typed construct API.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import { CrdSchemaNode, DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA } from '../imports/nvidia.com.schema';
import {
  BackendFramework, CheckpointConfig, CheckpointDeletionPolicy, CheckpointMode, CheckpointStartupPolicy, ComponentDeployment,
  ComponentOptions, ComponentType, DynamoGraph, EppConfig, Failover, GpuMemoryService, GpuSharingMode, KvTransferEnforcement,
  MultinodeRoleName, RestartStrategyType,
} from '../src';

// ---------------------------------------------------------------------------------------------
// Path collection
// ---------------------------------------------------------------------------------------------

function hasProperties(node: CrdSchemaNode): boolean {
  return node.properties !== undefined && Object.keys(node.properties).length > 0;
}

/** A node below which no property path is collected. */
function isLeaf(node: CrdSchemaNode): boolean {
  if (node.k8sType !== undefined) return true;
  if (node['x-kubernetes-preserve-unknown-fields'] && !hasProperties(node)) return true;
  return !hasProperties(node) && node.items === undefined && typeof node.additionalProperties !== 'object';
}

function additionalPropertiesOf(node: CrdSchemaNode): CrdSchemaNode | undefined {
  return typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined;
}

/** Every property path of a schema node, array items as `[]`, map values as `{}`. */
function schemaPaths(node: CrdSchemaNode, path: string, out: Set<string> = new Set()): Set<string> {
  out.add(path);
  if (isLeaf(node)) return out;
  for (const [name, child] of Object.entries(node.properties ?? {})) schemaPaths(child, `${path}.${name}`, out);
  if (node.items) schemaPaths(node.items, `${path}[]`, out);
  const values = additionalPropertiesOf(node);
  if (values) schemaPaths(values, `${path}{}`, out);
  return out;
}

/**
 * The property paths present in a value, guided by the schema: the walk stops at the schema's leaves
 * (embedded Kubernetes types, preserve-unknown-fields objects, scalars). A key unknown to the schema
 * is recorded but not descended into.
 */
function valuePaths(value: unknown, node: CrdSchemaNode | undefined, path: string, out: Set<string> = new Set()): Set<string> {
  if (value === undefined || value === null) return out;
  out.add(path);
  if (node === undefined || isLeaf(node)) return out;
  if (Array.isArray(value)) {
    for (const item of value) valuePaths(item, node.items, `${path}[]`, out);
    return out;
  }
  if (typeof value === 'object') {
    const values = additionalPropertiesOf(node);
    for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
      const property = node.properties?.[key];
      if (property) valuePaths(child, property, `${path}.${key}`, out);
      else if (values) valuePaths(child, values, `${path}{}`, out);
      else if (child !== undefined && child !== null) out.add(`${path}.${key}`);
    }
  }
  return out;
}

function specSchemaOf(schema: CrdSchemaNode): CrdSchemaNode {
  const spec = schema.properties?.spec;
  if (!spec) throw new Error('schema without spec');
  return spec;
}

function difference(a: Set<string>, b: Set<string>): string[] {
  return [...a].filter(p => !b.has(p)).sort();
}

function missingMessage(kind: string, missing: string[]): string {
  return `${missing.length} ${kind} schema path(s) cannot be set through the constructs:\n  ${missing.join('\n  ')}`;
}

// ---------------------------------------------------------------------------------------------
// Constructed documents
// ---------------------------------------------------------------------------------------------

const DGD_SPEC = specSchemaOf(DGD_V1BETA1_SCHEMA);
const DCD_SPEC = specSchemaOf(DCD_V1BETA1_SCHEMA);

function providerOverride(target: string) {
  return { apiVersion: 'grove.io/v1alpha1', target, value: { spec: { priorityClassName: 'high' } } };
}

function fullEppConfig(): EppConfig {
  return EppConfig.fromConfig({
    apiVersion: 'inference.networking.x-k8s.io/v1alpha1',
    kind: 'EndpointPickerConfig',
    featureGates: ['prepareDataPlugins'],
    plugins: [
      { name: 'queue', type: 'queue-scorer', parameters: { threshold: 3 } },
      { type: 'max-score-picker' },
    ],
    schedulingProfiles: [
      { name: 'default', plugins: [{ pluginRef: 'queue', weight: 2 }, { pluginRef: 'max-score-picker' }] },
    ],
    saturationDetector: { kvCacheUtilThreshold: 0.8, metricsStalenessThreshold: '200ms', queueDepthThreshold: 5 },
  });
}

/** Every top-level component option (besides EPP and experimental features). */
function commonOptions(): ComponentOptions {
  return {
    image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
    replicas: 2,
    minAvailable: 1,
    sharedMemorySize: kplus.k8s.Quantity.fromString('16Gi'),
    globalDynamoNamespace: true,
    modelRef: { name: 'Qwen/Qwen3-0.6B', revision: 'main' },
    scalingAdapter: true,
    frontendSidecar: 'sidecar',
    compilationCache: { pvcName: 'cache', mountPath: '/cache' },
    topologyConstraint: { packDomain: 'rack' },
    runtimeVersionOverride: '1.4.0',
    providerOverride: providerOverride('clique'),
  };
}

/** Every experimental feature, with job-based automatic checkpoints and intra-pod GMS. */
function experimentalAutomatic(): ComponentOptions {
  return {
    experimental: {
      gpuMemoryService: new GpuMemoryService({
        mode: GpuSharingMode.INTRA_POD,
        deviceClassName: 'gpu.nvidia.com',
        extraClientContainers: ['helper'],
      }),
      failover: new Failover({ mode: GpuSharingMode.INTRA_POD, numShadows: 1 }),
      checkpoint: CheckpointConfig.automatic({
        startupPolicy: CheckpointStartupPolicy.WAIT_FOR_CHECKPOINT,
        deletionPolicy: CheckpointDeletionPolicy.RETAIN,
        targetContainerName: 'main',
        jobGmsClientContainers: ['helper'],
        jobPodTemplate: { spec: { containers: [{ name: 'main', image: 'img' }] } },
        mode: CheckpointMode.AUTO,
        identity: {
          model: 'Qwen/Qwen3-0.6B',
          backendFramework: BackendFramework.VLLM,
          dynamoVersion: '1.4.0',
          tensorParallelSize: 2,
          pipelineParallelSize: 1,
          dtype: 'bf16',
          maxModelLen: 4096,
          extraParameters: { quantization: 'fp8' },
        },
      }),
      grove: { forceScalingGroup: true },
    },
  };
}

/** Inter-pod GMS client pods and a restore from an existing snapshot. */
function experimentalRestore(): ComponentOptions {
  return {
    experimental: {
      gpuMemoryService: new GpuMemoryService({
        mode: GpuSharingMode.INTER_POD,
        extraClientPods: [{ name: 'client', podTemplate: { spec: { containers: [{ name: 'client', image: 'img' }] } } }],
      }),
      failover: new Failover({ mode: GpuSharingMode.INTER_POD }),
      checkpoint: CheckpointConfig.restore('snapshot-1', { mode: CheckpointMode.MANUAL }),
    },
  };
}

interface Constructed {
  readonly graphs: DynamoGraph[];
  readonly deployments: ComponentDeployment[];
}

function construct(): Constructed {
  const chart = new Chart(Testing.app(), 'test');

  // graph 1: every graph-level setting, kvTransferPolicy by label key, every component kind
  const graph = new DynamoGraph(chart, 'Graph', {
    metadata: { name: 'coverage' },
    backendFramework: BackendFramework.VLLM,
    env: { LOG_LEVEL: kplus.EnvValue.fromValue('debug') },
    annotations: { 'example.com/a': 'b' },
    labels: { team: 'llm' },
    priorityClassName: 'high',
    topologyConstraint: { clusterTopologyName: 'default', packDomain: 'zone' },
    restart: { id: 'r1', strategy: RestartStrategyType.SEQUENTIAL, order: ['frontend', 'worker'] },
    kvTransferPolicy: {
      domain: 'zone',
      labelKey: 'topology.kubernetes.io/zone',
      enforcement: KvTransferEnforcement.PREFERRED,
      preferredWeight: 0.5,
    },
    providerOverride: providerOverride('podcliqueset'),
  });
  graph.addEnv('EXTRA', kplus.EnvValue.fromValue('1'));
  graph.addFrontend('frontend', commonOptions());
  graph.addWorker('worker', { ...experimentalAutomatic(), gpus: 1 });
  graph.addPrefillWorker('prefill', { gpus: 1 });
  graph.addDecodeWorker('decode', { ...experimentalRestore(), gpus: 1 });
  graph.addPlanner('planner');
  graph.addEpp('epp', { eppConfig: fullEppConfig() });
  graph.addComponent('untyped', { type: ComponentType.WORKER });
  graph.addMultinodeWorker('multinode', {
    type: ComponentType.DECODE,
    multinode: {
      nodeCount: 3,
      roles: [
        { name: MultinodeRoleName.LEADER, replicas: 1, providerOverride: providerOverride('leader') },
        { name: MultinodeRoleName.WORKER, replicas: 2 },
      ],
    },
  });

  // graph 2: the exclusive alternatives (kvTransferPolicy by ClusterTopology, EPP config from a ConfigMap)
  const graph2 = new DynamoGraph(chart, 'Graph2', {
    metadata: { name: 'coverage-2' },
    kvTransferPolicy: { domain: 'rack', clusterTopologyName: 'default', enforcement: KvTransferEnforcement.REQUIRED },
  });
  const configMap = kplus.ConfigMap.fromConfigMapName(chart, 'EppConfigMap', 'epp-config');
  graph2.addEpp('epp', { eppConfig: EppConfig.fromConfigMap(configMap, 'config.yaml', true) });

  // standalone component deployments
  const dcd = new ComponentDeployment(chart, 'Worker', {
    metadata: { name: 'worker' },
    name: 'worker',
    type: ComponentType.WORKER,
    backendFramework: BackendFramework.SGLANG,
    ...commonOptions(),
    ...experimentalAutomatic(),
  });
  const dcdRestore = new ComponentDeployment(chart, 'Restore', {
    metadata: { name: 'restore' },
    type: ComponentType.DECODE,
    multinode: { nodeCount: 2, roles: [{ name: MultinodeRoleName.LEADER, replicas: 1 }, { name: MultinodeRoleName.WORKER, replicas: 1 }] },
    ...experimentalRestore(),
  });
  const dcdEpp = new ComponentDeployment(chart, 'Epp', {
    metadata: { name: 'epp' },
    type: ComponentType.EPP,
    eppConfig: fullEppConfig(),
  });
  const dcdEppConfigMap = new ComponentDeployment(chart, 'EppFromConfigMap', {
    metadata: { name: 'epp-cm' },
    type: ComponentType.EPP,
    eppConfig: EppConfig.fromConfigMap(configMap, 'config.yaml', false),
  });

  return { graphs: [graph, graph2], deployments: [dcd, dcdRestore, dcdEpp, dcdEppConfigMap] };
}

function constructedPaths(docs: { toJson(): any }[], specSchema: CrdSchemaNode): Set<string> {
  const out = new Set<string>();
  for (const doc of docs) valuePaths(doc.toJson().spec, specSchema, 'spec', out);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

describe('schema path collection', () => {
  const dgdPaths = schemaPaths(DGD_SPEC, 'spec');
  const dcdPaths = schemaPaths(DCD_SPEC, 'spec');

  test('the walk is not vacuous', () => {
    expect(dgdPaths.size).toBeGreaterThan(80);
    expect(dcdPaths.size).toBeGreaterThan(60);
    expect(dgdPaths).toContain('spec.components[].experimental.checkpoint.identity.extraParameters{}');
    expect(dgdPaths).toContain('spec.components[].eppConfig.config.schedulingProfiles[].plugins[].weight');
    expect(dgdPaths).toContain('spec.env[]');
    expect(dcdPaths).toContain('spec.experimental.gpuMemoryService.extraClientPods[].podTemplate');
  });

  test('embedded Kubernetes types and preserve-unknown-fields objects are leaves', () => {
    const all = [...dgdPaths, ...dcdPaths];
    expect(all.filter(p => /podTemplate\.|configMapRef\.|spec\.env\[\]\.|sharedMemorySize\./.test(p))).toEqual([]);
    expect(all.filter(p => /providerOverride\.value\.|parameters\./.test(p))).toEqual([]);
    expect(dgdPaths).toContain('spec.components[].providerOverride.value');
    expect(dgdPaths).toContain('spec.components[].eppConfig.config.plugins[].parameters');
    expect(dgdPaths).toContain('spec.components[].scalingAdapter');
  });

  test('constructed paths stop at the schema leaves', () => {
    const { graphs } = construct();
    const paths = [...constructedPaths(graphs, DGD_SPEC)];
    expect(paths).toContain('spec.components[].podTemplate');
    expect(paths.filter(p => /podTemplate\.|configMapRef\.|spec\.env\[\]\.|value\.|parameters\./.test(p))).toEqual([]);
  });
});

describe('schema coverage of the constructs', () => {
  test('every DynamoGraphDeployment spec path can be set through DynamoGraph', () => {
    const expected = schemaPaths(DGD_SPEC, 'spec');
    const missing = difference(expected, constructedPaths(construct().graphs, DGD_SPEC));
    if (missing.length > 0) throw new Error(missingMessage('DynamoGraphDeployment', missing));
    expect(missing).toEqual([]);
  });

  test('every DynamoComponentDeployment spec path can be set through ComponentDeployment', () => {
    const expected = schemaPaths(DCD_SPEC, 'spec');
    const missing = difference(expected, constructedPaths(construct().deployments, DCD_SPEC));
    if (missing.length > 0) throw new Error(missingMessage('DynamoComponentDeployment', missing));
    expect(missing).toEqual([]);
  });

  test('negative self-check: dropping any one constructed path is detected', () => {
    const { graphs, deployments } = construct();
    const cases: [CrdSchemaNode, Set<string>][] = [
      [DGD_SPEC, constructedPaths(graphs, DGD_SPEC)],
      [DCD_SPEC, constructedPaths(deployments, DCD_SPEC)],
    ];
    let checked = 0;
    for (const [spec, constructed] of cases) {
      const expected = schemaPaths(spec, 'spec');
      for (const path of expected) {
        if (!constructed.has(path)) continue;
        const reduced = new Set(constructed);
        reduced.delete(path);
        expect(difference(expected, reduced)).toContain(path);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(80);
    const reduced = new Set(constructedPaths(graphs, DGD_SPEC));
    reduced.delete('spec.components[].experimental.grove.forceScalingGroup');
    expect(difference(schemaPaths(DGD_SPEC, 'spec'), reduced)).toContain('spec.components[].experimental.grove.forceScalingGroup');
  });
});
