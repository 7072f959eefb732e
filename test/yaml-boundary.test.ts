/**
 * The YAML boundary: input is read as kubectl reads it (YAML 1.1 scalars, go-yaml v2), and output
 * means the same to kubectl and to YAML 1.2 (and YAML 1.1) readers. Checked against fixed
 * expectations, and, when kubectl is on the PATH, against kubectl itself: over tricky scalars and
 * over the corpus rendered in every output mode.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Yaml } from 'cdk8s';
import * as YAML from 'yaml';
import { OperatorConfiguration } from '../src';
import { renderGraphWorkloads, WORKLOADS_OPERATORS, WorkloadsPath } from './support/corpus-workloads';
import { admissionRefusals, render, renderUnchecked } from './support/facade';
import { jsonDifferences, KUBECTL, kubectlObjects, kubectlRead, kubectlVersion } from './support/kubectl';
import { CORPUS_DIR, withVersionedImages } from './support/shared';
import {
  decodeUtf8, isAmbiguousPlainScalar, MAX_ALIAS_EXPANSION, MAX_NESTING_DEPTH, parseYamlBytes,
  parseYamlDocuments, resolvePlainScalar, stringifyYamlDocuments, YamlInputError,
} from '../src/import';

/** The options of an operator configuration file. */
const parseOperatorConfiguration = (text: string, source: string) => OperatorConfiguration.fromYaml(text, source);
type OutputMode = 'graph' | 'components' | 'workloads';

// ------------------------------------------------------------------------------------------------
// Skipping, loudly, what needs kubectl or the corpus

const HOW_TO_RUN = 'npx jest test/yaml-boundary.test.ts';
const NO_KUBECTL = `kubectl is not on the PATH (or $KUBECTL): the kubectl comparisons of test/yaml-boundary.test.ts are skipped; install kubectl and run ${HOW_TO_RUN}`;
const NO_CORPUS = `the corpus (../shared/corpus or $DYNAMO_CORPUS_DIR) is absent: the corpus comparisons of test/yaml-boundary.test.ts are skipped; put it there and run ${HOW_TO_RUN}`;
if (!KUBECTL) console.warn(NO_KUBECTL);
if (KUBECTL && !CORPUS_DIR) console.warn(NO_CORPUS);

/** A test that reads with kubectl; without kubectl, one skipped test saying why. */
function kubectlTest(name: string, body: () => void, timeout?: number): void {
  if (KUBECTL) test(name, body, timeout);
  else test.skip(`${name} [needs kubectl on the PATH or $KUBECTL]`, () => undefined);
}

/** A test that reads the corpus with kubectl; without either, one skipped test saying why. */
function corpusKubectlTest(name: string, body: () => void, timeout?: number): void {
  if (KUBECTL && CORPUS_DIR) test(name, body, timeout);
  else test.skip(`${name} [needs ${KUBECTL ? 'the corpus (../shared/corpus or $DYNAMO_CORPUS_DIR)' : 'kubectl on the PATH or $KUBECTL'}]`, () => undefined);
}

// ------------------------------------------------------------------------------------------------
// Readers

/** What a YAML 1.2 reader (the `yaml` library's core schema) reads. */
function yaml12Read(text: string): unknown[] {
  return YAML.parseAllDocuments(text).map(d => d.toJS()).filter(v => v !== null && v !== undefined);
}

/** What the `yaml` library's YAML 1.1 schema reads (cdk8s's `Yaml.load`). */
function yaml11Read(text: string): unknown[] {
  return YAML.parseAllDocuments(text, { version: '1.1' }).map(d => d.toJS()).filter(v => v !== null && v !== undefined);
}

function first(text: string): any {
  return parseYamlDocuments(text, 'f.yaml')[0];
}

function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(YamlInputError);
    expect((e as Error).message).not.toMatch(/\n\s+at /);
    return (e as Error).message;
  }
  throw new Error('expected an error');
}

// ------------------------------------------------------------------------------------------------
// Scalars

/** Plain scalars and how kubectl reads them (each checked against kubectl below). */
const PLAIN_READINGS: ReadonlyArray<readonly [string, unknown]> = [
  // YAML 1.1 booleans, in the spellings go-yaml v2 knows; others stay strings
  ['y', true], ['Y', true], ['yes', true], ['Yes', true], ['YES', true], ['on', true], ['On', true], ['ON', true],
  ['true', true], ['True', true], ['TRUE', true],
  ['n', false], ['N', false], ['no', false], ['No', false], ['NO', false], ['off', false], ['Off', false], ['OFF', false],
  ['false', false], ['False', false], ['FALSE', false],
  ['yEs', 'yEs'], ['nO', 'nO'], ['oN', 'oN'], ['tRUE', 'tRUE'],
  // nulls
  ['~', null], ['null', null], ['Null', null], ['NULL', null], ['nULL', 'nULL'],
  // integers in every base, with underscores
  ['0644', 420], ['0o644', 420], ['0O644', 420], ['0x1F', 31], ['0X1F', 31], ['0b101', 5], ['0B101', 5], ['-0x1F', -31], ['+12', 12],
  ['1_000', 1000], ['0x_1F', 31], ['0_x1F', 31], ['1_', 1], ['_1', '_1'], ['09', 9], ['-0', 0],
  ['9223372036854775807', 9223372036854775807], ['18446744073709551615', 18446744073709551615], ['0x1FFFFFFFFFFFFFFFF', '0x1FFFFFFFFFFFFFFFF'],
  // floats
  ['1e3', 1000], ['1E3', 1000], ['1.5e3', 1500], ['.5', 0.5], ['+.5', 0.5], ['1.', 1], ['685_230.15', 685230.15], ['.5_5', 0.55],
  ['1e400', '1e400'], ['1e-400', 0], ['-Inf', '-Inf'], ['NaN', 'NaN'], ['0x1p-2', '0x1p-2'], ['1e', '1e'], ['.', '.'], ['1.2.3', '1.2.3'],
  // sexagesimal numbers and timestamps are strings to go-yaml v2
  ['1:20', '1:20'], ['190:20:30.15', '190:20:30.15'], ['2024-01-01', '2024-01-01'], ['2001-12-14t21:59:43.10-05:00', '2001-12-14t21:59:43.10-05:00'],
  // YAML 1.1's value and merge indicators, as values
  ['=', '='], ['<<', '<<'],
];

describe('reading as kubectl reads (parseYamlDocuments)', () => {
  test('plain scalars are typed as go-yaml v2 types them', () => {
    const read = PLAIN_READINGS.map(([text]) => first(`k: ${text}\n`).k);
    expect(read).toEqual(PLAIN_READINGS.map(([, value]) => value));
    expect(first('k:\n').k).toBeNull();
  });

  test('the NIXL_TELEMETRY_ENABLE: n of the issue reads as false, which the type check then refuses', () => {
    const env = first('env:\n  - name: NIXL_TELEMETRY_ENABLE\n    value: n\n  - name: QUOTED\n    value: "n"\n').env;
    expect(env).toEqual([{ name: 'NIXL_TELEMETRY_ENABLE', value: false }, { name: 'QUOTED', value: 'n' }]);
  });

  test('quoted and block scalars are strings; explicit tags as in go-yaml v2', () => {
    expect(first([
      'a: "0644"', "b: 'y'", 'c: |\n  0644', 'd: >-\n  on', 'e: !!str 0644', 'f: !!int "0644"', 'g: !!float 1', 'h: !!bool yes',
      'i: !!null ~', 'j: ! 12', 'k: !foo bar', 'l: !!binary aGVsbG8=', 'm: !!timestamp 2024-01-01', 'o: !!str', '',
    ].join('\n'))).toEqual({
      a: '0644', b: 'y', c: '0644\n', d: 'on', e: '0644', f: 420, g: 1, h: true, i: null, j: '12', k: 'bar', l: 'hello', m: '2024-01-01', o: '',
    });
    // the key n of a first draft of this test read as false: keys are scalars like any other
    expect(first('n: !!str\n')).toEqual({ false: '' });
    expect(errorOf(() => parseYamlDocuments('a: !!int abc\n', 'f.yaml'))).toBe('f.yaml: invalid YAML at line 1, column 10: cannot decode !!str `abc` as a !!int');
  });

  test('keys become strings as sigs.k8s.io/yaml makes them', () => {
    expect(first([
      'y: a', 'off: b', '0644: c', '1.5: d', '3.14159265358979: e', '1e6: f', '0x10: g', '.inf: h', '"yes": i', '1e-5: j', '-.inf: k', '',
    ].join('\n'))).toEqual({
      'true': 'a', 'false': 'b', '420': 'c', '1.5': 'd', '3.1415927': 'e', '1e+06': 'f', '16': 'g', '.inf': 'h', 'yes': 'i', '1e-05': 'j', '-.inf': 'k',
    });
  });

  test('merge keys apply in go-yaml v2 order: a merge overrides the keys before it, the first of a list wins', () => {
    const doc = first([
      'b1: &b1 {a: 1, c: 1}', 'b2: &b2 {a: 2, d: 2}',
      'm1: {a: 0, <<: *b1}', 'm2: {<<: *b1, a: 0}', 'm3: {<<: [*b1, *b2]}', 'm4: {<<: *b1, <<: *b2}', 'm5: {"<<": 1}', '',
    ].join('\n'));
    expect([doc.m1, doc.m2, doc.m3, doc.m4, doc.m5]).toEqual([
      { a: 1, c: 1 }, { a: 0, c: 1 }, { a: 1, c: 1, d: 2 }, { a: 2, c: 1, d: 2 }, { '<<': 1 },
    ]);
    expect(errorOf(() => parseYamlDocuments('a: &a [1]\nb: {<<: *a}\n', 'f.yaml')))
      .toBe('f.yaml: invalid YAML at line 2, column 9: map merge requires map or sequence of maps as the value');
  });

  test('an alias is a copy, not the same object', () => {
    const doc = first('a: &x {k: [1]}\nb: *x\n');
    expect(doc.b).toEqual(doc.a);
    expect(doc.b).not.toBe(doc.a);
    expect(doc.b.k).not.toBe(doc.a.k);
  });

  test('__proto__, constructor and prototype keys are own data properties, never prototypes', () => {
    const doc = first('__proto__: {image: x}\nconstructor: {a: 1}\nprototype: 2\nnested: {__proto__: [1]}\n');
    expect(Object.keys(doc)).toEqual(['__proto__', 'constructor', 'prototype', 'nested']);
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(doc, '__proto__')?.value).toEqual({ image: 'x' });
    expect(doc.image).toBeUndefined();
    expect(Object.getOwnPropertyDescriptor(doc.nested, '__proto__')?.value).toEqual([1]);
    expect(({} as any).image).toBeUndefined();
    // merged in, too
    const merged = first('base: &b {__proto__: {polluted: 1}}\nm: {<<: *b}\n').m;
    expect(Object.keys(merged)).toEqual(['__proto__']);
    expect(merged.polluted).toBeUndefined();
  });

  const protoGraph = [
    'apiVersion: nvidia.com/v1beta1', 'kind: DynamoGraphDeployment', 'metadata:', '  name: g', 'spec:', '  components:',
    '    - name: Frontend', '      type: frontend', '      __proto__:', '        image: x', '      podTemplate:', '        spec:',
    '          containers:', '            - name: main', '              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0', '',
  ].join('\n');

  test('a component with a __proto__ key reaches validation with the key as its own field', () => {
    const component = first(protoGraph).spec.components[0];
    expect(Object.keys(component)).toEqual(['name', 'type', '__proto__', 'podTemplate']);
  });

  test('the schema check reports a __proto__ key as an unknown field', () => {
    const paths = admissionRefusals(first(protoGraph), { operator: { version: '1.4.0' } }).filter(v => /unknown field/.test(v.message)).map(v => v.path);
    expect(paths).toEqual(['spec.components[0].__proto__']);
  });

  test('empty and null documents are left out; a file with no object is an error unless allowed', () => {
    expect(parseYamlDocuments('---\n# c\n---\na: 1\n---\n~\n---\nnull\n', 'f.yaml')).toEqual([{ a: 1 }]);
    const none = 'f.yaml: no objects: the file is empty or holds only comments and empty documents';
    expect(errorOf(() => parseYamlDocuments('', 'f.yaml'))).toBe(none);
    expect(errorOf(() => parseYamlDocuments('# only a comment\n---\n---\n~\n', 'f.yaml'))).toBe(none);
    expect(parseYamlDocuments('', 'f.yaml', { allowEmpty: true })).toEqual([]);
  });

  test.each([
    ['duplicate key', 'a: 1\nb: 2\na: 3\n',
      'line 3, column 1: duplicate key "a" (first at line 1, column 1); kubectl would silently keep the last value'],
    ['keys that kubectl reads as the same key', 'y: 1\ntrue: 2\n',
      'line 2, column 1: duplicate key "true" (first at line 1, column 1); kubectl would silently keep the last value'],
    ['duplicate key in a nested flow mapping', 'spec:\n  env: {a: 1, "a": 2}\n',
      'line 2, column 15: duplicate key "a" (first at line 2, column 9); kubectl would silently keep the last value'],
    ['null key', '~: a\n', 'line 1, column 1: a null key (kubectl: unsupported map key)'],
    ['empty key', ': a\n', 'line 1, column 1: a null key (kubectl: unsupported map key)'],
    ['collection key', '? [a]\n: 1\n', 'line 1, column 3: a mapping or a sequence as a key (kubectl: unsupported map key)'],
    ['uint64 key', '18446744073709551615: x\n', 'line 1, column 1: the key 18446744073709551615 (kubectl: unsupported map key)'],
    ['infinity', 'a: .inf\n', 'line 1, column 4: .inf is infinite, which JSON cannot hold (kubectl refuses it)'],
    ['not a number', 'a: [.NaN]\n', 'line 1, column 5: .NaN is not a number, which JSON cannot hold (kubectl refuses it)'],
    ['alias inside its own anchor', 'a: &x [1, *x]\n', 'line 1, column 11: anchor "x" value contains itself'],
    ['unknown anchor', 'a: *x\n', 'line 1, column 4: unknown anchor "x"'],
    ['control character', 'a: "x\x01y"\n',
      'line 1, column 6: control character U+0001 is not allowed (kubectl refuses it); write it escaped in a double-quoted string'],
    ['DEL', 'a: x\x7f\n', 'line 1, column 5: control character U+007F is not allowed (kubectl refuses it); write it escaped in a double-quoted string'],
    ['next line (NEL)', 'a: x\u0085y\n',
      'line 1, column 5: U+0085 is a line break to kubectl (YAML 1.1) but not to YAML 1.2 readers; write it escaped in a double-quoted string'],
    ['line separator', 'a: b\nc: "x\u2028y"\n',
      'line 2, column 6: U+2028 is a line break to kubectl (YAML 1.1) but not to YAML 1.2 readers; write it escaped in a double-quoted string'],
    ['%YAML directive', '%YAML 1.1\n---\na: 1\n', 'line 1, column 1: a % directive (%YAML, %TAG): kubectl cannot read a file that has one'],
    ['%TAG directive in a later document', 'a: 1\n...\n%TAG !e! tag:example.com,2000:\n---\nb: 1\n',
      'line 3, column 1: a % directive (%YAML, %TAG): kubectl cannot read a file that has one'],
    ['syntax error', 'a: [1, 2\n', 'line 2, column 1: Flow sequence in block collection must be sufficiently indented and end with a ]'],
    ['nesting one level too deep', `${'['.repeat(MAX_NESTING_DEPTH + 1)}${']'.repeat(MAX_NESTING_DEPTH + 1)}\n`,
      `line 1, column ${MAX_NESTING_DEPTH + 1}: nesting deeper than ${MAX_NESTING_DEPTH} levels`],
    ['nesting deeper than the parser\'s stack', `a: ${'['.repeat(5000)}${']'.repeat(5000)}\n`, /^line 1, column \d+: nesting deeper than 100 levels$/],
    ['block nesting one level too deep', `${Array.from({ length: MAX_NESTING_DEPTH + 1 }, (_, i) => `${' '.repeat(i)}k:`).join('\n')} 1\n`,
      `line ${MAX_NESTING_DEPTH + 1}, column ${MAX_NESTING_DEPTH + 1}: nesting deeper than ${MAX_NESTING_DEPTH} levels`],
    ['nesting through an alias', `a: &deep ${'['.repeat(60)}${']'.repeat(60)}\nb: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[*deep]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n`,
      'line 1, column 67: nesting deeper than 100 levels (reached through alias *deep at line 2, column 46)'],
    ['a billion laughs', [
      'a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]',
      ...Array.from({ length: 8 }, (_, i) => {
        const [name, prev] = [String.fromCharCode(98 + i), String.fromCharCode(97 + i)];
        return `${name}: &${name} [${Array(9).fill(`*${prev}`).join(', ')}]`;
      }), '',
    ].join('\n'),
    `line 6, column 8: excessive aliasing: alias *e and the aliases in it expand to more than ${MAX_ALIAS_EXPANSION} values`],
  ] as Array<[string, string, string | RegExp]>)('%s is an error naming the source and the position', (_name, text, message) => {
    const got = errorOf(() => parseYamlDocuments(text, 'dir/input.yaml'));
    if (typeof message === 'string') expect(got).toBe(`dir/input.yaml: invalid YAML at ${message}`);
    else expect(got.replace('dir/input.yaml: invalid YAML at ', '')).toMatch(message);
  });

  test('an alias bomb is refused quickly', () => {
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 12; i++) levels.push(`l${i}: &${String.fromCharCode(97 + i)} [${Array(10).fill(`*${String.fromCharCode(96 + i)}`).join(', ')}]`);
    const started = Date.now();
    expect(errorOf(() => parseYamlDocuments(levels.join('\n'), 'bomb.yaml'))).toMatch(/^bomb\.yaml: invalid YAML at line \d+, column \d+: excessive aliasing: /);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  test('UTF-8: a byte-order mark is dropped; other bytes that are not UTF-8 are an error with their position', () => {
    expect(parseYamlBytes(Buffer.from('\ufeffa: 1\n', 'utf8'), 'f.yaml')).toEqual([{ a: 1 }]);
    expect(decodeUtf8(Buffer.from('é ü 日本 🙂'), 'f.yaml')).toBe('é ü 日本 🙂');
    const bad = (bytes: number[]) => errorOf(() => decodeUtf8(Uint8Array.from(bytes), 'f.yaml'));
    expect(bad([0x61, 0x3a, 0x0a, 0x62, 0x3a, 0x20, 0xff, 0x0a])).toBe('f.yaml: not valid UTF-8 at line 2, column 4 (byte 0xff)');
    // Latin-1 "é"
    expect(bad([0x61, 0x3a, 0x20, 0xe9, 0x0a])).toBe('f.yaml: not valid UTF-8 at line 1, column 4 (byte 0xe9)');
    // an encoded surrogate, an overlong "/", a truncated sequence, UTF-16 with its byte-order mark
    expect(bad([0x61, 0xed, 0xa0, 0x80])).toBe('f.yaml: not valid UTF-8 at line 1, column 2 (byte 0xed)');
    expect(bad([0xc0, 0xaf])).toBe('f.yaml: not valid UTF-8 at line 1, column 1 (byte 0xc0)');
    expect(bad([0x61, 0xe6, 0x97])).toBe('f.yaml: not valid UTF-8 at line 1, column 4 (truncated sequence at the end)');
    expect(bad([0xff, 0xfe, 0x61, 0x00])).toBe('f.yaml: not valid UTF-8 at line 1, column 1 (byte 0xff)');
  });

  test("readAs 'yaml-1.2': YAML 1.2 core-schema scalars for reference files written by YAML 1.2 tools (the operator goldens)", () => {
    const text = 'env:\n  - name: NIXL_TELEMETRY_ENABLE\n    value: n\nmode: 0644\nu: 1_000\no: 0o14\nb: on\nt: true\nf: 1e3\nk: ~\n';
    expect(parseYamlDocuments(text, 'golden.yaml', { readAs: 'yaml-1.2' })).toEqual([
      { env: [{ name: 'NIXL_TELEMETRY_ENABLE', value: 'n' }], mode: 644, u: '1_000', o: 12, b: 'on', t: true, f: 1000, k: null },
    ]);
    expect(parseYamlDocuments(text, 'golden.yaml')).toEqual([
      { env: [{ name: 'NIXL_TELEMETRY_ENABLE', value: false }], mode: 420, u: 1000, o: 12, b: true, t: true, f: 1000, k: null },
    ]);
    const twelve = parseYamlDocuments('__proto__: {a: 1}\n', 'f.yaml', { readAs: 'yaml-1.2' })[0] as object;
    expect(Object.keys(twelve)).toEqual(['__proto__']);
    expect(errorOf(() => parseYamlDocuments('a: 1\na: 2\n', 'f.yaml', { readAs: 'yaml-1.2' }))).toBe('f.yaml: invalid YAML at line 2, column 1: Map keys must be unique');
    expect(errorOf(() => parseYamlDocuments(`${'['.repeat(MAX_NESTING_DEPTH + 1)}${']'.repeat(MAX_NESTING_DEPTH + 1)}`, 'f.yaml', { readAs: 'yaml-1.2' })))
      .toBe(`f.yaml: invalid YAML at line 1, column ${MAX_NESTING_DEPTH + 1}: nesting deeper than ${MAX_NESTING_DEPTH} levels`);
    expect(errorOf(() => parseYamlDocuments('', 'f.yaml', { readAs: 'yaml-1.2' }))).toBe('f.yaml: no objects: the file is empty or holds only comments and empty documents');
  });

  test('the operator configuration is read the same way, its errors naming the file and (document)', () => {
    expect(parseOperatorConfiguration('operatorVersion: 1.4.0\norchestrators:\n  grove:\n    enabled: on\n  lws:\n    enabled: n\n', 'op.yaml'))
      .toMatchObject({ version: '1.4.0', groveAvailable: true, lwsAvailable: false });
    expect(() => parseOperatorConfiguration('a: 1\na: 2\n', 'op.yaml'))
      .toThrow('op.yaml: (document): invalid YAML at line 2, column 1: duplicate key "a" (first at line 1, column 1); kubectl would silently keep the last value');
    expect(parseOperatorConfiguration('# nothing\n', 'op.yaml')).toEqual(parseOperatorConfiguration('{}', 'op.yaml'));
  });
});

// ------------------------------------------------------------------------------------------------
// Writing

describe('writing for kubectl and YAML 1.2 readers (stringifyYamlDocuments)', () => {
  test('strings any reader could read as something else are double-quoted, keys too; escapes kubectl needs', () => {
    expect(stringifyYamlDocuments([{
      'env': [{ name: 'NIXL_TELEMETRY_ENABLE', value: 'n' }],
      'y': 'yes',
      'on': 'off',
      'NO': 'No',
      '0644': '0644',
      'a': '0o14',
      'b': '1e3',
      'c': '1_000',
      'd': '1:20',
      'e': '2024-01-01',
      'f': '.Inf',
      'g': '=',
      '<<': '<<',
      'h': '~',
      'i': '',
      'j': '1.2.3',
      'k': 'plain',
      'l': 1,
      'm': true,
      'n': null,
      'o': 'a\nb\n',
      'p': 'line\u2028sep',
      'q': 'x\x7fy',
      'r': 'x\x85y',
      's': '0X1F',
      't': '+_1',
    }, { second: 'y' }])).toBe([
      'env:',
      '  - name: NIXL_TELEMETRY_ENABLE',
      '    value: "n"',
      '"y": "yes"',
      '"on": "off"',
      '"NO": "No"',
      '"0644": "0644"',
      'a: "0o14"',
      'b: "1e3"',
      'c: "1_000"',
      'd: "1:20"',
      'e: "2024-01-01"',
      'f: ".Inf"',
      'g: "="',
      '"<<": "<<"',
      'h: "~"',
      'i: ""',
      'j: "1.2.3"',
      'k: plain',
      'l: 1',
      'm: true',
      '"n": null',
      'o: |',
      '  a',
      '  b',
      'p: "line\\Lsep"',
      'q: "x\\x7fy"',
      'r: "x\\Ny"',
      's: "0X1F"',
      't: "+_1"',
      '---',
      'second: "y"',
      '',
    ].join('\n'));
  });

  test('deterministic, key order kept, repeated objects written out rather than aliased', () => {
    const shared = { name: 'X', value: 'on' };
    const docs = [{ kind: 'A', z: 1, a: 2, list: [shared, shared] }, { kind: 'B', env: shared }];
    const text = stringifyYamlDocuments(docs);
    expect(stringifyYamlDocuments(JSON.parse(JSON.stringify(docs)))).toBe(text);
    expect(text).not.toMatch(/[&*]a\d/);
    expect(text.split('\n').slice(0, 3)).toEqual(['kind: A', 'z: 1', 'a: 2']);
    expect(stringifyYamlDocuments([])).toBe('');
  });

  test('what we write we read back unchanged, and YAML 1.2 and 1.1 readers read the same', () => {
    const values = [...TRICKY_STRINGS, ...GENERATED_SCALARS];
    const doc = { data: Object.fromEntries(values.map((v, i) => [`k${i}`, v])), keys: Object.fromEntries(values.map((v, i) => [v, i])) };
    const text = stringifyYamlDocuments([doc]);
    expect(parseYamlDocuments(text, 'out.yaml')).toEqual([doc]);
    expect(jsonDifferences(yaml12Read(text), [doc])).toEqual([]);
    expect(jsonDifferences(yaml11Read(text), [doc])).toEqual([]);
  });

  test('isAmbiguousPlainScalar: the YAML 1.1 type repository, YAML 1.2 core and go-yaml v2', () => {
    const ambiguous = ['y', 'NO', 'oFF', 'Off', '~', '', '0o7', '0B1', '0x_1', '1:20', '1.2.3', '.', '2001-12-14 21:59:43.10', '=', '<<', '.nan', '-.INF', '1e3', '+_1', '1e-_9'];
    expect(ambiguous.filter(s => !isAmbiguousPlainScalar(s))).toEqual(['oFF']);
    expect(['plain', 'v1.2.3', 'nvcr.io/x:1.4.0', '500m', '1Gi', 'yes please', 'a=b', '1:2:x', '-', '_1'].filter(isAmbiguousPlainScalar)).toEqual([]);
    expect(resolvePlainScalar('0o644')).toEqual({ kind: 'int', value: 420n });
  });
});

/** Strings that trip YAML writers: types by spelling, indicators, whitespace, line breaks, Unicode. */
const TRICKY_STRINGS: readonly string[] = [
  ...PLAIN_READINGS.map(([text]) => text),
  'yes please', 'on-call', 'NULL pointer', '0644 ', ' 0644', '1e3x', '1_000_', '0x', '0b2', '0o8', '+', '-', '--', '---', '...', '--- x', 'a\n---\nb',
  '', ' ', '  ', ' lead', 'trail ', 'a #b', '#c', 'a: b', 'a:b', ':a', 'a:', '- a', '? x', '?', ':', '@x', '`x', '%x', '!x', '!!str', '&x', '*x',
  '|', '>', "'", '"', "a'b\"c", '{x}', '[x]', 'x,y', '{', ']', 'line1\nline2', 'line1\nline2\n', 'a\n\n', '\n', '\n\n', '  indented\nlines',
  'trailing spaces  \nx', 'x\n  ', 'tab\there', '\ttab', 'tab\t', 'x\x01y', 'x\x1by', 'x\x7fy', 'x\x85y', 'x\x9fy', 'x\u2028y', 'x\u2029y',
  'x\ufeffy', 'x\ufffey', 'é ü 日本 🙂', `${'long '.repeat(20)}\n${' more'.repeat(20)} \nend`, `${'x'.repeat(100)} \n y`,
  'http://example.com/a?b=c#d', 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:0.8.1', '${VAR}', '{{ template }}', 'a: [1, 2]',
];

/** Every string of up to three characters over the characters of YAML numbers. */
const GENERATED_SCALARS: readonly string[] = (() => {
  const alphabet = '0179xXoObBeE._+-:'.split('');
  const out: string[] = [];
  const grow = (prefix: string, n: number) => {
    for (const c of alphabet) {
      out.push(prefix + c);
      if (n > 1) grow(prefix + c, n - 1);
    }
  };
  grow('', 3);
  return out;
})();

// ------------------------------------------------------------------------------------------------
// kubectl

describe(`kubectl ${kubectlVersion() ?? '(absent)'} reads what we write as we meant it, and reads input as we do`, () => {
  kubectlTest('the plain scalars of the expectations above read the same with kubectl', () => {
    const text = `apiVersion: v1\nkind: Scalars\nmetadata:\n  name: plain\ndata:\n${PLAIN_READINGS.map(([s], i) => `  k${i}: ${s}\n`).join('')}`;
    const [byKubectl] = kubectlObjects(text) as any[];
    expect(jsonDifferences(byKubectl, parseYamlDocuments(text, 'plain.yaml')[0])).toEqual([]);
    expect(PLAIN_READINGS.map((_, i) => byKubectl.data[`k${i}`])).toEqual(PLAIN_READINGS.map(([, v]) => v));
  });

  kubectlTest('every plain scalar of up to three number characters, as a value and as a key, reads as kubectl reads it', () => {
    const plain = GENERATED_SCALARS.filter(s => {
      const parsed = YAML.parseDocument(`k: ${s}\n`, { schema: 'failsafe' });
      const value = YAML.isMap(parsed.contents) ? parsed.contents.items[0].value : undefined;
      return parsed.errors.length === 0 && YAML.isScalar(value) && value.type === 'PLAIN' && value.value === s;
    });
    expect(plain.length).toBeGreaterThan(3000);
    const values = `apiVersion: v1\nkind: Scalars\nmetadata:\n  name: values\ndata:\n${plain.map((s, i) => `  k${i}: ${s}\n`).join('')}`;
    expect(jsonDifferences(kubectlObjects(values), parseYamlDocuments(values, 'values.yaml'))).toEqual([]);
    // as keys: one per distinct key kubectl would make (`1` and `01` are both "1")
    const byKey = new Map<string, string>();
    for (const s of plain) {
      if (s === '<<' || resolvePlainScalar(s).kind === 'null') continue;
      const key = Object.keys(first(`${s}: x\n`))[0];
      if (!byKey.has(key)) byKey.set(key, s);
    }
    const keys = `apiVersion: v1\nkind: Scalars\nmetadata:\n  name: keys\ndata:\n${[...byKey.values()].map((s, i) => `  ${s}: v${i}\n`).join('')}`;
    expect(jsonDifferences(kubectlObjects(keys), parseYamlDocuments(keys, 'keys.yaml'))).toEqual([]);
  });

  kubectlTest('the tricky strings and all the generated ones, written by us, read back unchanged by kubectl, as values and as keys', () => {
    const values = [...TRICKY_STRINGS, ...GENERATED_SCALARS];
    const doc = {
      apiVersion: 'v1',
      kind: 'Scalars',
      metadata: { name: 'written' },
      data: Object.fromEntries(values.map((v, i) => [`k${i}`, v])),
      keys: Object.fromEntries(values.map((v, i) => [v, i])),
    };
    const text = stringifyYamlDocuments([doc]);
    expect(jsonDifferences(kubectlObjects(text), [doc])).toEqual([]);
  });

  kubectlTest('kubectl refuses what we refuse to read as it would', () => {
    const refused = (text: string) => 'error' in kubectlRead(`apiVersion: v1\nkind: X\nmetadata:\n  name: x\n${text}`);
    expect(refused('a: .inf\n')).toBe(true);
    expect(refused('~: a\n')).toBe(true);
    expect(refused('a: &x [*x]\n')).toBe(true);
    expect(refused('a: "x\x01y"\n')).toBe(true);
    expect(refused('a: !!int abc\n')).toBe(true);
    // kubectl silently keeps the last of duplicate keys; we refuse them
    expect(kubectlObjects('apiVersion: v1\nkind: X\nmetadata:\n  name: x\na: 1\na: 2\n')).toEqual([{ apiVersion: 'v1', kind: 'X', metadata: { name: 'x' }, a: 2 }]);
    expect(() => parseYamlDocuments('a: 1\na: 2\n')).toThrow(/duplicate key "a"/);
  });
});

// ------------------------------------------------------------------------------------------------
// The corpus through kubectl

interface CorpusFile {
  readonly file: string;
  readonly text: string;
  readonly docs: unknown[];
}

function readCorpus(): CorpusFile[] {
  if (!CORPUS_DIR) return [];
  const dir = fs.existsSync(path.join(CORPUS_DIR, 'v1beta1')) ? path.join(CORPUS_DIR, 'v1beta1') : CORPUS_DIR;
  return fs.readdirSync(dir).filter(f => f.endsWith('.yaml')).sort().map(file => {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    return { file, text, docs: parseYamlDocuments(text, file) };
  });
}

/** All files as one stream (kubectl reads it in one call). */
function concatenated(texts: readonly string[]): string {
  return texts.map(t => (t.endsWith('\n') ? t : `${t}\n`)).join('---\n');
}

/** The rendered objects of every corpus graph in one output mode (renders the engine refuses are left out). */
function renderCorpus(corpus: readonly CorpusFile[], output: OutputMode, workloadsPath: WorkloadsPath = 'lws'): unknown[] {
  const objects: unknown[] = [];
  for (const { file, docs } of corpus) {
    docs.forEach((doc, i) => {
      if ((doc as any)?.kind !== 'DynamoGraphDeployment') return;
      if (output === 'workloads') {
        objects.push(...renderGraphWorkloads(`${file}#${i}`, doc as any, workloadsPath).objects);
        return;
      }
      try {
        objects.push(...renderUnchecked([withVersionedImages(doc)], { output, settings: WORKLOADS_OPERATORS.lws }));
      } catch {
        // refused renders are the corpus tests' business
      }
    });
  }
  return objects;
}

describe('the corpus read by kubectl', () => {
  const corpus = KUBECTL && CORPUS_DIR ? readCorpus() : [];

  corpusKubectlTest('parseYamlDocuments reads every corpus file as kubectl does', () => {
    expect(corpus.length).toBeGreaterThan(0);
    const ours = corpus.flatMap(c => c.docs);
    expect(jsonDifferences(kubectlObjects(concatenated(corpus.map(c => c.text))), ours)).toEqual([]);
  }, 60_000);

  corpusKubectlTest('render --output graph means to kubectl exactly what its input meant', () => {
    const inputs = kubectlObjects(concatenated(corpus.map(c => c.text)));
    const outputs = kubectlObjects(concatenated(corpus.map(c => stringifyYamlDocuments(render(c.docs, { output: 'graph' })))));
    expect(outputs.length).toBe(inputs.length);
    expect(jsonDifferences(outputs, inputs)).toEqual([]);
  }, 60_000);

  const modes: Array<[string, OutputMode, WorkloadsPath]> = [
    ['graph', 'graph', 'lws'], ['components', 'components', 'lws'], ['workloads (without Grove)', 'workloads', 'lws'], ['workloads (with Grove)', 'workloads', 'grove'],
  ];
  for (const [title, output, workloadsPath] of modes) {
    corpusKubectlTest(`${title} output: kubectl, YAML 1.2 and YAML 1.1 readers read the written objects unchanged`, () => {
      const objects = JSON.parse(JSON.stringify(renderCorpus(corpus, output, workloadsPath)));
      expect(objects.length).toBeGreaterThan(corpus.length);
      const text = stringifyYamlDocuments(objects);
      expect(jsonDifferences(kubectlObjects(text), objects)).toEqual([]);
      expect(jsonDifferences(yaml12Read(text), objects)).toEqual([]);
      expect(jsonDifferences(yaml11Read(text), objects)).toEqual([]);
      expect(jsonDifferences(parseYamlDocuments(text, 'out.yaml'), objects)).toEqual([]);
    }, 120_000);
  }
});

// ------------------------------------------------------------------------------------------------
// cdk8s's own serializer (not ours to change; documented in docs/commands.md)

describe('cdk8s Yaml.stringify (what `cdk8s synth` writes) has gaps kubectl reads differently', () => {
  const GAPS = ['0o14', '0O14', '0X1F', '0B101', '+_1', '1e-_9', '0_x1F'];

  test('it writes these strings unquoted', () => {
    const text = Yaml.stringify({ data: Object.fromEntries(GAPS.map(s => [s, s])) });
    expect(text.trim().split('\n').slice(1)).toEqual(GAPS.map(s => `  ${s}: ${s}`));
    // a YAML 1.2 reader reads the 0o octal as a number too
    expect(yaml12Read(text)).toEqual([{ data: { '12': 12, '0O14': '0O14', '0X1F': '0X1F', '0B101': '0B101', '+_1': '+_1', '1e-_9': '1e-_9', '0_x1F': '0_x1F' } }]);
  });

  kubectlTest('kubectl reads them as numbers, and refuses control characters cdk8s writes raw', () => {
    const text = Yaml.stringify({ apiVersion: 'v1', kind: 'Scalars', metadata: { name: 'cdk8s' }, data: Object.fromEntries(GAPS.map((s, i) => [`k${i}`, s])) });
    const [read] = kubectlObjects(text) as any[];
    expect(GAPS.map((_, i) => read.data[`k${i}`])).toEqual([12, 12, 31, 5, 1, 1e-9, 31]);
    const raw = (s: string) => kubectlRead(Yaml.stringify({ apiVersion: 'v1', kind: 'Scalars', metadata: { name: 'cdk8s' }, data: { k: s } }));
    expect(raw('x\x7fy')).toEqual({ error: expect.stringMatching(/control characters are not allowed/) });
    expect(raw('x\u2028y')).toEqual({ error: expect.stringMatching(/could not find expected ':'|did not find expected/) });
  });
});
