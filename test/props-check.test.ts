/**
 * Props as JavaScript and the other jsii languages can pass them (no compile-time types): every
 * public construct checks its props where they enter, with the construct path, the prop path, the
 * value and what was expected.
 */
import { Chart, Testing } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import {
  CheckpointConfig, CheckpointConfigProps, ComponentDeployment, ComponentDeploymentProps, ComponentProps, DynamoGraph, DynamoGraphProps,
  EppConfig, Failover, FailoverProps, GpuMemoryService, GpuMemoryServiceProps,
} from '../src';
import {
  CHECKPOINT_CONFIG_PROPS, COMPONENT_DEPLOYMENT_PROPS, COMPONENT_PROPS, FAILOVER_PROPS,
  GPU_MEMORY_SERVICE_PROPS, GRAPH_PROPS,
} from '../src/constructs/props-check';

// the tables name exactly the props of the interfaces (a prop added to an interface must be added to its table)
type KeyDifference<A, B> = [Exclude<keyof A, keyof B>, Exclude<keyof B, keyof A>];
type SameKeys<A, B> = KeyDifference<A, B> extends [never, never] ? true : KeyDifference<A, B>;
const graphTable: SameKeys<Required<DynamoGraphProps>, typeof GRAPH_PROPS> = true;
const componentTable: SameKeys<Required<ComponentProps> & { multinode: unknown }, typeof COMPONENT_PROPS> = true;
const deploymentTable: SameKeys<Required<ComponentDeploymentProps>, typeof COMPONENT_DEPLOYMENT_PROPS> = true;
const gmsTable: SameKeys<Required<GpuMemoryServiceProps>, typeof GPU_MEMORY_SERVICE_PROPS> = true;
const failoverTable: SameKeys<Required<FailoverProps>, typeof FAILOVER_PROPS> = true;
const checkpointTable: SameKeys<Required<CheckpointConfigProps>, typeof CHECKPOINT_CONFIG_PROPS> = true;
void [graphTable, componentTable, deploymentTable, gmsTable, failoverTable, checkpointTable];

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

function chart(): Chart {
  return new Chart(Testing.app(), 'test');
}

/** The message of constructing a graph with `props` (as an untyped caller would pass them). */
function graphError(props: unknown): string {
  try {
    new DynamoGraph(chart(), 'Graph', props as DynamoGraphProps);
  } catch (e) {
    return (e as Error).message;
  }
  return '(no error)';
}

function workerError(props: unknown): string {
  const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
  try {
    graph.addWorker('w', props as ComponentProps);
  } catch (e) {
    return (e as Error).message;
  }
  return '(no error)';
}

describe('DynamoGraph props from untyped callers', () => {
  test.each([
    [null, 'test/Graph: props: Invalid value: null: must be an object (DynamoGraphProps) or left out'],
    ['g', 'test/Graph: props: Invalid value: "g": must be an object (DynamoGraphProps) or left out'],
    [[], 'test/Graph: props: Invalid value: []: must be an object (DynamoGraphProps) or left out'],
    [{ metadata: 'g' }, 'test/Graph: metadata: Invalid value: "g": must be an object'],
    [{ metadata: { name: 7 } }, 'test/Graph: metadata.name: Invalid value: 7: must be a string'],
    [{ metadata: { name: 'g', labels: { a: 1 } } }, 'test/Graph: metadata.labels.a: Invalid value: 1: must be a string'],
    [{ output: 'yaml' }, 'test/Graph: output: Invalid value: "yaml": must be one of "graph", "components", "workloads" (OutputMode)'],
    [{ operator: { groveAvailable: 'yes' } }, 'test/Graph: operator.groveAvailable: Invalid value: "yes": must be true or false'],
    [{ operator: { grove: true } }, 'test/Graph: operator.grove: unknown property; known properties: '],
    [{ operator: { registrySecrets: [{ name: 's', registries: 'nvcr.io' }] } }, 'test/Graph: operator.registrySecrets[0].registries: Invalid value: "nvcr.io": must be a list of strings'],
    [{ operator: { registrySecrets: [{ name: 's' }] } }, 'test/Graph: operator.registrySecrets[0].registries: Required value: a registry secret has a name and a list of registries'],
    [{ operator: { registrySecrets: [{ name: '', registries: [] }] } }, 'test/Graph: operator.registrySecrets[0].name: Invalid value: "": must be a non-empty string'],
    [{ backendFramework: 'pytorch' }, 'test/Graph: backendFramework: Invalid value: "pytorch": must be one of "vllm", '],
    [{ env: { HF_HOME: '/cache' } }, 'test/Graph: env.HF_HOME: Invalid value: "/cache": must be an EnvValue (EnvValue.fromValue(...), EnvValue.fromSecretValue(...), ...)'],
    [{ env: ['HF_HOME=/cache'] }, 'test/Graph: env: Invalid value: ["HF_HOME=/cache"]: must be a map of environment variable names to EnvValue'],
    [{ annotations: { a: true } }, 'test/Graph: annotations.a: Invalid value: true: must be a string'],
    [{ restart: { id: 'r', order: 'a,b' } }, 'test/Graph: restart.order: Invalid value: "a,b": must be a list of strings'],
    [{ kvTransferPolicy: { domain: 'rack', preferredWeight: '5' } }, 'test/Graph: kvTransferPolicy.preferredWeight: Invalid value: "5": must be a finite number'],
    [{ backend_framework: 'vllm' }, 'test/Graph: backend_framework: unknown property; known properties: '],
  ])('%j', (props, message) => {
    expect(graphError(props).startsWith(message)).toBe(true);
  });

  test('metadata may carry other fields as cdk8s allows them (generateName)', () => {
    expect(graphError({ metadata: { name: 'g', generateName: 'g-' } })).toBe('(no error)');
  });

  test('well-typed props pass, with EnvValues from cdk8s-plus', () => {
    expect(graphError({ metadata: { name: 'g' }, env: { A: kplus.EnvValue.fromValue('1') }, operator: { groveAvailable: true } })).toBe('(no error)');
  });
});

describe('component props from untyped callers', () => {
  test.each([
    [{ command: 'python3 -m dynamo.vllm' }, 'test/Graph/w: command: Invalid value: "python3 -m dynamo.vllm": must be a list of strings'],
    [{ args: ['--model', 3] }, 'test/Graph/w: args[1]: Invalid value: 3: must be a string'],
    [{ image: 5 }, 'test/Graph/w: image: Invalid value: 5: must be a string'],
    [{ env: { A: 'b' } }, 'test/Graph/w: env.A: Invalid value: "b": must be an EnvValue'],
    [{ gpus: '1' }, 'test/Graph/w: gpus: Invalid value: "1": must be a finite number'],
    [{ gpus: Infinity }, 'test/Graph/w: gpus: Invalid value: Infinity: must be a finite number'],
    [{ replicas: NaN }, 'test/Graph/w: replicas: Invalid value: NaN: must be a finite number'],
    [{ podTemplate: 'x' }, 'test/Graph/w: podTemplate: Invalid value: "x": must be an object'],
    [{ experimental: { failover: true } }, 'test/Graph/w: experimental.failover: Invalid value: true: must be a Failover'],
    [{ modelRef: { name: 'm', revision: 1 } }, 'test/Graph/w: modelRef.revision: Invalid value: 1: must be a string'],
    [{ comand: ['x'] }, 'test/Graph/w: comand: unknown property; known properties: '],
  ])('%j', (props, message) => {
    expect(workerError(props).startsWith(message)).toBe(true);
  });

  test('the component type of addComponent', () => {
    const graph = new DynamoGraph(chart(), 'Graph', { metadata: { name: 'g' } });
    expect(() => graph.addComponent('c', { type: 'router' } as unknown as ComponentProps))
      .toThrow('test/Graph/c: type: Invalid value: "router": must be one of "frontend", "worker", "prefill", "decode", "planner", "epp" (ComponentType)');
  });

  test('a standalone component deployment checks its own props and its component\'s', () => {
    expect(() => new ComponentDeployment(chart(), 'Dcd', null as unknown as ComponentDeploymentProps))
      .toThrow('test/Dcd: props: Invalid value: null: must be an object (ComponentDeploymentProps) or left out');
    expect(() => new ComponentDeployment(chart(), 'Dcd', { image: IMAGE, output: 'all' } as unknown as ComponentDeploymentProps))
      .toThrow('test/Dcd: output: Invalid value: "all": must be one of "graph", "components", "workloads" (OutputMode)');
    expect(() => new ComponentDeployment(chart(), 'Dcd', { image: IMAGE, metadata: { name: 'd' }, multinode: { nodeCount: '2' } } as unknown as ComponentDeploymentProps))
      .toThrow('test/Dcd: multinode.nodeCount: Invalid value: "2": must be a finite number');
    expect(() => new ComponentDeployment(chart(), 'Dcd', { image: IMAGE, metadata: { name: 'd' } })).not.toThrow();
  });
});

describe('the props of the value classes from untyped callers', () => {
  test.each([
    [() => new GpuMemoryService({ deviceClass: 'gpu.nvidia.com' } as any), 'GpuMemoryService: deviceClass: unknown property; known properties: deviceClassName, '],
    [() => new GpuMemoryService({ mode: 'shared' } as any), 'GpuMemoryService: mode: Invalid value: "shared": must be one of '],
    [() => new Failover({ numShadows: '1' } as any), 'Failover: numShadows: Invalid value: "1": must be a finite number'],
    [() => new CheckpointConfig({ checkpointref: 'c' } as any), 'CheckpointConfig: checkpointref: unknown property; known properties: '],
    [() => CheckpointConfig.restore('c', { identity: { model: 'm', backendFramework: 'vllm', extraParameters: { a: 1 } } } as any),
      'CheckpointConfig: identity.extraParameters.a: Invalid value: 1: must be a string'],
    [() => EppConfig.fromConfig({ plugins: [{ at: new Date(0) }] }), 'EppConfig.fromConfig: config.plugins[0].at: Invalid value: "1970-01-01T00:00:00.000Z": must be a JSON value'],
    [() => EppConfig.fromConfig('x' as any), 'EppConfig.fromConfig: config: Invalid value: "x": must be an object'],
    [() => EppConfig.fromConfigMap({ name: 'cm' } as any, 3 as any), 'EppConfig.fromConfigMap: key: Invalid value: 3: must be a string'],
  ])('%#', (make, message) => {
    expect(make).toThrow(message);
  });

  test('well-typed props pass', () => {
    expect(() => new GpuMemoryService({ deviceClassName: 'gpu.nvidia.com', extraClientContainers: ['a'] })).not.toThrow();
    expect(() => CheckpointConfig.automatic({ jobGmsClientContainers: ['a'] })).not.toThrow();
  });
});
