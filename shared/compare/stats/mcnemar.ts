/**
 * McNemar's test for paired binary outcomes, in its exact conditional form: given the b + c
 * discordant pairs, the number that improved is Binomial(b + c, 1/2) under no effect; the
 * two-sided p-value doubles the smaller tail, capped at 1 (McNemar 1947; Agresti,
 * Categorical Data Analysis, 3rd ed., §11.1).
 */

import { regularizedBeta } from './special';

/** Beyond this many discordant pairs 2^-n underflows, so the tail comes from the beta function. */
const DIRECT_SUM_LIMIT = 1000;

/** P(X ≤ k) for X ~ Binomial(n, 1/2). */
export function binomialHalfCdf(k: number, n: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  if (n > DIRECT_SUM_LIMIT) return regularizedBeta(0.5, n - k, k + 1);
  let pmf = Math.pow(2, -n);
  let sum = pmf;
  for (let i = 0; i < k; i++) {
    pmf = (pmf * (n - i)) / (i + 1);
    sum += pmf;
  }
  return Math.min(1, sum);
}

/** Exact two-sided McNemar p-value from the two discordant counts. */
export function mcnemarExact(improved: number, regressed: number): number {
  const n = improved + regressed;
  if (n === 0) return 1;
  return Math.min(1, 2 * binomialHalfCdf(Math.min(improved, regressed), n));
}
