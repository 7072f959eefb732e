/**
 * `cdk8s-dynamo eject`: Dynamo documents as a cdk8s app (TypeScript, Python, Java or Go) that synthesizes them.
 */
export { ejectDocuments, ejectProgram } from './app-code';
export type { EjectResult } from './app-code';
export { EJECT_LANGUAGES, MAIN_FILES } from './languages';
export type { EjectLanguage } from './languages';
export { snakeCase } from './print-python';
export { packageName, projectFiles } from './project-files';
