/**
 * The command line's surface for code outside it (tests, tools): running it in process, its
 * source positions and the `plan` command's parts.
 */
export { runCli } from './main';
export { planFile, withStoredGraphs } from './plan-command';
export { FilePositions, pathSteps } from './source-positions';
