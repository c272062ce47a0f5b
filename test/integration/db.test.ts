import Database from 'better-sqlite3';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DatabaseTooNewError, migrate, openDatabase } from '../../electron/core/db/open';
import { latestVersion, type Migration } from '../../electron/core/db/migrations';
import { tempDir } from '../fixtures/tmp';

let cleanup: () => void = () => undefined;
afterEach(() => cleanup());

function scratch(): string {
  const t = tempDir();
  cleanup = t.cleanup;
  return path.join(t.dir, 'sub', 'pairwise.db');
}

describe('database', () => {
  it('creates a fresh database at the latest schema with WAL, foreign keys and STRICT tables', () => {
    const db = openDatabase(scratch());
    expect(db.pragma('user_version', { simple: true })).toBe(latestVersion);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const runsSql = (
      db.prepare(`SELECT sql FROM sqlite_master WHERE name = 'runs'`).get() as { sql: string }
    ).sql;
    expect(runsSql).toMatch(/STRICT\s*$/);
    expect(() =>
      db
        .prepare(
          `INSERT INTO folders (path, watched, added_at) VALUES ('x', 'not a number', 'now')`,
        )
        .run(),
    ).toThrow();
    db.close();
  });

  it('upgrades an older database in order, keeping its data', () => {
    const file = scratch();
    const m1: Migration = {
      version: 1,
      name: 'one',
      sql: `CREATE TABLE t (a INTEGER) STRICT; INSERT INTO t VALUES (7);`,
    };
    const m2: Migration = {
      version: 2,
      name: 'two',
      sql: `ALTER TABLE t ADD COLUMN b TEXT; UPDATE t SET b = 'x';`,
    };
    const db = new Database(file.replace('sub/', ''));
    migrate(db, 'test', [m1]);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    migrate(db, 'test', [m1, m2]);
    expect(db.pragma('user_version', { simple: true })).toBe(2);
    expect(db.prepare(`SELECT a, b FROM t`).get()).toEqual({ a: 7, b: 'x' });
    db.close();
  });

  it('rolls a failing migration back whole', () => {
    const file = scratch();
    const db = new Database(file.replace('sub/', ''));
    const bad: Migration = {
      version: 1,
      name: 'bad',
      sql: `CREATE TABLE ok (a INTEGER); CREATE TABLE ok (a INTEGER);`,
    };
    expect(() => migrate(db, 'test', [bad])).toThrow();
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.prepare(`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'ok'`).get()).toEqual({
      n: 0,
    });
    db.close();
  });

  it('refuses a database written by a newer version, with a clear message', () => {
    const file = scratch();
    openDatabase(file).close();
    const raw = new Database(file);
    raw.pragma(`user_version = ${latestVersion + 5}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
    expect(() => openDatabase(file)).toThrow(/newer Pairwise/);
    expect(() => openDatabase(file, { readonly: true })).toThrow(/newer Pairwise/);
  });
});
