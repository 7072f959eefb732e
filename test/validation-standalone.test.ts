/**
 * The validate functions generated at build time (ajv standalone code, src/admission/structural/
 * validators.ts) against the ones ajv compiles at run time from the same schemas: every schema of
 * the catalog has its generated functions, validation uses them, and both give the same results
 * and the same errors (custom keyword params included) on rendered objects and on mutants of them,
 * and fill the same defaults.
 */
import type { ErrorObject, SchemaObject, ValidateFunction } from 'ajv';
import { renderGrove, groveComponent, groveGraph } from './support/grove-fixtures';
import { mutants } from './support/mutants';
import { K8S_KINDS } from '../imports/k8s-openapi.schema';
import {
  CatalogEntry, compileAtRuntime, itemsNotNullErrors, prebuiltValidator, runtimeCompileCount,
  sharedSchemasOf, validateEmittedObjects, validatorCatalog, ValidatorMode,
} from '../src/admission';
import { renderDocuments } from '../src/pipeline/check-and-render';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

type Json = any;

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

/** A graph on Deployments with a multinode decode worker (LeaderWorkerSet), with env, ports, resources. */
function lwsGraph(): Json {
  const container = (extra: Json = {}): Json => ({
    name: 'main',
    image: IMAGE,
    env: [{ name: 'A', value: '1' }, { name: 'B', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } }],
    resources: { limits: { 'nvidia.com/gpu': '8', 'memory': '16Gi' }, requests: { cpu: '500m' } },
    ports: [{ name: 'http', containerPort: 8000, protocol: 'TCP' }],
    ...extra,
  });
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: 'prod', labels: { team: 'a' } },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [container()] } } },
        {
          name: 'decode',
          type: 'decode',
          replicas: 1,
          multinode: { nodeCount: 2 },
          podTemplate: {
            spec: {
              containers: [container({
                command: ['python3', '-m', 'dynamo.vllm'],
                args: ['--model', 'm', '--tensor-parallel-size', '16'],
              })],
            },
          },
        },
      ],
    },
  };
}

function groveDoc(): Json {
  return groveGraph([
    groveComponent('Frontend', 'frontend'),
    groveComponent('prefill', 'prefill', {}, { resources: { limits: { 'nvidia.com/gpu': '1' } } }),
    groveComponent('decode', 'decode', { multinode: { nodeCount: 2 } }, {
      command: ['python3', '-m', 'dynamo.vllm'],
      args: ['--model', 'm', '--tensor-parallel-size', '16'],
      resources: { limits: { 'nvidia.com/gpu': '8' } },
    }),
  ]);
}

const GRAPHS = [lwsGraph(), groveDoc()];
const WORKLOADS: Json[] = [
  ...renderDocuments([lwsGraph()], { output: 'workloads', operator: {} }) as Json[],
  ...renderGrove(groveDoc()),
];
const COMPONENTS: Json[] = (renderDocuments([lwsGraph()], { output: 'components', operator: {} }) as Json[])
  .filter((o) => o.kind === 'DynamoComponentDeployment');

const CATALOG = validatorCatalog();

function entry(name: string): CatalogEntry {
  const found = CATALOG.find((e) => e.name === name);
  if (!found) throw new Error(`no catalog entry ${name}`);
  return found;
}

/** Values of each catalog schema to validate: rendered objects and parts of them. */
function samples(): Map<CatalogEntry, Json[]> {
  const out = new Map<CatalogEntry, Json[]>();
  const add = (name: string, value: Json): void => {
    const e = entry(name);
    out.set(e, [...out.get(e) ?? [], value]);
  };
  for (const graph of GRAPHS) add('DynamoGraphDeployment (admission)', graph);
  for (const dcd of COMPONENTS) add('DynamoComponentDeployment (admission)', dcd);
  for (const obj of [...WORKLOADS, ...GRAPHS, ...COMPONENTS]) {
    const key = `${obj.apiVersion}/${obj.kind}`;
    if (CATALOG.some((e) => e.name === key)) add(key, obj);
    else if (K8S_KINDS[key]) add(K8S_KINDS[key], obj);
    const template = obj.kind === 'Deployment' ? obj.spec.template : obj.spec?.leaderWorkerTemplate?.workerTemplate;
    if (template) {
      add('CoreV1PodTemplateSpec', template);
      add('CoreV1PodSpec', template.spec);
      for (const c of template.spec.containers ?? []) {
        for (const env of c.env ?? []) add('CoreV1EnvVar', env);
        for (const q of Object.values<Json>(c.resources?.limits ?? {})) add('q', q);
      }
    }
  }
  for (const e of CATALOG) {
    if (!e.modes.includes('fast')) continue;
    const values = out.get(e) ?? [];
    out.set(e, [...values, {}, { name: 'x', key: 'k', type: 'Resource' }, 1, 'x', null, ['x']]);
  }
  return out;
}

/** A copy of a document whose containers have fields the schema defaults left out. */
function withDefaultedFields(doc: Json): Json {
  const out = copy(doc);
  for (const component of out.spec.components ?? [out.spec]) {
    for (const c of component.podTemplate?.spec?.containers ?? []) {
      c.ports = [...c.ports ?? [], { name: 'metrics', containerPort: 9090 }];
      c.env = [...c.env ?? [], { name: 'C', valueFrom: { configMapKeyRef: { key: 'k' } } }];
    }
  }
  return out;
}

function runtimeFn(mode: ValidatorMode, schema: SchemaObject): ValidateFunction {
  return compileAtRuntime(mode, schema);
}

function generatedFn(mode: ValidatorMode, schema: SchemaObject): ValidateFunction {
  const fn = prebuiltValidator(mode, schema, sharedSchemasOf(mode));
  if (!fn) throw new Error('no generated function');
  return fn;
}

describe('generated validate functions', () => {
  test('every schema of the catalog has its generated function in each of its modes', () => {
    expect(CATALOG.length).toBeGreaterThan(20);
    for (const e of CATALOG) {
      for (const mode of e.modes) {
        expect([e.name, mode, typeof prebuiltValidator(mode, e.schema, e.shared)]).toEqual([e.name, mode, 'function']);
      }
    }
  });

  test('a schema of other content has none (it is compiled at run time)', () => {
    expect(prebuiltValidator('fast', { type: 'object', properties: { n: { type: 'integer' } } }, [])).toBeUndefined();
  });

  test('validating rendered objects compiles nothing at run time', () => {
    const before = runtimeCompileCount();
    const broken = copy(WORKLOADS).map((o: Json) => ({ ...o, spec: { ...o.spec, bogus: 1 } }));
    expect(validateEmittedObjects(WORKLOADS)).toEqual([]);
    expect(validateEmittedObjects(broken).length).toBeGreaterThanOrEqual(WORKLOADS.length);
    expect(runtimeCompileCount()).toBe(before);
  });

  test('the rendered objects cover the kinds with pod templates', () => {
    const kinds = new Set(WORKLOADS.map((o) => o.kind));
    for (const kind of ['Deployment', 'LeaderWorkerSet', 'PodCliqueSet', 'Service']) expect(kinds).toContain(kind);
  });

  test('the same results and errors as the functions compiled at run time, valid and invalid values', () => {
    const keywords = new Set<string>();
    let invalid = 0;
    let compared = 0;
    for (const [e, values] of samples()) {
      const fast = [generatedFn('fast', e.schema), runtimeFn('fast', e.schema)];
      const full = [generatedFn('full', e.schema), runtimeFn('full', e.schema)];
      for (const value of values.flatMap((v) => [v, ...mutants(v)])) {
        const [generatedFast, runtimeFast] = fast.map((fn) => fn(copy(value)));
        const [generatedFull, runtimeFull] = full.map((fn) => {
          const valid = fn(copy(value));
          return { valid, errors: copy((fn.errors ?? null) as ErrorObject[] | null) };
        });
        expect([e.name, generatedFast]).toEqual([e.name, runtimeFast]);
        expect([e.name, generatedFull.valid]).toEqual([e.name, runtimeFull.valid]);
        expect(generatedFull.valid).toBe(runtimeFast);
        expect(generatedFull.errors).toStrictEqual(runtimeFull.errors);
        for (const error of runtimeFull.errors ?? []) keywords.add(error.keyword);
        if (!runtimeFast) invalid++;
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(1000);
    expect(invalid).toBeGreaterThan(500);
    for (const keyword of ['x-required', 'x-kubernetes-list-type', 'x-items-not-null', 'format', 'type', 'additionalProperties', 'enum']) {
      expect(keywords).toContain(keyword);
    }
  });

  test('the errors of the custom keywords carry their params (rows included), as compiled at run time', () => {
    const e = entry('DynamoGraphDeployment (admission)');
    const value = copy(GRAPHS[0]);
    value.spec.components.push(copy(value.spec.components[0]));
    value.spec.components[0].podTemplate.spec.containers.push(null);
    delete value.spec.components[1].name;
    const generated = generatedFn('full', e.schema);
    const runtime = runtimeFn('full', e.schema);
    expect(generated(copy(value))).toBe(false);
    runtime(copy(value));
    const custom = (generated.errors ?? []).filter((error) => error.keyword.startsWith('x-'));
    expect(custom.map((error) => error.keyword).sort()).toEqual(['x-items-not-null', 'x-kubernetes-list-type', 'x-required']);
    expect(copy(generated.errors)).toStrictEqual(copy(runtime.errors));
  });

  test('a null or undefined list item is reported with its index; a hole of a sparse list is no item', () => {
    // eslint-disable-next-line no-sparse-arrays
    const errors = itemsNotNullErrors(['a', null, , undefined, 'b'], 'string', 'R1');
    expect(errors).toEqual([
      { keyword: 'x-items-not-null', params: { index: 1, label: 'string', rule: 'R1' } },
      { keyword: 'x-items-not-null', params: { index: 3, label: 'string', rule: 'R1' } },
    ]);
    expect(itemsNotNullErrors(['a', 'b'], 'string', null)).toBeUndefined();
  });

  test('the same defaults as the functions compiled at run time', () => {
    let filled = 0;
    for (const e of CATALOG.filter((c) => c.modes.includes('defaulting'))) {
      const values = (e.name.startsWith('DynamoGraphDeployment') ? GRAPHS : COMPONENTS).map(withDefaultedFields);
      const [generated, runtime] = [generatedFn('defaulting', e.schema), runtimeFn('defaulting', e.schema)];
      for (const value of values.flatMap((v) => [v, ...mutants(v, 60)])) {
        const [a, b] = [copy(value), copy(value)];
        expect(generated(a)).toBe(runtime(b));
        expect(a).toStrictEqual(b);
        if (JSON.stringify(a) !== JSON.stringify(value)) filled++;
      }
    }
    expect(filled).toBeGreaterThan(10);
    // the defaults of the embedded types: a port's protocol, a config map key selector's name
    const [graph] = GRAPHS.map(withDefaultedFields);
    generatedFn('defaulting', entry('DynamoGraphDeployment (defaults)').schema)(graph);
    const main = graph.spec.components[0].podTemplate.spec.containers[0];
    expect(main.ports[1]).toEqual({ name: 'metrics', containerPort: 9090, protocol: 'TCP' });
    expect(main.env[2].valueFrom.configMapKeyRef).toEqual({ key: 'k', name: '' });
  });
});
