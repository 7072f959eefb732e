/**
 * The one deep copy (`copyJson`), the one JSON round trip (`jsonRoundTrip`) and the one JSON
 * equality (`jsonEqual`) of the library, on the inputs where they differ.
 */
import { copyJson, jsonEqual, jsonRoundTrip } from '../src/model';

describe('copyJson', () => {
  test('copies shared references separately and keeps a __proto__ key as an own key', () => {
    const shared = { a: [1, 2] };
    const source = JSON.parse('{"x": 1, "__proto__": {"polluted": true}}');
    source.left = shared;
    source.right = shared;
    const copy = copyJson(source);
    expect(copy).toEqual(source);
    expect(copy.left).not.toBe(shared);
    expect(copy.left).not.toBe(copy.right);
    expect(Object.prototype.hasOwnProperty.call(copy, '__proto__')).toBe(true);
    expect(({} as any).polluted).toBeUndefined();
  });

  test('cuts a reference cycle, replacing it by null', () => {
    const cyclic: any = { name: 'a', items: [] };
    cyclic.items.push(cyclic);
    expect(copyJson(cyclic)).toEqual({ name: 'a', items: [null] });
  });

  test('copies a tree deeper than its own recursion limit the same', () => {
    let deep: any = { leaf: true };
    for (let i = 0; i < 500; i++) deep = { next: deep, undefinedMember: undefined };
    const copy = copyJson(deep);
    expect(copy).toEqual(deep);
    expect('undefinedMember' in copy).toBe(true);
  });
});

describe('jsonRoundTrip', () => {
  test('reads back what JSON keeps: undefined members dropped, undefined items null', () => {
    const value = { a: undefined, b: [undefined, 1], c: Number.NaN };
    expect(jsonRoundTrip(value)).toStrictEqual({ b: [null, 1], c: null });
    expect(jsonRoundTrip(undefined)).toBeUndefined();
  });

  test('is an error on a reference cycle', () => {
    const cyclic: any = {};
    cyclic.self = cyclic;
    expect(() => jsonRoundTrip(cyclic)).toThrow(TypeError);
  });
});

describe('jsonEqual', () => {
  test('ignores key order and undefined members, not array order', () => {
    expect(jsonEqual({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1, gone: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: null }, { a: undefined })).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
  });
});
