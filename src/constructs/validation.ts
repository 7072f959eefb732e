/** Synth-time validation of the custom resources a construct describes. */
import { Construct } from 'constructs';
import { formatViolation, validateDocument } from '../validation/validate';

/** Violations of the document as one message each, prefixed by the construct path. */
export function graphValidation(scope: Construct, document: unknown): string[] {
  return validateDocument(document).map(v => `${scope.node.path}: ${formatViolation(v)}`);
}
