import fs from 'node:fs';
import type Database from 'better-sqlite3';
import { newestBackup } from './backup';

/**
 * Whether the library was closed cleanly, whether it is sound, and whether it is ours at all.
 *
 * A clean close leaves `<file>-closed` with the file's size and mtime; opening removes it. A
 * writer that finds it missing (a crash, a kill, a full disk) or not matching the file (bytes
 * changed by something other than Pairwise) runs `PRAGMA quick_check` before it writes.
 */

function markerFile(file: string): string {
  return `${file}-closed`;
}

interface Marker {
  size: number;
  mtimeMs: number;
}

export function closedCleanly(file: string): boolean {
  try {
    const marker = JSON.parse(fs.readFileSync(markerFile(file), 'utf8')) as Marker;
    const stat = fs.statSync(file);
    return marker.size === stat.size && marker.mtimeMs === stat.mtimeMs;
  } catch {
    return false;
  }
}

export function forgetClosed(file: string): void {
  fs.rmSync(markerFile(file), { force: true });
}

/** After the last connection closed (the WAL is checkpointed into the file by then). */
export function markClosed(file: string): void {
  try {
    const stat = fs.statSync(file);
    const marker: Marker = { size: stat.size, mtimeMs: stat.mtimeMs };
    fs.writeFileSync(markerFile(file), JSON.stringify(marker));
  } catch {
    // No marker means the next open checks the file: the safe side.
  }
}

export class DatabaseDamagedError extends Error {
  constructor(file: string, problems: string[]) {
    const backup = newestBackup(file);
    super(
      `${file} is damaged (SQLite's integrity check found: ${problems.slice(0, 3).join('; ')}). ` +
        'Pairwise will not write to it, so nothing more is lost. ' +
        (backup
          ? `With Pairwise closed, move it aside and copy the newest backup, ${backup}, in its place.`
          : 'There is no backup of it: move it aside and Pairwise will start a new library (your run files are untouched; index them again).'),
    );
    this.name = 'DatabaseDamagedError';
  }
}

export class ForeignDatabaseError extends Error {
  constructor(file: string, tables: string[]) {
    super(
      `${file} is a SQLite database of another program (tables: ${tables.slice(0, 5).join(', ')}${tables.length > 5 ? ', …' : ''}). ` +
        'Pairwise will not change it: give --db the name of a new file or of your Pairwise library.',
    );
    this.name = 'ForeignDatabaseError';
  }
}

/** Problems `PRAGMA quick_check` reports (empty when the file is sound). */
export function quickCheck(db: Database.Database): string[] {
  const rows = db.pragma('quick_check(20)', { simple: false }) as { quick_check: string }[];
  return rows.map((r) => r.quick_check).filter((text) => text !== 'ok');
}

/** A database with tables but not Pairwise's schema is someone else's: never migrate it. */
export function refuseForeign(db: Database.Database, file: string, version: number): void {
  const tables = (
    db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .pluck()
      .all() as string[]
  ).sort();
  if (tables.length === 0) return;
  if (version === 0 || !tables.includes('runs')) throw new ForeignDatabaseError(file, tables);
}
