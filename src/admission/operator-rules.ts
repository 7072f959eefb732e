/**
 * Which operator's admission rules apply: the operator of `ValidateOptions.version`
 * (see src/model/operator-version.ts), or the default operator when the option is unset or names
 * a version this library does not render for.
 *
 * Internal module.
 */
import { componentEntries } from './component-shape';
import { STRUCTURAL_RULE } from './dynamo-schema';
import { FieldPath } from './field-path';
import { admittingOperator, ValidateOptions } from './options';
import { ViolationSink } from './violation';
import { isMap, JsonMap, listAt, mapAt } from '../model/json';
import { jsonRoundTrip } from '../model/json-copy';
import { DEFAULT_OPERATOR_VERSION } from '../model/operator-settings';
import { OperatorGateName, operatorHas, operatorVersionProblem } from '../model/operator-version';

/** The operator version whose rules validation applies. */
export function rulesVersion(options: ValidateOptions): string {
  const version = admittingOperator(options).version;
  return operatorVersionProblem(version) === undefined ? version : DEFAULT_OPERATOR_VERSION;
}

/** Whether the operator whose rules apply has the behaviour of `gate`. */
export function rulesHave(options: ValidateOptions, gate: OperatorGateName): boolean {
  return operatorHas(rulesVersion(options), gate);
}

/**
 * The `providerOverride` fields of a graph (root, components, their roles), in document order:
 * fields of the API of 1.5.0 on (`OPERATOR_GATES.providerOverride`).
 */
export function providerOverridePaths(doc: JsonMap): Array<{ readonly path: FieldPath; readonly value: unknown }> {
  const spec = mapAt(doc, 'spec');
  const out: Array<{ path: FieldPath; value: unknown }> = [];
  const root = FieldPath.of('spec');
  if (spec && spec.providerOverride !== undefined) out.push({ path: root.child('providerOverride'), value: spec.providerOverride });
  for (const { component, index } of componentEntries(spec)) {
    const at = root.child('components').index(index);
    if (component.providerOverride !== undefined) out.push({ path: at.child('providerOverride'), value: component.providerOverride });
    (listAt(component, 'roles') ?? []).forEach((role, roleIndex) => {
      if (isMap(role) && role.providerOverride !== undefined) {
        out.push({ path: at.child('roles').index(roleIndex).child('providerOverride'), value: role.providerOverride });
      }
    });
  }
  return out;
}

/**
 * The graph as an older operator's API server keeps it: fields its CRD does not have are reported
 * as strict field validation does (unknown field, a structural violation) and left out of the copy
 * the other rules see (the API server would prune them). Today: `providerOverride` before
 * `OPERATOR_GATES.providerOverride`. Returns `doc` itself when nothing is left out.
 */
export function withoutFieldsOfNewerOperators(doc: JsonMap, options: ValidateOptions, sink: ViolationSink): JsonMap {
  if (rulesHave(options, 'providerOverride')) return doc;
  const paths = providerOverridePaths(doc);
  if (paths.length === 0) return doc;
  for (const { path, value } of paths) sink.unknownField(path, value, STRUCTURAL_RULE);
  return withoutProviderOverrides(doc);
}

/** A copy of a graph without any `providerOverride` (root, components, roles). */
export function withoutProviderOverrides(doc: JsonMap): JsonMap {
  const copy = jsonRoundTrip(doc);
  const spec = mapAt(copy, 'spec');
  if (!spec) return copy;
  delete spec.providerOverride;
  for (const { component } of componentEntries(spec)) {
    delete component.providerOverride;
    for (const role of listAt(component, 'roles') ?? []) {
      if (isMap(role)) delete role.providerOverride;
    }
  }
  return copy;
}
