/**
 * Exact binomial and multinomial draws, so the bootstrap can resample counts of a few distinct
 * values instead of n indices. Inversion for small n·p, BTPE (Kachitvichyanukul & Schmeiser
 * 1988, "Binomial random variate generation", CACM 31(2)) otherwise, following NumPy's
 * `random_binomial_btpe`/`random_binomial_inversion`. Both are exact samplers, not approximations.
 */

import type { Xoshiro128 } from './rng';

/** Below this mean, inversion is faster than BTPE's setup (NumPy's threshold). */
const INVERSION_LIMIT = 30;

/** One draw from Binomial(n, p), n a non-negative integer, 0 ≤ p ≤ 1. */
export function binomial(rng: Xoshiro128, n: number, p: number): number {
  if (n === 0 || p <= 0) return 0;
  if (p >= 1) return n;
  if (p <= 0.5) return p * n <= INVERSION_LIMIT ? inversion(rng, n, p) : btpe(rng, n, p);
  const q = 1 - p;
  return n - (q * n <= INVERSION_LIMIT ? inversion(rng, n, q) : btpe(rng, n, q));
}

function inversion(rng: Xoshiro128, n: number, p: number): number {
  const q = 1 - p;
  const qn = Math.exp(n * Math.log(q));
  const np = n * p;
  // Past ~10 sd the remaining mass is below double precision; restarting there keeps the loop
  // bounded without measurably changing the distribution (same bound as NumPy).
  const bound = Math.min(n, np + 10 * Math.sqrt(np * q + 1));
  let x = 0;
  let px = qn;
  let u = rng.nextDouble();
  while (u > px) {
    x++;
    if (x > bound) {
      x = 0;
      px = qn;
      u = rng.nextDouble();
    } else {
      u -= px;
      px = ((n - x + 1) * p * px) / (x * q);
    }
  }
  return x;
}

function stirlingTail(x: number): number {
  const x2 = x * x;
  return (13680 - (462 - (132 - (99 - 140 / x2) / x2) / x2) / x2) / x / 166320;
}

/** BTPE for p ≤ 0.5 and n·p > 30; step names follow the paper. */
function btpe(rng: Xoshiro128, n: number, p: number): number {
  const r = p;
  const q = 1 - r;
  const fm = n * r + r;
  const m = Math.floor(fm);
  const p1 = Math.floor(2.195 * Math.sqrt(n * r * q) - 4.6 * q) + 0.5;
  const xm = m + 0.5;
  const xl = xm - p1;
  const xr = xm + p1;
  const c = 0.134 + 20.5 / (15.3 + m);
  let a = (fm - xl) / (fm - xl * r);
  const laml = a * (1 + a / 2);
  a = (xr - fm) / (xr * q);
  const lamr = a * (1 + a / 2);
  const p2 = p1 * (1 + 2 * c);
  const p3 = p2 + c / laml;
  const p4 = p3 + c / lamr;
  const nrq = n * r * q;

  for (;;) {
    const u = rng.nextDouble() * p4;
    let v = rng.nextDouble();
    let y: number;
    if (u <= p1) {
      // Step 1: the triangular centre is accepted outright.
      return Math.floor(xm - p1 * v + u);
    } else if (u <= p2) {
      const x = xl + (u - p1) / c;
      v = v * c + 1 - Math.abs(m - x + 0.5) / p1;
      if (v > 1) continue;
      y = Math.floor(x);
    } else if (u <= p3) {
      y = Math.floor(xl + Math.log(v) / laml);
      if (y < 0 || v === 0) continue;
      v = v * (u - p2) * laml;
    } else {
      y = Math.floor(xr - Math.log(v) / lamr);
      if (y > n || v === 0) continue;
      v = v * (u - p3) * lamr;
    }

    const k = Math.abs(y - m);
    if (k <= 20 || k >= nrq / 2 - 1) {
      // Step 5.1: evaluate f(y)/f(m) by the recurrence.
      const s = r / q;
      const aa = s * (n + 1);
      let f = 1;
      if (m < y) for (let i = m + 1; i <= y; i++) f *= aa / i - s;
      else if (m > y) for (let i = y + 1; i <= m; i++) f /= aa / i - s;
      if (v <= f) return y;
      continue;
    }

    // Steps 5.2–5.3: squeeze on log(v), then the Stirling-corrected bound.
    const rho = (k / nrq) * ((k * (k / 3 + 0.625) + 0.16666666666666666) / nrq + 0.5);
    const t = (-k * k) / (2 * nrq);
    const logV = Math.log(v);
    if (logV < t - rho) return y;
    if (logV > t + rho) continue;
    const x1 = y + 1;
    const f1 = m + 1;
    const z = n + 1 - m;
    const w = n - y + 1;
    const bound =
      xm * Math.log(f1 / x1) +
      (n - m + 0.5) * Math.log(z / w) +
      (y - m) * Math.log((w * r) / (x1 * q)) +
      stirlingTail(f1) +
      stirlingTail(z) +
      stirlingTail(x1) +
      stirlingTail(w);
    if (logV <= bound) return y;
  }
}

/**
 * One multinomial draw of `total` items over categories with the given integer weights
 * (the weights are the observed counts, so the probabilities are weight / sum). Sequential
 * conditional binomials: category k gets Binomial(remaining items, w_k / remaining weight).
 */
export function multinomialInto(
  rng: Xoshiro128,
  total: number,
  weights: Float64Array,
  out: Float64Array,
): void {
  let remainingItems = total;
  let remainingWeight = 0;
  for (let k = 0; k < weights.length; k++) remainingWeight += weights[k]!;
  const last = weights.length - 1;
  for (let k = 0; k < last; k++) {
    const w = weights[k]!;
    const draw = remainingItems === 0 ? 0 : binomial(rng, remainingItems, w / remainingWeight);
    out[k] = draw;
    remainingItems -= draw;
    remainingWeight -= w;
  }
  if (last >= 0) out[last] = remainingItems;
}
