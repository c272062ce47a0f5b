import type { Db } from '../db/open';

/** Well under SQLite's longest blob (1e9 bytes): a bigger store is written in parts. */
const PART_BYTES = 256 * 1024 ** 2;

/** Replaces a run's column store; the caller holds the write transaction. */
export function writeRunColumns(
  db: Db,
  runRowid: number,
  bytes: Buffer,
  partBytes = PART_BYTES,
): void {
  db.prepare(`DELETE FROM run_columns WHERE run_rowid = ?`).run(runRowid);
  const insert = db.prepare(`INSERT INTO run_columns (run_rowid, part, data) VALUES (?, ?, ?)`);
  for (let part = 0, at = 0; at < bytes.byteLength || part === 0; part++, at += partBytes)
    insert.run(runRowid, part, bytes.subarray(at, at + partBytes));
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
