/**
 * Quantiles of the normal and Student t distributions, by inverting the tail functions in
 * special.ts: Newton steps for the normal, bisection for t. Both are accurate to about 1e-12,
 * far below what an interval or a power calculation can resolve.
 */

import { normalUpperTail, regularizedBeta } from './special';

/** P(T > t) for Student's t with `df` degrees of freedom. */
export function studentUpperTail(t: number, df: number): number {
  const tail = 0.5 * regularizedBeta(df / (df + t * t), df / 2, 0.5);
  return t >= 0 ? tail : 1 - tail;
}

/** Φ⁻¹(p) for 0 < p < 1. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new Error(`normalQuantile needs 0 < p < 1, got ${p}`);
  if (p === 0.5) return 0;
  // Work in the lower tail, where the upper-tail function keeps full relative precision.
  const lower = Math.min(p, 1 - p);
  let x = -Math.sqrt(-2 * Math.log(lower));
  for (let i = 0; i < 50; i++) {
    const cdf = normalUpperTail(-x);
    const density = Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI);
    const step = (cdf - lower) / density;
    x -= step;
    if (Math.abs(step) < 1e-13 * Math.max(1, Math.abs(x))) break;
  }
  return p < 0.5 ? x : -x;
}

/** The p-quantile of Student's t with `df` ≥ 1 degrees of freedom, 0 < p < 1. */
export function studentQuantile(p: number, df: number): number {
  if (!(p > 0 && p < 1)) throw new Error(`studentQuantile needs 0 < p < 1, got ${p}`);
  if (p === 0.5) return 0;
  // Past this the t and normal quantiles agree to ~1e-7 and the beta function slows down.
  if (df > 1e7) return normalQuantile(p);
  const upper = Math.min(p, 1 - p);
  let lo = 0;
  let hi = 1;
  while (studentUpperTail(hi, df) > upper) hi *= 2;
  for (let i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (studentUpperTail(mid, df) > upper) lo = mid;
    else hi = mid;
  }
  const t = (lo + hi) / 2;
  return p > 0.5 ? t : -t;
}
