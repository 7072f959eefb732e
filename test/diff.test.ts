/**
 * The diff engine on objects: field paths (named lists keyed by name), the pod-template rule of each
 * workload kind, worker-hash pairing, and the rollout of Dynamo resources judged on their workloads.
 */
import { diffRenderings, formatDiffText } from '../src/diff/diff';
import { changedFields } from '../src/diff/object-diff';
import { dynamoFieldsRestart, withoutWorkerHash, workloadRestarts } from '../src/diff/rollout';

function deployment(name: string, mutate: (d: any) => void = () => {}, labels: Record<string, string> = {}): any {
  const d = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'ns', labels },
    spec: {
      replicas: 1,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'main', image: 'img:1', env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }] }] },
      },
    },
  };
  mutate(d);
  return d;
}

describe('changedFields', () => {
  test('named lists are keyed by name, maps of keys bracketed, other lists by index', () => {
    const before = deployment('w');
    const after = deployment('w', d => {
      d.spec.template.spec.containers[0].image = 'img:2';
      d.spec.template.spec.containers[0].env[1].value = '3';
      d.spec.template.spec.containers[0].args = ['--x'];
      d.metadata.labels['nvidia.com/team'] = 'a';
      d.spec.replicas = 2;
    });
    expect(changedFields(before, after)).toEqual([
      'metadata.labels[nvidia.com/team]',
      'spec.replicas',
      'spec.template.spec.containers[main].image',
      'spec.template.spec.containers[main].env[B].value',
      'spec.template.spec.containers[main].args',
    ]);
  });

  test('an item added to a named list, and items reordered', () => {
    const before = deployment('w');
    const added = deployment('w', d => d.spec.template.spec.containers.push({ name: 'sidecar', image: 'x' }));
    expect(changedFields(before, added)).toEqual(['spec.template.spec.containers[sidecar]']);
    const reordered = deployment('w', d => d.spec.template.spec.containers[0].env.reverse());
    expect(changedFields(before, reordered)).toEqual(['spec.template.spec.containers[main].env']);
  });

  test('lists without distinct names compare by position', () => {
    expect(changedFields({ args: ['a', 'b'] }, { args: ['a', 'c', 'd'] })).toEqual(['args[1]', 'args[2]']);
    expect(changedFields({ l: [{ name: 'x' }, { name: 'x', v: 1 }] }, { l: [{ name: 'x' }, { name: 'x', v: 2 }] })).toEqual(['l[1].v']);
  });

  test('equal values in another key order are no change', () => {
    expect(changedFields({ a: { x: 1, y: 2 } }, { a: { y: 2, x: 1 } })).toEqual([]);
  });
});

describe('workloadRestarts: the pod template of each kind', () => {
  test.each([
    ['apps/v1', 'Deployment', ['spec.template.spec.containers[main].image'], true],
    ['apps/v1', 'Deployment', ['spec.template.metadata.annotations[example.com/x]'], true],
    ['apps/v1', 'Deployment', ['spec.replicas', 'metadata.labels[a]', 'metadata.annotations[b]'], false],
    ['apps/v1', 'StatefulSet', ['spec.template.spec.volumes[data]'], true],
    ['leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet', ['spec.leaderWorkerTemplate.workerTemplate.spec.containers[main].args[3]'], true],
    ['leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet', ['spec.leaderWorkerTemplate.leaderTemplate.metadata.annotations[x]'], true],
    ['leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet', ['spec.leaderWorkerTemplate.size'], true],
    ['leaderworkerset.x-k8s.io/v1', 'LeaderWorkerSet', ['spec.replicas', 'spec.rolloutStrategy.rollingUpdateConfiguration.maxSurge'], false],
    ['grove.io/v1alpha1', 'PodCliqueSet', ['spec.template.cliques[decode-wkr].spec.podSpec.containers[main].env[X].value'], true],
    ['grove.io/v1alpha1', 'PodCliqueSet', ['spec.template.cliques[decode-ldr].annotations[x]'], true],
    ['grove.io/v1alpha1', 'PodCliqueSet', ['spec.template.cliques[decode-ldr].labels[nvidia.com/dynamo-worker-hash]'], true],
    ['grove.io/v1alpha1', 'PodCliqueSet', ['spec.template.priorityClassName'], true],
    ['grove.io/v1alpha1', 'PodCliqueSet', ['spec.template.cliques[frontend].spec.replicas', 'spec.replicas', 'metadata.annotations[a]'], false],
    ['v1', 'Pod', ['spec.containers[main].image'], true],
  ])('%s %s %j → %s', (apiVersion, kind, fields, expected) => {
    expect(workloadRestarts(apiVersion, kind, fields)).toBe(expected);
  });

  test('kinds without pods have no rule', () => {
    expect(workloadRestarts('v1', 'Service', ['spec.selector'])).toBeUndefined();
    expect(workloadRestarts('v1', 'ConfigMap', ['data[x]'])).toBeUndefined();
  });
});

describe('Dynamo resources', () => {
  test('judged on their own fields when no workloads are known: scale and labels restart nothing', () => {
    expect(dynamoFieldsRestart('DynamoGraphDeployment', ['spec.components[Frontend].replicas', 'metadata.labels[team]'])).toBe(false);
    expect(dynamoFieldsRestart('DynamoGraphDeployment', ['spec.components[decode].podTemplate.spec.containers[main].image'])).toBe(true);
    expect(dynamoFieldsRestart('DynamoGraphDeployment', ['spec.env'])).toBe(true);
    expect(dynamoFieldsRestart('DynamoGraphDeployment', ['metadata.annotations[nvidia.com/enable-grove]'])).toBe(true);
    expect(dynamoFieldsRestart('DynamoComponentDeployment', ['spec.replicas', 'spec.scalingAdapter'])).toBe(false);
    expect(dynamoFieldsRestart('DynamoComponentDeployment', ['spec.podTemplate.spec.containers[main].image'])).toBe(true);
  });

  const dgd = (replicas: number, image: string): any => ({
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'g', namespace: 'ns' },
    spec: { components: [{ name: 'Frontend', type: 'frontend', replicas, podTemplate: { spec: { containers: [{ name: 'main', image }] } } }] },
  });
  const owned = { 'nvidia.com/dynamo-graph-deployment-name': 'g', 'nvidia.com/dynamo-component': 'Frontend' };

  test('judged on the workloads the operator creates for them when known', () => {
    // the graph's image changed but its Deployment did not (as if the operator overrode the image): no restart
    const before = [deployment('g-frontend', () => {}, owned)];
    const after = [deployment('g-frontend', d => { d.spec.replicas = 2; }, owned)];
    const [entry] = diffRenderings([dgd(1, 'a')], [dgd(2, 'b')], { before, after });
    expect(entry).toMatchObject({ kind: 'DynamoGraphDeployment', restartsPods: false });
    const restarted = [deployment('g-frontend', d => { d.spec.template.spec.containers[0].image = 'b'; }, owned)];
    expect(diffRenderings([dgd(1, 'a')], [dgd(1, 'b')], { before, after: restarted })[0]).toMatchObject({ restartsPods: true });
    // without workloads: its own fields
    expect(diffRenderings([dgd(1, 'a')], [dgd(2, 'a')], undefined)[0]).toMatchObject({ restartsPods: false });
    expect(diffRenderings([dgd(1, 'a')], [dgd(1, 'b')], undefined)[0]).toMatchObject({ restartsPods: true });
  });
});

describe('worker-hash rollouts', () => {
  test('the hash segment of a name', () => {
    const hashes = new Set(['0123abcd']);
    expect(withoutWorkerHash('g-decode-0123abcd', hashes)).toEqual({ stem: 'g-decode-{worker-hash}', hash: '0123abcd' });
    expect(withoutWorkerHash('g-decode-0123abcd-0', hashes)).toEqual({ stem: 'g-decode-{worker-hash}-0', hash: '0123abcd' });
    expect(withoutWorkerHash('g-decode-99999999', hashes)).toBeUndefined();
  });

  test('removed + added under another hash pair up; other renames stay added and removed', () => {
    const hashOld = '0123abcd';
    const hashNew = '4567ef01';
    const worker = (hash: string, image: string) => deployment(`g-decode-${hash}`, d => {
      d.spec.template.metadata.labels['nvidia.com/dynamo-worker-hash'] = hash;
      d.spec.template.spec.containers[0].image = image;
      d.spec.template.spec.containers[0].env.push({ name: 'DYN_NAMESPACE_WORKER_SUFFIX', value: hash });
    }, { 'nvidia.com/dynamo-worker-hash': hash });
    const entries = diffRenderings(
      [worker(hashOld, 'a'), deployment('old-name')],
      [worker(hashNew, 'b'), deployment('new-name')],
      undefined);
    expect(entries).toEqual([
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: `g-decode-${hashNew}`,
        namespace: 'ns',
        change: 'modified',
        restartsPods: true,
        // the hash itself (name, labels, env value) is no change of its own
        fields: ['spec.template.spec.containers[main].image'],
        previousName: `g-decode-${hashOld}`,
        rollout: 'new worker hash',
      },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'new-name', namespace: 'ns', change: 'added', restartsPods: false, fields: [] },
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'old-name', namespace: 'ns', change: 'removed', restartsPods: false, fields: [] },
    ]);
    expect(formatDiffText(entries)).toBe([
      `~ Deployment/ns/g-decode-${hashNew} (restarts pods; new worker hash, was g-decode-${hashOld}): spec.template.spec.containers[main].image`,
      '+ Deployment/ns/new-name',
      '- Deployment/ns/old-name',
      '',
    ].join('\n'));
  });
});
