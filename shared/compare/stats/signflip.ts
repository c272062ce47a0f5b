/**
 * The paired sign-flip permutation test of a mean difference (Fisher 1935, The Design of
 * Experiments, §21): under "no effect" each pair's two sides are exchangeable, so each non-zero
 * difference is as likely to carry either sign. The two-sided p-value is the share of the 2^n
 * sign patterns whose |Σ ± d| is at least the observed |Σ d|. Exact by enumeration for up to
 * SIGN_FLIP_EXACT_LIMIT non-zero differences, exact by convolution for integer differences of
 * modest total, exact as a binomial sign test when every |d| is equal, else B seeded random
 * patterns with p = (1 + hits)/(B + 1), which is never below 1/(B + 1). Where B random patterns
 * would cost more than RANDOM_BUDGET steps (n in the thousands), Σ ± d is normal to within far
 * less than the Monte Carlo error of B patterns (mean 0, variance Σ d²), and that tail is used.
 */

import { binomialHalfCdf } from './mcnemar';
import { normalUpperTail } from './special';
import { Xoshiro128 } from '../rng';

export const SIGN_FLIP_EXACT_LIMIT = 20;

/** Above this many cells (non-zero differences × attainable sums) the convolution is not run. */
const CONVOLUTION_BUDGET = 5e7;

/** Above this many steps (non-zero differences × patterns) the normal tail stands in. */
const RANDOM_BUDGET = 2e7;

export type SignFlipMethod =
  | 'exact sign test'
  | 'exact sign-flip permutation'
  | 'sign-flip permutation (random sign patterns)'
  | 'sign-flip permutation (normal approximation)';

export interface SignFlipResult {
  p: number;
  method: SignFlipMethod;
}

/** |Σ ± d| within this share of Σ|d| of the observed one counts as equally extreme. */
const TIE_TOLERANCE = 1e-12;

/**
 * `differences` in any order; `seedHex` seeds the random patterns (used only past the exact
 * paths). Needs at least one difference.
 */
export function signFlipTest(
  differences: ArrayLike<number>,
  seedHex: string,
  resamples: number,
): SignFlipResult {
  return signFlipFromSums(differences, magnitudeSums(differences), seedHex, resamples);
}

/** The test given the sums over the non-zero |d| ascending, however they were taken. */
export function signFlipFromSums(
  differences: ArrayLike<number>,
  sums: MagnitudeSums,
  seedHex: string,
  resamples: number,
): SignFlipResult {
  let observed = 0;
  for (let i = 0; i < differences.length; i++) observed += differences[i]!;
  const n = sums.count;
  if (n === 0) return { p: 1, method: 'exact sign-flip permutation' };
  const threshold = Math.abs(observed) - TIE_TOLERANCE * sums.gross;

  if (sums.least === sums.greatest) {
    // All |d| equal: Σ ± d is |d| × (2·Binomial(n, 1/2) − n), the sign test.
    let positive = 0;
    for (let i = 0; i < differences.length; i++) if (differences[i]! > 0) positive++;
    const tail = binomialHalfCdf(Math.min(positive, n - positive), n);
    return { p: Math.min(1, 2 * tail), method: 'exact sign test' };
  }
  if (n <= SIGN_FLIP_EXACT_LIMIT) {
    return {
      p: enumerate(ascendingMagnitudes(differences), threshold),
      method: 'exact sign-flip permutation',
    };
  }
  const total = sums.gross;
  if (sums.integers && n * (2 * total + 1) <= CONVOLUTION_BUDGET) {
    return {
      p: convolve(ascendingMagnitudes(differences), total, threshold),
      method: 'exact sign-flip permutation',
    };
  }
  if (n * resamples > RANDOM_BUDGET) {
    const spread = Math.sqrt(sums.squares);
    return {
      p: Math.min(1, 2 * normalUpperTail(Math.max(0, threshold) / spread)),
      method: 'sign-flip permutation (normal approximation)',
    };
  }
  return {
    p: randomPatterns(ascendingMagnitudes(differences), threshold, seedHex, resamples),
    method: 'sign-flip permutation (random sign patterns)',
  };
}

/** What the tests read off the non-zero |d|, summed in ascending order. */
export interface MagnitudeSums {
  count: number;
  gross: number;
  squares: number;
  least: number;
  greatest: number;
  integers: boolean;
}

function sumsOf(magnitudes: Float64Array): MagnitudeSums {
  let gross = 0;
  let squares = 0;
  let integers = true;
  for (let m = 0; m < magnitudes.length; m++) {
    const v = magnitudes[m]!;
    gross += v;
    squares += v * v;
    if (integers && !Number.isInteger(v)) integers = false;
  }
  const n = magnitudes.length;
  return {
    count: n,
    gross,
    squares,
    least: magnitudes[0]!,
    greatest: magnitudes[n - 1]!,
    integers,
  };
}

/**
 * The sums over |d| ascending without the array of them when the differences are sorted (a
 * million, as the paired difference hands them over, need only the sums past the exact paths):
 * the same merge as ascendingMagnitudes, so the sums are the same bits.
 */
function magnitudeSums(differences: ArrayLike<number>): MagnitudeSums {
  let negative = 0;
  let positive = 0;
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i]!;
    if (i > 0 && !(differences[i - 1]! <= d)) return sumsOf(ascendingMagnitudes(differences));
    if (d < 0) negative++;
    else if (d > 0) positive++;
  }
  let i = negative - 1;
  let j = differences.length - positive;
  let gross = 0;
  let squares = 0;
  let integers = true;
  let least = NaN;
  let greatest = NaN;
  for (let m = 0; m < negative + positive; m++) {
    const below = i >= 0 ? -differences[i]! : Infinity;
    const above = j < differences.length ? differences[j]! : Infinity;
    let v: number;
    if (below <= above) {
      v = below;
      i--;
    } else {
      v = above;
      j++;
    }
    if (m === 0) least = v;
    greatest = v;
    gross += v;
    squares += v * v;
    if (integers && !Number.isInteger(v)) integers = false;
  }
  return { count: negative + positive, gross, squares, least, greatest, integers };
}

/**
 * |d| of the non-zero differences, ascending. Sorted differences (as the paired difference
 * hands them over) are merged from both ends of the zeros instead of sorted again.
 */
export function ascendingMagnitudes(differences: ArrayLike<number>): Float64Array {
  let negative = 0;
  let positive = 0;
  let ascending = true;
  for (let i = 0; i < differences.length; i++) {
    const d = differences[i]!;
    if (d < 0) negative++;
    else if (d > 0) positive++;
    if (i > 0 && differences[i - 1]! > d) ascending = false;
  }
  const magnitudes = new Float64Array(negative + positive);
  if (!ascending) {
    let m = 0;
    for (let i = 0; i < differences.length; i++) {
      const d = differences[i]!;
      if (d !== 0) magnitudes[m++] = Math.abs(d);
    }
    return magnitudes.sort();
  }
  // The negatives lead, smallest magnitude last; the positives close, smallest first.
  let i = negative - 1;
  let j = differences.length - positive;
  for (let m = 0; m < magnitudes.length; m++) {
    const below = i >= 0 ? -differences[i]! : Infinity;
    const above = j < differences.length ? differences[j]! : Infinity;
    if (below <= above) {
      magnitudes[m] = below;
      i--;
    } else {
      magnitudes[m] = above;
      j++;
    }
  }
  return magnitudes;
}

/** Every sign pattern, walked in Gray-code order so each step flips one sign. */
function enumerate(magnitudes: Float64Array, threshold: number): number {
  const n = magnitudes.length;
  const signs = new Int8Array(n).fill(1);
  let sum = magnitudes.reduce((s, v) => s + v, 0);
  let hits = Math.abs(sum) >= threshold ? 1 : 0;
  const patterns = 2 ** n;
  for (let k = 1; k < patterns; k++) {
    // The bit that changes between Gray codes k − 1 and k is the lowest set bit of k.
    const bit = 31 - Math.clz32(k & -k);
    sum -= 2 * signs[bit]! * magnitudes[bit]!;
    signs[bit] = -signs[bit]! as 1 | -1;
    if (Math.abs(sum) >= threshold) hits++;
  }
  return hits / patterns;
}

/** The distribution of Σ ± d for integer |d| by convolution, as probabilities. */
function convolve(magnitudes: Float64Array, total: number, threshold: number): number {
  // Index s + total holds P(Σ ± d = s).
  let current = new Float64Array(2 * total + 1);
  let next = new Float64Array(2 * total + 1);
  current[total] = 1;
  let reach = 0;
  for (const m of magnitudes) {
    next.fill(0);
    for (let s = total - reach; s <= total + reach; s++) {
      const p = current[s]!;
      if (p === 0) continue;
      next[s + m] = next[s + m]! + p / 2;
      next[s - m] = next[s - m]! + p / 2;
    }
    reach += m;
    [current, next] = [next, current];
  }
  let tail = 0;
  for (let s = 0; s < current.length; s++)
    if (Math.abs(s - total) >= threshold) tail += current[s]!;
  return Math.min(1, tail);
}

function randomPatterns(
  magnitudes: Float64Array,
  threshold: number,
  seedHex: string,
  resamples: number,
): number {
  const rng = new Xoshiro128(seedHex);
  let hits = 0;
  for (let b = 0; b < resamples; b++) {
    let sum = 0;
    let bits = 0;
    for (let i = 0; i < magnitudes.length; i++) {
      if (i % 32 === 0) bits = rng.nextU32();
      sum += bits & 1 ? magnitudes[i]! : -magnitudes[i]!;
      bits >>>= 1;
    }
    if (Math.abs(sum) >= threshold) hits++;
  }
  return (1 + hits) / (resamples + 1);
}
