import type { Statement } from 'better-sqlite3';
import type { Db } from '../db/open';

/** Well under SQLite's longest blob (1e9 bytes): a bigger store is written in parts. */
const PART_BYTES = 256 * 1024 ** 2;

/**
 * Replaces a run's column store; the caller holds the write transaction. The parts get rowids
 * above every rowid the table held before, the run's old parts included, so a part's rowid
 * names the bytes it was written with (columnsStamp).
 */
export function writeRunColumns(
  db: Db,
  runRowid: number,
  bytes: Buffer,
  partBytes = PART_BYTES,
): void {
  const { next, clear, insert } = writeStatements(db);
  const first = next.get() as number;
  clear.run(runRowid);
  for (let part = 0, at = 0; at < bytes.byteLength || part === 0; part++, at += partBytes)
    insert.run(first + part, runRowid, part, bytes.subarray(at, at + partBytes));
}

/** Prepared once per connection: the indexer writes a store for every file. */
const prepared = new WeakMap<Db, Record<'next' | 'clear' | 'insert', Statement>>();

function writeStatements(db: Db): Record<'next' | 'clear' | 'insert', Statement> {
  let found = prepared.get(db);
  if (!found) {
    found = {
      next: db.prepare(`SELECT coalesce(max(rowid), 0) + 1 FROM run_columns`).pluck(),
      clear: db.prepare(`DELETE FROM run_columns WHERE run_rowid = ?`),
      insert: db.prepare(
        `INSERT INTO run_columns (rowid, run_rowid, part, data) VALUES (?, ?, ?, ?)`,
      ),
    };
    prepared.set(db, found);
  }
  return found;
}

/**
 * What tells one version of a run's column store from another without reading it: the run's id
 * and source hash, and each part's rowid and length (a rewrite gives its parts new rowids).
 * Null when the run has none.
 */
export function columnsStamp(db: Db, runRowid: number): string | null {
  const rows = db
    .prepare(
      `SELECT r.id, r.source_sha256 AS sha, c.rowid AS part, length(c.data) AS bytes
         FROM run_columns c JOIN runs r ON r.rowid = c.run_rowid
        WHERE c.run_rowid = ? ORDER BY c.part`,
    )
    .all(runRowid) as { id: string; sha: string | null; part: number; bytes: number }[];
  return rows.length === 0 ? null : JSON.stringify(rows);
}

export function deleteRunColumns(db: Db, runRowid: number): void {
  db.prepare(`DELETE FROM run_columns WHERE run_rowid = ?`).run(runRowid);
}

/** Null when the run has none (indexed before column stores, not yet converted). */
export function readRunColumns(db: Db, runRowid: number): Buffer | null {
  const parts = db
    .prepare(`SELECT data FROM run_columns WHERE run_rowid = ? ORDER BY part`)
    .pluck()
    .all(runRowid) as Buffer[];
  if (parts.length === 0) return null;
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}
