/**
 * What the operator's graph controller reads of a DynamoGraphDeployment through its v1alpha1 view
 * (`getDGDAlphaComponent` / `GetDGDPreservedAlphaPVCs` in ai-dynamo/dynamo's
 * `deploy/operator/internal/dynamo/graph.go`, which run the webhook's `ConvertFrom` on the graph):
 * per component, the v1alpha1-only labels, annotations, subComponentType and ingress of its
 * service kept in the graph's `nvidia.com/dgd-spec` annotation, and the graph's top-level v1alpha1
 * PVCs kept there. A graph converted from v1alpha1 (the `convert` command, or the API server
 * serving a v1alpha1 graph as v1beta1) carries that annotation.
 *
 * The v1beta1 fields give none of these but the subComponentType of a prefill or decode component;
 * the rest comes from the annotation alone (`restoreAlphaOnlyFields` in `to-alpha.ts` puts them
 * back the same way). A value that does not read is ignored, as the operator ignores it. The graph
 * is one the operator admitted: its validating webhook refuses a graph whose conversion fails, so
 * there is no failure to mirror here.
 */
import { GoMap } from './go-view';
import { DGD_SPEC_ANNOTATION, preservedSpec } from './preservation';
import { isMap } from '../../model/json';

/** The v1alpha1 view of one component of a graph, as far as the graph controller uses it. */
export interface DgdAlphaComponentView {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  /** Empty when there is none. */
  readonly subComponentType: string;
  /** The v1alpha1 ingress block kept for the service (a Go view of `IngressSpec`), when one was kept. */
  readonly ingress?: GoMap;
}

/** The last annotation value read and its reading: every component of a graph reads the same value. */
let lastRead: { readonly raw: string; readonly spec: GoMap | undefined } | undefined;

/**
 * The v1alpha1 spec kept in a graph's `nvidia.com/dgd-spec` annotation (a Go view of `A1DGDSpec`),
 * if it reads. Callers only read it (it is shared between calls on the same annotation value).
 */
function preservedGraphSpec(dgd: { metadata?: unknown }): GoMap | undefined {
  const annotations = isMap(dgd.metadata) && isMap(dgd.metadata.annotations) ? dgd.metadata.annotations : {};
  const raw = annotations[DGD_SPEC_ANNOTATION];
  if (typeof raw !== 'string' || raw === '') return undefined;
  if (lastRead?.raw !== raw) lastRead = { raw, spec: preservedSpec(raw, 'A1DGDSpec') };
  return lastRead.spec;
}

/** The v1alpha1 view of the component `component` (an entry of `spec.components`) of the graph `dgd`. */
export function dgdAlphaComponentView(dgd: { metadata?: unknown }, component: { name?: string; type?: string }): DgdAlphaComponentView {
  const saved: GoMap = preservedGraphSpec(dgd)?.services?.[component.name ?? ''] ?? {};
  const type = component.type;
  const view: DgdAlphaComponentView = {
    labels: { ...(saved.labels ?? {}) },
    annotations: { ...(saved.annotations ?? {}) },
    subComponentType: type === 'prefill' || type === 'decode' ? type : saved.subComponentType ?? '',
  };
  return isMap(saved.ingress) ? { ...view, ingress: saved.ingress } : view;
}

/** The graph's top-level v1alpha1 PVC declarations kept in `nvidia.com/dgd-spec` (Go views of `PVC`), in their order. */
export function dgdAlphaPvcs(dgd: { metadata?: unknown }): GoMap[] {
  const pvcs = preservedGraphSpec(dgd)?.pvcs;
  return Array.isArray(pvcs) ? pvcs.filter(isMap) : [];
}
