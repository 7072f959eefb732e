/**
 * The render engine: a pure function from plain documents (Dynamo custom resources and any other
 * Kubernetes objects) plus operator settings to the list of objects to write.
 */
import { admitNewGraph, validateOptionsFor } from './admission';
import { withCreateBookkeeping } from './bookkeeping';
import { RenderError } from './errors';
import {
  applyCheckpointToGeneratedDcd, CheckpointClusterState, checkpointOf, ComponentCheckpoint, graphCheckpointConfigs, isCheckpointClusterObject,
  resolveGraphCheckpoints, standaloneDcdWithCheckpoint,
} from './experimental/checkpoint';
import { refuseInterPodGmsOnComponentPath } from './experimental/component-path';
import { generateComponentDcds } from './graph/component-dcds';
import { graphWorkerHash } from './graph/worker-hash';
import { renderGroveGraphWorkloads } from './grove/render-grove';
import { ClusterObjects, isDraClusterStateOnly, isDraObject } from './multinode/dra-objects';
import { OperatorSettings, resolveOperatorSettings } from './operator-settings';
import { operatorVersionProblem } from './operator-version';
import { deepClone, isMap, JsonMap } from '../model/json';
import { ComponentSpecJson, DcdJson, DgdJson, isDcd, isDgd } from '../model/v1beta1';
import { defaultComponentDeployment } from '../validation/defaulting';
import * as workloads from './workloads/render-workloads';
import { ANNOTATION_WORKLOAD_PROVIDER, PROVIDER_GROVE } from '../model/well-known';
import { isClusterTopologyBinding } from '../validation/cluster-topology';
import { validateDocument } from '../validation/validate';
import { Violation } from '../validation/violation';

/** What the engine writes for Dynamo documents. */
export type OutputMode = 'graph' | 'components' | 'workloads';

export const OUTPUT_MODES: readonly OutputMode[] = ['graph', 'components', 'workloads'];

/** Kubernetes' namespace for objects that name none. */
export const DEFAULT_NAMESPACE = 'default';

export interface RenderOptions {
  readonly output: OutputMode;
  /** Namespace for objects that have none. */
  readonly namespace?: string;
  readonly operator?: Partial<OperatorSettings>;
  /**
   * Whether a DynamoGraphDeployment or DynamoComponentDeployment is checked as the operator admits
   * it on create before it is rendered in components or workloads output (a RenderError lists the
   * violations). `false` renders documents the operator would refuse, as the engine's own tests do
   * to pin how such input is handled; no cluster would hold the result.
   * @default true
   */
  readonly checkAdmission?: boolean;
}

/**
 * Cluster objects given with the input: observed PodSnapshots / SnapshotJobs (checkpoints) and the
 * DRA objects the GPUs of a multinode container with resource claims are counted from.
 */
export type InputClusterState = CheckpointClusterState & ClusterObjects;

/** Kinds that live outside namespaces and never get one. */
const CLUSTER_SCOPED_KINDS = new Set([
  'APIService', 'CSIDriver', 'ClusterRole', 'ClusterRoleBinding', 'ClusterTopology', 'ClusterTopologyBinding', 'CustomResourceDefinition',
  'DeviceClass', 'IngressClass', 'MutatingWebhookConfiguration', 'Namespace', 'Node', 'PersistentVolume',
  'PriorityClass', 'RuntimeClass', 'StorageClass', 'ValidatingAdmissionPolicy', 'ValidatingAdmissionPolicyBinding',
  'ValidatingWebhookConfiguration', 'VolumeAttachment',
]);

function withNamespace<T>(doc: T, namespace: string | undefined): T {
  if (!namespace || !isMap(doc) || CLUSTER_SCOPED_KINDS.has((doc as any).kind)) return doc;
  const meta = (doc as any).metadata;
  if (isMap(meta) && meta.namespace) return doc;
  return { ...(doc as any), metadata: { ...(meta ?? {}), namespace } } as T;
}

/**
 * The DCDs the operator's graph controller creates for a new graph. `cluster` holds the observed
 * PodSnapshot / SnapshotJob documents checkpoint-enabled components are resolved against.
 */
export function renderGraphComponents(input: DgdJson, settings: OperatorSettings, namespace?: string, cluster?: CheckpointClusterState): DcdJson[] {
  const dgd = admitGraph(input, settings, namespace);
  return generateGraphComponents(dgd, settings, graphCheckpoints(dgd, settings, cluster));
}

/** The resolved checkpoints of the graph's checkpoint-enabled components (none: no work). */
function graphCheckpoints(dgd: DgdJson, settings: OperatorSettings, cluster: CheckpointClusterState | undefined): ComponentCheckpoint[] {
  return graphCheckpointConfigs(dgd).length === 0 ? [] : resolveGraphCheckpoints(dgd, settings, cluster);
}

function admitGraph(input: DgdJson, settings: OperatorSettings, namespace?: string): DgdJson {
  return admitNewGraph(withNamespace(input, namespace ?? DEFAULT_NAMESPACE), settings);
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
  const dcds = generateComponentDcds(dgd, graphWorkerHash(dgd));
  for (const dcd of dcds) applyCheckpointToGeneratedDcd(dcd, checkpointOf(checkpoints, dcd.spec.name ?? ''));
  return dcds.map(withCreateBookkeeping);
}

/**
 * Every object the operator creates for a new graph: shared resources, DCDs, their workloads,
 * adapters. `cluster` as for `renderGraphComponents`, plus the `resource.k8s.io/v1`
 * ResourceClaimTemplates, ResourceClaims and DeviceClasses the GPU count of a multinode container
 * with resource claims is read from (see `dra-objects`).
 */
export function renderGraphWorkloads(input: DgdJson, settings: OperatorSettings, namespace?: string, cluster?: InputClusterState): unknown[] {
  const dgd = admitGraph(input, settings, namespace);
  assertNoExperimentalFeatures(`DynamoGraphDeployment/${dgd.metadata.name}`, dgd.spec.components ?? [], 'spec.components');
  const checkpoints = graphCheckpoints(dgd, settings, cluster);
  if (dgd.metadata.annotations?.[ANNOTATION_WORKLOAD_PROVIDER] === PROVIDER_GROVE) {
    return renderGroveGraphWorkloads(dgd, settings, checkpoints, cluster);
  }
  const dcds = generateGraphComponents(dgd, settings, checkpoints);
  return workloads.renderGraphWorkloads(dgd, dcds, settings, checkpoints, cluster);
}

/**
 * The workloads the component controller creates for a new standalone DCD. `cluster` holds the DRA
 * objects of the input, as for `renderGraphWorkloads`.
 */
export function renderComponentWorkloads(input: DcdJson, settings: OperatorSettings, namespace?: string, cluster?: ClusterObjects): unknown[] {
  const dcd = defaultComponentDeployment(withNamespace(input, namespace ?? DEFAULT_NAMESPACE) as unknown as JsonMap) as unknown as DcdJson;
  assertNoExperimentalFeatures(`DynamoComponentDeployment/${dcd.metadata.name}`, [dcd.spec ?? {}], 'spec');
  // its checkpoint as the component controller resolves it (a SnapshotJob-generation operator
  // refuses a standalone checkpointRef; older ones read the DynamoCheckpoint it names)
  const prepared = standaloneDcdWithCheckpoint(dcd, settings, cluster);
  return workloads.renderComponentWorkloads(prepared, settings, undefined, cluster);
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
 * Renders every document; non-Dynamo documents pass through unchanged. Input is not modified.
 *
 * Throws nothing but `RenderError`: a DynamoGraphDeployment or DynamoComponentDeployment rendered
 * in components or workloads output is first checked as the operator admits it on create
 * (`validateDocument`), and one RenderError lists every violation when it would be rejected; any
 * other failure of a render is reported as an internal error.
 */
export function renderDocuments(docs: readonly unknown[], options: RenderOptions): unknown[] {
  const settings = guarded('operator settings', () => supportedOperatorSettings(options.operator));
  // observed PodSnapshots / SnapshotJobs are what checkpoint-enabled components are resolved against;
  // DRA objects are what the GPUs of a multinode container with resource claims are counted from
  // (one without a namespace is in the namespace the input is rendered for)
  const cluster: InputClusterState = {
    objects: [
      ...docs.filter(isCheckpointClusterObject),
      ...docs.filter(isDraObject).map(doc => withNamespace(doc, options.namespace ?? DEFAULT_NAMESPACE)),
      // the Grove ClusterTopologyBindings admission reads for a new graph's topology (rows 31, 32, 39, 105)
      ...docs.filter(isClusterTopologyBinding),
    ],
  };
  const out: unknown[] = [];
  docs.forEach((doc, index) => {
    out.push(...guarded(documentRef(doc, index), () => renderDocument(doc, options, settings, cluster)));
  });
  return out;
}

/** The resolved settings; an operator version this library does not render for is a RenderError. */
function supportedOperatorSettings(partial: Partial<OperatorSettings> | undefined): OperatorSettings {
  const settings = resolveOperatorSettings(partial);
  const problem = operatorVersionProblem(settings.version);
  if (problem !== undefined) throw new RenderError('operator settings', 'version', problem);
  return settings;
}

/** The objects one document renders to (itself, for documents passed through). */
function renderDocument(doc: unknown, options: RenderOptions, settings: OperatorSettings, cluster: InputClusterState): unknown[] {
  if (options.output !== 'graph' && options.checkAdmission !== false && (isDgd(doc) || isDcd(doc))) refuseInadmissible(doc, settings, cluster);
  if (options.output !== 'graph' && (isDgd(doc) || isDcd(doc))) refuseUnnamed(doc);
  if (options.output === 'components' && isDgd(doc)) return renderGraphComponents(doc, settings, options.namespace, cluster);
  if (options.output === 'workloads' && isDgd(doc)) return renderGraphWorkloads(doc, settings, options.namespace, cluster);
  if (options.output === 'workloads' && isDcd(doc)) return renderComponentWorkloads(doc, settings, options.namespace, cluster);
  if (isDgd(doc) || isDcd(doc)) return [withNamespace(deepClone(doc), options.namespace)];
  // observed checkpoint objects are cluster state read by the render, not objects to apply
  // cluster state read by the render or admission (observed checkpoints, a DeviceClass, Grove's
  // ClusterTopologyBinding) is not written; the app's ResourceClaimTemplates and ResourceClaims are
  if (options.output !== 'graph' && isClusterStateDocument(doc)) return [];
  return [withNamespace(doc, options.namespace)];
}

/**
 * Whether a document is read as cluster state and not written out in components or workloads
 * output: observed PodSnapshots, SnapshotJobs and DynamoCheckpoints, DeviceClasses, Grove
 * ClusterTopologyBindings.
 */
export function isClusterStateDocument(doc: unknown): boolean {
  return isCheckpointClusterObject(doc) || isDraClusterStateOnly(doc) || isClusterTopologyBinding(doc);
}

/**
 * A Dynamo document the operator would never have admitted is not rendered: one RenderError names
 * the object and lists every violation (field path, message, rule).
 */
function refuseInadmissible(doc: DgdJson | DcdJson, settings: OperatorSettings, cluster: InputClusterState): void {
  const violations = validateDocument(doc, validateOptionsFor(settings, cluster.objects));
  if (violations.length === 0) return;
  const listed = violations.map(describeViolation).join('; ');
  const count = violations.length === 1 ? '1 violation' : `${violations.length} violations`;
  throw new RenderError(`${doc.kind}/${stringOr(doc.metadata?.name, '')}`, violations[0].path || '(the object)',
    `the operator would reject this object on create (${count}): ${listed}`);
}

/**
 * The operator names every object it creates after the graph (or component deployment): one
 * without a name (only `generateName`, which the API server completes on create) cannot be
 * rendered in components or workloads output.
 */
function refuseUnnamed(doc: DgdJson | DcdJson): void {
  const name = doc.metadata?.name;
  if (typeof name === 'string' && name !== '') return;
  const generateName = doc.metadata?.generateName;
  const generated = typeof generateName === 'string' && generateName !== ''
    ? `with only metadata.generateName (${JSON.stringify(generateName)}) is named by the API server on create`
    : 'has no name';
  throw new RenderError(`${doc.kind}/`, 'metadata.name',
    `Required value: the operator names the objects it creates after the ${doc.kind}, and a ${doc.kind} ${generated}, `
    + 'so its objects cannot be rendered; set metadata.name');
}

function describeViolation(v: Violation): string {
  return `${v.path === '' ? '(the object)' : v.path}: ${v.message} (rule ${v.rule})`;
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' ? value : fallback;
}

/** `Kind/name` of a document, or its position when it has neither. */
function documentRef(doc: unknown, index: number): string {
  const kind = isMap(doc) ? stringOr(doc.kind, '') : '';
  const name = isMap(doc) && isMap(doc.metadata) ? stringOr(doc.metadata.name, '') : '';
  return kind === '' && name === '' ? `document #${index + 1}` : `${kind}/${name}`;
}

/** Runs `step`; any exception but a RenderError becomes a RenderError saying it is an internal error. */
function guarded<T>(ref: string, step: () => T): T {
  try {
    return step();
  } catch (e) {
    if (e instanceof RenderError) throw e;
    const detail = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    throw new RenderError(ref, '(the object)', `internal error: rendering failed unexpectedly (${detail}); please report it`);
  }
}
