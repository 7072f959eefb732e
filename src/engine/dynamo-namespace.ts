/** The Dynamo namespace a component registers in. */

export const GLOBAL_DYNAMO_NAMESPACE = 'dynamo';

/**
 * `dynamo` for components in the global namespace, otherwise `<k8s namespace>-<graph name>` with
 * every `.` of the graph name replaced by `-` (the Kubernetes namespace is used as is).
 */
export function computeDynamoNamespace(global: boolean | undefined, k8sNamespace: string, parentName: string): string {
  if (global) return GLOBAL_DYNAMO_NAMESPACE;
  return `${k8sNamespace}-${parentName.split('.').join('-')}`;
}
