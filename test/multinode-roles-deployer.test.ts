/**
 * Multinode roles and provider addressing (docs/design/render-multinode.md §2.1, §2.2, §10.2), on the rendered
 * Grove cliques, LeaderWorkerSets and the addresses written into the launch command lines.
 */
import { DgdJson, JsonObject, multinodePods, renderError, renderUnchecked } from './support/facade';
import { component, graph } from './support/graphs';

/** A graph whose one worker `name` (type decode, `framework`) has `extra` component fields and this `main` container. */
function decode(extra: JsonObject, framework = 'vllm', main: JsonObject = {}, name = 'decode'): DgdJson {
  return graph([component(name, 'decode', extra, { command: ['python3', '-m', `dynamo.${framework}`], args: ['--model', 'm'], ...main })],
    { backendFramework: framework });
}
const onGrove = (dgd: DgdJson): any[] => renderUnchecked(dgd, { namespace: 'ns', settings: { groveAvailable: true } });
const onLws = (dgd: DgdJson): any[] => renderUnchecked(dgd, { namespace: 'ns' });
/** Name and replicas of each clique of the graph's PodCliqueSet. */
const cliques = (dgd: DgdJson): [string, number][] =>
  onGrove(dgd).find(o => o.kind === 'PodCliqueSet').spec.template.cliques.map((c: any) => [c.name, c.spec.replicas]);
const kinds = (objects: any[]): string[] => objects.map(o => o.kind);
const main = (pod: any): any => pod.containers.find((c: any) => c.name === 'main');
/** The TRT-LLM leader's launch script on Grove. */
const trtllmLeader = (dgd: DgdJson): string =>
  main(onGrove(dgd).find(o => o.kind === 'PodCliqueSet').spec.template.cliques.find((c: any) => c.name === 'decode-ldr').spec.podSpec).args[0];
const gpus = (n: number): JsonObject => ({ resources: { limits: { 'nvidia.com/gpu': String(n) } } });

describe('docs/design/render-multinode.md §2.1 roles per component', () => {
  test('nodeCount defaults to 1 and only > 1 is multinode', () => {
    expect(cliques(decode({}))).toEqual([['decode', 1]]);
    expect(cliques(decode({ multinode: { nodeCount: 1 } }))).toEqual([['decode', 1]]);
    expect(cliques(decode({ multinode: { nodeCount: 2 } })).map(c => c[0])).toEqual(['decode-ldr', 'decode-wkr']);
    expect(kinds(onLws(decode({})))).not.toContain('LeaderWorkerSet');
    expect(kinds(onLws(decode({ multinode: { nodeCount: 1 } })))).not.toContain('LeaderWorkerSet');
    expect(kinds(onLws(decode({ multinode: { nodeCount: 2 } })))).toContain('LeaderWorkerSet');
  });

  test('multinode: leader <comp>-ldr with 1 pod, worker <comp>-wkr with N-1 pods (the component name lower-cased)', () => {
    expect(cliques(decode({ multinode: { nodeCount: 4 } }, 'vllm', {}, 'Decode'))).toEqual([['decode-ldr', 1], ['decode-wkr', 3]]);
  });

  test('default replicas per role', () => {
    expect(cliques(decode({ multinode: { nodeCount: 5 } }))).toEqual([['decode-ldr', 1], ['decode-wkr', 4]]);
    const lws = onLws(decode({ multinode: { nodeCount: 5 } })).find(o => o.kind === 'LeaderWorkerSet');
    expect(lws.spec.leaderWorkerTemplate.size).toBe(5);
  });

  test('a single-node component has no multinode roles', () => {
    const pcs = onGrove(decode({ multinode: { nodeCount: 1 } })).find(o => o.kind === 'PodCliqueSet');
    expect(pcs.spec.template.podCliqueScalingGroups ?? []).toEqual([]);
    expect(cliques(decode({ multinode: { nodeCount: 1 } })).map(c => c[0])).not.toContain('decode-ldr');
  });
});

describe('docs/design/render-multinode.md §10.2 explicit roles list', () => {
  test('a list restating the implicit shape (replicas omitted or equal) gives the same roles', () => {
    const implicit = cliques(decode({ multinode: { nodeCount: 3 } }));
    expect(cliques(decode({ multinode: { nodeCount: 3 }, roles: [{ name: 'worker' }, { name: 'leader' }] }))).toEqual(implicit);
    expect(cliques(decode({ multinode: { nodeCount: 3 }, roles: [{ name: 'leader', replicas: 1 }, { name: 'worker', replicas: 2 }] }))).toEqual(implicit);
  });

  test('exactly one leader and one worker', () => {
    const n = { multinode: { nodeCount: 2 } };
    const error = (roles: JsonObject[]): string => renderError(() => onGrove(decode({ ...n, roles }))).message;
    expect(error([{ name: 'leader' }])).toMatch(/exactly one leader and one worker; worker is missing/);
    expect(error([{ name: 'leader' }, { name: 'leader' }, { name: 'worker' }])).toMatch(/roles\[1\]\.name: role leader is listed more than once/);
    expect(error([{ name: 'leader' }, { name: 'follower' }])).toMatch(/roles\[1\]\.name: role name must be leader or worker, got "follower"/);
  });

  test('replicas other than the defaults are refused', () => {
    const error = (roles: JsonObject[]): string => renderError(() => onGrove(decode({ multinode: { nodeCount: 3 }, roles }))).message;
    expect(error([{ name: 'leader', replicas: 2 }, { name: 'worker' }])).toMatch(/roles\[0\]\.replicas: role leader must have 1 replicas with nodeCount 3, got 2/);
    expect(error([{ name: 'leader' }, { name: 'worker', replicas: 1 }])).toMatch(/role worker must have 2 replicas/);
  });
});

describe('docs/design/render-multinode.md §2.2 deployer values (as written into the launch command lines)', () => {
  test('LWS: leader address and worker index from LWS env vars, no shell', () => {
    const { leader, worker } = multinodePods(onLws(decode({ multinode: { nodeCount: 2 } }, 'sglang')), 'decode');
    expect(main(leader).args).toEqual(['--model', 'm', '--dist-init-addr', '$(LWS_LEADER_ADDRESS):29500', '--nnodes', '2', '--node-rank', '0']);
    expect(main(worker).args).toEqual(['--model', 'm', '--dist-init-addr', '$(LWS_LEADER_ADDRESS):29500', '--nnodes', '2', '--node-rank', '$(LWS_WORKER_INDEX)']);
    expect(main(worker).command).toEqual(['python3', '-m', 'dynamo.sglang']);
  });

  test('LWS host list: leader, then the leader address with -<i> added to its first label; a DNS wait for them', () => {
    const objects = onLws(decode({ multinode: { nodeCount: 3 } }, 'trtllm', gpus(1)));
    const script = main(multinodePods(objects, 'decode').leader).args[0];
    const hosts = ['$(LWS_LEADER_ADDRESS)', '$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-1\\./\')', '$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-2\\./\')'];
    expect(script).toContain(` -H ${hosts.join(',')} `);
    expect(script).toContain(`for worker in ${hosts[1]} ${hosts[2]}; do`);
  });

  test('Grove: headless-service names with the lower-cased component, rank arithmetic needs a shell, no DNS wait', () => {
    const { leader, worker } = multinodePods(onGrove(decode({ multinode: { nodeCount: 3 } }, 'sglang', {}, 'Decode')), 'decode');
    const host = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE)';
    expect(main(leader).args).toEqual(['--model', 'm', '--dist-init-addr', `${host}:29500`, '--nnodes', '3', '--node-rank', '0']);
    expect(main(worker).command).toEqual(['sh', '-c']);
    expect(main(worker).args).toEqual([`exec python3 -m dynamo.sglang --model m --dist-init-addr ${host}:29500 --nnodes 3 --node-rank $((GROVE_PCLQ_POD_INDEX + 1))`]);
    const script = trtllmLeader(decode({ multinode: { nodeCount: 3 } }, 'trtllm', gpus(1), 'Decode'));
    expect(script).toContain(` -H ${[
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE)',
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-0.$(GROVE_HEADLESS_SERVICE)',
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-1.$(GROVE_HEADLESS_SERVICE)',
    ].join(',')} `);
    expect(script).not.toContain('getent');
  });

  test('Grove inter-pod GMS: per-rank cliques indexed by the pod index, literal rank without shell', () => {
    const gms = { multinode: { nodeCount: 3 }, experimental: { gpuMemoryService: { mode: 'InterPod' } } };
    const objects = onGrove(decode(gms, 'sglang', gpus(2), 'Decode'));
    const pcs = objects.find(o => o.kind === 'PodCliqueSet');
    const rank2 = main(pcs.spec.template.cliques.find((c: any) => c.name === 'decode-wkr-2').spec.podSpec);
    const host = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)';
    expect(rank2.command).toEqual(['python3', '-m', 'dynamo.sglang']);
    expect(rank2.args).toEqual(['--model', 'm', '--dist-init-addr', `${host}:29500`, '--nnodes', '3', '--node-rank', '2']);
    const script = trtllmLeader(decode(gms, 'trtllm', gpus(2), 'Decode'));
    expect(script).toContain(` -H ${[
      host,
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-1-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)',
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-2-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)',
    ].join(',')} `);
  });

  test('the provider follows the operator: a LeaderWorkerSet without Grove, a PodCliqueSet with it', () => {
    expect(kinds(onLws(decode({ multinode: { nodeCount: 2 } })))).not.toContain('PodCliqueSet');
    expect(kinds(onGrove(decode({ multinode: { nodeCount: 2 } })))).toEqual(expect.arrayContaining(['PodCliqueSet']));
    expect(kinds(onGrove(decode({ multinode: { nodeCount: 2 } })))).not.toContain('LeaderWorkerSet');
  });
});
