/**
 * Dependencies loaded on first use rather than when the library is required, so that
 * `require('cdk8s-dynamo')` stays cheap: cdk8s-plus is only needed to serialise Kubernetes values
 * handed to the constructs, and the YAML parser only to read documents.
 */
import type * as kplusModule from 'cdk8s-plus-34';
import type * as yamlModule from 'yaml';

let kplusLoaded: typeof kplusModule | undefined;
let yamlLoaded: typeof yamlModule | undefined;

/** The cdk8s-plus module. */
export function kplus(): typeof kplusModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return kplusLoaded ??= require('cdk8s-plus-34');
}

/** The `yaml` module. */
export function yaml(): typeof yamlModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return yamlLoaded ??= require('yaml');
}
