/**
 * TensorRT-LLM multinode container and pod rewrites (docs/design/render-multinode.md §6.3, worked example §4.11),
 * on the rendered Grove cliques and LeaderWorkerSet templates.
 */
import { DgdJson, JsonObject, multinodePods, renderUnchecked } from './support/facade';
import { component, graph } from './support/graphs';

const PROBES = {
  livenessProbe: { httpGet: { path: '/live', port: 'system' } },
  readinessProbe: { httpGet: { path: '/health', port: 'system' } },
  startupProbe: { httpGet: { path: '/live', port: 'system' } },
};
/** The names the leader passes on with `-x`: the fixed list and the rendered worker env of docs/design/render-multinode.md §9.1 (with a worker hash). */
const X_LIST = '-x CPATH -x CUDA_VISIBLE_DEVICES -x DYN_COMPONENT -x DYN_DISCOVERY_BACKEND -x DYN_FORWARDPASS_METRIC_PORT -x DYN_HEALTH_CHECK_ENABLED -x DYN_NAMESPACE -x DYN_NAMESPACE_WORKER_SUFFIX -x DYN_PARENT_DGD_K8S_NAME -x DYN_PARENT_DGD_K8S_NAMESPACE -x DYN_SYSTEM_ENABLED -x DYN_SYSTEM_PORT -x DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS -x HF_DATASETS_CACHE -x HF_ENDPOINT -x HF_HOME -x HF_TOKEN -x HOME -x HUGGING_FACE_HUB_TOKEN -x LD_LIBRARY_PATH -x MODEL_PATH -x NCCL_DEBUG -x NCCL_IB_DISABLE -x NCCL_P2P_DISABLE -x NIXL_TELEMETRY_ENABLE -x NIXL_TELEMETRY_EXPORTER -x NIXL_TELEMETRY_PROMETHEUS_PORT -x OMPI_MCA_orte_keep_fqdn_hostnames -x PATH -x POD_NAME -x POD_NAMESPACE -x POD_UID -x PYTHONPATH -x TENSORRT_LLM_CACHE_DIR -x TOKENIZERS_PARALLELISM -x TRANSFORMERS_CACHE -x TRITON_PTXAS_PATH -x TRTLLM_USE_UCX_KVCACHE -x USER';
const SSH_SETUP = 'mkdir -p $HOME/.ssh && ls -la /ssh-pk/ && cp /ssh-pk/private.key $HOME/.ssh/id_rsa && cp /ssh-pk/private.key.pub $HOME/.ssh/id_rsa.pub && cp /ssh-pk/private.key.pub $HOME/.ssh/authorized_keys && chmod 600 $HOME/.ssh/id_rsa $HOME/.ssh/authorized_keys && chmod 644 $HOME/.ssh/id_rsa.pub && printf \'Host *\\nIdentityFile \'$HOME\'/.ssh/id_rsa\\nStrictHostKeyChecking no\\nPort 2222\\n\' > $HOME/.ssh/config';
const SECRET = 'mpi-run-ssh-secret';
const SHM = { name: 'shared-memory', mountPath: '/dev/shm' };
const SSH_MOUNT = { name: SECRET, mountPath: '/ssh-pk', readOnly: true };
const gpus = (n: number): JsonObject => (n > 0 ? { resources: { limits: { 'nvidia.com/gpu': String(n) } } } : {});

/** A TRT-LLM graph whose one component `name` (type decode) runs on `nodeCount` nodes with this `main` container. */
function trtllm(main: JsonObject, nodeCount = 2, name = 'decode'): DgdJson {
  return graph([component(name, 'decode', nodeCount > 1 ? { multinode: { nodeCount } } : {}, main)], { backendFramework: 'trtllm' });
}

/** The leader and worker pod specs on Grove (or on the LWS path). */
function pods(dgd: DgdJson, grove = true, name = 'decode'): { leader: any; worker: any } {
  return multinodePods(renderUnchecked(dgd, { namespace: 'ns', settings: { groveAvailable: grove } }), name);
}
const main = (pod: any): any => pod.containers.find((c: any) => c.name === 'main');
/** The leader's launch script. */
const leaderScript = (dgd: DgdJson, grove = true, name = 'decode'): string => main(pods(dgd, grove, name).leader).args[0];

describe('docs/design/render-multinode.md §4.11 example: TRT-LLM decode on 2 nodes × 8 GPUs, Grove', () => {
  const { leader, worker } = pods(trtllm({ command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model-path', 'm'], ...gpus(8), ...PROBES }));

  test('leader: SSH setup then mpirun over both pods with the full -x list', () => {
    const out = main(leader);
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toEqual([`${SSH_SETUP} && mpirun $([ "$(id -u)" = "0" ] && echo --allow-run-as-root) --oversubscribe -n 16 -H $(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE),$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-0.$(GROVE_HEADLESS_SERVICE) --mca pml ob1 --mca plm_rsh_args "-p 2222 -o StrictHostKeyChecking=no -i $HOME/.ssh/id_rsa" ${X_LIST} bash -c 'trtllm-llmapi-launch python3 -m dynamo.trtllm --model-path m'`]);
    // the hostname flag is appended after the worker env
    expect(out.env[out.env.length - 1]).toEqual({ name: 'OMPI_MCA_orte_keep_fqdn_hostnames', value: '1' });
    expect(out.env.filter((e: any) => e.name === 'OMPI_MCA_orte_keep_fqdn_hostnames')).toHaveLength(1);
    // the SSH mount first, then the shared memory the pipeline appends
    expect(out.volumeMounts).toEqual([SSH_MOUNT, SHM]);
    expect(out.livenessProbe).toEqual(PROBES.livenessProbe);
    expect(out.readinessProbe).toEqual(PROBES.readinessProbe);
    expect(out.startupProbe).toEqual(PROBES.startupProbe);
  });

  test('worker: sshd script, TCP readiness on 2222 only', () => {
    const out = main(worker);
    expect(out.command).toEqual(['/bin/sh', '-c']);
    expect(out.args).toHaveLength(1);
    expect(out.args[0]).toMatch(/ && \/usr\/sbin\/sshd -D -f \$HOME\/\.ssh\/sshd_config$/);
    expect(out.readinessProbe).toEqual({
      tcpSocket: { port: 2222 }, initialDelaySeconds: 20, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 10,
    });
    expect(out).not.toHaveProperty('livenessProbe');
    expect(out).not.toHaveProperty('startupProbe');
    expect(out.volumeMounts).toEqual([SSH_MOUNT, SHM]);
  });

  test('both pods: the SSH secret volume with defaultMode 420', () => {
    for (const pod of [leader, worker]) {
      expect(pod.volumes).toEqual([
        { name: SECRET, secret: { secretName: SECRET, defaultMode: 420 } },
        { name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } },
      ]);
    }
  });
});

describe('docs/design/render-multinode.md §6.3 TRT-LLM details', () => {
  test('worker script, step by step', () => {
    const { worker } = pods(trtllm({ command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model-path', 'm'], ...gpus(8) }));
    expect(main(worker).args[0].split(' && ')).toEqual([
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
    const script = leaderScript(trtllm({ command: ['/bin/sh', '-c'], args: ['python3 -m dynamo.trtllm --x "a b"'], ...gpus(4) }), false);
    const worker1 = '$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-1\\./\')';
    expect(script).toContain(` && TIMEOUT=300; START_TIME=$(date +%s); for worker in ${worker1}; do echo "Waiting for DNS: $worker"; until getent hosts $worker >/dev/null 2>&1; do CURRENT_TIME=$(date +%s); if [ $((CURRENT_TIME - START_TIME)) -gt $TIMEOUT ]; then echo "ERROR: Timeout waiting for DNS: $worker"; exit 1; fi; echo "DNS not ready for $worker, retrying..."; sleep 2; done; echo "✓ DNS resolved: $worker"; done; echo "All workers DNS ready" && mpirun `);
    expect(script).toContain(` -n 8 -H $(LWS_LEADER_ADDRESS),${worker1} `);
    // a shell-string arg is passed on unquoted
    expect(script.endsWith(' bash -c \'trtllm-llmapi-launch python3 -m dynamo.trtllm --x "a b"\'')).toBe(true);
  });

  test('Grove 3 nodes × 2 GPUs: -n 6 and three hosts, no DNS wait', () => {
    const script = leaderScript(trtllm({ command: ['python3'], args: ['--model', 'test'], ...gpus(2) }, 3, 'test-service'), true, 'test-service');
    const h = (s: string): string => `$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-test-service-${s}.$(GROVE_HEADLESS_SERVICE)`;
    expect(script).toContain(` -n 6 -H ${h('ldr-0')},${h('wkr-0')},${h('wkr-1')} --mca pml ob1 `);
    expect(script).not.toContain('getent');
  });

  test('no GPUs: -n 0', () => {
    expect(leaderScript(trtllm({ command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model', 'm'] }), false)).toContain(' -n 0 -H ');
  });

  test('original launch: python command quoted per word; else args joined as written; else the command', () => {
    const launched = (c: JsonObject): string => leaderScript(trtllm({ ...c, ...gpus(1) })).split(' bash -c ').pop()!;
    expect(launched({ command: ['python3', '-m', 'dynamo.trtllm'], args: ['--cfg', '{"a": 1}'] }))
      .toBe('\'trtllm-llmapi-launch python3 -m dynamo.trtllm --cfg "{\\"a\\": 1}"\'');
    expect(launched({ command: ['/bin/sh', '-c'], args: ['python3 -m dynamo.trtllm', '--x'] })).toBe('\'trtllm-llmapi-launch python3 -m dynamo.trtllm --x\'');
    expect(launched({ command: ['/entry.sh', 'run'] })).toBe('\'trtllm-llmapi-launch /entry.sh run\'');
  });

  test('-x list: fixed names plus container env names, de-duplicated and byte-sorted', () => {
    const env = ['PATH', 'a_lower', 'ZZ'].map(name => ({ name, value: 'v' }));
    const script = leaderScript(trtllm({ command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model', 'm'], env, ...gpus(1) }));
    const flags = [...script.matchAll(/ -x (\S+)/g)].map(m => m[1]);
    expect(flags[0]).toBe('CPATH');
    expect(flags.filter(f => f === 'PATH')).toHaveLength(1);
    expect(flags[flags.length - 1]).toBe('a_lower');
    expect(flags.indexOf('ZZ')).toBeGreaterThan(flags.indexOf('USER'));
    expect([...flags].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(flags);
  });

  test('single node: unchanged', () => {
    const objects = renderUnchecked(trtllm({ command: ['python3'], args: ['--model', 'm'], ...PROBES }, 1), { namespace: 'ns' });
    const pod = objects.find(o => o.kind === 'Deployment').spec.template.spec;
    expect(main(pod).command).toEqual(['python3']);
    expect(main(pod).args).toEqual(['--model', 'm']);
    expect(main(pod).readinessProbe).toEqual(PROBES.readinessProbe);
    expect(main(pod).volumeMounts).toEqual([SHM]);
    expect(pod.volumes.map((v: any) => v.name)).toEqual(['shared-memory']);
  });

  test('the SSH mount is appended after existing mounts (shared memory is appended later by the pipeline)', () => {
    const { worker } = pods(trtllm({ command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model', 'm'], volumeMounts: [{ name: 'cache', mountPath: '/cache' }] }));
    expect(main(worker).volumeMounts).toEqual([{ name: 'cache', mountPath: '/cache' }, SSH_MOUNT, SHM]);
  });
});
