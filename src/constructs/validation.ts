/** Synth-time validation of the custom resources a construct describes. */
import { Construct } from 'constructs';
import { OperatorSettings } from '../engine/operator-settings';
import { checkAndRender } from '../pipeline/check-and-render';
import { formatViolation } from '../validation/violation';

/**
 * Violations of the document, as the given operator would admit it on create, as one message
 * each, prefixed by the construct path.
 */
export function constructValidation(scope: Construct, document: unknown, settings: OperatorSettings): string[] {
  return checkAndRender([{ documents: [document] }], { settings }).problems.map(p => `${scope.node.path}: ${formatViolation(p.violation!)}`);
}
