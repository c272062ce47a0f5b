/**
 * Tango's score interval for a paired difference of proportions (Tango 1998, "Equivalence test
 * and confidence interval for the difference in proportions for the paired-sample design",
 * Statist. Med. 17:891–908). It needs only the counts of differences +1, −1 and 0, so it holds
 * for any paired difference that takes only those three values (two pass/fail runs, or scores
 * that moved by at most one step): the interval is the set of Δ whose score statistic, with
 * the variance taken at the maximum-likelihood estimate constrained to that Δ, lies within
 * ±z.975. Unlike the Wald interval it stays inside [−1, 1] and is not [0, 0] when nothing
 * changed.
 */

import { Z_975 } from './special';

export interface TrinomialCounts {
  /** Differences of +1. */
  up: number;
  /** Differences of −1. */
  down: number;
  /** All differences, zeros included. */
  n: number;
}

/** The score statistic of Δ: (observed − Δ) / se(Δ), se at the constrained MLE. */
function scoreStatistic({ up, down, n }: TrinomialCounts, delta: number): number {
  const observed = (up - down) / n;
  const same = n - up - down;
  // Constrained MLE of P(−1) given P(+1) − P(−1) = Δ: the positive root of
  // 2n·q² − B·q − C = 0, from setting the derivative of the trinomial log-likelihood to 0.
  const b = up * (1 - delta) + down * (1 - 3 * delta) - 2 * same * delta;
  const c = down * delta * (1 - delta);
  const root = (b + Math.sqrt(Math.max(0, b * b + 8 * n * c))) / (4 * n);
  const q = Math.min(Math.max(root, Math.max(0, -delta)), (1 - delta) / 2);
  const variance = (2 * q + delta - delta * delta) / n;
  const gap = observed - delta;
  if (gap === 0) return 0;
  if (!(variance > 0)) return gap > 0 ? Infinity : -Infinity;
  return gap / Math.sqrt(variance);
}

/** The Δ in [from, to] where the (monotone) score statistic crosses `target`, by bisection. */
function crossing(counts: TrinomialCounts, from: number, to: number, target: number): number {
  let inside = from;
  let outside = to;
  if (Math.abs(scoreStatistic(counts, outside)) <= Math.abs(target)) return outside;
  for (let i = 0; i < 200 && Math.abs(outside - inside) > 1e-15; i++) {
    const mid = (inside + outside) / 2;
    if (Math.abs(scoreStatistic(counts, mid)) <= Math.abs(target)) inside = mid;
    else outside = mid;
  }
  return inside;
}

/** The 95 % score interval for P(+1) − P(−1). */
export function tangoInterval(counts: TrinomialCounts): [number, number] {
  const observed = (counts.up - counts.down) / counts.n;
  return [crossing(counts, observed, -1, Z_975), crossing(counts, observed, 1, Z_975)];
}
