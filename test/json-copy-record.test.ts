/**
 * `CopyRecord.of(made).matches(value)`: whether a copy `copyJson` made earlier still equals what
 * copying the value now would make (the key of a construct's kept validation).
 */
import * as fc from 'fast-check';
import { copyJson, CopyRecord } from '../src/model';

/** Whether `value` would copy as `made` did. */
const matches = (value: unknown, made: unknown) => CopyRecord.of(made).matches(value);

describe('CopyRecord', () => {
  test('any JSON value matches its own copy, and a copy matches a copy of it', () => {
    fc.assert(fc.property(fc.jsonValue(), value => {
      const made = copyJson(value);
      expect(matches(value, made)).toBe(true);
      expect(matches(made, copyJson(made))).toBe(true);
    }));
  });

  test('a value changed after the copy does not match, at any depth', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 2 }), (inner, other) => {
      fc.pre(JSON.stringify(other) !== JSON.stringify(inner));
      const value: any = { spec: { components: [{ name: 'a', podTemplate: { x: inner } }], after: 1 } };
      const record = CopyRecord.of(copyJson(value));
      value.spec.components[0].podTemplate.x = other;
      expect(record.matches(value)).toBe(false);
    }));
  });

  test('a record can be matched again and again', () => {
    const value = { a: [1, { b: 'c' }], d: 'e' };
    const record = CopyRecord.of(copyJson(value));
    expect(record.matches(value)).toBe(true);
    expect(record.matches({ a: [1, { b: 'x' }], d: 'e' })).toBe(false);
    expect(record.matches(value)).toBe(true);
  });

  test('a match started during another (from a getter of the value walked) is false; the outer one is not disturbed', () => {
    const made = { a: 1, b: 2 };
    const record = CopyRecord.of(made);
    let inner: boolean | undefined;
    const value = { a: 1, get b() { inner = record.matches(made); return 2; } };
    expect(record.matches(value)).toBe(true);
    expect(inner).toBe(false);
    expect(record.matches(made)).toBe(true);
  });

  test('leaves compare as Object.is: -0 is not 0, NaN is NaN', () => {
    expect(matches({ a: -0 }, { a: 0 })).toBe(false);
    expect(matches({ a: NaN }, { a: NaN })).toBe(true);
    expect(matches({ a: 1 }, { a: '1' })).toBe(false);
    expect(matches(null, {})).toBe(false);
    expect(matches({}, null)).toBe(false);
    expect(matches('a', 'a')).toBe(true);
  });

  test('key order, added and removed keys, and keys holding undefined count', () => {
    expect(matches({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(matches({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(matches({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(matches({ a: 1, b: undefined }, { a: 1 })).toBe(false);
    expect(matches({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(matches({ a: 1, b: undefined }, copyJson({ a: 1, b: undefined }))).toBe(true);
  });

  test('arrays: length, holes and kind count', () => {
    // eslint-disable-next-line no-sparse-arrays
    const holey = [1, , 3];
    expect(matches(holey, copyJson(holey))).toBe(true);
    expect(matches(holey, [1, undefined, 3])).toBe(false);
    expect(matches([1, undefined, 3], holey)).toBe(false);
    expect(matches([1, 2], [1, 2, 3])).toBe(false);
    expect(matches([1, 2, 3], [1, 2])).toBe(false);
    expect(matches([], {})).toBe(false);
    expect(matches({}, [])).toBe(false);
  });

  test('an object that inherits enumerable keys does not match (copyJson would not copy them)', () => {
    const value = Object.create({ inherited: 1 });
    value.own = 2;
    expect(matches(value, { own: 2 })).toBe(false);
  });

  test('a reference cycle or a tree deeper than copyJson copies itself does not match (left to the text)', () => {
    const cyclic: any = { a: {} };
    cyclic.a.back = cyclic;
    expect(matches(cyclic, copyJson(cyclic))).toBe(false);
    let deep: any = 'leaf';
    for (let i = 0; i < 250; i++) deep = { d: deep };
    expect(matches(deep, copyJson(deep))).toBe(false);
    let shallow: any = 'leaf';
    for (let i = 0; i < 150; i++) shallow = { d: shallow };
    expect(matches(shallow, copyJson(shallow))).toBe(true);
  });
});
