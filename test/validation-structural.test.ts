/**
 * The structural schema check on ajv (src/admission/structural/): each keyword of the CRD
 * structural schemas the API server honours, with a failing and a passing case and the exact
 * API-server message (docs/design/validation-rules.md, the schema rows).
 */
import { corpusFiles } from './support/shared';
import { DCD_V1BETA1_SCHEMA, DGD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS } from '../imports/nvidia.com.schema';
import {
  applyAjvDefaults, applySchemaDefaults, applyStoredDefaults, checkCompiled, checkStructure,
  compileCrdSchema, compiledDocumentSchema, crdJsonSchema, DCD_SCHEMA, DefaultingSchemaNode, DGD_SCHEMA,
  FieldPath, QUANTITY_FORMAT_MESSAGE, StructuralNode, ViolationSink,
} from '../src/admission';

/** `path: message (rule)` of each violation of `doc` against `root`. */
function check(root: StructuralNode, doc: unknown, options: { rules?: Record<string, string>; pruned?: Record<string, string> } = {}): string[] {
  const compiled = compileCrdSchema(root, { rules: options.rules, prunedFields: options.pruned, embedded: {}, rootRule: 'schema' });
  const sink = new ViolationSink();
  checkCompiled(doc, compiled, sink);
  return sink.all.map(v => `${v.path.toString()}: ${v.message} (${v.rule})`);
}

function object(properties: Record<string, StructuralNode>, extra: Partial<StructuralNode> = {}): StructuralNode {
  return { type: 'object', properties, ...extra };
}

describe('structural schema: types and nullable', () => {
  const root = object({ s: { type: 'string' }, i: { type: 'integer' }, n: { type: 'number' }, b: { type: 'boolean' }, o: object({}), a: { type: 'array', items: { type: 'string' } } });

  test('every JSON type passes, and a null field is an absent one', () => {
    expect(check(root, { s: 'x', i: 1, n: 1.5, b: true, o: {}, a: ['x'] })).toEqual([]);
    expect(check(root, { s: null, i: null, n: null, b: null, o: null, a: null })).toEqual([]);
  });

  test('a wrong type: Invalid value: <v>: must be of type <type>', () => {
    expect(check(root, { s: 1, i: 1.5, n: 'x', b: 'true', o: [], a: {} })).toEqual([
      's: Invalid value: 1: must be of type string (schema)',
      'i: Invalid value: 1.5: must be of type integer (schema)',
      'n: Invalid value: "x": must be of type number (schema)',
      'b: Invalid value: "true": must be of type boolean (schema)',
      'o: Invalid value: []: must be of type object (schema)',
      'a: Invalid value: {}: must be of type array (schema)',
    ]);
  });

  test('the fields of an object where the schema declares none are unknown fields first, as strict decoding prunes them', () => {
    expect(check(root, { s: { value: 'x' }, a: { k: 1 }, o: [{ f: 1, g: [{ h: 2 }] }, 'x'] })).toEqual([
      's.value: unknown field "s.value" (schema)',
      's: Invalid value: {"value":"x"}: must be of type string (schema)',
      'a.k: unknown field "a.k" (schema)',
      'a: Invalid value: {"k":1}: must be of type array (schema)',
      'o[0].f: unknown field "o[0].f" (schema)',
      'o[0].g: unknown field "o[0].g" (schema)',
      'o: Invalid value: [{"f":1,"g":[{"h":2}]},"x"]: must be of type object (schema)',
    ]);
    // an empty object or a list of scalars has no field to report
    expect(check(root, { s: {}, o: ['x'] })).toEqual([
      's: Invalid value: {}: must be of type string (schema)',
      'o: Invalid value: ["x"]: must be of type object (schema)',
    ]);
  });

  test('below a map entry, an unknown field is named with the key as a field, as the API server\'s pruning names it', () => {
    const labels = object({ labels: { type: 'object', additionalProperties: { type: 'string' } } });
    // a key of digits stays a key (`labels.8.value`, not the list-index look of `labels[8].value`)
    expect(check(labels, { labels: { '8': { value: 'x' }, 'example.com/a': { b: 1 } } })).toEqual([
      'labels.8.value: unknown field "labels.8.value" (schema)',
      'labels[8]: Invalid value: {"value":"x"}: must be of type string (schema)',
      'labels.example.com/a.b: unknown field "labels.example.com/a.b" (schema)',
      'labels[example.com/a]: Invalid value: {"b":1}: must be of type string (schema)',
    ]);
  });

  test('a null (or undefined) list item is a value of the wrong type', () => {
    expect(check(root, { a: ['x', null] })).toEqual(['a[1]: Invalid value: null: must be of type string (schema)']);
    expect(check(root, { a: [undefined] })).toEqual(['a[0]: Invalid value: null: must be of type string (schema)']);
  });

  test('a field whose JavaScript value is undefined is absent', () => {
    expect(check(object({ s: { type: 'string' } }, { required: ['s'] }), { s: undefined })).toEqual(['s: Required value (schema)']);
  });

  test('a type error hides the other errors of the field', () => {
    expect(check(object({ e: { type: 'string', enum: ['a'], minLength: 3 } }), { e: 5 })).toEqual(['e: Invalid value: 5: must be of type string (schema)']);
  });
});

describe('structural schema: x-kubernetes-int-or-string', () => {
  const root = object({ q: { 'x-kubernetes-int-or-string': true, 'pattern': '^[0-9]+Gi$' } });

  test('an integer or a string (the pattern applies to strings)', () => {
    expect(check(root, { q: 8 })).toEqual([]);
    expect(check(root, { q: '8Gi' })).toEqual([]);
  });

  test('anything else', () => {
    expect(check(root, { q: 1.5 })).toEqual(['q: Invalid value: 1.5: must be of type integer or string (schema)']);
    expect(check(root, { q: true })).toEqual(['q: Invalid value: true: must be of type integer or string (schema)']);
    expect(check(root, { q: '8 GB' })).toEqual(["q: Invalid value: \"8 GB\": should match '^[0-9]+Gi$' (schema)"]);
  });
});

describe('structural schema: enum, pattern, lengths, bounds, item counts, formats', () => {
  const root = object({
    e: { type: 'string', enum: ['Sequential', 'Parallel'] },
    p: { type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 4 },
    n: { type: 'integer', minimum: 0, maximum: 10 },
    l: { type: 'array', minItems: 1, maxItems: 2, items: { type: 'integer' } },
    i32: { type: 'integer', format: 'int32' },
    i64: { type: 'integer', format: 'int64' },
  });

  test('values inside every bound pass', () => {
    expect(check(root, { e: 'Parallel', p: 'abcd', n: 10, l: [1, 2], i32: 2 ** 31 - 1, i64: 2 ** 40 })).toEqual([]);
    expect(check(root, { i32: -(2 ** 31) })).toEqual([]);
  });

  test('enum: Unsupported value', () => {
    expect(check(root, { e: 'Random' })).toEqual(['e: Unsupported value: "Random": supported values: "Sequential", "Parallel" (schema)']);
  });

  test('pattern, minLength (code points), maxLength', () => {
    expect(check(root, { p: 'AB' })).toEqual(["p: Invalid value: \"AB\": should match '^[a-z]+$' (schema)"]);
    expect(check(root, { p: 'a' })).toEqual(['p: Invalid value: "a": should be at least 2 chars long (schema)']);
    expect(check(root, { p: 'abcde' })).toEqual(['p: Too long: may not be longer than 4 (schema)']);
    // two code points (one UTF-16 surrogate pair each) are two chars, not four
    expect(check(object({ u: { type: 'string', maxLength: 2 } }), { u: '😀😀' })).toEqual([]);
  });

  test('minimum, maximum', () => {
    expect(check(root, { n: -1 })).toEqual(['n: Invalid value: -1: should be greater than or equal to 0 (schema)']);
    expect(check(root, { n: 11 })).toEqual(['n: Invalid value: 11: should be less than or equal to 10 (schema)']);
  });

  test('minItems, maxItems', () => {
    expect(check(root, { l: [] })).toEqual(['l: Invalid value: []: should have at least 1 items (schema)']);
    expect(check(root, { l: [1, 2, 3] })).toEqual(['l: Too many: 3: must have at most 2 items (schema)']);
  });

  test('int32 and int64 formats: the range of the Go type', () => {
    expect(check(root, { i32: 2 ** 31 })).toEqual(['i32: Invalid value: 2147483648: must be of type int32 (schema)']);
    expect(check(root, { i64: 2 ** 64 })).toEqual(['i64: Invalid value: 18446744073709552000: must be of type int64 (schema)']);
  });

  test('other formats are not checked', () => {
    expect(check(object({ t: { type: 'string', format: 'date-time' } }), { t: 'yesterday' })).toEqual([]);
  });
});

describe('structural schema: required', () => {
  const root = object({ a: { type: 'string' }, b: { type: 'string' } }, { required: ['b', 'a'] });

  test('present fields pass', () => {
    expect(check(root, { a: '', b: '' })).toEqual([]);
  });

  test('a missing or null field: Required value, in the order of the schema', () => {
    expect(check(root, { b: null })).toEqual(['b: Required value (schema)', 'a: Required value (schema)']);
  });
});

describe('structural schema: x-kubernetes-list-type', () => {
  const root = object({
    m: {
      'type': 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name', 'port'],
      'items': object({ name: { type: 'string' }, port: { type: 'integer' } }),
    },
    s: { 'type': 'array', 'x-kubernetes-list-type': 'set', 'items': { type: 'string' } },
    atomic: { 'type': 'array', 'x-kubernetes-list-type': 'atomic', 'items': { type: 'string' } },
  });

  test('unique keys and items pass; atomic lists may repeat', () => {
    expect(check(root, { m: [{ name: 'a', port: 1 }, { name: 'a', port: 2 }], s: ['x', 'y'], atomic: ['x', 'x'] })).toEqual([]);
  });

  test('map: every later item with the same keys is a Duplicate value', () => {
    expect(check(root, { m: [{ name: 'a', port: 1 }, { name: 'b', port: 1 }, { name: 'a', port: 1 }, { name: 'a', port: 1 }] })).toEqual([
      'm[2]: Duplicate value: {"name":"a","port":1} (schema)',
      'm[3]: Duplicate value: {"name":"a","port":1} (schema)',
    ]);
  });

  test('set: every later repeated item is a Duplicate value', () => {
    expect(check(root, { s: ['x', 'y', 'x'] })).toEqual(['s[2]: Duplicate value: "x" (schema)']);
  });
});

describe('structural schema: maps, unknown fields, x-kubernetes-preserve-unknown-fields', () => {
  const root = object({
    labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 3 } },
    open: { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true, 'properties': { known: { type: 'integer' } } },
    free: { type: 'object', additionalProperties: true },
    closed: object({ known: { type: 'integer' } }),
  });

  test('map values are checked at [key]', () => {
    expect(check(root, { labels: { 'a/b': 'abc' } })).toEqual([]);
    expect(check(root, { labels: { 'a/b': 1, 'c': 'long' } })).toEqual([
      'labels[a/b]: Invalid value: 1: must be of type string (schema)',
      'labels[c]: Too long: may not be longer than 3 (schema)',
    ]);
  });

  test('preserve-unknown-fields and additionalProperties: true keep unknown fields; known ones are still checked', () => {
    expect(check(root, { open: { extra: 1, known: 2 }, free: { anything: [1] } })).toEqual([]);
    expect(check(root, { open: { known: 'x' } })).toEqual(['open.known: Invalid value: "x": must be of type integer (schema)']);
  });

  test('any other object refuses fields it does not declare (pruned by the API server, rejected by strict validation)', () => {
    expect(check(root, { closed: { known: 1, other: 2 }, extra: true })).toEqual([
      'closed.other: unknown field "closed.other" (schema)',
      'extra: unknown field "extra" (schema)',
    ]);
  });

  test('a field the overlay names as pruned is reported with its row', () => {
    expect(check(root, { closed: { gone: 1 } }, { pruned: { 'closed.gone': '79' } })).toEqual(['closed.gone: unknown field "closed.gone" (79)']);
  });
});

describe('structural schema: rows of the overlay', () => {
  const root = object({ spec: object({ items: { type: 'array', items: object({ name: { type: 'string' }, size: { type: 'integer', minimum: 1 } }, { required: ['name'] }) } }) });
  const rules = { 'spec.items': '14', 'spec.items[].size': '59' };

  test('a node takes the row of its schema path, else its parent\'s; a missing field the row of its own node', () => {
    expect(check(root, { spec: { items: [{ size: 0 }, null] } }, { rules })).toEqual([
      'spec.items[0].size: Invalid value: 0: should be greater than or equal to 1 (59)',
      'spec.items[0].name: Required value (14)',
      'spec.items[1]: Invalid value: null: must be of type object (14)',
    ]);
  });
});

describe('structural schema: walk order', () => {
  test('fields in document order, then missing required fields; a list\'s own errors, then its items, then duplicates', () => {
    const root = object({
      z: { type: 'string' },
      a: { 'type': 'array', 'maxItems': 2, 'x-kubernetes-list-type': 'set', 'items': { type: 'string', minLength: 2 } },
      r: { type: 'string' },
    }, { required: ['r'] });
    expect(check(root, { a: ['xx', 'y', 'xx'], z: 1 })).toEqual([
      'a: Too many: 3: must have at most 2 items (schema)',
      'a[1]: Invalid value: "y": should be at least 2 chars long (schema)',
      'a[2]: Duplicate value: "xx" (schema)',
      'z: Invalid value: 1: must be of type string (schema)',
      'r: Required value (schema)',
    ]);
  });
});

describe('checkStructure runs on ajv', () => {
  test('each document schema is compiled once', () => {
    expect(compiledDocumentSchema(DGD_SCHEMA)).toBe(compiledDocumentSchema(DGD_SCHEMA));
    // a schema object built anew with the same content reuses the compiled function
    expect(compiledDocumentSchema({ ...DGD_SCHEMA }).validate).toBe(compiledDocumentSchema(DGD_SCHEMA).validate);
  });

  test('the DGD schema compiles to a JSON schema with the overlay\'s rows', () => {
    const json = crdJsonSchema(DGD_V1BETA1_SCHEMA, { rules: DGD_SCHEMA.overlay.rules, embedded: DGD_SCHEMA.overlay.embedded, rootRule: 'schema' }) as any;
    const component = json.properties.spec.properties.components.items;
    expect(json.properties.spec.properties.components['x-rule']).toBe('14');
    expect(component.properties.replicas).toMatchObject({ 'type': 'integer', 'minimum': 0, 'x-rule': '59' });
    expect(component.additionalProperties).toBe(false);
    expect(crdJsonSchema(DCD_V1BETA1_SCHEMA, { embedded: DGD_SCHEMA.overlay.embedded, rootRule: 'schema' }).type).toBe('object');
  });

  test('through checkStructure: the Dynamo messages and rows', () => {
    const sink = new ViolationSink();
    const doc = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: 'g', annotations: { a: 1 } },
      spec: { backendFramework: 'tensorflow', components: [{ name: 'w', type: 'worker', replicas: -1, bogus: true }] },
    };
    checkStructure(doc, DGD_SCHEMA, sink);
    expect(sink.all.map(v => [v.path.toString(), v.message, v.rule, v.structural === true])).toEqual([
      ['metadata.annotations[a]', 'Invalid value: 1: must be of type string', 'schema', true],
      ['spec.backendFramework', 'Unsupported value: "tensorflow": supported values: "sglang", "vllm", "trtllm"', '12', false],
      ['spec.components[0].replicas', 'Invalid value: -1: should be greater than or equal to 0', '59', false],
      ['spec.components[0].bogus', 'unknown field "spec.components[0].bogus"', 'schema', true],
    ]);
  });

  test('a value below a base path (an embedded part of a larger document)', () => {
    const compiled = compileCrdSchema(object({ n: { type: 'integer' } }), { embedded: {}, rootRule: 'schema' });
    const sink = new ViolationSink();
    checkCompiled({ n: 'x' }, compiled, sink, FieldPath.of('spec').index(3));
    expect(sink.all.map(v => v.path.toString())).toEqual(['spec[3].n']);
  });
});

describe('CRD schema defaults (DEF-CRD rows) with ajv useDefaults', () => {
  function ajvDefaulted(doc: any): any {
    const copy = JSON.parse(JSON.stringify(doc));
    applyAjvDefaults(copy, copy.kind === 'DynamoGraphDeployment' ? DGD_V1BETA1_SCHEMA : DCD_V1BETA1_SCHEMA, EMBEDDED_K8S_DEFAULTS);
    return copy;
  }
  function storedDefaulted(doc: any): any {
    const copy = JSON.parse(JSON.stringify(doc));
    applyStoredDefaults(copy);
    return copy;
  }
  const graph = (component: Record<string, unknown>): any => ({
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'g' },
    spec: { components: [{ name: 'w', type: 'worker', ...component }] },
  });

  test('absent and null fields get their default, in place; defaults inside embedded types; nothing below preserve-unknown-fields', () => {
    const doc = graph({
      multinode: { nodeCount: null },
      experimental: { failover: { mode: 'IntraPod' } },
      podTemplate: { spec: { containers: [{ name: 'main', ports: [{ containerPort: 1 }], env: [{ name: 'A', valueFrom: { configMapKeyRef: { key: 'k' } } }] }] } },
      eppConfig: { config: { plugins: [], schedulingProfiles: [], extra: { enabled: null } } },
    });
    const defaulted = ajvDefaulted(doc);
    expect(JSON.stringify(defaulted)).toBe(JSON.stringify(storedDefaulted(doc)));
    const component = defaulted.spec.components[0];
    expect(Object.keys(component.multinode)).toEqual(['nodeCount']);
    expect(component.multinode.nodeCount).toBe(2);
    expect(component.experimental.failover).toEqual({ mode: 'IntraPod', numShadows: 1 });
    const container = component.podTemplate.spec.containers[0];
    expect(container.ports[0]).toEqual({ containerPort: 1, protocol: 'TCP' });
    expect(container.env[0].valueFrom.configMapKeyRef).toEqual({ key: 'k', name: '' });
    expect(component.eppConfig.config.extra).toEqual({ enabled: null });
  });

  test('ajv gives the same documents as applyStoredDefaults (key order included) on every corpus graph', () => {
    let compared = 0;
    for (const { docs } of corpusFiles()) {
      for (const doc of docs.filter(d => d?.apiVersion === 'nvidia.com/v1beta1' && (d.kind === 'DynamoGraphDeployment' || d.kind === 'DynamoComponentDeployment'))) {
        expect(JSON.stringify(ajvDefaulted(doc))).toBe(JSON.stringify(storedDefaulted(doc)));
        compared++;
      }
    }
    if (corpusFiles().length > 0) expect(compared).toBeGreaterThan(10);
  });
});

describe('schema defaults: only fields that hold a default are filled, at any depth, in schema order', () => {
  test('a schema that refers to itself is defaulted at every level; fields without defaults are left alone', () => {
    const tree: { properties: Record<string, DefaultingSchemaNode> } = { properties: {} };
    tree.properties.z = { default: 'last' };
    tree.properties.plain = { properties: { x: {} } };
    tree.properties.child = tree;
    tree.properties.a = { default: 1 };
    tree.properties.list = { items: tree };
    const value: any = { child: { child: {} }, plain: { y: null }, list: [{}, 'not an object'] };
    applySchemaDefaults(value, tree);
    expect(JSON.stringify(value)).toBe(JSON.stringify({
      child: { child: { z: 'last', a: 1 }, z: 'last', a: 1 },
      plain: { y: null },
      list: [{ z: 'last', a: 1 }, 'not an object'],
      z: 'last',
      a: 1,
    }));
  });

  test('map values are defaulted through additionalProperties; embedded types through their table; nothing below preserve-unknown-fields', () => {
    const schema: DefaultingSchemaNode = {
      properties: {
        byName: { additionalProperties: { properties: { on: { default: true } } } },
        pod: { k8sType: 'Pod' },
        free: { 'x-kubernetes-preserve-unknown-fields': true, 'properties': { on: { default: true } } },
      },
    };
    const value: any = { byName: { one: {}, two: { on: false } }, pod: { spec: {} }, free: {} };
    applySchemaDefaults(value, schema, { Pod: { properties: { spec: { properties: { restartPolicy: { default: 'Always' } } } } } });
    expect(value).toEqual({ byName: { one: { on: true }, two: { on: false } }, pod: { spec: { restartPolicy: 'Always' } }, free: {} });
  });
});

describe('row 89: the embedded pod template checked against the Kubernetes PodTemplateSpec (complete check)', () => {
  const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
  /** `path: message (rule)` of the complete structural check of a defaulted document. */
  function complete(doc: any): string[] {
    const copy = JSON.parse(JSON.stringify(doc));
    applyStoredDefaults(copy);
    const sink = new ViolationSink();
    checkStructure(copy, copy.kind === 'DynamoGraphDeployment' ? DGD_SCHEMA : DCD_SCHEMA, sink);
    return sink.all.map(v => `${v.path.toString()}: ${v.message} (${v.rule})`);
  }
  const graph = (template: any): any => ({
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'g' },
    spec: { components: [{ name: 'w', type: 'worker', podTemplate: template }] },
  });
  const withMain = (main: Record<string, unknown>, spec: Record<string, unknown> = {}): any =>
    graph({ spec: { containers: [{ name: 'main', image: IMAGE, ...main }], ...spec } });
  const AT = 'spec.components[0].podTemplate';

  test('a valid full pod template passes (metadata, containers, probes, env, volumes, scheduling)', () => {
    const template = {
      metadata: { labels: { app: 'w' }, annotations: { note: 'x' }, name: 'w', namespace: 'ns', finalizers: ['f'] },
      spec: {
        serviceAccountName: 'sa',
        terminationGracePeriodSeconds: 30,
        nodeSelector: { 'nvidia.com/gpu.present': 'true' },
        tolerations: [{ key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' }],
        affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'a', operator: 'In', values: ['b'] }] }] } } },
        volumes: [{ name: 'cache', persistentVolumeClaim: { claimName: 'pvc' } }, { name: 'shm', emptyDir: { medium: 'Memory', sizeLimit: '8Gi' } }],
        initContainers: [{ name: 'init', image: IMAGE, command: ['sh', '-c', 'true'] }],
        containers: [
          {
            name: 'main',
            image: IMAGE,
            args: ['--model', 'x'],
            env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
            ports: [{ name: 'http', containerPort: 8000 }],
            resources: { limits: { 'nvidia.com/gpu': 1, 'memory': '16Gi' }, requests: { cpu: '500m' } },
            livenessProbe: { httpGet: { path: '/live', port: 'http' }, periodSeconds: 10 },
            volumeMounts: [{ name: 'cache', mountPath: '/cache' }],
            securityContext: { capabilities: { add: ['IPC_LOCK'] } },
          },
          { name: 'sidecar', image: IMAGE },
        ],
      },
    };
    expect(complete(graph(template))).toEqual([]);
  });

  test('a container env that is a string: a wrong type (fuzzing finding container-env-string)', () => {
    expect(complete(withMain({ env: 'A=1' }))).toEqual([`${AT}.spec.containers[0].env: Invalid value: "A=1": must be of type array (89)`]);
  });

  test('a bad volume: a malformed quantity, a missing required field of the volume source and the volume name', () => {
    expect(complete(withMain({}, { volumes: [{ name: 'v', emptyDir: { sizeLimit: 'lots' } }, { hostPath: {} }] }))).toEqual([
      `${AT}.spec.volumes[0].emptyDir.sizeLimit: Invalid value: "lots": ${QUANTITY_FORMAT_MESSAGE} (89)`,
      `${AT}.spec.volumes[1].hostPath.path: Required value (89)`,
      `${AT}.spec.volumes[1].name: Required value (89)`,
    ]);
  });

  test('a probe field of the wrong type', () => {
    expect(complete(withMain({ readinessProbe: { httpGet: { path: '/ready', port: 8000 }, periodSeconds: '10' } }))).toEqual([
      `${AT}.spec.containers[0].readinessProbe.periodSeconds: Invalid value: "10": must be of type integer (89)`,
    ]);
  });

  test('an unknown field of a container or of the template metadata: refused like every unknown field', () => {
    expect(complete(withMain({ bogusField: 1 }))).toEqual([
      `${AT}.spec.containers[0].bogusField: unknown field "${AT}.spec.containers[0].bogusField" (schema)`,
    ]);
    // the CRD embeds object metadata limited to labels, annotations, name, namespace and finalizers
    expect(complete({ ...withMain({}), spec: { components: [{ name: 'w', type: 'worker', podTemplate: { metadata: { generateName: 'w-' }, spec: { containers: [{ name: 'main', image: IMAGE }] } } }] } })).toEqual([
      `${AT}.metadata.generateName: unknown field "${AT}.metadata.generateName" (schema)`,
    ]);
  });

  test('the overlay rows keep their messages and order (rows 89, 92), and a DCD is checked the same way', () => {
    expect(complete(graph({ spec: {} }))).toEqual([`${AT}.spec.containers: Required value (89)`]);
    expect(complete(graph({ spec: { containers: [{ name: 'main', image: IMAGE }, { image: IMAGE, stdin: 'no' }, { name: 'main' }] } }))).toEqual([
      `${AT}.spec.containers[1].stdin: Invalid value: "no": must be of type boolean (89)`,
      `${AT}.spec.containers[1].name: Required value (89)`,
      `${AT}.spec.containers[2]: Duplicate value: {"name":"main"} (89)`,
    ]);
    expect(complete(graph({ metadata: { annotations: { note: 'x'.repeat(262145) } }, spec: { containers: [{ name: 'main' }] } }))).toEqual([
      `${AT}.metadata.annotations[note]: Too long: may not be longer than 262144 (92)`,
    ]);
    const dcd = { apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoComponentDeployment', metadata: { name: 'c' }, spec: { podTemplate: { spec: { containers: [{ name: 'main', env: 'A=1' }] } } } };
    expect(complete(dcd)).toEqual(['spec.podTemplate.spec.containers[0].env: Invalid value: "A=1": must be of type array (89)']);
  });

  test('the env list and config map key selector of a graph: the Kubernetes EnvVar and ConfigMapKeySelector', () => {
    const doc = withMain({});
    doc.spec.env = [{ name: 'A', valeu: '1' }];
    expect(complete(doc)).toEqual(['spec.env[0].valeu: unknown field "spec.env[0].valeu" (schema)']);
  });

  test('CRD defaults of embedded types still apply first (ports[].protocol), and the complete schema is compiled once', () => {
    expect(complete(withMain({ ports: [{ containerPort: 8000 }, { containerPort: 8000, protocol: 'UDP' }] }))).toEqual([]);
    expect(compiledDocumentSchema(DGD_SCHEMA)).toBe(compiledDocumentSchema(DGD_SCHEMA));
  });

  test('no false rejection: every corpus DGD and DCD passes the complete check', () => {
    let checked = 0;
    for (const { file, docs } of corpusFiles()) {
      for (const doc of docs.filter(d => d?.apiVersion === 'nvidia.com/v1beta1' && (d.kind === 'DynamoGraphDeployment' || d.kind === 'DynamoComponentDeployment'))) {
        expect([file, complete(doc)]).toEqual([file, []]);
        checked++;
      }
    }
    if (corpusFiles().length > 0) expect(checked).toBeGreaterThan(10);
  });
});
