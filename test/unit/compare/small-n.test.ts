import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../../shared/compare/report';
import { pairedDifference, stableMean } from '../../../shared/compare/paired';
import { signFlipTest } from '../../../shared/compare/stats/signflip';
import { tangoInterval } from '../../../shared/compare/stats/tango';
import { sha256Hex } from '../../../shared/compare/sha256';
import type { CompareRun } from '../../../shared/compare/types';
import { makeExample, makeExperiment, makeRun } from '../../fixtures/compare';

const SEED = sha256Hex('small n');

/** Two runs whose `field` takes the given values, pair by pair, and a metric over it. */
function pair(field: string, a: unknown[], b: unknown[]): [CompareRun, CompareRun] {
  const definitions = { m: { example_field: field, direction: 'higher_is_better' as const } };
  const make = (runId: string, values: unknown[], extra: Partial<CompareRun>) =>
    makeRun({
      runId,
      metricDefinitions: definitions,
      examples: values.map((v, i) => makeExample(`e${i}`, { [field]: v as never })),
      ...extra,
    });
  return [
    make('run-a', a, {}),
    make('run-b', b, { conditionName: 'candidate', expect: { m: 'increase' } }),
  ];
}

function metric(a: unknown[], b: unknown[], field = 'x') {
  const [ref, cand] = pair(field, a, b);
  const c = compareRuns(makeExperiment(), ref, cand, { resamples: 500 });
  return { metric: c.metrics[0]!, limitations: c.limitations };
}

describe('no verdict from a handful of examples', () => {
  it.each([
    // One, two and five improved pass/fail pairs: the exact sign test gives 2·2^-n, capped at 1.
    [1, 1],
    [2, 0.5],
    [5, 0.0625],
  ])('%i improved pair(s): p ≥ the exact sign test’s %d and no verdict', (n, exact) => {
    const { metric: m, limitations } = metric(Array(n).fill(false), Array(n).fill(true));
    expect(m.paired!.p_value).toBeGreaterThanOrEqual(exact);
    expect(m.paired!.p_value).toBe(exact);
    expect(m.paired!.small_n).toBe(true);
    expect(m.verdict).toBe('too_few_examples');
    expect(
      limitations.some((l) => l.includes(`only ${n === 1 ? '1 example' : `${n} examples`}`)),
    ).toBe(true);
  });

  it('five all-+1 score differences: sign-flip and Wilcoxon p are 0.0625, not 0.0002', () => {
    const { metric: m } = metric([1, 2, 3, 2, 1], [2, 3, 4, 3, 2]);
    expect(m.paired!.p_value).toBe(0.0625);
    expect(m.paired!.wilcoxon!.p_value).toBe(0.0625);
    expect(m.verdict).toBe('too_few_examples');
  });

  it('gives verdicts again from the minimum n on', () => {
    const { metric: m } = metric(Array(30).fill(0), Array(30).fill(1));
    expect(m.paired!.small_n).toBe(false);
    expect(m.verdict).toBe('consistent');
  });
});

describe('Tango score interval', () => {
  it('matches an independent numerical solution of the score equations', () => {
    // Tango (1998) score interval; the ends were computed independently by maximising the
    // trinomial likelihood numerically under P(+1) − P(−1) = Δ (scipy.optimize, bounded) and
    // solving |Z(Δ)| = 1.959964 with brentq: b = 40, c = 20, n = 160 (PropCIs' scoreci.mp
    // example) gives (−0.2180642, −0.0308645) for c − b over n.
    const [lo, hi] = tangoInterval({ up: 20, down: 40, n: 160 });
    expect(lo).toBeCloseTo(-0.2180642, 6);
    expect(hi).toBeCloseTo(-0.0308645, 6);
    // Five of five improved: (0.1310351, 1); nothing changed in ten: symmetric about 0.
    expect(tangoInterval({ up: 5, down: 0, n: 5 })[0]).toBeCloseTo(0.1310351, 6);
    expect(tangoInterval({ up: 5, down: 0, n: 5 })[1]).toBe(1);
    const [zlo, zhi] = tangoInterval({ up: 0, down: 0, n: 10 });
    expect(zlo).toBeCloseTo(-zhi, 12);
    expect(zhi).toBeGreaterThan(0.2);
  });

  it('is used for any two-valued criterion, scaled by the step between its levels', () => {
    const { metric: m } = metric([2, 2, 4, 2, 2, 2, 2, 2, 2, 2], [4, 4, 4, 2, 2, 2, 2, 2, 2, 4]);
    expect(m.paired!.method).toBe('Tango score interval (two-valued outcomes)');
    const [lo, hi] = tangoInterval({ up: 3, down: 0, n: 10 });
    expect(m.paired!.ci95).toEqual([lo * 2, hi * 2]);
  });
});

describe('sign-flip permutation test', () => {
  it('reproduces Fisher’s exact p for Darwin’s Zea mays data', () => {
    // Fisher, The Design of Experiments (1935), §21: 1,726 of the 2^15 sign patterns are at
    // least as extreme, p = 1726/32768 = 0.05267333984375.
    const d = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
    expect(signFlipTest(d, SEED, 1000)).toEqual({
      p: 1726 / 32768,
      method: 'exact sign-flip permutation',
    });
  });

  it('is exact for integer differences past the enumeration limit, and bounded when random', () => {
    const ints = Array.from({ length: 60 }, (_, i) => (i % 5) - 1);
    expect(signFlipTest(ints, SEED, 1000).method).toBe('exact sign-flip permutation');
    const floats = Array.from({ length: 40 }, (_, i) => (i % 3) - 0.5 + i * 0.01);
    const random = signFlipTest(floats, SEED, 999);
    expect(random.method).toBe('sign-flip permutation (random sign patterns)');
    expect(random.p).toBeGreaterThanOrEqual(1 / 1000);
  });

  it('uses the normal tail of Σ ± d where random patterns would cost too much (n × B large)', () => {
    // 4,000 non-integer differences with a small shift: random patterns at B = 10,000 would be
    // 4e7 steps. The normal tail must agree with 1,000 random patterns within Monte Carlo error.
    const d = Array.from(
      { length: 4000 },
      (_, i) => ((i * 7919) % 13) - 6 + 0.03 + (i % 7) * 0.001,
    );
    const fast = signFlipTest(d, SEED, 10_000);
    expect(fast.method).toBe('sign-flip permutation (normal approximation)');
    const random = signFlipTest(d, SEED, 1_000);
    expect(random.method).toBe('sign-flip permutation (random sign patterns)');
    expect(Math.abs(fast.p - random.p)).toBeLessThan(0.05);
    expect(fast.p).toBeGreaterThan(0);
    expect(fast.p).toBeLessThan(1);
  });
});

describe('edge values', () => {
  it('scales values near ±1e308 instead of overflowing, and never reports a p without a difference', () => {
    const big = [1e308, -1e308, 5e307, -5e307, 1e308, 0, 1e307, -1e307, 2e307, -2e307, 1e308];
    const { metric: m } = metric(big, [...big].reverse());
    expect(m.paired!.difference).not.toBeNull();
    expect(Number.isFinite(m.paired!.difference!)).toBe(true);
    expect(m.paired!.ci95!.every(Number.isFinite)).toBe(true);
    const huge = metric(Array(12).fill(-1.7e308), Array(12).fill(1.7e308)).metric;
    expect(huge.paired!.difference).toBeNull();
    expect(huge.paired!.p_value).toBeNull();
    expect(huge.paired!.method).toMatch(/not computable/);
    expect(huge.verdict).toBe('inconclusive');
  });

  it('treats a difference within float noise of 0 as 0', () => {
    const values = [0.1, 0.7, 0.2, 0.3, 1e-3, 0.9, 0.35, 0.45, 0.6, 0.05, 0.33, 0.77];
    const shuffled = [...values].reverse();
    const { metric: m } = metric(values, shuffled);
    expect(m.paired!.difference).toBe(0);
    expect(m.paired!.n_for_observed).toBeNull();
    expect(stableMean(Float64Array.from([0.1, 0.2, -0.3]))).toBe(0);
  });

  it('gives no interval from a single continuous pair', () => {
    const d = pairedDifference(
      { canonical: Float64Array.of(0.4), sign: 1, inputMismatch: [], scale: 1, levels: null },
      SEED,
      100,
    );
    expect(d.ci95).toBeNull();
    expect(d.small_n).toBe(true);
  });
});

describe('criterion rules', () => {
  it('lets a declared direction win over the pass/fail default', () => {
    const [ref, cand] = pair('verdict_word', ['pass', 'pass'], ['fail', 'pass']);
    const lower = { m: { example_field: 'verdict_word', direction: 'lower_is_better' as const } };
    const c = compareRuns(
      makeExperiment(),
      { ...ref, metricDefinitions: lower },
      { ...cand, metricDefinitions: lower },
    );
    const criterion = c.criteria.find((x) => x.field === 'verdict_word')!;
    expect(criterion).toMatchObject({ direction: 'lower_is_better', improved: 1, regressed: 0 });
  });

  it('gives a two-valued criterion coded {2, 4} the exact McNemar test, not Wilcoxon', () => {
    const [ref, cand] = pair('x', [2, 2, 4, 2], [4, 4, 4, 2]);
    const criterion = compareRuns(makeExperiment(), ref, cand).criteria[0]!;
    // Two improved, none regressed: exact two-sided p = 2·(1/2)² = 0.5 (hand-worked).
    expect(criterion.mcnemar).toEqual({ improved: 2, regressed: 0, p_value: 0.5 });
    expect(criterion.wilcoxon).toBeNull();
  });
});
