/**
 * The seeded generator behind every bootstrap: xoshiro128** (Blackman & Vigna), seeded with the
 * first 128 bits of a SHA-256 digest, so the same seed string always gives the same interval on
 * every platform (Math.random cannot be seeded).
 */

import { sha256Hex } from './sha256';

const TWO_POW_32 = 4294967296;
const TWO_POW_53 = 9007199254740992;

export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /** `seedHex` needs at least 32 hex digits (a SHA-256 hex digest has 64). */
  constructor(seedHex: string) {
    if (!/^[0-9a-f]{32,}$/i.test(seedHex)) throw new Error(`bad seed: ${seedHex}`);
    this.s0 = parseInt(seedHex.slice(0, 8), 16) | 0;
    this.s1 = parseInt(seedHex.slice(8, 16), 16) | 0;
    this.s2 = parseInt(seedHex.slice(16, 24), 16) | 0;
    this.s3 = parseInt(seedHex.slice(24, 32), 16) | 0;
    // The all-zero state is the generator's one fixed point.
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** The next 32-bit output as an unsigned integer. */
  nextU32(): number {
    const s1 = this.s1;
    const product = Math.imul(s1, 5);
    const result = Math.imul((product << 7) | (product >>> 25), 9);
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = (this.s3 << 11) | (this.s3 >>> 21);
    return result >>> 0;
  }

  /** A uniform double in [0, 1) with all 53 bits random. */
  nextDouble(): number {
    const hi = this.nextU32() >>> 5;
    const lo = this.nextU32() >>> 6;
    return (hi * 67108864 + lo) / TWO_POW_53;
  }

  /**
   * The mean of n = values.length draws with replacement from `values`: one bootstrap resample.
   * Indices are uniform on [0, n) without modulo bias (Lemire's multiply-shift with rejection;
   * the product stays below 2^53, so it is exact). The generator is inlined on local variables
   * because this loop runs n × B times and dominates the bootstrap of continuous data.
   */
  resampleMean(values: Float64Array): number {
    const n = values.length;
    const reject = (TWO_POW_32 - n) % n;
    let s0 = this.s0;
    let s1 = this.s1;
    let s2 = this.s2;
    let s3 = this.s3;
    let sum = 0;
    for (let i = 0; i < n;) {
      const product = Math.imul(s1, 5);
      const output = Math.imul((product << 7) | (product >>> 25), 9) >>> 0;
      const t = s1 << 9;
      s2 ^= s0;
      s3 ^= s1;
      s1 ^= s2;
      s0 ^= s3;
      s2 ^= t;
      s3 = (s3 << 11) | (s3 >>> 21);
      const m = output * n;
      const high = Math.floor(m / TWO_POW_32);
      if (m - high * TWO_POW_32 < reject) continue;
      sum += values[high]!;
      i++;
    }
    this.s0 = s0;
    this.s1 = s1;
    this.s2 = s2;
    this.s3 = s3;
    return sum / n;
  }
}

/**
 * The bootstrap seed of one metric of one pair of runs: SHA-256 of
 * `experiment_id|run_a|run_b|metric` with the two run ids in sorted order, so a comparison and
 * its mirror (reference and candidate swapped) draw exactly the same resamples, and swapping
 * sides negates the interval exactly (docs/comparison.md, "Metrics and intervals").
 */
export function bootstrapSeed(
  experimentId: string,
  runA: string,
  runB: string,
  metric: string,
): string {
  const [first, second] = runA <= runB ? [runA, runB] : [runB, runA];
  return sha256Hex(`${experimentId}|${first}|${second}|${metric}`);
}
