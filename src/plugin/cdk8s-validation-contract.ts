/**
 * The part of the cdk8s CLI validation-plugin contract (`cdk8s-cli` `lib/plugins/validation`) this
 * library uses, declared here so that the public API does not depend on the CLI package. The CLI
 * hands its own context object to `validate`; these interfaces describe the members read from it.
 */

/** A synthesized object that breaks a rule, as the cdk8s validation report lists it. */
export interface ValidationViolatingResource {
  /**
   * `metadata.name` of the object; the cdk8s CLI looks the construct path up by this name.
   */
  readonly resourceName: string;
  /** Where in the object the rule is broken: field paths such as `spec.components[0].replicas`. */
  readonly locations: string[];
  /** The synthesized manifest file holding the object. */
  readonly manifestPath: string;
}

/** One entry of the cdk8s validation report. */
export interface ValidationViolation {
  /** Name of the broken rule, the entry's title in the report. */
  readonly ruleName: string;
  /** What is wrong, shown as `Recommendation:` in the report. */
  readonly recommendation: string;
  /** How to fix it, shown as `How to fix:` in the report. */
  readonly fix: string;
  /** The objects breaking the rule. */
  readonly violatingResources: ValidationViolatingResource[];
}

/** The report a validation plugin fills in (`context.report` in the cdk8s CLI). */
export interface IValidationReport {
  /** Adds one entry; must be called before `submit`. */
  addViolation(violation: ValidationViolation): void;
  /**
   * Closes the report. The cdk8s CLI accepts the statuses `success` and `failure`; a failure makes
   * `cdk8s synth` exit with code 2 after printing every report.
   * @param status `success` or `failure`
   * @param metadata extra rows of the report summary
   */
  submit(status: string, metadata?: { [key: string]: string }): void;
}

/** Logging for plugins (`context.logger` in the cdk8s CLI). */
export interface IValidationLogger {
  /** Writes one message. */
  log(message: string): void;
}

/** What the cdk8s CLI hands a validation plugin (`ValidationContext` in `cdk8s-cli`). */
export interface IValidationContext {
  /** Paths of the synthesized manifest files. */
  readonly manifests: string[];
  /** The report to fill in and submit. */
  readonly report: IValidationReport;
  /** Where to log progress messages. */
  readonly logger: IValidationLogger;
}
