import fs from 'node:fs';
import type { Db } from '../db/open';
import { conditionsOf, listExperiments } from '../experiments';
import { sha1, sortedJson } from '../ingest/prepare';
import { listRuns } from '../library';
import { storedExamplesInIdOrder } from '../texts/stored';
import { writeComparisons, type ExportedReport } from './parquet-comparisons';
import { CONDITIONS, EXAMPLES, EXPERIMENTS, RUNS } from './parquet-schema';
import { ParquetStaging, type TableAppender } from './parquet-writer';

export interface ParquetExportOptions {
  /** Experiment ids; every experiment with runs when empty or absent. */
  experiments?: string[];
  /** The saved report of each experiment whose comparison rows are wanted. */
  reports?: ExportedReport[];
}

export interface ParquetExportStats {
  dir: string;
  experiments: number;
  runs: number;
  examples: number;
  comparisonExamples: number;
}

interface RunDetail {
  rowid: number;
  id: string;
  format: string;
  state: string;
  seed: string | null;
  code_commit: string | null;
  example_count: number;
  path: string | null;
  source_sha256: string | null;
  expect: string;
  compare_to: string;
  settings: string;
  metrics: string;
  metric_definitions: string;
  warnings: string;
}

const jsonList = (text: string) => JSON.parse(text) as string[];

/**
 * Writes the library (or the experiments asked for) as Parquet files in `dir`
 * (docs/parquet.md): experiments, their conditions as the comparison plans them, runs,
 * examples, and the compared pairs' rows of the reports given. Everything a comparison reads is
 * there, so the DuckDB engine (electron/core/duckdb) compares from these files alone.
 */
export async function exportParquet(
  db: Db,
  dir: string,
  options: ParquetExportOptions = {},
): Promise<ParquetExportStats> {
  const known = listExperiments(db).map((e) => e.id);
  const wanted = options.experiments?.length ? options.experiments : known;
  const missing = wanted.find((id) => !known.includes(id));
  if (missing) throw new Error(`There is no experiment "${missing}" with runs.`);
  fs.mkdirSync(dir, { recursive: true });
  const stats: ParquetExportStats = {
    dir,
    experiments: wanted.length,
    runs: 0,
    examples: 0,
    comparisonExamples: 0,
  };
  const staging = await ParquetStaging.open(dir);
  try {
    const experiments = await staging.table(EXPERIMENTS);
    const conditions = await staging.table(CONDITIONS);
    const runs = await staging.table(RUNS);
    const exportedRuns: RunDetail[] = [];
    for (const id of wanted) {
      exportedRuns.push(...describeExperiment(db, id, experiments, conditions, runs));
    }
    for (const table of [experiments, conditions, runs]) table.finish();
    stats.runs = exportedRuns.length;
    const examples = await staging.table(EXAMPLES);
    for (const run of exportedRuns.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)))
      stats.examples += appendExamples(db, run, examples);
    examples.finish();
    for (const spec of [EXPERIMENTS, CONDITIONS, RUNS, EXAMPLES]) await staging.copy(spec);
    stats.comparisonExamples = await writeComparisons(db, staging, options.reports ?? []);
    staging.publish(dir);
    return stats;
  } finally {
    staging.dispose();
  }
}

/** The experiment's row, its conditions (in the comparison's order) and its runs. */
function describeExperiment(
  db: Db,
  experimentId: string,
  experiments: TableAppender,
  conditions: TableAppender,
  runs: TableAppender,
): RunDetail[] {
  const e = db
    .prepare(
      `SELECT id, project_id AS project, name, question, claim, deviations, reproduces FROM experiments WHERE id = ?`,
    )
    .get(experimentId) as {
    id: string;
    project: string;
    name: string;
    question: string | null;
    claim: string | null;
    deviations: string;
    reproduces: string | null;
  };
  const { conditions: rows, reference } = conditionsOf(db, experimentId);
  experiments.append([
    e.id,
    e.project,
    e.name,
    e.question,
    e.claim,
    jsonList(e.deviations),
    e.reproduces,
    reference?.name ?? null,
    reference?.basis ?? null,
  ]);
  rows.forEach((c, position) => {
    const run = c.runs.find((r) => r.run_id === c.representativeRunId);
    // As the comparison's plan decides it: only a series set by hand replaces the run's own.
    const declared = Boolean(run && (c.series !== run.series || c.level !== run.level));
    conditions.append([
      experimentId,
      c.name,
      position,
      c.role,
      c.representativeRunId,
      c.series,
      c.level,
      declared,
    ]);
  });
  return appendRuns(db, experimentId, runs);
}

/** The experiment's runs in the library's order, which is the order of replicates too. */
function appendRuns(db: Db, experimentId: string, runs: TableAppender): RunDetail[] {
  const detail = db.prepare(
    `SELECT rowid, id, format, state, CAST(seed AS TEXT) AS seed, code_commit, example_count, path,
            source_sha256, expect, compare_to, settings, metrics, metric_definitions, warnings
     FROM runs WHERE id = ?`,
  );
  return listRuns(db, experimentId).map((r, position) => {
    const d = detail.get(r.run_id) as RunDetail;
    runs.append([
      r.run_id,
      experimentId,
      r.project,
      r.format,
      r.condition,
      position,
      r.role,
      r.series,
      r.level,
      d.state,
      r.superseded,
      r.missing,
      d.seed === null ? null : BigInt(d.seed),
      d.code_commit,
      r.started_at,
      r.finished_at,
      d.example_count,
      d.path,
      d.source_sha256,
      d.expect,
      jsonList(d.compare_to),
      d.settings,
      d.metrics,
      d.metric_definitions,
      jsonList(d.warnings),
    ]);
    return d;
  });
}

/** One run's examples in id order (examples.parquet's documented order), to the appender. */
function appendExamples(db: Db, run: RunDetail, examples: TableAppender): number {
  let n = 0;
  for (const e of storedExamplesInIdOrder(db, run.rowid)) {
    const fields = sortedJson(e.fields);
    examples.append([
      run.id,
      e.id,
      e.input,
      e.output,
      e.target,
      e.error,
      fields,
      e.inputHash,
      e.outputHash,
      // The library no longer stores it (nothing there reads it); readers of the export may.
      sha1(fields),
    ]);
    n++;
  }
  return n;
}
