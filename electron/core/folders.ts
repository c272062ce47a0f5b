import fs from 'node:fs';
import path from 'node:path';
import type { RequestOutput } from '../../shared/contract';
import type { Db } from './db/open';

type Removal = RequestOutput<'library:folderRemoval'>;

function inside(file: string, folder: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}

interface SourceRow {
  id: number;
  path: string;
  runs: number;
}

/**
 * The sources a folder gave, split into those that leave with it and those another watched
 * folder still provides (a folder added inside another, or around it): those stay, and are
 * handed to the other folder.
 */
function split(db: Db, folder: string) {
  const others = (
    db.prepare(`SELECT path FROM folders WHERE path <> ?`).all(folder) as {
      path: string;
    }[]
  ).map((r) => r.path);
  const sources = db
    .prepare(
      `SELECT s.id, s.path, (SELECT COUNT(*) FROM runs r WHERE r.source_id = s.id) AS runs
         FROM sources s WHERE s.folder = ? OR s.path = ? OR substr(s.path, 1, ?) = ?`,
    )
    .all(folder, folder, folder.length + 1, folder + path.sep) as SourceRow[];
  const leave: SourceRow[] = [];
  const stay: { source: SourceRow; by: string }[] = [];
  for (const source of sources) {
    const by = others.find((other) => inside(source.path, other));
    if (by) stay.push({ source, by });
    else leave.push(source);
  }
  return { leave, stay };
}

export function folderRemoval(db: Db, folder: string): Removal {
  const { leave, stay } = split(db, folder);
  return {
    path: folder,
    runs: leave.reduce((n, s) => n + s.runs, 0),
    sources: leave.length,
    kept: stay.reduce((n, s) => n + s.source.runs, 0),
    keptBy: [...new Set(stay.map((s) => s.by))].sort(),
  };
}

/** Removes a folder and the runs no other watched folder provides, in one transaction. */
export function removeFolder(db: Db, folder: string): Removal & { removed: boolean } {
  return db.transaction(() => {
    const plan = folderRemoval(db, folder);
    const { leave, stay } = split(db, folder);
    const drop = db.prepare(`DELETE FROM sources WHERE id = ?`);
    for (const source of leave) drop.run(source.id);
    const hand = db.prepare(`UPDATE sources SET folder = ? WHERE id = ?`);
    for (const { source, by } of stay) hand.run(by, source.id);
    const info = db.prepare(`DELETE FROM folders WHERE path = ?`).run(folder);
    return { ...plan, removed: info.changes > 0 };
  })();
}

/** Adds (or re-adds) a folder to index, watched or not. */
export function addFolder(db: Db, folder: string, watch: boolean): void {
  db.prepare(
    `INSERT INTO folders (path, watched, added_at) VALUES (?, ?, ?)
     ON CONFLICT(path) DO UPDATE SET watched = excluded.watched`,
  ).run(folder, watch ? 1 : 0, new Date().toISOString());
}

/** The watched folders still on disk, to watch again when the library opens. */
export function watchedFolders(db: Db): string[] {
  return (db.prepare(`SELECT path FROM folders WHERE watched = 1`).all() as { path: string }[])
    .map((r) => r.path)
    .filter((p) => fs.existsSync(p) && fs.statSync(p).isDirectory());
}
