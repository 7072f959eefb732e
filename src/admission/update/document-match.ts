/**
 * Pairs the documents of a new manifest with the documents of an old one, for update validation:
 * the same kind and name, and the same namespace when both documents name one (a manifest often
 * leaves the namespace to the client, an object read back from the cluster always has one).
 *
 * Internal module.
 */
import { mapAt, stringAt } from '../../model/json';

/** What identifies a document: kind, namespace ('' when unset) and name. */
export interface DocumentKey {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
}

export function documentKey(doc: unknown): DocumentKey {
  const metadata = mapAt(doc, 'metadata');
  return { kind: stringAt(doc, 'kind') ?? '', namespace: stringAt(metadata, 'namespace') ?? '', name: stringAt(metadata, 'name') ?? '' };
}

/** `Kind/namespace/name`, or `Kind/name` without a namespace. */
export function describeKey(key: DocumentKey): string {
  return key.namespace === '' ? `${key.kind}/${key.name}` : `${key.kind}/${key.namespace}/${key.name}`;
}

/** The result of looking a new document up among the old ones. */
export type OldMatch =
  | { readonly kind: 'none' }
  | { readonly kind: 'one'; readonly old: unknown }
  | { readonly kind: 'ambiguous'; readonly count: number };

/** The old document the new one updates: none (a create), exactly one, or several candidates. */
export function findOld(doc: unknown, olds: readonly unknown[]): OldMatch {
  const key = documentKey(doc);
  if (key.name === '') return { kind: 'none' };
  const candidates = olds.filter((old) => {
    const other = documentKey(old);
    if (other.kind !== key.kind || other.name !== key.name) return false;
    return key.namespace === '' || other.namespace === '' || key.namespace === other.namespace;
  });
  if (candidates.length === 0) return { kind: 'none' };
  if (candidates.length === 1) return { kind: 'one', old: candidates[0] };
  return { kind: 'ambiguous', count: candidates.length };
}
