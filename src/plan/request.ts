/**
 * The DynamoGraphDeploymentRequest (DGDR) that `cdk8s-dynamo plan` reads, as plain JSON: only what
 * the profiling Job and the controller read of it after profiling (its name, namespace and spec).
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import { DGDR_API_VERSION, DGDR_KIND } from '../dgdr/model';
import { isMap, JsonMap, mapAt, stringAt } from '../model/json';

export { DGDR_API_VERSION, DGDR_KIND };

/** A DGDR as `plan` reads it. */
export interface PlanRequest {
  readonly name: string;
  /** metadata.namespace, when the document names one. */
  readonly namespace?: string;
  /** The spec as written: the profiler receives it as JSON (`--config`). */
  readonly spec: JsonMap;
}

/**
 * The request of one document, or the problems that keep it from being profiled, each as
 * `<field>: <reason>` in the API server's wording.
 */
export function readPlanRequest(doc: unknown): { request?: PlanRequest; problems: string[] } {
  if (!isMap(doc)) return { problems: ['Invalid value: the document is not a mapping: a DynamoGraphDeploymentRequest is'] };
  if (doc.kind !== DGDR_KIND) {
    return { problems: [`kind: Invalid value: ${JSON.stringify(doc.kind ?? null)}: plan reads a ${DGDR_KIND}`] };
  }
  if (doc.apiVersion !== DGDR_API_VERSION) {
    return { problems: [`apiVersion: Unsupported value: ${JSON.stringify(doc.apiVersion ?? null)}: supported values: "${DGDR_API_VERSION}"`] };
  }
  const problems: string[] = [];
  const metadata = mapAt(doc, 'metadata');
  const name = stringAt(metadata, 'name');
  if (!name) problems.push('metadata.name: Required value: name is required');
  const spec = mapAt(doc, 'spec');
  if (spec === undefined) problems.push('spec: Required value');
  if (problems.length > 0 || name === undefined || spec === undefined) return { problems };
  return { request: { name, namespace: stringAt(metadata, 'namespace'), spec }, problems: [] };
}

/**
 * The spec as the profiling Job passes it to the profiler: `--config` with the spec as JSON
 * (deploy/operator/internal/controller/dynamographdeploymentrequest_controller.go, marshalDGDRSpec).
 */
export function profilerConfig(request: PlanRequest): string {
  return JSON.stringify(request.spec);
}
