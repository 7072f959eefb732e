/**
 * Renders one golden scenario and matches it against its expected objects. Shared by the
 * conformance runner (scripts/conformance.ts) and the jest tests, so both use the same namespace,
 * operator settings, output mode and asserted kinds.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import { matchScenario } from './matcher';
import {
  CONFORMANCE_NAMESPACE, CONFORMANCE_OPERATOR, CONFORMANCE_ORIGIN_VERSION, ConformanceOutputMode, OUTPUT_MODE_KINDS, scenarioOutputMode,
} from './supported';
import type { OperatorSettings } from '../../../src/engine/operator-settings';
import { isMap } from '../../../src/model/json';
import { isDgd } from '../../../src/model/v1beta1';
import { ANNOTATION_ORIGIN_VERSION } from '../../../src/model/well-known';
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
