/**
 * Wilcoxon's signed-rank test on paired differences (Wilcoxon 1945; Hollander, Wolfe & Chicken,
 * Nonparametric Statistical Methods, 3rd ed., §3.1). Zero differences are dropped; tied |d| get
 * average ranks. Up to WILCOXON_EXACT_LIMIT non-zero differences the p-value is exact: the
 * permutation distribution of the (average) ranks under random signs, ties included; beyond,
 * the normal approximation with the tie correction of the variance and a continuity
 * correction of 0.5, which is accurate there.
 */

import type { Wilcoxon } from '../types';
import { sortedCopy } from './sorted';
import { normalUpperTail } from './special';

export const WILCOXON_EXACT_LIMIT = 200;

export interface SignedRanks {
  n: number;
  wPlus: number;
  /** Σ (t³ − t) over groups of tied |d|. */
  tieSum: number;
  /** Twice each non-zero difference's (average) rank. */
  doubledRanks: number[];
}

/**
 * Whether the differences are ascending, as the paired difference hands them over (a NaN, which
 * has no rank, makes them not: the sort then puts it last, where it is left out).
 */
function ascending(differences: Float64Array): boolean {
  for (let i = 1; i < differences.length; i++)
    if (!(differences[i - 1]! <= differences[i]!)) return false;
  return true;
}

/** The first index from `from` up to `to` whose value is above `v`, in ascending `s`. */
function endOfRun(s: Float64Array, from: number, to: number, v: number): number {
  // Galloping, then halving: a run of t equal values costs about 2·log2(t) looks, not t.
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < to && s[hi] === v) {
    lo = hi;
    hi = Math.min(to, hi + (step *= 2));
  }
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid] === v) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** The first index from `from` down to `to` whose value is below `v`, in ascending `s`. */
function startOfRun(s: Float64Array, from: number, to: number, v: number): number {
  let step = 1;
  let hi = from;
  let lo = from - 1;
  while (lo > to && s[lo] === v) {
    hi = lo;
    lo = Math.max(to, lo - (step *= 2));
  }
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (s[mid] === v) hi = mid;
    else lo = mid;
  }
  return lo;
}

/** The first index of ascending `s` where `below` stops holding (it holds on a prefix). */
function firstNotBelow(s: Float64Array, below: (d: number) => boolean): number {
  let lo = 0;
  let hi = s.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (below(s[mid]!)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Ranks of |d| walked over the differences in ascending order: the negatives' magnitudes rise
 * from the zeros down to the start, the positives from the zeros up to the end, and each group
 * of equal |d| is found by search rather than step by step (scores and counts take few values).
 */
function signedRanks(differences: ArrayLike<number>): SignedRanks {
  const values = differences instanceof Float64Array ? differences : Float64Array.from(differences);
  const s = ascending(values) ? values : sortedCopy(values);
  const negEnd = firstNotBelow(s, (d) => d < 0);
  const posStart = firstNotBelow(s, (d) => d <= 0);
  let posEnd = s.length;
  while (posEnd > posStart && !(s[posEnd - 1]! > 0)) posEnd--;
  // Only the exact test needs each rank.
  const keepRanks = negEnd + posEnd - posStart <= WILCOXON_EXACT_LIMIT;
  let i = posStart;
  let j = negEnd - 1;
  let rank = 0;
  let wPlus = 0;
  let tieSum = 0;
  const doubledRanks: number[] = [];
  // Walk both sorted lists together, one group of equal |d| at a time.
  while (i < posEnd || j >= 0) {
    const v = Math.min(i < posEnd ? s[i]! : Infinity, j >= 0 ? -s[j]! : Infinity);
    let p = 0;
    let q = 0;
    if (i < posEnd && s[i] === v) {
      const end = endOfRun(s, i, posEnd, v);
      p = end - i;
      i = end;
    }
    if (j >= 0 && -s[j]! === v) {
      const start = startOfRun(s, j, -1, -v);
      q = j - start;
      j = start;
    }
    const t = p + q;
    wPlus += p * (rank + (t + 1) / 2);
    if (keepRanks) for (let k = 0; k < t; k++) doubledRanks.push(2 * rank + t + 1);
    rank += t;
    tieSum += t * t * t - t;
  }
  return { n: rank, wPlus, tieSum, doubledRanks };
}

/**
 * The null distribution of 2·W+ when each of the n ranks carries either sign with probability
 * 1/2: index s holds P(2·W+ = s). Doubled ranks are integers even with average ranks for ties,
 * so ties are handled exactly (the permutation distribution scipy's `method="exact"` uses only
 * without ties, and its permutation method with them).
 */
function doubledRankSumDistribution(doubledRanks: number[]): Float64Array {
  const max = doubledRanks.reduce((sum, r) => sum + r, 0);
  let current = new Float64Array(max + 1);
  let next = new Float64Array(max + 1);
  current[0] = 1;
  let reach = 0;
  for (const r of doubledRanks) {
    next.fill(0);
    for (let s = 0; s <= reach; s++) {
      const p = current[s]!;
      if (p === 0) continue;
      next[s] = next[s]! + p / 2;
      next[s + r] = next[s + r]! + p / 2;
    }
    reach += r;
    [current, next] = [next, current];
  }
  return current;
}

export function wilcoxonSignedRank(differences: ArrayLike<number>): Wilcoxon {
  return wilcoxonFromRanks(signedRanks(differences));
}

/** The test from its ranks, however they were found (the tests hold two ways to each other). */
export function wilcoxonFromRanks({ n, wPlus, tieSum, doubledRanks }: SignedRanks): Wilcoxon {
  const exact = n <= WILCOXON_EXACT_LIMIT;
  const method = exact ? 'exact' : 'normal approximation';
  if (n === 0) return { n, statistic: null, p_value: null, method };
  const total = (n * (n + 1)) / 2;
  const statistic = Math.min(wPlus, total - wPlus);
  if (exact) {
    // The distribution is symmetric about total/2, so the two-sided p doubles the lower tail.
    const distribution = doubledRankSumDistribution(doubledRanks);
    let tail = 0;
    for (let s = 0; s <= 2 * statistic; s++) tail += distribution[s]!;
    return { n, statistic, p_value: Math.min(1, 2 * tail), method };
  }
  const mean = total / 2;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieSum / 48;
  const z = Math.max(0, Math.abs(wPlus - mean) - 0.5) / Math.sqrt(variance);
  return { n, statistic, p_value: Math.min(1, 2 * normalUpperTail(z)), method };
}
