/**
 * Small Dynamo documents the tests build instead of retyping them: a component with only its
 * `main` container, a graph of components, a standalone DynamoComponentDeployment, and a few
 * shapes many tests start from (a frontend, a graph with a multinode worker).
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

/** A frontend component `Frontend` (its `main` container only the test image). */
export function frontend(extra: JsonObject = {}): JsonObject {
  return component('Frontend', 'frontend', extra);
}

/**
 * A graph `llm` in namespace `prod` of `framework` with a frontend and a decode worker on two
 * nodes, running `python3 -m dynamo.<framework> --model m --tensor-parallel-size 16` on 8 GPUs per
 * node; `decode` is merged into the decode component, `container` into its `main` container.
 */
export function multinodeGraph(framework: string, decode: JsonObject = {}, container: JsonObject = {}): DgdJson {
  const main = {
    command: ['python3', '-m', `dynamo.${framework}`],
    args: ['--model', 'm', '--tensor-parallel-size', '16'],
    resources: { limits: { 'nvidia.com/gpu': '8' } },
    ...container,
  };
  return graph([frontend(), component('decode', 'decode', { replicas: 1, multinode: { nodeCount: 2 }, ...decode }, main)],
    { backendFramework: framework }, { namespace: 'prod' });
}
