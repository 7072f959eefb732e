/**
 * Renders one golden scenario and matches it against its expected objects. Shared by the
 * conformance runner (scripts/conformance.ts) and the jest tests, so both use the same namespace,
 * operator settings, output mode and asserted kinds.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import { matchScenario } from './matcher';
import type { OperatorSettings } from '../facade';
import {
  CONFORMANCE_NAMESPACE, CONFORMANCE_OPERATOR, CONFORMANCE_ORIGIN_VERSION, ConformanceOutputMode, OUTPUT_MODE_KINDS, scenarioOutputMode,
} from './supported';
import { ANNOTATION_ORIGIN_VERSION, isDgd, isMap } from '../../../src/model';
import { renderDocuments } from '../../../src/pipeline/check-and-render';

/** The options a scenario is rendered with. */
export interface ScenarioRenderOptions {
  readonly output: ConformanceOutputMode;
  readonly namespace: string;
  readonly operator: Partial<OperatorSettings>;
}

/** A renderer under test: the engine's `renderDocuments` or a stand-in. */
export type ScenarioRenderer = (docs: unknown[], options: ScenarioRenderOptions) => readonly unknown[];

/** The parsed files of one scenario. */
export interface ScenarioDocuments {
  /** The documents of `input.yaml`. */
  readonly input: unknown[];
  /** The documents of `output.yaml`. */
  readonly expected: unknown[];
}

/** What happened to one scenario. */
export type ScenarioOutcome =
  | { readonly kind: 'matched'; readonly mode: ConformanceOutputMode; readonly rendered: number }
  | { readonly kind: 'different'; readonly mode: ConformanceOutputMode; readonly differences: string[] }
  | { readonly kind: 'error'; readonly mode: ConformanceOutputMode; readonly message: string };

/** The render options of a scenario: its output mode, the conformance namespace and operator. */
export function scenarioRenderOptions(id: string): ScenarioRenderOptions {
  return { output: scenarioOutputMode(id), namespace: CONFORMANCE_NAMESPACE, operator: { ...CONFORMANCE_OPERATOR } };
}

/**
 * The input of a scenario as the goldens' operator received it: every graph without an origin
 * version gets CONFORMANCE_ORIGIN_VERSION (see there). The documents are not modified.
 */
export function scenarioInput(input: readonly unknown[]): unknown[] {
  return input.map(doc => {
    if (!isDgd(doc) || !isMap(doc.metadata)) return doc;
    const annotations: Record<string, string> = isMap(doc.metadata.annotations) ? doc.metadata.annotations : {};
    if (annotations[ANNOTATION_ORIGIN_VERSION] !== undefined) return doc;
    return { ...doc, metadata: { ...doc.metadata, annotations: { ...annotations, [ANNOTATION_ORIGIN_VERSION]: CONFORMANCE_ORIGIN_VERSION } } };
  });
}

/**
 * Renders the scenario's input (`scenarioInput`) and matches the result against its expected
 * documents, on the kinds its output mode is asserted on. A render failure is an `error` outcome
 * (never a throw).
 */
export function runScenario(id: string, docs: ScenarioDocuments, render: ScenarioRenderer = renderDocuments): ScenarioOutcome {
  const options = scenarioRenderOptions(id);
  const mode = options.output;
  let rendered: readonly unknown[];
  try {
    rendered = render(scenarioInput(docs.input), options);
  } catch (e) {
    return { kind: 'error', mode, message: `render failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  const kinds = OUTPUT_MODE_KINDS[mode];
  const result = matchScenario([...docs.expected], [...rendered], { kinds: kinds ? [...kinds] : undefined });
  return result.matched
    ? { kind: 'matched', mode, rendered: rendered.length }
    : { kind: 'different', mode, differences: result.differences };
}

/** What the stage a partial scenario is asserted up to gave. */
export interface PartialStageResult {
  readonly ok: boolean;
  /** What was checked, or why it failed. */
  readonly message: string;
}

/**
 * The stage of a DynamoGraphDeploymentRequest scenario before profiling: every request of the
 * input is admitted (the render refuses a request the operator would refuse) and renders, in
 * workloads output, its profiling Job `profile-<name>` in the conformance namespace running the
 * request's image.
 */
export function runPartialStage(docs: ScenarioDocuments, render: ScenarioRenderer = renderDocuments): PartialStageResult {
  const requests = docs.input.filter((d): d is { metadata: { name: string }; spec: { image?: string } } =>
    isMap(d) && d.apiVersion === 'nvidia.com/v1beta1' && d.kind === 'DynamoGraphDeploymentRequest');
  if (requests.length === 0) return { ok: false, message: 'no DynamoGraphDeploymentRequest in input.yaml' };
  let rendered: readonly unknown[];
  try {
    rendered = render(scenarioInput(docs.input), { ...scenarioRenderOptions('dgdr'), output: 'workloads' });
  } catch (e) {
    return { ok: false, message: `render failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  for (const request of requests) {
    const name = `profile-${request.metadata.name}`;
    const job = rendered.find((o: any) => o?.apiVersion === 'batch/v1' && o.kind === 'Job' && o.metadata?.name === name
      && o.metadata?.namespace === CONFORMANCE_NAMESPACE) as any;
    if (!job) return { ok: false, message: `no profiling Job ${CONFORMANCE_NAMESPACE}/${name} rendered` };
    const profiler = job.spec?.template?.spec?.containers?.find((c: any) => c.name === 'profiler');
    if (request.spec?.image !== undefined && profiler?.image !== request.spec.image) {
      return { ok: false, message: `the profiling Job ${name} runs ${JSON.stringify(profiler?.image)}, not the request's image` };
    }
  }
  const kinds = rendered.map((o: any) => `${o.kind}/${o.metadata?.name}`).join(', ');
  return { ok: true, message: `admitted; ${kinds} rendered` };
}
