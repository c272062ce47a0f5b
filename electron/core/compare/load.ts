import type { CompareExperiment, CompareRun } from '../../../shared/compare/types';
import type {
  JsonObject,
  MetricDefinition,
  Reproduces,
  Role,
  RunSettings,
} from '../../../shared/model';
import { decodeRunColumns, hashKey } from '../columns/decode';
import { readRunColumns } from '../columns/store';
import { readRunTable, type RunTable } from '../columns/table';
import type { Db } from '../db/open';
import type { ExperimentRow } from '../experiments';

interface RunRecord {
  rowid: number;
  id: string;
  condition: string;
  role: string | null;
  series: string | null;
  level: number | null;
  expect: string;
  compare_to: string;
  settings: string;
  code_commit: string | null;
  metrics: string;
  metric_definitions: string;
}

export interface LoadedRun {
  run: CompareRun & { examples: LoadedExample[] };
  runRowid: number;
}

/** Rows per read: bounds the string one chunk builds (a chunk too big is read in smaller ones). */
const CHUNK = 20_000;

/**
 * A loaded example and its row in `examples`, for the explorer's joins. Its input and output
 * are keys of the texts (columns/decode.ts, hashKey), equal exactly when the texts are.
 */
export type LoadedExample = CompareRun['examples'][number] & { rowid: number };

/**
 * A run's examples, `chunkRows` at a time. The comparison only asks whether texts are equal,
 * so it reads their hashes: a fraction of the bytes of the texts, which the explorer reads when
 * it shows them. Each chunk comes back from SQLite as one JSON array of five values per example,
 * parsed at once: creating a row object per example through the driver cost twice as much at a
 * million rows. One aggregate keeps each example's values together whatever order it visits
 * them in; the order of the examples does not matter (pairing sorts by id).
 */
export function loadExamples(db: Db, runRowid: number, chunkRows = CHUNK): LoadedExample[] {
  const examples: LoadedExample[] = [];
  const read = (first: boolean) =>
    db.prepare(
      `SELECT max(example_id) AS last, count(*) AS n,
              '[' || group_concat(json_quote(example_id) || ',' || rowid || ',"' || input_hash || '","' ||
                output_hash || '",' || json_quote(error) || ',' || fields, ',') || ']' AS flat
       FROM (SELECT * FROM examples WHERE run_rowid = ? ${first ? '' : 'AND example_id > ?'}
             ORDER BY example_id LIMIT ?)`,
    );
  const first = read(true);
  const next = read(false);
  let after: string | null = null;
  let size = chunkRows;
  for (;;) {
    const from = after === null ? [runRowid] : [runRowid, after];
    let chunk: { last: string | null; n: number; flat: string | null };
    let flat: unknown[];
    try {
      chunk = (after === null ? first : next).get(...from, size) as typeof chunk;
      flat = chunk.flat === null ? [] : (JSON.parse(chunk.flat) as unknown[]);
    } catch (error) {
      // Past SQLite's or V8's longest string (huge fields): the same rows in smaller chunks.
      if (size === 1) throw error;
      size = Math.max(1, Math.floor(size / 16));
      continue;
    }
    for (let k = 0; k < flat.length; k += 6)
      examples.push({
        id: flat[k] as string,
        rowid: flat[k + 1] as number,
        input: hashKey(flat[k + 2] as string),
        output: hashKey(flat[k + 3] as string),
        error: flat[k + 4] as string | null,
        fields: flat[k + 5] as JsonObject,
      });
    if (chunk.n < size || chunk.last === null) break;
    after = chunk.last;
    size = chunkRows;
  }
  return examples;
}

/**
 * A run's examples from its column store (a few blobs, no per-example rows), in id order; from
 * its example rows when it has none yet (a library indexed before column stores, until the
 * conversion reaches it). Both give the same examples.
 */
export function loadRunExamples(db: Db, runRowid: number): LoadedExample[] {
  const bytes = readRunColumns(db, runRowid);
  return (bytes && decodeRunColumns(bytes)) ?? loadExamples(db, runRowid);
}

/** A run's details as the comparison sees them, without its examples. */
export interface RunDetails {
  run: CompareRun;
  runRowid: number;
}

/**
 * One run's details. `condition` and `role` are the effective ones (hand-made choices applied
 * by the caller), so a run moved to another condition compares as such. `examples` is empty.
 */
export function loadRunDetails(
  db: Db,
  runId: string,
  condition: string,
  role: Role | null,
): RunDetails {
  const row = db
    .prepare(
      `SELECT rowid, id, condition_name AS condition, role, series, level, expect, compare_to, settings,
              code_commit, metrics, metric_definitions FROM runs WHERE id = ?`,
    )
    .get(runId) as RunRecord | undefined;
  if (!row) throw new Error(`Run ${runId} is no longer in the library.`);
  return {
    runRowid: row.rowid,
    run: {
      runId: row.id,
      conditionName: condition,
      role,
      series: row.series,
      level: row.level,
      expect: JSON.parse(row.expect) as CompareRun['expect'],
      compareTo: JSON.parse(row.compare_to) as string[],
      settings: JSON.parse(row.settings) as RunSettings,
      codeCommit: row.code_commit,
      metrics: JSON.parse(row.metrics) as JsonObject,
      metricDefinitions: JSON.parse(row.metric_definitions) as Record<string, MetricDefinition>,
      examples: [],
    },
  };
}

/** A run's column store as typed arrays; null when it has none yet (see loadRunExamples). */
export function loadRunTable(db: Db, runRowid: number): RunTable | null {
  const bytes = readRunColumns(db, runRowid);
  return bytes && readRunTable(bytes);
}

/** One run with its examples, one object each (loadRunDetails, then loadRunExamples). */
export function loadRun(db: Db, runId: string, condition: string, role: Role | null): LoadedRun {
  const { runRowid, run } = loadRunDetails(db, runId, condition, role);
  return { runRowid, run: { ...run, examples: loadRunExamples(db, runRowid) } };
}

export function loadExperiment(db: Db, experimentId: string): CompareExperiment {
  const row = db
    .prepare(
      `SELECT id, project_id AS project, name, question, claim, deviations, reproduces FROM experiments WHERE id = ?`,
    )
    .get(experimentId) as Omit<ExperimentRow, 'declared'> | undefined;
  if (!row) throw new Error(`There is no experiment "${experimentId}".`);
  return {
    id: row.id,
    project: row.project,
    name: row.name,
    question: row.question,
    claim: row.claim,
    deviations: JSON.parse(row.deviations) as string[],
    reproduces: row.reproduces ? (JSON.parse(row.reproduces) as Reproduces) : null,
  };
}
