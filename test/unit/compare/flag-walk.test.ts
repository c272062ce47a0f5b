import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { flagWalk } from '../../../electron/core/compare/order';

/** The walk of a sort by the flag: rows without it, then with it, each by position; reversed descending. */
function walked(flags: number[], bit: number, keep: boolean[], descending: boolean): number[] {
  const ks = flags.map((_, k) => k);
  const ascending = [...ks.filter((k) => !(flags[k]! & bit)), ...ks.filter((k) => flags[k]! & bit)];
  return (descending ? ascending.reverse() : ascending).filter((k) => keep[k]);
}

describe("a sort by a flag's first rows without the order", () => {
  it("are the order's first rows that the filter keeps, from either end", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: 255 }), fc.boolean()), { maxLength: 300 }),
        fc.constantFrom(1, 4, 16),
        fc.boolean(),
        fc.boolean(),
        fc.nat({ max: 320 }),
        (rows, bit, filtered, descending, count) => {
          const flags = rows.map(([f]) => f);
          const keep = rows.map(([, kept]) => !filtered || kept);
          const marks = filtered ? Uint8Array.from(keep, Number) : null;
          expect(flagWalk(Uint8Array.from(flags), bit, marks, count, descending)).toEqual(
            walked(flags, bit, keep, descending).slice(0, count),
          );
        },
      ),
      { numRuns: 500 },
    );
  });
});
