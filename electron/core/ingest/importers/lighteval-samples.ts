import type { ImportedExample, JsonObject, JsonValue } from '../../../../shared/model';
import { sha256Text } from '../hash';
import { isRecord, str } from './json-values';

/**
 * One row of a lighteval details file as an example (docs/formats-lighteval.md). Two layouts:
 * `v2` rows hold `doc`, `model_response` and `metric` structs (lighteval 0.10 on); `v1` rows
 * hold the flat record (`example`, `predictions`, `gold`, `metrics`, …) of earlier versions.
 */
export type DetailsLayout = 'v1' | 'v2';

export function layoutOf(columns: string[]): DetailsLayout | null {
  const has = (name: string) => columns.includes(name);
  if (has('doc') && has('model_response') && has('metric')) return 'v2';
  if (has('example') && has('predictions') && has('metrics')) return 'v1';
  return null;
}

/**
 * Parquet's 64-bit integers arrive as BigInt: a number when it is exact, else its decimal text,
 * so ids and counts are never silently rounded. Everything else is copied as JSON.
 */
export function plain(value: unknown): JsonValue {
  if (typeof value === 'bigint')
    return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.map(plain);
  if (isRecord(value)) {
    const out: JsonObject = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) out[key] = plain(item);
    return out;
  }
  return (value ?? null) as JsonValue;
}

const list = (value: unknown): unknown[] =>
  Array.isArray(value) ? value : value === null || value === undefined ? [] : [value];

/** The choice with the highest log-probability: the answer of a sample scored by its choices. */
function argmaxChoice(choices: unknown[], logprobs: unknown[]): string | null {
  let best = -1;
  logprobs.forEach((lp, i) => {
    if (
      typeof lp === 'number' &&
      i < choices.length &&
      (best < 0 || lp > (logprobs[best] as number))
    )
      best = i;
  });
  return best < 0 ? null : str(choices[best]);
}

function goldsOf(choices: unknown[], goldIndex: unknown): string[] {
  return list(goldIndex).flatMap((i) => {
    const choice = typeof i === 'number' ? choices[i] : undefined;
    return typeof choice === 'string' ? [choice] : [];
  });
}

function targetOf(golds: string[]): string | null {
  if (golds.length === 0) return null;
  return golds.length === 1 ? golds[0]! : JSON.stringify(golds);
}

/** The per-sample scores: numbers and yes/no values only, each a field the comparison reads. */
function scoresOf(metric: unknown): JsonObject {
  const out: JsonObject = {};
  if (!isRecord(metric)) return out;
  for (const [name, value] of Object.entries(metric)) {
    const v = plain(value);
    if (typeof v === 'number' || typeof v === 'boolean') out[name] = v;
  }
  return out;
}

export interface SampleRow {
  /** The id lighteval gave the sample, or null (v1 keeps none). */
  id: string | null;
  query: string;
  example: Omit<ImportedExample, 'id'>;
}

export function sampleOf(layout: DetailsLayout, row: Record<string, unknown>): SampleRow {
  return layout === 'v2' ? v2Sample(row) : v1Sample(row);
}

function v2Sample(row: Record<string, unknown>): SampleRow {
  const doc = isRecord(row.doc) ? row.doc : {};
  const response = isRecord(row.model_response) ? row.model_response : {};
  const choices = list(doc.choices);
  const texts = list(response.text_post_processed).length
    ? list(response.text_post_processed)
    : list(response.text);
  const output = str(texts[0]) ?? argmaxChoice(choices, list(response.logprobs)) ?? '';
  const id = plain(doc.id);
  const query = str(doc.query) ?? '';
  return {
    id: typeof id === 'string' && id !== '' ? id : typeof id === 'number' ? String(id) : null,
    query,
    example: {
      input: query,
      output,
      target: targetOf(goldsOf(choices, plain(doc.gold_index))),
      error: null,
      fields: { ...scoresOf(row.metric), gold_index: plain(list(doc.gold_index)) },
    },
  };
}

function v1Sample(row: Record<string, unknown>): SampleRow {
  const choices = list(row.choices);
  const predictions = list(row.predictions);
  const output =
    (typeof predictions[0] === 'string' ? predictions[0] : null) ??
    argmaxChoice(choices, predictions.map(plain)) ??
    '';
  const gold = list(row.gold).filter((g): g is string => typeof g === 'string');
  const query = str(row.example) ?? '';
  return {
    id: null,
    query,
    example: {
      input: query,
      output,
      target: targetOf(gold.length > 0 ? gold : goldsOf(choices, plain(row.gold_index))),
      error: null,
      fields: { ...scoresOf(row.metrics), gold_index: plain(list(row.gold_index)) },
    },
  };
}

/**
 * An id for a sample lighteval gave none: its query's hash, so two runs of one task pair the
 * same question whatever its row; a query met again in the same file gets `~2`, `~3`, … in
 * file order.
 */
export class QueryIds {
  private readonly seen = new Map<string, number>();

  next(query: string): string {
    const base = `q-${sha256Text(query).slice(0, 16)}`;
    const count = (this.seen.get(base) ?? 0) + 1;
    this.seen.set(base, count);
    return count === 1 ? base : `${base}~${count}`;
  }
}
