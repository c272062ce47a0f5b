import { createHash } from 'node:crypto';
import { CHECKER_VERSION } from '../../../shared/compare/report';
import type { Report } from '../../../shared/compare/types';
import { untilWritable } from '../db/busy';
import type { Db } from '../db/open';
import type { CompareResult, CompareTask, PairRows } from './compute';
import { encodePair } from './pair-arrays';

/**
 * Bumped when reports of the same runs change without a new checker version (2: errored
 * examples left out; settings redacted at import. 3: exact small-n tests, t and Tango
 * intervals, behaviour changes from scalar fields only. 4: confounded metrics are not comparable;
 * run scorecards, metric descriptions, observed intervals and the series reference. 5: the
 * explorer's rows stored as one row of arrays per pair), so no stale report is served from the
 * cache.
 */
const REPORT_RULES = 5;

/** Keep a few reports per experiment: enough for back-and-forth between references. */
const REPORTS_KEPT_PER_EXPERIMENT = 6;

/**
 * The cache key: everything a report depends on. Source hashes make a re-indexed run whose
 * bytes changed miss the cache, while an unchanged rescan keeps it.
 */
export function reportKey(db: Db, task: Omit<CompareTask, 'dbPath'>): string {
  const runIds = [...task.conditions.map((c) => c.runId), ...task.referenceReplicates];
  const hashes = db
    .prepare(
      `SELECT id, source_sha256 FROM runs WHERE id IN (${runIds.map(() => '?').join(',')}) ORDER BY id`,
    )
    .all(...runIds) as { id: string; source_sha256: string | null }[];
  const material = JSON.stringify({
    checker: CHECKER_VERSION,
    rules: REPORT_RULES,
    experiment: task.experimentId,
    reference: task.reference,
    basis: task.referenceBasis,
    resamples: task.resamples,
    conditions: [...task.conditions].sort((a, b) => a.name.localeCompare(b.name)),
    replicates: [...task.referenceReplicates].sort(),
    hashes,
  });
  return createHash('sha256').update(material).digest('hex');
}

export function readReport(
  db: Db,
  key: string,
): { key: string; createdAt: string; report: Report } | null {
  const row = db.prepare(`SELECT report, created_at FROM reports WHERE key = ?`).get(key) as
    { report: string; created_at: string } | undefined;
  return row ? { key, createdAt: row.created_at, report: JSON.parse(row.report) as Report } : null;
}

/**
 * Between batches of a save: the worker yields to its event loop there, so a cancel that
 * arrived meanwhile is seen and throws, rolling the whole save back.
 */
export type Checkpoint = () => Promise<void>;

/**
 * The report and each pair's arrays land in one transaction, written by the compare worker on
 * its own connection so the service's thread never waits on the save: a cancelled or crashed
 * job leaves nothing. The last checkpoint comes right before the commit. Old reports
 * are dropped afterwards by `pruneReports`, so the commit never waits on deleting them.
 */
export async function writeReport(
  db: Db,
  key: string,
  task: CompareTask,
  result: CompareResult,
  checkpoint: Checkpoint = () => Promise.resolve(),
): Promise<void> {
  await begin(db, checkpoint);
  try {
    db.prepare(`DELETE FROM reports WHERE key = ?`).run(key);
    const reportId = Number(
      db
        .prepare(
          `INSERT INTO reports (key, experiment_id, settings, report, created_at) VALUES (?, ?, ?, ?, ?)`,
        )
        .run(
          key,
          task.experimentId,
          JSON.stringify({ reference: task.reference, resamples: task.resamples }),
          JSON.stringify(result.report),
          new Date().toISOString(),
        ).lastInsertRowid,
    );
    const runIds = new Set([...task.conditions.map((c) => c.runId), ...task.referenceReplicates]);
    const insertRun = db.prepare(`INSERT INTO report_runs (report_key, run_id) VALUES (?, ?)`);
    for (const runId of runIds) insertRun.run(key, runId);
    for (const rows of result.pairs) {
      await checkpoint();
      writePair(db, reportId, rows);
    }
    await checkpoint();
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/**
 * Drops the experiment's reports beyond the newest few, one transaction per report: a reader
 * sees each report whole or not at all, and the write lock is released between reports (a
 * report of many pairs can take a while to delete with its arrays). Returns how many it dropped.
 */
export async function pruneReports(
  db: Db,
  experimentId: string,
  checkpoint: Checkpoint = () => Promise.resolve(),
): Promise<number> {
  const stale = db
    .prepare(
      `SELECT id FROM reports WHERE experiment_id = ? ORDER BY created_at DESC, id DESC LIMIT -1 OFFSET ?`,
    )
    .pluck()
    .all(experimentId, REPORTS_KEPT_PER_EXPERIMENT) as number[];
  const drop = db.prepare(`DELETE FROM reports WHERE id = ?`);
  for (const id of stale) {
    await begin(db, checkpoint);
    try {
      drop.run(id);
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
  }
  return stale.length;
}

/**
 * Takes the write lock, waiting at checkpoints while another writer (an index pass writing a
 * big file) holds it: the wait stays cancellable, and no busy timeout can fail the comparison.
 * The connection's own busy timeout bounds each attempt.
 */
async function begin(db: Db, checkpoint: Checkpoint): Promise<void> {
  await checkpoint();
  await untilWritable(() => db.exec('BEGIN IMMEDIATE'), checkpoint);
}

/** One row per pair: its per-example values as typed arrays (pair-arrays.ts). */
function writePair(db: Db, reportId: number, rows: PairRows): void {
  db.prepare(
    `INSERT INTO pair_arrays (report_id, pair, rows, criteria, ref_run_rowid, ref_first, ref_last,
       cand_run_rowid, cand_first, cand_last, example_ids, id_offsets, ref_rowids, cand_rowids,
       flags, classes, deltas, counts)
     VALUES (@report_id, @pair, @rows, @criteria, @ref_run_rowid, @ref_first, @ref_last,
       @cand_run_rowid, @cand_first, @cand_last, @example_ids, @id_offsets, @ref_rowids,
       @cand_rowids, @flags, @classes, @deltas, @counts)`,
  ).run({ report_id: reportId, pair: rows.pair, ...encodePair(rows) });
}
