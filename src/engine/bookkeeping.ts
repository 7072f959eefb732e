/**
 * The bookkeeping annotations the operator writes on every object it creates through its
 * create-or-update path: content hash and generation "1".
 */
import { lastAppliedHash } from './hash/last-applied-hash';
import { ANNOTATION_LAST_APPLIED_GENERATION, ANNOTATION_LAST_APPLIED_HASH } from '../model/well-known';

/** Adds `nvidia.com/last-applied-hash` and `nvidia.com/last-applied-generation: "1"`; returns `obj`. */
export function withCreateBookkeeping<T extends { metadata: { annotations?: Record<string, string> } }>(obj: T): T {
  obj.metadata.annotations = {
    ...(obj.metadata.annotations ?? {}),
    [ANNOTATION_LAST_APPLIED_HASH]: lastAppliedHash(obj),
    [ANNOTATION_LAST_APPLIED_GENERATION]: '1',
  };
  return obj;
}
