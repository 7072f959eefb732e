/**
 * `providerOverride` values on the Grove path (docs/design/render-multinode.md §4.9): each override's
 * `topologyConstraint` replaces the rendered one at its destination, verbatim.
 */
import { usesScalingGroup } from './clique-roles';
import { isMap, lowerAscii } from '../../model/json';
import { copyJson } from '../../model/json-copy';
import { ComponentSpecJson, DgdJson, JsonObject, ProviderOverrideJson } from '../../model/v1beta1';
import { ROLE_NAME_SUFFIX } from '../multinode/roles';

const TOPOLOGY = 'topologyConstraint';

/** Puts the override's `topologyConstraint` (when it has the key, even null) on `target`. */
function replaceTopology(target: JsonObject | undefined, value: unknown): void {
  if (!target || !isMap(value) || !Object.prototype.hasOwnProperty.call(value, TOPOLOGY)) return;
  target[TOPOLOGY] = copyJson(value[TOPOLOGY]);
}

function overrideValue(override: ProviderOverrideJson | undefined): unknown {
  return isMap(override) ? override.value : undefined;
}

function byName(items: unknown, name: string): JsonObject | undefined {
  return Array.isArray(items) ? items.find(i => isMap(i) && i.name === name) : undefined;
}

/** Applies the graph's, components' and roles' overrides to a rendered PodCliqueSet `spec.template`. */
export function applyGroveOverrides(dgd: DgdJson, template: JsonObject): void {
  const root = overrideValue(dgd.spec.providerOverride);
  if (isMap(root) && isMap(root.spec)) replaceTopology(template, root.spec.template);
  for (const component of dgd.spec.components ?? []) {
    applyComponentOverrides(component, template);
  }
}

function applyComponentOverrides(component: ComponentSpecJson, template: JsonObject): void {
  const name = lowerAscii(component.name ?? '');
  const own = overrideValue(component.providerOverride);
  if (own !== undefined) {
    const target = usesScalingGroup(component) ? byName(template.podCliqueScalingGroups, name) : byName(template.cliques, name);
    replaceTopology(target, own);
  }
  for (const role of component.roles ?? []) {
    if (!isMap(role) || (role.name !== 'leader' && role.name !== 'worker')) continue;
    const value = overrideValue(role.providerOverride);
    if (value !== undefined) replaceTopology(byName(template.cliques, `${name}-${ROLE_NAME_SUFFIX[role.name]}`), value);
  }
}
