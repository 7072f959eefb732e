export type { Violation } from './violation';
export { formatViolation } from './violation';
export type { ValidateOptions } from './options';
export { validateDocument } from './validate';
export { IMPLEMENTED_RULES, NOT_APPLICABLE_RULES } from './rule-catalog';
export { STRUCTURAL_RULE } from './dynamo-schema';
