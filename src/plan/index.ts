/**
 * `cdk8s-dynamo plan` and the DGDR's profiling: this layer's surface for code outside it (tests,
 * tools).
 */
export { generatedObjects } from './generated-objects';
export { OVERRIDE_TOOL_NAME } from './profiler';
export type { PlanRequest } from './request';
