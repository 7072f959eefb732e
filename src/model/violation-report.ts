/**
 * A broken admission rule, as every part of the library reports it (admission, the pipeline, the
 * CLI, the cdk8s plugin, constructs), and its one-line format.
 */

/**
 * One admission rule broken by a DynamoGraphDeployment or DynamoComponentDeployment.
 */
export interface Violation {
  /** Kind of the offending object, e.g. `DynamoGraphDeployment`. */
  readonly kind: string;
  /** `metadata.name` of the offending object (empty when it has none). */
  readonly name: string;
  /** Field path as the API server reports it, e.g. `spec.components[1].replicas`. */
  readonly path: string;
  /**
   * Name of the graph component the field belongs to, when `path` lies inside
   * `spec.components[i]` of a DynamoGraphDeployment and that component has a name.
   */
  readonly component?: string;
  /** The offending value, when there is one. */
  readonly value?: unknown;
  /**
   * What is wrong, phrased like a Kubernetes field error:
   * `Invalid value: -1: should be greater than or equal to 0`, `Required value: ...`,
   * `Unsupported value: "x": supported values: "a", "b"`, `Forbidden: ...`, `Duplicate value: ...`.
   */
  readonly message: string;
  /**
   * Id of the broken admission rule (see the admission rules, docs/admission-rules.md), e.g. `47`,
   * or `schema` for a structural error (wrong type, unknown field) no numbered rule covers.
   */
  readonly rule: string;
  /**
   * True when the document does not fit the schema at all: a value of the wrong JSON type or an
   * unknown field, whatever row it belongs to. Absent on every other violation.
   */
  readonly structural?: boolean;
  /**
   * Of an unknown field: the field the schema declares at that place whose name is closest to it
   * (a likely misspelling, `replica` for `replicas`). Absent when none is close.
   */
  readonly suggestion?: string;
}

/**
 * `Kind/name: field.path: message (rule N)`, one line. A field inside a named graph component
 * names it after the path: `Kind/name: spec.components[1].replicas (component "decode"): message (rule N)`.
 * A failed CEL rule without a numbered row (a rule of an emitted object's CRD) names its
 * expression after the rule: `(rule R: expression)`. The one violation format of the library
 * (documents, constructs, emitted objects).
 */
export function formatViolation(v: EmittedViolation): string {
  const where = v.path === '' ? '' : `${fieldText(v)}: `;
  const rule = v.expression === undefined ? v.rule : `${v.rule}: ${v.expression}`;
  return `${v.kind}/${v.name}: ${where}${v.message} (rule ${rule})`;
}

/** The field path, followed by the component's name when there is one: `spec.components[1].replicas (component "decode")`. */
export function fieldText(v: Pick<Violation, 'path' | 'component'>): string {
  return v.component === undefined ? v.path : `${v.path} (component ${JSON.stringify(v.component)})`;
}

/** One broken rule of an emitted object (a workload the operator would create). */
export interface EmittedViolation extends Violation {
  /** For a failed CEL rule of a CRD without a numbered row: the rule's expression. */
  readonly expression?: string;
}
