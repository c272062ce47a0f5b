/**
 * Wilcoxon's signed-rank test on paired differences (Wilcoxon 1945; Hollander, Wolfe & Chicken,
 * Nonparametric Statistical Methods, 3rd ed., §3.1). Zero differences are dropped; tied |d| get
 * average ranks. Up to WILCOXON_EXACT_LIMIT non-zero differences the p-value is exact: the
 * permutation distribution of the (average) ranks under random signs, ties included; beyond,
 * the normal approximation with the tie correction of the variance and a continuity
 * correction of 0.5, which is accurate there.
 */

import type { Wilcoxon } from '../types';
import { normalUpperTail } from './special';

export const WILCOXON_EXACT_LIMIT = 200;

interface SignedRanks {
  n: number;
  wPlus: number;
  /** Σ (t³ − t) over groups of tied |d|. */
  tieSum: number;
  /** Twice each non-zero difference's (average) rank. */
  doubledRanks: number[];
}

/**
 * The positive differences and the magnitudes of the negative ones, each ascending. Sorted
 * input (as the paired difference hands over) gives them without sorting: the negatives are
 * its start, in reverse.
 */
function splitBySign(differences: ArrayLike<number>): { pos: Float64Array; neg: Float64Array } {
  let positive = 0;
  let negative = 0;
  let ascending = true;
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i]!;
    if (d > 0) positive++;
    else if (d < 0) negative++;
    if (i > 0 && differences[i - 1]! > d) ascending = false;
  }
  const pos = new Float64Array(positive);
  const neg = new Float64Array(negative);
  let p = 0;
  let q = 0;
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i]!;
    if (d > 0) pos[p++] = d;
    else if (d < 0) neg[q++] = -d;
  }
  if (ascending) neg.reverse();
  else {
    pos.sort();
    neg.sort();
  }
  return { pos, neg };
}

function signedRanks(differences: ArrayLike<number>): SignedRanks {
  const { pos, neg } = splitBySign(differences);
  // Only the exact test needs each rank.
  const keepRanks = pos.length + neg.length <= WILCOXON_EXACT_LIMIT;
  let i = 0;
  let j = 0;
  let rank = 0;
  let wPlus = 0;
  let tieSum = 0;
  const doubledRanks: number[] = [];
  // Walk both sorted lists together, one group of equal |d| at a time.
  while (i < pos.length || j < neg.length) {
    const v = Math.min(i < pos.length ? pos[i]! : Infinity, j < neg.length ? neg[j]! : Infinity);
    let p = 0;
    let q = 0;
    while (i < pos.length && pos[i] === v) {
      p++;
      i++;
    }
    while (j < neg.length && neg[j] === v) {
      q++;
      j++;
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
  const { n, wPlus, tieSum, doubledRanks } = signedRanks(differences);
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
