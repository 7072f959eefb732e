/**
 * The PersistentVolumeClaims a graph converted from v1alpha1 asks for: its top-level v1alpha1
 * `pvcs` kept in `nvidia.com/dgd-spec` (`dgd_pvc_reconciler.go` in ai-dynamo/dynamo's
 * `deploy/operator/internal/controller/`, claims built by `constructPVC` in `common.go` there).
 * The operator creates a claim that does not exist yet when its `create` is true; a declaration
 * without a name is skipped. A claim that is neither present in the cluster nor to be created
 * makes the operator's reconcile fail; nothing is rendered for it here.
 */
import { asGo, kubeObject, KubeObject } from './kube-object';
import { dgdAlphaPvcs } from '../../import/v1alpha1/dgd-alpha-view';
import { DgdJson } from '../../model/v1beta1';

/** The claims the operator creates for the graph's kept v1alpha1 PVC declarations, in their order. */
export function renderLegacyPvcs(dgd: DgdJson): KubeObject[] {
  const out: KubeObject[] = [];
  for (const pvc of dgdAlphaPvcs(dgd)) {
    if (typeof pvc.name !== 'string' || pvc.name === '' || pvc.create !== true) continue;
    const spec = {
      accessModes: [pvc.volumeAccessMode ?? ''],
      resources: { requests: { storage: pvc.size ?? '0' } },
      storageClassName: pvc.storageClass ?? '',
    };
    out.push(kubeObject('v1', 'PersistentVolumeClaim', { name: pvc.name, namespace: dgd.metadata.namespace ?? '' },
      { spec: asGo(spec, 'PersistentVolumeClaimSpec') }));
  }
  return out;
}
