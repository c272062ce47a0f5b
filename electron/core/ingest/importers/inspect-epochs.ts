import type { Trace } from '../../../../shared/trace';
import type { ImportedExample, JsonObject, JsonValue } from '../../../../shared/model';
import { dedupeExamples, scoreFields } from './inspect-common';
import { DEFAULT_REDUCER, reduceValues, reducerNamed } from './inspect-reducers';
import { int, isRecord, jsonObject, str } from './json-values';

/**
 * A sample run for several epochs is one example, not one per epoch: the epochs are repeated
 * measurements of the same item, and counting them as items would overstate the paired n.
 * Each score becomes the value Inspect reduced it to; the epochs themselves stay in one
 * non-scalar field for the detail view. See docs/formats-inspect.md.
 */

/** One sample file (one epoch of one sample), as an example keyed by the sample's bare id. */
export interface EpochRecord {
  example: ImportedExample;
  epoch: number;
  /** The sample's `scores` as written, for reducing. */
  scores: unknown;
  /** Its messages and events, for the trace view (kept beside the example, not in it). */
  trace?: Trace | null;
}

/** The field that keeps every epoch's output and scores. */
export const EPOCHS_FIELD = 'epochs';

function configuredEpochs(log: Record<string, unknown>): number | null {
  const spec = isRecord(log.eval) ? log.eval : {};
  return int(jsonObject(spec.config)?.epochs);
}

/**
 * The epochs the eval was run with: its config's, else (older logs leave the default out) the
 * highest epoch among its samples; unknown for a log with neither.
 */
export function epochsOf(log: Record<string, unknown>, records: EpochRecord[]): number | null {
  const configured = configuredEpochs(log);
  if (configured !== null) return configured;
  return records.length > 0 ? records.reduce((most, r) => Math.max(most, r.epoch), 1) : null;
}

function firstReducer(value: unknown): string | null {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? str(value[0]) : null;
}

/**
 * The reducer of a score: the one its results entry names, else the eval's first configured
 * epochs_reducer, else Inspect's default, mean.
 */
export function reducerOf(log: Record<string, unknown>, scorer: string): string {
  const results = isRecord(log.results) ? log.results : {};
  for (const score of Array.isArray(results.scores) ? results.scores : []) {
    if (isRecord(score) && (score.name === scorer || score.scorer === scorer)) {
      const reducer = str(score.reducer);
      if (reducer) return reducer;
    }
  }
  const spec = isRecord(log.eval) ? log.eval : {};
  return firstReducer(jsonObject(spec.config)?.epochs_reducer) ?? DEFAULT_REDUCER;
}

/**
 * `reductions` as written (`[{scorer, reducer, samples: [{value, sample_id}]}]`): the value of
 * each scorer for each sample id. With several reducers a scorer has several entries; the
 * first is the first reducer's, the one the score's field stands for.
 */
function reducedValues(reductions: unknown): Map<string, Map<string, JsonValue>> {
  const byScorer = new Map<string, Map<string, JsonValue>>();
  for (const entry of Array.isArray(reductions) ? reductions : []) {
    if (!isRecord(entry) || typeof entry.scorer !== 'string' || byScorer.has(entry.scorer)) {
      continue;
    }
    const values = new Map<string, JsonValue>();
    for (const sample of Array.isArray(entry.samples) ? entry.samples : []) {
      const id = isRecord(sample) ? sample.sample_id : undefined;
      if ((typeof id === 'string' || typeof id === 'number') && 'value' in sample!) {
        values.set(String(id), (sample as JsonObject).value!);
      }
    }
    byScorer.set(entry.scorer, values);
  }
  return byScorer;
}

function scoreValue(scores: unknown, scorer: string): JsonValue {
  const score = isRecord(scores) ? scores[scorer] : undefined;
  return isRecord(score) && score.value !== undefined ? (score.value as JsonValue) : null;
}

/** Keeps the last record of each (id, epoch), as the index keeps one row per example. */
function byIdThenEpoch(records: EpochRecord[], warnings: string[]): EpochRecord[][] {
  const groups = new Map<string, Map<number, EpochRecord>>();
  const repeated: string[] = [];
  for (const record of records) {
    let epochs = groups.get(record.example.id);
    if (!epochs) groups.set(record.example.id, (epochs = new Map()));
    if (epochs.has(record.epoch)) repeated.push(`${record.example.id} epoch ${record.epoch}`);
    epochs.set(record.epoch, record);
  }
  if (repeated.length > 0) {
    warnings.push(
      `${repeated.length} sample epoch(s) appear more than once (${repeated.slice(0, 5).join(', ')}${repeated.length > 5 ? ', …' : ''}); the last record of each was kept`,
    );
  }
  return [...groups.values()].map((epochs) =>
    [...epochs.values()].sort((a, b) => a.epoch - b.epoch),
  );
}

interface Reducing {
  log: Record<string, unknown>;
  reduced: Map<string, Map<string, JsonValue>>;
  unknownReducers: Set<string>;
}

function reducedScores(group: EpochRecord[], id: string, how: Reducing): JsonObject {
  const scorers = [
    ...new Set(group.flatMap((r) => (isRecord(r.scores) ? Object.keys(r.scores) : []))),
  ];
  const scores: JsonObject = {};
  for (const scorer of scorers) {
    const fromLog = how.reduced.get(scorer)?.get(id);
    if (fromLog !== undefined) {
      scores[scorer] = { value: fromLog };
      continue;
    }
    const name = reducerOf(how.log, scorer);
    let reduce = reducerNamed(name);
    if (!reduce) {
      how.unknownReducers.add(name);
      reduce = reducerNamed(DEFAULT_REDUCER)!;
    }
    scores[scorer] = {
      value: reduceValues(
        group.map((r) => scoreValue(r.scores, scorer)),
        reduce,
      ),
    };
  }
  return scoreFields(scores);
}

function mergeGroup(group: EpochRecord[], how: Reducing): ImportedExample {
  const first = group[0]!.example;
  const outputs = new Set(group.map((r) => r.example.output));
  const errors = group.filter((r) => r.example.error !== null);
  const epochs: JsonObject = {
    count: group.length,
    outputs_differ: outputs.size > 1,
    per_epoch: group.map((r) => ({
      epoch: r.epoch,
      output: r.example.output,
      scores: r.example.fields,
      ...(r.example.error !== null ? { error: r.example.error } : {}),
    })),
  };
  return {
    ...first,
    fields: { ...reducedScores(group, first.id, how), [EPOCHS_FIELD]: epochs },
    // An epoch that failed leaves the others to stand for the sample; only when every epoch
    // failed is there nothing to compare.
    error: errors.length === group.length ? first.error : null,
  };
}

/**
 * The examples of a log: one per sample id. A log run for one epoch gives each sample's record
 * as it is; with more, each sample's epochs are merged (see the file comment).
 */
export function mergeEpochs(
  records: EpochRecord[],
  log: Record<string, unknown>,
  reductions: unknown,
  warnings: string[],
): ImportedExample[] {
  const multiEpoch = (configuredEpochs(log) ?? 1) > 1 || records.some((record) => record.epoch > 1);
  if (!multiEpoch)
    return dedupeExamples(
      records.map((record) => record.example),
      warnings,
    );

  const how: Reducing = { log, reduced: reducedValues(reductions), unknownReducers: new Set() };
  const examples = byIdThenEpoch(records, warnings).map((group) => mergeGroup(group, how));
  for (const name of how.unknownReducers) {
    warnings.push(
      `the epochs reducer "${name}" is not one Pairwise knows and the log holds no reduced scores: its scores were reduced with mean instead`,
    );
  }
  return examples;
}
