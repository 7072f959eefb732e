/**
 * The DynamoGraphDeploymentRequest in the one pipeline (src/pipeline/check-and-render.ts): its
 * admission on create, and what it renders to. Before profiling the operator creates no graph:
 * `graph` and `components` output hold the request as the API server stores it; `workloads`
 * output holds what the operator creates for it before its profiler runs (profiling-job.ts).
 *
 * Internal module.
 */
import { admitNewDgdr, storedDgdr, validateDgdrUpdate } from './admission';
import { DgdrJson, isDgdr } from './model';
import { renderProfilingWorkloads } from './profiling-job';
import { DEFAULT_NAMESPACE, withNamespace } from '../model/namespace';
import { OperatorSettings } from '../model/operator-settings';
import { RenderError } from '../model/render-error';
import { Violation } from '../model/violation-report';

export { isDgdr } from './model';

/**
 * Why the cluster refuses to create the request, or to update `old` with it (no violations: it is
 * admitted); on create, the request as the API server stores it (`admitted`).
 */
export function admitDgdrDocument(doc: DgdrJson, settings: OperatorSettings, old?: unknown): { violations: Violation[]; admitted?: DgdrJson } {
  if (isDgdr(old)) return { violations: validateDgdrUpdate(old, doc, settings) };
  const { violations, stored } = admitNewDgdr(doc, settings);
  return { violations, admitted: stored };
}

/**
 * The objects one request renders to in an output mode. `admitted`: the request as admission
 * stored it on create, when it did (its defaults are a function of the spec alone, so the
 * namespace is set after); else it is defaulted here.
 */
export function renderDgdrDocument(
  doc: DgdrJson, output: string, settings: OperatorSettings, namespace: string | undefined, admitted?: DgdrJson,
): unknown[] {
  const storedAs = (ns: string | undefined): DgdrJson =>
    (admitted === undefined ? storedDgdr(withNamespace(doc, ns), settings) : withNamespace(admitted, ns));
  if (output !== 'workloads') return [storedAs(namespace)];
  const stored = storedAs(namespace ?? DEFAULT_NAMESPACE);
  const name = stored.metadata?.name;
  if (typeof name !== 'string' || name === '') {
    throw new RenderError(`${doc.kind}/`, 'metadata.name', 'Required value: the operator names the profiling Job after the request; set metadata.name');
  }
  return renderProfilingWorkloads(stored, settings);
}
