/**
 * TensorRT-LLM across several nodes (docs/design/render-multinode.md §6.3): the leader runs `mpirun` over SSH
 * into the workers, which only run an SSH daemon. Both mount the MPI SSH key secret; workers are
 * ready once their SSH port answers.
 */
import { compareStrings } from '../../../model/json';
import { MultinodeDeployer } from '../../multinode/deployer';
import { isPythonCommand, quoteWordsForBashC } from '../../multinode/flag-injection';
import { MultinodeLaunchRole } from '../../multinode/roles';
import { ContainerJson, PodSpecJson, valueEnv } from '../../pod/k8s-json';

/** Port the workers' SSH daemon listens on and `mpirun` connects to. */
export const MPI_SSH_PORT = 2222;
/** Where the SSH key secret is mounted. */
export const SSH_KEY_MOUNT_PATH = '/ssh-pk';

/** Env vars forwarded by `mpirun -x` besides every env var of the container. */
export const TRTLLM_FORWARDED_ENV: readonly string[] = [
  'CPATH', 'CUDA_VISIBLE_DEVICES', 'MODEL_PATH', 'HF_TOKEN', 'HUGGING_FACE_HUB_TOKEN', 'HF_ENDPOINT',
  'TOKENIZERS_PARALLELISM', 'NCCL_DEBUG', 'NCCL_IB_DISABLE', 'NCCL_P2P_DISABLE', 'TENSORRT_LLM_CACHE_DIR',
  'HF_HOME', 'TRANSFORMERS_CACHE', 'HF_DATASETS_CACHE', 'PATH', 'LD_LIBRARY_PATH', 'PYTHONPATH', 'HOME',
  'USER', 'TRITON_PTXAS_PATH', 'TRTLLM_USE_UCX_KVCACHE',
];

/** Inputs of the TensorRT-LLM rewrite. */
export interface TrtllmMultinodeContext {
  readonly role: MultinodeLaunchRole;
  readonly nodeCount: number;
  readonly deployer: MultinodeDeployer;
  /** GPUs per node; asked for only on the leader. */
  readonly gpusPerNode: () => number;
  /** Operator setting `mpi.sshSecretName` (`OperatorSettings.mpiSshSecretName`). */
  readonly sshSecretName: string;
}

/** The key and client-config steps shared by leader and worker (after their `mkdir`). */
const SSH_CLIENT_SETUP: readonly string[] = [
  `ls -la ${SSH_KEY_MOUNT_PATH}/`,
  `cp ${SSH_KEY_MOUNT_PATH}/private.key $HOME/.ssh/id_rsa`,
  `cp ${SSH_KEY_MOUNT_PATH}/private.key.pub $HOME/.ssh/id_rsa.pub`,
  `cp ${SSH_KEY_MOUNT_PATH}/private.key.pub $HOME/.ssh/authorized_keys`,
  'chmod 600 $HOME/.ssh/id_rsa $HOME/.ssh/authorized_keys',
  'chmod 644 $HOME/.ssh/id_rsa.pub',
  `printf 'Host *\\nIdentityFile '$HOME'/.ssh/id_rsa\\nStrictHostKeyChecking no\\nPort ${MPI_SSH_PORT}\\n' > $HOME/.ssh/config`,
];

/** The worker's steps: keys, host keys, sshd config, then the daemon in the foreground. */
export function trtllmWorkerScript(): string {
  const hostKey = (type: string): string => `ssh-keygen -t ${type} -f $HOME/.ssh/host_keys/ssh_host_${type}_key -N ''`;
  const sshdConfig = `printf 'Port ${MPI_SSH_PORT}`
    + "\\nHostKey '$HOME'/.ssh/host_keys/ssh_host_rsa_key\\nHostKey '$HOME'/.ssh/host_keys/ssh_host_ecdsa_key"
    + "\\nHostKey '$HOME'/.ssh/host_keys/ssh_host_ed25519_key\\nPidFile '$HOME'/.ssh/run/sshd.pid\\nStrictModes no"
    + '\\nPermitRootLogin yes\\nPasswordAuthentication no\\nPubkeyAuthentication yes'
    + "\\nAuthorizedKeysFile '$HOME'/.ssh/authorized_keys\\n' > $HOME/.ssh/sshd_config";
  return [
    'mkdir -p $HOME/.ssh $HOME/.ssh/host_keys $HOME/.ssh/run',
    ...SSH_CLIENT_SETUP,
    hostKey('rsa'), hostKey('ecdsa'), hostKey('ed25519'),
    sshdConfig,
    '/usr/sbin/sshd -D -f $HOME/.ssh/sshd_config',
  ].join(' && ');
}

/** The LWS step that waits until every worker host name resolves (5 minutes at most). */
export function dnsWaitStep(workerHosts: readonly string[]): string {
  return `TIMEOUT=300; START_TIME=$(date +%s); for worker in ${workerHosts.join(' ')}; do echo "Waiting for DNS: $worker"; `
    + 'until getent hosts $worker >/dev/null 2>&1; do CURRENT_TIME=$(date +%s); '
    + 'if [ $((CURRENT_TIME - START_TIME)) -gt $TIMEOUT ]; then echo "ERROR: Timeout waiting for DNS: $worker"; exit 1; fi; '
    + 'echo "DNS not ready for $worker, retrying..."; sleep 2; done; echo "✓ DNS resolved: $worker"; done; echo "All workers DNS ready"';
}

/** `-x NAME` for the fixed names and every env var name of the container, de-duplicated, byte-sorted. */
export function mpirunEnvFlags(envNames: readonly string[]): string {
  const names = [...new Set([...TRTLLM_FORWARDED_ENV, ...envNames])].sort(compareStrings);
  return names.map(n => `-x ${n}`).join(' ');
}

/**
 * The original launch as it is put inside `bash -c '…'`: a Python command with its args, each
 * word quoted for `sh -c`; else the args joined by spaces as they are; else the command.
 */
export function trtllmOriginalLaunch(container: ContainerJson): string {
  const command = (container.command ?? []).map(String);
  const args = (container.args ?? []).map(String);
  if (command.length > 0 && isPythonCommand(command[0])) return quoteWordsForBashC([...command, ...args]);
  if (args.length > 0) return args.join(' ');
  return command.join(' ');
}

/** The leader's script: SSH setup, the DNS wait when the provider needs it, then `mpirun`. */
export function trtllmLeaderScript(container: ContainerJson, nodeCount: number, gpusPerNode: number, deployer: MultinodeDeployer): string {
  const hosts = deployer.hostNames(nodeCount);
  const envNames = (container.env ?? []).map(e => e.name);
  const mpirun = `mpirun $([ "$(id -u)" = "0" ] && echo --allow-run-as-root) --oversubscribe -n ${nodeCount * gpusPerNode} -H ${hosts.join(',')} `
    + `--mca pml ob1 --mca plm_rsh_args "-p ${MPI_SSH_PORT} -o StrictHostKeyChecking=no -i $HOME/.ssh/id_rsa" `
    + `${mpirunEnvFlags(envNames)} bash -c 'trtllm-llmapi-launch ${trtllmOriginalLaunch(container)}'`;
  const steps = ['mkdir -p $HOME/.ssh', ...SSH_CLIENT_SETUP];
  if (deployer.needsDnsWait) steps.push(dnsWaitStep(hosts.slice(1)));
  steps.push(mpirun);
  return steps.join(' && ');
}

/** The worker readiness probe: the SSH port accepts connections. */
export function sshReadinessProbe(): Record<string, unknown> {
  return { tcpSocket: { port: MPI_SSH_PORT }, initialDelaySeconds: 20, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 10 };
}

/**
 * The multinode rewrite of the `main` container (docs/design/render-multinode.md §6.3 steps 1–5); a single-node
 * context changes nothing. Workers keep only an SSH readiness probe; every role mounts the key
 * secret and gets `OMPI_MCA_orte_keep_fqdn_hostnames=1` appended to the env before the leader's
 * `-x` list is built from it. The leader runs mpirun, a worker sshd; the `main` pod of the
 * Deployment fallback keeps its own command and probes (and its GPUs are not counted).
 */
export function trtllmMultinodeContainer(container: ContainerJson, ctx: TrtllmMultinodeContext): ContainerJson {
  if (ctx.nodeCount <= 1) return container;
  const out: ContainerJson = { ...container };
  if (ctx.role === 'worker') {
    delete out.livenessProbe;
    delete out.startupProbe;
    out.readinessProbe = sshReadinessProbe();
  }
  out.volumeMounts = [...(container.volumeMounts ?? []), { name: ctx.sshSecretName, mountPath: SSH_KEY_MOUNT_PATH, readOnly: true }];
  out.env = [...(container.env ?? []), valueEnv('OMPI_MCA_orte_keep_fqdn_hostnames', '1')];
  if (ctx.role === 'main') return out;
  const script = ctx.role === 'leader' ? trtllmLeaderScript(out, ctx.nodeCount, ctx.gpusPerNode(), ctx.deployer) : trtllmWorkerScript();
  out.command = ['/bin/sh', '-c'];
  out.args = [script];
  return out;
}

/** The pod rewrite (docs/design/render-multinode.md §6.3 step 6): the SSH key secret volume, both roles. */
export function trtllmMultinodePodSpec(podSpec: PodSpecJson, ctx: Pick<TrtllmMultinodeContext, 'nodeCount' | 'sshSecretName'>): PodSpecJson {
  if (ctx.nodeCount <= 1) return podSpec;
  const volume = { name: ctx.sshSecretName, secret: { secretName: ctx.sshSecretName, defaultMode: 420 } };
  return { ...podSpec, volumes: [...(podSpec.volumes ?? []), volume] };
}
