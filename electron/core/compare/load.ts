import type { CompareExperiment, CompareRun } from '../../../shared/compare/types';
import type {
  JsonObject,
  MetricDefinition,
  Reproduces,
  Role,
  RunSettings,
} from '../../../shared/model';
import { decodeRunColumns } from '../columns/decode';
import { readRunColumns } from '../columns/store';
import { readRunTable, type RunTable } from '../columns/table';
import type { Db } from '../db/open';
import type { ExperimentRow } from '../experiments';
import { requireConverted } from '../texts/convert';

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

/**
 * A loaded example and its key (texts/keys.ts), for the explorer's joins. Its input and output
 * are keys of the texts (columns/decode.ts, hashKey), equal exactly when the texts are.
 */
export type LoadedExample = CompareRun['examples'][number] & { rowid: number };

/**
 * A run's examples from its column store (a few blobs, no per-example rows), in id order. The
 * comparison only asks whether texts are equal, so it reads their hashes, never the texts.
 */
export function loadRunExamples(db: Db, runRowid: number): LoadedExample[] {
  requireConverted(db, [runRowid]);
  const examples = decodeRunColumns(readRunColumns(db, runRowid)!);
  if (!examples) throw new Error('This run was stored by a newer Pairwise: index it again.');
  return examples;
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
  requireConverted(db, [row.rowid]);
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

/** A run's column store as typed arrays; null when this version cannot read it. */
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
