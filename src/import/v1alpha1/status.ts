/**
 * Status of a converted object: v1alpha1 `services` become v1beta1 `components` (a single
 * `service` becomes `component`), `updatedServices` becomes `updatedComponents`, and a
 * `componentName` that the v1beta1 `componentNames` list cannot give back is saved, with
 * `podSelector` of a DynamoComponentDeployment, in the status preservation annotation.
 */
import { GoMap, nonEmpty } from './go-view';
import { jsonRoundTrip } from '../../model/json-copy';

/** v1beta1 replica status of a v1alpha1 one: `componentName` joins `componentNames` when that is empty. */
function replicaStatusToHub(src: GoMap): GoMap {
  const dst: GoMap = {
    componentKind: src.componentKind,
    componentNames: componentNamesToHub(src),
    runtimeNamespace: src.runtimeNamespace,
    replicas: src.replicas,
    updatedReplicas: src.updatedReplicas,
  };
  for (const key of ['readyReplicas', 'availableReplicas', 'scheduledReplicas']) {
    if (src[key] !== undefined) dst[key] = src[key];
  }
  return dst;
}

function componentNamesToHub(src: GoMap): string[] | undefined {
  const names: string[] = jsonRoundTrip(src.componentNames ?? []);
  if (names.length === 0 && src.componentName) names.push(src.componentName);
  return names.length > 0 ? names : undefined;
}

/** Whether `componentName` is not the last of `componentNames` (nor the only name when the list is empty). */
function componentNameNeedsPreservation(src: GoMap | undefined): boolean {
  if (!src) return false;
  const names: string[] = src.componentNames ?? [];
  if (names.length === 0) return !!src.componentName;
  return names[names.length - 1] !== (src.componentName ?? '');
}

function savedComponentName(src: GoMap): GoMap {
  const out: GoMap = { componentName: src.componentName ?? '' };
  if (nonEmpty(src.componentNames)) out.componentNames = jsonRoundTrip(src.componentNames);
  return out;
}

/** A DynamoGraphDeployment status: the v1beta1 status and the v1alpha1-only data to keep. */
export function convertGraphStatus(src: GoMap): { status: GoMap; save: GoMap } {
  const dst: GoMap = { observedGeneration: src.observedGeneration, state: src.state };
  if (src.placement) {
    dst.placement = { state: src.placement.state };
    if (src.placement.score !== undefined) dst.placement.score = src.placement.score;
  }
  if (nonEmpty(src.conditions)) dst.conditions = jsonRoundTrip(src.conditions);
  const save: GoMap = {};
  const services: GoMap = src.services ?? {};
  if (Object.keys(services).length > 0) {
    dst.components = {};
    for (const [name, svc] of Object.entries(services)) {
      dst.components[name] = replicaStatusToHub(svc);
      if (componentNameNeedsPreservation(svc)) (save.services ??= {})[name] = savedComponentName(svc);
    }
  }
  if (src.restart) dst.restart = { observedID: src.restart.observedID, phase: src.restart.phase, inProgress: jsonRoundTrip(src.restart.inProgress) };
  if (Object.keys(src.checkpoints ?? {}).length > 0) dst.checkpoints = jsonRoundTrip(src.checkpoints);
  if (src.rollingUpdate) {
    const r = src.rollingUpdate;
    dst.rollingUpdate = { phase: r.phase, startTime: r.startTime, endTime: r.endTime, updatedComponents: jsonRoundTrip(r.updatedServices) };
  }
  return { status: dst, save };
}

/** A DynamoComponentDeployment status: the v1beta1 status and the v1alpha1-only data to keep. */
export function convertComponentStatus(src: GoMap): { status: GoMap; save: GoMap } {
  const dst: GoMap = { observedGeneration: src.observedGeneration };
  if (nonEmpty(src.conditions)) dst.conditions = jsonRoundTrip(src.conditions);
  if (src.service) dst.component = replicaStatusToHub(src.service);
  const save: GoMap = {};
  if (Object.keys(src.podSelector ?? {}).length > 0) save.podSelector = jsonRoundTrip(src.podSelector);
  if (componentNameNeedsPreservation(src.service)) save.service = savedComponentName(src.service);
  return { status: dst, save };
}
