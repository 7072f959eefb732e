/**
 * The Grove ClusterTopologyBindings the operator reads while it admits a new graph (rows 31, 32,
 * 39, 105), taken from the documents given with it (`ValidateOptions.clusterObjects`): a pure
 * validator cannot read the cluster. A binding is read only for a graph on the Grove pathway whose
 * `metadata.generation` is at most 1 (a new graph), as the operator reads it.
 *
 * Internal module.
 */
import { componentEntries } from './component-shape';
import { FieldPath } from './field-path';
import { ValidateOptions } from './options';
import { ViolationSink } from './violation';
import { isClusterTopologyBinding } from '../model/cluster-topology-binding';
import { compareStrings, intAt, isMap, JsonMap, listAt, mapAt, stringAt } from '../model/json';

export { isClusterTopologyBinding, TOPOLOGY_BINDING_API_VERSION, TOPOLOGY_BINDING_KIND } from '../model/cluster-topology-binding';

/** The levels of a binding: domains in level order (broadest first), and sorted for messages. */
export interface TopologyInfo {
  readonly name: string;
  /** Position of each domain in `spec.levels`. */
  readonly index: ReadonlyMap<string, number>;
  /** The domains sorted, as the operator lists them. */
  readonly sorted: readonly string[];
}

/** The binding `name` among the given objects, or undefined. */
export function findTopologyBinding(options: ValidateOptions, name: string): TopologyInfo | undefined {
  const binding = (options.clusterObjects ?? []).find(o => isClusterTopologyBinding(o) && stringAt(mapAt(o, 'metadata'), 'name') === name);
  if (!binding) return undefined;
  const index = new Map<string, number>();
  (listAt(mapAt(binding, 'spec'), 'levels') ?? []).forEach((level, i) => {
    const domain = stringAt(level, 'domain');
    if (domain !== undefined) index.set(domain, i);
  });
  return { name, index, sorted: [...index.keys()].sort(compareStrings) };
}

/** Go's `%v` of a string slice: `[a b c]`. */
function goList(items: readonly string[]): string {
  return `[${items.join(' ')}]`;
}

/** Where the operator reads a binding: a new graph on the Grove pathway. */
export function readsTopologyBindings(doc: JsonMap, grovePathway: boolean): boolean {
  return grovePathway && (intAt(mapAt(doc, 'metadata'), 'generation') ?? 0) <= 1;
}

const SPEC = FieldPath.of('spec');

/**
 * Rows 32 and 105 with the binding of `spec.topologyConstraint.clusterTopologyName` (row 31: a
 * binding that is given exists). Nothing is checked when the binding is not given.
 */
export function checkTopologyBinding(doc: JsonMap, grovePathway: boolean, options: ValidateOptions, sink: ViolationSink): void {
  const spec = mapAt(doc, 'spec');
  const specConstraint = mapAt(spec, 'topologyConstraint');
  const name = stringAt(specConstraint, 'clusterTopologyName') ?? '';
  if (!specConstraint || name === '' || !readsTopologyBindings(doc, grovePathway)) return;
  const info = findTopologyBinding(options, name);
  if (!info) return;
  const specDomain = stringAt(specConstraint, 'packDomain') ?? '';
  // row 32
  if (specDomain !== '' && !info.index.has(specDomain)) {
    sink.invalid(SPEC.child('topologyConstraint', 'packDomain'), specDomain,
      `does not exist in ClusterTopologyBinding ${JSON.stringify(info.name)}; available domains: ${goList(info.sorted)}`, '32');
  }
  // row 105
  for (const { component, index } of componentEntries(spec)) {
    const constraint = mapAt(component, 'topologyConstraint');
    if (!constraint) continue;
    const domain = stringAt(constraint, 'packDomain') ?? '';
    const path = SPEC.child('components').index(index).child('topologyConstraint', 'packDomain');
    const position = info.index.get(domain);
    if (position === undefined) {
      sink.invalid(path, domain, `does not exist in ClusterTopology ${JSON.stringify(info.name)}; available domains: ${goList(info.sorted)}`, '105');
      continue;
    }
    const specPosition = specDomain === '' ? undefined : info.index.get(specDomain);
    if (specPosition !== undefined && position < specPosition) {
      sink.invalid(path, domain, `must be equal to or narrower than the deployment-level domain ${JSON.stringify(specDomain)}`, '105');
    }
  }
}

/**
 * Row 39, its binding part: the `domain` of a KV transfer policy naming a binding must be one of
 * its domains. `nameAccepted`: the name passed the row's own checks (a DNS subdomain, Grove pathway).
 */
export function checkKvTransferPolicyBinding(doc: JsonMap, nameAccepted: boolean, options: ValidateOptions, sink: ViolationSink): void {
  const policy = mapAt(mapAt(mapAt(doc, 'spec'), 'experimental'), 'kvTransferPolicy');
  const name = stringAt(policy, 'clusterTopologyName') ?? '';
  if (!policy || name === '' || !nameAccepted || !readsTopologyBindings(doc, true)) return;
  const info = findTopologyBinding(options, name);
  if (!info) return;
  const domain = stringAt(policy, 'domain') ?? '';
  if (!info.index.has(domain)) {
    sink.invalid(SPEC.child('experimental', 'kvTransferPolicy', 'domain'), domain,
      `does not exist in ClusterTopologyBinding ${JSON.stringify(info.name)}; available domains: ${goList(info.sorted)}`, '39');
  }
}

/** Admission rules that were not checked because the cluster state they read was not given. */
export interface UncheckedRule {
  /** Rows of docs/design/validation-rules.md. */
  readonly rules: readonly string[];
  /** The field that names the missing object. */
  readonly path: string;
  readonly message: string;
}

/**
 * The rules of a new graph (after defaulting) that read a ClusterTopologyBinding not among
 * `options.clusterObjects`, one entry per field naming it.
 */
export function uncheckedTopologyRules(doc: JsonMap, grovePathway: boolean, options: ValidateOptions): UncheckedRule[] {
  if (!readsTopologyBindings(doc, grovePathway)) return [];
  const spec = mapAt(doc, 'spec');
  const out: UncheckedRule[] = [];
  const missing = (name: string, path: FieldPath, rules: string[]): void => {
    if (findTopologyBinding(options, name)) return;
    out.push({
      rules,
      path: path.toString(),
      message: `ClusterTopologyBinding ${JSON.stringify(name)} is not among the input documents, so the rules that read its levels were not `
        + `checked (pass it as the cluster returns it: kubectl get clustertopologybinding ${name} -o yaml)`,
    });
  };
  const specName = stringAt(mapAt(spec, 'topologyConstraint'), 'clusterTopologyName') ?? '';
  if (specName !== '') {
    const rules = ['31'];
    if ((stringAt(mapAt(spec, 'topologyConstraint'), 'packDomain') ?? '') !== '') rules.push('32');
    if (componentEntries(spec).some(({ component }) => isMap(component.topologyConstraint))) rules.push('105');
    missing(specName, SPEC.child('topologyConstraint', 'clusterTopologyName'), rules);
  }
  const policyName = stringAt(mapAt(mapAt(spec, 'experimental'), 'kvTransferPolicy'), 'clusterTopologyName') ?? '';
  if (policyName !== '') missing(policyName, SPEC.child('experimental', 'kvTransferPolicy', 'clusterTopologyName'), ['39']);
  return out;
}
