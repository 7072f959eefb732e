/**
 * The fast paths of the Go encoder agree with the reference path they replace:
 * `readGoValue` with `JSON.parse(goJsonEncode(...))`, `goSortedJson` with
 * `goJsonEncode(goSortKeys(...))`, and the JSON copies with `copyJson`.
 */
import { render } from './support/facade';
import { CORPUS_DIR, corpusFiles, describeNeeding, withVersionedImages } from './support/shared';
import { goSortKeys, WORKER_HASH_TYPES } from '../src/engine';
import { goJsonEncode, goJsonValue, goSortedJson, goTypeRegistry, readGoValue } from '../src/go';
import { CONVERSION_GO_TYPES } from '../src/import';
import { copyJson, copyJsonForOutput } from '../src/model';

const reference = (value: unknown, type?: string): unknown => JSON.parse(goJsonEncode(value, type));

/** Values with the cases the reader treats specially. */
const EDGE_CASES: Array<[string, unknown, string]> = [
  ['quantities become canonical', { limits: { cpu: '1000m', memory: '1024Mi' }, requests: { 'nvidia.com/gpu': 1 } }, 'ResourceRequirements'],
  ['omitempty zero values vanish', { name: 'main', image: '', stdin: false, command: [], ports: [] }, 'Container'],
  ['keys matched ignoring case', { Name: 'main', IMAGE: 'x:1' }, 'Container'],
  ['unknown keys are appended', { name: 'main', zzz: { b: 1, a: 2 } }, 'Container'],
  ['int-or-string ports', { httpGet: { path: '/live', port: 'system' }, periodSeconds: 5 }, 'Probe'],
  ['omitzero metadata', { metadata: { creationTimestamp: null, labels: {} }, spec: { containers: [] } }, 'PodTemplateSpec'],
  ['strings needing escapes', { name: 'a<b>&\u2028', image: 'i' }, 'Container'],
];

describe('readGoValue equals JSON.parse(goJsonEncode(...))', () => {
  test.each(EDGE_CASES)('%s', (_name, value, type) => {
    expect(goJsonValue(value, type)).toEqual(reference(value, type));
  });

  test.each(EDGE_CASES)('%s: a value reported as a fixed point reads back unchanged', (_name, value, type) => {
    const first = readGoValue(value, type);
    if (first.fixedPoint) expect(goJsonValue(first.value, type)).toEqual(first.value);
    expect(reference(first.value, type)).toEqual(first.value);
  });

  test('canonical quantities are not a fixed point of the first reading', () => {
    expect(readGoValue({ limits: { cpu: '1000m' } }, 'ResourceRequirements').fixedPoint).toBe(false);
  });

  test('errors are the same as the reference encoder', () => {
    const bad = { name: 'main', ports: [{ containerPort: 'not-a-number' }] };
    let expected: unknown;
    try {
      goJsonEncode(bad, 'Container');
    } catch (e) {
      expected = (e as Error).message;
    }
    expect(expected).toBeDefined();
    expect(() => goJsonValue(bad, 'Container')).toThrow(expected as string);
  });
});

describe('goSortedJson equals goJsonEncode(goSortKeys(...))', () => {
  test.each(EDGE_CASES)('%s', (_name, value) => {
    expect(goSortedJson(value)).toBe(goJsonEncode(goSortKeys(value)));
  });

  test('arrays of objects are sorted stably by name, else by first key', () => {
    const value = { b: [{ name: 'z' }, { name: 'a' }, { name: 'a', x: 1 }], a: [{ y: 1 }, { x: 2 }], c: [3, 1, 2] };
    expect(goSortedJson(value)).toBe(goJsonEncode(goSortKeys(value)));
    expect(goSortedJson(value)).toBe('{"a":[{"x":2},{"y":1}],"b":[{"name":"a"},{"name":"a","x":1},{"name":"z"}],"c":[3,1,2]}');
  });
});

describe('JSON copies equal copyJson', () => {
  const value = { a: [1, { b: 'c' }, [null, true]], d: { e: { f: 'g' } }, shared: undefined as unknown };
  value.shared = value.d;

  test.each([['copyJson', copyJson], ['copyJsonForOutput', copyJsonForOutput]] as const)('%s', (_name, copy) => {
    const copied = copy(value);
    expect(copied).toEqual(copyJson(value));
    expect(copied).not.toBe(value);
    expect(copied.d).not.toBe(value.d);
    expect(copied.shared).not.toBe(copied.d);
  });
});

const corpusDocs = CORPUS_DIR
  ? corpusFiles().flatMap(({ file, docs }) => docs
    .filter((d: any) => d?.kind === 'DynamoGraphDeployment')
    .map((d: any, i: number) => ({ id: `${file}#${i}`, doc: withVersionedImages(d) })))
  : [];

describe('tables of extra layouts', () => {
  test('a table changed in place is read with its new layouts', () => {
    const types: Record<string, string> = { Pair: 'b?:s a?:s' };
    expect(goJsonEncode({ a: '1', b: '2' }, 'Pair', { types })).toBe('{"b":"2","a":"1"}');
    types.Pair = 'a?:s b?:s';
    expect(goJsonEncode({ a: '1', b: '2' }, 'Pair', { types })).toBe('{"a":"1","b":"2"}');
  });

  test('a frozen table is prepared once and read with its layouts', () => {
    const types = Object.freeze({ Pair: 'b?:s a?:s' });
    expect(goTypeRegistry(types)).toBe(goTypeRegistry(types));
    expect(goJsonEncode({ a: '1', b: '2' }, 'Pair', { types })).toBe('{"b":"2","a":"1"}');
    expect(() => { (types as Record<string, string>).Pair = 'a?:s b?:s'; }).toThrow(TypeError);
  });

  test("the library's own tables are frozen (prepared once per process)", () => {
    expect(Object.isFrozen(CONVERSION_GO_TYPES)).toBe(true);
    expect(Object.isFrozen(WORKER_HASH_TYPES)).toBe(true);
  });
});

const describeCorpus = describeNeeding('corpus');

describeCorpus('fast paths agree with the reference on every rendered corpus object', () => {
  const objects: any[] = [];
  for (const { doc } of corpusDocs) {
    try {
      objects.push(...render(doc));
    } catch {
      // graphs the workloads output defers (multinode, experimental) are covered elsewhere
    }
  }

  test('the corpus renders objects', () => {
    expect(objects.length).toBeGreaterThan(500);
  });

  test('Deployment specs read as Go equal the reference, and so do their hash texts', () => {
    for (const obj of objects.filter(o => o.kind === 'Deployment')) {
      expect(goJsonValue(obj.spec, 'DeploymentSpec')).toEqual(reference(obj.spec, 'DeploymentSpec'));
      expect(goSortedJson(obj.spec)).toBe(goJsonEncode(goSortKeys(obj.spec)));
    }
  });

  test('every object copies equal to copyJson', () => {
    for (const obj of objects) {
      expect(copyJsonForOutput(obj)).toEqual(copyJson(obj));
      expect(copyJson(obj)).toEqual(copyJson(obj));
    }
  });
});
