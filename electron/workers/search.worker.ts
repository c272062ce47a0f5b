import { openDatabase, type Db } from '../core/db/open';
import { serveTasks } from '../core/jobs/worker-runtime';
import { fillSlice, prepareFillConnection, type FillTask } from '../core/search/fill';
import { scanRun } from '../core/search/scan';
import type { ScanTask } from '../core/search/scans';
import { archiveSlice } from '../core/texts/archive';
import type { ArchiveSliceTask } from '../core/texts/archive-job';

/** This worker's own connection per database, opened on its first slice and kept. */
const connections = new Map<string, Db>();

function connectionFor(dbPath: string): Db {
  let db = connections.get(dbPath);
  if (!db) {
    db = openDatabase(dbPath);
    prepareFillConnection(db);
    connections.set(dbPath, db);
  }
  return db;
}

serveTasks(async (payload, ctx) => {
  const task = payload as FillTask | ArchiveSliceTask | ScanTask;
  if ('kind' in task && task.kind === 'scan')
    return scanRun(connectionFor(task.dbPath), task.run, task.words, ctx.signal);
  if ('kind' in task) return archiveSlice(connectionFor(task.dbPath), task, ctx.signal);
  return fillSlice(connectionFor(task.dbPath), task, ctx.signal);
});
