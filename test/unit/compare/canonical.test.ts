import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  compareStrings,
  flatten,
  jsonEqual,
} from '../../../shared/compare/canonical';

describe('canonicalJson', () => {
  it('ignores key order, writes 1.0 as 1 and -0 as 0', () => {
    expect(canonicalJson({ b: 1.0, a: [2, { d: -0, c: 'x' }] })).toBe(
      '{"a":[2,{"c":"x","d":0}],"b":1}',
    );
    expect(canonicalJson({ a: 1, b: 2 })).toBe(canonicalJson({ b: 2, a: 1 }));
  });

  it('keeps array order and distinguishes types', () => {
    expect(canonicalJson([1, 2])).not.toBe(canonicalJson([2, 1]));
    expect(canonicalJson(true)).not.toBe(canonicalJson(1));
    expect(canonicalJson('1')).not.toBe(canonicalJson(1));
  });
});

describe('jsonEqual', () => {
  it.each([
    [{ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1.0 }, true],
    [0, -0, true],
    [{ a: 1 }, { a: 1, b: null }, false],
    [{ a: 1 }, { a: 1, b: 2 }, false],
    [[1, 2], [2, 1], false],
    [true, 1, false],
    [null, null, true],
    ['a', 'A', false],
  ])('%j vs %j → %s, as canonical JSON says', (a, b, equal) => {
    expect(jsonEqual(a, b)).toBe(equal);
    expect(canonicalJson(a) === canonicalJson(b)).toBe(equal);
  });
});

describe('flatten', () => {
  it('flattens nested objects to leaf paths; arrays and empty objects are leaves', () => {
    const leaves = flatten({ t: 0.5, sampling: { top_p: 0.9, stop: ['a', 'b'] }, extra: {} });
    expect([...leaves.entries()]).toEqual([
      ['t', 0.5],
      ['sampling.top_p', 0.9],
      ['sampling.stop', ['a', 'b']],
      ['extra', {}],
    ]);
  });

  it('keeps anything deeper than the cap as one leaf', () => {
    const deep = { a: { b: { c: { d: 1 } } } };
    expect([...flatten(deep, 2).entries()]).toEqual([['a.b', { c: { d: 1 } }]]);
    expect([...flatten(deep).keys()]).toEqual(['a.b.c.d']);
  });

  it('treats null and undefined input as empty', () => {
    expect(flatten(null).size).toBe(0);
    expect(flatten(undefined).size).toBe(0);
  });
});

describe('compareStrings', () => {
  it('orders by code unit, independent of locale', () => {
    expect(['b', 'B', 'a', 'é', '10', '9'].sort(compareStrings)).toEqual([
      '10',
      '9',
      'B',
      'a',
      'b',
      'é',
    ]);
  });
});
