/** What a render writes for Dynamo documents: the custom resources, the operator's DCDs, or its workloads. */
export type OutputMode = 'graph' | 'components' | 'workloads';

export const OUTPUT_MODES: readonly OutputMode[] = ['graph', 'components', 'workloads'];
