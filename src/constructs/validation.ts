/** Synth-time validation of the custom resources a construct describes. */
import { Construct } from 'constructs';
import type { OperatorSettings } from '../engine/operator-settings';
import { pipeline, violationFormat } from '../lazy-modules';

/**
 * Violations of the document, as the given operator would admit it on create, as one message
 * each, prefixed by the construct path.
 */
export function constructValidation(scope: Construct, document: unknown, settings: OperatorSettings): string[] {
  const { formatViolation } = violationFormat();
  return pipeline().checkAndRender([{ documents: [document] }], { settings }).problems.map(p => `${scope.node.path}: ${formatViolation(p.violation!)}`);
}
