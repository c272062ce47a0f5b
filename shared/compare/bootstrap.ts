/**
 * The paired percentile bootstrap of a mean difference (docs/comparison.md, "Metrics and
 * intervals"): resample the n per-example differences with replacement B times, take the 2.5th and
 * 97.5th percentiles of the resampled means with linear interpolation between order statistics.
 */

import { multinomialInto } from './binomial';
import { Xoshiro128 } from './rng';
import { normalUpperTail, Z_975 } from './stats/special';

export const DEFAULT_RESAMPLES = 10_000;
export const BOOTSTRAP_METHOD = 'paired percentile bootstrap';
export const NORMAL_METHOD = 'normal approximation (n × resamples above the bootstrap budget)';

/**
 * Index resampling costs n × B random draws. Past this many (n = 40,000 at B = 10,000) the
 * interval of a continuous difference comes from the normal approximation instead: at such n
 * the bootstrap distribution of a mean is normal to within its own Monte-Carlo error, and a
 * million pairs would otherwise take most of a minute per metric. The method is reported.
 */
export const INDEX_PATH_BUDGET = 4e8;

/**
 * Up to this many distinct differences (booleans give 3, 1–5 scores give 9) a resample can be
 * drawn as a multinomial vector of counts, which costs O(distinct) instead of O(n) per resample.
 */
export const COUNT_PATH_LIMIT = 64;

/**
 * A binomial draw costs about as much as this many index draws, so counts only pay off when n
 * is at least this many times the number of distinct values. Both paths are exact; the choice
 * depends only on the data, so results stay reproducible.
 */
const COUNT_PATH_MIN_RATIO = 50;

export interface BootstrapResult {
  /** The mean of the differences, computed the same way as each resampled mean. */
  mean: number;
  ci95: [number, number];
  /**
   * Two-sided bootstrap p-value for "mean difference = 0": with m the observed mean and m*_b the
   * resampled means, p = min(1, 2·(1 + #{b : m*_b on the other side of 0 from m, or at 0}) /
   * (B + 1)); 1 when m = 0. The +1 keeps p above 0 with a finite B (Davison & Hinkley 1997,
   * §4.4).
   */
  pValue: number;
  resamples: number;
  method: string;
}

/**
 * Bootstraps the mean of `differences` (any order; they are sorted first, so the result depends
 * only on the multiset of values, never on example ids or their order). Needs n ≥ 1.
 */
export function pairedBootstrap(
  differences: ArrayLike<number>,
  seedHex: string,
  resamples: number = DEFAULT_RESAMPLES,
): BootstrapResult {
  const n = differences.length;
  if (n === 0) throw new Error('pairedBootstrap needs at least one difference');
  if (!Number.isInteger(resamples) || resamples < 1) throw new Error('resamples must be ≥ 1');
  const sorted = Float64Array.from(differences).sort();
  const rng = new Xoshiro128(seedHex);
  const means = new Float64Array(resamples);

  const distinct = distinctCounts(sorted);
  let mean: number;
  // Discrete differences past the index budget always take the (exact) count path.
  const countsPay = (d: { values: Float64Array }): boolean =>
    d.values.length * COUNT_PATH_MIN_RATIO <= n || n * resamples > INDEX_PATH_BUDGET;
  if (distinct && countsPay(distinct)) {
    const { values, counts } = distinct;
    mean = weightedMean(values, counts, n);
    const draw = new Float64Array(values.length);
    for (let b = 0; b < resamples; b++) {
      multinomialInto(rng, n, counts, draw);
      means[b] = weightedMean(values, draw, n);
    }
  } else if (n * resamples > INDEX_PATH_BUDGET) {
    return normalApproximation(sorted, resamples);
  } else {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += sorted[i]!;
    mean = sum / n;
    for (let b = 0; b < resamples; b++) means[b] = rng.resampleMean(sorted);
  }

  means.sort();
  return {
    mean,
    ci95: [percentile(means, 0.025), percentile(means, 0.975)],
    pValue: bootstrapPValue(means, mean),
    resamples,
    method: BOOTSTRAP_METHOD,
  };
}

/** mean ± z·sd/√n (sample sd), p from the normal tail; symmetric, so swapping sides mirrors it. */
function normalApproximation(sorted: Float64Array, resamples: number): BootstrapResult {
  const n = sorted.length;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += sorted[i]!;
  const mean = sum / n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (sorted[i]! - mean) ** 2;
  const se = Math.sqrt(squares / (n - 1)) / Math.sqrt(n);
  const half = Z_975 * se;
  const pValue =
    mean === 0 ? 1 : se === 0 ? 0 : Math.min(1, 2 * normalUpperTail(Math.abs(mean) / se));
  return { mean, ci95: [mean - half, mean + half], pValue, resamples, method: NORMAL_METHOD };
}

function weightedMean(values: Float64Array, counts: Float64Array, n: number): number {
  let sum = 0;
  for (let k = 0; k < values.length; k++) sum += counts[k]! * values[k]!;
  return sum / n;
}

/** The distinct values and their counts, or null when there are more than COUNT_PATH_LIMIT. */
function distinctCounts(
  sorted: Float64Array,
): { values: Float64Array; counts: Float64Array } | null {
  const values: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i]!;
    // `!==` treats -0 and 0 as one value; `+ 0` turns a leading -0 into 0.
    if (values.length === 0 || values[values.length - 1] !== v) {
      if (values.length === COUNT_PATH_LIMIT) return null;
      values.push(v + 0);
      counts.push(1);
    } else {
      counts[counts.length - 1]!++;
    }
  }
  return { values: Float64Array.from(values), counts: Float64Array.from(counts) };
}

/** Percentile of ascending values by linear interpolation between order statistics (R type 7). */
export function percentile(sorted: ArrayLike<number>, p: number): number {
  const h = (sorted.length - 1) * p;
  const lo = Math.floor(h);
  const below = sorted[lo]!;
  if (lo + 1 >= sorted.length) return below;
  return below + (h - lo) * (sorted[lo + 1]! - below);
}

function bootstrapPValue(sortedMeans: Float64Array, observed: number): number {
  if (observed === 0) return 1;
  let otherSide = 0;
  for (let b = 0; b < sortedMeans.length; b++) {
    const m = sortedMeans[b]!;
    if (observed > 0 ? m <= 0 : m >= 0) otherSide++;
  }
  return Math.min(1, (2 * (1 + otherSide)) / (sortedMeans.length + 1));
}
