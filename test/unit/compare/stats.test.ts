import { describe, expect, it } from 'vitest';
import { holmAdjust } from '../../../shared/compare/stats/holm';
import { binomialHalfCdf, mcnemarExact } from '../../../shared/compare/stats/mcnemar';
import { powerSummary, sampleSd } from '../../../shared/compare/stats/power';
import { logGamma, normalUpperTail, regularizedBeta } from '../../../shared/compare/stats/special';
import { averageRanks, spearman } from '../../../shared/compare/stats/spearman';
import { wilcoxonSignedRank } from '../../../shared/compare/stats/wilcoxon';

describe('special functions', () => {
  it('matches known values', () => {
    expect(logGamma(0.5)).toBeCloseTo(Math.log(Math.sqrt(Math.PI)), 13);
    expect(logGamma(10)).toBeCloseTo(Math.log(362880), 12);
    // Abramowitz & Stegun Table 26.1: Φ(1) = 0.8413447461, upper tail at 1.959964 = 0.025.
    expect(normalUpperTail(-1)).toBeCloseTo(0.8413447460685429, 12);
    expect(normalUpperTail(1.959963984540054)).toBeCloseTo(0.025, 12);
    expect(normalUpperTail(5)).toBeCloseTo(2.866515718791933e-7, 18);
    // I_x(a, b) for integer a, b is a binomial tail: I_0.4(2, 3) = P(Bin(4, 0.4) ≥ 2) = 0.5248.
    expect(regularizedBeta(0.4, 2, 3)).toBeCloseTo(0.5248, 12);
    // I_x(1/2, 1/2) = (2/π)·asin(√x).
    expect(regularizedBeta(0.3, 0.5, 0.5)).toBeCloseTo(
      (2 / Math.PI) * Math.asin(Math.sqrt(0.3)),
      12,
    );
  });
});

describe('McNemar (exact)', () => {
  it('reproduces the exact conditional p-value of Fagerland, Lydersen & Laake (2013)', () => {
    // BMC Med Res Methodol 13:91, airway hyper-responsiveness before/after stem cell
    // transplantation: discordant pairs 1 and 7, exact conditional p = 0.0703 (= 9/128).
    expect(mcnemarExact(1, 7)).toBe(0.0703125);
    expect(mcnemarExact(7, 1)).toBe(0.0703125);
  });

  it('agrees in order of magnitude with Agresti’s presidential approval example', () => {
    // Agresti, Categorical Data Analysis (3rd ed.), Table 11.1: discordant 150 and 86,
    // McNemar z = −4.17 (two-sided normal p ≈ 3.1e-5); the exact binomial p is 3.716e-5.
    expect(mcnemarExact(86, 150)).toBeCloseTo(3.7159361395713866e-5, 15);
  });

  it('uses the incomplete beta for many discordant pairs, continuous with the direct sum', () => {
    expect(binomialHalfCdf(500, 1001)).toBeCloseTo(0.5, 12);
    expect(binomialHalfCdf(400, 1000)).toBeCloseTo(regularizedBeta(0.5, 600, 401), 12);
    // scipy.stats.binomtest(500, 1100).pvalue
    expect(mcnemarExact(500, 600)).toBeCloseTo(0.0028195449914364284, 12);
    expect(mcnemarExact(0, 0)).toBe(1);
    expect(mcnemarExact(5, 5)).toBe(1);
  });
});

describe('Wilcoxon signed-rank', () => {
  it('reproduces Hollander & Wolfe’s depression example exactly', () => {
    // Hollander & Wolfe, Nonparametric Statistical Methods (1973), p. 29, Table 3.1 (Hamilton
    // depression scale, first vs second visit; the example in R's ?wilcox.test): V = 40,
    // one-sided p = 0.01953, so T = min(40, 5) = 5 and the two-sided exact p = 0.0390625.
    const x = [1.83, 0.5, 1.62, 2.48, 1.68, 1.88, 1.55, 3.06, 1.3];
    const y = [0.878, 0.647, 0.598, 2.05, 1.06, 1.29, 1.06, 3.14, 1.29];
    const result = wilcoxonSignedRank(y.map((v, i) => v - x[i]!));
    expect(result).toEqual({ n: 9, statistic: 5, p_value: 0.0390625, method: 'exact' });
  });

  it('is exact with ties and zeros up to the exact limit', () => {
    // The exact permutation p of the average ranks, as scipy.stats.permutation_test over all
    // 2^19 sign patterns of the rank sum W+ gives (zeros dropped first): 0.007190704345703125.
    const d = [1, -1, 2, 2, -3, 4, 4, 4, 5, -6, 6, 7, 0, 8, 9, -2, 3, 3, 1, 5];
    const result = wilcoxonSignedRank(d);
    expect(result).toMatchObject({ n: 19, statistic: 30.5, method: 'exact' });
    expect(result.p_value).toBeCloseTo(0.007190704345703125, 12);
    // Five ties of +1: only the all-plus pattern reaches W+ = 15, so p = 2/2^5 (hand-worked),
    // the smallest p any test of five pairs allows; the normal approximation gave 0.037.
    expect(wilcoxonSignedRank([1, 1, 1, 1, 1]).p_value).toBe(0.0625);
  });

  it('reproduces scipy’s exact p for Darwin’s Zea mays differences', () => {
    // scipy.stats.wilcoxon documentation example (Fisher's Zea mays data): statistic 24,
    // p = 0.041259765625.
    const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
    expect(wilcoxonSignedRank(d)).toEqual({
      n: 15,
      statistic: 24,
      p_value: 0.041259765625,
      method: 'exact',
    });
  });

  it('uses the normal approximation with tie and continuity corrections past the limit', () => {
    // Tie-corrected variance n(n+1)(2n+1)/24 − Σ(t³−t)/48 (Hollander & Wolfe eq. 3.13);
    // value checked against scipy.stats.wilcoxon(d, correction=True, method="approx").
    const d = Array.from({ length: 250 }, (_, i) => ((i * 7) % 11) - 4);
    const result = wilcoxonSignedRank(d);
    expect(result).toMatchObject({ n: 228, method: 'normal approximation' });
    expect(result.p_value).toBeCloseTo(2.1675795792531116e-6, 10);
  });

  it('is symmetric in the sign of the differences and handles all-zero input', () => {
    const d = [0.5, -1.2, 2.2, 3.1, -0.1, 0.7];
    const a = wilcoxonSignedRank(d);
    expect(wilcoxonSignedRank(d.map((v) => -v))).toEqual(a);
    expect(wilcoxonSignedRank([0, 0])).toEqual({
      n: 0,
      statistic: null,
      p_value: null,
      method: 'exact',
    });
  });
});

describe('Holm', () => {
  it('reproduces the Wikipedia worked example', () => {
    // en.wikipedia.org/wiki/Holm–Bonferroni_method, "Example": p = 0.01, 0.04, 0.03, 0.005;
    // adjusted (as R's p.adjust(method = "holm")) 0.03, 0.06, 0.06, 0.02.
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    expect(adjusted.map((p) => Number(p!.toFixed(12)))).toEqual([0.03, 0.06, 0.06, 0.02]);
  });

  it('keeps nulls out of the family and caps at 1', () => {
    expect(holmAdjust([null, 0.5, 0.6, null])).toEqual([null, 1, 1, null]);
    expect(holmAdjust([])).toEqual([]);
  });
});

describe('power', () => {
  it('computes the minimum detectable effect and the n needed for the observed difference', () => {
    // (t_.975 + t_.8)·sd/√n with n − 1 df (the paired-t form of Lachin 1981, Control Clin
    // Trials 2:93–113); scipy.stats.t.ppf(.975, 99) + t.ppf(.8, 99) = 2.8294839835399144, so
    // sd 1, n 100 → 0.28294839835; the n for 0.1 solves n = ⌈((t_.975 + t_.8)(n−1)/0.1)²⌉ = 787.
    const power = powerSummary(1, 100, 0.1, [-0.05, 0.25]);
    expect(power.mde).toBeCloseTo(0.28294839835399144, 10);
    expect(power.n_for_observed).toBe(787);
    // At n = 5 the t form is 34 % wider than z's 2.8016: 3.717409682432975/√5.
    expect(powerSummary(1, 5, 0, [-1, 1]).mde).toBeCloseTo(3.717409682432975 / Math.sqrt(5), 10);
    expect(powerSummary(1, 100, 0.3, [0.1, 0.5]).n_for_observed).toBeNull();
    expect(powerSummary(null, 1, 0.3, [0.3, 0.3])).toEqual({
      sd: null,
      mde: null,
      n_for_observed: null,
    });
  });

  it('uses the n − 1 standard deviation', () => {
    expect(sampleSd([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(Math.sqrt(32 / 7), 12);
    expect(sampleSd([1])).toBeNull();
  });
});

describe('Spearman', () => {
  it('reproduces the Wikipedia IQ / television example', () => {
    // en.wikipedia.org/wiki/Spearman's_rank_correlation_coefficient, "Example":
    // ρ = −29/165 ≈ −0.1758, p = 0.627188 (t distribution).
    const iq = [106, 100, 86, 101, 99, 103, 97, 113, 112, 110];
    const tv = [7, 27, 2, 50, 28, 29, 20, 12, 6, 17];
    const result = spearman(iq, tv);
    expect(result.rho).toBeCloseTo(-29 / 165, 12);
    expect(result.p_value).toBeCloseTo(0.627188, 6);
    expect(result.method).toBe('t approximation');
  });

  it('uses the exact permutation distribution for small n', () => {
    // A perfect ordering of n items is one of n! orderings, two-sided: 2/n!.
    expect(spearman([1, 2, 3], [10, 20, 30])).toEqual({
      rho: 1,
      p_value: 1 / 3,
      method: 'exact permutation',
    });
    expect(spearman([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]).p_value).toBeCloseTo(2 / 120, 12);
  });

  it('averages tied ranks and gives null for a constant series', () => {
    expect(averageRanks([10, 20, 20, 30])).toEqual([1, 2.5, 2.5, 4]);
    expect(spearman([1, 2, 3], [5, 5, 5])).toEqual({ rho: null, p_value: null, method: null });
    expect(spearman([1], [2]).rho).toBeNull();
  });
});
