/**
 * The pod template of a DCD's workload (§5.2 pipeline).
 */
import { DcdContext } from '../workloads/dcd-context';
import { JsonObject } from '../../model/v1beta1';

/** The pod template (`metadata.labels`, `metadata.annotations`, `spec`) the operator renders for a DCD. */
export function renderPodTemplate(_ctx: DcdContext): JsonObject {
  throw new Error('renderPodTemplate: not implemented yet');
}
