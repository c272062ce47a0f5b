import { createHash } from 'node:crypto';
import { CHECKER_VERSION } from '../../../shared/compare/report';
import type { Report } from '../../../shared/compare/types';
import type { Db } from '../db/open';
import type { CompareResult, CompareTask } from './compute';

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
    experiment: task.experimentId,
    reference: task.reference,
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

/** The report and every pair row land in one transaction: a cancelled or crashed job leaves nothing. */
export function writeReport(db: Db, key: string, task: CompareTask, result: CompareResult): void {
  const insertRow = db.prepare(`
    INSERT INTO pair_rows (report_key, pair, example_id, ref_rowid, cand_rowid, side, input_mismatch,
      output_changed, behavior_changed, classes) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
  const insertClass = db.prepare(
    `INSERT INTO pair_classes (report_key, pair, criterion, class, example_id) VALUES (?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    db.prepare(`DELETE FROM reports WHERE key = ?`).run(key);
    db.prepare(
      `INSERT INTO reports (key, experiment_id, settings, report, created_at) VALUES (?, ?, ?, ?, ?)`,
    ).run(
      key,
      task.experimentId,
      JSON.stringify({ reference: task.reference, resamples: task.resamples }),
      JSON.stringify(result.report),
      new Date().toISOString(),
    );
    const runIds = new Set([...task.conditions.map((c) => c.runId), ...task.referenceReplicates]);
    const insertRun = db.prepare(`INSERT INTO report_runs (report_key, run_id) VALUES (?, ?)`);
    for (const runId of runIds) insertRun.run(key, runId);
    for (const rows of result.pairs) {
      for (let k = 0; k < rows.exampleIds.length; k++) {
        const classes: Record<string, string> = {};
        rows.criteria.forEach((criterion, c) => (classes[criterion] = rows.classes[c]![k]!));
        const id = rows.exampleIds[k]!;
        insertRow.run(
          key,
          rows.pair,
          id,
          rows.refRowids[k] ?? null,
          rows.candRowids[k] ?? null,
          rows.side[k]!,
          rows.inputMismatch[k]!,
          rows.outputChanged[k]!,
          rows.behaviorChanged[k]!,
          JSON.stringify(classes),
        );
        rows.criteria.forEach((criterion, c) =>
          insertClass.run(key, rows.pair, criterion, rows.classes[c]![k]!, id),
        );
      }
    }
    const stale = db
      .prepare(
        `SELECT key FROM reports WHERE experiment_id = ? ORDER BY created_at DESC LIMIT -1 OFFSET ?`,
      )
      .all(task.experimentId, REPORTS_KEPT_PER_EXPERIMENT) as { key: string }[];
    const drop = db.prepare(`DELETE FROM reports WHERE key = ?`);
    for (const { key: old } of stale) drop.run(old);
  }).immediate();
}
