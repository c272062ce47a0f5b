import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { m012PairArrays } from '../../electron/core/db/migrations/012-pair-arrays';
import { latestVersion, migrations } from '../../electron/core/db/migrations';
import { migrate, openDatabase } from '../../electron/core/db/open';
import { tempDir } from '../fixtures/tmp';
import { pageAfterUpgrade } from '../fixtures/upgraded';

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

/**
 * A database as the Pairwise with one explorer row per example left it: a cached report with
 * its rows, and a finding whose frozen evidence must survive.
 */
function previousVersionDb(file: string): void {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  migrate(db, file, migrations.slice(0, migrations.indexOf(m012PairArrays)));
  const reportId = db
    .prepare(
      `INSERT INTO reports (key, experiment_id, settings, report, created_at) VALUES ('old', 'exp', '{}', '{}', 'then')`,
    )
    .run().lastInsertRowid;
  db.prepare(`INSERT INTO report_runs (report_key, run_id) VALUES ('old', 'r1')`).run();
  db.prepare(
    `INSERT INTO report_pairs (report_id, pair, criteria, ref_run_rowid, cand_run_rowid) VALUES (?, 0, '["score"]', 1, 2)`,
  ).run(reportId);
  db.prepare(
    `INSERT INTO pair_rows (report_id, pair, example_id, ref_rowid, cand_rowid, side, input_mismatch,
       output_changed, behavior_changed) VALUES (?, 0, 'ex-1', 1, 2, 'both', 0, 1, 0)`,
  ).run(reportId);
  db.prepare(
    `INSERT INTO pair_classes (report_id, pair, criterion, class, example_id) VALUES (?, 0, 'score', 'regressed', 'ex-1')`,
  ).run(reportId);
  db.prepare(
    `INSERT INTO pair_deltas (report_id, pair, criterion, delta, example_id) VALUES (?, 0, 'score', -1, 'ex-1')`,
  ).run(reportId);
  db.prepare(
    `INSERT INTO pair_counts (report_id, pair, filter, n) VALUES (?, 0, '["all"]', 1)`,
  ).run(reportId);
  db.prepare(
    `INSERT INTO finding_snapshots (key, snapshot) VALUES ('snap', '{"report":{}}')`,
  ).run();
  db.prepare(
    `INSERT INTO findings (id, experiment_id, title, created_at, updated_at, current_revision)
     VALUES ('f1', 'exp', 'A finding', 'then', 'then', 1)`,
  ).run();
  db.prepare(
    `INSERT INTO finding_revisions (finding_id, revision, saved_at, body, snapshot_key)
     VALUES ('f1', 1, 'then', '{}', 'snap')`,
  ).run();
  db.close();
}

const tables = (db: Database.Database) =>
  db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).pluck().all() as string[];

describe('pair arrays migration', () => {
  it('drops cached reports and the per-example tables, keeps findings and their evidence', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = path.join(t.dir, 'pairwise.db');
    previousVersionDb(file);

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
    const names = tables(db);
    for (const gone of ['pair_rows', 'pair_classes', 'pair_deltas', 'pair_counts', 'report_pairs'])
      expect(names).not.toContain(gone);
    expect(names).toContain('pair_arrays');
    for (const table of ['reports', 'report_runs', 'pair_arrays'])
      expect(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
    expect(db.prepare(`SELECT snapshot FROM finding_snapshots`).pluck().all()).toEqual([
      '{"report":{}}',
    ]);
    expect(db.prepare(`SELECT finding_id, revision FROM finding_revisions`).all()).toEqual([
      { finding_id: 'f1', revision: 1 },
    ]);
    db.close();

    // The upgraded database compares and pages like a new one.
    const page = await pageAfterUpgrade(file, t.dir, {});
    expect(page.total).toBe(12);
    expect(page.rows).toHaveLength(12);
  });
});
