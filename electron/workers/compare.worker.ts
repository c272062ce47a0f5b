import { RunTableCache } from '../core/columns/table-cache';
import { computeComparison, type CompareJob } from '../core/compare/compute';
import { pruneReports, savedReport, writeReport } from '../core/compare/store';
import { openDatabase } from '../core/db/open';
import { serveTasks } from '../core/jobs/worker-runtime';

// Comparing the same runs again (another reference or resample count) reuses their stores.
const tables = new RunTableCache();

serveTasks(async (payload, ctx) => {
  const job = payload as CompareJob;
  ctx.progress({ phase: 'loading runs', done: 0, total: job.conditions.length });
  // Its own writer: the report and its per-pair arrays are saved here, off the service's thread.
  const db = openDatabase(job.dbPath);
  // Short waits for the write lock, between which the save checks for a cancel (store.ts).
  db.pragma('busy_timeout = 200');
  try {
    const result = computeComparison(db, job, () => ctx.throwIfCancelled(), {
      cache: tables,
      keepPairings: job.keepPairings !== false,
    });
    const saved = savedReport(result.report);
    if (job.handBack) ctx.send({ report: saved });
    ctx.progress({ phase: 'saving', done: 0, total: null });
    // Computing is synchronous, so a cancel is only delivered when the worker yields.
    const yieldNow = () => new Promise<void>((resolve) => setImmediate(resolve));
    await writeReport(
      db,
      job.key,
      job,
      result,
      async () => {
        await yieldNow();
        ctx.throwIfCancelled();
      },
      saved,
    );
    // The report is readable from here: the runner announces it while old ones are dropped.
    ctx.send('saved');
    // Not cancellable: the report is saved, and each drop is its own short transaction.
    await pruneReports(db, job.experimentId, yieldNow);
    return null;
  } finally {
    db.close();
  }
});
