import { computeComparison, type CompareTask } from '../core/compare/compute';
import { openDatabase } from '../core/db/open';
import { serveTasks } from '../core/jobs/worker-runtime';

serveTasks(async (payload, ctx) => {
  const task = payload as CompareTask;
  ctx.progress({ phase: 'loading runs', done: 0, total: task.conditions.length });
  const db = openDatabase(task.dbPath, { readonly: true });
  try {
    return computeComparison(db, task, () => ctx.throwIfCancelled());
  } finally {
    db.close();
  }
});
