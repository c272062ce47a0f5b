import { describe, expect, it } from 'vitest';
import { exactCoverage, intervalsByOutcome } from '../../bench/coverage-exact';

describe('exact coverage of the two-valued interval', () => {
  it('is the whole probability when every interval spans [−1, 1]', () => {
    const n = 7;
    const everywhere = Array.from({ length: n + 1 }, (_, up) =>
      Array.from({ length: n + 1 - up }, (): [number, number] => [-1, 1]),
    );
    expect(exactCoverage(everywhere, n, 0.2, 0.1)).toBeCloseTo(1, 12);
  });

  it('adds the trinomial probabilities of the outcomes that hold the truth (hand-worked, n = 2)', () => {
    // Truth 0.3 − 0.1 = 0.2. Only the outcomes (+1, 0) and (+1, +1) are given intervals holding
    // it: P = 2·0.3·0.6 + 0.3² = 0.36 + 0.09 = 0.45.
    const miss: [number, number] = [0.5, 0.6];
    const hold: [number, number] = [0, 1];
    const intervals = [[miss, miss, miss], [hold, miss], [hold]];
    expect(exactCoverage(intervals, 2, 0.3, 0.1)).toBeCloseTo(0.45, 12);
  });

  it('gives one shipped interval per outcome, each holding its observed difference', () => {
    const n = 12;
    const intervals = intervalsByOutcome(n);
    expect(intervals.flat()).toHaveLength(((n + 1) * (n + 2)) / 2);
    for (let up = 0; up <= n; up++)
      for (let down = 0; up + down <= n; down++) {
        const [lo, hi] = intervals[up]![down]!;
        expect(lo).toBeLessThanOrEqual((up - down) / n);
        expect(hi).toBeGreaterThanOrEqual((up - down) / n);
      }
  });
});
