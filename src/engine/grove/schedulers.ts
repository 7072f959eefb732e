/**
 * Gang schedulers on the Grove path (docs/design/render-multinode.md §4.2, §4.3): the KAI scheduler (clique
 * scheduler name and queue label) or Volcano (clique scheduler name, queue annotation on the
 * PodCliqueSet) — never both.
 */
import { OperatorSettings } from '../../model/operator-settings';
import { RenderError } from '../../model/render-error';
import { DgdJson, JsonObject } from '../../model/v1beta1';
import { PodSpecJson } from '../pod/k8s-json';

export const KAI_SCHEDULER = 'kai-scheduler';
export const VOLCANO_SCHEDULER = 'volcano';
/** Clique label naming the KAI queue. */
export const LABEL_KAI_QUEUE = 'kai.scheduler/queue';
/** Graph annotation choosing the KAI queue. */
export const ANNOTATION_KAI_QUEUE = 'nvidia.com/kai-scheduler-queue';
export const DEFAULT_KAI_QUEUE = 'dynamo';
/** Graph annotation choosing the Volcano queue. */
export const ANNOTATION_VOLCANO_QUEUE = 'nvidia.com/volcano-queue';
/** PodCliqueSet annotation Grove reads the Volcano queue from. */
export const ANNOTATION_GROVE_VOLCANO_QUEUE = 'scheduling.grove.io/volcano-queue';

/** The scheduler the graph's cliques are handed to. */
export interface GroveScheduling {
  /** The KAI queue, when the KAI scheduler integration is on. */
  readonly kaiQueue?: string;
  readonly volcano: boolean;
}

/**
 * The scheduling of a graph's cliques. The KAI queue must exist in the cluster (the operator
 * checks; offline it is assumed).
 */
export function groveScheduling(dgd: DgdJson, settings: OperatorSettings): GroveScheduling {
  if (settings.kaiSchedulerAvailable && settings.volcanoSchedulerAvailable) {
    throw new RenderError(`DynamoGraphDeployment/${dgd.metadata.name}`, 'metadata.annotations',
      'the KAI scheduler and Volcano scheduler integrations cannot both be enabled for Grove; turn one of them off in the operator settings');
  }
  if (!settings.kaiSchedulerAvailable) return { volcano: settings.volcanoSchedulerAvailable };
  const queue = (dgd.metadata.annotations?.[ANNOTATION_KAI_QUEUE] ?? '').trim();
  return { kaiQueue: queue === '' ? DEFAULT_KAI_QUEUE : queue, volcano: false };
}

/** The Volcano queue annotation of the PodCliqueSet, when Volcano is on and the graph names a queue. */
export function volcanoQueueAnnotation(dgd: DgdJson, scheduling: GroveScheduling): [string, string] | undefined {
  const queue = (dgd.metadata.annotations?.[ANNOTATION_VOLCANO_QUEUE] ?? '').trim();
  return scheduling.volcano && queue !== '' ? [ANNOTATION_GROVE_VOLCANO_QUEUE, queue] : undefined;
}

/** Hands one clique to the scheduler unless its pod spec names another scheduler. */
export function applyScheduler(podSpec: PodSpecJson, labels: Record<string, string>, scheduling: GroveScheduling): void {
  const current = (podSpec as JsonObject).schedulerName ?? '';
  if (scheduling.kaiQueue !== undefined && (current === '' || current === KAI_SCHEDULER)) {
    (podSpec as JsonObject).schedulerName = KAI_SCHEDULER;
    labels[LABEL_KAI_QUEUE] = scheduling.kaiQueue;
  }
  if (scheduling.volcano && (current === '' || current === VOLCANO_SCHEDULER)) {
    (podSpec as JsonObject).schedulerName = VOLCANO_SCHEDULER;
  }
}
