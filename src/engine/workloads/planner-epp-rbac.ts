/**
 * Cluster-wide operators create, in every graph's namespace, the planner ServiceAccount (for every
 * graph, planner or not) and, for graphs with an EPP, the EPP ServiceAccount, each bound to the
 * ClusterRole the Helm chart installed. Namespace-restricted operators create neither (the chart
 * does). These objects are created plainly: no owner, no bookkeeping annotations.
 */
import { asGo, kubeObject, KubeObject } from './kube-object';
import { EPP_SERVICE_ACCOUNT } from '../../model/epp-names';
import { isClusterWide, OperatorSettings } from '../../model/operator-settings';
import { RenderError } from '../../model/render-error';
import { DGD_KIND, DgdJson } from '../../model/v1beta1';
import {
  APP_COMPONENT_RBAC, LABEL_APP_COMPONENT, LABEL_APP_MANAGED_BY, LABEL_APP_NAME, MANAGED_BY_OPERATOR, PLANNER_SERVICE_ACCOUNT,
} from '../../model/well-known';

/** A ServiceAccount and its RoleBinding to a ClusterRole. */
export function serviceAccountBoundToClusterRole(account: string, namespace: string, clusterRole: string): KubeObject[] {
  const labels = { [LABEL_APP_MANAGED_BY]: MANAGED_BY_OPERATOR, [LABEL_APP_COMPONENT]: APP_COMPONENT_RBAC, [LABEL_APP_NAME]: account };
  const binding = {
    subjects: [{ kind: 'ServiceAccount', name: account, namespace }],
    roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: clusterRole },
  };
  return [
    kubeObject('v1', 'ServiceAccount', { name: account, namespace, labels }),
    kubeObject('rbac.authorization.k8s.io/v1', 'RoleBinding', { name: `${account}-binding`, namespace, labels }, asGo(binding, 'RoleBindingContent')),
  ];
}

/**
 * The planner (and EPP) ServiceAccounts and RoleBindings of a graph's namespace in cluster-wide
 * mode; nothing when the operator is namespace-restricted. A needed ClusterRole name that is not
 * configured is an error, as it fails the operator's reconcile.
 */
export function renderClusterWideRbac(dgd: DgdJson, settings: OperatorSettings): KubeObject[] {
  if (!isClusterWide(settings)) return [];
  const ref = `${DGD_KIND}/${dgd.metadata.name ?? ''}`;
  const namespace = dgd.metadata.namespace ?? '';
  const missing = (setting: string, account: string, helmSuffix: string) => new RenderError(ref, setting,
    `is empty, but a cluster-wide operator (namespace.restricted empty) binds ${account} in the graph's namespace `
    + `to this ClusterRole (the Helm chart names it <release>-${helmSuffix}); set it or render for a namespace-restricted operator`);
  if (!settings.plannerClusterRoleName) throw missing('rbac.plannerClusterRoleName', PLANNER_SERVICE_ACCOUNT, 'planner');
  const out = serviceAccountBoundToClusterRole(PLANNER_SERVICE_ACCOUNT, namespace, settings.plannerClusterRoleName);
  if ((dgd.spec.components ?? []).some(c => c.type === 'epp')) {
    if (!settings.eppClusterRoleName) throw missing('rbac.eppClusterRoleName', EPP_SERVICE_ACCOUNT, 'epp');
    out.push(...serviceAccountBoundToClusterRole(EPP_SERVICE_ACCOUNT, namespace, settings.eppClusterRoleName));
  }
  return out;
}
