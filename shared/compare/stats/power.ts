/**
 * A normal-approximation power summary for a paired mean difference at two-sided α = 0.05 and
 * 80 % power: the minimum detectable effect with the pairs at hand, and, when the interval
 * includes 0, how many pairs would be needed for the observed difference to be detectable.
 */

import type { Power } from '../types';
import { Z_80, Z_975 } from './special';

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

export function powerSummary(
  sd: number | null,
  n: number,
  difference: number | null,
  ci95: [number, number] | null,
): Power {
  if (sd === null || n < 2) return { sd, mde: null, n_for_observed: null };
  const zSum = Z_975 + Z_80;
  const mde = (zSum * sd) / Math.sqrt(n);
  const includesZero = ci95 !== null && ci95[0] <= 0 && ci95[1] >= 0;
  const nForObserved =
    includesZero && difference !== null && difference !== 0 && sd > 0
      ? Math.ceil(((zSum * sd) / Math.abs(difference)) ** 2)
      : null;
  return { sd, mde, n_for_observed: nForObserved };
}
