/**
 * How to fix the commonest mistakes, added to the message of an unknown field of a
 * nvidia.com/v1beta1 Dynamo document: a field of the v1alpha1 API (`componentType`, `services`, ...)
 * names its v1beta1 counterpart and the command that rewrites a whole v1alpha1 file; a misspelled
 * field names the declared field closest to it (`Violation.suggestion`).
 *
 * The v1alpha1 fields and where they go are those of the conversion (`src/import/v1alpha1/convert.ts`
 * and `shared-spec.ts`, after the operator's conversion webhook).
 */
import type { Violation } from '../model/violation-report';

const CONVERT = '`cdk8s-dynamo convert` rewrites a v1alpha1 file';

/** The v1alpha1 fields of a component (a graph's `services` entry, a component deployment's spec) and their v1beta1 place. */
const V1ALPHA1_COMPONENT_FIELDS: Readonly<Record<string, string | undefined>> = {
  serviceName: 'name',
  componentType: 'type',
  subComponentType: 'type (prefill or decode)',
  sharedMemory: 'sharedMemorySize',
  envs: 'podTemplate.spec.containers[main].env',
  envFromSecret: 'podTemplate.spec.containers[main].envFrom (a secretRef)',
  resources: 'podTemplate.spec.containers[main].resources',
  volumeMounts: 'podTemplate.spec.containers[main].volumeMounts (a compilation cache: compilationCache)',
  livenessProbe: 'podTemplate.spec.containers[main].livenessProbe',
  readinessProbe: 'podTemplate.spec.containers[main].readinessProbe',
  extraPodMetadata: 'podTemplate.metadata',
  extraPodSpec: 'podTemplate.spec (its mainContainer: the container named main)',
  gpuMemoryService: 'experimental.gpuMemoryService',
  failover: 'experimental.failover',
  checkpoint: 'experimental.checkpoint',
  dynamoNamespace: undefined,
  globalDynamoNamespace: undefined,
  autoscaling: undefined,
  ingress: undefined,
  frontendSidecar: undefined,
};

/** The v1alpha1 fields of a DynamoGraphDeployment's spec and their v1beta1 place. */
const V1ALPHA1_GRAPH_FIELDS: Readonly<Record<string, string | undefined>> = {
  services: 'components (a list of components, each with its name)',
  envs: 'env',
  pvcs: undefined,
};

/** The v1alpha1 field a path of an unknown field names in a v1beta1 document, with its v1beta1 place (undefined: none). */
function v1alpha1Field(kind: string, path: string): { field: string; place: string | undefined } | undefined {
  const graph = /^spec\.([A-Za-z]+)$/.exec(path);
  const component = kind === 'DynamoGraphDeployment' ? /^spec\.components\[\d+\]\.([A-Za-z]+)$/.exec(path) : graph;
  if (component && Object.prototype.hasOwnProperty.call(V1ALPHA1_COMPONENT_FIELDS, component[1])) {
    return { field: component[1], place: V1ALPHA1_COMPONENT_FIELDS[component[1]] };
  }
  if (kind === 'DynamoGraphDeployment' && graph && Object.prototype.hasOwnProperty.call(V1ALPHA1_GRAPH_FIELDS, graph[1])) {
    return { field: graph[1], place: V1ALPHA1_GRAPH_FIELDS[graph[1]] };
  }
  if (kind === 'DynamoGraphDeployment' && /^spec\.topologyConstraint\.topologyProfile$/.test(path)) {
    return { field: 'topologyProfile', place: 'spec.topologyConstraint.clusterTopologyName' };
  }
  return undefined;
}

/** Whether a violation is an unknown field (strict field validation's `unknown field "..."`). */
export function isUnknownField(v: Pick<Violation, 'message' | 'structural'>): boolean {
  return v.structural === true && v.message.startsWith('unknown field ');
}

/**
 * How to fix an unknown field, or undefined: for a Dynamo v1beta1 document, a v1alpha1 field
 * (`this is a v1alpha1 field; in v1beta1 it is type; ...`); else the closest declared field.
 */
export function unknownFieldHint(v: Pick<Violation, 'kind' | 'path' | 'message' | 'structural' | 'suggestion'>, apiVersion: string | undefined): string | undefined {
  if (!isUnknownField(v)) return undefined;
  const dynamo = apiVersion === 'nvidia.com/v1beta1' && (v.kind === 'DynamoGraphDeployment' || v.kind === 'DynamoComponentDeployment');
  const alpha = dynamo ? v1alpha1Field(v.kind, v.path) : undefined;
  if (alpha !== undefined) {
    return alpha.place === undefined
      ? `this is a v1alpha1 field, which v1beta1 does not have; ${CONVERT} (keeping such fields in an annotation)`
      : `this is a v1alpha1 field; in v1beta1 it is ${alpha.place}; ${CONVERT}`;
  }
  return v.suggestion === undefined ? undefined : `did you mean ${JSON.stringify(v.suggestion)}?`;
}
