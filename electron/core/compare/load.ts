import type { CompareExperiment, CompareRun } from '../../../shared/compare/types';
import type {
  JsonObject,
  MetricDefinition,
  Reproduces,
  Role,
  RunSettings,
} from '../../../shared/model';
import type { Db } from '../db/open';

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
  run: CompareRun;
  runRowid: number;
  /** examples.rowid by example id, for the explorer's joins. */
  rowids: Map<string, number>;
}

/**
 * One run as the comparison sees it. `condition` and `role` are the effective ones (hand-made
 * choices applied by the caller), so a run moved to another condition compares as such.
 */
export function loadRun(db: Db, runId: string, condition: string, role: Role | null): LoadedRun {
  const row = db
    .prepare(
      `SELECT rowid, id, condition_name AS condition, role, series, level, expect, compare_to, settings,
              code_commit, metrics, metric_definitions FROM runs WHERE id = ?`,
    )
    .get(runId) as RunRecord | undefined;
  if (!row) throw new Error(`Run ${runId} is no longer in the library.`);
  const rowids = new Map<string, number>();
  const examples: CompareRun['examples'] = [];
  // The comparison only asks whether texts are equal, so it reads their hashes: a fraction of
  // the bytes and memory of the texts themselves, which the explorer reads when it shows them.
  const select = db.prepare(
    `SELECT rowid, example_id, input_hash AS input, output_hash AS output, fields, error
     FROM examples WHERE run_rowid = ? ORDER BY example_id`,
  );
  for (const e of select.iterate(row.rowid) as Iterable<{
    rowid: number;
    example_id: string;
    input: string;
    output: string;
    fields: string;
    error: string | null;
  }>) {
    rowids.set(e.example_id, e.rowid);
    examples.push({
      id: e.example_id,
      input: e.input,
      output: e.output,
      fields: JSON.parse(e.fields) as JsonObject,
      error: e.error,
    });
  }
  return {
    rowids,
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
      examples,
    },
  };
}

export function loadExperiment(db: Db, experimentId: string): CompareExperiment {
  const row = db
    .prepare(
      `SELECT id, project_id AS project, name, question, claim, deviations, reproduces FROM experiments WHERE id = ?`,
    )
    .get(experimentId) as
    | {
        id: string;
        project: string;
        name: string;
        question: string | null;
        claim: string | null;
        deviations: string;
        reproduces: string | null;
      }
    | undefined;
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
