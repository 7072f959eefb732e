/**
 * TensorRT-LLM multinode container and pod rewrites (render-multinode §6.3, worked example §4.11).
 */
import {
  dnsWaitStep, mpirunEnvFlags, trtllmLeaderScript, trtllmMultinodeContainer, trtllmMultinodePodSpec, trtllmOriginalLaunch, trtllmWorkerScript,
} from '../src/engine/backend/multinode/trtllm';
import { groveDeployer, LWS_DEPLOYER } from '../src/engine/multinode/deployer';
import { ContainerJson, EnvVarJson } from '../src/engine/pod/k8s-json';

const PROBES = { livenessProbe: { httpGet: { path: '/live' } }, readinessProbe: { httpGet: { path: '/health' } }, startupProbe: { httpGet: { path: '/live' } } };
/** The sorted worker env of §9.1 with a worker hash (names only matter here). */
const WORKER_ENV: EnvVarJson[] = [
  'DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_FORWARDPASS_METRIC_PORT', 'DYN_HEALTH_CHECK_ENABLED', 'DYN_NAMESPACE',
  'DYN_NAMESPACE_WORKER_SUFFIX', 'DYN_PARENT_DGD_K8S_NAME', 'DYN_PARENT_DGD_K8S_NAMESPACE', 'DYN_SYSTEM_ENABLED', 'DYN_SYSTEM_PORT',
  'DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS', 'NIXL_TELEMETRY_ENABLE', 'NIXL_TELEMETRY_EXPORTER', 'NIXL_TELEMETRY_PROMETHEUS_PORT',
  'POD_NAME', 'POD_NAMESPACE', 'POD_UID',
].map(name => ({ name, value: 'v' }));
const X_LIST = '-x CPATH -x CUDA_VISIBLE_DEVICES -x DYN_COMPONENT -x DYN_DISCOVERY_BACKEND -x DYN_FORWARDPASS_METRIC_PORT -x DYN_HEALTH_CHECK_ENABLED -x DYN_NAMESPACE -x DYN_NAMESPACE_WORKER_SUFFIX -x DYN_PARENT_DGD_K8S_NAME -x DYN_PARENT_DGD_K8S_NAMESPACE -x DYN_SYSTEM_ENABLED -x DYN_SYSTEM_PORT -x DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS -x HF_DATASETS_CACHE -x HF_ENDPOINT -x HF_HOME -x HF_TOKEN -x HOME -x HUGGING_FACE_HUB_TOKEN -x LD_LIBRARY_PATH -x MODEL_PATH -x NCCL_DEBUG -x NCCL_IB_DISABLE -x NCCL_P2P_DISABLE -x NIXL_TELEMETRY_ENABLE -x NIXL_TELEMETRY_EXPORTER -x NIXL_TELEMETRY_PROMETHEUS_PORT -x OMPI_MCA_orte_keep_fqdn_hostnames -x PATH -x POD_NAME -x POD_NAMESPACE -x POD_UID -x PYTHONPATH -x TENSORRT_LLM_CACHE_DIR -x TOKENIZERS_PARALLELISM -x TRANSFORMERS_CACHE -x TRITON_PTXAS_PATH -x TRTLLM_USE_UCX_KVCACHE -x USER';
const SSH_SETUP = 'mkdir -p $HOME/.ssh && ls -la /ssh-pk/ && cp /ssh-pk/private.key $HOME/.ssh/id_rsa && cp /ssh-pk/private.key.pub $HOME/.ssh/id_rsa.pub && cp /ssh-pk/private.key.pub $HOME/.ssh/authorized_keys && chmod 600 $HOME/.ssh/id_rsa $HOME/.ssh/authorized_keys && chmod 644 $HOME/.ssh/id_rsa.pub && printf \'Host *\\nIdentityFile \'$HOME\'/.ssh/id_rsa\\nStrictHostKeyChecking no\\nPort 2222\\n\' > $HOME/.ssh/config';
const SECRET = 'mpi-run-ssh-secret';
const notAsked = (): number => {
  throw new Error('GPU count asked for on a worker');
};
const SHM = { name: 'shared-memory', mountPath: '/dev/shm' };

describe('render-multinode §4.11 example: TRT-LLM decode on 2 nodes × 8 GPUs, Grove', () => {
  const grove = groveDeployer('decode');
  const c: ContainerJson = { name: 'main', command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model-path', 'm'], env: WORKER_ENV, volumeMounts: [], ...PROBES };

  test('leader: SSH setup then mpirun over both pods with the full -x list', () => {
    const out = trtllmMultinodeContainer(c, { role: 'leader', nodeCount: 2, deployer: grove, gpusPerNode: () => 8, sshSecretName: SECRET });
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual([`${SSH_SETUP} && mpirun $([ "$(id -u)" = "0" ] && echo --allow-run-as-root) --oversubscribe -n 16 -H $(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE),$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-0.$(GROVE_HEADLESS_SERVICE) --mca pml ob1 --mca plm_rsh_args "-p 2222 -o StrictHostKeyChecking=no -i $HOME/.ssh/id_rsa" ${X_LIST} bash -c 'trtllm-llmapi-launch python3 -m dynamo.trtllm --model-path m'`]);
    expect(out.env).toEqual([...WORKER_ENV, { name: 'OMPI_MCA_orte_keep_fqdn_hostnames', value: '1' }]);
    expect(out.volumeMounts).toEqual([{ name: SECRET, mountPath: '/ssh-pk', readOnly: true }]);
    expect(out.livenessProbe).toEqual(PROBES.livenessProbe);
    expect(out.readinessProbe).toEqual(PROBES.readinessProbe);
    expect(out.startupProbe).toEqual(PROBES.startupProbe);
  });

  test('worker: sshd script, TCP readiness on 2222 only', () => {
    const out = trtllmMultinodeContainer(c, { role: 'worker', nodeCount: 2, deployer: grove, gpusPerNode: notAsked, sshSecretName: SECRET });
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual([trtllmWorkerScript()]);
    expect(out.readinessProbe).toEqual({
      tcpSocket: { port: 2222 }, initialDelaySeconds: 20, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 10,
    });
    expect(out).not.toHaveProperty('livenessProbe');
    expect(out).not.toHaveProperty('startupProbe');
    expect(out.volumeMounts).toEqual([{ name: SECRET, mountPath: '/ssh-pk', readOnly: true }]);
  });

  test('both pods: the SSH secret volume with defaultMode 420', () => {
    const pod = { containers: [c], volumes: [{ name: 'shared-memory', emptyDir: {} }] };
    expect(trtllmMultinodePodSpec(pod, { nodeCount: 2, sshSecretName: SECRET }).volumes)
      .toEqual([pod.volumes[0], { name: SECRET, secret: { secretName: SECRET, defaultMode: 420 } }]);
  });
});

describe('render-multinode §6.3 TRT-LLM details', () => {
  test('worker script, step by step', () => {
    expect(trtllmWorkerScript().split(' && ')).toEqual([
      'mkdir -p $HOME/.ssh $HOME/.ssh/host_keys $HOME/.ssh/run',
      'ls -la /ssh-pk/',
      'cp /ssh-pk/private.key $HOME/.ssh/id_rsa',
      'cp /ssh-pk/private.key.pub $HOME/.ssh/id_rsa.pub',
      'cp /ssh-pk/private.key.pub $HOME/.ssh/authorized_keys',
      'chmod 600 $HOME/.ssh/id_rsa $HOME/.ssh/authorized_keys',
      'chmod 644 $HOME/.ssh/id_rsa.pub',
      'printf \'Host *\\nIdentityFile \'$HOME\'/.ssh/id_rsa\\nStrictHostKeyChecking no\\nPort 2222\\n\' > $HOME/.ssh/config',
      'ssh-keygen -t rsa -f $HOME/.ssh/host_keys/ssh_host_rsa_key -N \'\'',
      'ssh-keygen -t ecdsa -f $HOME/.ssh/host_keys/ssh_host_ecdsa_key -N \'\'',
      'ssh-keygen -t ed25519 -f $HOME/.ssh/host_keys/ssh_host_ed25519_key -N \'\'',
      'printf \'Port 2222\\nHostKey \'$HOME\'/.ssh/host_keys/ssh_host_rsa_key\\nHostKey \'$HOME\'/.ssh/host_keys/ssh_host_ecdsa_key\\nHostKey \'$HOME\'/.ssh/host_keys/ssh_host_ed25519_key\\nPidFile \'$HOME\'/.ssh/run/sshd.pid\\nStrictModes no\\nPermitRootLogin yes\\nPasswordAuthentication no\\nPubkeyAuthentication yes\\nAuthorizedKeysFile \'$HOME\'/.ssh/authorized_keys\\n\' > $HOME/.ssh/sshd_config',
      '/usr/sbin/sshd -D -f $HOME/.ssh/sshd_config',
    ]);
  });

  test('LWS leader: DNS wait for workers 1..N-1 before mpirun', () => {
    const c: ContainerJson = { name: 'main', command: ['/bin/sh', '-c'], args: ['python3 -m dynamo.trtllm --x "a b"'] };
    const script = trtllmLeaderScript(c, 2, 4, LWS_DEPLOYER);
    const worker1 = '$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-1\\./\')';
    expect(script).toContain(` && ${dnsWaitStep([worker1])} && mpirun `);
    expect(dnsWaitStep([worker1])).toBe(`TIMEOUT=300; START_TIME=$(date +%s); for worker in ${worker1}; do echo "Waiting for DNS: $worker"; until getent hosts $worker >/dev/null 2>&1; do CURRENT_TIME=$(date +%s); if [ $((CURRENT_TIME - START_TIME)) -gt $TIMEOUT ]; then echo "ERROR: Timeout waiting for DNS: $worker"; exit 1; fi; echo "DNS not ready for $worker, retrying..."; sleep 2; done; echo "✓ DNS resolved: $worker"; done; echo "All workers DNS ready"`);
    expect(script).toContain(` -n 8 -H $(LWS_LEADER_ADDRESS),${worker1} `);
    // a shell-string arg is passed on unquoted
    expect(script.endsWith(' bash -c \'trtllm-llmapi-launch python3 -m dynamo.trtllm --x "a b"\'')).toBe(true);
  });

  test('Grove 3 nodes × 2 GPUs: -n 6 and three hosts, no DNS wait', () => {
    const c: ContainerJson = { name: 'main', command: ['python3'], args: ['--model', 'test'] };
    const script = trtllmLeaderScript(c, 3, 2, groveDeployer('test-service'));
    const h = (s: string): string => `$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-test-service-${s}.$(GROVE_HEADLESS_SERVICE)`;
    expect(script).toContain(` -n 6 -H ${h('ldr-0')},${h('wkr-0')},${h('wkr-1')} --mca pml ob1 `);
    expect(script).not.toContain('getent');
  });

  test('no GPUs: -n 0', () => {
    expect(trtllmLeaderScript({ name: 'main' }, 2, 0, LWS_DEPLOYER)).toContain(' -n 0 -H ');
  });

  test('original launch: python command quoted per word; else args joined as written; else the command', () => {
    expect(trtllmOriginalLaunch({ name: 'main', command: ['python3', '-m', 'dynamo.trtllm'], args: ['--cfg', '{"a": 1}'] }))
      .toBe('python3 -m dynamo.trtllm --cfg "{\\"a\\": 1}"');
    expect(trtllmOriginalLaunch({ name: 'main', command: ['/bin/sh', '-c'], args: ['python3 -m dynamo.trtllm', '--x'] })).toBe('python3 -m dynamo.trtllm --x');
    expect(trtllmOriginalLaunch({ name: 'main', command: ['/entry.sh', 'run'] })).toBe('/entry.sh run');
  });

  test('-x list: fixed names plus container env names, de-duplicated and byte-sorted', () => {
    const flags = mpirunEnvFlags(['PATH', 'a_lower', 'ZZ']).split(' -x ');
    expect(flags[0]).toBe('-x CPATH');
    expect(flags.filter(f => f === 'PATH')).toHaveLength(1);
    expect(flags[flags.length - 1]).toBe('a_lower');
    expect(flags.indexOf('ZZ')).toBeGreaterThan(flags.indexOf('USER'));
  });

  test('single node: unchanged', () => {
    const c: ContainerJson = { name: 'main', command: ['python3'], ...PROBES };
    expect(trtllmMultinodeContainer(c, { role: 'worker', nodeCount: 1, deployer: LWS_DEPLOYER, gpusPerNode: () => 0, sshSecretName: SECRET })).toBe(c);
    const pod = { containers: [c] };
    expect(trtllmMultinodePodSpec(pod, { nodeCount: 1, sshSecretName: SECRET })).toBe(pod);
  });

  test('the SSH mount is appended after existing mounts (shared memory is appended later by the pipeline)', () => {
    const c: ContainerJson = { name: 'main', volumeMounts: [{ name: 'cache', mountPath: '/cache' }] };
    const out = trtllmMultinodeContainer(c, { role: 'worker', nodeCount: 2, deployer: LWS_DEPLOYER, gpusPerNode: () => 0, sshSecretName: SECRET });
    expect(out.volumeMounts).toEqual([{ name: 'cache', mountPath: '/cache' }, { name: SECRET, mountPath: '/ssh-pk', readOnly: true }]);
    expect(out.volumeMounts).not.toContainEqual(SHM);
  });
});
