/** Synth-time validation of the custom resources a construct describes. */
import { Construct } from 'constructs';
import { OperatorOptions } from './operator-options';
import { validateOptionsFor } from '../engine/admission';
import { resolveOperatorSettings } from '../engine/operator-settings';
import { formatViolation, validateDocument } from '../validation/validate';

/**
 * Violations of the document, as the given operator would admit it on create, as one message
 * each, prefixed by the construct path.
 */
export function constructValidation(scope: Construct, document: unknown, operator: OperatorOptions | undefined): string[] {
  const options = validateOptionsFor(resolveOperatorSettings({ ...(operator ?? {}) }));
  return validateDocument(document, options).map(v => `${scope.node.path}: ${formatViolation(v)}`);
}
