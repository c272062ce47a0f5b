import { describe, expect, it } from 'vitest';
import { binomial, multinomialInto } from '../../../shared/compare/binomial';
import { bootstrapSeed, Xoshiro128 } from '../../../shared/compare/rng';
import { sha256Hex, utf8Bytes } from '../../../shared/compare/sha256';
import { logGamma, regularizedGammaQ } from '../../../shared/compare/stats/special';

describe('sha256Hex', () => {
  // FIPS 180-4 / NIST CSRC example values, including the one-million-"a" vector.
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
    ['a'.repeat(1_000_000), 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0'],
  ])('matches the FIPS vector %#', (text, digest) => {
    expect(sha256Hex(text)).toBe(digest);
  });

  // Around the padding boundaries (55 bytes fit one block, 56 need two); digests from
  // Python's hashlib.sha256(b"x" * n).
  it.each([
    [55, 'd5e285683cd4efc02d021a5c62014694958901005d6f71e89e0989fac77e4072'],
    [56, '04c26261370ee7541549d16dee320c723e3fd14671e66a099afe0a377c16888e'],
    [63, '75220b47218278e656f2013bb8f0c455a25eaf01e86c64924e9d48d89776d6f2'],
    [64, '7ce100971f64e7001e8fe5a51973ecdfe1ced42befe7ee8d5fd6219506b5393c'],
    [65, '9537c5fdf120482f7d58d25e9ed583f52c02b4e304ea814db1633ad565aed7e9'],
  ])('pads a %i-byte message correctly', (n, digest) => {
    expect(sha256Hex('x'.repeat(n))).toBe(digest);
  });

  it('hashes the UTF-8 encoding, surrogate pairs included', () => {
    expect([...utf8Bytes('é€😀')]).toEqual([0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]);
    expect(sha256Hex('é€😀')).toBe(
      'df9226927fd572c1ee66eec85de1bb139497614899f36e4e90474cb71f6ef9d0',
    );
    expect([...utf8Bytes('\ud800')]).toEqual([0xef, 0xbf, 0xbd]);
  });
});

describe('Xoshiro128', () => {
  it('matches the reference C implementation of xoshiro128**', () => {
    // State {0x01234567, 0x89abcdef, 0xfedcba98, 0x76543210}; outputs printed by Blackman &
    // Vigna's xoshiro128starstar.c compiled with gcc.
    const rng = new Xoshiro128('0123456789abcdeffedcba9876543210');
    expect(Array.from({ length: 6 }, () => rng.nextU32())).toEqual([
      2576975000, 1717987679, 3437557858, 3328806623, 2502269976, 3596207863,
    ]);
  });

  it('rejects a malformed seed and survives the all-zero state', () => {
    expect(() => new Xoshiro128('xyz')).toThrow();
    const rng = new Xoshiro128('0'.repeat(32));
    expect(new Set(Array.from({ length: 10 }, () => rng.nextU32())).size).toBeGreaterThan(1);
  });

  it('draws resample means that average to the data mean', () => {
    const rng = new Xoshiro128('00112233445566778899aabbccddeeff');
    const values = Float64Array.from({ length: 7 }, (_, i) => i);
    let total = 0;
    for (let b = 0; b < 20_000; b++) total += rng.resampleMean(values);
    expect(total / 20_000).toBeCloseTo(3, 1);
  });
});

describe('bootstrapSeed', () => {
  it('is SHA-256 of experiment|run|run|metric with the run ids sorted', () => {
    // sha256("exp-ace9299585e9|396afa98…|cdaf1d57…|refusal_rate") from Python's hashlib.
    const expected = 'b9ea52e87934be87f55a7c995df7b4d8dc93bc3aee5e0fa6c8fb9ef40ea4a447';
    const a = 'cdaf1d57945194eeb2a67518bad16578';
    const b = '396afa98ff099183f0dabeef6da5e622';
    expect(bootstrapSeed('exp-ace9299585e9', a, b, 'refusal_rate')).toBe(expected);
    expect(bootstrapSeed('exp-ace9299585e9', b, a, 'refusal_rate')).toBe(expected);
  });
});

/** ln P(X = k) for X ~ Binomial(n, p). */
function logPmf(k: number, n: number, p: number): number {
  return (
    logGamma(n + 1) -
    logGamma(k + 1) -
    logGamma(n - k + 1) +
    k * Math.log(p) +
    (n - k) * Math.log1p(-p)
  );
}

/** Pearson's chi-square goodness of fit of `draws` to Binomial(n, p); bins pooled to E ≥ 5. */
function chiSquarePValue(draws: number[], n: number, p: number): number {
  const observed = new Map<number, number>();
  for (const d of draws) observed.set(d, (observed.get(d) ?? 0) + 1);
  let statistic = 0;
  let bins = 0;
  let pooledE = 0;
  let pooledO = 0;
  for (let k = 0; k <= n; k++) {
    pooledE += draws.length * Math.exp(logPmf(k, n, p));
    pooledO += observed.get(k) ?? 0;
    if (pooledE >= 5 || k === n) {
      statistic += (pooledO - pooledE) ** 2 / Math.max(pooledE, 1e-12);
      bins++;
      pooledE = 0;
      pooledO = 0;
    }
  }
  return regularizedGammaQ((bins - 1) / 2, statistic / 2);
}

describe('binomial', () => {
  it.each([
    ['inversion', 20, 0.3],
    ['inversion near the switch', 100, 0.25],
    ['BTPE', 1000, 0.4],
    ['BTPE, p > 1/2', 500, 0.9],
    ['BTPE, large n', 100_000, 0.5],
  ])('%s: draws fit Binomial(%i, %f)', (_name, n, p) => {
    const rng = new Xoshiro128(sha256Hex(`binomial ${n} ${p}`));
    const draws = Array.from({ length: 20_000 }, () => binomial(rng, n, p));
    expect(Math.min(...draws)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...draws)).toBeLessThanOrEqual(n);
    const mean = draws.reduce((s, d) => s + d, 0) / draws.length;
    expect(Math.abs(mean - n * p)).toBeLessThan(5 * Math.sqrt((n * p * (1 - p)) / draws.length));
    expect(chiSquarePValue(draws, n, p)).toBeGreaterThan(0.001);
  });

  it('handles the degenerate cases', () => {
    const rng = new Xoshiro128(sha256Hex('edges'));
    expect(binomial(rng, 0, 0.5)).toBe(0);
    expect(binomial(rng, 10, 0)).toBe(0);
    expect(binomial(rng, 10, 1)).toBe(10);
  });

  it('multinomial draws always sum to the total and respect zero weights', () => {
    const rng = new Xoshiro128(sha256Hex('multinomial'));
    const weights = Float64Array.from([3, 0, 5, 2]);
    const out = new Float64Array(4);
    const sums = [0, 0, 0, 0];
    for (let i = 0; i < 5000; i++) {
      multinomialInto(rng, 10, weights, out);
      expect(out.reduce((s, v) => s + v, 0)).toBe(10);
      expect(out[1]).toBe(0);
      out.forEach((v, k) => (sums[k]! += v));
    }
    expect(sums.map((s) => s / 5000)).toEqual([
      expect.closeTo(3, 1),
      0,
      expect.closeTo(5, 1),
      expect.closeTo(2, 1),
    ]);
  });
});
