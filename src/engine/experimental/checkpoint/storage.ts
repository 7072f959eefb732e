/**
 * Checkpoint storage from the operator configuration (`checkpoint.storage`): a PersistentVolumeClaim in
 * the workload namespace that checkpoint and restore pods mount at a base path. How the operator reads
 * and applies it (deploy/operator/internal/checkpoint/storage.go; the same in 1.4 and 1.5):
 *
 * - nothing set, or type `s3` / `oci` with no PVC field: not configured (the operator discovers the
 *   snapshot agent's storage instead);
 * - otherwise the storage is a PVC (an empty type with a PVC field reads as `pvc`) and needs a claim
 *   name and an absolute base path (cleaned, without a trailing slash); with `create`, an access mode
 *   `ReadWriteMany` (default) or `ReadWriteOnce`;
 * - when the graph controller reconciles a graph with a checkpoint-enabled component (the component
 *   controller: a DCD with one), it makes sure the claim exists in the namespace: with `create` it
 *   creates a missing one (labels below, one access mode, volume mode Filesystem, the `size` request,
 *   the storage class when set); without `create` a missing claim fails every reconcile. A
 *   configuration it cannot read fails those reconciles too.
 *
 * Offline there is no cluster: with `create` the claim is rendered (the operator creates it unless one
 * of that name is there already); without it the claim must already exist (said in `describeExistingStorageClaim`).
 */
import { usesDynamoCheckpoints } from './component-restore';
import { canonicalQuantity, parseQuantity, QuantityParseError } from '../../../go/quantity';
import { isMap } from '../../../model/json';
import { OperatorSettings } from '../../../model/operator-settings';
import { RenderError } from '../../../model/render-error';
import { ComponentSpecJson, DcdJson, DgdJson } from '../../../model/v1beta1';
import { ClusterObjects } from '../../multinode/dra-objects';
import { kubeObject, KubeObject } from '../../workloads/kube-object';

/** Whether a document is a PersistentVolumeClaim (read as cluster state: the claim exists). */
export function isPersistentVolumeClaim(doc: unknown): boolean {
  return isMap(doc) && doc.apiVersion === 'v1' && doc.kind === 'PersistentVolumeClaim' && isMap(doc.metadata);
}

/** Whether the input's cluster objects hold the claim `name` in `namespace`. */
function claimExists(cluster: ClusterObjects | undefined, namespace: string, name: string): boolean {
  return (cluster?.objects ?? []).some(o => isPersistentVolumeClaim(o) && (o as any).metadata.name === name && ((o as any).metadata.namespace ?? '') === namespace);
}

/** The configured checkpoint storage: the claim and where pods mount it. */
export interface CheckpointStorage {
  readonly pvcName: string;
  /** Absolute, cleaned, without a trailing slash (`/` for the root). */
  readonly basePath: string;
}

/** Labels of the claim the operator creates. */
const STORAGE_PVC_LABELS: Readonly<Record<string, string>> = {
  'app.kubernetes.io/name': 'dynamo',
  'app.kubernetes.io/component': 'checkpoint-storage',
  'app.kubernetes.io/managed-by': 'dynamo-operator',
};

const ACCESS_MODES = ['ReadWriteOnce', 'ReadWriteMany'];

/** A path cleaned as Go's `path.Clean` cleans an absolute one. */
function cleanAbsolutePath(p: string): string {
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return `/${parts.join('/')}`;
}

/** Why the operator cannot use the storage configuration, as the field path and a message. */
type Problem = { readonly field: string; readonly message: string };

function accessModeProblem(accessMode: string): Problem | undefined {
  if (accessMode === '' || ACCESS_MODES.includes(accessMode)) return undefined;
  return {
    field: 'checkpoint.storage.pvc.accessMode',
    message: `Unsupported value: ${JSON.stringify(accessMode)}: supported values: ${ACCESS_MODES.map(m => JSON.stringify(m)).join(', ')}`,
  };
}

/** The storage the settings configure (undefined: none), or the problem that fails the operator's reconcile. */
function readStorage(settings: OperatorSettings): { storage?: CheckpointStorage; problem?: Problem } {
  const type = settings.checkpointStorageType.trim();
  const pvcName = settings.checkpointStoragePvcName.trim();
  const basePath = settings.checkpointStorageBasePath.trim();
  const hasPvcFields = pvcName !== '' || basePath !== '' || settings.checkpointStoragePvcCreate || settings.checkpointStoragePvcSize.trim() !== ''
    || settings.checkpointStorageClassName.trim() !== '' || settings.checkpointStorageAccessMode.trim() !== '';
  if (type === '' && !hasPvcFields) return {};
  if (!hasPvcFields && (type === 's3' || type === 'oci')) return {};
  if (type !== '' && type !== 'pvc') {
    return { problem: { field: 'checkpoint.storage.type', message: `Unsupported value: ${JSON.stringify(type)}: supported values: "pvc" (s3 and oci are ignored, and only without PVC fields)` } };
  }
  if (pvcName === '') return { problem: { field: 'checkpoint.storage.pvc.pvcName', message: 'Required value: the checkpoint PVC name is required when checkpoint storage is configured' } };
  if (basePath === '') return { problem: { field: 'checkpoint.storage.pvc.basePath', message: 'Required value: the mount path of the checkpoint PVC is required when checkpoint storage is configured' } };
  if (!basePath.startsWith('/')) {
    return { problem: { field: 'checkpoint.storage.pvc.basePath', message: `Invalid value: ${JSON.stringify(basePath)}: must be an absolute path` } };
  }
  if (settings.checkpointStoragePvcCreate) {
    const problem = accessModeProblem(settings.checkpointStorageAccessMode.trim());
    if (problem) return { problem };
  }
  return { storage: { pvcName, basePath: cleanAbsolutePath(basePath) } };
}

/** The checkpoint-enabled component of a graph or DCD that makes the operator use the storage (its index). */
function checkpointComponent(components: readonly ComponentSpecJson[]): number {
  return components.findIndex(c => (c as any)?.experimental?.checkpoint?.enabled === true);
}

/**
 * The refusal of a storage configuration the operator cannot use, for the object `ref` whose
 * reconcile fails (the configuration's field path, the rule, and what fails).
 */
function refuse(ref: string, problem: Problem): never {
  throw new RenderError('operator settings', problem.field,
    `${problem.message}; the operator fails every reconcile of ${ref}, which has a checkpoint-enabled component, until checkpoint.storage is fixed`);
}

/**
 * The checkpoint storage the operator uses for `components` (a graph's, or a DCD's one): undefined
 * when the checkpoint gate is off, no component has checkpointing on, or no storage is configured.
 * A configuration the operator cannot read is a RenderError naming `ref`.
 */
export function checkpointStorageFor(
  ref: string, components: readonly ComponentSpecJson[], settings: OperatorSettings,
): CheckpointStorage | undefined {
  // read from the trees of 1.4.0 and 1.5.0 (the DynamoCheckpoint generation); not known for newer operators
  if (!usesDynamoCheckpoints(settings)) return undefined;
  if (!settings.checkpointEnabled || checkpointComponent(components) < 0) return undefined;
  const { storage, problem } = readStorage(settings);
  if (problem) refuse(ref, problem);
  return storage;
}

/**
 * The PVC the operator creates in `namespace` for `components` (`checkpoint.storage.pvc.create`), or
 * undefined (no storage used, the claim must already exist, or `cluster` holds it). Its size must be a
 * quantity above zero.
 */
export function checkpointStoragePvc(
  ref: string, namespace: string, components: readonly ComponentSpecJson[], settings: OperatorSettings, cluster?: ClusterObjects,
): KubeObject | undefined {
  const storage = checkpointStorageFor(ref, components, settings);
  // a claim of that name in the namespace (given with the input) is used as it is
  if (!storage || !settings.checkpointStoragePvcCreate || claimExists(cluster, namespace, storage.pvcName)) return undefined;
  const size = settings.checkpointStoragePvcSize.trim();
  if (size === '') refuse(ref, { field: 'checkpoint.storage.pvc.size', message: 'Required value: the size of the checkpoint PVC is required when checkpoint.storage.pvc.create is true' });
  let request: string;
  try {
    const parsed = parseQuantity(size);
    if (parsed.amount.unscaled <= 0n) refuse(ref, { field: 'checkpoint.storage.pvc.size', message: `Invalid value: ${JSON.stringify(size)}: must be greater than zero` });
    request = canonicalQuantity(size);
  } catch (e) {
    if (!(e instanceof QuantityParseError)) throw e;
    refuse(ref, { field: 'checkpoint.storage.pvc.size', message: `Invalid value: ${JSON.stringify(size)}: must be a quantity such as "1Ti"` });
  }
  const accessMode = settings.checkpointStorageAccessMode.trim() || 'ReadWriteMany';
  const storageClassName = settings.checkpointStorageClassName.trim();
  return kubeObject('v1', 'PersistentVolumeClaim', { name: storage.pvcName, namespace, labels: { ...STORAGE_PVC_LABELS } }, {
    spec: {
      accessModes: [accessMode],
      resources: { requests: { storage: request } },
      ...(storageClassName !== '' ? { storageClassName } : {}),
      volumeMode: 'Filesystem',
    },
  });
}

/**
 * For a user: the claim the operator expects to find in `namespace` for `components`
 * (`checkpoint.storage.pvc.create` false), or undefined when it creates one, uses no storage, or the
 * input's `cluster` objects hold the claim.
 */
export function describeExistingStorageClaim(
  namespace: string, components: readonly ComponentSpecJson[], settings: OperatorSettings, cluster?: ClusterObjects,
): string | undefined {
  if (!usesDynamoCheckpoints(settings) || !settings.checkpointEnabled || checkpointComponent(components) < 0) return undefined;
  // a configuration the operator cannot use is the render's refusal, not a notice
  const { storage } = readStorage(settings);
  if (!storage || settings.checkpointStoragePvcCreate || claimExists(cluster, namespace, storage.pvcName)) return undefined;
  return `the operator expects the checkpoint storage PVC ${storage.pvcName} (checkpoint.storage.pvc.pvcName) in namespace ${namespace} and does not create it `
    + '(checkpoint.storage.pvc.create is false): until it exists every reconcile fails; create the claim, or set checkpoint.storage.pvc.create with a size';
}

/** The PVC the graph controller creates for `dgd` (none, or one), or a RenderError for a configuration it cannot use. */
export function graphCheckpointStoragePvc(dgd: DgdJson, settings: OperatorSettings, cluster?: ClusterObjects): KubeObject[] {
  const pvc = checkpointStoragePvc(`DynamoGraphDeployment/${dgd.metadata.name}`, dgd.metadata.namespace ?? '', dgd.spec?.components ?? [], settings, cluster);
  return pvc ? [pvc] : [];
}

/** The PVC the component controller creates for a standalone `dcd` (none, or one), or a RenderError as above. */
export function componentCheckpointStoragePvc(dcd: DcdJson, settings: OperatorSettings, cluster?: ClusterObjects): KubeObject[] {
  const pvc = checkpointStoragePvc(`DynamoComponentDeployment/${dcd.metadata.name}`, dcd.metadata.namespace ?? '', dcd.spec ? [dcd.spec] : [], settings, cluster);
  return pvc ? [pvc] : [];
}
