/**
 * The DynamoGraphDeploymentRequest in the one pipeline (src/pipeline/check-and-render.ts): its
 * admission on create, and what it renders to. Before profiling the operator creates no graph:
 * `graph` and `components` output hold the request as the API server stores it; `workloads`
 * output holds what the operator creates for it before its profiler runs (profiling-job.ts).
 *
 * Internal module.
 */
import { storedDgdr, validateDgdr, validateDgdrUpdate } from './admission';
import { DgdrJson, isDgdr } from './model';
import { renderProfilingWorkloads } from './profiling-job';
import { DEFAULT_NAMESPACE, withNamespace } from '../model/namespace';
import { OperatorSettings } from '../model/operator-settings';
import { RenderError } from '../model/render-error';
import { Violation } from '../model/violation-report';

export { isDgdr } from './model';

/** Why the cluster refuses to create the request, or to update `old` with it (empty: it is admitted). */
export function admitDgdrDocument(doc: DgdrJson, settings: OperatorSettings, old?: unknown): Violation[] {
  return isDgdr(old) ? validateDgdrUpdate(old, doc, settings) : validateDgdr(doc, settings);
}

/** The objects one request renders to in an output mode. */
export function renderDgdrDocument(doc: DgdrJson, output: string, settings: OperatorSettings, namespace: string | undefined): unknown[] {
  if (output !== 'workloads') return [storedDgdr(withNamespace(doc, namespace), settings)];
  const stored = storedDgdr(withNamespace(doc, namespace ?? DEFAULT_NAMESPACE), settings);
  const name = stored.metadata?.name;
  if (typeof name !== 'string' || name === '') {
    throw new RenderError(`${doc.kind}/`, 'metadata.name', 'Required value: the operator names the profiling Job after the request; set metadata.name');
  }
  return renderProfilingWorkloads(stored, settings);
}
