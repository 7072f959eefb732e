/**
 * The render engine: pure functions from a Dynamo object as the API server stores it after CREATE
 * (defaulted by admission, see `src/admission/stored-object.ts`) plus operator settings to the
 * objects the operator creates for it. Checking documents and choosing what to render for each is the
 * pipeline's (`src/pipeline/check-and-render.ts`); the engine never validates.
 */
import { withCreateBookkeeping } from './bookkeeping';
import { RenderError } from '../model/render-error';
import {
  applyCheckpointToGeneratedDcd, CheckpointClusterState, checkpointOf, ComponentCheckpoint, graphCheckpointConfigs, isCheckpointClusterObject,
  resolveGraphCheckpoints, standaloneDcdWithCheckpoint,
} from './experimental/checkpoint';
import { checkpointStorageFor, componentCheckpointStoragePvc, isPersistentVolumeClaim } from './experimental/checkpoint/storage';
import { refuseInterPodGmsOnComponentPath } from './experimental/component-path';
import { refuseGmsWithoutDra } from './experimental/dra-gate';
import { generateHashedComponentDcds } from './graph/hashed-worker-dcds';
import { storedGeneratedDcd } from './graph/stored-dcd';
import { renderGroveGraphWorkloads } from './grove/render-grove';
import { ClusterObjects, isDraClusterStateOnly, isDraObject } from './multinode/dra-objects';
import { MAX_OBJECT_BYTES } from '../import/document-kinds';
import { OperatorSettings } from '../model/operator-settings';
import * as workloads from './workloads/render-workloads';
import { isClusterTopologyBinding } from '../model/cluster-topology-binding';
import { DEFAULT_NAMESPACE, withNamespace } from '../model/namespace';
import { ComponentSpecJson, DcdJson, DgdJson } from '../model/v1beta1';
import { ANNOTATION_WORKLOAD_PROVIDER, PROVIDER_GROVE } from '../model/well-known';

/**
 * Cluster objects given with the input: observed PodSnapshots / SnapshotJobs (checkpoints) and the
 * DRA objects the GPUs of a multinode container with resource claims are counted from.
 */
export type InputClusterState = CheckpointClusterState & ClusterObjects;

/**
 * The DCDs the operator's graph controller creates for a new graph (`dgd`: as stored after CREATE).
 * `cluster` holds the observed PodSnapshot / SnapshotJob documents checkpoint-enabled components are
 * resolved against.
 */
export function renderGraphComponents(dgd: DgdJson, settings: OperatorSettings, cluster?: CheckpointClusterState): DcdJson[] {
  // the graph controller's shared resources (GMS claims, checkpoints) come before any DCD
  refuseGmsWithoutDra(dgd, settings);
  checkpointStorageFor(`DynamoGraphDeployment/${dgd.metadata.name}`, dgd.spec.components ?? [], settings);
  return generateGraphComponents(dgd, settings, graphCheckpoints(dgd, settings, cluster));
}

/** The resolved checkpoints of the graph's checkpoint-enabled components (none: no work). */
function graphCheckpoints(dgd: DgdJson, settings: OperatorSettings, cluster: CheckpointClusterState | undefined): ComponentCheckpoint[] {
  return graphCheckpointConfigs(dgd).length === 0 ? [] : resolveGraphCheckpoints(dgd, settings, cluster);
}

function generateGraphComponents(dgd: DgdJson, settings: OperatorSettings, checkpoints: readonly ComponentCheckpoint[]): DcdJson[] {
  const ref = `DynamoGraphDeployment/${dgd.metadata.name}`;
  if (dgd.metadata.annotations?.[ANNOTATION_WORKLOAD_PROVIDER] === PROVIDER_GROVE) {
    throw new RenderError(ref, `metadata.annotations["${ANNOTATION_WORKLOAD_PROVIDER}"]`,
      'the graph takes the Grove workload provider, which creates no DynamoComponentDeployments; '
      + 'annotate it nvidia.com/enable-grove: "false" or render with Grove unavailable');
  }
  const multinode = (dgd.spec.components ?? []).findIndex(c => (c.multinode?.nodeCount ?? 0) > 1);
  if (multinode >= 0 && !settings.lwsAvailable) {
    throw new RenderError(ref, `spec.components[${multinode}].multinode`,
      'no multinode orchestrator available: the component provider needs LeaderWorkerSet for multinode components');
  }
  const dcds = generateHashedComponentDcds(dgd);
  for (const dcd of dcds) applyCheckpointToGeneratedDcd(dcd, checkpointOf(checkpoints, dcd.spec.name ?? ''));
  return dcds.map(dcd => withCreateBookkeeping(storedGeneratedDcd(dcd)));
}

/**
 * Every object the operator creates for a new graph (`dgd`: as stored after CREATE): shared
 * resources, DCDs, their workloads, adapters. `cluster` as for `renderGraphComponents`, plus the
 * `resource.k8s.io/v1` ResourceClaimTemplates, ResourceClaims and DeviceClasses the GPU count of a
 * multinode container with resource claims is read from (see `dra-objects`).
 */
export function renderGraphWorkloads(dgd: DgdJson, settings: OperatorSettings, cluster?: InputClusterState): unknown[] {
  assertNoExperimentalFeatures(`DynamoGraphDeployment/${dgd.metadata.name}`, dgd.spec.components ?? [], 'spec.components');
  refuseGmsWithoutDra(dgd, settings);
  const checkpoints = graphCheckpoints(dgd, settings, cluster);
  const ref = `DynamoGraphDeployment/${dgd.metadata.name}`;
  if (dgd.metadata.annotations?.[ANNOTATION_WORKLOAD_PROVIDER] === PROVIDER_GROVE) {
    return assertObjectsFit(ref, renderGroveGraphWorkloads(dgd, settings, checkpoints, cluster));
  }
  const dcds = generateGraphComponents(dgd, settings, checkpoints);
  return assertObjectsFit(ref, workloads.renderGraphWorkloads(dgd, dcds, settings, checkpoints, cluster));
}

/**
 * The objects, each no larger than the API server accepts (`MAX_OBJECT_BYTES` as JSON): the
 * operator could not create a larger one (a multinode host list or clique list grows with the
 * node count), so rendering it is an error naming the object.
 */
function assertObjectsFit(ref: string, objects: unknown[]): unknown[] {
  for (const object of objects) {
    const size = Buffer.byteLength(JSON.stringify(object), 'utf8');
    if (size <= MAX_OBJECT_BYTES) continue;
    const o = object as { kind?: unknown; metadata?: { name?: unknown } };
    throw new RenderError(ref, `${String(o.kind)} ${String(o.metadata?.name)}`,
      `Too long: the object the operator creates is ${size} bytes as JSON; the API server accepts at most ${MAX_OBJECT_BYTES} bytes (3 MiB) per request, so the operator could not create it`);
  }
  return objects;
}

/**
 * The workloads the component controller creates for a new standalone DCD (`dcd`: as stored after
 * CREATE). `cluster` holds the DRA objects of the input, as for `renderGraphWorkloads`.
 */
export function renderComponentWorkloads(dcd: DcdJson, settings: OperatorSettings, cluster?: ClusterObjects): unknown[] {
  assertNoExperimentalFeatures(`DynamoComponentDeployment/${dcd.metadata.name}`, [dcd.spec ?? {}], 'spec');
  // its checkpoint as the component controller resolves it (a SnapshotJob-generation operator
  // refuses a standalone checkpointRef; older ones read the DynamoCheckpoint it names)
  const prepared = standaloneDcdWithCheckpoint(dcd, settings, cluster);
  // the component controller makes sure of the checkpoint storage PVC before it renders the workloads
  const storage = componentCheckpointStoragePvc(dcd, settings, cluster);
  return assertObjectsFit(`DynamoComponentDeployment/${dcd.metadata.name}`,
    [...storage, ...workloads.renderComponentWorkloads(prepared, settings, undefined, cluster)]);
}

/** Experimental features the workloads output renders (`grove` only takes effect on the Grove path). */
const RENDERED_EXPERIMENTAL_FEATURES = new Set(['grove', 'gpuMemoryService', 'failover', 'checkpoint']);

/**
 * Experimental features not rendered are refused rather than rendered wrongly.
 * A standalone DCD (`base` = `spec`) with the inter-pod GPU memory service is refused too: that
 * layout exists only as Grove cliques of a graph. (A graph with a multinode component is refused
 * without LeaderWorkerSet in `generateGraphComponents`; a standalone multinode DCD then gets the
 * component controller's fallback Deployment.)
 */
function assertNoExperimentalFeatures(ref: string, components: readonly ComponentSpecJson[], base: string): void {
  components.forEach((component, i) => {
    const at = base === 'spec' ? 'spec' : `${base}[${i}]`;
    const experimental = Object.keys(component.experimental ?? {})
      .filter(k => !RENDERED_EXPERIMENTAL_FEATURES.has(k) && (component.experimental as any)[k] !== undefined);
    if (experimental.length > 0) {
      throw new RenderError(ref, `${at}.experimental.${experimental[0]}`, `workloads output of experimental feature ${experimental[0]} is not supported; use graph or components output`);
    }
  });
  // a standalone DCD always takes the component path
  if (base === 'spec') refuseInterPodGmsOnComponentPath(ref, components, base);
}

/**
 * The cluster state among the input documents: observed PodSnapshots / SnapshotJobs (what
 * checkpoint-enabled components are resolved against), DRA objects (what the GPUs of a multinode
 * container with resource claims are counted from; one without a namespace is in the namespace the
 * input is rendered for), the Grove ClusterTopologyBindings admission reads for a new graph's
 * topology (rows 31, 32, 39, 105), and PersistentVolumeClaims (an existing checkpoint storage claim).
 */
export function inputClusterState(docs: readonly unknown[], namespace: string | undefined): InputClusterState {
  return {
    objects: [
      ...docs.filter(isCheckpointClusterObject),
      ...docs.filter(isDraObject).map(doc => withNamespace(doc, namespace ?? DEFAULT_NAMESPACE)),
      ...docs.filter(isClusterTopologyBinding),
      // an existing checkpoint storage claim (the operator creates none then)
      ...docs.filter(isPersistentVolumeClaim).map(doc => withNamespace(doc, namespace ?? DEFAULT_NAMESPACE)),
    ],
  };
}


/**
 * Whether a document is read as cluster state and not written out in components or workloads
 * output: observed PodSnapshots, SnapshotJobs and DynamoCheckpoints, DeviceClasses, Grove
 * ClusterTopologyBindings.
 */
export function isClusterStateDocument(doc: unknown): boolean {
  return isCheckpointClusterObject(doc) || isDraClusterStateOnly(doc) || isClusterTopologyBinding(doc);
}
