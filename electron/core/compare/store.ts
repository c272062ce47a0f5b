import { createHash } from 'node:crypto';
import { CHECKER_VERSION } from '../../../shared/compare/report';
import type { Report } from '../../../shared/compare/types';
import { untilWritable } from '../db/busy';
import type { Db } from '../db/open';
import type { CompareResult, CompareTask, PairRows } from './compute';
import { encodePair, type StoredPairArrays } from './pair-arrays';
import { pairFileIntact, removePairFiles, writePairFile } from './pair-files';

/**
 * Bumped when reports of the same runs change without a new checker version (2: errored
 * examples left out; settings redacted at import. 3: exact small-n tests, t and Tango
 * intervals, behaviour changes from scalar fields only. 4: confounded metrics are not comparable;
 * run scorecards, metric descriptions, observed intervals and the series reference. 5: the
 * explorer's rows stored as one row of arrays per pair. 6: a pair of whole-number ids stored in
 * value order. 7: so are ids of a shared prefix and a number, HumanEval/2 before HumanEval/10), so no stale report is served from the cache.
 */
const REPORT_RULES = 7;

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

export interface StoredReport {
  key: string;
  createdAt: string;
  report: Report;
}

/** Whether every pair file of a stored report is there and whole. */
function pairFilesIntact(db: Db, reportId: number): boolean {
  const files = db
    .prepare(`SELECT file, bytes FROM pair_arrays WHERE report_id = ?`)
    .all(reportId) as { file: string; bytes: number }[];
  return files.every(({ file, bytes }) => pairFileIntact(db, file, bytes));
}

/**
 * The cached report, or null when there is none or a pair file of it is missing or damaged:
 * the explorer could not show that pair, so the report is computed and saved again.
 */
export function readReport(db: Db, key: string): StoredReport | null {
  const row = db.prepare(`SELECT id, report, created_at FROM reports WHERE key = ?`).get(key) as
    { id: number; report: string; created_at: string } | undefined;
  if (!row || !pairFilesIntact(db, row.id)) return null;
  return { key, createdAt: row.created_at, report: JSON.parse(row.report) as Report };
}

/** Whether readReport would find the report, without reading it (megabytes at a million). */
export function hasReport(db: Db, key: string): boolean {
  const id = db.prepare(`SELECT id FROM reports WHERE key = ?`).pluck().get(key) as
    number | undefined;
  return id !== undefined && pairFilesIntact(db, id);
}

/** A report as it is stored: serialised once, for the save and for the caller waiting on it. */
export interface SavedReport {
  json: string;
  createdAt: string;
}

export function savedReport(report: Report): SavedReport {
  return { json: JSON.stringify(report), createdAt: new Date().toISOString() };
}

function filesOf(db: Db, where: string, value: string | number): string[] {
  return db
    .prepare(
      `SELECT file FROM pair_arrays WHERE report_id IN (SELECT id FROM reports WHERE ${where})`,
    )
    .pluck()
    .all(value) as string[];
}

/**
 * Between batches of a save: the worker yields to its event loop there, so a cancel that
 * arrived meanwhile is seen and throws, rolling the whole save back.
 */
export type Checkpoint = () => Promise<void>;

/**
 * The report and each pair's row land in one transaction, written by the compare worker on
 * its own connection so the service's thread never waits on the save: a cancelled or crashed
 * job leaves no row. Each pair's arrays go to a file first (pair-files.ts), renamed into place
 * before the commit; a rolled-back save removes its files, and a crash leaves orphans that the
 * next open sweeps. The files of a report saved again under the same key are removed after the
 * commit. The last checkpoint comes right before the commit. Old reports are dropped afterwards
 * by `pruneReports`, so the commit never waits on deleting them.
 */
export async function writeReport(
  db: Db,
  key: string,
  task: CompareTask,
  result: CompareResult,
  checkpoint: Checkpoint = () => Promise.resolve(),
  saved: SavedReport = savedReport(result.report),
): Promise<void> {
  await begin(db, checkpoint);
  const written: string[] = [];
  let replaced: string[];
  try {
    replaced = filesOf(db, 'key = ?', key);
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
          saved.json,
          saved.createdAt,
        ).lastInsertRowid,
    );
    const runIds = new Set([...task.conditions.map((c) => c.runId), ...task.referenceReplicates]);
    const insertRun = db.prepare(`INSERT INTO report_runs (report_key, run_id) VALUES (?, ?)`);
    for (const runId of runIds) insertRun.run(key, runId);
    for (const rows of result.pairs) {
      await checkpoint();
      writePair(db, reportId, rows, written);
    }
    await checkpoint();
    db.exec('COMMIT');
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    removePairFiles(db, written);
    throw error;
  }
  removePairFiles(db, replaced);
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
    let files: string[];
    try {
      files = filesOf(db, 'id = ?', id);
      drop.run(id);
      db.exec('COMMIT');
    } catch (error) {
      if (db.inTransaction) db.exec('ROLLBACK');
      throw error;
    }
    removePairFiles(db, files);
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

/**
 * One row per pair naming the file of its per-example values as typed arrays (pair-arrays.ts,
 * pair-files.ts). The file's name joins `written` before the row is inserted, so a failed save
 * removes it too.
 */
/**
 * Encodings of rows a compare worker builds again for its next comparison of the same runs
 * (columnar/rows.ts gives back the same object): made once, written to each report's file.
 */
const encodings = new WeakMap<PairRows, StoredPairArrays>();

function encoded(rows: PairRows): StoredPairArrays {
  let stored = encodings.get(rows);
  if (!stored) encodings.set(rows, (stored = encodePair(rows)));
  return stored;
}

function writePair(db: Db, reportId: number, rows: PairRows, written: string[]): void {
  const stored = encoded(rows);
  const { file, bytes } = writePairFile(db, reportId, rows.pair, stored);
  written.push(file);
  db.prepare(
    `INSERT INTO pair_arrays (report_id, pair, rows, criteria, ref_run_rowid, ref_first, ref_last,
       cand_run_rowid, cand_first, cand_last, numbered_ids, file, bytes, counts)
     VALUES (@report_id, @pair, @rows, @criteria, @ref_run_rowid, @ref_first, @ref_last,
       @cand_run_rowid, @cand_first, @cand_last, @numbered_ids, @file, @bytes, @counts)`,
  ).run({
    report_id: reportId,
    pair: rows.pair,
    rows: stored.rows,
    criteria: stored.criteria,
    ref_run_rowid: stored.ref_run_rowid,
    ref_first: stored.ref_first,
    ref_last: stored.ref_last,
    cand_run_rowid: stored.cand_run_rowid,
    cand_first: stored.cand_first,
    cand_last: stored.cand_last,
    numbered_ids: stored.numbered_ids,
    file,
    bytes,
    counts: stored.counts,
  });
}
