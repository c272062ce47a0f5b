import type { Db } from '../db/open';

/** How far the full-text index of some runs has come, in examples. */
export interface SearchProgress {
  done: number;
  total: number;
}

/** Null when every one of these runs is searchable; else how far their indexing has come. */
export function searchPending(db: Db, runRowids: number[]): SearchProgress | null {
  if (runRowids.length === 0) return null;
  const row = db
    .prepare(
      `SELECT count(*) AS runs, coalesce(sum(s.done), 0) AS done, coalesce(sum(r.example_count), 0) AS total
       FROM run_search s JOIN runs r ON r.rowid = s.run_rowid
       WHERE s.ready = 0 AND s.run_rowid IN (${runRowids.map(() => '?').join(',')})`,
    )
    .get(...runRowids) as { runs: number; done: number; total: number };
  return row.runs === 0 ? null : { done: row.done, total: row.total };
}

/** Those of these runs not yet searchable. */
export function unreadyRuns(db: Db, runRowids: number[]): number[] {
  if (runRowids.length === 0) return [];
  return db
    .prepare(
      `SELECT run_rowid FROM run_search
       WHERE ready = 0 AND run_rowid IN (${runRowids.map(() => '?').join(',')})`,
    )
    .pluck()
    .all(...runRowids) as number[];
}

/**
 * A run the fill can index: one still in example rows waits for the conversion
 * (texts/convert.ts), which schedules the fill again once it is done.
 */
const FILLABLE = `NOT EXISTS (SELECT 1 FROM examples e WHERE e.run_rowid = s.run_rowid)`;

/** Every run not yet searchable that the fill can index, lowest rowid (oldest) first. */
export function pendingRuns(db: Db): number[] {
  return db
    .prepare(
      `SELECT run_rowid FROM run_search s WHERE ready = 0 AND ${FILLABLE} ORDER BY run_rowid`,
    )
    .pluck()
    .all() as number[];
}

export function allPending(db: Db): SearchProgress | null {
  const row = db
    .prepare(
      `SELECT count(*) AS runs, coalesce(sum(s.done), 0) AS done, coalesce(sum(r.example_count), 0) AS total
       FROM run_search s JOIN runs r ON r.rowid = s.run_rowid WHERE s.ready = 0 AND ${FILLABLE}`,
    )
    .get() as { runs: number; done: number; total: number };
  return row.runs === 0 ? null : { done: row.done, total: row.total };
}
