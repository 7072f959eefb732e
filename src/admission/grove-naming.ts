/**
 * Row 19: on the Grove pathway, Grove pod names are built from the PodCliqueSet name, the
 * component (scaling group) name and the clique name, and must stay within 45 characters.
 *
 * Internal module.
 */
import { componentEntries, longestCliqueName, usesScalingGroup } from './component-shape';
import { FieldPath } from './field-path';
import { ViolationSink } from './violation';
import { JsonMap, stringAt } from '../model/json';

export const MAX_COMBINED_NAME_LENGTH = 45;
const MIN_PCS_NAME_LENGTH = 8;

/** The name budget of one component: its lower-cased name, plus its longest clique name when it is a scaling group. */
function componentBudget(component: JsonMap, name: string): number {
  return name.toLowerCase().length + (usesScalingGroup(component) ? longestCliqueName(component, name).length : 0);
}

/** Length of the PodCliqueSet name: the DGD name, truncated to leave room for the largest component budget. */
export function podCliqueSetNameLength(dgdName: string, components: Array<{ component: JsonMap; name: string }>): number {
  const maxBudget = Math.max(0, ...components.map(({ component, name }) => componentBudget(component, name)));
  const pcsBudget = Math.max(MAX_COMBINED_NAME_LENGTH - maxBudget, MIN_PCS_NAME_LENGTH);
  // a truncated name is `<prefix>-<4 hex digits>`, exactly pcsBudget long
  return Math.min(dgdName.length, pcsBudget);
}

/** Row 19 for every named component of a DGD on the Grove pathway. */
export function checkGroveNameLengths(dgdName: string, spec: JsonMap | undefined, sink: ViolationSink): void {
  const named = componentEntries(spec)
    .map(({ component, index }) => ({ component, index, name: stringAt(component, 'name') }))
    .filter((entry): entry is { component: JsonMap; index: number; name: string } => entry.name !== undefined && entry.name !== '');
  const pcsLength = podCliqueSetNameLength(dgdName, named);
  for (const { component, index, name } of named) {
    let combined = pcsLength + name.toLowerCase().length;
    let detail = 'PCS name + component name';
    if (usesScalingGroup(component)) {
      const longest = longestCliqueName(component, name);
      combined += longest.length;
      detail = `PCS name + PCSG name + longest PodClique name ${JSON.stringify(longest)}`;
    }
    if (combined > MAX_COMBINED_NAME_LENGTH) {
      sink.invalid(
        FieldPath.of('spec', 'components').index(index).child('name'),
        name,
        `combined resource name length ${combined} exceeds the ${MAX_COMBINED_NAME_LENGTH}-character pod-name limit (${detail}); ` +
          `shorten DynamoGraphDeployment name ${JSON.stringify(dgdName)} or component name ${JSON.stringify(name)}`,
        '19',
      );
    }
  }
}
