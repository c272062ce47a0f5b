import type { JsonObject, JsonValue } from '../../../../shared/model';

/** Narrowing helpers for parsed JSON: run files are untrusted, so every read is checked. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

/** Values straight from JSON.parse are JSON by construction, so no copy is needed. */
export function jsonObject(value: unknown): JsonObject | null {
  return isRecord(value) ? (value as JsonObject) : null;
}

export function nonEmptyObject(value: unknown): JsonObject | null {
  const object = jsonObject(value);
  return object && Object.keys(object).length > 0 ? object : null;
}

export function jsonValue(value: unknown): JsonValue {
  return value === undefined ? null : (value as JsonValue);
}

/** Drops null/undefined entries so optional keys are absent rather than null in stored JSON. */
export function compact(entries: Record<string, unknown>): JsonObject {
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(entries)) {
    if (value !== null && value !== undefined) out[key] = value as JsonValue;
  }
  return out;
}

/**
 * `a.b=1 c=x` leaf-path rendering for condition names: nested objects are flattened so the
 * one setting that differs is visible, and keys are sorted so key order never changes a name.
 */
export function renderSettings(value: JsonObject, prefix = ''): string[] {
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const item = value[key];
    const path = prefix ? `${prefix}.${key}` : key;
    if (isRecord(item)) parts.push(...renderSettings(item as JsonObject, path));
    else parts.push(`${path}=${typeof item === 'string' ? item : JSON.stringify(item)}`);
  }
  return parts;
}

const NAME_LIMIT = 120;

export function clip(text: string, limit = NAME_LIMIT): string {
  return text.length > limit ? `${text.slice(0, limit - 1)}…` : text;
}

/**
 * The common model stores UTC timestamps. Values already in UTC (`…Z`) are kept verbatim so
 * REPS's microseconds survive; offsets such as Inspect's `-04:00` are converted.
 */
export function utcIso(value: unknown): string | null {
  if (typeof value !== 'string' || value === '') return null;
  if (/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/.test(value)) return value;
  const time = Date.parse(value);
  return Number.isNaN(time) ? value : new Date(time).toISOString();
}

export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return (
      keys.length === Object.keys(b).length &&
      keys.every((key) => key in b && sameJson(a[key], b[key]))
    );
  }
  return false;
}
