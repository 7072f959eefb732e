/**
 * The workloads of a graph or a standalone DCD on the component (Deployment) path.
 */
import { OperatorSettings } from '../operator-settings';
import { DcdJson, DgdJson } from '../../model/v1beta1';

/**
 * Every object the operator creates for an admitted graph on the component path, given the DCDs it
 * generates (with bookkeeping annotations): shared resources, then per component the DCD and its
 * workloads, then scaling adapters.
 */
export function renderGraphWorkloads(_dgd: DgdJson, _dcds: readonly DcdJson[], _settings: OperatorSettings): unknown[] {
  throw new Error('renderGraphWorkloads: not implemented yet');
}

/** The workloads of one admitted DCD (Deployment, Services, Ingress/VirtualService). */
export function renderComponentWorkloads(_dcd: DcdJson, _settings: OperatorSettings, _ownerGraphName?: string): unknown[] {
  throw new Error('renderComponentWorkloads: not implemented yet');
}
