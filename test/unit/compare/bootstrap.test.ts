import { describe, expect, it } from 'vitest';
import { COUNT_PATH_LIMIT, pairedBootstrap, percentile } from '../../../shared/compare/bootstrap';
import { sha256Hex } from '../../../shared/compare/sha256';
import { normalSample } from '../../fixtures/compare';

const SEED = sha256Hex('bootstrap test');

describe('percentile', () => {
  it('interpolates linearly between order statistics (R type 7)', () => {
    // R: quantile(1:10, c(0.025, 0.975)) → 1.225, 9.775.
    const values = Array.from({ length: 10 }, (_, i) => i + 1);
    expect(percentile(values, 0.025)).toBeCloseTo(1.225, 12);
    expect(percentile(values, 0.975)).toBeCloseTo(9.775, 12);
    expect(percentile([4], 0.5)).toBe(4);
  });
});

describe('pairedBootstrap', () => {
  it('is deterministic for a seed and changes with the seed', () => {
    const d = Array.from(normalSample(sha256Hex('determinism'), 40, 0, 1));
    const a = pairedBootstrap(d, SEED, 2000);
    expect(pairedBootstrap(d, SEED, 2000)).toEqual(a);
    expect(pairedBootstrap(d, sha256Hex('another'), 2000).ci95).not.toEqual(a.ci95);
    expect(a.resamples).toBe(2000);
  });

  it('depends only on the multiset of differences, not their order', () => {
    const d = [0.3, -1.2, 2.5, 0.3, 4.1, -0.7];
    const shuffled = [4.1, 0.3, -0.7, 2.5, -1.2, 0.3];
    expect(pairedBootstrap(shuffled, SEED, 1000)).toEqual(pairedBootstrap(d, SEED, 1000));
  });

  it('gives a degenerate interval for constant differences', () => {
    expect(pairedBootstrap([0, 0, 0], SEED, 100)).toEqual({
      mean: 0,
      ci95: [0, 0],
      pValue: 1,
      resamples: 100,
      method: 'paired percentile bootstrap',
    });
    const constant = pairedBootstrap([0.1, 0.1, 0.1], SEED, 100);
    expect(constant.ci95).toEqual([constant.mean, constant.mean]);
  });

  it('computes the two-sided p-value with the +1 correction', () => {
    // Every resampled mean of all-positive differences is > 0: p = 2·(0 + 1)/(B + 1).
    expect(pairedBootstrap([1, 2, 3, 4], SEED, 999).pValue).toBeCloseTo(2 / 1000, 15);
    const mixed = pairedBootstrap([-1, 0, 0, 1, 1], SEED, 999);
    expect(mixed.pValue).toBeGreaterThan(0.1);
    expect(mixed.pValue).toBeLessThanOrEqual(1);
  });

  it('agrees between the count path and the index path', () => {
    // 0/1 differences use counts; adding COUNT_PATH_LIMIT tiny distinct values forces indices.
    const base = Array.from({ length: 400 }, (_, i) => (i % 5 === 0 ? 1 : 0));
    const jitter = Array.from({ length: COUNT_PATH_LIMIT + 1 }, (_, i) => 1e-9 * i);
    const counts = pairedBootstrap(base, SEED, 4000);
    const indices = pairedBootstrap(
      base.map((v, i) => v + (jitter[i] ?? 0)),
      SEED,
      4000,
    );
    expect(indices.mean).toBeCloseTo(counts.mean, 6);
    expect(indices.ci95[0]).toBeCloseTo(counts.ci95[0], 2);
    expect(indices.ci95[1]).toBeCloseTo(counts.ci95[1], 2);
    // The textbook normal interval for a proportion of 0.2 with n = 400: 0.2 ± 1.96·0.02.
    expect(counts.ci95[0]).toBeCloseTo(0.2 - 1.96 * 0.02, 2);
    expect(counts.ci95[1]).toBeCloseTo(0.2 + 1.96 * 0.02, 2);
  });

  it('rejects empty input and a bad resample count', () => {
    expect(() => pairedBootstrap([], SEED)).toThrow();
    expect(() => pairedBootstrap([1], SEED, 0)).toThrow();
  });

  it('covers the true mean of normal data in about 95 % of experiments', () => {
    // Percentile intervals for a mean run slightly narrow (factor √((n−1)/n) and z instead of
    // t): with n = 60 the expected coverage is ≈ 94.4 %, ± 0.7 % over 1,000 experiments.
    const experiments = 1000;
    const trueMean = 0.3;
    let covered = 0;
    for (let k = 0; k < experiments; k++) {
      const data = normalSample(sha256Hex(`data ${k}`), 60, trueMean, 1);
      const [lo, hi] = pairedBootstrap(data, sha256Hex(`boot ${k}`), 2000).ci95;
      if (lo <= trueMean && trueMean <= hi) covered++;
    }
    const rate = covered / experiments;
    expect(rate).toBeGreaterThanOrEqual(0.93);
    expect(rate).toBeLessThanOrEqual(0.97);
  });
});

describe('very large continuous samples', () => {
  it('switch to the normal approximation past the budget, say so, and agree with the bootstrap', () => {
    const n = 50_000;
    const values = new Float64Array(n);
    let x = 12345;
    for (let i = 0; i < n; i++) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      values[i] = (x / 2 ** 31) * 10 - 4.9 + (i % 7) * 0.001;
    }
    const normal = pairedBootstrap(values, 'ab'.repeat(32), 10_000);
    expect(normal.method).toMatch(/normal approximation/);
    const boot = pairedBootstrap(values, 'ab'.repeat(32), 2_000);
    expect(boot.method).toBe('paired percentile bootstrap');
    expect(normal.ci95[0]).toBeCloseTo(boot.ci95[0], 2);
    expect(normal.ci95[1]).toBeCloseTo(boot.ci95[1], 2);
    expect(normal.ci95[0]).toBeLessThanOrEqual(normal.mean);
    expect(normal.ci95[1]).toBeGreaterThanOrEqual(normal.mean);
  });
});
