/** The namespace of a namespaced object that names none. */
import { isMap } from './json';
import { isClusterScopedKind } from './well-known';

/** Kubernetes' namespace for objects that name none. */
export const DEFAULT_NAMESPACE = 'default';

/** The document in `namespace` unless it names one or its kind has none (not a copy when unchanged). */
export function withNamespace<T>(doc: T, namespace: string | undefined): T {
  if (!namespace || !isMap(doc) || isClusterScopedKind((doc as any).kind)) return doc;
  const meta = (doc as any).metadata;
  if (isMap(meta) && meta.namespace) return doc;
  return { ...(doc as any), metadata: { ...(meta ?? {}), namespace } } as T;
}
