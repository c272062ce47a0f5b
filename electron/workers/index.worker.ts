import { openDatabase } from '../core/db/open';
import { indexUnit, type IndexTask } from '../core/ingest/index-unit';
import { IndexStore } from '../core/ingest/store';
import { serveTasks } from '../core/jobs/worker-runtime';

/** This worker's own connection per database, opened on its first unit and kept. */
const stores = new Map<string, IndexStore>();

function storeFor(dbPath: string): IndexStore {
  let store = stores.get(dbPath);
  if (!store) {
    const db = openDatabase(dbPath);
    // Short waits for the write lock, so a cancel is seen between them (index-unit.ts retries).
    db.pragma('busy_timeout = 1000');
    store = new IndexStore(db);
    stores.set(dbPath, store);
  }
  return store;
}

serveTasks(async (payload, ctx) => {
  const task = payload as IndexTask;
  return indexUnit(task, storeFor(task.dbPath), ctx.signal, (bytes) =>
    ctx.progress({ phase: 'indexing', done: 0, total: null, detail: task.unit.path, bytes }),
  );
});
