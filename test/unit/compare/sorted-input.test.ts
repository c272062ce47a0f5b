import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sortedCopy } from '../../../shared/compare/paired';
import { signFlipTest } from '../../../shared/compare/stats/signflip';
import { wilcoxonSignedRank } from '../../../shared/compare/stats/wilcoxon';

/**
 * Few distinct values (scores, yes/no, with -0 among them) or many; quarters, so that a sum in
 * any order is exact and only the paths taken can differ.
 */
const differencesArb = fc.oneof(
  fc.array(fc.constantFrom(-2, -1, -0, 0, 1, 2, 0.5), { maxLength: 300 }),
  fc.array(
    fc.integer({ min: -4e6, max: 4e6 }).map((q) => q / 4),
    { maxLength: 300 },
  ),
  fc.array(fc.integer({ min: -40, max: 40 }), { minLength: 30, maxLength: 300 }),
  // Integers counted (lengths), -0 among them, or spread too wide to count.
  fc.array(fc.oneof(fc.integer({ min: -300, max: 300 }), fc.constant(-0)), {
    minLength: 20,
    maxLength: 300,
  }),
  // 2^44: 300 of them and any 32-bit integers still sum exactly (2^60 did not: with seed
  // 569132050 the two orders' sums rounded apart and the sign-flip p differed in its 4th digit).
  fc.array(fc.oneof(fc.integer(), fc.constantFrom(-0, 2 ** 44, -(2 ** 44))), {
    minLength: 20,
    maxLength: 300,
  }),
);

const same = (a: Float64Array, b: Float64Array) =>
  a.length === b.length && a.every((v, i) => Object.is(v, b[i]));

describe('statistics handed sorted differences', () => {
  it('sort a copy exactly as a typed array sorts, -0 before 0', () => {
    fc.assert(
      fc.property(differencesArb, (d) => {
        const values = Float64Array.from(d);
        expect(same(sortedCopy(values), Float64Array.from(values).sort())).toBe(true);
      }),
    );
  });

  it('give the same sign-flip and Wilcoxon results as for the differences in any order', () => {
    fc.assert(
      fc.property(differencesArb, fc.integer({ min: 1, max: 1e6 }), (d, seed) => {
        const sorted = Float64Array.from(d).sort();
        // Reversed: not ascending, so the general path runs on the same multiset.
        const reversed = Float64Array.from(sorted).reverse();
        const hex = seed.toString(16).padStart(32, '0');
        if (d.length > 0)
          expect(signFlipTest(sorted, hex, 200)).toEqual(signFlipTest(reversed, hex, 200));
        expect(wilcoxonSignedRank(sorted)).toEqual(wilcoxonSignedRank(reversed));
      }),
    );
  });
});
