/**
 * What admission adds to a DynamoGraphDeployment on CREATE before it is stored: the operator's
 * defaulting webhook (workload provider, origin version, replicas, minAvailable, role replicas)
 * and the CRD's structural defaults.
 */
import { DgdJson } from '../../model/v1beta1';
import { deepClone } from '../json';
import { OperatorSettings } from '../operator-settings';
import { ANNOTATION_ENABLE_GROVE, ANNOTATION_ORIGIN_VERSION, ANNOTATION_WORKLOAD_PROVIDER } from '../well-known';
import { applyStoredDefaults } from './stored-defaults';

export type WorkloadProvider = 'grove' | 'component';

/** The provider a new graph is given: Grove when available and not opted out. */
export function workloadProviderForNewGraph(dgd: DgdJson, settings: OperatorSettings): WorkloadProvider {
  const optOut = (dgd.metadata.annotations?.[ANNOTATION_ENABLE_GROVE] ?? '').toLowerCase() === 'false';
  return settings.groveAvailable && !optOut ? 'grove' : 'component';
}

/** Returns the graph as the API server stores it after a CREATE. The input is not modified. */
export function admitNewGraph(input: DgdJson, settings: OperatorSettings): DgdJson {
  const dgd = deepClone(input);
  dgd.metadata = dgd.metadata ?? {};
  const provider = workloadProviderForNewGraph(dgd, settings);
  const annotations = { ...(dgd.metadata.annotations ?? {}) };
  annotations[ANNOTATION_WORKLOAD_PROVIDER] = provider;
  if (annotations[ANNOTATION_ORIGIN_VERSION] === undefined) annotations[ANNOTATION_ORIGIN_VERSION] = settings.version;
  dgd.metadata.annotations = annotations;

  for (const component of dgd.spec.components ?? []) {
    if (component.replicas === undefined) component.replicas = 1;
    if (provider === 'grove' && component.minAvailable === undefined) component.minAvailable = 1;
    const nodeCount = component.multinode ? (component.multinode.nodeCount ?? 2) : undefined;
    if (nodeCount !== undefined && nodeCount > 1 && Array.isArray(component.roles)) {
      for (const role of component.roles) {
        if (role.replicas !== undefined) continue;
        if (role.name === 'leader') role.replicas = 1;
        else if (role.name === 'worker') role.replicas = nodeCount - 1;
      }
    }
  }
  applyStoredDefaults(dgd);
  return dgd;
}
