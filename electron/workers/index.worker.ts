import { openDatabase, type Db } from '../core/db/open';
import { indexUnit, type IndexTask } from '../core/ingest/index-unit';
import { IndexStore } from '../core/ingest/store';
import { serveTasks } from '../core/jobs/worker-runtime';
import { indexRemoteUnit } from '../core/sources/s3-unit';

/** This worker's own connection per database, opened on its first unit and kept. */
const stores = new Map<string, { db: Db; store: IndexStore }>();

function storeFor(dbPath: string): { db: Db; store: IndexStore } {
  let entry = stores.get(dbPath);
  if (!entry) {
    const db = openDatabase(dbPath);
    // Short waits for the write lock, so a cancel is seen between them (index-unit.ts retries).
    db.pragma('busy_timeout = 1000');
    // SQLite checkpoints the WAL as a commit ends once it holds 1,000 pages (4 MB): with
    // thousands of small files that was a checkpoint every few commits, 56% of the time the
    // lock counted as held. At 32 MB the commits of the 1gb bench library took 23% less time
    // and its pass 15% less wall time.
    db.pragma('wal_autocheckpoint = 8192');
    entry = { db, store: new IndexStore(db) };
    stores.set(dbPath, entry);
  }
  return entry;
}

serveTasks(async (payload, ctx) => {
  const task = payload as IndexTask;
  const { db, store } = storeFor(task.dbPath);
  const onBytes = (bytes: number) =>
    ctx.progress({ phase: 'indexing', done: 0, total: null, detail: task.unit.path, bytes });
  return task.remote
    ? indexRemoteUnit({ ...task, remote: task.remote }, store, db, ctx.signal, onBytes)
    : indexUnit(task, store, ctx.signal, onBytes);
});
