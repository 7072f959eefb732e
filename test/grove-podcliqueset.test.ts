/**
 * The PodCliqueSet of a graph on the Grove workload provider, rendered through the public engine
 * (docs/design/render-multinode.md §4.1–§4.11 and the Grove columns of §5). Every input is first checked to be
 * admissible on an operator with Grove, so the rows are pinned for graphs the operator accepts.
 */
import { DgdJson, JsonObject, render, RenderError, settings as operatorSettings } from './support/facade';
import {
  admittedWorkerHash, cliqueMain, cliqueNames, cliqueOf, envValue, GROVE_TEST_IMAGE, groveAdmissionViolations, groveComponent, groveGraph,
  groveSettings, renderGrove, renderPodCliqueSetOf, scalingGroupOf,
} from './support/grove-fixtures';
// a graph stored without replicas cannot come through the pipeline (admission defaults them): the
// PodCliqueSet renderer is called directly for it
import { groveComponents, renderPodCliqueSet } from '../src/engine';

const DEFAULT_OPERATOR_VERSION = operatorSettings().version;
const LABEL_WORKER_HASH = 'nvidia.com/dynamo-worker-hash';
const LABEL_SELECTOR = 'nvidia.com/selector';
const ANNOTATION_DISCOVERY_BACKEND = 'nvidia.com/dynamo-discovery-backend';
const ANNOTATION_ORIGIN_VERSION = 'nvidia.com/dynamo-operator-origin-version';
const LABEL_KAI_QUEUE = 'kai.scheduler/queue';

/** Worker-class default probes (docs/design/render-multinode.md §9.1). */
const WORKER_LIVENESS = { httpGet: { path: '/live', port: 'system' }, timeoutSeconds: 4, periodSeconds: 5, failureThreshold: 1 };
const WORKER_READINESS = { httpGet: { path: '/health', port: 'system' }, timeoutSeconds: 4, periodSeconds: 10, failureThreshold: 3 };
const WORKER_STARTUP = { httpGet: { path: '/live', port: 'system' }, timeoutSeconds: 5, periodSeconds: 10, failureThreshold: 720 };
const SHARED_MEMORY_VOLUME = { name: 'shared-memory', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } };

/** Renders the graph's PodCliqueSet after checking the graph is admissible. */
function pcsOf(dgd: DgdJson, operator: Parameters<typeof renderPodCliqueSetOf>[1] = {}): JsonObject {
  expect(groveAdmissionViolations(dgd, operator)).toEqual([]);
  return renderPodCliqueSetOf(dgd, operator);
}

/** The error a render throws (fails the test when it does not throw). */
function renderFailure(dgd: DgdJson, operator: Parameters<typeof renderPodCliqueSetOf>[1] = {}): RenderError {
  try {
    renderPodCliqueSetOf(dgd, operator);
  } catch (e) {
    expect(e).toBeInstanceOf(RenderError);
    return e as RenderError;
  }
  throw new Error('expected the render to fail');
}

const frontend = (): JsonObject => groveComponent('Frontend', 'frontend');
const multinodeDecode = (nodeCount = 2, extra: JsonObject = {}, container: JsonObject = {}): JsonObject =>
  groveComponent('decode', 'decode', { multinode: { nodeCount }, ...extra }, container);

describe('docs/design/render-multinode.md §4.1 worker-hash label and DYN_NAMESPACE_WORKER_SUFFIX on worker-class cliques', () => {
  const dgd = groveGraph([
    frontend(),
    multinodeDecode(2),
    groveComponent('prefill', 'prefill'),
    groveComponent('agg', 'worker'),
  ]);
  const pcs = pcsOf(dgd);
  const hash = admittedWorkerHash(dgd);

  it('computes an 8-hex worker hash for a new graph', () => {
    expect(hash).toMatch(/^[0-9a-f]{8}$/);
  });

  it.each(['decode-ldr', 'decode-wkr', 'prefill', 'agg'])('worker-class clique %s has the label and the env var', name => {
    expect(cliqueOf(pcs, name).labels[LABEL_WORKER_HASH]).toBe(hash);
    expect(envValue(cliqueMain(pcs, name), 'DYN_NAMESPACE_WORKER_SUFFIX')).toBe(hash);
  });

  it('the frontend clique has neither', () => {
    expect(cliqueOf(pcs, 'frontend').labels).not.toHaveProperty(LABEL_WORKER_HASH);
    expect(envValue(cliqueMain(pcs, 'frontend'), 'DYN_NAMESPACE_WORKER_SUFFIX')).toBeUndefined();
  });

  it('a change of the worker spec changes the hash on every worker-class clique', () => {
    const changed = groveGraph([frontend(), multinodeDecode(3), groveComponent('prefill', 'prefill'), groveComponent('agg', 'worker')]);
    const other = pcsOf(changed);
    const newHash = admittedWorkerHash(changed);
    expect(newHash).not.toBe(hash);
    for (const name of ['decode-ldr', 'decode-wkr', 'prefill', 'agg']) expect(cliqueOf(other, name).labels[LABEL_WORKER_HASH]).toBe(newHash);
  });
});

describe('docs/design/render-multinode.md §4.2 PodCliqueSet object: kind, metadata, replicas, template constants', () => {
  const dgd = groveGraph([frontend(), multinodeDecode(2)], {
    labels: { 'team': 'a', 'example.com/tier': 'gold' },
    annotations: { 'example.com/cost-center': '42' },
  }, { annotations: { 'example.com/metadata-only': 'x' } });
  const pcs = pcsOf(dgd);

  it('is a grove.io/v1alpha1 PodCliqueSet named after the graph in its namespace', () => {
    expect(pcs.apiVersion).toBe('grove.io/v1alpha1');
    expect(pcs.kind).toBe('PodCliqueSet');
    expect(pcs.metadata.name).toBe('llm');
    expect(pcs.metadata.namespace).toBe('ns');
  });

  it('labels: the graph spec.labels plus nvidia.com/dynamo-graph-deployment-name', () => {
    expect(pcs.metadata.labels).toEqual({ 'team': 'a', 'example.com/tier': 'gold', 'nvidia.com/dynamo-graph-deployment-name': 'llm' });
  });

  it('the graph-name label cannot be replaced through spec.labels', () => {
    const other = pcsOf(groveGraph([frontend()], { labels: { 'nvidia.com/dynamo-graph-deployment-name': 'other' } }));
    expect(other.metadata.labels).toEqual({ 'nvidia.com/dynamo-graph-deployment-name': 'llm' });
  });

  it('annotations: the graph spec.annotations, not its metadata annotations', () => {
    expect(pcs.metadata.annotations['example.com/cost-center']).toBe('42');
    expect(pcs.metadata.annotations).not.toHaveProperty('example.com/metadata-only');
    expect(pcs.metadata.annotations).not.toHaveProperty(ANNOTATION_ORIGIN_VERSION);
    expect(pcs.metadata.annotations).not.toHaveProperty('scheduling.grove.io/volcano-queue');
  });

  it('spec.replicas is 1', () => {
    expect(pcs.spec.replicas).toBe(1);
  });

  it('headlessServiceConfig publishes not-ready addresses; vLLM cliques start in any order', () => {
    expect(pcs.spec.template.headlessServiceConfig).toEqual({ publishNotReadyAddresses: true });
    expect(pcs.spec.template.cliqueStartupType).toBe('CliqueStartupTypeAnyOrder');
  });

  it('no update strategy, priority class or topology constraint unless asked for', () => {
    expect(pcs.spec).not.toHaveProperty('updateStrategy');
    expect(pcs.spec.template).not.toHaveProperty('priorityClassName');
    expect(pcs.spec.template).not.toHaveProperty('topologyConstraint');
  });

  it('cliques in component order then role order', () => {
    expect(cliqueNames(pcs)).toEqual(['frontend', 'decode-ldr', 'decode-wkr']);
  });

  it('a graph without scaling-group components has no podCliqueScalingGroups', () => {
    const single = pcsOf(groveGraph([frontend(), groveComponent('decode', 'decode')]));
    expect(single.spec.template).not.toHaveProperty('podCliqueScalingGroups');
  });

  it('priorityClassName comes from the graph spec', () => {
    const withPriority = pcsOf(groveGraph([frontend()], { priorityClassName: 'high-priority' }));
    expect(withPriority.spec.template.priorityClassName).toBe('high-priority');
  });
});

describe('docs/design/render-multinode.md §4.2 Volcano queue annotation on the PodCliqueSet', () => {
  const graph = (queue?: string): DgdJson => groveGraph([frontend()], {}, queue === undefined ? {} : { annotations: { 'nvidia.com/volcano-queue': queue } });

  it('Volcano on and nvidia.com/volcano-queue set: scheduling.grove.io/volcano-queue with the trimmed queue', () => {
    const pcs = pcsOf(graph('  team-q  '), { volcanoSchedulerAvailable: true });
    expect(pcs.metadata.annotations['scheduling.grove.io/volcano-queue']).toBe('team-q');
  });

  it('Volcano on but the queue is blank after trimming: no annotation', () => {
    const pcs = pcsOf(graph('   '), { volcanoSchedulerAvailable: true });
    expect(pcs.metadata.annotations).not.toHaveProperty('scheduling.grove.io/volcano-queue');
  });

  it('Volcano off: no annotation even with a queue', () => {
    const pcs = pcsOf(graph('team-q'));
    expect(pcs.metadata.annotations).not.toHaveProperty('scheduling.grove.io/volcano-queue');
  });
});

describe('docs/design/render-multinode.md §4.2 update strategy from nvidia.com/grove-update-strategy', () => {
  const graph = (strategy: string): DgdJson => groveGraph([frontend()], {}, { annotations: { 'nvidia.com/grove-update-strategy': strategy } });

  it.each(['RollingRecreate', 'OnDelete'])('%s becomes spec.updateStrategy.type', strategy => {
    expect(pcsOf(graph(strategy)).spec.updateStrategy).toEqual({ type: strategy });
  });

  it('any other value is a render error naming the annotation and the value', () => {
    const error = renderFailure(graph('rollingrecreate'));
    expect(error.objectRef).toBe('DynamoGraphDeployment/llm');
    expect(error.field).toBe('metadata.annotations["nvidia.com/grove-update-strategy"]');
    expect(error.message).toContain('"rollingrecreate"');
    expect(error.message).toContain('RollingRecreate');
    expect(error.message).toContain('OnDelete');
    // admission refuses it too
    expect(groveAdmissionViolations(graph('rollingrecreate')).join('\n')).toContain('nvidia.com/grove-update-strategy');
  });

  it('absent annotation: no updateStrategy field', () => {
    expect(pcsOf(groveGraph([frontend()])).spec).not.toHaveProperty('updateStrategy');
  });
});

describe('docs/design/render-multinode.md §4.2 terminationDelay from orchestrators.grove.terminationDelay', () => {
  const dgd = groveGraph([frontend()]);

  it('default 4h (the platform chart\'s) is written as 4h0m0s', () => {
    expect(pcsOf(dgd).spec.template.terminationDelay).toBe('4h0m0s');
  });

  it('15m (the operator\'s fallback) is written as 15m0s', () => {
    expect(pcsOf(dgd, { groveTerminationDelay: '15m' }).spec.template.terminationDelay).toBe('15m0s');
  });

  it('1h30m is written as 1h30m0s', () => {
    expect(pcsOf(dgd, { groveTerminationDelay: '1h30m' }).spec.template.terminationDelay).toBe('1h30m0s');
  });

  it.each([
    ['90s', '1m30s'],
    ['2h', '2h0m0s'],
    ['500ms', '500ms'],
  ])('%s is written the Go way as %s', (setting, written) => {
    expect(pcsOf(dgd, { groveTerminationDelay: setting }).spec.template.terminationDelay).toBe(written);
  });

  it('a negative delay is not above zero: omitted', () => {
    expect(pcsOf(dgd, { groveTerminationDelay: '-1m' }).spec.template).not.toHaveProperty('terminationDelay');
  });

  it('0s: the field is omitted', () => {
    expect(pcsOf(dgd, { groveTerminationDelay: '0s' }).spec.template).not.toHaveProperty('terminationDelay');
  });
});

describe('docs/design/render-multinode.md §4.2 PodCliqueSet name truncation (PCSNameForDGD test vectors)', () => {
  it('my-deployment-dgd with multinode VllmPrefillWorker → my--4793 (budget floor 8; admission then refuses the graph)', () => {
    const dgd = groveGraph([groveComponent('VllmPrefillWorker', 'prefill', { multinode: { nodeCount: 2 } })], {}, { name: 'my-deployment-dgd' });
    // 8 + 17 + 21 = 46 > 45: the floor keeps the PodCliqueSet name usable, but the pod names would not fit (rule 19)
    expect(groveAdmissionViolations(dgd).join('\n')).toContain('combined resource name length 46');
    expect(renderPodCliqueSetOf(dgd).metadata.name).toBe('my--4793');
  });

  it('my-deployment-dgd with multinode VllmPrefill: budget 11 + 15 = 26 → pcsBudget 19 ≥ 17, name kept', () => {
    const kept = groveGraph([groveComponent('VllmPrefill', 'prefill', { multinode: { nodeCount: 2 } })], {}, { name: 'my-deployment-dgd' });
    expect(pcsOf(kept).metadata.name).toBe('my-deployment-dgd');
  });

  it('a-really-long-dynamo-graph-deployment-name with multinode decode → a-really-long-dynamo-gra-6bb7', () => {
    const dgd = groveGraph([multinodeDecode(2)], {}, { name: 'a-really-long-dynamo-graph-deployment-name' });
    expect(pcsOf(dgd).metadata.name).toBe('a-really-long-dynamo-gra-6bb7');
  });

  it('a name within the budget is kept (golden dgd/grove: grove-manifest)', () => {
    const dgd = groveGraph([frontend(), multinodeDecode(2)], {}, { name: 'grove-manifest' });
    expect(pcsOf(dgd).metadata.name).toBe('grove-manifest');
  });

  it('single-node components count with their own name only: 41-char graph + frontend → budget 37, first 32 chars + FNV', () => {
    const dgd = groveGraph([frontend()], {}, { name: 'abcdefghij-abcdefghij-abcdefghij-abcdefgh' });
    expect(pcsOf(dgd).metadata.name).toBe('abcdefghij-abcdefghij-abcdefghij-e085');
  });

  it('a forced scaling group counts its clique name too: 41-char graph + agg (3 + 3) → budget 39', () => {
    const dgd = groveGraph([groveComponent('agg', 'worker', { experimental: { grove: { forceScalingGroup: true } } })], {},
      { name: 'abcdefghij-abcdefghij-abcdefghij-abcdefgh' });
    expect(pcsOf(dgd).metadata.name).toBe('abcdefghij-abcdefghij-abcdefghij-a-e085');
  });

  it('the graph name stays the selector and graph label value when the PodCliqueSet name is shortened', () => {
    const dgd = groveGraph([multinodeDecode(2)], {}, { name: 'a-really-long-dynamo-graph-deployment-name' });
    const pcs = pcsOf(dgd);
    expect(cliqueOf(pcs, 'decode-ldr').labels[LABEL_SELECTOR]).toBe('a-really-long-dynamo-graph-deployment-name-decode');
    expect(pcs.metadata.labels['nvidia.com/dynamo-graph-deployment-name']).toBe('a-really-long-dynamo-graph-deployment-name');
  });
});

describe('docs/design/render-multinode.md §4.3 clique names, roleName, replicas and minAvailable', () => {
  it('names and roleName are the lower-cased role names', () => {
    const pcs = pcsOf(groveGraph([groveComponent('VllmDecode', 'decode', { multinode: { nodeCount: 2 } }), groveComponent('Agg', 'worker')]));
    expect(cliqueNames(pcs)).toEqual(['vllmdecode-ldr', 'vllmdecode-wkr', 'agg']);
    for (const name of cliqueNames(pcs)) expect(cliqueOf(pcs, name).spec.roleName).toBe(name);
    // the component label keeps the name as written
    expect(cliqueOf(pcs, 'vllmdecode-ldr').labels['nvidia.com/dynamo-component']).toBe('VllmDecode');
  });

  it('standalone clique: replicas and minAvailable of the component', () => {
    const pcs = pcsOf(groveGraph([groveComponent('agg', 'worker', { replicas: 3, minAvailable: 2 })]));
    expect(cliqueOf(pcs, 'agg').spec).toMatchObject({ replicas: 3, minAvailable: 2 });
  });

  it('standalone clique without replicas/minAvailable: 1 and 1 (admission defaults)', () => {
    const pcs = pcsOf(groveGraph([groveComponent('agg', 'worker')]));
    expect(cliqueOf(pcs, 'agg').spec).toMatchObject({ replicas: 1, minAvailable: 1 });
  });

  it('single-node clique in a forced scaling group: replicas 1, minAvailable 1 whatever the component says', () => {
    const pcs = pcsOf(groveGraph([groveComponent('agg', 'worker', { replicas: 3, minAvailable: 2, experimental: { grove: { forceScalingGroup: true } } })]));
    expect(cliqueOf(pcs, 'agg').spec).toMatchObject({ replicas: 1, minAvailable: 1 });
  });

  it.each([
    [2, 1],
    [3, 2],
    [4, 3],
  ])('multinode N=%i: leader 1/1, worker %i/%i', (nodeCount, workers) => {
    const pcs = pcsOf(groveGraph([multinodeDecode(nodeCount, { replicas: 2, minAvailable: 1 })]));
    expect(cliqueOf(pcs, 'decode-ldr').spec).toMatchObject({ replicas: 1, minAvailable: 1 });
    expect(cliqueOf(pcs, 'decode-wkr').spec).toMatchObject({ replicas: workers, minAvailable: workers });
  });

  it('clique keys: name, labels, annotations, spec; spec holds roleName, podSpec, replicas, minAvailable', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(2)]));
    const clique = cliqueOf(pcs, 'decode-wkr');
    expect(Object.keys(clique).sort()).toEqual(['annotations', 'labels', 'name', 'spec']);
    expect(Object.keys(clique.spec).sort()).toEqual(['minAvailable', 'podSpec', 'replicas', 'roleName']);
  });
});

describe('docs/design/render-multinode.md §4.3 clique labels (order of precedence)', () => {
  const dgd = groveGraph([
    frontend(),
    groveComponent('decode', 'decode', {
      multinode: { nodeCount: 2 },
      podTemplate: {
        metadata: {
          labels: {
            'example.com/tier': 'from-template',
            'nvidia.com/metrics-enabled': 'false',
            'nvidia.com/selector': 'user-selector',
            'nvidia.com/dynamo-component': 'user-component',
            'nvidia.com/dynamo-component-type': 'user-type',
            'nvidia.com/dynamo-namespace': 'user-namespace',
            'nvidia.com/dynamo-graph-deployment-name': 'user-graph',
          },
        },
        spec: { containers: [{ name: 'main', image: GROVE_TEST_IMAGE }] },
      },
    }),
  ], { labels: { 'team': 'a', 'example.com/tier': 'from-graph' } });
  const pcs = pcsOf(dgd);
  const hash = admittedWorkerHash(dgd);

  it('a worker clique: system labels, graph spec.labels, template labels; user cannot replace selector/component/type/namespace', () => {
    expect(cliqueOf(pcs, 'decode-ldr').labels).toEqual({
      'example.com/tier': 'from-template',
      'nvidia.com/dynamo-component': 'decode',
      'nvidia.com/dynamo-component-type': 'decode',
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'nvidia.com/dynamo-discovery-enabled': 'true',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-namespace': 'ns-llm',
      'nvidia.com/dynamo-sub-component-type': 'decode',
      'nvidia.com/dynamo-worker-hash': hash,
      'nvidia.com/metrics-enabled': 'false',
      'nvidia.com/selector': 'llm-decode',
      'team': 'a',
    });
  });

  it('leader and worker cliques carry the same labels', () => {
    expect(cliqueOf(pcs, 'decode-wkr').labels).toEqual(cliqueOf(pcs, 'decode-ldr').labels);
  });

  it('the frontend clique: graph spec.labels and metrics-enabled by default, no sub-component type', () => {
    expect(cliqueOf(pcs, 'frontend').labels).toEqual({
      'example.com/tier': 'from-graph',
      'nvidia.com/dynamo-component': 'Frontend',
      'nvidia.com/dynamo-component-type': 'frontend',
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'nvidia.com/dynamo-discovery-enabled': 'true',
      'nvidia.com/dynamo-graph-deployment-name': 'llm',
      'nvidia.com/dynamo-namespace': 'ns-llm',
      'nvidia.com/metrics-enabled': 'true',
      'nvidia.com/selector': 'llm-frontend',
      'team': 'a',
    });
  });

  it('graph metadata annotation nvidia.com/enable-metrics: "false" drops metrics-enabled', () => {
    const off = pcsOf(groveGraph([frontend()], {}, { annotations: { 'nvidia.com/enable-metrics': 'false' } }));
    expect(cliqueOf(off, 'frontend').labels).not.toHaveProperty('nvidia.com/metrics-enabled');
  });

  it('component-class worker on worker-class cliques only when the graph has an epp component', () => {
    const epp = groveComponent('Epp', 'epp', { eppConfig: { config: { plugins: [], schedulingProfiles: [] } } });
    const withEpp = pcsOf(groveGraph([frontend(), multinodeDecode(2), groveComponent('prefill', 'prefill'), epp]));
    for (const name of ['decode-ldr', 'decode-wkr', 'prefill']) {
      expect(cliqueOf(withEpp, name).labels['nvidia.com/dynamo-component-class']).toBe('worker');
    }
    expect(cliqueOf(withEpp, 'frontend').labels).not.toHaveProperty('nvidia.com/dynamo-component-class');
    expect(cliqueOf(withEpp, 'epp').labels).not.toHaveProperty('nvidia.com/dynamo-component-class');
    const withoutEpp = pcsOf(groveGraph([frontend(), multinodeDecode(2)]));
    expect(cliqueOf(withoutEpp, 'decode-ldr').labels).not.toHaveProperty('nvidia.com/dynamo-component-class');
  });

  it('modelRef: base-model hash label (first 8 hex of sha256 of the name)', () => {
    const pcs2 = pcsOf(groveGraph([groveComponent('agg', 'worker', { modelRef: { name: 'Qwen/Qwen3-0.6B' } })]));
    expect(cliqueOf(pcs2, 'agg').labels['nvidia.com/dynamo-base-model-hash']).toBe('fb68f5a6');
  });

  it('the base-model hash label can be overridden by a pod-template label', () => {
    const pcs2 = pcsOf(groveGraph([groveComponent('agg', 'worker', {
      modelRef: { name: 'Qwen/Qwen3-0.6B' },
      podTemplate: { metadata: { labels: { 'nvidia.com/dynamo-base-model-hash': 'custom' } }, spec: { containers: [{ name: 'main', image: GROVE_TEST_IMAGE }] } },
    })]));
    expect(cliqueOf(pcs2, 'agg').labels['nvidia.com/dynamo-base-model-hash']).toBe('custom');
  });

  it('re-asserted after user labels: sub-component type; discovery labels and the KAI queue come last', () => {
    const pcs2 = pcsOf(groveGraph([groveComponent('decode', 'decode', {
      podTemplate: {
        metadata: {
          labels: {
            'nvidia.com/dynamo-sub-component-type': 'user',
            'nvidia.com/dynamo-discovery-enabled': 'false',
            'nvidia.com/dynamo-discovery-backend': 'user',
            'kai.scheduler/queue': 'user-queue',
          },
        },
        spec: { containers: [{ name: 'main', image: GROVE_TEST_IMAGE }] },
      },
    })]), { kaiSchedulerAvailable: true });
    expect(cliqueOf(pcs2, 'decode').labels).toMatchObject({
      'nvidia.com/dynamo-sub-component-type': 'decode',
      'nvidia.com/dynamo-discovery-enabled': 'true',
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'kai.scheduler/queue': 'dynamo',
    });
  });

  it('a component without type: no component-type or sub-component-type label', () => {
    const pcs2 = pcsOf(groveGraph([groveComponent('router', undefined)]));
    expect(cliqueOf(pcs2, 'router').labels).not.toHaveProperty('nvidia.com/dynamo-component-type');
    expect(cliqueOf(pcs2, 'router').labels).not.toHaveProperty('nvidia.com/dynamo-sub-component-type');
    expect(cliqueOf(pcs2, 'router').labels['nvidia.com/dynamo-component']).toBe('router');
  });

  it('metrics-enabled follows the graph metadata annotation only, not a component template annotation', () => {
    const pcs2 = pcsOf(groveGraph([groveComponent('agg', 'worker', {
      podTemplate: { metadata: { annotations: { 'nvidia.com/enable-metrics': 'false' } }, spec: { containers: [{ name: 'main', image: GROVE_TEST_IMAGE }] } },
    })]));
    expect(cliqueOf(pcs2, 'agg').labels['nvidia.com/metrics-enabled']).toBe('true');
  });

  it('globalDynamoNamespace: the namespace label is "dynamo"', () => {
    const pcs2 = pcsOf(groveGraph([groveComponent('agg', 'worker', { globalDynamoNamespace: true })]));
    expect(cliqueOf(pcs2, 'agg').labels['nvidia.com/dynamo-namespace']).toBe('dynamo');
  });
});

describe('docs/design/render-multinode.md §4.3 clique annotations and the discovery backend', () => {
  const decode = (annotations: Record<string, string> = {}): JsonObject => groveComponent('decode', 'decode', {
    multinode: { nodeCount: 2 },
    podTemplate: { metadata: { annotations }, spec: { containers: [{ name: 'main', image: GROVE_TEST_IMAGE }] } },
  });

  it('graph spec.annotations, template annotations, origin version kept, discovery backend on every clique', () => {
    const pcs = pcsOf(groveGraph([frontend(), decode({ 'example.com/owner': 'ml' })], { annotations: { 'example.com/cost-center': '42' } }));
    const expected = {
      'example.com/cost-center': '42',
      'example.com/owner': 'ml',
      [ANNOTATION_DISCOVERY_BACKEND]: 'kubernetes',
      [ANNOTATION_ORIGIN_VERSION]: DEFAULT_OPERATOR_VERSION,
    };
    expect(cliqueOf(pcs, 'decode-ldr').annotations).toEqual(expected);
    expect(cliqueOf(pcs, 'decode-wkr').annotations).toEqual(expected);
    expect(cliqueOf(pcs, 'frontend').annotations).toEqual({
      'example.com/cost-center': '42', [ANNOTATION_DISCOVERY_BACKEND]: 'kubernetes', [ANNOTATION_ORIGIN_VERSION]: DEFAULT_OPERATOR_VERSION,
    });
  });

  it('a template annotation overrides the same graph spec.annotations key', () => {
    const pcs = pcsOf(groveGraph([decode({ 'example.com/owner': 'template' })], { annotations: { 'example.com/owner': 'graph' } }));
    expect(cliqueOf(pcs, 'decode-ldr').annotations['example.com/owner']).toBe('template');
  });

  it('the component\'s own discovery-backend annotation is replaced by the operator setting', () => {
    const pcs = pcsOf(groveGraph([decode({ [ANNOTATION_DISCOVERY_BACKEND]: 'etcd' })]));
    expect(cliqueOf(pcs, 'decode-ldr').annotations[ANNOTATION_DISCOVERY_BACKEND]).toBe('kubernetes');
    expect(cliqueOf(pcs, 'decode-ldr').labels['nvidia.com/dynamo-discovery-enabled']).toBe('true');
  });

  it('the graph\'s discovery-backend annotation wins over the component\'s; etcd: no discovery labels', () => {
    const pcs = pcsOf(groveGraph([frontend(), decode({ [ANNOTATION_DISCOVERY_BACKEND]: 'kubernetes' })], {}, {
      annotations: { [ANNOTATION_DISCOVERY_BACKEND]: 'etcd' },
    }));
    for (const name of ['frontend', 'decode-ldr', 'decode-wkr']) {
      const clique = cliqueOf(pcs, name);
      expect(clique.annotations[ANNOTATION_DISCOVERY_BACKEND]).toBe('etcd');
      expect(clique.labels).not.toHaveProperty('nvidia.com/dynamo-discovery-backend');
      expect(clique.labels).not.toHaveProperty('nvidia.com/dynamo-discovery-enabled');
    }
  });

  it('the propagated graph metadata annotations (docs/design/render-multinode.md §3.1 list) land on the cliques; other metadata annotations do not', () => {
    const pcs = pcsOf(groveGraph([frontend(), decode()], {}, {
      annotations: {
        'nvidia.com/vllm-distributed-executor-backend': 'ray',
        'nvidia.com/enable-metrics': 'false',
        'nvidia.com/dynamo-kube-discovery-mode': 'container',
        'example.com/not-propagated': 'x',
      },
    }));
    for (const name of ['frontend', 'decode-ldr', 'decode-wkr']) {
      expect(cliqueOf(pcs, name).annotations).toEqual({
        [ANNOTATION_DISCOVERY_BACKEND]: 'kubernetes',
        'nvidia.com/dynamo-kube-discovery-mode': 'container',
        [ANNOTATION_ORIGIN_VERSION]: DEFAULT_OPERATOR_VERSION,
        'nvidia.com/enable-metrics': 'false',
        'nvidia.com/vllm-distributed-executor-backend': 'ray',
      });
    }
  });

  it('a propagated annotation already on the component template is kept (graph value only fills the gap)', () => {
    const pcs = pcsOf(groveGraph([decode({ 'nvidia.com/vllm-distributed-executor-backend': 'mp' })], {}, {
      annotations: { 'nvidia.com/vllm-distributed-executor-backend': 'ray' },
    }));
    expect(cliqueOf(pcs, 'decode-ldr').annotations['nvidia.com/vllm-distributed-executor-backend']).toBe('mp');
  });

  it('an origin version stamped before CREATE is kept as written', () => {
    const pcs = pcsOf(groveGraph([decode()], {}, { annotations: { [ANNOTATION_ORIGIN_VERSION]: '1.2.3' } }));
    expect(cliqueOf(pcs, 'decode-wkr').annotations[ANNOTATION_ORIGIN_VERSION]).toBe('1.2.3');
  });

  it('operator discovery backend etcd: etcd annotation, no discovery labels', () => {
    const pcs = pcsOf(groveGraph([decode()]), { discoveryBackend: 'etcd' });
    expect(cliqueOf(pcs, 'decode-wkr').annotations[ANNOTATION_DISCOVERY_BACKEND]).toBe('etcd');
    expect(cliqueOf(pcs, 'decode-wkr').labels).not.toHaveProperty('nvidia.com/dynamo-discovery-enabled');
    expect(cliqueOf(pcs, 'decode-wkr').labels).not.toHaveProperty('nvidia.com/dynamo-discovery-backend');
  });
});

describe('docs/design/render-multinode.md §4.3 schedulers: KAI', () => {
  const withScheduler = (name: string, schedulerName?: string): JsonObject => groveComponent(name, 'worker', schedulerName === undefined ? {} : {
    podTemplate: { spec: { schedulerName, containers: [{ name: 'main', image: GROVE_TEST_IMAGE }] } },
  });

  it('every clique runs on kai-scheduler in queue "dynamo" by default', () => {
    const pcs = pcsOf(groveGraph([frontend(), multinodeDecode(2)]), { kaiSchedulerAvailable: true });
    for (const name of ['frontend', 'decode-ldr', 'decode-wkr']) {
      expect(cliqueOf(pcs, name).spec.podSpec.schedulerName).toBe('kai-scheduler');
      expect(cliqueOf(pcs, name).labels[LABEL_KAI_QUEUE]).toBe('dynamo');
    }
  });

  it('queue from the graph annotation nvidia.com/kai-scheduler-queue, trimmed', () => {
    const pcs = pcsOf(groveGraph([frontend()], {}, { annotations: { 'nvidia.com/kai-scheduler-queue': '  team-q ' } }), { kaiSchedulerAvailable: true });
    expect(cliqueOf(pcs, 'frontend').labels[LABEL_KAI_QUEUE]).toBe('team-q');
  });

  it('a user schedulerName other than kai-scheduler is kept and gets no queue label; kai-scheduler gets the label', () => {
    const pcs = pcsOf(groveGraph([withScheduler('custom', 'my-scheduler'), withScheduler('kai', 'kai-scheduler')]), { kaiSchedulerAvailable: true });
    expect(cliqueOf(pcs, 'custom').spec.podSpec.schedulerName).toBe('my-scheduler');
    expect(cliqueOf(pcs, 'custom').labels).not.toHaveProperty(LABEL_KAI_QUEUE);
    expect(cliqueOf(pcs, 'kai').spec.podSpec.schedulerName).toBe('kai-scheduler');
    expect(cliqueOf(pcs, 'kai').labels[LABEL_KAI_QUEUE]).toBe('dynamo');
  });

  it('a blank queue annotation falls back to "dynamo"', () => {
    const pcs = pcsOf(groveGraph([frontend()], {}, { annotations: { 'nvidia.com/kai-scheduler-queue': '   ' } }), { kaiSchedulerAvailable: true });
    expect(cliqueOf(pcs, 'frontend').labels[LABEL_KAI_QUEUE]).toBe('dynamo');
  });

  it('the queue is a clique label only: no PodCliqueSet annotation for KAI', () => {
    const pcs = pcsOf(groveGraph([frontend()], {}, { annotations: { 'nvidia.com/kai-scheduler-queue': 'team-q' } }), { kaiSchedulerAvailable: true });
    expect(pcs.metadata.annotations).not.toHaveProperty('scheduling.grove.io/volcano-queue');
    expect(cliqueOf(pcs, 'frontend').annotations).not.toHaveProperty('nvidia.com/kai-scheduler-queue');
  });

  it('KAI off: no schedulerName, no queue label', () => {
    const pcs = pcsOf(groveGraph([frontend()]));
    expect(cliqueOf(pcs, 'frontend').spec.podSpec).not.toHaveProperty('schedulerName');
    expect(cliqueOf(pcs, 'frontend').labels).not.toHaveProperty(LABEL_KAI_QUEUE);
  });
});

describe('docs/design/render-multinode.md §4.3 schedulers: Volcano, and both gates on', () => {
  it('every clique runs on volcano; no KAI queue label', () => {
    const pcs = pcsOf(groveGraph([frontend(), multinodeDecode(2)]), { volcanoSchedulerAvailable: true });
    for (const name of ['frontend', 'decode-ldr', 'decode-wkr']) {
      expect(cliqueOf(pcs, name).spec.podSpec.schedulerName).toBe('volcano');
      expect(cliqueOf(pcs, name).labels).not.toHaveProperty(LABEL_KAI_QUEUE);
    }
  });

  it('a user schedulerName other than volcano is kept', () => {
    const pcs = pcsOf(groveGraph([groveComponent('agg', 'worker', {
      podTemplate: { spec: { schedulerName: 'my-scheduler', containers: [{ name: 'main', image: GROVE_TEST_IMAGE }] } },
    })]), { volcanoSchedulerAvailable: true });
    expect(cliqueOf(pcs, 'agg').spec.podSpec.schedulerName).toBe('my-scheduler');
  });

  it('KAI and Volcano both on: render error', () => {
    const error = renderFailure(groveGraph([frontend()]), { kaiSchedulerAvailable: true, volcanoSchedulerAvailable: true });
    expect(error.message).toMatch(/KAI/);
    expect(error.message).toMatch(/Volcano/);
  });
});

describe('docs/design/render-multinode.md §4.4 PodCliqueScalingGroup config', () => {
  it('multinode component: name lower-cased, cliqueNames in role order, replicas and minAvailable of the component', () => {
    const pcs = pcsOf(groveGraph([frontend(), groveComponent('Decode', 'decode', { multinode: { nodeCount: 3 }, replicas: 2, minAvailable: 2 })]));
    expect(pcs.spec.template.podCliqueScalingGroups).toEqual([
      { name: 'decode', cliqueNames: ['decode-ldr', 'decode-wkr'], replicas: 2, minAvailable: 2 },
    ]);
  });

  it('replicas and minAvailable absent on input: admission defaults both to 1', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(2)]));
    expect(scalingGroupOf(pcs, 'decode')).toEqual({ name: 'decode', cliqueNames: ['decode-ldr', 'decode-wkr'], replicas: 1, minAvailable: 1 });
  });

  it('replicas nil (graph not defaulted): replicas omitted, minAvailable 1', () => {
    const dgd = groveGraph([multinodeDecode(2)], {}, { namespace: 'ns' });
    const settings = groveSettings();
    const pcs = renderPodCliqueSet(dgd, groveComponents(dgd, settings, '0badc0de'), settings);
    expect(pcs.spec.template.podCliqueScalingGroups).toEqual([{ name: 'decode', cliqueNames: ['decode-ldr', 'decode-wkr'], minAvailable: 1 }]);
  });

  it('experimental.grove.forceScalingGroup on a single-node component: a scaling group of its one clique', () => {
    const pcs = pcsOf(groveGraph([frontend(), groveComponent('Agg', 'worker', { replicas: 3, minAvailable: 2, experimental: { grove: { forceScalingGroup: true } } })]));
    expect(cliqueNames(pcs)).toEqual(['frontend', 'agg']);
    expect(pcs.spec.template.podCliqueScalingGroups).toEqual([{ name: 'agg', cliqueNames: ['agg'], replicas: 3, minAvailable: 2 }]);
  });

  it('single-node components without the flag are standalone cliques', () => {
    const pcs = pcsOf(groveGraph([frontend(), groveComponent('agg', 'worker', { replicas: 3 }), multinodeDecode(2)]));
    expect((pcs.spec.template.podCliqueScalingGroups as JsonObject[]).map(g => g.name)).toEqual(['decode']);
  });
});

describe('docs/design/render-multinode.md §4.5 startup ordering (startsAfter)', () => {
  const trtllmDecode = (nodeCount: number): JsonObject => groveComponent('decode', 'decode', { multinode: { nodeCount } }, {
    command: ['python3', '-m', 'dynamo.trtllm'], args: ['--model-path', 'm'],
  });

  it('TRT-LLM multinode: the leader starts after the worker clique; workers get nothing; startup type Explicit', () => {
    const pcs = pcsOf(groveGraph([frontend(), trtllmDecode(3)], { backendFramework: 'trtllm' }));
    expect(cliqueOf(pcs, 'decode-ldr').spec.startsAfter).toEqual(['decode-wkr']);
    expect(cliqueOf(pcs, 'decode-wkr').spec).not.toHaveProperty('startsAfter');
    expect(cliqueOf(pcs, 'frontend').spec).not.toHaveProperty('startsAfter');
    expect(pcs.spec.template.cliqueStartupType).toBe('CliqueStartupTypeExplicit');
  });

  it('TRT-LLM single-node: no startsAfter, any order', () => {
    const pcs = pcsOf(groveGraph([groveComponent('agg', 'worker', {}, { command: ['python3', '-m', 'dynamo.trtllm'] })], { backendFramework: 'trtllm' }));
    expect(cliqueOf(pcs, 'agg').spec).not.toHaveProperty('startsAfter');
    expect(pcs.spec.template.cliqueStartupType).toBe('CliqueStartupTypeAnyOrder');
  });

  it.each([
    ['vllm', ['python3', '-m', 'dynamo.vllm']],
    ['sglang', ['python3', '-m', 'dynamo.sglang']],
  ])('%s multinode: no startsAfter, any order', (framework, command) => {
    const pcs = pcsOf(groveGraph([groveComponent('decode', 'decode', { multinode: { nodeCount: 3 } }, { command })], { backendFramework: framework }));
    expect(cliqueOf(pcs, 'decode-ldr').spec).not.toHaveProperty('startsAfter');
    expect(cliqueOf(pcs, 'decode-wkr').spec).not.toHaveProperty('startsAfter');
    expect(pcs.spec.template.cliqueStartupType).toBe('CliqueStartupTypeAnyOrder');
  });
});

describe('docs/design/render-multinode.md §4.6 replicas and gang thresholds of a multinode component (summary table)', () => {
  const pcs = pcsOf(groveGraph([multinodeDecode(4, { replicas: 2, minAvailable: 2 })]));

  it('PCSG: component replicas / component minAvailable', () => {
    expect(scalingGroupOf(pcs, 'decode')).toMatchObject({ replicas: 2, minAvailable: 2 });
  });

  it('leader clique 1 / 1; worker clique N-1 / N-1', () => {
    expect(cliqueOf(pcs, 'decode-ldr').spec).toMatchObject({ replicas: 1, minAvailable: 1 });
    expect(cliqueOf(pcs, 'decode-wkr').spec).toMatchObject({ replicas: 3, minAvailable: 3 });
  });
});

describe('docs/design/render-multinode.md §4.7 topology constraints (typed API)', () => {
  it('graph packDomain and clusterTopologyName: the template constraint names both', () => {
    const pcs = pcsOf(groveGraph([frontend()], { topologyConstraint: { clusterTopologyName: 'ct', packDomain: 'rack' } }));
    expect(pcs.spec.template.topologyConstraint).toEqual({ topologyName: 'ct', pack: { required: 'rack' } });
  });

  it('graph clusterTopologyName without packDomain: no template constraint', () => {
    const pcs = pcsOf(groveGraph([groveComponent('agg', 'worker', { topologyConstraint: { packDomain: 'host' } })], {
      topologyConstraint: { clusterTopologyName: 'ct' },
    }));
    expect(pcs.spec.template).not.toHaveProperty('topologyConstraint');
  });

  it('multinode component packDomain: on its scaling group (no topologyName when the graph has a packDomain), not on its cliques', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(2, { topologyConstraint: { packDomain: 'host' } })], {
      topologyConstraint: { clusterTopologyName: 'ct', packDomain: 'rack' },
    }));
    expect(scalingGroupOf(pcs, 'decode').topologyConstraint).toEqual({ pack: { required: 'host' } });
    expect(cliqueOf(pcs, 'decode-ldr')).not.toHaveProperty('topologyConstraint');
    expect(cliqueOf(pcs, 'decode-wkr')).not.toHaveProperty('topologyConstraint');
  });

  it('single-node component packDomain: on its clique', () => {
    const pcs = pcsOf(groveGraph([groveComponent('agg', 'worker', { topologyConstraint: { packDomain: 'host' } })], {
      topologyConstraint: { clusterTopologyName: 'ct', packDomain: 'rack' },
    }));
    expect(cliqueOf(pcs, 'agg').topologyConstraint).toEqual({ pack: { required: 'host' } });
  });

  it('graph without packDomain: the component constraint names the cluster topology itself', () => {
    const pcs = pcsOf(groveGraph([
      multinodeDecode(2, { topologyConstraint: { packDomain: 'rack' } }),
      groveComponent('agg', 'worker', { topologyConstraint: { packDomain: 'host' } }),
    ], { topologyConstraint: { clusterTopologyName: 'ct' } }));
    expect(scalingGroupOf(pcs, 'decode').topologyConstraint).toEqual({ topologyName: 'ct', pack: { required: 'rack' } });
    expect(cliqueOf(pcs, 'agg').topologyConstraint).toEqual({ topologyName: 'ct', pack: { required: 'host' } });
  });

  it('components without packDomain get no constraint', () => {
    const pcs = pcsOf(groveGraph([frontend(), multinodeDecode(2)], { topologyConstraint: { clusterTopologyName: 'ct', packDomain: 'rack' } }));
    expect(cliqueOf(pcs, 'frontend')).not.toHaveProperty('topologyConstraint');
    expect(scalingGroupOf(pcs, 'decode')).not.toHaveProperty('topologyConstraint');
  });
});

describe('docs/design/render-multinode.md §4.9 providerOverride (Grove topology, replaced verbatim)', () => {
  const override = (value: JsonObject): JsonObject => ({ apiVersion: 'grove.io/v1alpha1', value });
  /** A constraint with an unknown field, an explicit null and an integer, which must survive as written. */
  const verbatim = (domain: string): JsonObject => ({ pack: { required: domain, preferred: null }, futureField: { weight: 3 } });

  it('graph root override: spec.template.topologyConstraint', () => {
    const pcs = pcsOf(groveGraph([frontend()], { providerOverride: override({ spec: { template: { topologyConstraint: verbatim('zone') } } }) }));
    expect(pcs.spec.template.topologyConstraint).toEqual(verbatim('zone'));
    expect(pcs.spec.template.topologyConstraint.pack.preferred).toBeNull();
  });

  it('component with a scaling group: its podCliqueScalingGroups entry; the cliques are untouched', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(2, { providerOverride: override({ topologyConstraint: verbatim('rack') }) })]));
    expect(scalingGroupOf(pcs, 'decode').topologyConstraint).toEqual(verbatim('rack'));
    expect(cliqueOf(pcs, 'decode-ldr')).not.toHaveProperty('topologyConstraint');
    expect(cliqueOf(pcs, 'decode-wkr')).not.toHaveProperty('topologyConstraint');
  });

  it('single-node component: its standalone clique', () => {
    const pcs = pcsOf(groveGraph([groveComponent('Agg', 'worker', { providerOverride: override({ topologyConstraint: verbatim('host') }) })]));
    expect(cliqueOf(pcs, 'agg').topologyConstraint).toEqual(verbatim('host'));
  });

  it('forced scaling group: the scaling group, not the clique', () => {
    const pcs = pcsOf(groveGraph([groveComponent('agg', 'worker', {
      experimental: { grove: { forceScalingGroup: true } }, providerOverride: override({ topologyConstraint: verbatim('host') }),
    })]));
    expect(scalingGroupOf(pcs, 'agg').topologyConstraint).toEqual(verbatim('host'));
    expect(cliqueOf(pcs, 'agg')).not.toHaveProperty('topologyConstraint');
  });

  it('roles[] leader and worker overrides: the ldr and wkr cliques', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(3, {
      roles: [
        { name: 'leader', providerOverride: override({ topologyConstraint: verbatim('host-a') }) },
        { name: 'worker', providerOverride: override({ topologyConstraint: verbatim('host-b') }) },
      ],
    })]));
    expect(cliqueOf(pcs, 'decode-ldr').topologyConstraint).toEqual(verbatim('host-a'));
    expect(cliqueOf(pcs, 'decode-wkr').topologyConstraint).toEqual(verbatim('host-b'));
    expect(scalingGroupOf(pcs, 'decode')).not.toHaveProperty('topologyConstraint');
    // the roles restate the implicit shape
    expect(cliqueOf(pcs, 'decode-wkr').spec).toMatchObject({ replicas: 2, minAvailable: 2 });
  });

  it('admission refuses override topology together with the typed topology API (row 33)', () => {
    const dgd = groveGraph([groveComponent('agg', 'worker', { providerOverride: override({ topologyConstraint: { pack: { required: 'host' } } }) })], {
      topologyConstraint: { clusterTopologyName: 'ct', packDomain: 'rack' },
    });
    expect(groveAdmissionViolations(dgd).join('\n')).toContain('cannot be combined with spec.topologyConstraint');
  });

  it('admission refuses an override that writes anything but the topology constraint', () => {
    const dgd = groveGraph([groveComponent('agg', 'worker', { providerOverride: override({ topologyConstraint: { pack: { required: 'host' } }, replicas: 2 }) })]);
    expect(groveAdmissionViolations(dgd).join('\n')).toContain('replicas');
  });
});

describe('docs/design/render-multinode.md §4.11 example: TRT-LLM decode on 2 nodes × 8 GPUs, Grove (whole PodCliqueSet)', () => {
  const dgd = groveGraph([groveComponent('decode', 'decode', { replicas: 1, multinode: { nodeCount: 2 } }, {
    command: ['python3', '-m', 'dynamo.trtllm'],
    args: ['--model-path', 'm'],
    resources: { limits: { 'nvidia.com/gpu': '8' } },
  })], { backendFramework: 'trtllm' }, { namespace: 'prod' });
  // the reference example's operator runs with its own fallback delay, 15m
  const pcs = pcsOf(dgd, { mpiSshSecretName: 'mpi-run-ssh-secret', groveTerminationDelay: '15m' });
  const leader = cliqueMain(pcs, 'decode-ldr');
  const worker = cliqueMain(pcs, 'decode-wkr');

  const sshSetup = [
    'mkdir -p $HOME/.ssh',
    'ls -la /ssh-pk/',
    'cp /ssh-pk/private.key $HOME/.ssh/id_rsa',
    'cp /ssh-pk/private.key.pub $HOME/.ssh/id_rsa.pub',
    'cp /ssh-pk/private.key.pub $HOME/.ssh/authorized_keys',
    'chmod 600 $HOME/.ssh/id_rsa $HOME/.ssh/authorized_keys',
    'chmod 644 $HOME/.ssh/id_rsa.pub',
    'printf \'Host *\\nIdentityFile \'$HOME\'/.ssh/id_rsa\\nStrictHostKeyChecking no\\nPort 2222\\n\' > $HOME/.ssh/config',
  ];
  const xList = '-x CPATH -x CUDA_VISIBLE_DEVICES -x DYN_COMPONENT -x DYN_DISCOVERY_BACKEND -x DYN_FORWARDPASS_METRIC_PORT '
    + '-x DYN_HEALTH_CHECK_ENABLED -x DYN_NAMESPACE -x DYN_NAMESPACE_WORKER_SUFFIX -x DYN_PARENT_DGD_K8S_NAME '
    + '-x DYN_PARENT_DGD_K8S_NAMESPACE -x DYN_SYSTEM_ENABLED -x DYN_SYSTEM_PORT -x DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS '
    + '-x HF_DATASETS_CACHE -x HF_ENDPOINT -x HF_HOME -x HF_TOKEN -x HOME -x HUGGING_FACE_HUB_TOKEN -x LD_LIBRARY_PATH '
    + '-x MODEL_PATH -x NCCL_DEBUG -x NCCL_IB_DISABLE -x NCCL_P2P_DISABLE -x NIXL_TELEMETRY_ENABLE -x NIXL_TELEMETRY_EXPORTER '
    + '-x NIXL_TELEMETRY_PROMETHEUS_PORT -x OMPI_MCA_orte_keep_fqdn_hostnames -x PATH -x POD_NAME -x POD_NAMESPACE -x POD_UID '
    + '-x PYTHONPATH -x TENSORRT_LLM_CACHE_DIR -x TOKENIZERS_PARALLELISM -x TRANSFORMERS_CACHE -x TRITON_PTXAS_PATH '
    + '-x TRTLLM_USE_UCX_KVCACHE -x USER';
  const hosts = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE),'
    + '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-wkr-0.$(GROVE_HEADLESS_SERVICE)';
  const mpirun = `mpirun $([ "$(id -u)" = "0" ] && echo --allow-run-as-root) --oversubscribe -n 16 -H ${hosts} --mca pml ob1 `
    + `--mca plm_rsh_args "-p 2222 -o StrictHostKeyChecking=no -i $HOME/.ssh/id_rsa" ${xList} `
    + 'bash -c \'trtllm-llmapi-launch python3 -m dynamo.trtllm --model-path m\'';
  const workerScript = [
    'mkdir -p $HOME/.ssh $HOME/.ssh/host_keys $HOME/.ssh/run',
    ...sshSetup.slice(1),
    'ssh-keygen -t rsa -f $HOME/.ssh/host_keys/ssh_host_rsa_key -N \'\'',
    'ssh-keygen -t ecdsa -f $HOME/.ssh/host_keys/ssh_host_ecdsa_key -N \'\'',
    'ssh-keygen -t ed25519 -f $HOME/.ssh/host_keys/ssh_host_ed25519_key -N \'\'',
    'printf \'Port 2222\\nHostKey \'$HOME\'/.ssh/host_keys/ssh_host_rsa_key\\nHostKey \'$HOME\'/.ssh/host_keys/ssh_host_ecdsa_key'
      + '\\nHostKey \'$HOME\'/.ssh/host_keys/ssh_host_ed25519_key\\nPidFile \'$HOME\'/.ssh/run/sshd.pid\\nStrictModes no'
      + '\\nPermitRootLogin yes\\nPasswordAuthentication no\\nPubkeyAuthentication yes'
      + '\\nAuthorizedKeysFile \'$HOME\'/.ssh/authorized_keys\\n\' > $HOME/.ssh/sshd_config',
    '/usr/sbin/sshd -D -f $HOME/.ssh/sshd_config',
  ].join(' && ');
  const sshVolume = { name: 'mpi-run-ssh-secret', secret: { secretName: 'mpi-run-ssh-secret', defaultMode: 420 } };
  const sshMount = { name: 'mpi-run-ssh-secret', mountPath: '/ssh-pk', readOnly: true };
  const shmMount = { name: 'shared-memory', mountPath: '/dev/shm' };

  it('template: replicas 1, Explicit startup, headless config, terminationDelay 15m0s, one scaling group', () => {
    expect(pcs.metadata).toMatchObject({ name: 'llm', namespace: 'prod' });
    expect(pcs.spec.replicas).toBe(1);
    expect(pcs.spec.template).toMatchObject({
      cliqueStartupType: 'CliqueStartupTypeExplicit',
      headlessServiceConfig: { publishNotReadyAddresses: true },
      terminationDelay: '15m0s',
    });
    expect(pcs.spec.template.podCliqueScalingGroups).toEqual([{ name: 'decode', cliqueNames: ['decode-ldr', 'decode-wkr'], replicas: 1, minAvailable: 1 }]);
  });

  it('cliques: decode-ldr (1/1, startsAfter decode-wkr) and decode-wkr (1/1)', () => {
    expect(cliqueNames(pcs)).toEqual(['decode-ldr', 'decode-wkr']);
    expect(cliqueOf(pcs, 'decode-ldr').spec).toMatchObject({ roleName: 'decode-ldr', replicas: 1, minAvailable: 1, startsAfter: ['decode-wkr'] });
    expect(cliqueOf(pcs, 'decode-wkr').spec).toMatchObject({ roleName: 'decode-wkr', replicas: 1, minAvailable: 1 });
  });

  it('leader: /bin/sh -c with the SSH setup and the mpirun line over 16 slots and both hosts', () => {
    expect(leader.command).toEqual(['/bin/sh', '-c']);
    expect(leader.args).toEqual([[...sshSetup, mpirun].join(' && ')]);
  });

  it('leader env: the sorted block then OMPI_MCA_orte_keep_fqdn_hostnames=1', () => {
    const env = leader.env as JsonObject[];
    expect(env[env.length - 1]).toEqual({ name: 'OMPI_MCA_orte_keep_fqdn_hostnames', value: '1' });
    expect(env.map(e => e.name)).toEqual([
      'DYN_COMPONENT', 'DYN_DISCOVERY_BACKEND', 'DYN_FORWARDPASS_METRIC_PORT', 'DYN_HEALTH_CHECK_ENABLED', 'DYN_NAMESPACE',
      'DYN_NAMESPACE_WORKER_SUFFIX', 'DYN_PARENT_DGD_K8S_NAME', 'DYN_PARENT_DGD_K8S_NAMESPACE', 'DYN_SYSTEM_ENABLED', 'DYN_SYSTEM_PORT',
      'DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS', 'NIXL_TELEMETRY_ENABLE', 'NIXL_TELEMETRY_EXPORTER', 'NIXL_TELEMETRY_PROMETHEUS_PORT',
      'POD_NAME', 'POD_NAMESPACE', 'POD_UID', 'OMPI_MCA_orte_keep_fqdn_hostnames',
    ]);
    expect(envValue(leader, 'DYN_NAMESPACE')).toBe('prod-llm');
  });

  it('both pods: SSH secret mount before /dev/shm, SSH secret volume before shared-memory', () => {
    for (const [name, container] of [['decode-ldr', leader], ['decode-wkr', worker]] as const) {
      expect(container.volumeMounts).toEqual([sshMount, shmMount]);
      expect(cliqueOf(pcs, name).spec.podSpec.volumes).toEqual([sshVolume, SHARED_MEMORY_VOLUME]);
    }
  });

  it('leader keeps the worker default probes', () => {
    expect(leader.livenessProbe).toEqual(WORKER_LIVENESS);
    expect(leader.readinessProbe).toEqual(WORKER_READINESS);
    expect(leader.startupProbe).toEqual(WORKER_STARTUP);
  });

  it('worker: sshd script, readiness TCP 2222 only (no liveness, no startup probe)', () => {
    expect(worker.command).toEqual(['/bin/sh', '-c']);
    expect(worker.args).toEqual([workerScript]);
    expect(worker.readinessProbe).toEqual({
      tcpSocket: { port: 2222 }, initialDelaySeconds: 20, periodSeconds: 20, timeoutSeconds: 5, failureThreshold: 10,
    });
    expect(worker).not.toHaveProperty('livenessProbe');
    expect(worker).not.toHaveProperty('startupProbe');
  });

  it('the GPU request stays on both pods', () => {
    expect(leader.resources).toEqual({ limits: { 'nvidia.com/gpu': '8' } });
    expect(worker.resources).toEqual({ limits: { 'nvidia.com/gpu': '8' } });
  });
});

describe('docs/design/render-multinode.md §5 Grove columns: labels, names, probes and init containers of leader vs worker cliques', () => {
  const vllmMp = groveGraph([groveComponent('decode', 'decode', { multinode: { nodeCount: 2 } }, {
    command: ['python3', '-m', 'dynamo.vllm'],
    args: ['--model', 'test/model', '--tensor-parallel-size', '16'],
    resources: { limits: { 'nvidia.com/gpu': '8' }, requests: { 'nvidia.com/gpu': '8' } },
  })]);

  it('no role label; nvidia.com/selector <dgd>-<comp-lc> on both cliques', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(2)]));
    for (const name of ['decode-ldr', 'decode-wkr']) {
      expect(cliqueOf(pcs, name).labels).not.toHaveProperty('role');
      expect(cliqueOf(pcs, name).labels[LABEL_SELECTOR]).toBe('llm-decode');
    }
  });

  it.each([
    ['vllm', ['python3', '-m', 'dynamo.vllm']],
    ['sglang', ['python3', '-m', 'dynamo.sglang']],
  ])('%s: the leader keeps the worker default probes, the worker clique has none', (framework, command) => {
    const pcs = pcsOf(groveGraph([groveComponent('decode', 'decode', { multinode: { nodeCount: 2 } }, { command })], { backendFramework: framework }));
    const leader = cliqueMain(pcs, 'decode-ldr');
    expect(leader.livenessProbe).toEqual(WORKER_LIVENESS);
    expect(leader.readinessProbe).toEqual(WORKER_READINESS);
    expect(leader.startupProbe).toEqual(WORKER_STARTUP);
    const worker = cliqueMain(pcs, 'decode-wkr');
    for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe']) expect(worker).not.toHaveProperty(probe);
  });

  it('noop framework (no backend detected): default probes on both cliques', () => {
    const dgd = groveGraph([groveComponent('decode', 'decode', { multinode: { nodeCount: 2 } }, { command: ['python3', '-m', 'dynamo.mocker'] })]);
    delete dgd.spec.backendFramework;
    const pcs = pcsOf(dgd);
    for (const name of ['decode-ldr', 'decode-wkr']) {
      const main = cliqueMain(pcs, name);
      expect(main.livenessProbe).toEqual(WORKER_LIVENESS);
      expect(main.readinessProbe).toEqual(WORKER_READINESS);
      expect(main.startupProbe).toEqual(WORKER_STARTUP);
    }
  });

  it('vLLM mp (TP 16 on 8 GPUs): wait-for-leader-mp init container and script volume on the worker clique only', () => {
    const pcs = pcsOf(vllmMp);
    const workerPod = cliqueOf(pcs, 'decode-wkr').spec.podSpec;
    expect(workerPod.initContainers).toEqual([{
      name: 'wait-for-leader-mp',
      image: GROVE_TEST_IMAGE,
      command: ['sh', '-c',
        'export LEADER_HOST="${GROVE_PCSG_NAME}-${GROVE_PCSG_INDEX}-decode-ldr-0.${GROVE_HEADLESS_SERVICE}" LEADER_PORT="29500" && exec python3 /scripts/wait-for-leader.py'],
      resources: {},
      volumeMounts: [{ name: 'wait-leader-script', mountPath: '/scripts', readOnly: true }],
    }]);
    expect(workerPod.volumes).toEqual([SHARED_MEMORY_VOLUME, { name: 'wait-leader-script', configMap: { name: 'llm-wait-leader-script' } }]);
    const leaderPod = cliqueOf(pcs, 'decode-ldr').spec.podSpec;
    expect(leaderPod).not.toHaveProperty('initContainers');
    expect(leaderPod.volumes).toEqual([SHARED_MEMORY_VOLUME]);
  });

  it('vLLM mp: the graph renders ConfigMap <dgd>-wait-leader-script the worker mounts', () => {
    const configMaps = renderGrove(vllmMp).filter(o => o.kind === 'ConfigMap').map(o => o.metadata.name);
    expect(configMaps).toContain('llm-wait-leader-script');
  });

  it('vLLM mp on Grove: the worker runs through sh -c exec with the Grove rank; the leader appends flags', () => {
    const pcs = pcsOf(vllmMp);
    const leaderHost = '$(GROVE_PCSG_NAME)-$(GROVE_PCSG_INDEX)-decode-ldr-0.$(GROVE_HEADLESS_SERVICE)';
    expect(cliqueMain(pcs, 'decode-ldr').args).toEqual([
      '--model', 'test/model', '--tensor-parallel-size', '16',
      '--distributed-executor-backend', 'mp', '--nnodes', '2', '--master-addr', leaderHost, '--master-port', '29500', '--node-rank', '0',
    ]);
    expect(cliqueMain(pcs, 'decode-wkr').command).toEqual(['sh', '-c']);
    expect(cliqueMain(pcs, 'decode-wkr').args).toEqual([
      `exec python3 -m dynamo.vllm --model test/model --tensor-parallel-size 16 --distributed-executor-backend mp --nnodes 2 --master-addr ${leaderHost} --master-port 29500 --node-rank $((GROVE_PCLQ_POD_INDEX + 1)) --headless`,
    ]);
  });

  it('the init container also follows a user-written --distributed-executor-backend mp (no GPUs, nothing injected)', () => {
    const written = pcsOf(groveGraph([groveComponent('decode', 'decode', { multinode: { nodeCount: 2 } }, {
      command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm', '--distributed-executor-backend', 'mp'],
    })]));
    expect((cliqueOf(written, 'decode-wkr').spec.podSpec.initContainers as JsonObject[]).map(c => c.name)).toEqual(['wait-for-leader-mp']);
    expect(cliqueOf(written, 'decode-ldr').spec.podSpec).not.toHaveProperty('initContainers');
    const shellForm = pcsOf(groveGraph([groveComponent('decode', 'decode', { multinode: { nodeCount: 2 } }, {
      args: ['python3 -m dynamo.vllm --model m --distributed-executor-backend=mp'],
    })]));
    expect((cliqueOf(shellForm, 'decode-wkr').spec.podSpec.initContainers as JsonObject[]).map(c => c.name)).toEqual(['wait-for-leader-mp']);
  });

  it('SGLang and TRT-LLM workers never get the wait-for-leader init container', () => {
    const sglang = pcsOf(groveGraph([groveComponent('decode', 'decode', { multinode: { nodeCount: 2 } }, {
      command: ['python3', '-m', 'dynamo.sglang'], args: ['--distributed-executor-backend', 'mp'],
    })], { backendFramework: 'sglang' }));
    expect(cliqueOf(sglang, 'decode-wkr').spec.podSpec).not.toHaveProperty('initContainers');
  });

  it('both cliques use the graph\'s discovery ServiceAccount; none with etcd discovery', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(2)]));
    for (const name of ['decode-ldr', 'decode-wkr']) {
      expect(cliqueOf(pcs, name).spec.podSpec.serviceAccountName).toBe('llm-k8s-service-discovery');
      expect(envValue(cliqueMain(pcs, name), 'DYN_PARENT_DGD_K8S_NAME')).toBe('llm');
    }
    const etcd = pcsOf(groveGraph([multinodeDecode(2)]), { discoveryBackend: 'etcd' });
    expect(cliqueOf(etcd, 'decode-wkr').spec.podSpec).not.toHaveProperty('serviceAccountName');
  });

  it('vLLM without --distributed-executor-backend mp on the command line (no GPUs): no init container', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(2)]));
    expect(cliqueOf(pcs, 'decode-wkr').spec.podSpec).not.toHaveProperty('initContainers');
  });

  it('env and ports are otherwise identical for leader and worker (vLLM, no GPUs)', () => {
    const pcs = pcsOf(groveGraph([multinodeDecode(2)]));
    const leader = cliqueMain(pcs, 'decode-ldr');
    const worker = cliqueMain(pcs, 'decode-wkr');
    expect(worker.env).toEqual(leader.env);
    // mp by origin version ≥ 1.0.0: the side-channel host is appended on both (golden dgd/grove, docs/design/render-multinode.md §9.5)
    expect((leader.env as JsonObject[])[(leader.env as JsonObject[]).length - 1]).toEqual({
      name: 'VLLM_NIXL_SIDE_CHANNEL_HOST', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } },
    });
    expect(worker.ports).toEqual(leader.ports);
    expect(leader.ports).toEqual([
      { name: 'system', containerPort: 9090, protocol: 'TCP' },
      { name: 'nixl', containerPort: 19090, protocol: 'TCP' },
    ]);
  });
});

describe('docs/design/render-multinode.md §4.3 an empty graph discovery-backend annotation leaves the component\'s own', () => {
  test('the clique keeps the component annotation and its pods keep the discovery account', () => {
    const doc: any = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'g', annotations: { 'nvidia.com/dynamo-discovery-backend': '' } },
      spec: {
        backendFramework: 'vllm',
        components: [{
          name: 'worker',
          type: 'worker',
          podTemplate: {
            metadata: { annotations: { 'nvidia.com/dynamo-discovery-backend': 'kubernetes' } },
            spec: { containers: [{ name: 'main', image: 'registry.example/w:1.4.0', command: ['python3', '-m', 'dynamo.vllm'], args: ['--model', 'm'] }] },
          },
        }],
      },
    };
    const objects = render(doc, { namespace: 'ns', settings: { groveAvailable: true } });
    const clique = objects.find(o => o.kind === 'PodCliqueSet').spec.template.cliques[0];
    expect(clique.annotations['nvidia.com/dynamo-discovery-backend']).toBe('kubernetes');
    expect(clique.labels['nvidia.com/dynamo-discovery-enabled']).toBeUndefined();
    expect(clique.spec.podSpec.serviceAccountName).toBe('g-k8s-service-discovery');
  });
});
