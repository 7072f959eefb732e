/**
 * Multinode roles and provider addressing (render-multinode §2.1, §2.2, §10.2).
 */
import { RenderError } from '../src/engine/errors';
import { deployerFor, groveDeployer, groveGmsDeployer, LWS_DEPLOYER, nodeRank } from '../src/engine/multinode/deployer';
import { defaultRoleReplicas, isMultinode, multinodeRoles, nodeCountOf } from '../src/engine/multinode/roles';
import { ComponentSpecJson } from '../src/model/v1beta1';

const spec = (extra: Partial<ComponentSpecJson>): ComponentSpecJson => ({ name: 'Decode', type: 'decode', ...extra });

describe('render-multinode §2.1 roles per component', () => {
  test('nodeCount defaults to 1 and only > 1 is multinode', () => {
    expect(nodeCountOf(spec({}))).toBe(1);
    expect(isMultinode(spec({}))).toBe(false);
    expect(isMultinode(spec({ multinode: { nodeCount: 1 } }))).toBe(false);
    expect(isMultinode(spec({ multinode: { nodeCount: 2 } }))).toBe(true);
  });

  test('multinode: leader <comp>-ldr with 1 pod, worker <comp>-wkr with N-1 pods', () => {
    expect(multinodeRoles(spec({ multinode: { nodeCount: 4 } }), 'Decode', 'dcd/x')).toEqual([
      { role: 'leader', name: 'Decode-ldr', replicas: 1 },
      { role: 'worker', name: 'Decode-wkr', replicas: 3 },
    ]);
  });

  test('default replicas per role', () => {
    expect(defaultRoleReplicas('leader', 5)).toBe(1);
    expect(defaultRoleReplicas('worker', 5)).toBe(4);
  });

  test('a single-node component has no multinode roles', () => {
    expect(() => multinodeRoles(spec({}), 'Decode', 'dcd/x')).toThrow(RenderError);
    expect(() => multinodeRoles(spec({ multinode: { nodeCount: 1 } }), 'Decode', 'dcd/x')).toThrow(/nodeCount >= 2, got 1/);
  });
});

describe('render-multinode §10.2 explicit roles list', () => {
  test('a list restating the implicit shape (replicas omitted or equal) gives the same roles', () => {
    const implicit = multinodeRoles(spec({ multinode: { nodeCount: 3 } }), 'decode', 'x');
    expect(multinodeRoles(spec({ multinode: { nodeCount: 3 }, roles: [{ name: 'worker' }, { name: 'leader' }] }), 'decode', 'x')).toEqual(implicit);
    expect(multinodeRoles(spec({ multinode: { nodeCount: 3 }, roles: [{ name: 'leader', replicas: 1 }, { name: 'worker', replicas: 2 }] }), 'decode', 'x'))
      .toEqual(implicit);
  });

  test('exactly one leader and one worker', () => {
    const n = { multinode: { nodeCount: 2 } };
    expect(() => multinodeRoles(spec({ ...n, roles: [{ name: 'leader' }] }), 'd', 'x')).toThrow(/exactly one leader and one worker; worker is missing/);
    expect(() => multinodeRoles(spec({ ...n, roles: [{ name: 'leader' }, { name: 'leader' }, { name: 'worker' }] }), 'd', 'x'))
      .toThrow(/roles\[1\]\.name: role leader is listed more than once/);
    expect(() => multinodeRoles(spec({ ...n, roles: [{ name: 'leader' }, { name: 'follower' }] }), 'd', 'x'))
      .toThrow(/roles\[1\]\.name: role name must be leader or worker, got "follower"/);
  });

  test('replicas other than the defaults are refused', () => {
    expect(() => multinodeRoles(spec({ multinode: { nodeCount: 3 }, roles: [{ name: 'leader', replicas: 2 }, { name: 'worker' }] }), 'd', 'x'))
      .toThrow(/roles\[0\]\.replicas: role leader must have 1 replicas with nodeCount 3, got 2/);
    expect(() => multinodeRoles(spec({ multinode: { nodeCount: 3 }, roles: [{ name: 'leader' }, { name: 'worker', replicas: 1 }] }), 'd', 'x'))
      .toThrow(/role worker must have 2 replicas/);
  });
});

describe('render-multinode §2.2 deployer values', () => {
  test('LWS: leader address and worker index from LWS env vars, no shell, DNS wait', () => {
    expect(LWS_DEPLOYER.leaderHostname).toBe('$(LWS_LEADER_ADDRESS)');
    expect(nodeRank(LWS_DEPLOYER, 'leader')).toEqual({ value: '0', needsShell: false });
    expect(nodeRank(LWS_DEPLOYER, 'worker')).toEqual({ value: '$(LWS_WORKER_INDEX)', needsShell: false });
    expect(LWS_DEPLOYER.needsDnsWait).toBe(true);
  });

  test('LWS host list: leader, then the leader address with -<i> added to its first label', () => {
    expect(LWS_DEPLOYER.hostNames(3)).toEqual([
      '$(LWS_LEADER_ADDRESS)',
      '$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-1\\./\')',
      '$(echo "$LWS_LEADER_ADDRESS" | sed \'s/\\./-2\\./\')',
    ]);
  });

  test('Grove: headless-service names with the lower-cased component, rank arithmetic needs a shell', () => {
    const grove = groveDeployer('Decode');
    expect(grove.leaderHostname).toBe('$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE)');
    expect(nodeRank(grove, 'leader')).toEqual({ value: '0', needsShell: false });
    expect(nodeRank(grove, 'worker')).toEqual({ value: '$((GROVE_PCLQ_POD_INDEX + 1))', needsShell: true });
    expect(grove.needsDnsWait).toBe(false);
    expect(grove.hostNames(3)).toEqual([
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE)',
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-0.$(GROVE_HEADLESS_SERVICE)',
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-1.$(GROVE_HEADLESS_SERVICE)',
    ]);
  });

  test('Grove inter-pod GMS: per-rank cliques indexed by the pod index, literal rank without shell', () => {
    const gms = groveGmsDeployer('Decode', 2);
    expect(gms.leaderHostname).toBe('$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)');
    expect(nodeRank(gms, 'worker')).toEqual({ value: '2', needsShell: false });
    expect(gms.hostNames(3)).toEqual([
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)',
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-1-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)',
      '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-2-$(GROVE_PCLQ_POD_INDEX).$(GROVE_HEADLESS_SERVICE)',
    ]);
  });

  test('deployerFor picks the provider', () => {
    expect(deployerFor('lws', 'x')).toBe(LWS_DEPLOYER);
    expect(deployerFor('grove', 'x').provider).toBe('grove');
  });
});
