import Database from 'better-sqlite3';
import { hash } from 'node:crypto';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { m017DropFieldsHash } from '../../electron/core/db/migrations/017-drop-fields-hash';
import { latestVersion, migrations } from '../../electron/core/db/migrations';
import { migrate, openDatabase } from '../../electron/core/db/open';
import { tempDir } from '../fixtures/tmp';
import { pageAfterUpgrade } from '../fixtures/upgraded';

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

const sha1 = (text: string) => hash('sha1', text, 'hex');
const trace = Buffer.from('{"steps":[]}');

/**
 * A library as the Pairwise that still hashed every example's fields left it: a run with three
 * examples (one with a transcript), and a finding whose frozen evidence must survive.
 */
function previousVersionDb(file: string): void {
  const db = new Database(file);
  db.pragma('foreign_keys = ON');
  migrate(db, file, migrations.slice(0, migrations.indexOf(m017DropFieldsHash)));
  db.exec(`
    INSERT INTO sources (id, path, status, indexed_at) VALUES (1, '/lib/a.json', 'imported', 'then');
    INSERT INTO projects (id, name) VALUES ('p', 'p');
    INSERT INTO experiments (id, project_id, name) VALUES ('exp', 'p', 'exp');
    INSERT INTO runs (id, source_id, experiment_id, condition_name, settings, format, state, example_count)
      VALUES ('r1', 1, 'exp', 'base', '{}', 'mechlens', 'completed', 3);
  `);
  const example = db.prepare(
    `INSERT INTO examples (run_rowid, example_id, input, output, fields, target, error, input_hash, output_hash, fields_hash)
     VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (let i = 0; i < 3; i++) {
    const [input, output, fields] = [`in ${i}`, `out ${i}`, JSON.stringify({ score: i })];
    const error = i === 2 ? 'timeout' : null;
    example.run(
      `ex-${i}`,
      input,
      output,
      fields,
      `t${i}`,
      error,
      sha1(input),
      sha1(output),
      sha1(fields),
    );
  }
  db.prepare(`INSERT INTO example_traces (example_rowid, trace) VALUES (1, ?)`).run(trace);
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

const examples = (db: Database.Database) =>
  db
    .prepare(
      `SELECT rowid, run_rowid, example_id, input, output, fields, target, error, input_hash, output_hash
       FROM examples ORDER BY rowid`,
    )
    .all();

describe('dropping the fields hash', () => {
  it('keeps every example, transcript and finding, and the upgraded library indexes, compares and pages', async () => {
    const t = tempDir();
    cleanup = t.cleanup;
    const file = path.join(t.dir, 'pairwise.db');
    previousVersionDb(file);
    const old = new Database(file, { readonly: true });
    const before = examples(old);
    old.close();

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
    const columns = db.prepare(`SELECT name FROM pragma_table_info('examples')`).pluck().all();
    expect(columns).not.toContain('fields_hash');
    expect(examples(db)).toEqual(before);
    // Kept, parked at minus its row's rowid until the run is converted into blocks.
    expect(db.prepare(`SELECT example_rowid, trace FROM example_traces`).all()).toEqual([
      { example_rowid: -1, trace },
    ]);
    expect(db.prepare(`SELECT snapshot FROM finding_snapshots`).pluck().all()).toEqual([
      '{"report":{}}',
    ]);
    expect(db.prepare(`SELECT finding_id, revision FROM finding_revisions`).all()).toEqual([
      { finding_id: 'f1', revision: 1 },
    ]);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    db.close();

    const page = await pageAfterUpgrade(file, t.dir, {});
    expect(page.total).toBe(12);
    expect(page.rows).toHaveLength(12);
  });
});
