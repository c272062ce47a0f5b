import { setTimeout as sleep, setImmediate as yieldToEvents } from 'node:timers/promises';
import { writeBriefly } from '../db/busy';
import type { Db } from '../db/open';
import type { JobContext, JobManager } from '../jobs/manager';
import { CancelledError } from '../jobs/protocol';
import { allPending, pendingRuns } from './readiness';

/**
 * Examples (by rowid span) per transaction. FTS5 writes a segment per transaction and merges
 * them later, so small transactions cost several times more per example; this many keep each
 * one short enough (tens of ms) that requests get through between them.
 */
const BATCH = 3000;
/** How often a paused fill looks again whether it may go on. */
const PAUSE_MS = 50;

interface RunState {
  indexed_to: number;
  lo: number | null;
  hi: number | null;
}

/**
 * Fills the full-text index after indexing commits, so that writing a run never waits on it:
 * one job at a time, a batch of examples per transaction — from one run or several small
 * ones — with each run's progress in the same transaction, so a crash resumes where the last
 * batch ended. The state a batch reads is read inside its transaction, so a run re-indexed in
 * between (its progress reset by the indexer) is simply started over. Runs asked for by a
 * search go first. While a comparison runs the job waits between batches (unless a search is
 * waiting for it): on a small machine the two would share the cores and the write lock.
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

  /** Starts the job unless it is running; it stops when no run is left to index. */
  schedule(): void {
    if (this.jobId !== null) return;
    if (pendingRuns(this.db).length === 0) return this.settle();
    const jobId = this.jobs.start('search', 'Preparing search', (ctx) => this.fill(ctx));
    this.jobId = jobId;
    void this.jobs.wait(jobId).then((job) => {
      this.jobId = null;
      // New runs may have been indexed while the last batch was written.
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

  private mayGoOn(): boolean {
    return this.priority.size > 0 || !this.jobs.running('compare');
  }

  /** Pending runs, those a search waits for first; forgets those no longer pending. */
  private order(): number[] {
    const pending = pendingRuns(this.db);
    const set = new Set(pending);
    for (const rowid of this.priority) if (!set.has(rowid)) this.priority.delete(rowid);
    return [...this.priority, ...pending.filter((rowid) => !this.priority.has(rowid))];
  }

  private async fill(ctx: JobContext): Promise<void> {
    const state = this.db.prepare(
      `SELECT indexed_to, first_rowid AS lo, last_rowid AS hi FROM run_search
       WHERE run_rowid = ? AND ready = 0`,
    );
    const insert = this.db.prepare(
      `INSERT INTO examples_fts (rowid, input, output) SELECT rowid, input, output FROM examples
       WHERE rowid > ? AND rowid <= ? AND run_rowid = ?`,
    );
    const advance = this.db.prepare(
      `UPDATE run_search SET indexed_to = ?, done = done + ?, ready = ? WHERE run_rowid = ?`,
    );
    /** One transaction: up to `batch` rowids from the runs in order. False when none is left. */
    const step = (): boolean => {
      const runs = this.order();
      let budget = this.batch;
      for (const run of runs) {
        if (budget <= 0) break;
        const s = state.get(run) as RunState | undefined;
        if (!s) continue;
        const from = s.lo === null ? 0 : Math.max(s.indexed_to, s.lo - 1);
        const hi = s.hi ?? from;
        const to = Math.min(hi, from + budget);
        const { changes } = to > from ? insert.run(from, to, run) : { changes: 0 };
        advance.run(to, changes, to >= hi ? 1 : 0, run);
        budget -= Math.max(1, to - from);
      }
      return runs.length > 0;
    };
    // Not inside the caller's turn (the end of an index pass, a request): start on our own.
    await yieldToEvents();
    for (;;) {
      const more = await writeBriefly(
        this.db,
        () => this.db.transaction(step).immediate(),
        async () => {
          await sleep(PAUSE_MS);
          if (ctx.signal.aborted) throw new CancelledError();
        },
      );
      const left = allPending(this.db);
      ctx.progress({ phase: 'Preparing search', done: left?.done ?? 1, total: left?.total ?? 1 });
      if (!more || !left) return;
      await yieldToEvents();
      while (!this.mayGoOn() && !ctx.signal.aborted) await sleep(PAUSE_MS);
      if (ctx.signal.aborted) throw new CancelledError();
    }
  }
}
