/** Object metadata of an imported document, as construct props. */
import { ApiObjectMetadata } from 'cdk8s';
import { isMap } from '../model/json';
import { jsonRoundTrip } from '../model/json-copy';

const IMPORTABLE_METADATA = new Set(['name', 'namespace', 'labels', 'annotations', 'finalizers', 'ownerReferences']);

/** Metadata as construct props; fields the constructs cannot carry are reported, not dropped. */
export function importableMetadata(ref: string, metadata: unknown): ApiObjectMetadata {
  if (metadata === undefined) return {};
  if (!isMap(metadata)) throw new Error(`${ref}: metadata: must be an object`);
  const unsupported = Object.keys(metadata).filter(k => !IMPORTABLE_METADATA.has(k) && metadata[k] !== null);
  if (unsupported.length > 0) {
    throw new Error(`${ref}: metadata: cannot import server-managed or unknown fields: ${unsupported.sort().join(', ')}`);
  }
  const out: { [key: string]: any } = {};
  for (const key of IMPORTABLE_METADATA) if (metadata[key] !== undefined) out[key] = jsonRoundTrip(metadata[key]);
  return out as ApiObjectMetadata;
}
