/**
 * What the operator's component controller reads of a DynamoComponentDeployment through its
 * v1alpha1 view (`getDCDAlphaSharedSpec` in ai-dynamo/dynamo's
 * `deploy/operator/internal/dynamo/v1beta1_helpers.go`, which runs the webhook's `ConvertFrom`):
 * the v1alpha1-only labels, annotations, subComponentType, dynamoNamespace and ingress kept in the DCD's
 * `nvidia.com/dcd-spec` annotation. The graph controller writes that annotation on every DCD it
 * generates (`generated-dcd.ts`); a DCD converted from v1alpha1 carries it too.
 *
 * The v1beta1 fields give none of these but the subComponentType of a prefill or decode
 * component (the v1alpha1 worker with that subComponentType); the rest comes from the annotation
 * alone. A `nvidia.com/dcd-status` value that does not read as a v1alpha1 status makes the
 * conversion fail: the controller then reads nothing (no subComponentType either).
 */
import { GoMap, goView } from './go-view';
import { DCD_SPEC_ANNOTATION, DCD_STATUS_ANNOTATION, preservedSpec } from './preservation';
import { isMap } from '../../model/json';

/** The v1alpha1 view's fields the component controller uses. */
export interface DcdAlphaView {
  readonly labels: Record<string, string>;
  readonly annotations: Record<string, string>;
  readonly subComponentType: string;
  /** The v1alpha1 dynamoNamespace, when the annotation keeps one (it wins over every other source). */
  readonly dynamoNamespace?: string;
  /** The v1alpha1 ingress block (a Go view of `IngressSpec`), when the annotation keeps one. */
  readonly ingress?: GoMap;
}

/**
 * The last annotation values read and their readings: the workloads of a DCD read its view several
 * times, and the DCDs of a graph mostly carry the same values. A reading depends on the text alone.
 */
let lastStatus: { readonly raw: unknown; readonly reads: boolean } | undefined;
let lastSpec: { readonly raw: unknown; readonly saved: GoMap } | undefined;

/**
 * The v1alpha1 view of a DCD (`metadata` and `spec` in wire form), or undefined when the conversion
 * fails. Callers only read its `ingress` (it is shared between calls on the same annotation value).
 */
export function dcdAlphaView(dcd: { metadata?: unknown; spec?: unknown }): DcdAlphaView | undefined {
  const annotations = isMap(dcd.metadata) && isMap(dcd.metadata.annotations) ? dcd.metadata.annotations : {};
  const status = annotations[DCD_STATUS_ANNOTATION];
  if (lastStatus === undefined || lastStatus.raw !== status) lastStatus = { raw: status, reads: readsAs(status, 'A1DCDStatus') };
  if (!lastStatus.reads) return undefined;
  const raw = annotations[DCD_SPEC_ANNOTATION];
  if (lastSpec === undefined || lastSpec.raw !== raw) {
    lastSpec = { raw, saved: (typeof raw === 'string' && raw !== '' ? preservedSpec(raw, 'A1DCDSpec') : undefined) ?? {} };
  }
  const saved = lastSpec.saved;
  const type = isMap(dcd.spec) ? dcd.spec.type : undefined;
  const view: DcdAlphaView = {
    labels: { ...(saved.labels ?? {}) },
    annotations: { ...(saved.annotations ?? {}) },
    subComponentType: type === 'prefill' || type === 'decode' ? type : saved.subComponentType ?? '',
  };
  return {
    ...view,
    ...(typeof saved.dynamoNamespace === 'string' ? { dynamoNamespace: saved.dynamoNamespace } : {}),
    ...(isMap(saved.ingress) ? { ingress: saved.ingress } : {}),
  };
}

/** Whether an annotation value is absent, empty, or JSON that reads as the Go type. */
function readsAs(raw: unknown, type: string): boolean {
  if (typeof raw !== 'string' || raw === '') return true;
  try {
    goView(JSON.parse(raw), type);
    return true;
  } catch {
    return false;
  }
}
