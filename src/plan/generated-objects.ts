/**
 * What the operator creates from the profiler's output when a DynamoGraphDeploymentRequest is
 * applied automatically (`autoApply`): the DynamoGraphDeployment, and the ConfigMaps the profiler
 * wrote beside it.
 *
 * The facts come from deploy/operator/internal/controller/dynamographdeploymentrequest_controller.go
 * (generateDGDSpec, createDGD, createAdditionalResources, computeDGDName,
 * applyDGDRRuntimeVersionOverride) at the supported operator's commit:
 * - the profiler writes `final_config.yaml`, one or more YAML documents; the last
 *   DynamoGraphDeployment among them is the graph, every other document an additional resource;
 * - the graph is named `spec.overrides.dgd.metadata.name` when the request sets one, else
 *   `<request name>-dgd`, and created in the request's namespace;
 * - a component without `runtimeVersionOverride` gets the request's `spec.runtimeVersionOverride`;
 * - its labels are the generated ones plus `dgdr.nvidia.com/name`, `dgdr.nvidia.com/namespace` and
 *   `nvidia.com/managed-by: dynamo-operator`; its annotations are the generated ones; no other
 *   metadata is kept;
 * - of the additional resources only ConfigMaps are created, in the request's namespace, with the
 *   same three labels added.
 *
 * Internal module: plain TypeScript, not part of the jsii API.
 */
import { PlanRequest } from './request';
import { parseYamlDocuments } from '../import/documents';
import { isMap, JsonMap, listAt, mapAt, stringAt } from '../model/json';
import { copyJson } from '../model/json-copy';

/** Labels the operator puts on what it creates for a request. */
export const LABEL_DGDR_NAME = 'dgdr.nvidia.com/name';
export const LABEL_DGDR_NAMESPACE = 'dgdr.nvidia.com/namespace';
export const LABEL_MANAGED_BY = 'nvidia.com/managed-by';
export const LABEL_VALUE_DYNAMO_OPERATOR = 'dynamo-operator';

const DGD_KIND = 'DynamoGraphDeployment';

/** The objects the operator creates after profiling, and the documents it leaves out (with why). */
export interface GeneratedObjects {
  /** The graph, then the ConfigMaps in the order the profiler wrote them. */
  readonly objects: unknown[];
  /** One line per profiler document the operator does not create. */
  readonly skipped: string[];
}

/** The name the operator gives the generated graph. */
export function generatedGraphName(request: PlanRequest): string {
  const override = mapAt(mapAt(request.spec, 'overrides'), 'dgd');
  const name = stringAt(mapAt(override, 'metadata'), 'name');
  return name ? name : `${request.name}-dgd`;
}

/**
 * The objects the operator creates from the profiler's `final_config.yaml` for `request`, in
 * `namespace` (the request's). Throws an Error naming the problem when the output holds no graph.
 */
export function generatedObjects(request: PlanRequest, finalConfig: string, namespace: string): GeneratedObjects {
  const documents = parseYamlDocuments(finalConfig, 'final_config.yaml').filter(doc => isMap(doc) && typeof doc.kind === 'string' && doc.kind !== '');
  const graphIndex = documents.map(doc => (doc as JsonMap).kind).lastIndexOf(DGD_KIND);
  if (graphIndex < 0) throw new Error('no DynamoGraphDeployment found in the profiler output');
  const managed = {
    [LABEL_DGDR_NAME]: request.name,
    [LABEL_DGDR_NAMESPACE]: namespace,
    [LABEL_MANAGED_BY]: LABEL_VALUE_DYNAMO_OPERATOR,
  };

  const generated = documents[graphIndex] as JsonMap;
  const metadata = mapAt(generated, 'metadata');
  const spec = copyJson(mapAt(generated, 'spec') ?? {});
  const runtimeVersion = stringAt(request.spec, 'runtimeVersionOverride');
  if (runtimeVersion) {
    for (const component of listAt(spec, 'components') ?? []) {
      if (isMap(component) && !component.runtimeVersionOverride) component.runtimeVersionOverride = runtimeVersion;
    }
  }
  const graphMetadata: JsonMap = {
    name: generatedGraphName(request),
    namespace,
    labels: { ...stringMap(mapAt(metadata, 'labels')), ...managed },
  };
  const annotations = stringMap(mapAt(metadata, 'annotations'));
  if (Object.keys(annotations).length > 0) graphMetadata.annotations = annotations;
  const graph = { apiVersion: generated.apiVersion, kind: DGD_KIND, metadata: graphMetadata, spec };

  const objects: unknown[] = [graph];
  const skipped: string[] = [];
  documents.forEach((doc, i) => {
    if (i === graphIndex) return;
    const object = copyJson(doc) as JsonMap;
    const name = stringAt(mapAt(object, 'metadata'), 'name') ?? '(no name)';
    if (object.kind === DGD_KIND) {
      skipped.push(`${DGD_KIND}/${name}: not created (the operator creates the last ${DGD_KIND} of the profiler output)`);
      return;
    }
    if (object.kind !== 'ConfigMap') {
      skipped.push(`${String(object.kind)}/${name}: not created (the operator creates only the ConfigMaps of the profiler output)`);
      return;
    }
    const objectMetadata: JsonMap = isMap(object.metadata) ? object.metadata : {};
    objectMetadata.namespace = namespace;
    objectMetadata.labels = { ...stringMap(mapAt(objectMetadata, 'labels')), ...managed };
    object.metadata = objectMetadata;
    objects.push(object);
  });
  return { objects, skipped };
}

/** The string entries of a label or annotation map. */
function stringMap(map: JsonMap | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(map ?? {})) if (typeof value === 'string') out[key] = value;
  return out;
}
