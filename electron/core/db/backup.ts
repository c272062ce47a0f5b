import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';

/**
 * Rotating copies of the library, beside it in `<file>.backups/`: one before each migration
 * (the two newest kept) and one a day (the three newest kept). Made with `VACUUM INTO`, SQLite's
 * online copy: consistent while other connections read and write, compact, and synchronous, so
 * it fits the synchronous open that runs migrations (better-sqlite3's backup API is async).
 */

const KEEP = { migration: 2, daily: 3 } as const;
type Kind = keyof typeof KEEP;

export function backupDir(file: string): string {
  return `${path.resolve(file)}.backups`;
}

function list(file: string, kind?: Kind): { name: string; full: string; mtimeMs: number }[] {
  const dir = backupDir(file);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names
    .filter((name) => name.endsWith('.db') && (!kind || name.startsWith(`${kind}-`)))
    .map((name) => {
      const full = path.join(dir, name);
      return { name, full, mtimeMs: fs.statSync(full).mtimeMs };
    })
    .sort((a, b) => b.mtimeMs - a.mtimeMs || b.name.localeCompare(a.name));
}

/** The newest backup of either kind, or null. */
export function newestBackup(file: string): string | null {
  return list(file)[0]?.full ?? null;
}

function day(now: Date): string {
  return now.toISOString().slice(0, 10);
}

export function dailyBackupDue(file: string, now = new Date()): boolean {
  return !list(file, 'daily').some((b) => b.name === `daily-${day(now)}.db`);
}

/** The copy would leave at least the library's size and 64 MiB free: a backup must never be
 * what fills the disk the library lives on. */
function roomFor(dir: string, size: number): boolean {
  const { bavail, bsize } = fs.statfsSync(dir);
  return bavail * bsize >= 2 * size + 64 * 1024 * 1024;
}

/**
 * Copies the library; returns the copy's path, or null when it was not made (too little room,
 * or a full disk: the library itself is untouched, and a half-written copy is removed).
 */
export function makeBackup(
  db: Database.Database,
  file: string,
  kind: Kind,
  label: string,
  now = new Date(),
): string | null {
  const dir = backupDir(file);
  const target = path.join(dir, `${kind}-${kind === 'daily' ? day(now) : label}.db`);
  const partial = `${target}.partial`;
  try {
    fs.mkdirSync(dir, { recursive: true });
    if (!roomFor(dir, fs.statSync(file).size)) return null;
    fs.rmSync(partial, { force: true });
    db.prepare('VACUUM INTO ?').run(partial);
    fs.renameSync(partial, target);
  } catch {
    fs.rmSync(partial, { force: true });
    return null;
  }
  for (const old of list(file, kind).slice(KEEP[kind])) fs.rmSync(old.full, { force: true });
  return target;
}
