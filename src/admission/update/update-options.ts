/**
 * What update-time validation needs to know beyond the create-time options: who sends the update,
 * who the operator is, and how the new document reaches the API server.
 *
 * Internal module.
 */
import { PLANNER_SERVICE_ACCOUNT } from '../../model/well-known';
import { ValidateOptions } from '../options';

/** How the new document is sent to the API server. */
export type SubmitMode = 'apply' | 'replace';

/** Where the old document comes from. */
export type OldSource = 'stored' | 'manifest';

/** Options of update validation (`validateUpdate`). */
export interface UpdateOptions extends ValidateOptions {
  /**
   * Kubernetes user name of whoever sends the update, e.g. `jane@example.com` or
   * `system:serviceaccount:team-a:planner-serviceaccount`. Replica changes of components with a
   * scaling adapter are allowed only to the operator's own service account and to service accounts
   * named `planner-serviceaccount` (row 66). Default: unknown, which the operator treats like an
   * ordinary user (the change is rejected).
   */
  readonly requester?: string;

  /**
   * Kubernetes user name of the operator's own service account
   * (`system:serviceaccount:<namespace>:<name>`). When known, only this user may add the
   * `nvidia.com/workload-provider` annotation to a graph that has none (row 7), and it may change
   * replicas of scaling-adapter components (row 66). Default: unknown, as when the operator could
   * not detect its identity (row 7 then allows anyone).
   */
  readonly operatorPrincipal?: string;

  /**
   * How the new document is submitted. `apply` (the default) models `kubectl apply`: state the
   * operator and its helpers materialised on the stored object and the new manifest does not
   * mention is kept — the `nvidia.com/workload-provider` and `nvidia.com/dynamo-operator-origin-version`
   * annotations, and the `replicas` of components managed by a scaling adapter. `replace` models
   * `kubectl replace` / a plain PUT: the new document is the whole object.
   */
  readonly submit?: SubmitMode;

  /**
   * What the old document is. `stored` — the object as the API server holds it (e.g. from
   * `kubectl get -o yaml`): it already went through create-time defaulting, so only schema defaults
   * are applied. `manifest` — the document that was applied to create the object: it goes through
   * the create-time admission (defaulting webhook included) first. Default: `stored` when the
   * document has `metadata.resourceVersion`, `metadata.uid` or `metadata.creationTimestamp`, else
   * `manifest`.
   */
  readonly oldSource?: OldSource;
}

const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';

/**
 * Row 66: whether the requester may change replicas of a component that has a scaling adapter:
 * a service account that is the operator's own principal, or any service account named
 * `planner-serviceaccount` (in any namespace).
 */
export function canModifyScaledReplicas(options: UpdateOptions): boolean {
  const requester = options.requester ?? '';
  if (!requester.startsWith(SERVICE_ACCOUNT_PREFIX)) return false;
  const principal = options.operatorPrincipal ?? '';
  if (principal !== '' && requester === principal) return true;
  const parts = requester.split(':');
  return parts.length === 4 && parts[3] === PLANNER_SERVICE_ACCOUNT;
}

/**
 * Row 7: whether the requester may add the workload-provider annotation. Only checked when the
 * operator principal is known.
 */
export function mayMaterializeProvider(options: UpdateOptions): boolean {
  const principal = options.operatorPrincipal ?? '';
  return principal === '' || options.requester === principal;
}
