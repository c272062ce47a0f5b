/**
 * Value identity for the checks (docs/comparison.md, "Checks"): nested settings become leaf paths,
 * and two values are equal when their canonical JSON is equal (key order ignored, 1 and 1.0 and -0
 * and 0 the same number, arrays compared element by element in order).
 */

import type { JsonObject, JsonValue } from '../model';

/**
 * Nesting deeper than this stays one leaf, compared as a whole: settings are a few levels deep
 * in practice, and a cap keeps a pathological file from producing thousands of check rows.
 */
export const FLATTEN_MAX_DEPTH = 8;

/** Ordering by UTF-16 code units: the same on every platform and locale, unlike localeCompare. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Leaf paths of a settings object (`{generation: {temperature: 0}}` → `temperature` under the
 * `generation` prefix the caller adds). Arrays and empty objects are leaves, as are objects
 * at `maxDepth`. Keys whose value is `undefined` are skipped (they are not JSON).
 */
export function flatten(
  value: JsonObject | null | undefined,
  maxDepth: number = FLATTEN_MAX_DEPTH,
): Map<string, JsonValue> {
  const out = new Map<string, JsonValue>();
  const walk = (object: JsonObject, prefix: string, depth: number): void => {
    for (const key of Object.keys(object)) {
      const child = object[key];
      if (child === undefined) continue;
      if (isJsonObject(child) && Object.keys(child).length > 0 && depth < maxDepth) {
        walk(child, `${prefix}${key}.`, depth + 1);
      } else {
        out.set(`${prefix}${key}`, child);
      }
    }
  };
  if (value) walk(value, '', 1);
  return out;
}

/**
 * Canonical JSON text: object keys sorted by code unit, no whitespace, numbers in JavaScript's
 * shortest round-trip form (so 1.0 → `1`, -0 → `0`), non-finite numbers as `null` like
 * JSON.stringify. Two values are "the same" in a check exactly when these strings are equal.
 */
export function canonicalJson(value: JsonValue | undefined): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  if (typeof value === 'string' || typeof value === 'boolean') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  const keys = Object.keys(value)
    .filter((key) => value[key] !== undefined)
    .sort(compareStrings);
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(',')}}`;
}

/** Equality of canonical JSON without building the strings (the per-example hot path). */
export function jsonEqual(a: JsonValue | undefined, b: JsonValue | undefined): boolean {
  if (a === b) return true;
  // canonicalJson writes both null and undefined as `null`.
  if (a === undefined || b === undefined || a === null || b === null) {
    return (a === undefined || a === null) && (b === undefined || b === null);
  }
  if (typeof a === 'number' && typeof b === 'number') {
    // JSON has no NaN or Infinity; both canonicalise to null.
    return !Number.isFinite(a) && !Number.isFinite(b);
  }
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!jsonEqual(a[i], b[i])) return false;
    return true;
  }
  let countA = 0;
  for (const key in a) {
    if (!Object.prototype.hasOwnProperty.call(a, key) || a[key] === undefined) continue;
    countA++;
    const other = Object.prototype.hasOwnProperty.call(b, key) ? b[key] : undefined;
    if (other === undefined || !jsonEqual(a[key], other)) return false;
  }
  let countB = 0;
  for (const key in b) {
    if (Object.prototype.hasOwnProperty.call(b, key) && b[key] !== undefined) countB++;
  }
  return countA === countB;
}
