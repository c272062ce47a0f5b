import { setTimeout as sleep, setImmediate as yieldToEvents } from 'node:timers/promises';
import { untilWritable } from '../db/busy';
import type { Db } from '../db/open';
import type { JobContext, JobManager } from '../jobs/manager';
import { CancelledError } from '../jobs/protocol';
import { allPending, pendingRuns } from './readiness';

/** Examples (by rowid span) per transaction: short enough that requests get through between. */
const BATCH = 2000;
/** How often a paused fill looks again whether it may go on. */
const PAUSE_MS = 50;

interface RunState {
  generation: number;
  indexed_to: number;
  lo: number | null;
  hi: number | null;
}

/**
 * Fills the full-text index after indexing commits, so that writing a run never waits on it:
 * one job at a time, run by run, a batch of examples per transaction with the run's progress in
 * the same transaction (a crash resumes where the last batch ended). Runs asked for by a search
 * go first. A run whose examples are replaced meanwhile (its generation changes) starts over.
 * While a comparison runs the job waits between batches (unless a search is waiting for it):
 * on a small machine the two would share the cores and the write lock.
 */
export class SearchIndexer {
  private jobId: string | null = null;
  private readonly priority = new Set<number>();
  private readonly waiters: (() => void)[] = [];

  constructor(
    private readonly db: Db,
    private readonly jobs: JobManager,
    private readonly batch = BATCH,
  ) {}

  private mayGoOn(): boolean {
    return this.priority.size > 0 || !this.jobs.running('compare');
  }

  /** Starts the job unless it is running; it stops when no run is left to index. */
  schedule(): void {
    if (this.jobId !== null) return;
    if (pendingRuns(this.db).length === 0) return this.settle();
    const jobId = this.jobs.start('search', 'Preparing search', (ctx) => this.fill(ctx));
    this.jobId = jobId;
    void this.jobs.wait(jobId).then((job) => {
      this.jobId = null;
      // New runs may have been indexed while the last one was being filled.
      if (job?.state === 'finished') this.schedule();
      else this.settle();
    });
  }

  /** These runs next: a search is waiting for them. */
  prioritise(runRowids: number[]): void {
    for (const rowid of runRowids) this.priority.add(rowid);
    this.schedule();
  }

  /** Resolves once every run is searchable, or the job stopped (cancelled, failed). */
  idle(): Promise<void> {
    if (this.jobId === null && pendingRuns(this.db).length === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.waiters.push(resolve);
      this.schedule();
    });
  }

  private settle(): void {
    for (const resolve of this.waiters.splice(0)) resolve();
  }

  private next(): number | null {
    const pending = pendingRuns(this.db);
    const set = new Set(pending);
    for (const rowid of this.priority) {
      if (set.has(rowid)) return rowid;
      this.priority.delete(rowid);
    }
    return pending[0] ?? null;
  }

  private async fill(ctx: JobContext): Promise<void> {
    for (let run = this.next(); run !== null; run = this.next()) {
      await this.fillRun(run, ctx);
      if (ctx.signal.aborted) throw new CancelledError();
    }
    const left = allPending(this.db);
    ctx.progress({ phase: 'Preparing search', done: left?.done ?? 1, total: left?.total ?? 1 });
  }

  private state(runRowid: number): RunState | null {
    // One read transaction: the span and the generation it belongs to are seen together.
    return this.db.transaction(() => {
      const state = this.db
        .prepare(`SELECT generation, indexed_to FROM run_search WHERE run_rowid = ? AND ready = 0`)
        .get(runRowid) as { generation: number; indexed_to: number } | undefined;
      if (!state) return null;
      const span = this.db
        .prepare(`SELECT min(rowid) AS lo, max(rowid) AS hi FROM examples WHERE run_rowid = ?`)
        .get(runRowid) as { lo: number | null; hi: number | null };
      return { ...state, ...span };
    })();
  }

  private write<T>(ctx: JobContext, work: () => T): Promise<T> {
    return untilWritable(
      () => this.db.transaction(work).immediate(),
      async () => {
        await yieldToEvents();
        if (ctx.signal.aborted) throw new CancelledError();
      },
    );
  }

  /** Returns when the run is searchable, replaced, or a prioritised run should go first. */
  private async fillRun(runRowid: number, ctx: JobContext): Promise<void> {
    const state = this.state(runRowid);
    if (!state) return;
    const { generation, hi } = state;
    const current = this.db.prepare(
      `SELECT indexed_to FROM run_search WHERE run_rowid = ? AND generation = ? AND ready = 0`,
    );
    const insert = this.db.prepare(
      `INSERT INTO examples_fts (rowid, input, output) SELECT rowid, input, output FROM examples
       WHERE rowid > ? AND rowid <= ? AND run_rowid = ?`,
    );
    const advance = this.db.prepare(
      `UPDATE run_search SET indexed_to = ?, done = done + ? WHERE run_rowid = ?`,
    );
    const finish = this.db.prepare(`UPDATE run_search SET ready = 1 WHERE run_rowid = ?`);
    let from = state.lo === null ? 0 : Math.max(state.indexed_to, state.lo - 1);
    for (;;) {
      const more = await this.write(ctx, () => {
        const row = current.get(runRowid, generation) as { indexed_to: number } | undefined;
        if (!row || row.indexed_to > from) return false;
        if (hi === null || from >= hi) {
          finish.run(runRowid);
          return false;
        }
        const to = Math.min(hi, from + this.batch);
        const { changes } = insert.run(from, to, runRowid);
        advance.run(to, changes, runRowid);
        from = to;
        return true;
      });
      if (!more) return;
      const left = allPending(this.db);
      if (left) ctx.progress({ phase: 'Preparing search', done: left.done, total: left.total });
      await yieldToEvents();
      while (!this.mayGoOn() && !ctx.signal.aborted) await sleep(PAUSE_MS);
      if (ctx.signal.aborted) return;
      if (!this.priority.has(runRowid) && [...this.priority].some((r) => r !== runRowid)) return;
    }
  }
}
