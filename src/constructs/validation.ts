/** Synth-time validation of the custom resources a construct describes. */
import { Construct } from 'constructs';
import { validateOptionsFor } from '../engine/admission';
import { OperatorSettings } from '../engine/operator-settings';
import { formatViolation, validateDocument } from '../validation/validate';

/**
 * Violations of the document, as the given operator would admit it on create, as one message
 * each, prefixed by the construct path.
 */
export function constructValidation(scope: Construct, document: unknown, settings: OperatorSettings): string[] {
  return validateDocument(document, validateOptionsFor(settings)).map(v => `${scope.node.path}: ${formatViolation(v)}`);
}
