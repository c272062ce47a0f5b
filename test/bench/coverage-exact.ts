/**
 * Exact coverage of the shipped interval for two-valued outcomes. A paired difference of two
 * pass/fail runs takes only +1, −1 and 0, so its interval depends on (n, #+1, #−1) alone: each
 * of those outcomes is computed once through `pairedDifference`, and the coverage at any
 * (P(+1), P(−1)) is the trinomial probability of the outcomes whose interval holds the truth.
 * No simulation error; a grid of parameters shows what one simulated point cannot: coverage of
 * a discrete interval jumps from point to point, so it is judged on average and at its worst
 * (the convention of Newcombe 1998 and Fagerland, Lydersen & Laake 2014).
 */

import { pairedDifference } from '../../shared/compare/paired';

export interface ExactGridCell {
  n: number;
  points: number;
  mean: number;
  min: number;
  /** Grid points below 93 % (the interval promises too much there). */
  below: number;
  /** Grid points above 97 % (conservative: too few discordant pairs to do better). */
  above: number;
  /** Exact coverage at the simulated booleans' own (P(+1), P(−1)). */
  benchPoint: number;
}

/** P(+1) and P(−1) from 0.02 to 0.44 in steps of 0.06: from nearly no discordance to most. */
export const GRID_PROBABILITIES = Array.from({ length: 8 }, (_, k) => 0.02 + 0.06 * k);

function logFactorials(n: number): Float64Array {
  const table = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) table[k] = table[k - 1]! + Math.log(k);
  return table;
}

/** The shipped interval for every outcome with `up` differences of +1 and `down` of −1. */
export function intervalsByOutcome(n: number): ([number, number] | null)[][] {
  const intervals: ([number, number] | null)[][] = [];
  for (let up = 0; up <= n; up++) {
    intervals.push([]);
    for (let down = 0; up + down <= n; down++) {
      const differences = new Float64Array(n);
      differences.fill(1, 0, up);
      differences.fill(-1, up, up + down);
      const result = pairedDifference(
        { canonical: differences, sign: 1, inputMismatch: [], scale: 1, levels: [0, 1] },
        'exact-coverage',
        // Only the interval is read; the fewest resamples keep the p-value's work small.
        1,
      );
      intervals[up]!.push(result.ci95);
    }
  }
  return intervals;
}

/** Probability that the interval contains P(+1) − P(−1) when pairs are drawn with these odds. */
export function exactCoverage(
  intervals: ([number, number] | null)[][],
  n: number,
  pUp: number,
  pDown: number,
): number {
  const lf = logFactorials(n);
  const truth = pUp - pDown;
  const pSame = 1 - pUp - pDown;
  let covered = 0;
  for (let up = 0; up <= n; up++) {
    for (let down = 0; up + down <= n; down++) {
      const same = n - up - down;
      const ci = intervals[up]![down];
      if (!ci || ci[0] > truth || truth > ci[1]) continue;
      covered += Math.exp(
        lf[n]! -
          lf[up]! -
          lf[down]! -
          lf[same]! +
          up * Math.log(pUp) +
          down * Math.log(pDown) +
          same * Math.log(pSame),
      );
    }
  }
  return covered;
}

export function exactGridCell(n: number, benchPoint: [number, number]): ExactGridCell {
  const intervals = intervalsByOutcome(n);
  const coverages: number[] = [];
  for (const pUp of GRID_PROBABILITIES)
    for (const pDown of GRID_PROBABILITIES) coverages.push(exactCoverage(intervals, n, pUp, pDown));
  return {
    n,
    points: coverages.length,
    mean: coverages.reduce((sum, c) => sum + c, 0) / coverages.length,
    min: Math.min(...coverages),
    below: coverages.filter((c) => c < 0.93).length,
    above: coverages.filter((c) => c > 0.97).length,
    benchPoint: exactCoverage(intervals, n, ...benchPoint),
  };
}
