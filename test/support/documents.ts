/**
 * Small Dynamo documents the admission, command-line, import and eject tests build again and
 * again: a main container, a pod template, a component, a DynamoGraphDeployment of vLLM
 * components, a standalone DynamoComponentDeployment, a ConfigMap. Plain JSON, a new object on
 * every call (a test may edit what it gets).
 */

/** A vLLM runtime image whose tag is a semantic version (rule 47 needs none beside it). */
export const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

/** How a vLLM engine is started (a worker without a command starts nothing). */
export const VLLM_COMMAND: readonly string[] = ['python3', '-m', 'dynamo.vllm'];

/** The main container: `main`, the image, and `extra`. */
export function mainContainer(extra: Record<string, unknown> = {}): any {
  return { name: 'main', image: IMAGE, ...extra };
}

/** A pod template whose main container has the image and, optionally, a GPU limit (and `extra`). */
export function podTemplate(gpus?: string | number, extra: Record<string, any> = {}): any {
  const main: any = mainContainer(extra);
  if (gpus !== undefined) main.resources = { limits: { 'nvidia.com/gpu': gpus } };
  return { spec: { containers: [main] } };
}

/** What `component` puts in the pod template. */
export interface ComponentParts {
  /** GPUs of the main container (a `nvidia.com/gpu` limit, written as a string); none when 0 or absent. */
  readonly gpus?: number;
  /** More fields of the main container. */
  readonly main?: Record<string, unknown>;
  /** The pod template's metadata. */
  readonly podMetadata?: Record<string, unknown>;
}

/** A graph component: its name and type, a pod template with the main container, and the component fields of `extra`. */
export function component(name: string, type: string, parts: ComponentParts = {}, extra: Record<string, unknown> = {}): any {
  const main = mainContainer(parts.main);
  if (parts.gpus !== undefined && parts.gpus > 0) main.resources = { limits: { 'nvidia.com/gpu': String(parts.gpus) } };
  const template: any = { spec: { containers: [main] } };
  if (parts.podMetadata !== undefined) template.metadata = parts.podMetadata;
  return { name, type, podTemplate: template, ...extra };
}

/** A DynamoGraphDeployment of vLLM components, named (or with the metadata given), with more of `spec`. */
export function graphDocument(metadata: string | Record<string, unknown>, components: readonly unknown[], spec: Record<string, unknown> = {}): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: typeof metadata === 'string' ? { name: metadata } : metadata,
    spec: { backendFramework: 'vllm', components: [...components], ...spec },
  };
}

/** The frontend of the validation tests (`Frontend`, no GPU), plus `extra`. */
export function frontend(extra: Record<string, any> = {}): any {
  return { name: 'Frontend', type: 'frontend', podTemplate: podTemplate(), ...extra };
}

/** The worker of the validation tests (`worker`, one GPU), plus `extra`. */
export function worker(extra: Record<string, any> = {}): any {
  return { name: 'worker', type: 'worker', podTemplate: podTemplate('1'), ...extra };
}

/** A valid DGD: vLLM, a frontend and a worker, plus whatever `spec` and `metadata` add. */
export function dgd(spec: Record<string, any> = {}, metadata: Record<string, any> = {}): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'demo', ...metadata },
    spec: { backendFramework: 'vllm', components: [frontend(), worker()], ...spec },
  };
}

/** A valid DGD with the given components. */
export function dgdWith(...components: any[]): any {
  return dgd({ components });
}

/** A valid standalone DCD (a vLLM worker), plus whatever `spec` and `metadata` add. */
export function dcd(spec: Record<string, any> = {}, metadata: Record<string, any> = {}): any {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoComponentDeployment',
    metadata: { name: 'my-worker', ...metadata },
    spec: { backendFramework: 'vllm', type: 'worker', podTemplate: podTemplate('1'), ...spec },
  };
}

/** A ConfigMap (a document the commands pass through), with `data` when given. */
export function configMap(name: string, data?: Record<string, string>): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, ...(data === undefined ? {} : { data }) };
}
