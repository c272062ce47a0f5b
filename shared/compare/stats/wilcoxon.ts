/**
 * Wilcoxon's signed-rank test on paired differences (Wilcoxon 1945; Hollander, Wolfe & Chicken,
 * Nonparametric Statistical Methods, 3rd ed., §3.1). Zero differences are dropped; tied |d| get
 * average ranks. Exact null distribution when n ≤ 50 and no |d| is tied; otherwise the normal
 * approximation with the tie correction of the variance and a continuity correction of 0.5.
 */

import type { Wilcoxon } from '../types';
import { normalUpperTail } from './special';

export const WILCOXON_EXACT_LIMIT = 50;

interface SignedRanks {
  n: number;
  wPlus: number;
  /** Σ (t³ − t) over groups of tied |d|. */
  tieSum: number;
}

function signedRanks(differences: ArrayLike<number>): SignedRanks {
  const positive: number[] = [];
  const negative: number[] = [];
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i]!;
    if (d > 0) positive.push(d);
    else if (d < 0) negative.push(-d);
  }
  const pos = Float64Array.from(positive).sort();
  const neg = Float64Array.from(negative).sort();
  let i = 0;
  let j = 0;
  let rank = 0;
  let wPlus = 0;
  let tieSum = 0;
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
    rank += t;
    tieSum += t * t * t - t;
  }
  return { n: rank, wPlus, tieSum };
}

/** Number of subsets of {1..n} with each rank sum s, for s = 0 … n(n+1)/2. */
function rankSumCounts(n: number): Float64Array {
  const max = (n * (n + 1)) / 2;
  const counts = new Float64Array(max + 1);
  counts[0] = 1;
  for (let k = 1; k <= n; k++) {
    for (let s = (k * (k + 1)) / 2; s >= k; s--) counts[s] = counts[s]! + counts[s - k]!;
  }
  return counts;
}

export function wilcoxonSignedRank(differences: ArrayLike<number>): Wilcoxon {
  const { n, wPlus, tieSum } = signedRanks(differences);
  const exact = n <= WILCOXON_EXACT_LIMIT && tieSum === 0;
  const method = exact ? 'exact' : 'normal approximation';
  if (n === 0) return { n, statistic: null, p_value: null, method };
  const total = (n * (n + 1)) / 2;
  const statistic = Math.min(wPlus, total - wPlus);
  if (exact) {
    const counts = rankSumCounts(n);
    let tail = 0;
    for (let s = 0; s <= statistic; s++) tail += counts[s]!;
    return { n, statistic, p_value: Math.min(1, (2 * tail) / Math.pow(2, n)), method };
  }
  const mean = total / 2;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieSum / 48;
  const z = Math.max(0, Math.abs(wPlus - mean) - 0.5) / Math.sqrt(variance);
  return { n, statistic, p_value: Math.min(1, 2 * normalUpperTail(z)), method };
}
