/** `cdk8s-dynamo eject`: Dynamo documents as the TypeScript of a cdk8s app that synthesizes them. */
export { ejectDocuments } from './app-code';
export type { EjectResult } from './app-code';
export { packageName, projectFiles } from './project-files';
