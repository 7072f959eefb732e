/**
 * The ServiceAccount, Role and RoleBinding a graph's pods use for Kubernetes service discovery.
 */
import { createHash } from 'crypto';
import { asGo, kubeObject, KubeObject } from './kube-object';
import { OperatorSettings } from '../../model/operator-settings';
import { DgdJson } from '../../model/v1beta1';
import { APP_COMPONENT_RBAC, LABEL_APP_COMPONENT, LABEL_APP_MANAGED_BY, LABEL_APP_NAME, MANAGED_BY_OPERATOR } from '../../model/well-known';
import { withCreateBookkeeping } from '../bookkeeping';
import { discoveryServiceAccountName, kubeDiscoveryEnabled } from '../discovery';

const RBAC_API_VERSION = 'rbac.authorization.k8s.io/v1';
const RBAC_API_GROUP = 'rbac.authorization.k8s.io';
/** Kubernetes' limit on label values. */
const MAX_LABEL_VALUE_LENGTH = 63;

/**
 * The `app.kubernetes.io/name` value of the discovery RBAC objects: the ServiceAccount name when it
 * fits a label value (63 characters), else its first 54 characters, `-` and the first 8 hex
 * characters of its SHA-256.
 */
export function discoveryLabelValue(serviceAccountName: string): string {
  if (Buffer.byteLength(serviceAccountName, 'utf8') <= MAX_LABEL_VALUE_LENGTH) return serviceAccountName;
  const hash = createHash('sha256').update(serviceAccountName, 'utf8').digest('hex').slice(0, 8);
  const keep = MAX_LABEL_VALUE_LENGTH - hash.length - 1;
  return `${Buffer.from(serviceAccountName, 'utf8').subarray(0, keep).toString('utf8')}-${hash}`;
}

/** Whether the graph's pods use Kubernetes discovery (graph annotation, else `discovery.backend`). */
export function graphUsesKubeDiscovery(dgd: DgdJson, settings: OperatorSettings): boolean {
  return kubeDiscoveryEnabled(settings, dgd.metadata.annotations);
}

/**
 * ServiceAccount, Role and RoleBinding for Kubernetes discovery, in the order the graph controller
 * creates them; none when the graph does not use Kubernetes discovery.
 */
export function renderDiscoveryRbac(dgd: DgdJson, settings: OperatorSettings): KubeObject[] {
  if (!graphUsesKubeDiscovery(dgd, settings)) return [];
  const namespace = dgd.metadata.namespace ?? '';
  const account = discoveryServiceAccountName(dgd.metadata.name ?? '');
  const role = `${account}-role`;
  const labels = {
    [LABEL_APP_MANAGED_BY]: MANAGED_BY_OPERATOR,
    [LABEL_APP_COMPONENT]: APP_COMPONENT_RBAC,
    [LABEL_APP_NAME]: discoveryLabelValue(account),
  };
  const verbsRead = ['get', 'list', 'watch'];
  const rules = [
    { apiGroups: [''], resources: ['endpoints', 'pods'], verbs: verbsRead },
    { apiGroups: ['discovery.k8s.io'], resources: ['endpointslices'], verbs: verbsRead },
    { apiGroups: ['nvidia.com'], resources: ['dynamoworkermetadatas'], verbs: ['create', 'get', 'list', 'watch', 'update', 'patch', 'delete'] },
  ];
  const binding = {
    subjects: [{ kind: 'ServiceAccount', name: account, namespace }],
    roleRef: { apiGroup: RBAC_API_GROUP, kind: 'Role', name: role },
  };
  return [
    kubeObject('v1', 'ServiceAccount', { name: account, namespace, labels }),
    kubeObject(RBAC_API_VERSION, 'Role', { name: role, namespace, labels }, asGo({ rules }, 'RoleContent')),
    kubeObject(RBAC_API_VERSION, 'RoleBinding', { name: `${account}-binding`, namespace, labels }, asGo(binding, 'RoleBindingContent')),
  ].map(withCreateBookkeeping);
}
