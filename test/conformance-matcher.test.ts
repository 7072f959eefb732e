import * as fs from 'fs';
import * as path from 'path';
import { parseAllDocuments } from 'yaml';
import {
  applyApiServerDefaults,
  defaultPullPolicy,
  globToRegExp,
  isApiServerDefaulted,
  matchDocument,
  matchScenario,
  ServerAssigned,
} from './support/conformance/matcher';
import { CONFORMANCE_DIR, describeNeeding } from './support/shared';

/** Match one expected document against one rendered object (API-server defaults applied). */
function diffs(expected: any, rendered: any): string[] {
  return matchDocument(expected, applyApiServerDefaults(rendered)).differences;
}

function cm(name: string, data: any, extra: any = {}): any {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data, ...extra };
}

describe('strict mappings', () => {
  test('identical documents match', () => {
    expect(diffs(cm('a', { x: '1' }), cm('a', { x: '1' }))).toEqual([]);
  });

  test('a rendered field the expected mapping does not name is a difference', () => {
    expect(diffs(cm('a', { x: '1' }), cm('a', { x: '1', y: '2' }))).toEqual(['data.y: expected <absent>, got "2"']);
  });

  test('a missing field is a difference', () => {
    expect(diffs(cm('a', { x: '1', y: '2' }), cm('a', { x: '1' }))).toEqual(['data.y: expected "2", got <absent>']);
  });

  test('scalars compare by value and type', () => {
    expect(diffs(cm('a', { x: '1' }), cm('a', { x: 1 }))).toEqual(['data.x: expected "1", got 1']);
    expect(diffs(cm('a', { x: true }), cm('a', { x: 'true' }))).toHaveLength(1);
    expect(diffs(cm('a', { x: null }), cm('a', { x: null }))).toEqual([]);
  });

  test('a mapping against a scalar is a difference', () => {
    expect(diffs(cm('a', { x: { y: 1 } }), cm('a', { x: 'y' }))).toHaveLength(1);
  });

  test('undefined rendered fields count as absent', () => {
    expect(diffs(cm('a', { x: '1' }), cm('a', { x: '1', y: undefined }))).toEqual([]);
  });

  test('$strict: false relaxes only that mapping', () => {
    const expected = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { $strict: false, name: 'a', labels: { app: 'x' } },
      data: { k: 'v' },
    };
    const ok = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', uid: '123', labels: { app: 'x' } }, data: { k: 'v' } };
    expect(diffs(expected, ok)).toEqual([]);
    // the named child mapping is strict again
    const extraLabel = { ...ok, metadata: { ...ok.metadata, labels: { app: 'x', other: 'y' } } };
    expect(diffs(expected, extraLabel)).toEqual(['metadata.labels.other: expected <absent>, got "y"']);
    // named fields of the relaxed mapping still have to match
    const wrongName = { ...ok, metadata: { ...ok.metadata, name: 'b' } };
    expect(diffs(expected, wrongName)).toEqual(['metadata.name: expected "a", got "b"']);
    // a sibling mapping stays strict
    expect(diffs(expected, { ...ok, data: { k: 'v', extra: '1' } })).toEqual(['data.extra: expected <absent>, got "1"']);
  });

  test('$strict: true is the default', () => {
    expect(diffs(cm('a', { $strict: true, x: '1' }), cm('a', { x: '1' }))).toEqual([]);
    expect(diffs(cm('a', { $strict: true, x: '1' }), cm('a', { x: '1', y: '2' }))).toHaveLength(1);
  });

  test('keys that need quoting are shown quoted in the path', () => {
    const expected = cm('a', {}, { metadata: { name: 'a', labels: { 'nvidia.com/selector': 'x' } } });
    const rendered = cm('a', {}, { metadata: { name: 'a', labels: { 'nvidia.com/selector': 'y' } } });
    expect(diffs(expected, rendered)).toEqual(['metadata.labels["nvidia.com/selector"]: expected "x", got "y"']);
  });
});

describe('scalar directives', () => {
  test('$ignore accepts any value and absence', () => {
    expect(diffs(cm('a', { x: '$ignore' }), cm('a', { x: 'anything' }))).toEqual([]);
    expect(diffs(cm('a', { x: '$ignore' }), cm('a', { x: { deep: [1] } }))).toEqual([]);
    expect(diffs(cm('a', { x: '$ignore' }), cm('a', {}))).toEqual([]);
    // ... but only for the field it is on
    expect(diffs(cm('a', { x: '$ignore' }), cm('a', { y: '1' }))).toEqual(['data.y: expected <absent>, got "1"']);
  });

  test('$exists requires the field, any value', () => {
    expect(diffs(cm('a', { x: '$exists' }), cm('a', { x: 'v' }))).toEqual([]);
    expect(diffs(cm('a', { x: '$exists' }), cm('a', { x: { y: 1 } }))).toEqual([]);
    expect(diffs(cm('a', { x: '$exists' }), cm('a', {}))).toEqual(['data.x: expected <any value>, got <absent>']);
  });

  test('$notexists requires absence', () => {
    expect(diffs(cm('a', { x: '$notexists' }), cm('a', {}))).toEqual([]);
    expect(diffs(cm('a', { x: '$notexists' }), cm('a', { x: 'v' }))).toEqual(['data.x: expected <absent>, got "v"']);
  });

  test('one-key mappings {$ignore: true} and {$notexists: true}', () => {
    expect(diffs(cm('a', { x: { $ignore: true } }), cm('a', { x: { a: 1, b: 2 } }))).toEqual([]);
    expect(diffs(cm('a', { x: { $ignore: true } }), cm('a', {}))).toEqual([]);
    expect(diffs(cm('a', { x: { $notexists: true } }), cm('a', {}))).toEqual([]);
    expect(diffs(cm('a', { x: { $notexists: true } }), cm('a', { x: {} }))).toEqual(['data.x: expected <absent>, got {}']);
  });

  test('$glob matches the whole string', () => {
    expect(diffs(cm('$glob:web-*', {}), cm('web-decode-1a2b', {}))).toEqual([]);
    expect(diffs(cm('$glob:web-*', {}), cm('api-web-decode', {}))).toEqual(['metadata.name: expected $glob:web-*, got "api-web-decode"']);
    expect(diffs(cm('a', { x: '$glob:clusterenv-*-graph' }), cm('a', { x: 'clusterenv-conformance-graph' }))).toEqual([]);
    expect(diffs(cm('a', { x: '$glob:clusterenv-*-graph' }), cm('a', { x: 'clusterenv-conformance-graph2' }))).toHaveLength(1);
    expect(diffs(cm('a', { x: '$glob:v?.[0-9]' }), cm('a', { x: 'v1.5' }))).toEqual([]);
    expect(diffs(cm('a', { x: '$glob:v?.[0-9]' }), cm('a', { x: 'v1.x' }))).toHaveLength(1);
    expect(diffs(cm('a', { x: '$glob:a.b' }), cm('a', { x: 'axb' }))).toHaveLength(1);
    expect(diffs(cm('a', { x: '$glob:*' }), cm('a', {}))).toEqual(['data.x: expected $glob:*, got <absent>']);
  });

  test('globToRegExp', () => {
    expect(globToRegExp('a*b').test('a/x/b')).toBe(true);
    expect(globToRegExp('[!ab]c').test('xc')).toBe(true);
    expect(globToRegExp('[!ab]c').test('ac')).toBe(false);
    expect(globToRegExp('\\*').test('*')).toBe(true);
    expect(globToRegExp('\\*').test('x')).toBe(false);
  });

  test('$pattern is a whole-string regular expression', () => {
    expect(diffs(cm('a', { v: '$pattern:1\\.4\\..*' }), cm('a', { v: '1.4.0' }))).toEqual([]);
    expect(diffs(cm('a', { v: '$pattern:1\\.4\\..*' }), cm('a', { v: '1.40' }))).toEqual(['data.v: expected $pattern:1\\.4\\..*, got "1.40"']);
    expect(diffs(cm('a', { v: '$pattern:abc' }), cm('a', { v: 'xabcx' }))).toHaveLength(1);
    expect(diffs(cm('a', { v: '$pattern:a|b' }), cm('a', { v: 'ab' }))).toHaveLength(1);
    expect(diffs(cm('a', { v: '$pattern:a|b' }), cm('a', { v: 'b' }))).toEqual([]);
    expect(diffs(cm('a', { v: '$pattern:[0-9]+' }), cm('a', { v: { n: 1 } }))).toHaveLength(1);
    expect(diffs(cm('a', { v: '$pattern:(' }), cm('a', { v: '(' }))[0]).toMatch(/^data\.v: invalid \$pattern/);
  });

  test('$var binds the first value and requires the same value elsewhere in the document', () => {
    expect(diffs(cm('a', { x: '$var:h', y: '$var:h' }), cm('a', { x: 'abc', y: 'abc' }))).toEqual([]);
    expect(diffs(cm('a', { x: '$var:h', y: '$var:h' }), cm('a', { x: 'abc', y: 'abd' }))).toEqual(['data.y: expected "abc" ($var:h), got "abd"']);
    expect(diffs(cm('a', { x: '$var:h', y: '$var:g' }), cm('a', { x: 'abc', y: 'abd' }))).toEqual([]);
    expect(diffs(cm('a', { x: '$var:h' }), cm('a', {}))).toEqual(['data.x: expected $var:h, got <absent>']);
  });

  test('matchDocument returns the bindings and honours given ones', () => {
    const first = matchDocument(cm('a', { x: '$var:h' }), cm('a', { x: '7' }));
    expect(first.bindings.get('h')).toBe('7');
    expect(matchDocument(cm('b', { y: '$var:h' }), cm('b', { y: '7' }), first.bindings).matched).toBe(true);
    expect(matchDocument(cm('b', { y: '$var:h' }), cm('b', { y: '8' }), first.bindings).matched).toBe(false);
  });

  test('$$ escapes a literal $ in values and keys', () => {
    expect(diffs(cm('a', { x: '$$ignore' }), cm('a', { x: '$ignore' }))).toEqual([]);
    expect(diffs(cm('a', { x: '$$ignore' }), cm('a', { x: 'anything' }))).toEqual(['data.x: expected "$ignore", got "anything"']);
    expect(diffs(cm('a', { x: '$$(POD_NAME)' }), cm('a', { x: '$(POD_NAME)' }))).toEqual([]);
    expect(diffs(cm('a', { $$key: 'v' }), cm('a', { $key: 'v' }))).toEqual([]);
    expect(diffs(cm('a', { $$key: 'v' }), cm('a', { key: 'v' }))).toHaveLength(2);
  });

  test('unknown directives are reported, not taken literally', () => {
    expect(diffs(cm('a', { x: '$(POD_NAME)' }), cm('a', { x: '$(POD_NAME)' }))[0]).toMatch(/unknown directive/);
    expect(diffs(cm('a', { $weird: 1 }), cm('a', {}))[0]).toMatch(/unknown directive key/);
  });
});

describe('sequences and status', () => {
  test('sequences match exactly and in order', () => {
    expect(diffs(cm('a', { l: ['a', 'b'] }), cm('a', { l: ['a', 'b'] }))).toEqual([]);
    expect(diffs(cm('a', { l: ['a', 'b'] }), cm('a', { l: ['b', 'a'] }))).toEqual([
      'data.l[0]: expected "a", got "b"',
      'data.l[1]: expected "b", got "a"',
    ]);
    expect(diffs(cm('a', { l: ['a', 'b'] }), cm('a', { l: ['a', 'b', 'c'] }))).toEqual([
      'data.l: expected 2 items, got 3 items',
      'data.l[2]: expected <absent>, got "c"',
    ]);
    expect(diffs(cm('a', { l: ['a'] }), cm('a', { l: 'a' }))).toHaveLength(1);
  });

  test('lists of named entries of different lengths are compared by name', () => {
    const expected = cm('a', { env: [{ name: 'A', value: '1' }, { name: 'B', value: '2' }, { name: 'C', value: '3' }] });
    const rendered = cm('a', { env: [{ name: 'A', value: '1' }, { name: 'C', value: '4' }] });
    expect(diffs(expected, rendered)).toEqual([
      'data.env: expected 3 items, got 2 items',
      'data.env[name=B]: expected {"name":"B","value":"2"}, got <absent>',
      'data.env[name=C].value: expected "3", got "4"',
    ]);
  });

  test('directives apply inside sequences', () => {
    expect(diffs(cm('a', { l: ['$glob:x-*', '$ignore'] }), cm('a', { l: ['x-1', { any: 1 }] }))).toEqual([]);
    expect(diffs(cm('a', { l: ['$glob:x-*', '$ignore'] }), cm('a', { l: ['y-1', { any: 1 }] }))).toHaveLength(1);
  });

  test('top-level status is skipped on both sides', () => {
    expect(diffs(cm('a', {}, { status: { $ignore: true } }), cm('a', {}, { status: { phase: 'x' } }))).toEqual([]);
    expect(diffs(cm('a', {}, { status: '$notexists' }), cm('a', {}, { status: { phase: 'x' } }))).toEqual([]);
    expect(diffs(cm('a', {}, { status: { phase: 'y' } }), cm('a', {}, { status: { phase: 'x' } }))).toEqual([]);
    // ... but only the top-level one
    expect(diffs(cm('a', { status: 'y' }), cm('a', { status: 'x' }))).toHaveLength(1);
  });
});

describe('API-server defaults', () => {
  function container(extra: any = {}): any {
    return {
      name: 'main',
      image: 'registry.example/worker:1.0',
      ports: [{ name: 'http', containerPort: 8000 }],
      livenessProbe: { httpGet: { path: '/live', port: 'http' } },
      env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
      ...extra,
    };
  }
  function deployment(podSpec: any, spec: any = {}): any {
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'd' },
      spec: { replicas: 1, template: { metadata: { labels: { a: 'b' } }, spec: podSpec }, ...spec },
    };
  }
  const liveContainer = {
    name: 'main',
    image: 'registry.example/worker:1.0',
    imagePullPolicy: 'IfNotPresent',
    ports: [{ name: 'http', containerPort: 8000, protocol: 'TCP' }],
    livenessProbe: {
      httpGet: { path: '/live', port: 'http', scheme: 'HTTP' },
      successThreshold: 1,
      timeoutSeconds: 1,
      periodSeconds: 10,
      failureThreshold: 3,
    },
    env: [{ name: 'POD_NAME', valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'metadata.name' } } }],
    resources: {},
    terminationMessagePath: '/dev/termination-log',
    terminationMessagePolicy: 'File',
  };
  const livePodSpec = {
    containers: [liveContainer],
    dnsPolicy: 'ClusterFirst',
    restartPolicy: 'Always',
    schedulerName: 'default-scheduler',
    securityContext: {},
    serviceAccount: 'sa',
    serviceAccountName: 'sa',
    terminationGracePeriodSeconds: 30,
    volumes: [{ name: 'cfg', configMap: { name: 'c', defaultMode: 420 } }, { name: 'shm', emptyDir: { medium: 'Memory' } }],
  };
  const liveDeployment = deployment(livePodSpec, {
    progressDeadlineSeconds: 600,
    revisionHistoryLimit: 10,
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
    template: { metadata: { creationTimestamp: null, labels: { a: 'b' } }, spec: livePodSpec },
  });
  const renderedDeployment = deployment({
    containers: [container()],
    serviceAccountName: 'sa',
    volumes: [{ name: 'cfg', configMap: { name: 'c' } }, { name: 'shm', emptyDir: { medium: 'Memory' } }],
  });

  test('a renderer may omit the API-server defaults the expected object shows', () => {
    expect(diffs(liveDeployment, renderedDeployment)).toEqual([]);
  });

  test('a renderer that emits a different value does not match', () => {
    const wrong = deployment({
      containers: [container({ imagePullPolicy: 'Always', livenessProbe: { httpGet: { path: '/live', port: 'http' }, timeoutSeconds: 2 } })],
      serviceAccountName: 'sa',
      dnsPolicy: 'Default',
      volumes: [{ name: 'cfg', configMap: { name: 'c', defaultMode: 0o600 } }, { name: 'shm', emptyDir: { medium: 'Memory' } }],
    }, { progressDeadlineSeconds: 300 });
    expect(diffs(liveDeployment, wrong)).toEqual([
      'spec.template.spec.containers[0].imagePullPolicy: expected "IfNotPresent", got "Always"',
      'spec.template.spec.containers[0].livenessProbe.timeoutSeconds: expected 1, got 2',
      'spec.template.spec.dnsPolicy: expected "ClusterFirst", got "Default"',
      'spec.template.spec.volumes[0].configMap.defaultMode: expected 420, got 384',
      'spec.progressDeadlineSeconds: expected 600, got 300',
    ]);
  });

  test('defaults only count where the expected object names the field', () => {
    // the golden shows no API-server defaults (e.g. a CRD-embedded pod spec): omitting them still matches
    const bare = deployment({ containers: [container()], serviceAccountName: 'sa' });
    expect(diffs(bare, bare)).toEqual([]);
    // but a renderer that writes a field the expected object does not have is a difference
    const explicit = deployment({ containers: [container({ imagePullPolicy: 'IfNotPresent' })], serviceAccountName: 'sa' });
    expect(diffs(bare, explicit)).toEqual(['spec.template.spec.containers[0].imagePullPolicy: expected <absent>, got "IfNotPresent"']);
  });

  test('$notexists on a defaulted field the renderer left out holds', () => {
    const expected = deployment({ containers: [container()], serviceAccountName: 'sa', dnsPolicy: '$notexists' });
    expect(diffs(expected, deployment({ containers: [container()], serviceAccountName: 'sa' }))).toEqual([]);
    expect(diffs(expected, deployment({ containers: [container()], serviceAccountName: 'sa', dnsPolicy: 'ClusterFirst' }))).toHaveLength(1);
  });

  test('defaults are filled in only where they are the API-server default', () => {
    const out = applyApiServerDefaults(renderedDeployment);
    const c = out.spec.template.spec.containers[0];
    expect(c.livenessProbe.timeoutSeconds).toBe(1);
    expect(c.livenessProbe.httpGet.scheme).toBe('HTTP');
    expect(c.timeoutSeconds).toBeUndefined();
    expect(out.spec.timeoutSeconds).toBeUndefined();
    expect(out.spec.template.spec.volumes[1].emptyDir.defaultMode).toBeUndefined();
    expect(out.spec.template.spec.volumes[0].configMap.defaultMode).toBe(420);
    expect(isApiServerDefaulted(c.livenessProbe, 'timeoutSeconds')).toBe(true);
    expect(isApiServerDefaulted(c, 'name')).toBe(false);
    // the input is not modified
    expect(renderedDeployment.spec.template.spec.containers[0].imagePullPolicy).toBeUndefined();

    // a custom resource's embedded pod template gets no pod defaults (the API server fills none)
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'x' },
      spec: { podTemplate: { spec: { containers: [container()] } } },
    };
    const dcdOut = applyApiServerDefaults(dcd);
    expect(dcdOut.spec.podTemplate.spec.containers[0].imagePullPolicy).toBeUndefined();
    expect(dcdOut.spec.podTemplate.spec.dnsPolicy).toBeUndefined();
    const expectedDcd = { ...dcd, spec: { podTemplate: { spec: { containers: [{ ...container(), imagePullPolicy: 'IfNotPresent' }] } } } };
    expect(diffs(expectedDcd, dcd)).toEqual(['spec.podTemplate.spec.containers[0].imagePullPolicy: expected "IfNotPresent", got <absent>']);

    // a Deployment-only default is not applied to other workloads
    const sts = { apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 's' }, spec: { template: { spec: { containers: [] } } } };
    const stsOut = applyApiServerDefaults(sts);
    expect(stsOut.spec.progressDeadlineSeconds).toBeUndefined();
    expect(stsOut.spec.template.spec.dnsPolicy).toBe('ClusterFirst');
  });

  test('imagePullPolicy: Always for :latest and untagged images', () => {
    expect(defaultPullPolicy('nginx')).toBe('Always');
    expect(defaultPullPolicy('nginx:latest')).toBe('Always');
    expect(defaultPullPolicy('registry:5000/nginx')).toBe('Always');
    expect(defaultPullPolicy('registry:5000/nginx:1.2')).toBe('IfNotPresent');
    expect(defaultPullPolicy('nginx@sha256:abc')).toBe('IfNotPresent');
    const expected = deployment({ containers: [{ name: 'm', image: 'nginx:latest', imagePullPolicy: 'IfNotPresent' }] });
    expect(diffs(expected, deployment({ containers: [{ name: 'm', image: 'nginx:latest' }] })))
      .toEqual(['spec.template.spec.containers[0].imagePullPolicy: expected "IfNotPresent", got "Always"']);
  });

  test('serviceAccount mirrors serviceAccountName', () => {
    const expected = deployment({ containers: [], serviceAccount: 'sa', serviceAccountName: 'sa' });
    expect(diffs(expected, deployment({ containers: [], serviceAccountName: 'sa' }))).toEqual([]);
    expect(diffs(expected, deployment({ containers: [], serviceAccountName: 'other' }))).toHaveLength(2);
    expect(diffs(deployment({ containers: [], serviceAccount: 'sa' }), deployment({ containers: [] })))
      .toEqual(['spec.template.spec.serviceAccount: expected "sa", got <absent>']);
  });

  test('metadata.creationTimestamp: null', () => {
    expect(diffs(cm('a', {}, { metadata: { name: 'a', creationTimestamp: null } }), cm('a', {}))).toEqual([]);
    expect(diffs(cm('a', {}, { metadata: { name: 'a', creationTimestamp: null } }), cm('a', {}, { metadata: { name: 'a', creationTimestamp: '2026-01-01T00:00:00Z' } })))
      .toHaveLength(1);
  });

  test('LeaderWorkerSet templates and PodCliqueSet cliques get pod defaults', () => {
    const lws = {
      apiVersion: 'leaderworkerset.x-k8s.io/v1',
      kind: 'LeaderWorkerSet',
      metadata: { name: 'l' },
      spec: {
        leaderWorkerTemplate: {
          leaderTemplate: { spec: { containers: [container()] } },
          workerTemplate: { spec: { containers: [container()] } },
        },
      },
    };
    const lwsOut = applyApiServerDefaults(lws);
    expect(lwsOut.spec.leaderWorkerTemplate.leaderTemplate.spec.restartPolicy).toBe('Always');
    expect(lwsOut.spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].ports[0].protocol).toBe('TCP');
    const expectedLws = JSON.parse(JSON.stringify(lws));
    expectedLws.spec.leaderWorkerTemplate.leaderTemplate.spec.restartPolicy = 'Always';
    expect(diffs(expectedLws, lws)).toEqual([]);
    expectedLws.spec.leaderWorkerTemplate.leaderTemplate.spec.restartPolicy = 'Never';
    expect(diffs(expectedLws, lws)).toEqual(['spec.leaderWorkerTemplate.leaderTemplate.spec.restartPolicy: expected "Never", got "Always"']);

    const pcs = {
      apiVersion: 'grove.io/v1alpha1',
      kind: 'PodCliqueSet',
      metadata: { name: 'p' },
      spec: { template: { cliques: [{ name: 'a', spec: { podSpec: { containers: [container()] } } }] } },
    };
    const pcsOut = applyApiServerDefaults(pcs);
    expect(pcsOut.spec.template.cliques[0].spec.podSpec.containers[0].livenessProbe.periodSeconds).toBe(10);
    expect(pcsOut.spec.template.cliques[0].spec.podSpec.terminationGracePeriodSeconds).toBe(30);
  });

  test('Service defaults', () => {
    const rendered = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: { selector: { a: 'b' }, ports: [{ name: 'http', port: 8000 }] },
    };
    const live = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 's' },
      spec: {
        selector: { a: 'b' },
        ports: [{ name: 'http', port: 8000, protocol: 'TCP', targetPort: 8000 }],
        type: 'ClusterIP',
        sessionAffinity: 'None',
        internalTrafficPolicy: 'Cluster',
        ipFamilyPolicy: 'SingleStack',
        ipFamilies: ['IPv4'],
        clusterIP: '10.96.0.12',
        clusterIPs: ['10.96.0.12'],
      },
    };
    expect(diffs(live, rendered)).toEqual([]);
    // targetPort defaults to port, not to anything else
    const otherTarget = JSON.parse(JSON.stringify(live));
    otherTarget.spec.ports[0].targetPort = 'http';
    expect(diffs(otherTarget, rendered)).toEqual(['spec.ports[0].targetPort: expected "http", got 8000']);
    // a headless Service must say so: clusterIP None is not assigned by the API server
    const headless = JSON.parse(JSON.stringify(live));
    headless.spec.clusterIP = 'None';
    headless.spec.clusterIPs = ['None'];
    expect(diffs(headless, rendered)).toHaveLength(2);
    expect(diffs(headless, { ...rendered, spec: { ...rendered.spec, clusterIP: 'None' } })).toEqual([]);
    expect(applyApiServerDefaults(rendered).spec.clusterIP).toBeInstanceOf(ServerAssigned);
  });
});

describe('matchScenario', () => {
  test('one-to-one assignment, kinds not expected are ignored', () => {
    const expected = [cm('$glob:x-*', { v: '1' }), cm('$glob:x-*', { v: '2' })];
    const rendered = [cm('x-b', { v: '2' }), { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'ignored' } }, cm('x-a', { v: '1' })];
    expect(matchScenario(expected, rendered)).toEqual({ matched: true, differences: [] });
  });

  test('a surplus rendered object of an expected kind is reported by kind/name', () => {
    const result = matchScenario([cm('a', {})], [cm('a', {}), cm('b', {})]);
    expect(result.matched).toBe(false);
    expect(result.differences).toEqual(['ConfigMap/b: rendered but not expected (surplus v1 ConfigMap)']);
  });

  test('two expected documents cannot share one rendered object', () => {
    const result = matchScenario([cm('$glob:*', {}), cm('$glob:*', {})], [cm('a', {})]);
    expect(result.matched).toBe(false);
    expect(result.differences[0]).toMatch(/^ConfigMap\/\$glob:\*: no rendered object matches; closest is ConfigMap\/a, already matched/);
  });

  test('an unmatched expected document is reported with the closest candidate\'s differences', () => {
    const expected = [cm('a', { v: '1', w: '1' }), cm('b', { v: '1' })];
    const rendered = [cm('a', { v: '2', w: '1' }), cm('b', { v: '1' })];
    expect(matchScenario(expected, rendered).differences).toEqual([
      'ConfigMap/a: no rendered object matches; closest is ConfigMap/a',
      'ConfigMap/a: data.v: expected "1", got "2"',
    ]);
    // a surplus object that is nobody's closest candidate is reported on its own
    expect(matchScenario([cm('a', { v: '1' })], [cm('a', { v: '2' }), cm('z', { v: '9', w: '9' })]).differences).toEqual([
      'ConfigMap/a: no rendered object matches; closest is ConfigMap/a',
      'ConfigMap/a: data.v: expected "1", got "2"',
      'ConfigMap/z: rendered but not expected (surplus v1 ConfigMap)',
    ]);
  });

  test('a missing kind is reported', () => {
    const deploymentDoc = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } };
    expect(matchScenario([deploymentDoc], [cm('a', {})]).differences).toEqual(['Deployment/d: expected object not rendered (no Deployment was rendered)']);
  });

  test('the kinds option restricts the assertion', () => {
    const deploymentDoc = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } };
    expect(matchScenario([deploymentDoc, cm('a', {})], [cm('a', {})], { kinds: [{ apiVersion: 'v1', kind: 'ConfigMap' }] }).matched).toBe(true);
    expect(matchScenario([deploymentDoc, cm('a', {})], [cm('b', {})], { kinds: [{ apiVersion: 'v1', kind: 'ConfigMap' }] }).matched).toBe(false);
  });

  test('apiVersion is part of the kind', () => {
    const expected = [{ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'd' } }];
    const result = matchScenario(expected, [{ apiVersion: 'extensions/v1beta1', kind: 'Deployment', metadata: { name: 'd' } }]);
    expect(result.matched).toBe(false);
  });

  test('$var bindings hold across the documents of a scenario', () => {
    const expected = [
      cm('$glob:worker-*', { hash: '$var:h' }),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { suffix: '$var:h' } },
    ];
    const secret = (suffix: string) => ({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { suffix } });
    expect(matchScenario(expected, [cm('worker-1', { hash: 'abc' }), secret('abc')]).matched).toBe(true);
    const result = matchScenario(expected, [cm('worker-1', { hash: 'abc' }), secret('abd')]);
    expect(result.matched).toBe(false);
    expect(result.differences.join('\n')).toMatch(/expected "ab[cd]" \(\$var:h\), got "ab[dc]"/);
  });

  test('the assignment search respects $var bindings (backtracking)', () => {
    // Each ConfigMap expectation alone matches both rendered ConfigMaps; only the pairing the
    // Secret's bindings allow (first expectation -> x-b, second -> x-a) is consistent.
    const expected = [
      cm('$glob:x-*', { hash: '$var:h' }),
      cm('$glob:x-*', { hash: '$var:g' }),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { h: '$var:h', g: '$var:g' } },
    ];
    const rendered = [
      cm('x-a', { hash: '1' }),
      cm('x-b', { hash: '2' }),
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, data: { h: '2', g: '1' } },
    ];
    expect(matchScenario(expected, rendered)).toEqual({ matched: true, differences: [] });
    // both expectations bound to the same variable cannot take two different values
    const same = [cm('$glob:x-*', { hash: '$var:h' }), cm('$glob:x-*', { hash: '$var:h' })];
    expect(matchScenario(same, rendered.slice(0, 2)).matched).toBe(false);
    expect(matchScenario(same, [cm('x-a', { hash: '1' }), cm('x-b', { hash: '1' })]).matched).toBe(true);
  });

  test('null documents are dropped; malformed expected documents are reported', () => {
    expect(matchScenario([null, cm('a', {})], [cm('a', {})]).matched).toBe(true);
    expect(matchScenario([{ kind: 'X' }], []).differences).toEqual(['expected document #1: not an object with a string apiVersion and kind']);
  });
});

// ---------------------------------------------------------------------------------------------
// The real golden: dgd/components, against hand-made rendered objects
// ---------------------------------------------------------------------------------------------

const COMPONENTS_OUTPUT = CONFORMANCE_DIR ? path.join(CONFORMANCE_DIR, 'dgd', 'components', 'output.yaml') : '';
const withGolden = describeNeeding('conformance');

withGolden('golden dgd/components', () => {
  const NS = 'clusterenv-conformance';
  const HASH = '1a2b3c4d';
  const DYN_NS = `${NS}-component-manifests`;
  const DCD_KIND = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment' };

  function golden(): any[] {
    return parseAllDocuments(fs.readFileSync(COMPONENTS_OUTPUT, 'utf8'))
      .map((d: any) => d.toJS())
      .filter((d: any) => d !== null && d !== undefined);
  }

  function dcd(name: string, component: string, replicas: number, image: string, labels?: Record<string, string>): any {
    return {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: {
        name,
        namespace: NS,
        labels: { 'nvidia.com/dynamo-graph-deployment-name': 'component-manifests' },
        ownerReferences: [{ apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', name: 'component-manifests' }],
      },
      spec: {
        backendFramework: 'vllm',
        name: component,
        podTemplate: {
          metadata: {
            annotations: { 'nvidia.com/dynamo-operator-origin-version': '1.4.0' },
            ...(labels ? { labels } : {}),
          },
          spec: { containers: [{ image, name: 'main' }] },
        },
        replicas,
        type: component,
      },
    };
  }

  function renderedDcds(): any[] {
    return [
      dcd('component-manifests-frontend', 'frontend', 1, 'registry.example/dynamo-frontend:1.4.0-test'),
      dcd(`component-manifests-decode-${HASH}`, 'decode', 2, 'registry.example/dynamo-worker:1.4.0-test', { 'nvidia.com/dynamo-worker-hash': HASH }),
    ];
  }

  function fieldRefEnv(name: string, fieldPath: string): any {
    return { name, valueFrom: { fieldRef: { fieldPath } } };
  }

  /** The decode Deployment as a renderer writes it: no API-server defaults. */
  function renderedDecodeDeployment(): any {
    const selector = `component-manifests-decode-${HASH}`;
    return {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: selector, namespace: NS, labels: { 'nvidia.com/selector': selector } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { 'nvidia.com/selector': selector } },
        template: {
          metadata: {
            labels: {
              'nvidia.com/dynamo-component': 'decode',
              'nvidia.com/dynamo-component-type': 'decode',
              'nvidia.com/dynamo-discovery-backend': 'kubernetes',
              'nvidia.com/dynamo-discovery-enabled': 'true',
              'nvidia.com/dynamo-graph-deployment-name': 'component-manifests',
              'nvidia.com/dynamo-namespace': DYN_NS,
              'nvidia.com/dynamo-sub-component-type': 'decode',
              'nvidia.com/dynamo-worker-hash': HASH,
              'nvidia.com/metrics-enabled': 'true',
              'nvidia.com/selector': selector,
            },
          },
          spec: {
            containers: [{
              command: ['/bin/sh', '-c'],
              env: [
                { name: 'DYN_COMPONENT', value: 'decode' },
                { name: 'DYN_DISCOVERY_BACKEND', value: 'kubernetes' },
                { name: 'DYN_FORWARDPASS_METRIC_PORT', value: '20380' },
                { name: 'DYN_HEALTH_CHECK_ENABLED', value: 'false' },
                { name: 'DYN_NAMESPACE', value: DYN_NS },
                { name: 'DYN_NAMESPACE_WORKER_SUFFIX', value: HASH },
                { name: 'DYN_PARENT_DGD_K8S_NAME', value: 'component-manifests' },
                { name: 'DYN_PARENT_DGD_K8S_NAMESPACE', value: NS },
                { name: 'DYN_SYSTEM_ENABLED', value: 'true' },
                { name: 'DYN_SYSTEM_PORT', value: '9090' },
                { name: 'DYN_SYSTEM_USE_ENDPOINT_HEALTH_STATUS', value: '["generate"]' },
                { name: 'NIXL_TELEMETRY_ENABLE', value: 'n' },
                { name: 'NIXL_TELEMETRY_EXPORTER', value: 'prometheus' },
                { name: 'NIXL_TELEMETRY_PROMETHEUS_PORT', value: '19090' },
                fieldRefEnv('POD_NAME', 'metadata.name'),
                fieldRefEnv('POD_NAMESPACE', 'metadata.namespace'),
                fieldRefEnv('POD_UID', 'metadata.uid'),
              ],
              image: 'registry.example/dynamo-worker:1.4.0-test',
              livenessProbe: { failureThreshold: 1, httpGet: { path: '/live', port: 'system' }, periodSeconds: 5, timeoutSeconds: 4 },
              name: 'main',
              ports: [{ containerPort: 9090, name: 'system' }, { containerPort: 19090, name: 'nixl' }],
              readinessProbe: { failureThreshold: 3, httpGet: { path: '/health', port: 'system' }, periodSeconds: 10, timeoutSeconds: 4 },
              startupProbe: { failureThreshold: 720, httpGet: { path: '/live', port: 'system' }, periodSeconds: 10, timeoutSeconds: 5 },
              volumeMounts: [{ mountPath: '/dev/shm', name: 'shared-memory' }],
            }],
            securityContext: { fsGroup: 1000 },
            serviceAccountName: 'component-manifests-k8s-service-discovery',
            terminationGracePeriodSeconds: 60,
            volumes: [{ emptyDir: { medium: 'Memory', sizeLimit: '8Gi' }, name: 'shared-memory' }],
          },
        },
      },
    };
  }

  test('the hand-made DCDs match the golden DCDs', () => {
    const result = matchScenario(golden(), renderedDcds(), { kinds: [DCD_KIND] });
    expect(result).toEqual({ matched: true, differences: [] });
    // the order of the rendered objects does not matter
    expect(matchScenario(golden(), renderedDcds().reverse(), { kinds: [DCD_KIND] }).matched).toBe(true);
  });

  test('without the kinds option the golden Deployments are required too', () => {
    const result = matchScenario(golden(), renderedDcds());
    expect(result.matched).toBe(false);
    expect(result.differences).toEqual([
      'Deployment/$glob:component-manifests-decode-*: expected object not rendered (no Deployment was rendered)',
      'Deployment/component-manifests-frontend: expected object not rendered (no Deployment was rendered)',
    ]);
  });

  test('changing one field of a DCD fails with a difference naming its path', () => {
    const rendered = renderedDcds();
    rendered[1].spec.replicas = 3;
    const result = matchScenario(golden(), rendered, { kinds: [DCD_KIND] });
    expect(result.matched).toBe(false);
    expect(result.differences).toContain(`DynamoComponentDeployment/component-manifests-decode-${HASH}: spec.replicas: expected 2, got 3`);
  });

  test('an extra field in a strict golden mapping fails', () => {
    const rendered = renderedDcds();
    rendered[0].spec.podTemplate.spec.containers[0].resources = { limits: { cpu: '1' } };
    const result = matchScenario(golden(), rendered, { kinds: [DCD_KIND] });
    expect(result.differences).toContain(
      'DynamoComponentDeployment/component-manifests-frontend: spec.podTemplate.spec.containers[0].resources: expected <absent>, got {"limits":{"cpu":"1"}}',
    );
  });

  test('$pattern and $glob in the golden are enforced', () => {
    const rendered = renderedDcds();
    rendered[0].spec.podTemplate.metadata.annotations['nvidia.com/dynamo-operator-origin-version'] = '1.5.0';
    rendered[1].metadata.name = 'component-manifests-prefill-1a2b3c4d';
    const result = matchScenario(golden(), rendered, { kinds: [DCD_KIND] });
    expect(result.matched).toBe(false);
    const text = result.differences.join('\n');
    expect(text).toContain('spec.podTemplate.metadata.annotations["nvidia.com/dynamo-operator-origin-version"]: expected $pattern:1\\.4\\..*, got "1.5.0"');
    expect(text).toContain('metadata.name: expected $glob:component-manifests-decode-*, got "component-manifests-prefill-1a2b3c4d"');
  });

  test('the decode Deployment (API-server defaults omitted) matches, with the worker hash bound across kinds', () => {
    const docs = golden();
    const expectedDcd = docs.find((d) => d.kind === 'DynamoComponentDeployment' && d.spec.name === 'decode');
    const expectedDeployment = docs.find((d) => d.kind === 'Deployment' && String(d.metadata.name).includes('decode'));
    const dcdMatch = matchDocument(expectedDcd, applyApiServerDefaults(renderedDcds()[1]));
    expect(dcdMatch.differences).toEqual([]);
    expect(dcdMatch.bindings.get('worker-hash')).toBe(HASH);

    const ok = matchDocument(expectedDeployment, applyApiServerDefaults(renderedDecodeDeployment()), dcdMatch.bindings);
    expect(ok.differences).toEqual([]);

    // a worker suffix that differs from the DCD's hash breaks the $var binding
    const wrongSuffix = renderedDecodeDeployment();
    wrongSuffix.spec.template.spec.containers[0].env[5].value = 'ffffffff';
    expect(matchDocument(expectedDeployment, applyApiServerDefaults(wrongSuffix), dcdMatch.bindings).differences).toEqual([
      `spec.template.spec.containers[0].env[5].value: expected "${HASH}" ($var:worker-hash), got "ffffffff"`,
    ]);

    // a default the golden shows must not be contradicted
    const wrongPolicy = renderedDecodeDeployment();
    wrongPolicy.spec.template.spec.containers[0].readinessProbe.successThreshold = 2;
    expect(matchDocument(expectedDeployment, applyApiServerDefaults(wrongPolicy), dcdMatch.bindings).differences).toEqual([
      'spec.template.spec.containers[0].readinessProbe.successThreshold: expected 1, got 2',
    ]);

    // the golden's own values are strict: an explicit grace period of 30 is not the golden's 60
    const wrongGrace = renderedDecodeDeployment();
    delete wrongGrace.spec.template.spec.terminationGracePeriodSeconds;
    expect(matchDocument(expectedDeployment, applyApiServerDefaults(wrongGrace), dcdMatch.bindings).differences).toEqual([
      'spec.template.spec.terminationGracePeriodSeconds: expected 60, got 30',
    ]);
  });
});
