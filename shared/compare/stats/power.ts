/**
 * A power summary for a paired mean difference at two-sided α = 0.05 and 80 % power, with the
 * paired t quantiles (the z version is a third too optimistic at n = 5): the minimum
 * detectable effect with the pairs at hand, and, when the interval includes 0, about how many
 * pairs would make the observed difference detectable.
 */

import type { Power } from '../types';
import { studentQuantile } from './quantiles';

/** Sample standard deviation (n − 1 denominator); null below two values. */
export function sampleSd(values: ArrayLike<number>): number | null {
  const n = values.length;
  if (n < 2) return null;
  let mean = 0;
  for (let i = 0; i < n; i++) mean += values[i]!;
  mean /= n;
  let squares = 0;
  for (let i = 0; i < n; i++) squares += (values[i]! - mean) ** 2;
  return Math.sqrt(squares / (n - 1));
}

/** t.975 + t.8 with n − 1 degrees of freedom. */
function quantileSum(n: number): number {
  return studentQuantile(0.975, n - 1) + studentQuantile(0.8, n - 1);
}

/** Fixed-point iterations of n = (q(n)·sd/Δ)²; q(n) falls with n, so a few steps settle it. */
const N_ITERATIONS = 8;

export function powerSummary(
  sd: number | null,
  n: number,
  difference: number | null,
  ci95: [number, number] | null,
): Power {
  if (sd === null || n < 2) return { sd, mde: null, n_for_observed: null };
  const mde = (quantileSum(n) * sd) / Math.sqrt(n);
  const includesZero = ci95 !== null && ci95[0] <= 0 && ci95[1] >= 0;
  let nForObserved: number | null = null;
  if (includesZero && difference !== null && difference !== 0 && sd > 0) {
    let needed = Math.max(2, n);
    for (let i = 0; i < N_ITERATIONS; i++) {
      needed = Math.max(2, Math.ceil(((quantileSum(needed) * sd) / Math.abs(difference)) ** 2));
    }
    nForObserved = Number.isFinite(needed) ? needed : null;
  }
  return { sd, mde, n_for_observed: nForObserved };
}
