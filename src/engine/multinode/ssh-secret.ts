/**
 * The MPI SSH key Secret of multinode graphs. For every graph with a component on more than one
 * node, whatever its backend and on the Grove and LeaderWorkerSet paths alike, the operator's graph
 * controller makes sure the Secret `mpi.sshSecretName` exists in `mpi.sshSecretNamespace`
 * (generating a random RSA key pair there when it is missing) and copies it into the graph's
 * namespace, unless a Secret of that name is there already (deploy/operator/internal/secret/
 * ssh_key_manager.go, internal/controller/dgd_ssh_keys_reconciler.go; the same in 1.4 and 1.5).
 * Standalone DCDs get no copy. The key pair exists only in the cluster, so the Secret is never
 * rendered; this says what the operator will do instead.
 */
import { isMultinode } from './roles';
import { OperatorSettings } from '../../model/operator-settings';
import { DgdJson } from '../../model/v1beta1';

/** The Secret the operator puts in a graph's namespace. */
export interface MpiSshSecretCopy {
  /** The Secret's name (`mpi.sshSecretName`). */
  readonly name: string;
  /** Where the operator keeps the original (`mpi.sshSecretNamespace`). */
  readonly fromNamespace: string;
  /** The graph's namespace; equal to `fromNamespace` when the graph lives there (then nothing is copied). */
  readonly toNamespace: string;
}

/**
 * The MPI SSH key Secret the operator provides for `dgd` in `namespace` (the graph's), or
 * undefined when the graph has no multinode component.
 */
export function mpiSshSecretCopy(dgd: DgdJson, settings: OperatorSettings, namespace: string): MpiSshSecretCopy | undefined {
  if (!(dgd.spec?.components ?? []).some(c => c !== null && typeof c === 'object' && isMultinode(c))) return undefined;
  return { name: settings.mpiSshSecretName, fromNamespace: settings.mpiSshSecretNamespace, toNamespace: namespace };
}

/** One sentence for a user: what the operator does with the Secret, and why it is not rendered. */
export function describeMpiSshSecretCopy(copy: MpiSshSecretCopy): string {
  const what = copy.fromNamespace === copy.toNamespace
    ? `the operator provides the MPI SSH key Secret ${copy.name} in namespace ${copy.toNamespace} (generating it there when missing)`
    : `the operator copies the MPI SSH key Secret ${copy.name} from namespace ${copy.fromNamespace} into namespace ${copy.toNamespace} `
      + '(unless one of that name is there already)';
  return `${what}; not rendered: its key pair is generated in the cluster`;
}
