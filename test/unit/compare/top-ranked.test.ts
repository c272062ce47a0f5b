import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankByValue } from '../../../electron/core/compare/rank';
import { topRanked } from '../../../electron/core/compare/top-ranked';

/** The full order's walk (order.ts over rankByValue), the rows `keep` drops left out. */
function walked(values: Float32Array | Float64Array, keep: boolean[], descending: boolean) {
  const { ranked, rest } = rankByValue(values);
  const walk = descending ? [...ranked].reverse() : [...ranked];
  return [...walk, ...rest].filter((k) => keep[k]);
}

const special = [0, -0, NaN, Infinity, -Infinity, 1, -1, 0.25, -0.25, 5e-324, 1e308];
const valueArb = fc.oneof(
  fc.constantFrom(...special),
  fc.double(),
  // Many ties, as differences of whole-number scores have.
  fc.integer({ min: -2, max: 2 }),
);

describe("a sort by difference's first rows without the sort", () => {
  it("are the full order's first rows, ties, -0/0 and the rows with no value included", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(valueArb, fc.boolean()), { maxLength: 300 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.nat({ max: 40 }),
        (rows, narrow, filtered, descending, limit) => {
          const list = rows.map(([v]) => v);
          const values = narrow ? Float32Array.from(list) : Float64Array.from(list);
          const keep = rows.map(([, kept]) => !filtered || kept);
          const marks = filtered ? Uint8Array.from(keep, Number) : null;
          expect(topRanked(values, marks, limit, descending)).toEqual(
            walked(values, keep, descending).slice(0, limit),
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps the first rows of a long run of ties, from either end', () => {
    const values = new Float32Array(1000).fill(1);
    values[500] = 0;
    expect(topRanked(values, null, 3, false)).toEqual([500, 0, 1]);
    expect(topRanked(values, null, 3, true)).toEqual([999, 998, 997]);
  });
});
