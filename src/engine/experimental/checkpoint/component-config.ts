/**
 * The checkpoint settings of one graph component as the operator reads them (docs/design/render-experimental.md
 * §3, §0 field mapping): defaults applied, `checkpointRef` trimmed. The deprecated `mode` and
 * `identity` fields are read by nobody: the newest operator derives the capture identity from the
 * graph (§3.2.1) and the restore gate from the compatibility hash (§3.3), so both are ignored here.
 */
import { DELETION_DELETE, STARTUP_IMMEDIATE } from './constants';
import { isMap, JsonMap } from '../../../model/json';
import { CheckpointJson, ComponentSpecJson, DgdJson, JsonObject } from '../../../model/v1beta1';
import { MAIN_CONTAINER } from '../../../model/well-known';

/** What the operator reads from `experimental.checkpoint` of one component. */
export interface ComponentCheckpointConfig {
  /** Position of the component in `spec.components`. */
  readonly index: number;
  /** The component as written in the graph. */
  readonly component: ComponentSpecJson;
  /** The component name (`spec.components[i].name`). */
  readonly componentName: string;
  /** `startupPolicy`, default `Immediate`. */
  readonly startupPolicy: 'Immediate' | 'WaitForCheckpoint';
  /** `deletionPolicy`, default `Delete`. */
  readonly deletionPolicy: 'Delete' | 'Retain';
  /** `targetContainerName`, default `main`. */
  readonly targetContainerName: string;
  /** Whether `targetContainerName` was written (it then also names the restore destination). */
  readonly targetContainerExplicit: boolean;
  /** `checkpointRef` trimmed; empty for automatic capture. */
  readonly checkpointRef: string;
  /** `job.gmsClientContainers` (empty when absent). */
  readonly jobGmsClientContainers: readonly string[];
  /** `job.podTemplate`, when written. */
  readonly jobPodTemplate?: JsonObject;
}

/** The checkpoint block of a component when it is enabled; undefined otherwise. */
export function enabledCheckpoint(component: ComponentSpecJson): CheckpointJson | undefined {
  const checkpoint = component.experimental?.checkpoint;
  return isMap(checkpoint) && checkpoint.enabled === true ? checkpoint : undefined;
}

/** Reads the checkpoint settings of a component; undefined when checkpointing is not enabled on it. */
export function componentCheckpointConfig(component: ComponentSpecJson, index: number): ComponentCheckpointConfig | undefined {
  const checkpoint = enabledCheckpoint(component);
  if (!checkpoint) return undefined;
  const job: JsonMap = isMap(checkpoint.job) ? checkpoint.job : {};
  const target = typeof checkpoint.targetContainerName === 'string' ? checkpoint.targetContainerName : '';
  return {
    index,
    component,
    componentName: component.name ?? '',
    startupPolicy: checkpoint.startupPolicy === 'WaitForCheckpoint' ? 'WaitForCheckpoint' : STARTUP_IMMEDIATE,
    deletionPolicy: checkpoint.deletionPolicy === 'Retain' ? 'Retain' : DELETION_DELETE,
    targetContainerName: target !== '' ? target : MAIN_CONTAINER,
    targetContainerExplicit: target !== '',
    checkpointRef: typeof checkpoint.checkpointRef === 'string' ? checkpoint.checkpointRef.trim() : '',
    jobGmsClientContainers: Array.isArray(job.gmsClientContainers) ? job.gmsClientContainers.map(String) : [],
    jobPodTemplate: isMap(job.podTemplate) ? job.podTemplate as JsonObject : undefined,
  };
}

/** The checkpoint settings of every checkpoint-enabled component of a graph, in component order. */
export function graphCheckpointConfigs(dgd: DgdJson): ComponentCheckpointConfig[] {
  const out: ComponentCheckpointConfig[] = [];
  (dgd.spec.components ?? []).forEach((component, index) => {
    const config = componentCheckpointConfig(component, index);
    if (config) out.push(config);
  });
  return out;
}
