/**
 * A 95 % interval for one run's mean of a per-example value (no pairing): where the paper's
 * number should fall if the run reproduces it. Two-valued outcomes (pass/fail, 0/1, or any two
 * levels) get Wilson's score interval, which stays inside the two levels and never collapses to
 * a point at 0 % or 100 %; anything else the Student t interval.
 */

import { stableMean } from '../paired';
import { studentQuantile } from './quantiles';
import { sampleSd } from './power';
import { Z_975 } from './special';

export interface MeanInterval {
  n: number;
  mean: number;
  ci95: [number, number];
}

function wilson(successes: number, n: number): [number, number] {
  const z2 = Z_975 * Z_975;
  const share = successes / n;
  const centre = (share + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z_975 / (1 + z2 / n)) * Math.sqrt((share * (1 - share)) / n + z2 / (4 * n * n));
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** Null below two values or when a result is not finite. */
export function meanInterval(values: readonly number[]): MeanInterval | null {
  const n = values.length;
  if (n < 2) return null;
  const mean = stableMean(Float64Array.from(values));
  const levels = [...new Set(values)].sort((a, b) => a - b);
  // 0/1 (booleans, pass/fail) is a proportion even when every value is the same.
  const [low, high] = levels.every((v) => v === 0 || v === 1) ? [0, 1] : [levels[0]!, levels[1]];
  let ci95: [number, number];
  if (high !== undefined && levels.length <= 2) {
    const [lo, hi] = wilson(values.filter((v) => v === high).length, n);
    ci95 = [low + lo * (high - low), low + hi * (high - low)];
  } else {
    const sd = sampleSd(values)!;
    const half = (studentQuantile(0.975, n - 1) * sd) / Math.sqrt(n);
    ci95 = [mean - half, mean + half];
  }
  if (!Number.isFinite(mean) || !ci95.every(Number.isFinite)) return null;
  return { n, mean, ci95 };
}
