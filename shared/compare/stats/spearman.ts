/**
 * Spearman's rank correlation with average ranks for ties (Spearman 1904), and its two-sided
 * p-value: exact over all n! permutations for n ≤ 8, else the t approximation
 * t = ρ·√((n − 2)/(1 − ρ²)) with n − 2 degrees of freedom.
 */

import { regularizedBeta } from './special';

export const SPEARMAN_EXACT_LIMIT = 8;

// Correlations equal up to rounding must count as "at least as extreme" in the permutation test.
const TOLERANCE = 1e-12;

export interface SpearmanResult {
  rho: number | null;
  p_value: number | null;
  method: 'exact permutation' | 't approximation' | null;
}

/** Average ranks (1-based) of the values. */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => a.v - b.v || a.i - b.i);
  const ranks = new Array<number>(values.length).fill(0);
  let start = 0;
  while (start < order.length) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.v === order[start]!.v) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k]!.i] = rank;
    start = end + 1;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): number | null {
  const n = x.length;
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  if (sxx === 0 || syy === 0) return null;
  return Math.max(-1, Math.min(1, sxy / Math.sqrt(sxx * syy)));
}

/** Two-sided permutation p-value: share of all orderings of y with |ρ| ≥ the observed |ρ|. */
function permutationPValue(rx: number[], ry: number[], observed: number): number {
  const perm = [...ry];
  const n = perm.length;
  const c = new Array<number>(n).fill(0);
  let extreme = 0;
  let total = 0;
  const visit = (): void => {
    total++;
    const r = pearson(rx, perm);
    if (r !== null && Math.abs(r) >= Math.abs(observed) - TOLERANCE) extreme++;
  };
  visit();
  // Heap's algorithm, iterative: every permutation exactly once.
  let i = 0;
  while (i < n) {
    if (c[i]! < i) {
      const k = i % 2 === 0 ? 0 : c[i]!;
      [perm[k], perm[i]] = [perm[i]!, perm[k]!];
      visit();
      c[i]!++;
      i = 0;
    } else {
      c[i] = 0;
      i++;
    }
  }
  return extreme / total;
}

export function spearman(x: readonly number[], y: readonly number[]): SpearmanResult {
  if (x.length !== y.length) throw new Error('spearman needs two lists of the same length');
  const n = x.length;
  const rx = averageRanks(x);
  const ry = averageRanks(y);
  const rho = n < 2 ? null : pearson(rx, ry);
  if (rho === null) return { rho: null, p_value: null, method: null };
  if (n <= SPEARMAN_EXACT_LIMIT) {
    return { rho, p_value: permutationPValue(rx, ry, rho), method: 'exact permutation' };
  }
  if (Math.abs(rho) === 1) return { rho, p_value: 0, method: 't approximation' };
  const df = n - 2;
  const t2 = (rho * rho * df) / (1 - rho * rho);
  return { rho, p_value: regularizedBeta(df / (df + t2), df / 2, 0.5), method: 't approximation' };
}
