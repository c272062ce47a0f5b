import Database from 'better-sqlite3';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunColumnsBuilder } from '../../../electron/core/columns/encode';
import { columnsStamp, writeRunColumns } from '../../../electron/core/columns/store';
import { RunTableCache } from '../../../electron/core/columns/table-cache';
import type { FieldColumn } from '../../../electron/core/columns/table';
import { migrate } from '../../../electron/core/db/open';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A library file with runs 1 and 2, each of three examples whose field `s` is i + shift. */
function library(file = true): Database.Database {
  let name = ':memory:';
  if (file) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pairwise-table-cache-'));
    dirs.push(dir);
    name = path.join(dir, 'library.db');
  }
  const db = new Database(name);
  migrate(db);
  db.pragma('foreign_keys = OFF');
  const insert = db.prepare(
    `INSERT INTO runs (rowid, id, experiment_id, condition_name, identity_hash, settings, format, path, state, metrics, metric_definitions, provenance, warnings, example_count, expect, compare_to, source_sha256)
     VALUES (?, ?, 'e', 'c', 'h', '{}', 'mechlens', 'p', 'completed', '{}', '{}', '{}', '[]', 3, '{}', '[]', 'sha')`,
  );
  for (const rowid of [1, 2]) {
    insert.run(rowid, `run-${rowid}`);
    store(db, rowid, 0);
  }
  return db;
}

function store(db: Database.Database, runRowid: number, shift: number): void {
  const builder = new RunColumnsBuilder();
  for (let i = 0; i < 3; i++)
    builder.add({
      id: `e${i}`,
      rowid: runRowid * 100 + i,
      inputHash: 'a'.repeat(40),
      outputHash: 'b'.repeat(40),
      error: null,
      fields: { s: i + shift },
    });
  writeRunColumns(db, runRowid, builder.encode());
}

function values(field: FieldColumn | undefined): number[] {
  return field?.kind === 'number' ? [...field.values] : [];
}

describe('run table cache', () => {
  it('gives the same tables back while the column stores are unchanged', () => {
    const db = library();
    const cache = new RunTableCache();
    const [a, b] = cache.tables(db, [1, 2])!;
    const again = cache.tables(db, [2, 1])!;
    expect(again[0]).toBe(b);
    expect(again[1]).toBe(a);
    db.close();
  });

  it('reads a run again once its column store is rewritten, even to bytes of the same length', () => {
    const db = library();
    const cache = new RunTableCache();
    // Run 2 was stored last: a rewrite in place of the table's newest row.
    const [before] = cache.tables(db, [2])!;
    const stamp = columnsStamp(db, 2);
    store(db, 2, 10);
    expect(columnsStamp(db, 2)).not.toBe(stamp);
    const [after] = cache.tables(db, [2])!;
    expect(after).not.toBe(before);
    expect(values(after!.fields[0])).toEqual([10, 11, 12]);
    db.close();
  });

  it('lets go of the runs the next comparison does not use', () => {
    const db = library();
    const cache = new RunTableCache();
    const [first] = cache.tables(db, [1])!;
    cache.tables(db, [2]);
    expect(cache.tables(db, [1])![0]).not.toBe(first);
    db.close();
  });

  it('reads an in-memory library each time, and answers null for a run without a store', () => {
    const db = library(false);
    const cache = new RunTableCache();
    const [first] = cache.tables(db, [1])!;
    expect(cache.tables(db, [1])![0]).not.toBe(first);
    expect(cache.tables(db, [1, 3])).toBeNull();
    db.close();
  });
});
