import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signFlipTest } from '../../../shared/compare/stats/signflip';
import { wilcoxonSignedRank } from '../../../shared/compare/stats/wilcoxon';
import { signFlipOverArray } from '../../fixtures/signflip-oracle';
import { wilcoxonStepByStep } from '../../fixtures/wilcoxon-oracle';

/** Long runs of equal values (scores, counts), all-distinct values, -0, NaN and infinities. */
const differencesArb = fc.oneof(
  fc.array(fc.constantFrom(-3, -1, -0, 0, 1, 2, 0.5), { maxLength: 2000 }),
  fc.array(fc.integer({ min: -40, max: 40 }), { minLength: 150, maxLength: 2000 }),
  fc.array(fc.double({ noNaN: false }), { maxLength: 400 }),
  fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constantFrom(NaN, Infinity, -Infinity)), {
    maxLength: 400,
  }),
);

describe('ranks found by search and sums taken in one walk', () => {
  it('give the same bits as walking every value, sorted or not', () => {
    fc.assert(
      fc.property(differencesArb, (d) => {
        // The step-by-step walk took a NaN among unsorted values for sorted input (NaN compares
        // false), so it is held to the values without them, which NaN must not change.
        const ranked = d.filter((v) => v === v);
        const values = Float64Array.from(ranked);
        const sorted = Float64Array.from(ranked).sort();
        expect(wilcoxonSignedRank(values)).toEqual(wilcoxonStepByStep(values));
        expect(wilcoxonSignedRank(sorted)).toEqual(wilcoxonStepByStep(sorted));
        expect(wilcoxonSignedRank(ranked)).toEqual(wilcoxonStepByStep(ranked));
        expect(wilcoxonSignedRank(Float64Array.from(d))).toEqual(wilcoxonStepByStep(sorted));
      }),
      { numRuns: 300 },
    );
  });

  it('give the same sign-flip p-value as over the array of |d|', () => {
    fc.assert(
      fc.property(differencesArb, fc.integer({ min: 1, max: 30000 }), (d, resamples) => {
        if (d.length === 0) return;
        const sorted = Float64Array.from(d).sort();
        const hex = resamples.toString(16).padStart(32, '0');
        for (const values of [sorted, Float64Array.from(d)])
          expect(signFlipTest(values, hex, resamples)).toEqual(
            signFlipOverArray(values, hex, resamples),
          );
      }),
      { numRuns: 200 },
    );
  });

  it('rank and sum a million differences of few values in runs', () => {
    const values = Float64Array.from({ length: 1e6 }, (_, i) => (i % 7) - 3).sort();
    expect(wilcoxonSignedRank(values)).toEqual(wilcoxonStepByStep(values));
    const seed = '0123456789abcdef0123456789abcdef';
    expect(signFlipTest(values, seed, 10000)).toEqual(signFlipOverArray(values, seed, 10000));
  });
});
