/**
 * Checkpoints of the operators of 1.4.0 and 1.5.0 (docs/design/render-experimental.md §3.8; operators without
 * `OPERATOR_GATES.snapshotJobCheckpoint`): the graph controller drives its own
 * `nvidia.com/v1alpha1` DynamoCheckpoint per checkpoint-enabled component, which the operator's
 * checkpoint controller then turns into a capture Job and a PodSnapshot.
 *
 * - Automatic capture (no `checkpointRef`): the DynamoCheckpoint `checkpoint-<id>`, `<id>` the first
 *   32 hex characters of the SHA-256 of the Go JSON of {namespace?, dgdName, dgdUID?, componentName,
 *   workerHash?}; it carries the capture pod template (the same builder as the SnapshotJob
 *   generation) and is created at once, so the generated DCD names it in `checkpointRef` from the
 *   first render on. An observed DynamoCheckpoint of that name is the one the operator finds.
 *   On the Grove path of operators with `OPERATOR_GATES.groveCheckpointBeforeWorkerHash` a
 *   worker-class component also gets the checkpoint named from an empty worker hash, which the
 *   graph's first reconcile creates and which stays (see `checkpointsBeforeWorkerHash`).
 * - Explicit `checkpointRef`: names a DynamoCheckpoint, which must be among the observed objects.
 *
 * Readiness is `status.phase: Ready` of the observed object. Restore of a Ready checkpoint with
 * `startupPolicy: WaitForCheckpoint` shapes the pods with the checkpoint storage the operator
 * discovers in the cluster (the snapshot agent's DaemonSet): not rendered, a RenderError says so.
 */
import { captureClaimTemplate, captureClaimTemplateName, containerGpuCount, wireCaptureGms } from './capture-gms';
import { captureComponentPodTemplate, graphRef } from './capture-pod';
import { CheckpointClusterState, findObserved, ObservedObject } from './cluster-state';
import type { ComponentCheckpoint } from './component-checkpoint';
import { ComponentCheckpointConfig } from './component-config';
import {
  ANNOTATION_AUTO_CHECKPOINT, ANNOTATION_CHECKPOINT_DELETION_POLICY, ANNOTATION_SNAPSHOT_ARTIFACT_VERSION, DEFAULT_ARTIFACT_VERSION,
  DEFAULT_GMS_DEVICE_CLASS, DYNAMO_CHECKPOINT_KIND, LABEL_SNAPSHOT_CHECKPOINT_ID, OPERATOR_FINALIZER,
  SNAPSHOT_API_VERSION, STARTUP_WAIT_FOR_CHECKPOINT,
} from './constants';
import {
  DYNAMO_CHECKPOINT_HASH_TYPES, observedArtifactVersion, observedCheckpointId, observedReady, refuseStorageShapedRestore, requiredDynamoCheckpoint,
} from './observed-checkpoint';
import { sortedRecord } from './snapshot-job';
import { goJsonEncode } from '../../../go/marshal';
import { isMap } from '../../../model/json';
import { OperatorSettings } from '../../../model/operator-settings';
import { operatorHas } from '../../../model/operator-version';
import { RenderError } from '../../../model/render-error';
import { DgdJson, isWorkerType, JsonObject } from '../../../model/v1beta1';
import { ANNOTATION_WORKLOAD_PROVIDER, LABEL_COMPONENT, LABEL_GRAPH_NAME, LABEL_WORKER_HASH, PROVIDER_GROVE } from '../../../model/well-known';
import { graphWorkerHash } from '../../graph/hashed-worker-dcds';
import { sha256Hex } from '../../hash/worker-hash';
import { ContainerJson, PodSpecJson } from '../../pod/k8s-json';

/** What identifies the automatic DynamoCheckpoint of one component. */
export interface DgdCheckpointIdentityInput {
  readonly namespace: string;
  readonly dgdName: string;
  readonly dgdUid: string;
  readonly componentName: string;
  /** Active worker hash of a worker-class component; empty otherwise. */
  readonly workerHash: string;
}

/** The 32-hex-character ID of a graph's automatic DynamoCheckpoint. */
export function dgdCheckpointId(input: DgdCheckpointIdentityInput): string {
  const value = {
    namespace: input.namespace,
    dgdName: input.dgdName,
    dgdUID: input.dgdUid,
    componentName: input.componentName,
    workerHash: input.workerHash,
  };
  return sha256Hex(goJsonEncode(value, 'DgdCheckpointIdentity', { types: DYNAMO_CHECKPOINT_HASH_TYPES })).slice(0, 32);
}

/** `checkpoint-<id>`. */
export function dynamoCheckpointName(id: string): string {
  return `checkpoint-${id}`;
}

/** The v1alpha1 (`intraPod` / `interPod`) spelling of a GPU memory service mode. */
function alphaGmsMode(mode: string): string {
  if (mode === 'IntraPod') return 'intraPod';
  if (mode === 'InterPod') return 'interPod';
  return mode;
}

/** Whether an observed checkpoint records an enabled GPU memory service. */
function observedGmsEnabled(ckpt: ObservedObject): boolean {
  const spec = isMap(ckpt.spec) ? ckpt.spec : {};
  return isMap(spec.gpuMemoryService) && spec.gpuMemoryService.enabled === true;
}

/** Everything the automatic DynamoCheckpoint is built from. */
export interface DynamoCheckpointInput {
  readonly id: string;
  readonly namespace: string;
  readonly graphName: string;
  readonly graphUid: string;
  readonly componentName: string;
  readonly backendFramework: string;
  readonly deletionPolicy: string;
  readonly targetContainerName: string;
  /** The finished capture pod template (labels included). */
  readonly podTemplate: JsonObject;
  /** The v1alpha1 GPU memory service record, when the component has one. */
  readonly gpuMemoryService?: JsonObject;
}

/**
 * The DynamoCheckpoint as the graph controller creates it: the checkpoint-ID label plus the graph,
 * component and worker-hash labels of the capture pod template, the artifact version, auto and
 * deletion-policy annotations, the operator's finalizer, and a spec of the deprecated identity
 * (`<namespace>/<graph>`, the backend, and the graph UID, component and ID as extra parameters),
 * the GPU memory service record and the capture job. The graph's controller reference (left out
 * with `Retain`) is not rendered: it needs the graph's UID, which only exists in the cluster.
 */
export function dynamoCheckpoint(input: DynamoCheckpointInput): JsonObject {
  const templateLabels: Record<string, string> = isMap(input.podTemplate.metadata) && isMap(input.podTemplate.metadata.labels)
    ? input.podTemplate.metadata.labels as Record<string, string>
    : {};
  const labels: Record<string, string> = { [LABEL_SNAPSHOT_CHECKPOINT_ID]: input.id };
  for (const key of [LABEL_GRAPH_NAME, LABEL_COMPONENT, LABEL_WORKER_HASH]) {
    if ((templateLabels[key] ?? '') !== '') labels[key] = templateLabels[key];
  }
  const spec: JsonObject = {
    identity: {
      model: `${input.namespace}/${input.graphName}`,
      backendFramework: input.backendFramework,
      extraParameters: sortedRecord({ dgdUID: input.graphUid, component: input.componentName, checkpointID: input.id }),
    },
  };
  if (input.gpuMemoryService) spec.gpuMemoryService = input.gpuMemoryService;
  spec.job = { podTemplateSpec: input.podTemplate, targetContainerName: input.targetContainerName };
  return {
    apiVersion: SNAPSHOT_API_VERSION,
    kind: DYNAMO_CHECKPOINT_KIND,
    metadata: {
      name: dynamoCheckpointName(input.id),
      namespace: input.namespace,
      labels: sortedRecord(labels),
      annotations: sortedRecord({
        [ANNOTATION_SNAPSHOT_ARTIFACT_VERSION]: DEFAULT_ARTIFACT_VERSION,
        [ANNOTATION_AUTO_CHECKPOINT]: 'true',
        [ANNOTATION_CHECKPOINT_DELETION_POLICY]: input.deletionPolicy,
      }),
      finalizers: [OPERATOR_FINALIZER],
    },
    spec,
  };
}

function fail(dgd: DgdJson, config: ComponentCheckpointConfig, message: string): never {
  throw new RenderError(graphRef(dgd), `spec.components[${config.index}].experimental.checkpoint`, message);
}

/**
 * Whether the graph controller reconciles a new graph's checkpoints before it has recorded the
 * worker hash (`OPERATOR_GATES.groveCheckpointBeforeWorkerHash`): the Grove path of operators with
 * that gate records it only after the PodCliqueSet (`dgd_grove_workloads_reconciler.go`), so the
 * first reconcile names each worker-class component's automatic checkpoint from an empty worker
 * hash, and the next one from the recorded hash. The first checkpoint stays: only the graph's
 * deletion removes automatic checkpoints (`deleteAutoCheckpointsForDGD` in
 * `dgd_checkpoints_reconciler.go`). The component path records the hash first.
 */
function checkpointsBeforeWorkerHash(dgd: DgdJson, settings: OperatorSettings): boolean {
  return dgd.metadata.annotations?.[ANNOTATION_WORKLOAD_PROVIDER] === PROVIDER_GROVE && operatorHas(settings.version, 'groveCheckpointBeforeWorkerHash');
}

/**
 * The objects of one automatic capture named from `workerHash`, in creation order: the capture
 * ResourceClaimTemplate (GPU memory service with GPUs) and the DynamoCheckpoint.
 */
function automaticCaptureObjects(
  dgd: DgdJson, config: ComponentCheckpointConfig, settings: OperatorSettings, workerHash: string, createFail: (message: string) => never,
): JsonObject[] {
  const namespace = dgd.metadata.namespace ?? '';
  const graphUid = dgd.metadata.uid ?? '';
  const componentName = config.componentName;
  const componentGms = config.component.experimental?.gpuMemoryService;
  const id = dgdCheckpointId({ namespace, dgdName: dgd.metadata.name ?? '', dgdUid: graphUid, componentName, workerHash });
  const capture = captureComponentPodTemplate(dgd, config, settings, workerHash);
  const podSpec = capture.template.spec as PodSpecJson;
  const objects: JsonObject[] = [];
  let gpuMemoryService: JsonObject | undefined;
  if (isMap(componentGms)) {
    const mode = alphaGmsMode(typeof componentGms.mode === 'string' ? componentGms.mode : '');
    const deviceClassName = typeof componentGms.deviceClassName === 'string' ? componentGms.deviceClassName : '';
    gpuMemoryService = { enabled: true };
    if (mode !== '') gpuMemoryService.mode = mode;
    if (deviceClassName !== '') gpuMemoryService.deviceClassName = deviceClassName;
    if (config.jobGmsClientContainers.length > 0) gpuMemoryService.extraClientContainers = [...config.jobGmsClientContainers];
    const claimTemplate = captureClaimTemplateName(id);
    const at = `spec.components[${config.index}]`;
    const target = podSpec.containers.find(c => c.name === config.targetContainerName) as ContainerJson;
    const gpus = containerGpuCount(target, graphRef(dgd), `${at}.podTemplate`);
    if (gpus > 0) objects.push(captureClaimTemplate(dgd, claimTemplate, gpus, deviceClassName || DEFAULT_GMS_DEVICE_CLASS));
    if (mode === 'interPod') createFail(`failed to build checkpoint job pod template: gpuMemoryService checkpoint jobs for mode "${mode}" are not implemented`);
    if (mode !== '' && mode !== 'intraPod') createFail(`failed to build checkpoint job pod template: gpuMemoryService checkpoint job has unsupported mode "${mode}"`);
    wireCaptureGms(podSpec, config.targetContainerName, config.jobGmsClientContainers, claimTemplate, graphRef(dgd), at,
      { v1Protocol: false, missingClients: 'skip' });
  }
  objects.push(dynamoCheckpoint({
    id,
    namespace,
    graphName: dgd.metadata.name ?? '',
    graphUid,
    componentName,
    backendFramework: capture.backendFramework,
    deletionPolicy: config.deletionPolicy,
    targetContainerName: config.targetContainerName,
    podTemplate: capture.template,
    gpuMemoryService,
  }));
  return objects;
}

/** The resolved checkpoint of one component under an operator of the DynamoCheckpoint generation. */
export function dynamoCheckpointOf(
  dgd: DgdJson, config: ComponentCheckpointConfig, settings: OperatorSettings, state: CheckpointClusterState | undefined,
): ComponentCheckpoint {
  const namespace = dgd.metadata.namespace ?? '';
  const componentName = config.componentName;
  const resolveFail = (message: string): never => fail(dgd, config, `failed to resolve checkpoint for component ${componentName}: ${message}`);
  const componentGms = config.component.experimental?.gpuMemoryService;
  const base = {
    generation: 'dynamo-checkpoint' as const,
    config,
    startupPolicy: config.startupPolicy,
    compatibilityHash: '',
    restoreTargets: [config.targetContainerName],
  };
  const checkGms = (ckpt: ObservedObject): void => {
    if (isMap(componentGms) && !observedGmsEnabled(ckpt)) {
      fail(dgd, config, `failed to apply checkpoint gpuMemoryService config for component ${componentName}: `
        + `gpuMemoryService restore requires resolved checkpoint ${JSON.stringify(ckpt.metadata.name ?? '')} to enable gpuMemoryService`);
    }
  };
  const refuseIfStorageShaped = (name: string, ready: boolean): void => {
    if (ready && config.startupPolicy === STARTUP_WAIT_FOR_CHECKPOINT) refuseStorageShapedRestore(name, message => fail(dgd, config, message));
  };

  if (config.checkpointRef !== '') {
    const ckpt = requiredDynamoCheckpoint(state, namespace, config.checkpointRef, resolveFail);
    checkGms(ckpt);
    const ready = observedReady(ckpt);
    refuseIfStorageShaped(config.checkpointRef, ready);
    return {
      ...base,
      automatic: false,
      ready,
      exists: true,
      checkpointName: config.checkpointRef,
      checkpointId: observedCheckpointId(ckpt),
      artifactVersion: observedArtifactVersion(ckpt),
      objects: [],
    };
  }

  const workerHash = isWorkerType(config.component.type) ? graphWorkerHash(dgd) : '';
  const id = dgdCheckpointId({ namespace, dgdName: dgd.metadata.name ?? '', dgdUid: dgd.metadata.uid ?? '', componentName, workerHash });
  const name = dynamoCheckpointName(id);
  const observed = findObserved(state, DYNAMO_CHECKPOINT_KIND, namespace, name);
  if (observed) checkGms(observed);

  const createFail = (message: string): never => fail(dgd, config, `failed to create checkpoint for component ${componentName}: ${message}`);
  // on the Grove path of these operators the first reconcile does not know the worker hash yet
  const firstReconcile = workerHash !== '' && checkpointsBeforeWorkerHash(dgd, settings)
    ? automaticCaptureObjects(dgd, config, settings, '', createFail)
    : [];
  const objects = [...firstReconcile, ...automaticCaptureObjects(dgd, config, settings, workerHash, createFail)];

  // an existing checkpoint of that name must be this capture's
  const checkpointId = observed ? observedCheckpointId(observed) : id;
  if (observed && checkpointId !== id) createFail(`checkpoint ${name} already exists with checkpoint ID ${checkpointId}`);
  const ready = observed !== undefined && observedReady(observed);
  refuseIfStorageShaped(name, ready);
  return {
    ...base,
    automatic: true,
    ready,
    exists: true,
    checkpointName: name,
    checkpointId,
    artifactVersion: observed ? observedArtifactVersion(observed) : DEFAULT_ARTIFACT_VERSION,
    objects,
  };
}
