import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankByValue } from '../../../electron/core/compare/rank';

/** The order rankByValue promises, by a comparison sort: by value (-0 = 0), ties by position. */
function bruteForce(values: ArrayLike<number>): { ranked: number[]; rest: number[] } {
  const positions = Array.from(values, (_, k) => k);
  const present = positions.filter((k) => !Number.isNaN(values[k]));
  return {
    ranked: present.sort((a, b) => values[a]! - values[b]! || a - b),
    rest: positions.filter((k) => Number.isNaN(values[k])),
  };
}

const special = [0, -0, NaN, Infinity, -Infinity, 1, -1, 0.25, -0.25, 5e-324, -5e-324, 1e308];
const valueArb = fc.oneof(
  fc.constantFrom(...special),
  fc.double(),
  fc.integer({ min: -3, max: 3 }),
);

describe('ranking positions by value', () => {
  it('sorts Float64 values as numbers, ties and -0/0 in position order, NaN after', () => {
    fc.assert(
      fc.property(fc.array(valueArb, { maxLength: 300 }), (list) => {
        const values = Float64Array.from(list);
        const { ranked, rest } = rankByValue(values);
        expect({ ranked: [...ranked], rest: [...rest] }).toEqual(bruteForce(values));
      }),
      { numRuns: 300 },
    );
  });

  it('sorts Float32 values alike, views into a larger buffer included', () => {
    fc.assert(
      fc.property(fc.array(valueArb, { maxLength: 300 }), fc.nat({ max: 5 }), (list, offset) => {
        const buffer = new Float32Array(list.length + offset);
        buffer.set(list.map(Math.fround), offset);
        const values = buffer.subarray(offset);
        const { ranked, rest } = rankByValue(values);
        expect({ ranked: [...ranked], rest: [...rest] }).toEqual(bruteForce(values));
      }),
      { numRuns: 300 },
    );
  });

  it('sorts any bit pattern as its number: NaN payloads, subnormals, words apart in one bit', () => {
    // Words near the edges of each part of a float (sign, exponent, top and low mantissa bits).
    const word = fc.oneof(
      fc.integer({ min: 0, max: 0xffffffff }),
      fc.constantFrom(0, 1, 0xffff, 0x10000, 0x7f800000, 0x7ff00000, 0x80000000, 0xffffffff),
    );
    fc.assert(
      fc.property(fc.array(fc.tuple(word, word), { maxLength: 200 }), (pairs) => {
        const wide = new Float64Array(new Uint32Array(pairs.flat()).buffer);
        const narrow = new Float32Array(new Uint32Array(pairs.map(([hi]) => hi)).buffer);
        for (const values of [wide, narrow]) {
          const { ranked, rest } = rankByValue(values);
          expect({ ranked: [...ranked], rest: [...rest] }).toEqual(bruteForce(values));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('sorts whole numbers, negative ones and -0 among them, as numbers', () => {
    const values = Float64Array.from([3, -2, 0, -0, -2, 1, -1e6, NaN, 7, -3]);
    const { ranked, rest } = rankByValue(values);
    expect({ ranked: [...ranked], rest: [...rest] }).toEqual(bruteForce(values));
    const narrow = Float32Array.from(values);
    expect([...rankByValue(narrow).ranked]).toEqual([...ranked]);
  });

  it('sorts on every 16-bit digit: values apart only in their lowest or highest bits', () => {
    const bits = new Uint32Array([0x3f800001, 0x3f800000, 0xbf800001, 0xbf800000, 0x40000000]);
    const values = new Float32Array(bits.buffer);
    expect([...rankByValue(values).ranked]).toEqual([2, 3, 1, 0, 4]);
    const wide = Float64Array.from([1 + 2 ** -52, 1, -1 - 2 ** -52, -1, 2, 1 + 2 ** -52]);
    expect([...rankByValue(wide).ranked]).toEqual([2, 3, 1, 0, 5, 4]);
  });

  it('leaves an empty or all-NaN array with nothing ranked', () => {
    expect(rankByValue(new Float64Array(0))).toEqual({
      ranked: new Int32Array(0),
      rest: new Int32Array(0),
    });
    expect([...rankByValue(Float32Array.from([NaN, NaN])).rest]).toEqual([0, 1]);
  });
});
