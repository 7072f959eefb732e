/** `cdk8s-dynamo eject`: Dynamo documents as the TypeScript of a cdk8s app that synthesizes them. */
export { ejectDocuments, ejectProgram } from './app-code';
export { EJECT_LANGUAGES, MAIN_FILES } from './languages';
export type { EjectLanguage } from './languages';
export type { EjectResult } from './app-code';
export { packageName, projectFiles } from './project-files';
