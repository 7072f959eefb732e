/**
 * `sameAsCopy(value, made)`: whether a copy `copyJson` made earlier still equals what copying the
 * value now would make (the key of a construct's kept validation).
 */
import * as fc from 'fast-check';
import { copyJson, sameAsCopy } from '../src/model/json-copy';

describe('sameAsCopy', () => {
  test('any JSON value equals its own copy, and a copy equals a copy of it', () => {
    fc.assert(fc.property(fc.jsonValue(), value => {
      const made = copyJson(value);
      expect(sameAsCopy(value, made)).toBe(true);
      expect(sameAsCopy(made, copyJson(made))).toBe(true);
    }));
  });

  test('a value changed after the copy is not the same, at any depth', () => {
    fc.assert(fc.property(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 2 }), (inner, other) => {
      fc.pre(JSON.stringify(other) !== JSON.stringify(inner));
      const value: any = { spec: { components: [{ name: 'a', podTemplate: { x: inner } }] } };
      const made = copyJson(value);
      value.spec.components[0].podTemplate.x = other;
      expect(sameAsCopy(value, made)).toBe(false);
    }));
  });

  test('leaves compare as Object.is: -0 is not 0, NaN is NaN', () => {
    expect(sameAsCopy({ a: -0 }, { a: 0 })).toBe(false);
    expect(sameAsCopy({ a: NaN }, { a: NaN })).toBe(true);
    expect(sameAsCopy({ a: 1 }, { a: '1' })).toBe(false);
    expect(sameAsCopy(null, {})).toBe(false);
    expect(sameAsCopy({}, null)).toBe(false);
  });

  test('key order, added and removed keys, and keys holding undefined count', () => {
    expect(sameAsCopy({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(sameAsCopy({ a: 1, b: 2 }, { a: 1 })).toBe(false);
    expect(sameAsCopy({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(sameAsCopy({ a: 1, b: undefined }, { a: 1 })).toBe(false);
    expect(sameAsCopy({ a: 1, b: undefined }, copyJson({ a: 1, b: undefined }))).toBe(true);
  });

  test('arrays: length, holes and kind count', () => {
    // eslint-disable-next-line no-sparse-arrays
    const holey = [1, , 3];
    expect(sameAsCopy(holey, copyJson(holey))).toBe(true);
    expect(sameAsCopy(holey, [1, undefined, 3])).toBe(false);
    expect(sameAsCopy([1, 2], [1, 2, 3])).toBe(false);
    expect(sameAsCopy([], {})).toBe(false);
    expect(sameAsCopy({}, [])).toBe(false);
  });

  test('an object shared with the copy is not taken as the same (the copy must be a copy)', () => {
    const shared = { a: 1 };
    expect(sameAsCopy({ x: shared }, { x: shared })).toBe(false);
  });

  test('a reference cycle or a tree deeper than copyJson copies itself is not the same (left to the text)', () => {
    const cyclic: any = { a: {} };
    cyclic.a.back = cyclic;
    expect(sameAsCopy(cyclic, copyJson(cyclic))).toBe(false);
    let deep: any = 'leaf';
    for (let i = 0; i < 250; i++) deep = { d: deep };
    expect(sameAsCopy(deep, copyJson(deep))).toBe(false);
    let shallow: any = 'leaf';
    for (let i = 0; i < 150; i++) shallow = { d: shallow };
    expect(sameAsCopy(shallow, copyJson(shallow))).toBe(true);
  });
});
