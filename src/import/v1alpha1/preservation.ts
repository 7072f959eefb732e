/**
 * The preservation annotations of the conversion: their keys, the envelope the sparse specs are
 * written in (`{"version":1,"spec":{...},"rawJSON":[...]}`, Go JSON of the operator's structs), and
 * the reading of a preserved v1beta1 spec from an annotation of a v1alpha1 object.
 */
import { GoMap, goText, goView } from './go-view';
import { isMap } from '../../model/json';

/** The v1alpha1-only spec data of a converted DynamoGraphDeployment (and, on v1alpha1 objects, preserved v1beta1 data). */
export const DGD_SPEC_ANNOTATION = 'nvidia.com/dgd-spec';
/** The v1alpha1-only status data of a converted DynamoGraphDeployment. */
export const DGD_STATUS_ANNOTATION = 'nvidia.com/dgd-status';
/** The v1alpha1-only spec data of a converted DynamoComponentDeployment (and, on v1alpha1 objects, preserved v1beta1 data). */
export const DCD_SPEC_ANNOTATION = 'nvidia.com/dcd-spec';
/** The v1alpha1-only status data of a converted DynamoComponentDeployment. */
export const DCD_STATUS_ANNOTATION = 'nvidia.com/dcd-status';

/** One raw-JSON record of the envelope: a path the spec could not carry as it was. */
export interface RawRecord {
  readonly path: string;
  readonly nil?: boolean;
}

/** Go JSON of the preservation envelope of a sparse v1alpha1 spec (`envelopeType`: A1DGDSpecEnvelope or A1DCDSpecEnvelope). */
export function envelopeText(spec: GoMap, envelopeType: string, records: readonly RawRecord[] = []): string {
  const envelope: GoMap = { version: 1, spec };
  if (records.length > 0) envelope.rawJSON = records.map(r => (r.nil ? { path: r.path, nil: true } : { path: r.path }));
  return goText(envelope, envelopeType);
}

/**
 * The spec preserved in an annotation value, as the operator reads it: a JSON object, either an
 * envelope (it has `spec`) or the spec itself, read leniently into the Go type `type` (unknown
 * fields ignored); undefined when the text is not JSON of that shape. On a v1alpha1 object the
 * annotation holds a v1beta1 spec, on a v1beta1 object a v1alpha1 one.
 */
export function preservedSpec(raw: string, type: string): GoMap | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!isMap(parsed)) return undefined;
  const spec = 'spec' in parsed ? parsed.spec : parsed;
  if ('spec' in parsed && !validEnvelope(parsed)) return undefined;
  try {
    const out = goView(spec ?? null, type);
    return isMap(out) ? out : {};
  } catch {
    return undefined;
  }
}

/** Whether the envelope fields other than `spec` have the types Go reads them as. */
function validEnvelope(envelope: GoMap): boolean {
  const { version, rawJSON } = envelope;
  if (version !== undefined && version !== null && !Number.isInteger(version)) return false;
  if (rawJSON === undefined || rawJSON === null) return true;
  if (!Array.isArray(rawJSON)) return false;
  return rawJSON.every(r => r === null || (isMap(r)
    && (r.path === undefined || r.path === null || typeof r.path === 'string')
    && (r.nil === undefined || r.nil === null || typeof r.nil === 'boolean')
    && (r.raw === undefined || r.raw === null || typeof r.raw === 'string')));
}
