import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wilcoxonSignedRank } from '../../../shared/compare/stats/wilcoxon';
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

describe('Wilcoxon ranks found by search', () => {
  it('give the same bits as walking every value, sorted or not', () => {
    fc.assert(
      fc.property(differencesArb, (d) => {
        const values = Float64Array.from(d);
        const sorted = Float64Array.from(d).sort();
        expect(wilcoxonSignedRank(values)).toEqual(wilcoxonStepByStep(values));
        expect(wilcoxonSignedRank(sorted)).toEqual(wilcoxonStepByStep(sorted));
        expect(wilcoxonSignedRank(d)).toEqual(wilcoxonStepByStep(d));
      }),
      { numRuns: 300 },
    );
  });

  it('rank a million differences of few values in runs', () => {
    const values = Float64Array.from({ length: 1e6 }, (_, i) => (i % 7) - 3).sort();
    expect(wilcoxonSignedRank(values)).toEqual(wilcoxonStepByStep(values));
  });
});
