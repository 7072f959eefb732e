/**
 * A cdk8s validation plugin: after `cdk8s synth` writes the manifests, every Dynamo custom resource
 * in them is checked the way the cluster would admit it on create, and so is every other object of
 * a kind the library has a schema of (the objects of `workloads` output).
 */
import * as fs from 'fs';
import { IValidationContext, ValidationViolation } from './cdk8s-validation-contract';
import { operatorSettingsOfProperties } from './plugin-properties';
import { OperatorOptions } from '../constructs/operator-options';
import { parseYamlDocuments } from '../import/documents';
import { pipeline, ruleDocs } from '../lazy-modules';
import type { OperatorSettings } from '../model/operator-settings';
import { isDcd, isDgd } from '../model/v1beta1';
import { fieldText } from '../model/violation-report';
import type { EmittedViolation } from '../model/violation-report';

export * from './cdk8s-validation-contract';

/**
 * Properties of `DynamoValidationPlugin`, written under `properties:` of its entry in the
 * `validations:` list of `cdk8s.yaml`: the operator options (same names and meaning as
 * `OperatorOptions`), and optionally the values file of the platform chart release and the
 * operator's configuration file. Each source wins over the one before it: the defaults of a default
 * platform install, the Helm values, the configuration file, the options given here.
 */
export interface DynamoValidationPluginProps extends OperatorOptions {
  /**
   * Path of the operator's configuration file (read like `OperatorConfiguration.fromFile`),
   * relative to the directory `cdk8s` runs in.
   * @default - no file: the Helm defaults, changed by the other properties
   */
  readonly operatorConfigFile?: string;
  /**
   * Path of a values file of the platform chart release (read like
   * `OperatorConfiguration.fromHelmValuesFile`), relative to the directory `cdk8s` runs in.
   * @default - no values file
   */
  readonly helmValuesFile?: string;
  /**
   * Release name of `helmValuesFile` (needs it).
   * @default "dynamo-platform"
   */
  readonly helmReleaseName?: string;
  /**
   * Release namespace of `helmValuesFile` (needs it).
   * @default "dynamo-system"
   */
  readonly helmNamespace?: string;
}

/** Rule name prefix of the report entries. */
const RULE_PREFIX = 'dynamo-admission';

/**
 * Validates every DynamoGraphDeployment and DynamoComponentDeployment (`nvidia.com/v1beta1`) in the
 * synthesized manifests against the create-time admission rules of the configured operator
 * (schema, CEL rules, validating webhooks, after defaulting), like `cdk8s-dynamo validate`.
 *
 * Every other object of a kind the library knows (core Kubernetes kinds, Grove PodCliqueSet,
 * LeaderWorkerSet, SnapshotJob, PodSnapshot) is checked as the API server checks it on create: its
 * schema and its CRD's CEL rules (`checkEmittedObject`); objects of other kinds are skipped.
 *
 * Each broken rule becomes one entry of the cdk8s report, titled `dynamo-admission/rule-<id>`
 * (`dynamo-admission/rule-schema` for a value of the wrong type or an unknown field), listing the
 * object, the manifest and the field path; the message says what is wrong, and the fix names the
 * rule, how to fix it and where it is documented: the admission rules
 * (`docs/admission-rules.md#rule-<id>` in the installed package). The report fails when there is
 * any violation, and `cdk8s synth` then exits with code 2.
 *
 * Declare it in `cdk8s.yaml`:
 *
 * ```yaml
 * validations:
 *   - package: ./node_modules/cdk8s-dynamo
 *     version: 0.0.0
 *     class: DynamoValidationPlugin
 *     properties:
 *       groveAvailable: true
 * ```
 */
export class DynamoValidationPlugin {
  private readonly settings: OperatorSettings;

  /**
   * @param props the plugin's `properties` from `cdk8s.yaml`; throws on an unknown property, a value of the wrong type, or an unreadable operator configuration file
   */
  constructor(props: DynamoValidationPluginProps = {}) {
    const settings = operatorSettingsOfProperties(props as { readonly [key: string]: unknown }, process.cwd());
    this.settings = settings;
  }

  /**
   * Validates the manifests of `context`, adds one report entry per violation and submits the
   * report: `failure` when there is any violation (or a manifest cannot be read), else `success`.
   */
  public async validate(context: IValidationContext): Promise<void> {
    let objects = 0;
    let others = 0;
    let violations = 0;
    for (const manifestPath of context.manifests) {
      const { docs, problem } = readManifest(manifestPath);
      if (problem !== undefined) {
        violations++;
        context.report.addViolation(unreadableManifest(manifestPath, problem));
        continue;
      }
      // the one check of the library: each Dynamo object as the operator admits it on create, every
      // other object of a known kind as the API server checks it on create
      for (const doc of docs) {
        if (isDgd(doc) || isDcd(doc)) objects++;
        else if (pipeline().isCheckedKind(doc)) others++;
      }
      for (const found of pipeline().checkAndRender([{ documents: docs }], { settings: this.settings, checkOtherObjects: true }).problems) {
        violations++;
        context.report.addViolation(reportEntry(found.violation!, manifestPath));
      }
    }
    context.report.submit(violations > 0 ? 'failure' : 'success', {
      'Dynamo objects': String(objects),
      'Other objects checked': String(others),
      'Violations': String(violations),
      'Operator version': this.settings.version,
      'Grove': this.settings.groveAvailable ? 'available' : 'not available',
    });
  }
}

function readManifest(manifestPath: string): { docs: unknown[]; problem?: string } {
  try {
    // an empty chart gives an empty manifest: nothing to check, not an error
    return { docs: parseYamlDocuments(fs.readFileSync(manifestPath, 'utf8'), manifestPath, { allowEmpty: true }) };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { docs: [], problem: code !== undefined ? `${manifestPath}: cannot read file: ${code}` : (e as Error).message };
  }
}

/**
 * The rule a violation breaks, for the fix text: its id and title, how to fix it, and where the
 * installed package documents it.
 */
function brokenRule(v: EmittedViolation): string {
  // where the rules are documented, in the project that installed the package
  const { INSTALLED_ADMISSION_RULES_DOC, ruleDoc, ruleDocAnchor } = ruleDocs();
  const doc = ruleDoc(v.rule);
  const where = `See ${INSTALLED_ADMISSION_RULES_DOC}#${ruleDocAnchor(v.rule)}.`;
  if (doc === undefined) return `Rule ${v.rule}. ${where}`;
  const expression = v.expression === undefined ? '' : `: \`${v.expression}\``;
  const schemaOf = v.rule === 'schema' && !isDynamoKind(v.kind) ? `, here the schema of ${v.kind}` : '';
  return `Rule ${v.rule} (${doc.title}${expression}${schemaOf}): ${doc.fix} ${where}`;
}

function isDynamoKind(kind: string): boolean {
  return kind === 'DynamoGraphDeployment' || kind === 'DynamoComponentDeployment';
}

/** The report entry of one violation. */
function reportEntry(v: EmittedViolation, manifestPath: string): ValidationViolation {
  const object = `${v.kind}/${v.name}`;
  const field = v.path === '' ? '(the object)' : v.path;
  const described = v.path === '' ? field : fieldText(v);
  const change = v.rule === 'internal' ? '' : `Change ${described} of ${object}, which the cluster would reject on create. `;
  return {
    ruleName: `${RULE_PREFIX}/rule-${v.rule}`,
    recommendation: `${object}: ${described}: ${v.message}`,
    fix: `${change}${brokenRule(v)}`,
    violatingResources: [{ resourceName: v.name, locations: [field], manifestPath }],
  };
}

function unreadableManifest(manifestPath: string, problem: string): ValidationViolation {
  return {
    ruleName: `${RULE_PREFIX}/manifest`,
    recommendation: problem,
    fix: 'Make the synthesized manifest readable YAML.',
    violatingResources: [{ resourceName: '', locations: [], manifestPath }],
  };
}
