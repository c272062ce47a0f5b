import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { m008CompactPairRows } from '../../electron/core/db/migrations/008-compact-pair-rows';
import { latestVersion, migrations } from '../../electron/core/db/migrations';
import { migrate, openDatabase } from '../../electron/core/db/open';
import { tempDir } from '../fixtures/tmp';
import { pageAfterUpgrade } from '../fixtures/upgraded';

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

/** A database as the Pairwise before compact pair rows left it, with a cached report in it. */
function previousVersionDb(file: string): void {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  migrate(db, file, migrations.slice(0, migrations.indexOf(m008CompactPairRows)));
  db.prepare(`INSERT INTO folders (path, watched, added_at) VALUES ('/lib', 0, 'then')`).run();
  db.prepare(
    `INSERT INTO reports (key, experiment_id, settings, report, created_at) VALUES ('old', 'exp', '{}', '{}', 'then')`,
  ).run();
  db.prepare(`INSERT INTO report_runs (report_key, run_id) VALUES ('old', 'r1')`).run();
  db.prepare(
    `INSERT INTO pair_rows (report_key, pair, example_id, ref_rowid, cand_rowid, side, input_mismatch,
       output_changed, behavior_changed, classes) VALUES ('old', 0, 'ex-1', 1, 2, 'both', 0, 1, 0, '{}')`,
  ).run();
  db.prepare(
    `INSERT INTO pair_classes (report_key, pair, criterion, class, example_id) VALUES ('old', 0, 'score', 'unchanged', 'ex-1')`,
  ).run();
  db.close();
}

describe('compact pair rows migration', () => {
  it('upgrades a database with cached reports: they are dropped, everything else is kept', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = path.join(t.dir, 'pairwise.db');
    previousVersionDb(file);

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
    expect(db.prepare(`SELECT path FROM folders`).all()).toEqual([{ path: '/lib' }]);
    for (const table of ['reports', 'report_runs', 'pair_arrays'])
      expect(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()).toEqual({ n: 0 });
    db.close();

    // The upgraded database compares and pages like a new one.
    const page = await pageAfterUpgrade(file, t.dir, {
      criterion: 'refused',
      changeClass: 'unchanged',
    });
    expect(page.total).toBe(page.rows.length);
    expect(page.rows.length).toBeGreaterThan(0);
    expect(page.rows.every((r) => r.classes.refused === 'unchanged')).toBe(true);
  });
});
