/**
 * Small Dynamo documents the tests build instead of retyping them: a component with only its
 * `main` container, a graph of components, a standalone DynamoComponentDeployment, and a few
 * shapes many tests start from (a frontend, a vLLM disaggregated graph, a multinode worker).
 * Every builder returns a fresh object the test may change.
 */
import type { DcdJson, DgdJson, JsonObject } from './facade';

/** A runtime image whose tag is a plain semantic version (the operator reads the version from it). */
export const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

/** The `main` container with the test image and `extra` fields. */
export function mainContainer(extra: JsonObject = {}): JsonObject {
  return { name: 'main', image: IMAGE, ...extra };
}

/**
 * A graph component `name` of `type` (none when undefined) whose pod template holds only the
 * `main` container (with `container` fields); `extra` is merged into the component (a
 * `podTemplate` there replaces the default one).
 */
export function component(name: string, type: string | undefined, extra: JsonObject = {}, container: JsonObject = {}): JsonObject {
  return { name, ...(type ? { type } : {}), podTemplate: { spec: { containers: [mainContainer(container)] } }, ...extra };
}

/** A DynamoGraphDeployment `llm` (vLLM) with these components; `spec` and `metadata` are merged over the defaults. */
export function graph(components: JsonObject[], spec: JsonObject = {}, metadata: JsonObject = {}): DgdJson {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', ...metadata },
    spec: { backendFramework: 'vllm', ...spec, components } as DgdJson['spec'],
  };
}

/** A standalone DynamoComponentDeployment `metadata.name` (default `llm-worker`) with this spec. */
export function standalone(spec: JsonObject, metadata: JsonObject = {}): DcdJson {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'llm-worker', ...metadata },
    spec: spec as DcdJson['spec'],
  };
}

/** A frontend component `Frontend` running `python3 -m dynamo.frontend`. */
export function frontend(extra: JsonObject = {}): JsonObject {
  return component('Frontend', 'frontend', extra, { command: ['python3', '-m', 'dynamo.frontend'] });
}

/** A worker `name` of `type` running `python3 -m dynamo.<framework>` with `args` and `gpus` GPUs (none when 0). */
export function worker(name: string, type: string, framework = 'vllm', args: string[] = ['--model', 'Qwen/Qwen3-0.6B'], gpus = 1): JsonObject {
  return component(name, type, {}, {
    command: ['python3', '-m', `dynamo.${framework}`],
    args,
    ...(gpus > 0 ? { resources: { limits: { 'nvidia.com/gpu': String(gpus) } } } : {}),
  });
}

/** A vLLM disaggregated graph: a frontend, a prefill worker and a decode worker. */
export function vllmDisagg(metadata: JsonObject = {}): DgdJson {
  return graph([frontend(), worker('prefill', 'prefill'), worker('decode', 'decode')], {}, metadata);
}

/**
 * A graph `llm` of `framework` whose one component is worker `name` (type `type`) on `nodeCount`
 * nodes with `gpus` GPUs per node, running `python3 -m dynamo.<framework>` with `args`.
 */
export interface MultinodeGraphOptions {
  readonly name?: string;
  readonly type?: string;
  readonly nodeCount?: number;
  readonly gpus?: number;
  readonly args?: string[];
}

export function multinodeGraph(framework: string, options: MultinodeGraphOptions = {}): DgdJson {
  const name = options.name ?? 'worker';
  const w = worker(name, options.type ?? 'worker', framework, options.args ?? ['--model', 'm'], options.gpus ?? 8);
  return graph([{ ...w, multinode: { nodeCount: options.nodeCount ?? 2 } }], { backendFramework: framework });
}
