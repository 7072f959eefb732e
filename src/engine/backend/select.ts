/**
 * Which backend renders a DCD (docs/design/render-core.md §5.2 step 2, §4.2): non-worker components use no
 * backend; a worker uses the framework its `main` command line runs (`python… -m dynamo.<fw>`),
 * else `spec.backendFramework`, else none. A command line naming a framework other than
 * `spec.backendFramework` is refused, as is one naming several when nothing is declared.
 */
import { Backend } from './backend';
import { NOOP_BACKEND } from './noop';
import { runsDynamoModule } from './python-launch';
import { SGLANG_BACKEND } from './sglang';
import { TRTLLM_BACKEND } from './trtllm';
import { VLLM_BACKEND } from './vllm';
import { RenderError } from '../../model/render-error';
import { DcdSpecJson, isWorkerType } from '../../model/v1beta1';
import { mainContainer } from '../component-runtime-version';

const BACKENDS: Readonly<Record<string, Backend>> = {
  vllm: VLLM_BACKEND,
  sglang: SGLANG_BACKEND,
  trtllm: TRTLLM_BACKEND,
  noop: NOOP_BACKEND,
};

/**
 * The frameworks a command line runs, each tested on its own (`python… -m …dynamo.<fw>…` within
 * one shell pipeline segment), so a line naming two frameworks is reported as naming both.
 */
export function frameworksRunBy(words: readonly string[]): string[] {
  const line = words.join(' ');
  return DETECTED_FRAMEWORKS.filter(framework => runsDynamoModule(line, framework));
}

/** The frameworks the operator detects from a command line. */
const DETECTED_FRAMEWORKS: readonly string[] = ['vllm', 'sglang', 'trtllm'];

/** The backend of a framework name, or undefined for an unknown name. */
export function backendByName(framework: string): Backend | undefined {
  return Object.prototype.hasOwnProperty.call(BACKENDS, framework) ? BACKENDS[framework] : undefined;
}

/** The backend that renders a DCD with this spec; `objectRef` names the DCD in errors. */
export function selectBackend(spec: DcdSpecJson, objectRef: string): Backend {
  if (!isWorkerType(spec.type)) return NOOP_BACKEND;
  const main = mainContainer(spec);
  const words = [...(Array.isArray(main?.command) ? main.command : []), ...(Array.isArray(main?.args) ? main.args : [])].map(String);
  const detected = frameworksRunBy(words);
  const declared = spec.backendFramework || undefined;
  const field = 'spec.podTemplate.spec.containers[main]';
  if (detected.length === 1 && declared && detected[0] !== declared) {
    throw new RenderError(objectRef, field,
      `backend framework mismatch: the command line runs dynamo.${detected[0]} but spec.backendFramework is ${declared}`);
  }
  const framework = detected.length === 1 ? detected[0] : declared;
  if (framework === undefined) {
    if (detected.length > 1) {
      throw new RenderError(objectRef, field,
        `cannot determine the backend framework: the command line runs ${detected.map(f => `dynamo.${f}`).join(' and ')}; set spec.backendFramework`);
    }
    return NOOP_BACKEND;
  }
  const backend = backendByName(framework);
  if (!backend) throw new RenderError(objectRef, 'spec.backendFramework', `unsupported backend framework "${framework}"`);
  return backend;
}
