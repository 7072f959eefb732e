/**
 * The checkpoint state of every checkpoint-enabled component of a graph, as the operator's graph
 * reconciler resolves it (docs/design/render-experimental.md §3.1): automatic capture (a SnapshotJob, and for the
 * GPU memory service its ResourceClaimTemplate) or an explicit `checkpointRef` PodSnapshot; plus
 * whether the checkpoint is ready, which the startup policy gates on (§3.6).
 */
import { captureClaimTemplate, captureClaimTemplateName, captureGmsIdentity, containerGpuCount, wireCaptureGms } from './capture-gms';
import { captureComponentPodTemplate, graphRef } from './capture-pod';
import { CheckpointClusterState, condition, conditionTrue, findObserved, ObservedObject } from './cluster-state';
import type { ComponentCheckpoint } from './component-checkpoint';
import { ComponentCheckpointConfig, graphCheckpointConfigs } from './component-config';
import { ANNOTATION_AUTO_CHECKPOINT, ANNOTATION_CHECKPOINT_OWNER_UID, SNAPSHOT_JOB_KIND } from './constants';
import { dynamoCheckpointOf } from './dynamo-checkpoint';
import { checkpointId, snapshotCompatibilityHash, snapshotJobName } from './identity';
import { resolvePodSnapshot } from './pod-snapshot';
import { snapshotJob } from './snapshot-job';
import { isMap } from '../../../model/json';
import { OperatorSettings } from '../../../model/operator-settings';
import { operatorHas } from '../../../model/operator-version';
import { RenderError } from '../../../model/render-error';
import { DgdJson, isWorkerType, JsonObject } from '../../../model/v1beta1';
import { graphWorkerHash } from '../../graph/hashed-worker-dcds';
import { ContainerJson, PodSpecJson } from '../../pod/k8s-json';

function resolveError(dgd: DgdJson, config: ComponentCheckpointConfig, message: string): never {
  throw new RenderError(graphRef(dgd), `spec.components[${config.index}].experimental.checkpoint`, message);
}

/** The observed automatic job, checked to belong to this graph incarnation. */
function observedJob(
  dgd: DgdJson, config: ComponentCheckpointConfig, state: CheckpointClusterState | undefined, name: string,
): ObservedObject | undefined {
  const namespace = dgd.metadata.namespace ?? '';
  const job = findObserved(state, SNAPSHOT_JOB_KIND, namespace, name);
  if (!job) return undefined;
  const uid = dgd.metadata.uid ?? '';
  const annotations = job.metadata.annotations ?? {};
  if (annotations[ANNOTATION_AUTO_CHECKPOINT] !== 'true' || (annotations[ANNOTATION_CHECKPOINT_OWNER_UID] ?? '') !== uid) {
    resolveError(dgd, config, `failed to resolve checkpoint for component ${config.componentName}: SnapshotJob ${namespace}/${name} `
      + `already exists and is not managed by DGD uid ${JSON.stringify(uid)}`);
  }
  return job;
}

/** One automatic capture: the objects, and what the observed job says about readiness. */
function automaticCheckpoint(
  dgd: DgdJson, config: ComponentCheckpointConfig, settings: OperatorSettings, state: CheckpointClusterState | undefined,
): ComponentCheckpoint {
  const ref = graphRef(dgd);
  const at = `spec.components[${config.index}]`;
  const namespace = dgd.metadata.namespace ?? '';
  const graphUid = dgd.metadata.uid ?? '';
  // the converged worker generation: a new graph records its desired worker hash as the active one
  const workerHash = isWorkerType(config.component.type) ? graphWorkerHash(dgd) : '';
  const capture = captureComponentPodTemplate(dgd, config, settings, workerHash);
  const podSpec = capture.template.spec as PodSpecJson;
  const gms = captureGmsIdentity(config.component, ref, at);
  const compatibilityHash = snapshotCompatibilityHash(podSpec, config.targetContainerName, capture.backendFramework, gms, ref);
  const id = checkpointId({
    namespace, dgdName: dgd.metadata.name ?? '', dgdUid: graphUid, componentName: config.componentName, workerHash, compatibilityHash,
  });
  const name = snapshotJobName(id);

  const objects: JsonObject[] = [];
  if (isMap(config.component.experimental?.gpuMemoryService)) {
    const claimTemplate = captureClaimTemplateName(id);
    const target = podSpec.containers.find(c => c.name === config.targetContainerName) as ContainerJson;
    const gpus = containerGpuCount(target, ref, `${at}.podTemplate`);
    if (gpus > 0) {
      objects.push(captureClaimTemplate(dgd, claimTemplate, gpus, gms.deviceClassName));
    }
    wireCaptureGms(podSpec, config.targetContainerName, config.jobGmsClientContainers, claimTemplate, ref, at);
  }
  objects.push(snapshotJob({
    name,
    namespace,
    graphName: dgd.metadata.name ?? '',
    graphUid,
    componentName: config.componentName,
    workerHash,
    compatibilityHash,
    deletionPolicy: config.deletionPolicy,
    gmsMode: gms.mode,
    targetContainerName: config.targetContainerName,
    podTemplate: capture.template,
  }));

  const base = {
    generation: 'snapshot-job' as const, config, automatic: true, startupPolicy: config.startupPolicy, compatibilityHash, restoreTargets: restoreTargets(config), objects,
  };
  const job = observedJob(dgd, config, state, name);
  if (!job) return { ...base, ready: false, exists: false, checkpointName: '', snapshotJob: { name, uid: '' } };
  const status = isMap(job.status) ? job.status : {};
  const jobUid = String(job.metadata.uid ?? '');
  const podSnapshotName = String(status.podSnapshotName ?? '');
  if (conditionTrue(job, 'Failed')) {
    const failed = condition(job, 'Failed') ?? {};
    const message = String(failed.message ?? '');
    resolveError(dgd, config, `failed to resolve checkpoint for component ${config.componentName}: automatic SnapshotJob `
      + `${namespace}/${name} failed: ${String(failed.reason ?? '')}${message !== '' ? `: ${message}` : ''}`);
  }
  const pending = { ...base, ready: false, exists: false, checkpointName: podSnapshotName, snapshotJob: { name, uid: jobUid } };
  if (!conditionTrue(job, 'Completed')) return pending;
  if (jobUid === '') resolveError(dgd, config, `completed automatic SnapshotJob ${namespace}/${name} has no UID`);
  const podSnapshotUid = String(status.podSnapshotUID ?? '');
  if (podSnapshotName === '' || podSnapshotUid === '') {
    resolveError(dgd, config, `completed SnapshotJob ${namespace}/${name} has no PodSnapshot identity`);
  }
  const owner = (job.metadata.annotations ?? {})[ANNOTATION_CHECKPOINT_OWNER_UID] ?? '';
  const snapshot = resolvePodSnapshot(state, namespace, podSnapshotName, compatibilityHash, { kind: 'managed', ownerUid: owner },
    { objectRef: ref, field: `${at}.experimental.checkpoint`, componentName: config.componentName }, false);
  if (!snapshot) return pending;
  if (snapshot.uid !== podSnapshotUid) {
    resolveError(dgd, config, `SnapshotJob ${namespace}/${name} produced PodSnapshot uid ${JSON.stringify(podSnapshotUid)}, `
      + `found uid ${JSON.stringify(snapshot.uid)}`);
  }
  if (!snapshot.ready) return pending;
  return { ...base, ready: true, exists: true, checkpointName: snapshot.name, snapshotJob: { name, uid: jobUid }, podSnapshot: snapshot };
}

/** Restore destinations of a component: the written target container, else `main`. */
function restoreTargets(config: ComponentCheckpointConfig): string[] {
  return [config.targetContainerName];
}

/** An explicit `checkpointRef`: the PodSnapshot, checked against the component's own compatibility hash. */
function explicitCheckpoint(
  dgd: DgdJson, config: ComponentCheckpointConfig, settings: OperatorSettings, state: CheckpointClusterState | undefined,
): ComponentCheckpoint {
  const ref = graphRef(dgd);
  const at = `spec.components[${config.index}]`;
  const capture = captureComponentPodTemplate(dgd, config, settings, '');
  const gms = captureGmsIdentity(config.component, ref, at);
  const podSpec = capture.template.spec as PodSpecJson;
  const compatibilityHash = snapshotCompatibilityHash(podSpec, config.targetContainerName, capture.backendFramework, gms, ref);
  const snapshot = resolvePodSnapshot(state, dgd.metadata.namespace ?? '', config.checkpointRef, compatibilityHash, { kind: 'explicit' },
    { objectRef: ref, field: `${at}.experimental.checkpoint.checkpointRef`, componentName: config.componentName }, true)!;
  return {
    generation: 'snapshot-job',
    config,
    automatic: false,
    startupPolicy: config.startupPolicy,
    compatibilityHash,
    ready: snapshot.ready,
    exists: true,
    checkpointName: snapshot.name,
    restoreTargets: restoreTargets(config),
    podSnapshot: snapshot,
    objects: [],
  };
}

/**
 * The checkpoint of every checkpoint-enabled component of an admitted graph, in component order.
 * `state` holds the cluster objects the operator would read (see `CheckpointClusterState`); without
 * it automatic captures are pending and explicit references fail to resolve.
 */
export function resolveGraphCheckpoints(dgd: DgdJson, settings: OperatorSettings, state?: CheckpointClusterState): ComponentCheckpoint[] {
  const snapshotJobs = operatorHas(settings.version, 'snapshotJobCheckpoint');
  return graphCheckpointConfigs(dgd).map(config => {
    if (!settings.checkpointEnabled) {
      resolveError(dgd, config, `component ${config.componentName}: checkpoint functionality is disabled in the operator configuration`);
    }
    if (!snapshotJobs) return dynamoCheckpointOf(dgd, config, settings, state);
    return config.checkpointRef === '' ? automaticCheckpoint(dgd, config, settings, state) : explicitCheckpoint(dgd, config, settings, state);
  });
}

/**
 * The objects the operator creates for the automatic captures of a graph (docs/design/render-experimental.md
 * §3.2, §3.8): per automatic component in component order, the capture ResourceClaimTemplate (GPU
 * memory service only) and the SnapshotJob (or, for operators 1.4.0 and 1.5.0, the DynamoCheckpoint).
 * Explicit references create nothing.
 */
export function renderCheckpointObjects(dgd: DgdJson, settings: OperatorSettings, state?: CheckpointClusterState): JsonObject[] {
  return resolveGraphCheckpoints(dgd, settings, state).flatMap(c => [...c.objects]);
}

/** The resolved checkpoint of the named component, if it has checkpointing enabled. */
export function checkpointOf(checkpoints: readonly ComponentCheckpoint[], componentName: string): ComponentCheckpoint | undefined {
  return checkpoints.find(c => c.config.componentName === componentName);
}
