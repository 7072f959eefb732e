/**
 * Everything the component controller knows while rendering one DCD's workloads.
 */
import { shallowCopy } from '../../model/json-copy';
import { OperatorSettings } from '../../model/operator-settings';
import { DcdJson, DCD_KIND, DGD_KIND, isWorkerType } from '../../model/v1beta1';
import { LABEL_WORKER_HASH } from '../../model/well-known';
import { DiscoveryContext, discoveryContext } from '../discovery';
import { ClusterObjects } from '../multinode/dra-objects';
import { dcdComponentName, dcdDynamoNamespace } from '../workload-metadata';

export interface DcdContext {
  /** The DCD as stored (admitted, defaulted). Never modified by renderers. */
  readonly dcd: DcdJson;
  readonly settings: OperatorSettings;
  /** `DynamoComponentDeployment/<name>`, for error messages. */
  readonly ref: string;
  /** The DCD's name. */
  readonly name: string;
  /** The DCD's Kubernetes namespace. */
  readonly namespace: string;
  /** Name of the owning DynamoGraphDeployment (owner reference), when the DCD has one. */
  readonly ownerGraphName?: string;
  /** Owner graph name, or the DCD's own name for a standalone DCD. */
  readonly parentName: string;
  /** `spec.type`, or `''` when untyped: DYN_COMPONENT, type defaults, component-type label, Service selector. */
  readonly workloadType: string;
  /** Component name: `spec.name`, else component label, else DCD name. */
  readonly componentName: string;
  /** Dynamo namespace of pods and Services. */
  readonly dynamoNamespace: string;
  /** Effective worker hash of a worker-class DCD (DCD label, else pod-template label). */
  readonly workerHash?: string;
  /** Discovery context from the pod-template annotations and `discovery.backend`. */
  readonly discovery: DiscoveryContext;
  /**
   * Cluster objects of the input the operator would read for this DCD (the DRA objects behind a
   * multinode container's GPU claims, see `dra-objects`).
   */
  readonly cluster?: ClusterObjects;
}

function ownerGraph(dcd: DcdJson): string | undefined {
  const owners = dcd.metadata.ownerReferences as Array<{ kind?: string; name?: string }> | undefined;
  return owners?.find(o => o?.kind === DGD_KIND)?.name || undefined;
}

/** `{ ...dcd, metadata: { ...dcd.metadata, ownerReferences: [the graph] } }` (without spread syntax, see `shallowCopy`). */
function withOwnerReference(dcd: DcdJson, owner: string): DcdJson {
  const metadata = shallowCopy(dcd.metadata);
  metadata.ownerReferences = [{ kind: DGD_KIND, name: owner }];
  const located = shallowCopy(dcd);
  located.metadata = metadata;
  return located;
}

/**
 * The context for rendering a DCD. `ownerGraphName` is the owning graph when the DCD was generated
 * from one (the generated DCD carries no owner reference, which needs the graph's UID); `cluster`
 * holds the cluster objects given with the input.
 */
export function dcdContext(dcd: DcdJson, settings: OperatorSettings, ownerGraphName?: string, cluster?: ClusterObjects): DcdContext {
  const name = dcd.metadata.name ?? '';
  const owner = ownerGraphName ?? ownerGraph(dcd);
  const spec = dcd.spec ?? {};
  const workerHash = isWorkerType(spec.type)
    ? (dcd.metadata.labels?.[LABEL_WORKER_HASH] || spec.podTemplate?.metadata?.labels?.[LABEL_WORKER_HASH] || undefined)
    : undefined;
  const located: DcdJson = owner && !ownerGraph(dcd)
    ? withOwnerReference(dcd, owner)
    : dcd;
  return {
    dcd,
    settings,
    ref: `${DCD_KIND}/${name}`,
    name,
    namespace: dcd.metadata.namespace ?? '',
    ownerGraphName: owner,
    parentName: owner ?? name,
    workloadType: spec.type ?? '',
    componentName: dcdComponentName(dcd),
    dynamoNamespace: dcdDynamoNamespace(located),
    workerHash,
    discovery: discoveryContext(settings, spec.podTemplate?.metadata?.annotations),
    cluster,
  };
}
