/**
 * `cdk8s-dynamo diff` on objects: field paths (named lists keyed by name), the pod-template rule of
 * each workload kind, worker-hash pairing, and the rollout of Dynamo resources judged on their
 * workloads — each read from what the command prints (`--json`, and the text).
 */
import { cli, writeDocuments } from './support/facade';

/** One entry of `diff --json`. */
interface DiffEntry {
  readonly kind: string;
  readonly name: string;
  readonly namespace: string | null;
  readonly change: 'added' | 'removed' | 'modified';
  readonly restartsPods: boolean;
  readonly fields: string[];
  readonly rollout?: string;
  readonly previousName?: string;
}

/** `cdk8s-dynamo diff --output graph [FLAGS] old.yaml new.yaml` of two lists of documents: exit code, stdout, stderr. */
function diff(before: unknown[], after: unknown[], ...flags: string[]) {
  const files = { 'old.yaml': writeDocuments(before), 'new.yaml': writeDocuments(after), 'no-dra.yaml': 'dra:\n  enabled: false\n' };
  return cli(files, 'diff', '--output', 'graph', ...flags, 'old.yaml', 'new.yaml');
}

/** The entries of `diff --json`. */
function diffRenderings(before: unknown[], after: unknown[], ...flags: string[]): DiffEntry[] {
  const r = diff(before, after, '--json', ...flags);
  expect(r.code).toBe(0);
  // the only messages: objects of a kind the library has no schema for are said not to be checked
  expect(r.stderr.split('\n').filter(line => line !== '' && !line.endsWith(': not checked (no schema for this kind)'))).toEqual([]);
  return JSON.parse(r.stdout);
}

/** The fields `diff` names changed between two versions of one object (a kind the library has no schema of, under `spec`). */
function changedFields(before: Record<string, unknown>, after: Record<string, unknown>): string[] {
  if (before.kind !== undefined) {
    const [entry, ...rest] = diffRenderings([before], [after]);
    expect(rest).toEqual([]);
    return entry?.fields ?? [];
  }
  const widget = (spec: Record<string, unknown>) => ({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec });
  const entries = diffRenderings([widget(before)], [widget(after)]);
  if (entries.length === 0) return [];
  expect(entries).toHaveLength(1);
  return entries[0].fields.map(f => f.replace(/^spec\./, ''));
}

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

/** Both versions of an object of the kind in which exactly `fields` differ (`a.b[name]` an item of a named list, `labels[k]` a map key, `args[3]` an index). */
const MAPS = new Set(['labels', 'annotations', 'matchLabels', 'data']);

function versionsDiffering(apiVersion: string, kind: string, fields: readonly string[]): [any, any] {
  const build = (value: string): any => {
    const obj: any = { apiVersion, kind, metadata: { name: 'w', namespace: 'ns' } };
    for (const field of fields) {
      const steps = [...field.matchAll(/([^.[\]]+)(?:\[([^\]]+)\])?/g)].map(m => [m[1], m[2]] as const);
      let at = obj;
      steps.forEach(([name, key], i) => {
        const last = i === steps.length - 1;
        if (key === undefined) {
          if (last) at[name] = value;
          else at = at[name] ??= {};
        } else if (/^\d+$/.test(key)) {
          const list = at[name] ??= [];
          while (list.length <= Number(key)) list.push('x');
          if (last) list[Number(key)] = value;
          else at = list[Number(key)] = typeof list[Number(key)] === 'object' ? list[Number(key)] : {};
        } else if (MAPS.has(name)) {
          const map = at[name] ??= {};
          if (last) map[key] = value;
          else at = map[key] ??= {};
        } else {
          const list = at[name] ??= [];
          let item = list.find((x: any) => x.name === key);
          if (!item) list.push(item = { name: key });
          if (last) item.value = value;
          else at = item;
        }
      });
    }
    return obj;
  };
  return [build('a'), build('b')];
}

/** Whether `diff` says changing `fields` of an object of the kind restarts its pods (and that it names those fields). */
function workloadRestarts(apiVersion: string, kind: string, fields: readonly string[]): boolean {
  const [before, after] = versionsDiffering(apiVersion, kind, fields);
  const [entry, ...rest] = diffRenderings([before], [after]);
  expect(rest).toEqual([]);
  // a field that ends at an item of a named list is that item's value
  const itemOfNamedList = (f: string): boolean => {
    const m = /([^.[\]]+)\[([^\]]+)\]$/.exec(f);
    return m !== null && !/^\d+$/.test(m[2]) && !MAPS.has(m[1]);
  };
  expect([...entry.fields].sort()).toEqual(fields.map(f => (itemOfNamedList(f) ? `${f}.value` : f)).sort());
  return entry.restartsPods;
}

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

  test('kinds without pods restart none', () => {
    expect(workloadRestarts('v1', 'Service', ['spec.selector'])).toBe(false);
    expect(workloadRestarts('v1', 'ConfigMap', ['data[x]'])).toBe(false);
  });
});

describe('Dynamo resources', () => {
  const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
  /** A graph: a frontend, and a one-GPU worker (with a GPU memory service when `gms`). */
  const dgd = (replicas: number, image: string, gms = false, edit: (d: any) => void = () => {}): any => {
    const doc: any = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'g', namespace: 'ns', labels: { team: 'a' }, annotations: { note: 'x' } },
      spec: {
        backendFramework: 'vllm',
        env: [{ name: 'A', value: '0' }],
        components: [
          { name: 'Frontend', type: 'frontend', replicas, podTemplate: { spec: { containers: [{ name: 'main', image }] } } },
          {
            name: 'w',
            type: 'worker',
            ...(gms ? { experimental: { gpuMemoryService: {} } } : {}),
            podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], resources: { limits: { 'nvidia.com/gpu': '1' } } }] } },
          },
        ],
      },
    };
    edit(doc);
    return doc;
  };
  const dcd = (edit: (d: any) => void = () => {}): any => {
    const doc: any = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'd', namespace: 'ns' },
      spec: {
        backendFramework: 'vllm',
        type: 'worker',
        replicas: 1,
        experimental: { gpuMemoryService: {} },
        podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE, command: ['python3', '-m', 'dynamo.vllm'], resources: { limits: { 'nvidia.com/gpu': '1' } } }] } },
      },
    };
    edit(doc);
    return doc;
  };
  /** The entry of the one object that changed, judged on its own fields (an operator without DRA cannot render a GPU memory service in workloads output). */
  const ownFields = (before: any, after: any): DiffEntry => {
    const entries = diffRenderings([before], [after], '--operator-config', 'no-dra.yaml');
    expect(entries).toHaveLength(1);
    return entries[0];
  };

  test('judged on their own fields when no workloads are known: scale and labels restart nothing', () => {
    const base = dgd(1, IMAGE, true);
    const judged = (edit: (d: any) => void) => ownFields(base, dgd(1, IMAGE, true, edit));
    expect(judged(d => { d.spec.components[0].replicas = 2; d.metadata.labels.team = 'b'; }))
      .toMatchObject({ fields: ['metadata.labels[team]', 'spec.components[Frontend].replicas'], restartsPods: false });
    expect(judged(d => { d.spec.components[1].podTemplate.spec.containers[0].image = `${IMAGE}-b`; }))
      .toMatchObject({ fields: ['spec.components[w].podTemplate.spec.containers[main].image'], restartsPods: true });
    expect(judged(d => { d.spec.env[0].value = '1'; })).toMatchObject({ fields: ['spec.env[A].value'], restartsPods: true });
    expect(judged(d => { d.metadata.annotations['nvidia.com/enable-grove'] = 'false'; }))
      .toMatchObject({ fields: ['metadata.annotations[nvidia.com/enable-grove]'], restartsPods: true });
    expect(ownFields(dcd(), dcd(d => { d.spec.replicas = 2; d.spec.scalingAdapter = {}; })))
      .toMatchObject({ fields: ['spec.replicas', 'spec.scalingAdapter'], restartsPods: false });
    expect(ownFields(dcd(), dcd(d => { d.spec.podTemplate.spec.containers[0].image = `${IMAGE}-b`; })))
      .toMatchObject({ fields: ['spec.podTemplate.spec.containers[main].image'], restartsPods: true });
  });

  test('judged on the workloads the operator creates for them when known', () => {
    // the Grove opt-out changes no workload of an operator without Grove: no restart, where its own fields would say one
    const optOut = dgd(1, IMAGE, true, d => { d.metadata.annotations['nvidia.com/enable-grove'] = 'false'; });
    expect(ownFields(dgd(1, IMAGE, true), optOut).restartsPods).toBe(true);
    const [withWorkloads] = diffRenderings([dgd(1, IMAGE)], [dgd(1, IMAGE, false, d => { d.metadata.annotations['nvidia.com/enable-grove'] = 'false'; })]);
    expect(withWorkloads).toMatchObject({ kind: 'DynamoGraphDeployment', restartsPods: false });
    // scaling changes the Deployment's replicas only; a new image its pod template
    expect(diffRenderings([dgd(1, IMAGE)], [dgd(2, IMAGE)])[0]).toMatchObject({ restartsPods: false });
    expect(diffRenderings([dgd(1, IMAGE)], [dgd(1, `${IMAGE}-b`)])[0]).toMatchObject({ restartsPods: true });
  });
});

describe('worker-hash rollouts', () => {
  /** A Deployment of the decode workers under worker hash `hash`, named `g-decode-<hash><suffix>`. */
  const hashed = (hash: string, suffix = '', labelled = true) => deployment(`g-decode-${hash}${suffix}`, d => {
    if (labelled) d.spec.template.metadata.labels['nvidia.com/dynamo-worker-hash'] = hash;
  }, labelled ? { 'nvidia.com/dynamo-worker-hash': hash } : {});

  test('the hash segment of a name: at the end, or before a rank; only a hash the objects carry', () => {
    const paired = (before: any, after: any) => diffRenderings([before], [after]).map(e => [e.change, e.name, e.rollout, e.previousName]);
    expect(paired(hashed('0123abcd'), hashed('4567ef01'))).toEqual([['modified', 'g-decode-4567ef01', 'new worker hash', 'g-decode-0123abcd']]);
    expect(paired(hashed('0123abcd', '-0'), hashed('4567ef01', '-0'))).toEqual([['modified', 'g-decode-4567ef01-0', 'new worker hash', 'g-decode-0123abcd-0']]);
    // a segment that looks like a hash no object carries is part of the name
    expect(paired(hashed('0123abcd'), hashed('99999999', '', false))).toEqual([
      ['added', 'g-decode-99999999', undefined, undefined], ['removed', 'g-decode-0123abcd', undefined, undefined],
    ]);
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
    );
    expect(entries).toEqual([
      {
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
      { kind: 'Deployment', name: 'new-name', namespace: 'ns', change: 'added', restartsPods: false, fields: [] },
      { kind: 'Deployment', name: 'old-name', namespace: 'ns', change: 'removed', restartsPods: false, fields: [] },
    ]);
    expect(diff([worker(hashOld, 'a'), deployment('old-name')], [worker(hashNew, 'b'), deployment('new-name')]).stdout).toBe([
      `~ Deployment/ns/g-decode-${hashNew} (restarts pods; new worker hash, was g-decode-${hashOld}): spec.template.spec.containers[main].image`,
      '+ Deployment/ns/new-name',
      '- Deployment/ns/old-name',
      '',
    ].join('\n'));
  });
});
