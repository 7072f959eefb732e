/** A value of the API as the member of the library's enum that writes it (`BackendFramework.VLLM`). */
import { Code, dynamo, enumValue } from './code';
import { EjectProblems } from './problems';
import * as enums from '../constructs/enums';

/** The enums of the library whose members the generated code names. */
export type EnumName = 'BackendFramework' | 'ComponentType' | 'GpuSharingMode' | 'CheckpointStartupPolicy' | 'CheckpointDeletionPolicy'
| 'CheckpointMode' | 'RestartStrategyType' | 'KvTransferEnforcement' | 'MultinodeRoleName';

/** The member of `enumName` whose value is `value`, or a problem at `path`. */
export function enumMember(enumName: EnumName, value: unknown, path: string, problems: EjectProblems): Code | undefined {
  const members = enums[enumName] as unknown as Record<string, string>;
  const member = Object.keys(members).find(m => members[m] === value);
  if (member === undefined) {
    const allowed = Object.values(members).map(v => JSON.stringify(v)).join(', ');
    problems.add(path, `Unsupported value: ${JSON.stringify(value)}: ${enumName} has ${allowed}`);
    return undefined;
  }
  return enumValue(dynamo(enumName), member);
}
