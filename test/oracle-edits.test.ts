/**
 * `diff`'s restartsPods against the operator, on seeded edit pairs recorded from the oracle
 * (test/fixtures/oracle/edits-<version>.jsonl.gz, operators 1.5.0 and 1.4.0; `npx projen
 * oracle:record-edits` regenerates them; the edited graph is applied as an update of the reconciled
 * old one, as on a cluster): for
 * each workload the operator writes (Deployment, LeaderWorkerSet, PodCliqueSet), whether the edit
 * changed a pod template (restarts pods) and whether the object came back under a new worker hash,
 * compared with our `diff --json` on the same pair, run in process.
 */
import * as path from 'path';
import { runCliOn } from './support/cli-in-process';
import { compareEdit, EDIT_KINDS, EditDisagreement, readEditsFixture, workloadChanges } from './support/oracle-edits';

/** Pairs where our diff and the operator disagree, by id: none known. */
const KNOWN_DISAGREEMENTS: Readonly<Record<string, string>> = {};

describe.each([
  { version: '1.5.0', commit: '2a6da14c8' },
  { version: '1.4.0', commit: 'c13fdcec6' },
])('diff restartsPods against the operator ($version)', ({ version, commit }) => {
  const { meta, pairs } = readEditsFixture(path.join(__dirname, 'fixtures', 'oracle', `edits-${version}.jsonl.gz`));
  /** The operator configuration our side renders with: the version the pairs were recorded at. */
  const operatorConfig = `apiVersion: operator.config.dynamo.nvidia.com/v1alpha1\nkind: OperatorConfiguration\noperatorVersion: "${version}"\n`;

  test('the fixture names its operator and holds at least 300 pairs of every edit, both modes', () => {
    expect(meta).toMatchObject({ operatorVersion: version, operatorCommit: commit, recorded: 'update' });
    expect(pairs.length).toBe(meta.count);
    expect(pairs.length).toBeGreaterThanOrEqual(300);
    expect(new Set(pairs.map(p => p.edit))).toEqual(new Set(EDIT_KINDS));
    expect(new Set(pairs.map(p => p.grove))).toEqual(new Set([true, false]));
    // the truth holds pod-template changes, changes that restart nothing, and worker-hash rollouts
    const workloads = pairs.flatMap(p => p.oracle.workloads ?? []);
    expect(workloads.some(w => w.restartsPods && !w.rollout)).toBe(true);
    expect(workloads.some(w => w.change === 'modified' && !w.restartsPods)).toBe(true);
    expect(workloads.some(w => w.rollout)).toBe(true);
    // recorded as an update: a rollout keeps the old worker's workload beside the new one
    const rollouts = pairs.flatMap(p => (p.oracle.workloads ?? []).filter(w => w.rollout).map(w => ({ p, w })));
    expect(rollouts.length).toBeGreaterThan(0);
    for (const { p, w } of rollouts) {
      expect({ id: p.id, name: w.name, previousKept: w.previousKept }).toEqual({ id: p.id, name: w.name, previousKept: true });
      const old = p.oracle.workloads!.find(o => o.name === w.previousName);
      expect({ id: p.id, old: old && { change: old.change === 'added' ? 'added' : 'kept', restartsPods: old.restartsPods } })
        .toEqual({ id: p.id, old: { change: 'kept', restartsPods: false } });
    }
  });

  test('a rollout during an update: the new-hash workload rolls out, the old one is kept and listed by its name', () => {
    const deployment = (hash: string, replicas: number, image: string): any => ({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: `g-worker-${hash}`, namespace: 'default', labels: { 'nvidia.com/dynamo-worker-hash': hash } },
      spec: { replicas, template: { spec: { containers: [{ name: 'main', image }] } } },
    });
    const old = deployment('aaaa1111', 2, 'img:1');
    expect(workloadChanges([old], [deployment('aaaa1111', 1, 'img:1'), deployment('bbbb2222', 1, 'img:2')])).toEqual([
      { kind: 'Deployment', name: 'g-worker-aaaa1111', change: 'modified', restartsPods: false },
      { kind: 'Deployment', name: 'g-worker-bbbb2222', previousName: 'g-worker-aaaa1111', rollout: true, previousKept: true, change: 'modified', restartsPods: true },
    ]);
    // two independent creations: the old one is gone, the new one is its rollout
    expect(workloadChanges([old], [deployment('bbbb2222', 1, 'img:2')])).toEqual([
      { kind: 'Deployment', name: 'g-worker-bbbb2222', previousName: 'g-worker-aaaa1111', rollout: true, change: 'modified', restartsPods: true },
    ]);
  });

  test('our diff restarts pods (and rolls out a new worker hash) where the operator does', () => {
    const found: EditDisagreement[] = [];
    for (const pair of pairs) {
      if (pair.oracle.refused !== undefined) continue;
      const run = runCliOn({ 'old.yaml': JSON.stringify(pair.before), 'new.yaml': JSON.stringify(pair.after), 'operator.yaml': operatorConfig },
        ['diff', '--json', '--operator-config', 'operator.yaml', pair.grove ? '--grove' : '--no-grove', '--lws', 'old.yaml', 'new.yaml']);
      expect({ id: pair.id, code: run.code, stderr: run.stderr }).toEqual({ id: pair.id, code: 0, stderr: '' });
      found.push(...compareEdit(pair, JSON.parse(run.stdout)));
    }
    const byId: Record<string, string> = {};
    for (const d of found) byId[d.id] = [byId[d.id], `${d.object}: operator ${d.operator}, ours ${d.ours}`].filter(Boolean).join('; ');
    expect(byId).toEqual(KNOWN_DISAGREEMENTS);
  }, 600_000);
});
