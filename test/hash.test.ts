import { createHash } from 'node:crypto';
import {
  computeWorkerHash, goSliceStable, goSortKeys, lastAppliedContent, lastAppliedHash, lastAppliedHashInput,
  sha256Hex, workerHashInput,
} from '../src/engine';
import { canonicalQuantity, formatGoDuration, formatGoFloat, goJsonEncode, goQuote, parseGoDuration, QuantityParseError } from '../src/go';

const EMPTY_OBJECT_SHA256 = '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a';

describe('documented constants', () => {
  test('sha256Hex', () => {
    expect(sha256Hex('{}')).toBe(EMPTY_OBJECT_SHA256);
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  test('worker hash without worker components', () => {
    expect(workerHashInput({})).toBe('{}');
    expect(computeWorkerHash({})).toBe('44136fa3');
  });

  test('last-applied hash of a ServiceAccount (no content)', () => {
    const sa = { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'planner-serviceaccount', namespace: 'ns' } };
    expect(lastAppliedHash(sa)).toBe(EMPTY_OBJECT_SHA256);
    // the same without a typed layout (unstructured)
    expect(lastAppliedHash(sa, { layout: null })).toBe(EMPTY_OBJECT_SHA256);
  });
});

describe('upstream golden value', () => {
  // Expected value: deploy/operator/api/v1beta1/worker_hash_test.go (ai-dynamo/dynamo,
  // TestComputeDGDWorkersSpecHashDeterministic). Input layout: the v2 hash-input structs of
  // deploy/operator/api/v1beta1/worker_hash.go at the version without a per-worker `type` field.
  // It exercises PodTemplateSpec/ObjectMeta/PodSpec/Container/EnvVar encoding: `metadata:{}` with
  // no `creationTimestamp` (omitzero in k8s.io/apimachinery >= 0.34) and `resources:{}`.
  const types = {
    V2Input: 'version:s backendFramework?:s env?:[]EnvVar workers?:{}V2Worker',
    V2Worker: 'globalDynamoNamespace?:b podTemplate?:*PodTemplateSpec multinode?:*MultinodeSpec sharedMemorySize?:*q frontendSidecar?:*s compilationCache?:*CompilationCacheConfig experimental?:*ExperimentalSpec',
  };
  const input = {
    version: 'dgd-worker-rollout-v2',
    workers: {
      worker: {
        podTemplate: { spec: { containers: [{ name: 'main', image: 'worker:latest', env: [{ name: 'FOO', value: 'bar' }] }] } },
      },
    },
  };

  test('DGD worker hash golden 2bc34b39', () => {
    const json = goJsonEncode(input, 'V2Input', { types });
    expect(json).toBe(
      '{"version":"dgd-worker-rollout-v2","workers":{"worker":{"podTemplate":{"metadata":{},"spec":{"containers":'
      + '[{"name":"main","image":"worker:latest","env":[{"name":"FOO","value":"bar"}],"resources":{}}]}}}}}',
    );
    expect(sha256Hex(json).slice(0, 8)).toBe('2bc34b39');
  });
});

describe('goJsonEncode: struct field order', () => {
  test('Container fields follow Go declaration order, not input order', () => {
    const c = {
      tty: true,
      volumeMounts: [{ mountPath: '/dev/shm', name: 'shared-memory' }],
      env: [{ value: '1', name: 'A' }],
      ports: [{ protocol: 'TCP', containerPort: 9090, name: 'system' }],
      image: 'img:1',
      command: ['python3'],
      name: 'main',
    };
    expect(goJsonEncode(c, 'Container')).toBe(
      '{"name":"main","image":"img:1","command":["python3"],"ports":[{"name":"system","containerPort":9090,"protocol":"TCP"}],'
      + '"env":[{"name":"A","value":"1"}],"resources":{},"volumeMounts":[{"name":"shared-memory","mountPath":"/dev/shm"}],"tty":true}',
    );
  });

  test('DCD spec: backendFramework first, then the inlined shared spec in Go order', () => {
    const spec = {
      sharedMemorySize: '8Gi',
      replicas: 2,
      podTemplate: { spec: { containers: [{ name: 'main', image: 'img' }] } },
      type: 'worker',
      name: 'VllmWorker',
      backendFramework: 'vllm',
      globalDynamoNamespace: true,
      runtimeVersionOverride: '1.5.0',
      experimental: { gpuMemoryService: { mode: 'IntraPod' } },
      compilationCache: { mountPath: '/c', pvcName: 'cache' },
      frontendSidecar: 'fe',
      scalingAdapter: {},
      modelRef: { revision: 'r', name: 'm' },
      multinode: { nodeCount: 2 },
      minAvailable: 1,
    };
    expect(goJsonEncode(spec, 'DynamoComponentDeploymentSpec')).toBe(
      '{"backendFramework":"vllm","name":"VllmWorker","type":"worker","runtimeVersionOverride":"1.5.0",'
      + '"globalDynamoNamespace":true,"podTemplate":{"metadata":{},"spec":{"containers":[{"name":"main","image":"img","resources":{}}]}},'
      + '"replicas":2,"minAvailable":1,"multinode":{"nodeCount":2},"sharedMemorySize":"8Gi","modelRef":{"name":"m","revision":"r"},'
      + '"scalingAdapter":{},"frontendSidecar":"fe","compilationCache":{"pvcName":"cache","mountPath":"/c"},'
      + '"experimental":{"gpuMemoryService":{"mode":"IntraPod"}}}',
    );
  });

  test('embedded structs are promoted in place (probe handler, volume source, key selectors)', () => {
    expect(goJsonEncode({ periodSeconds: 5, httpGet: { port: 'system', path: '/live' }, failureThreshold: 3 }, 'Probe'))
      .toBe('{"httpGet":{"path":"/live","port":"system"},"periodSeconds":5,"failureThreshold":3}');
    expect(goJsonEncode({ emptyDir: { sizeLimit: '8Gi', medium: 'Memory' }, name: 'shared-memory' }, 'Volume'))
      .toBe('{"name":"shared-memory","emptyDir":{"medium":"Memory","sizeLimit":"8Gi"}}');
    expect(goJsonEncode({ key: 'token', name: 'hf-secret' }, 'SecretKeySelector')).toBe('{"name":"hf-secret","key":"token"}');
  });

  test('ObjectMeta: labels before annotations, map keys sorted byte-wise', () => {
    const meta = { annotations: { b: '1', a: '2' }, labels: { 'nvidia.com/z': 'z', 'Nvidia': 'N', 'nvidia_x': 'u', 'a': 'a' } };
    expect(goJsonEncode(meta, 'ObjectMeta')).toBe(
      '{"labels":{"Nvidia":"N","a":"a","nvidia.com/z":"z","nvidia_x":"u"},"annotations":{"a":"2","b":"1"}}',
    );
  });

  test('map keys sort by UTF-8 bytes (astral characters after U+FFxx)', () => {
    expect(goJsonEncode({ '\u{1F600}': 1, '\uFF21': 2, 'z': 3 }, '{}i')).toBe('{"z":3,"\uFF21":2,"\u{1F600}":1}');
  });
});

describe('goJsonEncode: omitempty, omitzero and zero values', () => {
  test('empty omitempty fields are dropped, set pointers to zero are kept', () => {
    const spec = { replicas: 0, paused: false, minReadySeconds: 0, revisionHistoryLimit: 0, template: {} };
    expect(goJsonEncode(spec, 'DeploymentSpec')).toBe(
      '{"replicas":0,"selector":null,"template":{"metadata":{},"spec":{"containers":null}},"strategy":{},"revisionHistoryLimit":0}',
    );
  });

  test('fields without omitempty are written as their zero value', () => {
    expect(goJsonEncode({}, 'ContainerPort')).toBe('{"containerPort":0}');
    expect(goJsonEncode({ image: 'x' }, 'Container')).toBe('{"name":"","image":"x","resources":{}}');
    expect(goJsonEncode({ name: 'a' }, 'EnvVar')).toBe('{"name":"a"}');
    expect(goJsonEncode({ name: 'a', value: '' }, 'EnvVar')).toBe('{"name":"a"}');
  });

  test('empty slices and maps are dropped, null equals absent', () => {
    expect(goJsonEncode({ name: 'c', command: [], env: null, args: ['x'] }, 'Container'))
      .toBe('{"name":"c","args":["x"],"resources":{}}');
    expect(goJsonEncode({ labels: {}, annotations: { a: 'b' } }, 'ObjectMeta')).toBe('{"annotations":{"a":"b"}}');
  });

  test('pointer-to-empty-struct is kept (scalingAdapter: {} marker)', () => {
    expect(goJsonEncode({ name: 'x', scalingAdapter: {} }, 'DynamoComponentDeploymentSpec')).toBe('{"name":"x","scalingAdapter":{}}');
    expect(goJsonEncode({ name: 'x' }, 'DynamoComponentDeploymentSpec')).toBe('{"name":"x"}');
  });

  test('creationTimestamp is omitzero: absent/null dropped, set values normalised to UTC seconds', () => {
    expect(goJsonEncode({ creationTimestamp: null, name: 'n' }, 'ObjectMeta')).toBe('{"name":"n"}');
    expect(goJsonEncode({ creationTimestamp: '2026-08-21T12:30:05.123+02:00' }, 'ObjectMeta'))
      .toBe('{"creationTimestamp":"2026-08-21T10:30:05Z"}');
  });

  test('IntOrString keeps its kind', () => {
    expect(goJsonEncode({ port: 8080 }, 'TCPSocketAction')).toBe('{"port":8080}');
    expect(goJsonEncode({ port: '8080' }, 'TCPSocketAction')).toBe('{"port":"8080"}');
    expect(goJsonEncode({}, 'TCPSocketAction')).toBe('{"port":0}');
    expect(goJsonEncode({ port: 80 }, 'ServicePort')).toBe('{"port":80,"targetPort":0}');
  });

  test('wrong wire types are rejected rather than guessed', () => {
    expect(() => goJsonEncode({ containerPort: '80' }, 'ContainerPort')).toThrow(/containerPort: expected an integer/);
    expect(() => goJsonEncode({ name: 1 }, 'EnvVar')).toThrow(/name: expected a string/);
    expect(() => goJsonEncode({}, 'NoSuchStruct')).toThrow(/unknown Go type/);
  });
});

describe('goJsonEncode: unknown fields and untyped values', () => {
  test('keys unknown to a layout are appended in sorted order and reported', () => {
    const seen: string[] = [];
    const json = goJsonEncode({ zeta: 1, name: 'a', alpha: { y: 1, x: 2 } }, 'EnvVar', {
      onUnknownField: (path, key) => seen.push(`${path}:${key}`),
    });
    expect(json).toBe('{"name":"a","alpha":{"x":2,"y":1},"zeta":1}');
    expect(seen).toEqual(['$:alpha', '$:zeta']);
    expect(goJsonEncode({ zeta: 1, name: 'a' }, 'EnvVar', { unknownFields: 'drop' })).toBe('{"name":"a"}');
    expect(() => goJsonEncode({ zeta: 1 }, 'EnvVar', { unknownFields: 'error' })).toThrow(/zeta/);
  });

  test('keys match struct fields case-insensitively, as in Go', () => {
    expect(goJsonEncode({ Name: 'a', VALUE: 'b' }, 'EnvVar')).toBe('{"name":"a","value":"b"}');
  });

  test('untyped values: sorted keys, Go float64 numbers', () => {
    expect(goJsonEncode({ b: [1e21, 1e-7, 0.000001, 100, 1.5, -0], a: null, c: true }))
      .toBe('{"a":null,"b":[1e+21,1e-7,0.000001,100,1.5,-0],"c":true}');
  });

  test('raw JSON fields (providerOverride.value) are written with sorted keys', () => {
    expect(goJsonEncode({ value: { z: 1, a: { c: 2, b: 1 } }, apiVersion: 'grove.io/v1alpha1' }, 'ProviderOverride'))
      .toBe('{"apiVersion":"grove.io/v1alpha1","value":{"a":{"b":1,"c":2},"z":1}}');
  });
});

describe('goJsonEncode: string escaping', () => {
  test('HTML characters, line separators and control characters', () => {
    expect(goQuote('<a href="x">&amp;</a>')).toBe('"\\u003ca href=\\"x\\"\\u003e\\u0026amp;\\u003c/a\\u003e"');
    expect(goQuote('a\u2028b\u2029c')).toBe('"a\\u2028b\\u2029c"');
    expect(goQuote('\b\f\n\r\t\u0001\u001f\\')).toBe('"\\b\\f\\n\\r\\t\\u0001\\u001f\\\\"');
    expect(goQuote('\u007f é 😀')).toBe('"\u007f é 😀"');
    expect(goQuote('x\ud800y')).toBe('"x\ufffdy"');
  });

  test('escaping applies to keys and values inside encoded objects', () => {
    expect(goJsonEncode({ name: 'CMD', value: 'a && b > c' }, 'EnvVar')).toBe('{"name":"CMD","value":"a \\u0026\\u0026 b \\u003e c"}');
  });
});

describe('resource.Quantity canonical form', () => {
  test.each([
    ['8Gi', '8Gi'],
    [1, '1'],
    ['1', '1'],
    [0.5, '500m'],
    ['0.5', '500m'],
    ['1000', '1k'],
    ['1000m', '1'],
    ['1500m', '1500m'],
    ['2000m', '2'],
    ['1.5k', '1500'],
    ['1024Mi', '1Gi'],
    ['1536Mi', '1536Mi'],
    ['1.5Gi', '1536Mi'],
    ['0.5Gi', '512Mi'],
    ['100Gi', '100Gi'],
    ['16Gi', '16Gi'],
    ['1025Ki', '1025Ki'],
    ['0.1Ki', '102400m'],
    ['1e3', '1e3'],
    ['12e6', '12e6'],
    ['1e-12', '1e-9'],
    ['1.5n', '2n'],
    ['+1', '+1'],
    ['-1', '-1'],
    ['0', '0'],
    ['00', '0'],
    ['0Gi', '0'],
    ['8Ei', '9223372036854775807'],
    [' 2Gi ', '2Gi'],
  ])('%p -> %p', (input, expected) => {
    expect(canonicalQuantity(input as string | number)).toBe(expected);
  });

  test('invalid quantities are rejected', () => {
    expect(() => canonicalQuantity('1GB')).toThrow(QuantityParseError);
    expect(() => canonicalQuantity('abc')).toThrow(QuantityParseError);
    expect(() => canonicalQuantity('')).toThrow(QuantityParseError);
  });

  test('quantities inside resource lists are canonicalised', () => {
    expect(goJsonEncode({ limits: { 'nvidia.com/gpu': 1, 'memory': '2048Mi', 'cpu': '4000m' }, requests: { cpu: 0.25 } }, 'ResourceRequirements'))
      .toBe('{"limits":{"cpu":"4","memory":"2Gi","nvidia.com/gpu":"1"},"requests":{"cpu":"250m"}}');
  });
});

describe('Go number and duration formatting', () => {
  test('float32 uses the shortest float32 digits', () => {
    expect(formatGoFloat(0.1, 32)).toBe('0.1');
    expect(formatGoFloat(0.1, 64)).toBe('0.1');
    expect(formatGoFloat(1 / 3, 32)).toBe('0.33333334');
    expect(formatGoFloat(1e21, 64)).toBe('1e+21');
  });

  test('metav1.Duration is rewritten in Go duration syntax', () => {
    expect(formatGoDuration(parseGoDuration('60s'))).toBe('1m0s');
    expect(formatGoDuration(parseGoDuration('1.5h'))).toBe('1h30m0s');
    expect(formatGoDuration(parseGoDuration('100ms'))).toBe('100ms');
    expect(formatGoDuration(parseGoDuration('1500us'))).toBe('1.5ms');
    expect(formatGoDuration(parseGoDuration('0'))).toBe('0s');
    expect(goJsonEncode({ metricsStalenessThreshold: '200ms', queueDepthThreshold: 5 }, 'SaturationDetector'))
      .toBe('{"queueDepthThreshold":5,"metricsStalenessThreshold":"200ms"}');
    expect(() => parseGoDuration('5 minutes')).toThrow();
  });
});

describe('worker hash records', () => {
  test('records in sorted key order, fields labels/annotations/runtimeVersion/spec with omitempty', () => {
    const records = {
      VllmPrefillWorker: { spec: { name: 'VllmPrefillWorker', type: 'prefill' } },
      VllmDecodeWorker: {
        labels: {},
        annotations: { 'nvidia.com/enable-metrics': 'true' },
        runtimeVersion: '1.5.0',
        spec: { type: 'decode', name: 'VllmDecodeWorker', podTemplate: { metadata: { labels: { b: '2', a: '1' } } } },
      },
    };
    const expected = '{"VllmDecodeWorker":{"annotations":{"nvidia.com/enable-metrics":"true"},"runtimeVersion":"1.5.0",'
      + '"spec":{"name":"VllmDecodeWorker","type":"decode","podTemplate":{"metadata":{"labels":{"a":"1","b":"2"}},"spec":{"containers":null}}}},'
      + '"VllmPrefillWorker":{"spec":{"name":"VllmPrefillWorker","type":"prefill"}}}';
    expect(workerHashInput(records)).toBe(expected);
    expect(computeWorkerHash(records)).toBe(createHash('sha256').update(expected).digest('hex').slice(0, 8));
  });

  test('the spec is not cleaned of empty structs (unlike the DCD object itself)', () => {
    const input = workerHashInput({ w: { spec: { name: 'w', podTemplate: { spec: { containers: [{ name: 'main' }] } } } } });
    expect(input).toBe('{"w":{"spec":{"name":"w","podTemplate":{"metadata":{},"spec":{"containers":[{"name":"main","resources":{}}]}}}}}');
  });

  test('a label change changes the hash', () => {
    const base = { w: { labels: { 'nvidia.com/dynamo-namespace': 'ns-a' }, spec: { name: 'w' } } };
    const other = { w: { labels: { 'nvidia.com/dynamo-namespace': 'ns-b' }, spec: { name: 'w' } } };
    expect(computeWorkerHash(base)).not.toBe(computeWorkerHash(other));
    expect(computeWorkerHash(base)).toMatch(/^[0-9a-f]{8}$/);
  });
});

describe('last-applied hash', () => {
  const deployment = (env: Array<{ name: string; value: string }>, extra: Record<string, unknown> = {}) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd', namespace: 'default' },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'nim' } },
      template: {
        metadata: { labels: { app: 'nim' } },
        spec: { containers: [{ name: 'nim', image: 'nim:v0.1.0', ports: [{ containerPort: 80 }], env }] },
      },
    },
    ...extra,
  });

  test('typed Deployment content: Go zero values added, keys sorted, arrays of objects sorted by name', () => {
    const d = deployment([{ name: 'ENV_VAR2', value: 'value2' }, { name: 'ENV_VAR1', value: 'value1' }]);
    expect(lastAppliedHashInput(d)).toBe(
      '{"replicas":2,"selector":{"matchLabels":{"app":"nim"}},"strategy":{},"template":{"metadata":{"labels":{"app":"nim"}},'
      + '"spec":{"containers":[{"env":[{"name":"ENV_VAR1","value":"value1"},{"name":"ENV_VAR2","value":"value2"}],'
      + '"image":"nim:v0.1.0","name":"nim","ports":[{"containerPort":80}],"resources":{}}]}}}',
    );
  });

  test('env order, metadata and status do not change the hash; values do', () => {
    const a = deployment([{ name: 'ENV_VAR1', value: 'value1' }, { name: 'ENV_VAR2', value: 'value2' }]);
    const b = deployment([{ name: 'ENV_VAR2', value: 'value2' }, { name: 'ENV_VAR1', value: 'value1' }], {
      metadata: { name: 'd', namespace: 'default', labels: { x: 'y' } },
      status: { readyReplicas: 1 },
    });
    const c = deployment([{ name: 'ENV_VAR1', value: 'other' }, { name: 'ENV_VAR2', value: 'value2' }]);
    expect(lastAppliedHash(a)).toBe(lastAppliedHash(b));
    expect(lastAppliedHash(a)).not.toBe(lastAppliedHash(c));
    expect(lastAppliedHash(a)).toMatch(/^[0-9a-f]{64}$/);
  });

  test('arrays of objects without names are sorted by their alphabetically first key', () => {
    expect(goSortKeys([{ z: 1 }, { b: 2, y: 0 }, { c: 3 }])).toEqual([{ b: 2, y: 0 }, { c: 3 }, { z: 1 }]);
    // ties keep their order (stable)
    expect(goSortKeys([{ k: 2 }, { k: 1 }, { a: 0 }])).toEqual([{ a: 0 }, { k: 2 }, { k: 1 }]);
  });

  test('objects with and without name in one array follow the pairwise rule', () => {
    // {x} vs {name:b}: first keys "x" vs "name"; {name:a} vs {x}: "name" < "x"; names compare as names.
    expect(goSortKeys([{ name: 'b' }, { x: 1 }, { name: 'a' }])).toEqual([{ name: 'a' }, { name: 'b' }, { x: 1 }]);
  });

  test('arrays of scalars, and arrays whose first element is not an object, keep their order', () => {
    expect(goSortKeys({ args: ['--b', '--a'], mixed: ['s', { name: 'b' }, { name: 'a' }] }))
      .toEqual({ args: ['--b', '--a'], mixed: ['s', { name: 'b' }, { name: 'a' }] });
  });

  test('nested arrays are sorted too, after the outer sort', () => {
    expect(goSortKeys([{ name: 'b', items: [{ name: 'y' }, { name: 'x' }] }, { name: 'a' }]))
      .toEqual([{ name: 'a' }, { name: 'b', items: [{ name: 'x' }, { name: 'y' }] }]);
  });

  test('goSliceStable matches a stable sort on long arrays (merge path)', () => {
    const items = Array.from({ length: 137 }, (_, i) => ({ name: `n${(i * 37) % 23}`, i }));
    const expected = [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const got = [...items];
    goSliceStable(got, (a, b) => a.name < b.name);
    expect(got.map(x => x.i)).toEqual(expected.map(x => x.i));
  });

  test('spec-less kinds hash their non-envelope fields', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { 'b.sh': 'echo <b>', 'a.sh': 'echo a' } };
    expect(lastAppliedHashInput(cm)).toBe('{"data":{"a.sh":"echo a","b.sh":"echo \\u003cb\\u003e"}}');
    const role = {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'Role',
      metadata: { name: 'r' },
      rules: [{ verbs: ['get'], resources: ['pods'], apiGroups: [''] }],
    };
    expect(lastAppliedHashInput(role)).toBe('{"rules":[{"apiGroups":[""],"resources":["pods"],"verbs":["get"]}]}');
    expect(lastAppliedHashInput({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r' } })).toBe('{"rules":null}');
  });

  test('DynamoComponentDeployment content drops value-struct {} but keeps pointer {} markers', () => {
    const dcd = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoComponentDeployment',
      metadata: { name: 'g-w' },
      spec: { name: 'w', scalingAdapter: {}, podTemplate: { metadata: {}, spec: { containers: [{ name: 'main', resources: {} }] } } },
    };
    expect(lastAppliedContent(dcd)).toEqual({ name: 'w', scalingAdapter: {}, podTemplate: { spec: { containers: [{ name: 'main' }] } } });
    expect(lastAppliedHashInput(dcd)).toBe('{"name":"w","podTemplate":{"spec":{"containers":[{"name":"main"}]}},"scalingAdapter":{}}');
  });

  test('unstructured kinds are hashed as given', () => {
    const vs = { apiVersion: 'networking.istio.io/v1beta1', kind: 'VirtualService', metadata: { name: 'v' }, spec: { hosts: ['h'], http: [{ route: [{ destination: { host: 'x' } }] }] } };
    expect(lastAppliedHashInput(vs)).toBe('{"hosts":["h"],"http":[{"route":[{"destination":{"host":"x"}}]}]}');
    expect(lastAppliedHash(vs)).toBe(sha256Hex('{"hosts":["h"],"http":[{"route":[{"destination":{"host":"x"}}]}]}'));
  });
});
