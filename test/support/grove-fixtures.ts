/**
 * Small builders for graphs rendered on the Grove workload provider through the public engine
 * (the test facade's `renderUnchecked`, output `workloads`), and accessors for the PodCliqueSet they produce.
 */
import { admit, DgdJson, formatProblem, JsonObject, OperatorSettings, renderUnchecked, settings, workerHashOf } from './facade';
import { component, graph, IMAGE, mainContainer as testContainer } from './graphs';

/** A runtime image whose tag is a plain semantic version. */
export const GROVE_TEST_IMAGE = IMAGE;
/** Namespace the tests render into. */
export const GROVE_TEST_NAMESPACE = 'ns';

/** Operator settings of an operator with Grove, plus `operator`. */
export function groveSettings(operator: Partial<OperatorSettings> = {}): OperatorSettings {
  return settings({ groveAvailable: true, ...operator });
}

/** The `main` container with the test image and `extra` fields. */
export function mainContainer(extra: JsonObject = {}): JsonObject {
  return testContainer(extra);
}

/**
 * A graph component named `name` of `type` whose pod template has only the `main` container
 * (plus `container` fields); `extra` is merged into the component (a `podTemplate` there replaces
 * the default one).
 */
export function groveComponent(name: string, type: string | undefined, extra: JsonObject = {}, container: JsonObject = {}): JsonObject {
  return component(name, type, extra, container);
}

/** A DynamoGraphDeployment `llm` (unless `metadata.name` says otherwise) with these components. */
export function groveGraph(components: JsonObject[], spec: JsonObject = {}, metadata: JsonObject = {}): DgdJson {
  return graph(components, spec, metadata);
}

/** Admission violations of `dgd` on an operator with Grove, formatted (empty when admitted). */
export function groveAdmissionViolations(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): string[] {
  return admit({ ...dgd, metadata: { namespace: GROVE_TEST_NAMESPACE, ...dgd.metadata } }, { groveAvailable: true, ...operator }).map(formatProblem);
}

/** Every object rendered for `dgd` on an operator with Grove. */
export function renderGrove(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): JsonObject[] {
  return renderUnchecked(dgd, { namespace: GROVE_TEST_NAMESPACE, settings: { groveAvailable: true, ...operator } });
}

/** The one PodCliqueSet rendered for `dgd`. */
export function renderPodCliqueSetOf(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): JsonObject {
  const sets = renderGrove(dgd, operator).filter(o => o.kind === 'PodCliqueSet');
  if (sets.length !== 1) throw new Error(`expected one PodCliqueSet, got ${sets.length}`);
  return sets[0];
}

/** The clique `name` of a PodCliqueSet. */
export function cliqueOf(pcs: JsonObject, name: string): JsonObject {
  const found = (pcs.spec.template.cliques as JsonObject[]).find(c => c.name === name);
  if (!found) throw new Error(`no clique ${name} in ${cliqueNames(pcs).join(', ')}`);
  return found;
}

/** Clique names of a PodCliqueSet in order. */
export function cliqueNames(pcs: JsonObject): string[] {
  return (pcs.spec.template.cliques as JsonObject[]).map(c => c.name as string);
}

/** The `main` container of a clique's pod spec. */
export function cliqueMain(pcs: JsonObject, name: string): JsonObject {
  const containers = cliqueOf(pcs, name).spec.podSpec.containers as JsonObject[];
  const main = containers.find(c => c.name === 'main');
  if (!main) throw new Error(`clique ${name} has no main container`);
  return main;
}

/** The value of env var `name` of a container, or undefined. */
export function envValue(container: JsonObject, name: string): string | undefined {
  return (container.env as JsonObject[] | undefined ?? []).find(e => e.name === name)?.value;
}

/** The scaling group `name` of a PodCliqueSet. */
export function scalingGroupOf(pcs: JsonObject, name: string): JsonObject {
  const found = (pcs.spec.template.podCliqueScalingGroups as JsonObject[] | undefined ?? []).find(g => g.name === name);
  if (!found) throw new Error(`no scaling group ${name}`);
  return found;
}

/** The worker hash the operator computes for `dgd` as admitted on an operator with Grove. */
export function admittedWorkerHash(dgd: DgdJson, operator: Partial<OperatorSettings> = {}): string {
  return workerHashOf({ ...dgd, metadata: { namespace: GROVE_TEST_NAMESPACE, ...dgd.metadata } }, groveSettings(operator));
}
