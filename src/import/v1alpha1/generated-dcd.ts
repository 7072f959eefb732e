/**
 * The preservation annotation the operator's graph controller puts on every
 * DynamoComponentDeployment it generates for a graph (`applyDGDComponentAlphaCompatibilityToDCD`
 * in ai-dynamo/dynamo's `deploy/operator/internal/dynamo/graph.go`, operator 1.4.0 and 1.5.0
 * alike): the graph is read as v1alpha1 (the webhook's `ConvertFrom`), the component's v1alpha1
 * service becomes a v1alpha1 DCD (the generated DCD's name, namespace and backend framework),
 * and that DCD is converted back to v1beta1 (`ConvertTo`, `convert.ts`); the annotations of the
 * result are copied onto the generated DCD.
 *
 * That v1alpha1 DCD has no annotations and no status, so what it can give is the spec annotation
 * `nvidia.com/dcd-spec` alone. Its service has no `serviceName` (the graph's services map is keyed
 * by name), so the annotation is always written, recording the empty name, unless the graph was
 * converted from v1alpha1 with a `serviceName` that differs from the key; it then holds the
 * v1alpha1-only data of the service and where the main container's settings came from (see
 * `to-alpha.ts` and `saveAlphaOnlyFields` in `shared-spec.ts`).
 *
 * A graph converted from v1alpha1 carries its v1alpha1-only data in `nvidia.com/dgd-spec`; the
 * services kept there are read back first (a value that does not read is ignored, as the operator
 * ignores it). The graph is one the operator admitted: its validating webhook refuses a graph the
 * conversion fails on (components named twice, a `nvidia.com/dgd-status` value that is not a
 * v1alpha1 status), so the conversion here has no failure to mirror.
 */
import { convertComponentObject } from './convert';
import { GoMap, goView } from './go-view';
import { DGD_SPEC_ANNOTATION, preservedSpec } from './preservation';
import { alphaServiceOf } from './to-alpha';
import { isMap } from '../../model/json';

/** What the annotation depends on of the DCD the graph controller generates. */
export interface GeneratedDcdIdentity {
  readonly name: string;
  readonly namespace?: string;
  readonly backendFramework?: string;
}

/**
 * The annotations the graph controller copies onto the DCD it generates for `component` (an entry
 * of `spec.components`) of the graph whose metadata is `graphMetadata` (a v1beta1
 * DynamoGraphDeployment as admitted).
 */
export function generatedDcdAnnotations(graphMetadata: unknown, component: unknown, dcd: GeneratedDcdIdentity): Record<string, string> {
  const hub: GoMap = goView(component, 'DynamoComponentDeploymentSharedSpec') ?? {};
  const name: string = hub.name ?? '';
  const savedRaw = isMap(graphMetadata) && isMap(graphMetadata.annotations) ? graphMetadata.annotations[DGD_SPEC_ANNOTATION] : undefined;
  const saved = typeof savedRaw === 'string' && savedRaw !== '' ? preservedSpec(savedRaw, 'A1DGDSpec') : undefined;
  const savedService: GoMap | undefined = saved?.services?.[name] ?? undefined;
  const service = alphaServiceOf(hub, savedService);
  // the services map's key names the service; a different serviceName comes only from the save
  delete service.serviceName;
  if (savedService?.serviceName && savedService.serviceName !== name) service.serviceName = savedService.serviceName;

  const spec: GoMap = { ...service };
  if (dcd.backendFramework) spec.backendFramework = dcd.backendFramework;
  const metadata: GoMap = { name: dcd.name };
  if (dcd.namespace) metadata.namespace = dcd.namespace;
  const carrier = convertComponentObject(metadata, goView(spec, 'A1DCDSpec'));
  return isMap(carrier.metadata.annotations) ? { ...carrier.metadata.annotations as Record<string, string> } : {};
}
