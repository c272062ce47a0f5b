import type { JsonValue } from '../../../../shared/model';
import { isRecord } from './json-values';

/**
 * Inspect's epoch reducers (`scorer/_reducer/reducer.py`): how one sample's scores over several
 * epochs become one score. Used only where the log does not already hold the reduced values.
 * See docs/formats-inspect.md.
 */

type Scalar = string | number | boolean;

/**
 * Inspect's default value_to_float: the grades C/I/P/N are 1, 0, 0.5 and 0 (case-sensitive),
 * yes/true and no/false (any case) 1 and 0, numeric strings their number; anything else 0.
 */
export function valueToFloat(value: Scalar): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value === 'C') return 1;
  if (value === 'P') return 0.5;
  if (value === 'I' || value === 'N') return 0;
  const word = value.toLowerCase();
  if (word === 'yes' || word === 'true') return 1;
  if (word === 'no' || word === 'false') return 0;
  const number = Number(value.trim());
  return value.trim() !== '' && Number.isFinite(number) ? number : 0;
}

function isScalar(value: unknown): value is Scalar {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

/** Reduces the scored values of one score (or one key or index of it) to one value. */
type ScalarReduce = (values: Scalar[]) => JsonValue;

function mean(values: number[]): number {
  return values.reduce((sum, v) => sum + v, 0) / values.length;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The most common value; among equally common ones, the first seen (Python's Counter). */
function mode(values: Scalar[]): Scalar {
  const counts = new Map<string, { value: Scalar; count: number }>();
  for (const value of values) {
    const key = `${typeof value}:${String(value)}`;
    const entry = counts.get(key);
    if (entry) entry.count++;
    else counts.set(key, { value, count: 1 });
  }
  let best: { value: Scalar; count: number } | null = null;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best!.value;
}

/** The value itself (not its float) with the highest value_to_float; the first on ties. */
function max(values: Scalar[]): Scalar {
  return values.reduce((best, v) => (valueToFloat(v) > valueToFloat(best) ? v : best));
}

/** Chen et al.'s unbiased pass@k over n epochs with c at or above 1; null when n < k. */
function passAt(k: number, values: number[]): number | null {
  const n = values.length;
  const correct = values.filter((v) => v >= 1).length;
  if (n < k) return null;
  if (n - correct < k) return 1;
  let product = 1;
  for (let i = n - correct + 1; i <= n; i++) product *= 1 - k / i;
  return 1 - product;
}

const floats =
  (statistic: (values: number[]) => number | null): ScalarReduce =>
  (values) =>
    statistic(values.map(valueToFloat));

const FIXED: Record<string, ScalarReduce> = {
  mean: floats(mean),
  median: floats(median),
  mode,
  max,
};

const WITH_K: Record<string, (k: number) => ScalarReduce> = {
  pass_at: (k) => floats((values) => passAt(k, values)),
  at_least: (k) => (values) => (values.filter((v) => valueToFloat(v) >= 1).length >= k ? 1 : 0),
};

/** The reducer a log names (`mean`, `pass_at_2`, …), or null when Pairwise does not know it. */
export function reducerNamed(name: string): ScalarReduce | null {
  const fixed = FIXED[name];
  if (fixed) return fixed;
  const match = /^(.*?)_(\d+)$/.exec(name);
  const make = match ? WITH_K[match[1]!] : undefined;
  return make ? make(Number(match![2])) : null;
}

export const DEFAULT_REDUCER = 'mean';

/**
 * One score's values over the epochs, reduced the way Inspect does: a dict key by key (keys of
 * the first dict), a list index by index, a scalar as is; unscored (null) values are left out,
 * and a score with no scored value reduces to null.
 */
export function reduceValues(values: JsonValue[], reduce: ScalarReduce): JsonValue {
  const scored = values.filter((value) => value !== null);
  const first = scored[0];
  if (first === undefined) return null;
  const over = (pick: (value: JsonValue) => unknown): JsonValue => {
    const items = scored.map(pick).filter(isScalar);
    return items.length > 0 ? reduce(items) : null;
  };
  if (isRecord(first)) {
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(first)) out[key] = over((v) => (isRecord(v) ? v[key] : null));
    return out;
  }
  if (Array.isArray(first)) {
    return first.map((_, i) => over((v) => (Array.isArray(v) ? v[i] : null)));
  }
  return over((v) => v);
}
