/**
 * The paired difference of one metric: its mean, 95 % interval, p-value, Wilcoxon test and
 * power hint, from the per-example differences in the canonical orientation (metrics.ts).
 *
 * - Two-valued outcomes (both runs' values take at most two levels, as booleans and pass/fail
 *   do): the difference is a step times −1, 0 or +1, and the interval is Tango's score interval
 *   for a paired difference of proportions, scaled by the step.
 * - Anything else: the Student t interval, mean ± t.975(n − 1)·sd/√n. The coverage benchmark
 *   (test/bench/coverage.ts, docs/benchmarks.md) measured it closer to 95 % than the percentile,
 *   BCa and studentized bootstraps on 1–5 scores and heavy-tailed floats at every n tried.
 * - p: the paired sign-flip permutation test, exact where it can be (stats/signflip.ts).
 *
 * Values whose differences or sums would overflow are scaled by a power of two first (exact),
 * and the results scaled back; a result that is still not finite is reported as not computable.
 */

import { tangoInterval } from './stats/tango';
import { powerSummary } from './stats/power';
import { studentQuantile } from './stats/quantiles';
import { signFlipTest } from './stats/signflip';
import { sortedCopy } from './stats/sorted';
import { wilcoxonSignedRank } from './stats/wilcoxon';
import type { PairedDifference } from './types';

/**
 * Below this many pairs no interval the benchmark tried covers 95 % well enough (see
 * docs/benchmarks.md): the interval is shown as a rough guide and no verdict is given.
 */
export const MIN_PAIRED_N = 10;

export { sortedCopy };

export const TANGO_METHOD = 'Tango score interval (two-valued outcomes)';
export const T_METHOD = 'Student t interval';
export const NOT_COMPUTABLE_METHOD = 'not computable (the values overflow double precision)';

export interface PairedSample {
  /** Differences in the canonical orientation, times `scale`. */
  canonical: Float64Array;
  /** +1 when candidate − reference is the canonical orientation, else −1. */
  sign: 1 | -1;
  inputMismatch: string[];
  /** A power of two the values were multiplied by so that nothing overflows; 1 almost always. */
  scale: number;
  /** The two levels (scaled, low first) when both runs' values take at most two; else null. */
  levels: [number, number] | null;
}

/** `0 - x` rather than `-x`, so a zero stays 0 and never becomes -0. */
function oriented(x: number, sign: 1 | -1): number {
  return sign === 1 ? x : 0 - x;
}

/**
 * Σd / n with compensated (Neumaier) summation, and 0 when |Σd| is within the rounding bound
 * of the sum (n·ε·Σ|d|): a reordering of the same values must not show as a difference.
 */
export function stableMean(values: Float64Array): number {
  let sum = 0;
  let compensation = 0;
  let gross = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    const t = sum + v;
    compensation += Math.abs(sum) >= Math.abs(v) ? sum - t + v : v - t + sum;
    sum = t;
    gross += Math.abs(v);
  }
  const total = sum + compensation;
  if (Math.abs(total) <= values.length * Number.EPSILON * gross) return 0;
  return total / values.length;
}

function spread(values: Float64Array, mean: number): number | null {
  const n = values.length;
  if (n < 2) return null;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i]! - mean) ** 2;
  return Math.sqrt(squares / (n - 1));
}

interface Scaled {
  mean: number;
  ci95: [number, number] | null;
  sd: number | null;
  method: string;
}

function interval(sample: PairedSample, mean: number): Scaled {
  const d = sample.canonical;
  const n = d.length;
  const sd = spread(d, mean);
  if (sample.levels) {
    const step = sample.levels[1] - sample.levels[0];
    let up = 0;
    let down = 0;
    for (let i = 0; i < n; i++) {
      if (d[i]! > 0) up++;
      else if (d[i]! < 0) down++;
    }
    if (step > 0) {
      const [lo, hi] = tangoInterval({ up, down, n });
      // min/max: the scaled ends are rounded apart from the mean and must still bracket it.
      const ci95: [number, number] = [Math.min(lo * step, mean), Math.max(hi * step, mean)];
      return { mean, ci95, sd, method: TANGO_METHOD };
    }
    return { mean, ci95: [0, 0], sd, method: TANGO_METHOD };
  }
  if (sd === null) return { mean, ci95: null, sd, method: T_METHOD };
  const half = (studentQuantile(0.975, n - 1) * sd) / Math.sqrt(n);
  return { mean, ci95: [mean - half, mean + half], sd, method: T_METHOD };
}

export function pairedDifference(
  sample: PairedSample,
  seed: string,
  resamples: number,
): PairedDifference {
  const n = sample.canonical.length;
  const base = {
    n,
    resamples,
    seed,
    p_holm: null,
    input_mismatch: sample.inputMismatch,
    small_n: n < MIN_PAIRED_N,
  };
  const empty = {
    difference: null,
    ci95: null,
    p_value: null,
    p_method: null,
    wilcoxon: null,
    sd: null,
    mde: null,
    n_for_observed: null,
  };
  if (n === 0) return { ...base, method: sample.levels ? TANGO_METHOD : T_METHOD, ...empty };
  // Sorted, so every sum (and so every result) depends on the values, never on the ids' order.
  const sorted = { ...sample, canonical: sortedCopy(sample.canonical) };
  const scaled = interval(sorted, stableMean(sorted.canonical));
  const back = 1 / sample.scale;
  const mean = scaled.mean * back;
  const ci = scaled.ci95 && ([scaled.ci95[0] * back, scaled.ci95[1] * back] as [number, number]);
  const sd = scaled.sd === null ? null : scaled.sd * back;
  if (
    !Number.isFinite(mean) ||
    (ci && !ci.every(Number.isFinite)) ||
    (sd !== null && !Number.isFinite(sd))
  ) {
    return { ...base, method: NOT_COMPUTABLE_METHOD, ...empty };
  }
  const difference = oriented(mean, sample.sign);
  const ci95: [number, number] | null = ci && (sample.sign === 1 ? ci : [0 - ci[1], 0 - ci[0]]);
  const test = signFlipTest(sorted.canonical, seed, resamples);
  return {
    ...base,
    method: scaled.method,
    difference,
    ci95,
    p_value: test.p,
    p_method: test.method,
    wilcoxon: wilcoxonSignedRank(sorted.canonical),
    ...powerSummary(sd, n, difference, ci95),
  };
}
