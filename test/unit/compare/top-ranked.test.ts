import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { rankByValue } from '../../../electron/core/compare/rank';
import { topRanked, type ValueChunks } from '../../../electron/core/compare/top-ranked';

/** The values in chunks of `size`, as a pair's file gives them (the last one shorter). */
function inChunks(values: Float32Array | Float64Array, size: number): ValueChunks {
  return (backwards, visit) => {
    const starts: number[] = [];
    for (let k = 0; k < values.length; k += size) starts.push(k);
    if (backwards) starts.reverse();
    for (const k of starts) visit(values.subarray(k, k + size), k);
  };
}

/** The first rows, and the value of each as a page's cursor reads it. */
function firstRows(
  values: Float32Array | Float64Array,
  size: number,
  keep: Uint8Array | null,
  limit: number,
  descending: boolean,
) {
  const { rows, value } = topRanked(inChunks(values, size), keep, limit, descending);
  return { rows, values: rows.map(value) };
}

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
        fc.integer({ min: 1, max: 400 }),
        (rows, narrow, filtered, descending, limit, chunk) => {
          const list = rows.map(([v]) => v);
          const values = narrow ? Float32Array.from(list) : Float64Array.from(list);
          const keep = rows.map(([, kept]) => !filtered || kept);
          const marks = filtered ? Uint8Array.from(keep, Number) : null;
          const expected = walked(values, keep, descending).slice(0, limit);
          expect(firstRows(values, chunk, marks, limit, descending)).toEqual({
            rows: expected,
            values: expected.map((k) => (Number.isNaN(values[k]!) ? null : values[k]!)),
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps the first rows of a long run of ties, from either end', () => {
    const values = new Float32Array(1000).fill(1);
    values[500] = 0;
    for (const size of [1000, 7, 1]) {
      expect(firstRows(values, size, null, 3, false).rows).toEqual([500, 0, 1]);
      expect(firstRows(values, size, null, 3, true).rows).toEqual([999, 998, 997]);
    }
  });
});
